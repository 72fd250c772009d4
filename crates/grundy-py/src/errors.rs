//! Errors as Python exceptions (`grundy.ParseError`, `grundy.LimitError`,
//! `grundy.GameError`, defined in `grundy/_errors.py`), with the messages of the
//! command line, where each limit names the keyword argument that raises it
//! instead of the flag.

use std::sync::Mutex;

use grundy::lang::LangError;
use grundy::solver::{Limit, SearchError};
use pyo3::prelude::*;

/// The exception a Python game's callback raised last, kept so that the
/// `GameError` it becomes carries it as its `__cause__`.
static LAST_CALLBACK_ERROR: Mutex<Option<PyErr>> = Mutex::new(None);

/// Keeps `error`, raised by a Python game's callback, for the `GameError` it
/// becomes.
pub fn keep_callback_error(error: PyErr) {
    if let Ok(mut last) = LAST_CALLBACK_ERROR.lock() {
        *last = Some(error);
    }
}

fn take_callback_error() -> Option<PyErr> {
    LAST_CALLBACK_ERROR
        .lock()
        .ok()
        .and_then(|mut last| last.take())
}

/// The keyword argument that raises `limit`, with its value's form.
pub const fn keyword(limit: Limit) -> &'static str {
    match limit {
        Limit::States => "max_states=N",
        Limit::Work => "max_work=STEPS",
        Limit::Memory => "max_memory=BYTES",
        Limit::LargestHeap => "max_heap=N",
        Limit::Digits => "max_digits=N",
    }
}

/// The keyword's name alone (`max_states`), as `LimitError.limit` holds it.
fn keyword_name(limit: Limit) -> &'static str {
    let form = keyword(limit);
    form.split('=').next().unwrap_or(form)
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
    let rendered = error.render(source);
    let text = rendered.strip_prefix("error: ").unwrap_or(&rendered);
    if let Some(limit) = error.limit {
        let message = format!("{text}\nhelp: raise the limit with {}", keyword(limit));
        return limit_error(py, &message, Some(keyword_name(limit)));
    }
    let start = error.span.start.min(source.len());
    let column = source.get(..start).map_or(1, |before| {
        before.rsplit('\n').next().unwrap_or("").chars().count() + 1
    });
    let caret: String = text
        .lines()
        .skip(1)
        .take_while(|line| !line.starts_with("help: "))
        .collect::<Vec<_>>()
        .join("\n");
    exception(
        py,
        "ParseError",
        (text, error.message.as_str(), column, caret),
    )
}

/// A search that stopped, as the exception it is: a limit (`LimitError`), or
/// a game that fails or loops (`GameError`). Cancellation is handled by the
/// caller (Ctrl-C, or `max_time`).
pub fn search_error(py: Python<'_>, error: &SearchError) -> PyErr {
    match error {
        SearchError::StateLimit { limit } => limit_error(
            py,
            &format!(
                "the search needs more than {limit} positions, or more than 4 moves stored per position allowed (the state limit); raise it with max_states=N"
            ),
            Some("max_states"),
        ),
        SearchError::MemoryLimit { limit } => limit_error(
            py,
            &format!(
                "the search needs more than {limit} bytes of memory (the memory limit); raise it with max_memory=BYTES"
            ),
            Some("max_memory"),
        ),
        SearchError::Cycle => game_error(py, &error.to_string()),
        SearchError::Script { message } => game_error(py, message),
        SearchError::Cancelled => time_error(py, None),
        SearchError::CountLimit { refusal, nimber } => {
            let message = match nimber {
                Some(nimber) => format!(
                    "the first player wins (nimber {nimber}), but the winning moves cannot be counted: {}{}",
                    refusal.reason,
                    raise_with(&refusal.raised_by)
                ),
                None => format!("{error}{}", raise_with(&refusal.raised_by)),
            };
            limit_error(
                py,
                &message,
                refusal.raised_by.first().copied().map(keyword_name),
            )
        }
        SearchError::TheoryLimit { refusal } => limit_error(
            py,
            &format!("{}{}", refusal.reason, raise_with(&refusal.raised_by)),
            refusal.raised_by.first().copied().map(keyword_name),
        ),
    }
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

/// "; raise it with max_work=STEPS", or nothing when no keyword raises the limit.
pub fn raise_with(limits: &[Limit]) -> String {
    let keywords: Vec<&str> = limits.iter().map(|&limit| keyword(limit)).collect();
    match keywords.as_slice() {
        [] => String::new(),
        [one] => format!("; raise it with {one}"),
        [rest @ .., last] => format!("; raise them with {} and {last}", rest.join(", ")),
    }
}
