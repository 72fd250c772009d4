//! The parts of `grundy.solve(*parts)` and of a table's cells as the library
//! takes them ([`grundy::workflow::parts`]): expression strings and positions
//! of Python games.

use grundy::workflow::parts::Part;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::game::GamePosition;

/// Reads a part: a str or a position of a Python game.
///
/// # Errors
/// `TypeError` for anything else.
pub fn part_of(value: &Bound<'_, PyAny>) -> PyResult<Part> {
    if let Ok(text) = value.extract::<String>() {
        return Ok(Part::Text(text));
    }
    if let Ok(position) = value.cast::<GamePosition>() {
        return Ok(Part::Group(position.get().group()));
    }
    Err(PyTypeError::new_err(format!(
        "a part of a position is an expression (a str, e.g. \"nim(3, 5)\") or a position of a grundy.Game (g(7)), not {}",
        value.get_type().name()?
    )))
}

/// The parts of a value: one part, or a tuple or list of them.
///
/// # Errors
/// `TypeError` for a value that is none of these.
pub fn parts_of(value: &Bound<'_, PyAny>) -> PyResult<Vec<Part>> {
    if value.extract::<String>().is_err()
        && value.cast::<GamePosition>().is_err()
        && let Ok(items) = value.try_iter()
    {
        return items.map(|item| part_of(&item?)).collect();
    }
    Ok(vec![part_of(value)?])
}
