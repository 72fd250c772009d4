//! `grundy.quotient(rule, n)`: the misère quotient of a heap rule, the object
//! `grundy quotient --json` prints (the library's report); and `grundy.seq(rule,
//! n, genus=True)`, the genus of each heap as `grundy seq --genus --json`.

use grundy::catalogue::parse_rule;
use grundy::quotient::{MAX_HEAP, QuotientError, QuotientLimits, compute, report};
use grundy::theory::limits::SearchError;
use grundy::workflow::Door;
use grundy::workflow::seq::{self, Answer, Request};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::errors::{failure_error, language_error, limit_error, time_error};
use crate::limits::Limits;
use crate::run::{Stoppable, watched};

/// The heaps a quotient is built to, until proven, when `n` is not given (as the
/// command line's `grundy quotient RULE`).
const UNTIL_PROVEN_REACH: u64 = 1000;

impl<T> Stoppable for Result<T, QuotientError> {
    fn was_cancelled(&self) -> bool {
        matches!(self, Err(error) if matches!(error.error, SearchError::Cancelled))
    }
}

/// Runs a quotient or genus construction watched (Ctrl-C, the time limit):
/// what it built, or the error of its construction (made by the caller), or
/// the interrupt or the time limit's `LimitError`.
fn construct<T: Send>(
    py: Python<'_>,
    limits: &Limits,
    build: impl Fn() -> Result<T, QuotientError> + Sync,
) -> PyResult<Result<T, QuotientError>> {
    let ran = watched(py, limits.deadline(), build)?;
    if let Some(interrupt) = ran.interrupt {
        return Err(interrupt);
    }
    if ran.out_of_time {
        return Err(time_error(py, limits.max_time));
    }
    Ok(ran.result)
}

/// The misère quotient of `rule` for heaps `0..=n` (or, without `n`, until its
/// period is proven), as the JSON text of `grundy quotient --json`.
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
    let (parsed, rule_text) = parse_rule(rule).map_err(|error| language_error(py, &error, rule))?;
    if let Some(n) = n.filter(|&n| n > MAX_HEAP) {
        return Err(PyValueError::new_err(format!(
            "n={n}: quotients are built for heaps up to {MAX_HEAP}"
        )));
    }
    if max_order == 0 {
        return Err(PyValueError::new_err("max_order=0 allows nothing"));
    }
    let (heaps, until_proven) = n.map_or((UNTIL_PROVEN_REACH, true), |n| (n, false));
    let bounds = QuotientLimits {
        max_bytes: limits.max_memory,
        max_order,
        max_work: u64::MAX,
    };
    match construct(py, &limits, || {
        compute(&parsed, heaps, until_proven, bounds)
    })? {
        Ok(found) => Ok(report::to_json(&found, &rule_text).to_string()),
        Err(error) => Err(construction_error(py, &rule_text, &error, max_order)),
    }
}

/// The `LimitError` of a quotient or genus construction that stopped: why, and
/// the orders of the quotients computed.
fn construction_error(
    py: Python<'_>,
    rule_text: &str,
    error: &QuotientError,
    max_order: usize,
) -> PyErr {
    let (reason, limit) = match &error.error {
        SearchError::MemoryLimit { limit } => (
            format!(
                "its automata reached the memory limit of {limit} bytes; raise it with max_memory=BYTES"
            ),
            Some("max_memory"),
        ),
        SearchError::StateLimit { .. } => (
            format!(
                "no candidate of at most {max_order} elements passed the check: the quotient may be infinite, larger (raise max_order=N), or beyond what recalibration finds"
            ),
            Some("max_order"),
        ),
        other => (other.to_string(), None),
    };
    let orders: Vec<String> = error.orders.iter().map(ToString::to_string).collect();
    limit_error(
        py,
        &format!(
            "the misère quotient of {rule_text} could not be extended to heap {}: {reason}\nthe orders of the quotients for heaps <= k, k = 0..{}: {}",
            error.heap,
            error.heap.saturating_sub(1),
            orders.join(", ")
        ),
        limit,
    )
}

/// Conway's genus of heaps `0..=n` of `rule`, as the JSON text of `grundy seq
/// --genus --json RULE -n N`: `{"rule", "n", "genus": [symbols]}` (the
/// library's workflow, [`grundy::workflow::seq`]).
#[pyfunction]
pub fn genera(py: Python<'_>, rule: &str, n: u64, limits: &Bound<'_, PyTuple>) -> PyResult<String> {
    let limits = crate::read_limits(py, limits)?;
    let request = Request {
        genus: true,
        ..Request::new(rule, usize::try_from(n).unwrap_or(usize::MAX))
    };
    let bounds = crate::sequence::workflow_limits(&limits, seq::UNTIL_PROVEN_REACH);
    let ran = watched(py, limits.deadline(), || {
        seq::run(&request, &bounds, Door::Python, &mut seq::Quiet)
    })?;
    if let Some(interrupt) = ran.interrupt {
        return Err(interrupt);
    }
    if ran.out_of_time {
        return Err(time_error(py, limits.max_time));
    }
    match ran.result {
        Ok(Answer::Genera(genera)) => Ok(genera.json().to_string()),
        Ok(Answer::Values(_)) => Err(PyValueError::new_err(format!(
            "{rule}: genera are computed for heap rules (\"kayles\", \"octal[0.75]\"), not scripts"
        ))),
        Err(failure) => Err(failure_error(py, failure)),
    }
}
