//! `grundy.seq`: the Grundy values of heaps `0..=n` of a heap rule or of a
//! `script[...]` rule (the library's workflow, as `grundy seq`:
//! [`grundy::workflow::seq`]), or of a one-integer Python game (by one shared
//! search over its positions `g(0), ..., g(n)`), with the period found.
//! Ctrl-C keeps the values computed.

use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use grundy::sequence::{GrundyValues, Method, Periodicity, Progress, find_unproven_periodicity};
use grundy::sums::position::Group;
use grundy::sums::position::Position;
use grundy::theory::game::Convention;
use grundy::theory::limits::{Limit, Refusal, SearchError};
pub use grundy::workflow::seq::UNTIL_PROVEN_REACH;
use grundy::workflow::seq::{self as workflow, Answer, Finish, Request, Watcher};
use grundy::workflow::{self as flow, Door, Limits};
use num_bigint::BigInt;
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

use crate::errors::{failure_error, search_error, time_error};
use crate::game::Game;
use crate::position::Failure;
use crate::run::{Stoppable, watched, watched_reporting};
use crate::table::{self, Cell, Cells, Variable};

/// The values of a sequence and its period: `(rule, values as little-endian
/// 32-bit words, (period, preperiod, saltus, proven, proof) or None, complete,
/// interrupted)`.
type Found<'py> = (String, Bound<'py, PyBytes>, Period, bool, bool);

/// A period as the package takes it: `(period, preperiod, saltus, proven,
/// proof)`, or `None`.
pub type Period = Option<(usize, usize, u32, bool, String)>;

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

/// What the workflow tells of a run, kept for the thread that watches it:
/// the values done and wanted, and what a long run will cost, said once.
struct Told<'a> {
    done: &'a AtomicUsize,
    total: &'a AtomicUsize,
    announced: &'a Mutex<Option<String>>,
    warned: &'a AtomicBool,
}

impl Watcher for Told<'_> {
    fn progress(&mut self, report: Progress) -> ControlFlow<()> {
        self.done.store(report.done, Ordering::Relaxed);
        self.total.store(report.total, Ordering::Relaxed);
        ControlFlow::Continue(())
    }

    fn wants_estimate(&self) -> bool {
        true
    }

    // Said once: the run after a quick attempt may say it again.
    fn estimate(&mut self, said: &str) {
        if !self.warned.swap(true, Ordering::Relaxed)
            && let Ok(mut slot) = self.announced.lock()
        {
            *slot = Some(said.to_owned());
        }
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
    let method = match method {
        "fast" | "sparse" => Method::SparseSpace,
        "plain" => Method::PlainMex,
        other => {
            return Err(PyValueError::new_err(format!(
                "method={other:?}: the methods are \"fast\" (closed forms, sparse space) and \"plain\" (the mex of every option)"
            )));
        }
    };
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
    // The values done and wanted, as the computation reports them, handed to
    // `progress(done, total)` by the thread that watches it.
    let done = AtomicUsize::new(0);
    let total = AtomicUsize::new(0);
    let told = AtomicUsize::new(0);
    // What a long run will cost, said by the computation before the long work
    // and warned of by the thread that watches it.
    let announced: Mutex<Option<String>> = Mutex::new(None);
    let warned = AtomicBool::new(false);
    let report = |py: Python<'_>| -> PyResult<()> {
        warn_of_long_run(py, &announced)?;
        let (now, all) = (done.load(Ordering::Relaxed), total.load(Ordering::Relaxed));
        match &progress {
            Some(progress) if all > 0 && told.swap(now, Ordering::Relaxed) != now => {
                progress.call1(py, (now, all)).map(drop)
            }
            _ => Ok(()),
        }
    };
    let ran = watched_reporting(py, limits.deadline(), &report, || {
        let mut watcher = Told {
            done: &done,
            total: &total,
            announced: &announced,
            warned: &warned,
        };
        workflow::run(&request, &bounds, Door::Python, &mut watcher)
    })?;
    warn_of_long_run(py, &announced)?;
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
fn warn_of_long_run(py: Python<'_>, announced: &Mutex<Option<String>>) -> PyResult<()> {
    let Some(said) = announced.lock().ok().and_then(|mut slot| slot.take()) else {
        return Ok(());
    };
    let message =
        format!("estimated time: {said}; Ctrl-C keeps the values computed (grundy.Interrupted)");
    let message = std::ffi::CString::new(message.replace('\0', " ")).unwrap_or_default();
    let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
    PyErr::warn(py, &category, &message, 2)
}

/// The values of a one-integer Python game, `g(0), ..., g(last)`, by one
/// shared search; no theorem covers it, so a period seen is not proven.
fn game_sequence<'py>(
    py: Python<'py>,
    game: &Game,
    last: usize,
    limits: &crate::limits::Limits,
) -> PyResult<Found<'py>> {
    let family = &game.family;
    let name = family.name().to_owned();
    let cell = |k: u64| -> Result<Position, Failure> {
        let heap = i64::try_from(k).map_err(|_| {
            Failure::Search(SearchError::Script {
                message: format!("{k} is not a 64-bit integer"),
            })
        })?;
        let parts = family
            .parts_of(vec![grundy::games::callback::Value::Integer(heap)])
            .map_err(Failure::Search)?;
        Ok(Position::sum(
            Convention::Normal,
            vec![Group::new(
                name.as_str(),
                grundy::family::parts(family, parts),
            )],
        ))
    };
    let variables = [Variable {
        name: "n".to_owned(),
        first: BigInt::from(0),
        count: last as u64 + 1,
    }];
    let cells = Cells::Positions(&cell);
    let ran = watched(py, limits.deadline(), || {
        table::compute(&cells, &variables, false, limits, last as u64 + 1)
    })?;
    if ran.out_of_time && ran.interrupt.is_none() {
        return Err(time_error(py, limits.max_time));
    }
    let run = ran.result;
    if let Some((values, failure)) = run.failure {
        return Err(table::cell_failure(
            py,
            failure,
            &table::cell_name(&variables, &values),
        ));
    }
    let mut values = GrundyValues::new();
    for cell in &run.cells {
        let value = match cell {
            Cell::Nimber(n) => u32::try_from(n).ok(),
            Cell::Outcome(_) => None,
        };
        let Some(value) = value else {
            let refusal = Refusal::new(
                format!(
                    "the value of {name}({}) does not fit in the 32 bits values of a sequence are stored in",
                    values.len()
                ),
                &[],
            );
            return Err(search_error(py, &SearchError::TheoryLimit { refusal }));
        };
        values.push(value);
    }
    let complete = values.len() == last + 1;
    let periodicity = complete
        .then(|| find_unproven_periodicity(&values))
        .flatten();
    Ok(found(
        py,
        name,
        &values,
        periodicity.as_ref(),
        complete,
        ran.interrupt.is_some(),
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
