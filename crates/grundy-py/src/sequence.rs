//! `grundy.seq`: the Grundy values of heaps `0..=n` of a heap rule or of a
//! `script[...]` rule (the library's workflow, as `grundy seq`:
//! [`grundy::workflow::seq`]), or of a one-integer Python game (by one shared
//! search over its positions `g(0), ..., g(n)`), with the period found.
//! Ctrl-C keeps the values computed.

use std::sync::atomic::{AtomicUsize, Ordering};

use grundy::sequence::{GrundyValues, Periodicity};
use grundy::theory::limits::Limit;
pub use grundy::workflow::seq::UNTIL_PROVEN_REACH;
use grundy::workflow::seq::{self as workflow, Answer, Finish, Request, Sequence, Tally};
use grundy::workflow::{self as flow, Door, Limits};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

use crate::errors::{failure_error, time_error, value_error};
use crate::game::Game;
use crate::run::{Stoppable, watched, watched_reporting};

/// The values of a sequence and its period: `(rule, values as little-endian
/// 32-bit words, (period, preperiod, saltus, proven, proof) or None, complete,
/// interrupted)`.
type Found<'py> = (String, Bound<'py, PyBytes>, Period, bool, bool);

/// A period as the package takes it: `(period, preperiod, saltus, proven,
/// proof)`, or `None`.
pub type Period = Option<(usize, usize, u32, bool, String)>;

impl Stoppable for Result<Sequence, flow::Failure> {
    fn was_cancelled(&self) -> bool {
        self.as_ref()
            .is_ok_and(|sequence| sequence.finish != Finish::Complete)
    }
}

impl Stoppable for Result<Answer, flow::Failure> {
    fn was_cancelled(&self) -> bool {
        match self {
            Ok(Answer::Values(sequence)) => sequence.finish != Finish::Complete,
            Ok(Answer::Genera(_)) => false,
            Err(failure) => matches!(
                failure,
                flow::Failure::Limit {
                    raised_by: Some(Limit::Time),
                    ..
                }
            ),
        }
    }
}

/// The workflow's limits: memory and work, and `max_heap` for `until_proven`.
pub fn workflow_limits(limits: &Limits, max_heap: usize) -> Limits {
    Limits {
        bytes: limits.bytes,
        work: limits.work,
        largest_heap: max_heap as u64,
        ..Limits::default()
    }
}

/// `rule` is a heap rule (`"octal[0.07]"`, `"kayles"`), a `script[...]` rule,
/// or a Python game of one integer. With `until_proven` the values grow until
/// a theorem proves the period (up to `max_heap`); `require_proof` (by default
/// `until_proven`) makes a period left unproven a `LimitError`.
// The arguments are the Python function's keyword arguments.
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(signature = (rule, n, limits, until_proven=false, max_heap=UNTIL_PROVEN_REACH, method="fast", require_proof=None, progress=None))]
pub fn seq<'py>(
    py: Python<'py>,
    rule: &Bound<'py, PyAny>,
    n: u64,
    limits: &Bound<'py, PyTuple>,
    until_proven: bool,
    max_heap: usize,
    method: &str,
    require_proof: Option<bool>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Found<'py>> {
    let limits = crate::read_limits(py, limits)?;
    let method =
        workflow::method_named(method).map_err(|failure| value_error(&failure.message()))?;
    let last = workflow::allowed_last_heap(n, Door::Python)
        .map_err(|failure| failure_error(py, failure))?;
    if let Ok(game) = rule.cast::<Game>() {
        return game_sequence(py, game.get(), last, &limits);
    }
    let Ok(text) = rule.extract::<String>() else {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "a rule is a str (\"octal[0.07]\", \"kayles\", \"sub[1, 3, 4]\") or a grundy.Game of one integer, not {}",
            rule.get_type().name()?
        )));
    };
    let request = Request {
        method,
        until_proven,
        require_proof: require_proof.unwrap_or(until_proven),
        ..Request::new(text, last)
    };
    let bounds = workflow_limits(&limits, max_heap);
    // The values done and wanted, handed to `progress(done, total)`, and
    // what a long run will cost, warned of, by the thread that watches it.
    let tally = Tally::default();
    let told = AtomicUsize::new(0);
    let report = |py: Python<'_>| -> PyResult<()> {
        warn_of_long_run(py, &tally)?;
        let (now, all) = tally.progress();
        match &progress {
            Some(progress) if all > 0 && told.swap(now, Ordering::Relaxed) != now => {
                progress.call1(py, (now, all)).map(drop)
            }
            _ => Ok(()),
        }
    };
    let ran = watched_reporting(py, limits.deadline(), &report, || {
        workflow::run(&request, &bounds, Door::Python, &mut &tally)
    })?;
    warn_of_long_run(py, &tally)?;
    // An exception of the `progress` callable (or of its warning) stopped the
    // work: it is the caller's, raised as it is; Ctrl-C keeps the values.
    if let Some(raised) = ran.interrupt.as_ref()
        && !raised.is_instance_of::<PyKeyboardInterrupt>(py)
    {
        return Err(raised.clone_ref(py));
    }
    if ran.out_of_time && ran.interrupt.is_none() {
        return Err(time_error(py, limits.max_time));
    }
    match ran.result {
        Ok(Answer::Values(sequence)) if sequence.finish == Finish::Partial => Ok(found(
            py,
            sequence.rule,
            &sequence.values,
            None,
            false,
            true,
        )),
        ref stopped if stopped.was_cancelled() => Err(ran
            .interrupt
            .unwrap_or_else(|| PyKeyboardInterrupt::new_err(""))),
        Ok(Answer::Values(sequence)) => Ok(found(
            py,
            sequence.rule,
            &sequence.values,
            sequence.periodicity.as_ref(),
            true,
            false,
        )),
        Ok(Answer::Genera(_)) => Err(pyo3::exceptions::PyRuntimeError::new_err(
            "grundy.seq: genera were computed instead of values",
        )),
        Err(failure) => Err(failure_error(py, failure)),
    }
}

/// Warns (a `UserWarning`, as `grundy seq` notes on standard error) of what
/// a long run will cost, once, when the computation has `announced` it.
///
/// # Errors
/// The exception the warning raises when warnings are errors.
fn warn_of_long_run(py: Python<'_>, tally: &Tally) -> PyResult<()> {
    let Some(said) = tally.take_estimate() else {
        return Ok(());
    };
    let message =
        format!("estimated time: {said}; Ctrl-C keeps the values computed (grundy.Interrupted)");
    let message = std::ffi::CString::new(message.replace('\0', " ")).unwrap_or_default();
    let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
    PyErr::warn(py, &category, &message, 2)
}

/// The values of a one-integer Python game, `g(0), ..., g(last)`
/// ([`workflow::game_sequence`]).
fn game_sequence<'py>(
    py: Python<'py>,
    game: &Game,
    last: usize,
    limits: &crate::limits::Limits,
) -> PyResult<Found<'py>> {
    let ran = watched(py, limits.deadline(), || {
        workflow::game_sequence(&game.family, last, limits, Door::Python)
    })?;
    if ran.out_of_time && ran.interrupt.is_none() {
        return Err(time_error(py, limits.max_time));
    }
    let sequence = ran.result.map_err(|failure| failure_error(py, failure))?;
    let complete = sequence.finish == Finish::Complete;
    let periodicity = sequence.periodicity.as_ref();
    let interrupted = ran.interrupt.is_some();
    Ok(found(
        py,
        sequence.rule,
        &sequence.values,
        periodicity,
        complete,
        interrupted,
    ))
}

/// The answer of `seq` as the package takes it ([`Found`]).
fn found<'py>(
    py: Python<'py>,
    rule: String,
    values: &GrundyValues,
    periodicity: Option<&Periodicity>,
    complete: bool,
    interrupted: bool,
) -> Found<'py> {
    let (values, period) = values_and_period(py, values.iter(), periodicity);
    (rule, values, period, complete, interrupted)
}

/// Values as little-endian 32-bit words, and the period as
/// `(period, preperiod, saltus, proven, proof)`.
pub fn values_and_period<'py>(
    py: Python<'py>,
    values: impl Iterator<Item = u32>,
    periodicity: Option<&Periodicity>,
) -> (Bound<'py, PyBytes>, Period) {
    let bytes: Vec<u8> = values.flat_map(u32::to_le_bytes).collect();
    let period = periodicity.map(|p| {
        (
            p.period,
            p.preperiod,
            p.saltus,
            p.proven(),
            p.proof.describe(),
        )
    });
    (PyBytes::new(py, &bytes), period)
}
