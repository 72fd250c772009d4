//! `grundy.survey`: the library's survey of many rules
//! ([`grundy::workflow::survey`]), computed on the rayon threads with the GIL
//! released; each finished row is handed to the package's `on_row` by the
//! thread that watches the work, with the GIL, as the rows come.

use std::sync::Mutex;

use grundy::workflow::survey::{Request, Row, run};
use grundy::workflow::{Door, Limits};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::errors::failure_error;
use crate::run::watched;
use crate::sequence::values_and_period;

/// Surveys `rules` to heap `n`: `on_row(index, (values, period, seconds,
/// error))` is called as each row finishes, `values` and `period` as `seq`
/// gives them and `error` the exception that row failed with, or `None`.
/// Ctrl-C raises `KeyboardInterrupt` once the finished rows are handed on.
// The arguments are the Python function's keyword arguments.
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(signature = (rules, n, limits, prove, max_heap, threads, on_row))]
pub fn survey(
    py: Python<'_>,
    rules: Vec<String>,
    n: u64,
    limits: &Bound<'_, PyTuple>,
    prove: bool,
    max_heap: u64,
    threads: Option<usize>,
    on_row: Py<PyAny>,
) -> PyResult<()> {
    let limits = crate::read_limits(py, limits)?;
    let last_heap = grundy::workflow::seq::allowed_last_heap(n, Door::Python)
        .map_err(|failure| failure_error(py, failure))?;
    let request = Request {
        rules,
        last_heap,
        prove,
    };
    let bounds = Limits {
        largest_heap: max_heap,
        threads,
        ..limits
    };
    let finished: Mutex<Vec<Row>> = Mutex::new(Vec::new());
    let hand_on = |py: Python<'_>| -> PyResult<()> {
        let rows = finished.lock().map(|mut rows| std::mem::take(&mut *rows));
        for row in rows.unwrap_or_default() {
            let seconds = row.time.as_secs_f64();
            let (values, period, error) = match row.sequence {
                Ok(sequence) => {
                    let values = sequence.values.iter().take(last_heap + 1);
                    let (values, period) =
                        values_and_period(py, values, sequence.periodicity.as_ref());
                    (Some(values), period, None)
                }
                Err(failure) => (None, None, Some(failure_error(py, failure).into_value(py))),
            };
            on_row.call1(py, (row.index, (values, period, seconds, error)))?;
        }
        Ok(())
    };
    let ran = watched(py, None, &hand_on, || {
        run(&request, &bounds, Door::Python, &|row| {
            if let Ok(mut rows) = finished.lock() {
                rows.push(row);
            }
        })
    })?;
    hand_on(py)?;
    if let Some(interrupt) = ran.stopped {
        return Err(interrupt);
    }
    if ran.result.stopped {
        return Err(PyKeyboardInterrupt::new_err(""));
    }
    Ok(())
}
