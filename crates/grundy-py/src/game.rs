//! Games written as Python functions: `grundy.Game(moves=..., split=None,
//! describe=None)`, the library's family of games whose moves functions give
//! ([`grundy::games::callback`]). This module converts positions between
//! Python values and the library's [`Value`] and calls the functions, with
//! the interpreter's lock; the library reads what they return.

use std::sync::Arc;

use grundy::games::callback::{Function, Functions, Game as Rules, Reader, Value, Wrong};
use grundy::sums::position::Group;
use grundy::theory::cancel;
use grundy::workflow::{Door, Failure};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList, PyString, PyTuple};

use crate::errors::failure_error;

/// Reads a Python value as a position: an int (64-bit), a str, or a tuple or
/// list of them.
///
/// # Errors
/// `TypeError` for another type, `ValueError` for an integer beyond 64 bits.
pub fn value_of(value: &Bound<'_, PyAny>) -> PyResult<Value> {
    if let Ok(text) = value.cast::<PyString>() {
        return Ok(Value::Text(text.to_cow()?.into()));
    }
    if value.is_instance_of::<PyInt>() {
        return value.extract::<i64>().map(Value::Integer).map_err(|_| {
            PyValueError::new_err(format!(
                "{value} is out of range: a position's integers are 64-bit, from {} to {}",
                i64::MIN,
                i64::MAX
            ))
        });
    }
    if value.is_instance_of::<PyTuple>() || value.is_instance_of::<PyList>() {
        let items = value.try_iter()?.map(|item| value_of(&item?));
        return Ok(Value::Tuple(items.collect::<PyResult<Vec<_>>>()?.into()));
    }
    Err(PyTypeError::new_err(format!(
        "a position is an int, a str, or a tuple or list of them, not {} ({})",
        value.get_type().name()?,
        value.repr()?
    )))
}

/// A position as a Python value: an int, a str or a tuple.
fn python_of<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    match value {
        Value::Integer(n) => Ok(n.into_pyobject(py)?.into_any()),
        Value::Text(text) => Ok(PyString::new(py, text).into_any()),
        Value::Tuple(items) => {
            let items = items.iter().map(|item| python_of(py, item));
            Ok(PyTuple::new(py, items.collect::<PyResult<Vec<_>>>()?)?.into_any())
        }
    }
}

/// `a int`: a value's type, for messages.
fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "an object".to_owned(), |name| format!("a {name}"))
}

/// A game's Python functions.
struct Callables {
    moves: Py<PyAny>,
    split: Option<Py<PyAny>>,
    describe: Option<Py<PyAny>>,
}

impl Functions for Callables {
    fn call(
        &self,
        function: Function,
        position: &Value,
        read: &mut Reader<'_>,
    ) -> Result<(), Wrong> {
        Python::attach(|py| {
            let callable = match function {
                Function::Moves => &self.moves,
                Function::Split => self.split.as_ref().unwrap_or(&self.moves),
            };
            let argument = python_of(py, position).map_err(|e| Wrong::Argument(e.to_string()))?;
            let result = callable.bind(py).call1((argument,)).map_err(|error| {
                let kind = error.get_type(py).name();
                let kind = kind.map_or_else(|_| "an exception".to_owned(), |name| name.to_string());
                let message = error.value(py).to_string();
                cancel::keep(error);
                Wrong::Raised { kind, message }
            })?;
            let items = result
                .try_iter()
                .map_err(|_| Wrong::NotAList(type_name(&result)))?;
            for item in items {
                let item = item.map_err(|e| Wrong::Unreadable(e.to_string()))?;
                read(value_of(&item).map_err(|e| e.to_string()))?;
            }
            Ok(())
        })
    }

    fn describe(&self, from: &Value, to: &[Value], as_list: bool) -> Option<String> {
        let describe = self.describe.as_ref()?;
        Python::attach(|py| {
            let from = python_of(py, from).ok()?;
            let to = if as_list {
                let parts = to.iter().map(|part| python_of(py, part));
                PyList::new(py, parts.collect::<PyResult<Vec<_>>>().ok()?)
                    .ok()?
                    .into_any()
            } else {
                python_of(py, to.first()?).ok()?
            };
            describe.bind(py).call1((from, to)).ok()?.extract().ok()
        })
    }

    fn enter(&self, work: &mut dyn FnMut()) {
        Python::attach(|_| work());
    }
}

/// A game whose moves a Python function gives.
///
/// `moves(p)` returns the positions one move from `p` leads to (a list, one
/// entry per move); `split(p)` (optional) the independent parts `p` is the sum
/// of; `describe(from, to)` (optional) the text naming a move. `g(7)` is a
/// position, used as any other part of a sum.
#[derive(Debug)]
#[pyclass(frozen, module = "grundy._native", name = "Game")]
pub struct Game {
    pub(crate) family: Arc<Rules>,
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (moves, split=None, describe=None, name=None))]
    fn new(
        py: Python<'_>,
        moves: Py<PyAny>,
        split: Option<Py<PyAny>>,
        describe: Option<Py<PyAny>>,
        name: Option<String>,
    ) -> PyResult<Self> {
        for (what, function) in [
            ("moves", Some(&moves)),
            ("split", split.as_ref()),
            ("describe", describe.as_ref()),
        ] {
            if let Some(function) = function.filter(|f| !f.bind(py).is_callable()) {
                let kind = type_name(function.bind(py));
                return Err(PyTypeError::new_err(format!(
                    "`{what}` must be a function, not {kind}"
                )));
            }
        }
        let own = moves
            .bind(py)
            .getattr("__name__")
            .and_then(|n| n.extract::<String>());
        let has_split = split.is_some();
        let functions = Box::new(Callables {
            moves,
            split,
            describe,
        });
        let rules = Rules::new(name, &own.unwrap_or_default(), has_split, functions);
        let family = Arc::new(rules.map_err(PyValueError::new_err)?);
        Ok(Self { family })
    }

    /// The position of this game given by `args`: one argument is the
    /// position; several are one tuple (without `split`), or each a position
    /// of its own and the term their sum (with `split`).
    #[pyo3(signature = (*args))]
    fn __call__(&self, py: Python<'_>, args: &Bound<'_, PyTuple>) -> PyResult<GamePosition> {
        let given = args
            .iter()
            .map(|arg| value_of(&arg))
            .collect::<PyResult<Vec<_>>>()?;
        let positions = self.family.term(given).map_err(PyTypeError::new_err)?;
        let parts = self.family.parts_of(positions);
        let parts =
            parts.map_err(|error| failure_error(py, Failure::search(&error, Door::Python)))?;
        Ok(GamePosition {
            family: Arc::clone(&self.family),
            parts,
        })
    }

    /// The game's name, as positions are written: `name(7)`.
    #[getter]
    fn name(&self) -> &str {
        self.family.name()
    }

    fn __repr__(&self) -> String {
        format!("grundy.Game(name={:?})", self.family.name())
    }
}

/// A position of a Python game: `g(7)`.
#[derive(Debug)]
#[pyclass(frozen, module = "grundy._native", name = "GamePosition")]
pub struct GamePosition {
    family: Arc<Rules>,
    parts: Vec<Value>,
}

impl GamePosition {
    /// The term of a sum this position is.
    pub fn group(&self) -> Group {
        self.family.group(&self.parts)
    }
}

#[pymethods]
impl GamePosition {
    fn __repr__(&self) -> String {
        let group = self.group();
        group.term_with(&group.parts)
    }

    fn __str__(&self) -> String {
        self.__repr__()
    }
}
