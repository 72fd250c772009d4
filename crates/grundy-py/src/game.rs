//! Games written as Python functions: `grundy.Game(moves=..., split=None,
//! describe=None)`, a family ([`grundy::family::Family`]) whose moves a Python
//! callable gives, as `script[...]` games take theirs from a Rhai script
//! (`grundy::games::script`). Sums, winning moves, misère play, tables and
//! sequences then come from the generic adapter.
//!
//! A position is an integer (64-bit), a string, or a tuple (or list) of them,
//! nested as deep as wanted; it is held in Rust ([`PyPosition`]) so that
//! searches hash and compare positions without the GIL, which is taken only to
//! call the game's functions.

use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use grundy::family::{Family, parts};
use grundy::sums::position::Group;
use grundy::theory::limits::SearchError;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList, PyString, PyTuple};

use crate::errors::keep_callback_error;

/// A position of a Python game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PyPosition {
    /// An integer.
    Integer(i64),
    /// A string.
    Text(Box<str>),
    /// A tuple (a list is read as one).
    Tuple(Box<[PyPosition]>),
}

impl PyPosition {
    /// Reads a Python value as a position.
    ///
    /// # Errors
    /// `TypeError` for another type, `ValueError` for an integer beyond 64 bits.
    pub fn from_python(value: &Bound<'_, PyAny>) -> PyResult<Self> {
        if let Ok(text) = value.cast::<PyString>() {
            return Ok(Self::Text(text.to_cow()?.into()));
        }
        if value.is_instance_of::<PyInt>() {
            return value.extract::<i64>().map(Self::Integer).map_err(|_| {
                PyValueError::new_err(format!(
                    "{value} is out of range: a position's integers are 64-bit, from {} to {}",
                    i64::MIN,
                    i64::MAX
                ))
            });
        }
        if value.is_instance_of::<PyTuple>() || value.is_instance_of::<PyList>() {
            let items = value
                .try_iter()?
                .map(|item| Self::from_python(&item?))
                .collect::<PyResult<Vec<_>>>()?;
            return Ok(Self::Tuple(items.into()));
        }
        Err(PyTypeError::new_err(format!(
            "a position is an int, a str, or a tuple or list of them, not {} ({})",
            value.get_type().name()?,
            value.repr()?
        )))
    }

    /// The position as a Python value: an int, a str or a tuple.
    pub fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Self::Integer(n) => Ok(n.into_pyobject(py)?.into_any()),
            Self::Text(text) => Ok(PyString::new(py, text).into_any()),
            Self::Tuple(items) => {
                let items = items
                    .iter()
                    .map(|item| item.to_python(py))
                    .collect::<PyResult<Vec<_>>>()?;
                Ok(PyTuple::new(py, items)?.into_any())
            }
        }
    }

    /// As Python writes it: `7`, `'abc'`, `(5, 3)`, `(5,)`.
    pub fn write(&self, out: &mut String) {
        match self {
            Self::Integer(n) => {
                let _ = write!(out, "{n}");
            }
            Self::Text(text) => {
                out.push('\'');
                for c in text.chars() {
                    match c {
                        '\'' | '\\' => {
                            out.push('\\');
                            out.push(c);
                        }
                        '\n' => out.push_str("\\n"),
                        c => out.push(c),
                    }
                }
                out.push('\'');
            }
            Self::Tuple(items) => {
                out.push('(');
                write_items(out, items);
                if items.len() == 1 {
                    out.push(',');
                }
                out.push(')');
            }
        }
    }

    fn written(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }
}

fn write_items(out: &mut String, items: &[PyPosition]) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        item.write(out);
    }
}

/// Numbers each game, so that two games are the same family only when they are
/// the same `Game` object.
static NEXT_GAME: AtomicU64 = AtomicU64::new(0);

/// The rules of a Python game: its functions.
pub struct PyGame {
    id: u64,
    name: String,
    moves: Py<PyAny>,
    split: Option<Py<PyAny>>,
    describe: Option<Py<PyAny>>,
}

impl std::fmt::Debug for PyGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PyGame")
            .field("name", &self.name)
            .field("split", &self.split.is_some())
            .field("describe", &self.describe.is_some())
            .finish_non_exhaustive()
    }
}

impl PartialEq for PyGame {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl PyGame {
    /// The game's name, as its positions are written: `name(7)`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Calls `function` of the game on `args`, `call` writing the call for
    /// messages (`moves(7)`); an exception becomes the message of a `GameError`
    /// naming the game and the position.
    fn call<'py>(
        &self,
        py: Python<'py>,
        function: &Py<PyAny>,
        args: impl pyo3::call::PyCallArgs<'py>,
        call: &dyn Fn() -> String,
    ) -> Result<Bound<'py, PyAny>, String> {
        function.bind(py).call1(args).map_err(|error| {
            let kind = error
                .get_type(py)
                .name()
                .map_or_else(|_| "an exception".to_owned(), |name| name.to_string());
            let message = format!(
                "game `{}`: {} raised {kind}: {}",
                self.name,
                call(),
                error.value(py)
            );
            keep_callback_error(error);
            message
        })
    }

    /// The positions `function` returned, read as a list of positions.
    fn positions(
        &self,
        result: &Bound<'_, PyAny>,
        function: &str,
        call: &dyn Fn() -> String,
        limit: usize,
    ) -> Result<Vec<PyPosition>, SearchError> {
        let wrong = |why: String| SearchError::Script {
            message: format!("game `{}`: {} {why}", self.name, call()),
        };
        let items = result.try_iter().map_err(|_| {
            wrong(format!(
                "returned {}, not a list of positions (`{function}` returns e.g. `[4, 2]`)",
                type_name(result)
            ))
        })?;
        let mut positions = Vec::new();
        for (index, item) in items.enumerate() {
            let item = item.map_err(|e| wrong(format!("failed while its result was read: {e}")))?;
            let position = PyPosition::from_python(&item).map_err(|e| {
                wrong(format!(
                    "returned a list whose element {index} (from 0) is not a position: {e}"
                ))
            })?;
            positions.push(position);
            if positions.len() > limit {
                return Err(SearchError::StateLimit { limit });
            }
        }
        Ok(positions)
    }

    /// The parts of `position`: `split(position)`, or the position itself
    /// without `split`.
    pub(crate) fn parts_of(
        &self,
        py: Python<'_>,
        position: PyPosition,
    ) -> Result<Vec<PyPosition>, SearchError> {
        let Some(split) = &self.split else {
            return Ok(vec![position]);
        };
        let call = || format!("split({})", position.written());
        let argument = position.to_python(py).map_err(|e| SearchError::Script {
            message: e.to_string(),
        })?;
        let result = self
            .call(py, split, (argument,), &call)
            .map_err(|message| SearchError::Script { message })?;
        self.positions(&result, "split", &call, usize::MAX)
    }

    /// The moves of `position`, each the parts it leaves, at most `limit`.
    fn moves_of(
        &self,
        py: Python<'_>,
        position: &PyPosition,
        limit: usize,
    ) -> Result<Vec<Vec<PyPosition>>, SearchError> {
        let call = || format!("moves({})", position.written());
        let argument = position.to_python(py).map_err(|e| SearchError::Script {
            message: e.to_string(),
        })?;
        let result = self
            .call(py, &self.moves, (argument,), &call)
            .map_err(|message| SearchError::Script { message })?;
        let options = self.positions(&result, "moves", &call, limit)?;
        options
            .into_iter()
            .map(|option| self.parts_of(py, option))
            .collect()
    }
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "an object".to_owned(), |name| format!("a {name}"))
}

impl Family for PyGame {
    type Position = PyPosition;

    /// A tuple of two or more items is written `5, 3` when it is the whole
    /// term's position (a game without `split`), as `g(5, 3)` makes it.
    fn write_position(&self, position: &PyPosition, out: &mut String) {
        match position {
            PyPosition::Tuple(items) if self.split.is_none() && items.len() >= 2 => {
                write_items(out, items);
            }
            other => other.write(out),
        }
    }

    fn moves(
        &self,
        position: &PyPosition,
        limit: usize,
    ) -> Result<Vec<Vec<PyPosition>>, SearchError> {
        Python::attach(|py| self.moves_of(py, position, limit))
    }

    fn describe_move(&self, from: &PyPosition, to: &[PyPosition]) -> String {
        let written = || match to {
            [one] if self.split.is_none() => one.written(),
            [] => "nothing".to_owned(),
            parts => parts
                .iter()
                .map(PyPosition::written)
                .collect::<Vec<_>>()
                .join(" + "),
        };
        if let Some(describe) = &self.describe {
            let described = Python::attach(|py| -> Option<String> {
                let from_value = from.to_python(py).ok()?;
                let to_value = if self.split.is_some() {
                    let parts = to
                        .iter()
                        .map(|part| part.to_python(py))
                        .collect::<PyResult<Vec<_>>>()
                        .ok()?;
                    PyList::new(py, parts).ok()?.into_any()
                } else {
                    to.first()?.to_python(py).ok()?
                };
                let text = describe.bind(py).call1((from_value, to_value)).ok()?;
                text.extract::<String>().ok()
            });
            if let Some(text) = described {
                return text;
            }
        }
        format!("move to {}", written())
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
    pub(crate) family: Arc<PyGame>,
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
            if let Some(function) = function
                && !function.bind(py).is_callable()
            {
                return Err(PyTypeError::new_err(format!(
                    "`{what}` must be a function, not {}",
                    type_name(function.bind(py))
                )));
            }
        }
        let name = match name {
            Some(name) => name,
            None => {
                let own = moves
                    .bind(py)
                    .getattr("__name__")
                    .and_then(|n| n.extract::<String>())
                    .unwrap_or_default();
                if own.is_empty() || own.starts_with('<') || own == "moves" {
                    "game".to_owned()
                } else {
                    own
                }
            }
        };
        if name.is_empty() || name.contains(['(', ')', '+', '[', ']']) {
            return Err(PyValueError::new_err(format!(
                "a game's name is a word, without brackets or `+`: not {name:?}"
            )));
        }
        Ok(Self {
            family: Arc::new(PyGame {
                id: NEXT_GAME.fetch_add(1, Ordering::Relaxed),
                name,
                moves,
                split,
                describe,
            }),
        })
    }

    /// The position of this game given by `args`: one argument is the
    /// position; several are one tuple (without `split`), or each a position
    /// of its own and the term their sum (with `split`).
    #[pyo3(signature = (*args))]
    fn __call__(&self, py: Python<'_>, args: &Bound<'_, PyTuple>) -> PyResult<GamePosition> {
        let game = &self.family;
        let given = args
            .iter()
            .map(|arg| PyPosition::from_python(&arg))
            .collect::<PyResult<Vec<_>>>()?;
        let positions = if game.split.is_some() {
            given
        } else {
            match given.len() {
                0 => {
                    return Err(PyTypeError::new_err(format!(
                        "game `{}` takes its position: {}(7), {}(5, 3), {}('abc')",
                        game.name, game.name, game.name, game.name
                    )));
                }
                1 => given,
                _ => vec![PyPosition::Tuple(given.into())],
            }
        };
        let mut found = Vec::new();
        for position in positions {
            found.extend(
                game.parts_of(py, position)
                    .map_err(|error| crate::errors::search_error(py, &error))?,
            );
        }
        Ok(GamePosition {
            family: Arc::clone(game),
            parts: found,
        })
    }

    /// The game's name, as positions are written: `name(7)`.
    #[getter]
    fn name(&self) -> &str {
        &self.family.name
    }

    fn __repr__(&self) -> String {
        format!("grundy.Game(name={:?})", self.family.name)
    }
}

/// A position of a Python game: `g(7)`.
#[derive(Debug)]
#[pyclass(frozen, module = "grundy._native", name = "GamePosition")]
pub struct GamePosition {
    family: Arc<PyGame>,
    parts: Vec<PyPosition>,
}

impl GamePosition {
    /// The term of a sum this position is.
    pub fn group(&self) -> Group {
        Group::new(
            self.family.name.as_str(),
            parts(&self.family, self.parts.iter().cloned()),
        )
    }
}

#[pymethods]
impl GamePosition {
    fn __repr__(&self) -> String {
        self.group().term_with(&self.group().parts)
    }

    fn __str__(&self) -> String {
        self.__repr__()
    }
}
