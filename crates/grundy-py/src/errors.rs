//! Errors as Python exceptions (`grundy.ParseError`, `grundy.LimitError`,
//! `grundy.GameError`, defined in `grundy/_errors.py`), with the messages of the
//! command line, where each limit names the keyword argument that raises it
//! instead of the flag.

use std::cell::RefCell;

use grundy::lang::LangError;
use grundy::theory::limits::{Limit, SearchError};
use grundy::workflow::{Door, Failure};
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;

thread_local! {
    /// The exception a Python game's callback raised in the last computation
    /// this thread called ([`crate::run::watched`] sets it as the call ends),
    /// kept so that the `GameError` it becomes carries it as its
    /// `__cause__`.
    static CALLBACK_ERROR: RefCell<Option<PyErr>> = const { RefCell::new(None) };
}

/// Keeps `error`, raised by a Python game's callback, for the `GameError` it
/// becomes: in the keeping place of the computation that called it, or, when
/// the callback was called outside any, for the calling thread.
pub fn keep_callback_error(error: PyErr) {
    if let Err(error) = grundy::theory::cancel::keep(error) {
        set_callback_error(Some(error));
    }
}

/// Makes `error` the callback's exception of the computation this thread
/// called last (`None`: it raised none).
pub fn set_callback_error(error: Option<PyErr>) {
    CALLBACK_ERROR.with(|kept| *kept.borrow_mut() = error);
}

fn take_callback_error() -> Option<PyErr> {
    CALLBACK_ERROR.with(|kept| kept.borrow_mut().take())
}

/// An instance of the exception class `name` of `grundy._errors`, made with `args`.
fn exception<'py>(py: Python<'py>, name: &str, args: impl pyo3::call::PyCallArgs<'py>) -> PyErr {
    let made = py
        .import("grundy._errors")
        .and_then(|module| module.getattr(name))
        .and_then(|class| class.call1(args));
    match made {
        Ok(instance) => PyErr::from_value(instance),
        Err(error) => error,
    }
}

/// `LimitError(message, limit)`: `limit` is the keyword that raises it
/// (`"max_states"`), or `None` when none does.
pub fn limit_error(py: Python<'_>, message: &str, limit: Option<&str>) -> PyErr {
    exception(py, "LimitError", (message, limit))
}

/// `GameError(message)`, with the exception a callback raised as its cause.
pub fn game_error(py: Python<'_>, message: &str) -> PyErr {
    let error = exception(py, "GameError", (message,));
    if let Some(cause) = take_callback_error() {
        error.set_cause(py, Some(cause));
    }
    error
}

/// `ParseError(message, column, caret)` for `error` in `source`: the text is
/// the command line's, `column` counts characters from 1 and `caret` is the
/// source line and the caret under the place.
pub fn language_error(py: Python<'_>, error: &LangError, source: &str) -> PyErr {
    let failure = Failure::language(error, source, Door::Python);
    if let Failure::Input { message, column } = &failure {
        let text = message.strip_prefix("error: ").unwrap_or(message);
        return exception(
            py,
            "ParseError",
            (
                text,
                error.message.as_str(),
                column.unwrap_or(1),
                caret_of(text),
            ),
        );
    }
    failure_error(py, failure)
}

/// The place of a language error rendered against its source: the lines
/// after the first (the source line and a caret under the place), without
/// the help.
fn caret_of(text: &str) -> String {
    text.lines()
        .skip(1)
        .take_while(|line| !line.starts_with("help: "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A search that stopped, as the exception it is: a limit (`LimitError`), or
/// a game that fails or loops (`GameError`). Cancellation is handled by the
/// caller (Ctrl-C, or `max_time`).
pub fn search_error(py: Python<'_>, error: &SearchError) -> PyErr {
    match error {
        SearchError::Cancelled => time_error(py, None),
        _ => failure_error(py, Failure::search(error, Door::Python)),
    }
}

/// A workflow's failure as the Python exception it is: `ParseError` (without
/// a column: see [`language_error`] for one with it), `GameError`,
/// `LimitError` naming its keyword, or `OSError`.
pub fn failure_error(py: Python<'_>, failure: Failure) -> PyErr {
    match failure {
        Failure::Input {
            message,
            column: Some(column),
        } => {
            // A language error rendered against its source: its first line
            // says what is wrong and where, the next ones show the place.
            let text = message.strip_prefix("error: ").unwrap_or(&message);
            let first = text.lines().next().unwrap_or(text);
            let reason = first
                .rsplit_once(" (")
                .filter(|(_, place)| place.contains("column "))
                .map_or(first, |(reason, _)| reason);
            exception(py, "ParseError", (text, reason, column, caret_of(text)))
        }
        Failure::Input { message, .. } => {
            let text = message.strip_prefix("error: ").unwrap_or(&message);
            exception(py, "ParseError", (text, text, 1, ""))
        }
        Failure::Game(message) => {
            game_error(py, message.strip_prefix("error: ").unwrap_or(&message))
        }
        Failure::Limit {
            raised_by: Some(Limit::Time),
            ..
        } => time_error(py, None),
        Failure::Limit { message, raised_by } => limit_error(
            py,
            message.strip_prefix("error: ").unwrap_or(&message),
            raised_by.map(|limit| Door::Python.setting_name(limit)),
        ),
        Failure::Output(error) => error.into(),
        Failure::Reported(_) => PyKeyboardInterrupt::new_err(""),
    }
}

/// A setting's failure: `ValueError` for a bad value, `LimitError` naming
/// the keyword for a limit that allows nothing.
pub fn setting_error(py: Python<'_>, failure: Failure) -> PyErr {
    match failure {
        Failure::Input { message, .. } => value_error(&message),
        Failure::Limit { message, raised_by } => limit_error(
            py,
            message.strip_prefix("error: ").unwrap_or(&message),
            raised_by.map(|limit| Door::Python.setting_name(limit)),
        ),
        failure => failure_error(py, failure),
    }
}

/// `ValueError(message)`, the message without its `error: `.
pub fn value_error(message: &str) -> PyErr {
    PyValueError::new_err(
        message
            .strip_prefix("error: ")
            .unwrap_or(message)
            .to_owned(),
    )
}

/// The time limit (`max_time`) passed.
pub fn time_error(py: Python<'_>, seconds: Option<f64>) -> PyErr {
    let within = seconds.map_or_else(String::new, |s| format!(" within {s} s"));
    limit_error(
        py,
        &format!(
            "the computation did not finish{within} (the time limit); raise it with max_time=SECONDS"
        ),
        Some("max_time"),
    )
}
