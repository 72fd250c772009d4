//! The limits of a call, given as keyword arguments with the command line's
//! names (`max_states=`, `max_memory=`, ...; `grundy solve --help`), read into
//! the library's [`Limits`], which checks them.

use grundy::theory::limits::parse_bytes;
use grundy::workflow::{Door, Limits};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// Reads the limits as the package passes them: `(max_states, max_digits,
/// max_heap, max_memory, max_work, max_time)`, `max_memory` an int or a size
/// as `--max-memory` takes it (`"512M"`).
///
/// # Errors
/// `ValueError` for a value that is not one; `LimitError` for a limit that
/// allows nothing (`max_memory=0`).
pub fn read(py: Python<'_>, given: &Bound<'_, PyTuple>) -> PyResult<Limits> {
    let item = |index: usize| given.get_item(index);
    let memory = item(3)?;
    let bytes = match (memory.extract::<u64>(), memory.extract::<String>()) {
        (Ok(bytes), _) => bytes,
        (_, Ok(text)) => parse_bytes(&text).map_err(PyValueError::new_err)?,
        _ => {
            let example = "give bytes (an int) or e.g. \"512M\", \"4G\"";
            let given = memory.repr()?;
            return Err(PyValueError::new_err(format!(
                "max_memory={given} is not a size: {example}"
            )));
        }
    };
    let seconds: Option<f64> = item(5)?.extract()?;
    let limits = Limits {
        states: item(0)?.extract()?,
        digits: item(1)?.extract()?,
        largest_heap: item(2)?.extract()?,
        bytes,
        work: item(4)?.extract()?,
        ..Limits::default()
    };
    limits
        .with_settings(seconds, Door::Python)
        .map_err(|failure| crate::errors::setting_error(py, failure))
}
