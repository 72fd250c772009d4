//! `grundy.seq`: the Grundy values of heaps `0..=n` of a heap rule or of a
//! `script[...]` rule (the library's workflow, as `grundy seq`:
//! [`grundy::workflow::seq`]), or of a one-integer Python game (by one shared
//! search over its positions `g(0), ..., g(n)`), with the period found.
//! Ctrl-C keeps the values computed.

use std::sync::Arc;

use grundy::sequence::Periodicity;
pub use grundy::workflow::seq::UNTIL_PROVEN_REACH;
use grundy::workflow::seq::{self as workflow, Finish, Request, Sequence, Tally};
use grundy::workflow::watch::CutShort;
use grundy::workflow::{Door, Failure};
use pyo3::exceptions::{PyKeyboardInterrupt, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

use crate::errors::{failure_error, setting_error};
use crate::game::Game;
use crate::run::{out_of_time, watched};

/// The values of a sequence and its period: `(rule, values as little-endian
/// 32-bit words, (period, preperiod, saltus, proven, proof) or None, complete,
/// interrupted)`.
type Found<'py> = (String, Bound<'py, PyBytes>, Period, bool, bool);

/// A period as the package takes it: `(period, preperiod, saltus, proven,
/// proof)`, or `None`.
pub type Period = Option<(usize, usize, u32, bool, String)>;

/// The work of a sequence: its values, or why it has none.
type Work<'a> = Box<dyn Fn() -> Result<Sequence, Failure> + Sync + 'a>;

/// `rule` is a heap rule (`"octal[0.07]"`, `"kayles"`), a `script[...]` rule,
/// or a Python game of one integer ([`workflow::game_sequence`]). With
/// `until_proven` the values grow until a theorem proves the period (up to
/// `max_heap`); `require_proof` (by default `until_proven`) makes a period
/// left unproven a `LimitError`.
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
    let method = workflow::method_named(method).map_err(|failure| setting_error(py, failure))?;
    let last = workflow::allowed_last_heap(n, Door::Python)
        .map_err(|failure| failure_error(py, failure))?;
    // The values done and wanted, handed to `progress(done, total)`, and
    // what a long run will cost, warned of, by the thread that watches it.
    let tally = Tally::default();
    let work: Work<'_> = if let Ok(game) = rule.cast::<Game>() {
        let game = Arc::clone(&game.get().family);
        Box::new(move || workflow::game_sequence(&game, last, &limits, Door::Python))
    } else {
        let Ok(text) = rule.extract::<String>() else {
            return Err(PyTypeError::new_err(format!(
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
        let bounds = limits.for_sequence(max_heap);
        let tally = &tally;
        Box::new(move || workflow::values(&request, &bounds, Door::Python, &mut &*tally))
    };
    let report = |py: Python<'_>| -> PyResult<()> {
        warn_of_long_run(py, &tally)?;
        match (&progress, tally.news()) {
            (Some(progress), Some(news)) => progress.call1(py, news).map(drop),
            _ => Ok(()),
        }
    };
    let ran = watched(py, limits.deadline(), &report, work)?;
    warn_of_long_run(py, &tally)?;
    // An exception of the `progress` callable (or of its warning) stopped the
    // work: it is the caller's, raised as it is; Ctrl-C keeps the values.
    let interrupt = match ran.stopped {
        Some(raised) if !raised.is_instance_of::<PyKeyboardInterrupt>(py) => return Err(raised),
        interrupt => interrupt,
    };
    if ran.out_of_time && interrupt.is_none() {
        return Err(out_of_time(py, &limits));
    }
    let interrupted = interrupt.is_some();
    match ran.result {
        Ok(sequence) if sequence.finish == Finish::Complete => {
            Ok(found(py, sequence, true, interrupted))
        }
        Ok(sequence) if sequence.finish == Finish::Partial => Ok(found(py, sequence, false, true)),
        Err(failure) if !failure.cut_short() => Err(failure_error(py, failure)),
        // Stopped, and nothing kept to hand back.
        _ => Err(interrupt.unwrap_or_else(|| PyKeyboardInterrupt::new_err(""))),
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

/// The answer of `seq` as the package takes it ([`Found`]).
fn found(py: Python<'_>, sequence: Sequence, complete: bool, interrupted: bool) -> Found<'_> {
    let periodicity = sequence.periodicity.as_ref();
    let (values, period) = values_and_period(py, sequence.values.iter(), periodicity);
    (sequence.rule, values, period, complete, interrupted)
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
