//! `grundy.quotient(rule, n)`: the misère quotient of a heap rule, the object
//! `grundy quotient --json` prints (the library's report); and `grundy.seq(rule,
//! n, genus=True)`, the genus of each heap as `grundy seq --genus --json`.

use grundy::workflow::quotient::{self as flow, Quiet, Request};
use grundy::workflow::{Door, Limits, seq};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::errors::value_error;
use crate::run::answered;

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
    let bounds = Limits {
        time: None,
        ..limits
    };
    // A heap or an order out of range is a bad argument here: `ValueError`.
    flow::check(&request, &bounds, Door::Python).map_err(|failure| value_error(&failure))?;
    let found = answered(py, &limits, || {
        flow::run(&request, &bounds, Door::Python, &mut Quiet)
    })?;
    Ok(found.json().to_string())
}

/// Conway's genus of heaps `0..=n` of `rule`, as the JSON text of `grundy seq
/// --genus --json RULE -n N`: `{"rule", "n", "genus": [symbols]}` (the
/// library's workflow, [`grundy::workflow::seq::genera`]).
#[pyfunction]
pub fn genera(py: Python<'_>, rule: &str, n: u64, limits: &Bound<'_, PyTuple>) -> PyResult<String> {
    let limits = crate::read_limits(py, limits)?;
    let last_heap = usize::try_from(n).unwrap_or(usize::MAX);
    let bounds = limits.for_sequence(seq::UNTIL_PROVEN_REACH);
    let found = answered(py, &limits, || {
        seq::genera(rule, last_heap, &bounds, Door::Python)
    })?;
    Ok(found.json().to_string())
}
