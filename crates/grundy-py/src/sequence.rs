//! `grundy.seq`: the Grundy values of heaps `0..=n` of a heap rule (as
//! `grundy seq`, through [`grundy::sequence::bounded`]), of a `script[...]`
//! rule, or of a one-integer Python game (by one shared search over its
//! positions `g(0), ..., g(n)`), with the period found. Ctrl-C keeps the
//! values computed.

use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use grundy::catalogue::{Position, parse_rule};
use grundy::game::Convention;
use grundy::sequence::bounded::{self, Bounded, BoundedStop, Bounds, LARGEST_HEAP};
use grundy::sequence::estimate::SettingNames;
use grundy::sequence::{
    Cost, GrundyValues, Method, Periodicity, Progress, StopCause, find_unproven_periodicity,
};
use grundy::solver::{Refusal, SearchError};
use grundy::sums::position::Group;
use num_bigint::BigInt;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

use crate::errors::{language_error, limit_error, search_error, time_error};
use crate::game::{Game, PyPosition};
use crate::limits::Limits;
use crate::position::Failure;
use crate::run::{Stoppable, watched, watched_reporting};
use crate::table::{self, Cell, Cells, Variable};

/// The furthest heap `until_proven=True` computes by default, as
/// `grundy seq --max-heap`.
pub const UNTIL_PROVEN_REACH: usize = 1_000_000_000;
/// The furthest heap the period is looked for otherwise (when `n` is smaller),
/// as `grundy seq`.
const DEFAULT_PERIOD_REACH: usize = 1 << 14;

/// The values of a sequence and its period: `(rule, values as little-endian
/// 32-bit words, (period, preperiod, saltus, proven, proof) or None, complete,
/// interrupted)`.
type Found<'py> = (
    String,
    Bound<'py, PyBytes>,
    Option<(usize, usize, u32, bool, String)>,
    bool,
    bool,
);

impl Stoppable for Result<Bounded, BoundedStop> {
    fn was_cancelled(&self) -> bool {
        matches!(
            self,
            Err(BoundedStop::Stopped {
                cause: StopCause::Cancelled,
                ..
            })
        )
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
    let require_proof = require_proof.unwrap_or(until_proven);
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
    let last = usize::try_from(n)
        .ok()
        .filter(|&n| n <= LARGEST_HEAP)
        .ok_or_else(|| {
            limit_error(
                py,
                &format!(
                    "values are stored in 32 bits, so heaps up to {LARGEST_HEAP} are computed, not {n}; nothing raises this: ask for at most n={LARGEST_HEAP}"
                ),
                None,
            )
        })?;
    if let Ok(game) = rule.cast::<Game>() {
        return game_sequence(py, game.get(), last, &limits);
    }
    let Ok(text) = rule.extract::<String>() else {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "a rule is a str (\"octal[0.07]\", \"kayles\", \"sub[1, 3, 4]\") or a grundy.Game of one integer, not {}",
            rule.get_type().name()?
        )));
    };
    if let Some(script) = grundy::games::script::sequence_rule(&text, limits.max_work) {
        let (script, rule_text) = script.map_err(|error| language_error(py, &error, &text))?;
        if until_proven {
            return Err(PyValueError::new_err(format!(
                "until_proven needs a theorem to prove a period, and none covers a script: drop it to see the period of the values of {rule_text} up to n"
            )));
        }
        let ran = watched(py, limits.deadline(), || {
            script
                .sequence(last, &mut |_| ControlFlow::Continue(()))
                .map_err(Failure::Search)
                .map(Option::unwrap_or_default)
        })?;
        let values = crate::finished(py, &limits, ran)?;
        let periodicity = find_unproven_periodicity(&values);
        return Ok(found(
            py,
            rule_text,
            &values,
            periodicity.as_ref(),
            true,
            false,
        ));
    }
    let (heap_rule, rule_text) =
        parse_rule(&text).map_err(|error| language_error(py, &error, &text))?;
    let bounds = Bounds {
        budget: Cost {
            bytes: limits.max_memory,
            steps: limits.max_work,
        },
        period_reach: if until_proven {
            max_heap.max(last)
        } else {
            DEFAULT_PERIOD_REACH
        },
        method,
        until_proven,
    };
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
    let names = SettingNames {
        work: "max_work=STEPS",
        heap: "max_heap=N",
    };
    let ran = watched_reporting(py, limits.deadline(), &report, || {
        bounded::compute_announcing(
            &heap_rule,
            last,
            &bounds,
            names,
            // Said once: the run after a quick attempt may say it again.
            &mut |said| {
                if !warned.swap(true, Ordering::Relaxed)
                    && let Ok(mut slot) = announced.lock()
                {
                    *slot = Some(said);
                }
            },
            &mut |report: Progress| {
                done.store(report.done, Ordering::Relaxed);
                total.store(report.total, Ordering::Relaxed);
                ControlFlow::Continue(())
            },
        )
    })?;
    warn_of_long_run(py, &announced)?;
    // An exception of the `progress` callable (or of its warning) stopped the
    // work: it is the caller's, raised as it is; Ctrl-C keeps the values.
    if let Some(raised) = ran.interrupt.as_ref()
        && !raised.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py)
    {
        return Err(raised.clone_ref(py));
    }
    if ran.out_of_time && ran.interrupt.is_none() {
        return Err(time_error(py, limits.max_time));
    }
    match ran.result {
        Ok(Bounded {
            values,
            periodicity,
        }) => {
            if require_proof && !periodicity.as_ref().is_some_and(Periodicity::proven) {
                return Err(limit_error(
                    py,
                    &format!(
                        "until_proven found no proven period of {rule_text} up to heap {}, the furthest max_heap={} and the limits allow; raise max_heap=N, max_memory=BYTES or max_work=STEPS (or drop until_proven to accept an unproven period)",
                        values.len().saturating_sub(1),
                        bounds.period_reach
                    ),
                    Some("max_heap"),
                ));
            }
            Ok(found(
                py,
                rule_text,
                &values,
                periodicity.as_ref(),
                true,
                false,
            ))
        }
        Err(BoundedStop::Stopped {
            cause: StopCause::Cancelled,
            values,
        }) => Ok(found(py, rule_text, &values, None, false, true)),
        Err(stop) => Err(stopped(py, &rule_text, last, stop, &bounds.budget)),
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

/// The exception of a sequence that could not be computed.
fn stopped(py: Python<'_>, rule: &str, last: usize, stop: BoundedStop, budget: &Cost) -> PyErr {
    match stop {
        BoundedStop::OverBudget { needed, what_grows } => {
            let why = what_grows.map_or_else(String::new, |what| format!(" ({what})"));
            if needed.bytes > budget.bytes {
                limit_error(
                    py,
                    &format!(
                        "the values of {rule} up to heap {last} need about {} bytes of memory by estimate{why}, more than the memory limit of {} bytes; raise it with max_memory=BYTES",
                        needed.bytes, budget.bytes
                    ),
                    Some("max_memory"),
                )
            } else {
                limit_error(
                    py,
                    &format!(
                        "the values of {rule} up to heap {last} need about {} steps of work by estimate{why}, more than the work limit of {} steps; raise it with max_work=STEPS",
                        needed.steps, budget.steps
                    ),
                    Some("max_work"),
                )
            }
        }
        BoundedStop::TooLarge { done } => limit_error(
            py,
            &format!(
                "the values of {rule} stop at heap {}: larger values do not fit in 32 bits",
                done.saturating_sub(1)
            ),
            None,
        ),
        BoundedStop::Stopped { cause, values } => limit_error(
            py,
            &format!(
                "the values of {rule} stop at heap {}: {cause}; lower max_memory=BYTES to the memory free, so that such ranges are refused before they start",
                values.len().saturating_sub(1)
            ),
            Some("max_memory"),
        ),
    }
}

/// The values of a one-integer Python game, `g(0), ..., g(last)`, by one
/// shared search; no theorem covers it, so a period seen is not proven.
fn game_sequence<'py>(
    py: Python<'py>,
    game: &Game,
    last: usize,
    limits: &Limits,
) -> PyResult<Found<'py>> {
    let family = &game.family;
    let name = family.name().to_owned();
    let cell = |k: u64| -> Result<Position, Failure> {
        let heap = i64::try_from(k).map_err(|_| {
            Failure::Search(SearchError::Script {
                message: format!("{k} is not a 64-bit integer"),
            })
        })?;
        let parts = Python::attach(|py| family.parts_of(py, PyPosition::Integer(heap)))
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

fn found<'py>(
    py: Python<'py>,
    rule: String,
    values: &GrundyValues,
    periodicity: Option<&Periodicity>,
    complete: bool,
    interrupted: bool,
) -> Found<'py> {
    let bytes: Vec<u8> = values.iter().flat_map(u32::to_le_bytes).collect();
    let period = periodicity.map(|p| {
        (
            p.period,
            p.preperiod,
            p.saltus,
            p.proven(),
            p.proof.describe(),
        )
    });
    (
        rule,
        PyBytes::new(py, &bytes),
        period,
        complete,
        interrupted,
    )
}
