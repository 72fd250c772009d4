//! Errors as Python exceptions (`grundy.ParseError`, `grundy.LimitError`,
//! `grundy.GameError`, defined in `grundy/_errors.py`), with the messages of the
//! command line, where each limit names the keyword argument that raises it
//! instead of the flag.

use grundy::theory::cancel;
use grundy::workflow::{Door, Failure};
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;

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
    let cause = cancel::take_kept().and_then(|cause| cause.downcast::<PyErr>().ok());
    error.set_cause(py, cause.map(|cause| *cause));
    error
}

/// A workflow's failure as the Python exception it is: `ParseError(text,
/// message, column, caret)` (column 1 and no caret without a place in an
/// expression), `GameError`, `LimitError` naming its keyword, or `OSError`.
pub fn failure_error(py: Python<'_>, failure: Failure) -> PyErr {
    let said = failure.said();
    match failure {
        Failure::Input { column, .. } => {
            let column = column.unwrap_or(1);
            exception(
                py,
                "ParseError",
                (said.text, said.reason, column, said.place),
            )
        }
        Failure::Game(_) => game_error(py, &said.text),
        Failure::Limit { raised_by, .. } => limit_error(
            py,
            &said.text,
            raised_by.map(|limit| Door::Python.setting_name(limit)),
        ),
        Failure::Output(error) => error.into(),
        Failure::Reported(_) => PyKeyboardInterrupt::new_err(""),
    }
}

/// A setting's failure: `ValueError` for a bad value, as
/// [`failure_error`] says the others (a limit that allows nothing).
pub fn setting_error(py: Python<'_>, failure: Failure) -> PyErr {
    match failure {
        Failure::Input { .. } => value_error(&failure),
        failure => failure_error(py, failure),
    }
}

/// `ValueError` saying `failure`.
pub fn value_error(failure: &Failure) -> PyErr {
    PyValueError::new_err(failure.said().text)
}
