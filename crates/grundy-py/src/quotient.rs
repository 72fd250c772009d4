//! `grundy.quotient(rule, n)`: the misère quotient of a heap rule, the object
//! `grundy quotient --json` prints (the library's report); and `grundy.seq(rule,
//! n, genus=True)`, the genus of each heap as `grundy seq --genus --json`.

use grundy::theory::limits::Limit;
use grundy::workflow::quotient::{self as flow, Quiet, Quotient, Request};
use grundy::workflow::seq::{self, Answer};
use grundy::workflow::{self as workflow, Door, Failure};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::errors::{failure_error, time_error};
use crate::limits::Limits;
use crate::run::{Ran, Stoppable, watched};

impl Stoppable for Result<Quotient, Failure> {
    fn was_cancelled(&self) -> bool {
        matches!(
            self,
            Err(Failure::Limit {
                raised_by: Some(Limit::Time),
                ..
            })
        )
    }
}

/// The end of a watched workflow: what it answered, or the interrupt, the
/// time limit's `LimitError` or its failure as the exception to raise.
fn finished<T>(py: Python<'_>, limits: &Limits, ran: Ran<Result<T, Failure>>) -> PyResult<T> {
    if let Some(interrupt) = ran.interrupt {
        return Err(interrupt);
    }
    if ran.out_of_time {
        return Err(time_error(py, limits.max_time));
    }
    ran.result.map_err(|failure| failure_error(py, failure))
}

/// The misère quotient of `rule` for heaps `0..=n` (or, without `n`, until its
/// period is proven), as the JSON text of `grundy quotient --json`: the
/// library's workflow ([`grundy::workflow::quotient`]).
#[pyfunction]
#[pyo3(signature = (rule, n, limits, max_order))]
pub fn quotient(
    py: Python<'_>,
    rule: &str,
    n: Option<u64>,
    limits: &Bound<'_, PyTuple>,
    max_order: usize,
) -> PyResult<String> {
    let limits = crate::read_limits(py, limits)?;
    let request = Request {
        rule: rule.to_owned(),
        last_heap: n,
        max_order,
    };
    // No time limit of the workflow's own: `watched` stops the work at
    // `max_time` and raises the time limit's `LimitError`.
    let bounds = workflow::Limits {
        bytes: limits.max_memory,
        ..workflow::Limits::default()
    };
    // A heap or an order out of range is a bad argument here: `ValueError`.
    flow::check(&request, &bounds, Door::Python).map_err(|failure| {
        let message = failure.message();
        PyValueError::new_err(message.trim_start_matches("error: ").to_owned())
    })?;
    let ran = watched(py, limits.deadline(), || {
        flow::run(&request, &bounds, Door::Python, &mut Quiet)
    })?;
    finished(py, &limits, ran).map(|found| found.json().to_string())
}

/// Conway's genus of heaps `0..=n` of `rule`, as the JSON text of `grundy seq
/// --genus --json RULE -n N`: `{"rule", "n", "genus": [symbols]}` (the
/// library's workflow, [`grundy::workflow::seq`]).
#[pyfunction]
pub fn genera(py: Python<'_>, rule: &str, n: u64, limits: &Bound<'_, PyTuple>) -> PyResult<String> {
    let limits = crate::read_limits(py, limits)?;
    let request = seq::Request {
        genus: true,
        ..seq::Request::new(rule, usize::try_from(n).unwrap_or(usize::MAX))
    };
    let bounds = crate::sequence::workflow_limits(&limits, seq::UNTIL_PROVEN_REACH);
    let ran = watched(py, limits.deadline(), || {
        seq::run(&request, &bounds, Door::Python, &mut seq::Quiet)
    })?;
    match finished(py, &limits, ran)? {
        Answer::Genera(genera) => Ok(genera.json().to_string()),
        Answer::Values(_) => Err(PyValueError::new_err(format!(
            "{rule}: genera are computed for heap rules (\"kayles\", \"octal[0.75]\"), not scripts"
        ))),
    }
}
