//! The misère quotient of a heap rule (Plambeck-Siegel; `grundy quotient`,
//! Python's `grundy.quotient`), and the quotient Conway's genera are read from
//! (`grundy seq --genus`, `grundy.seq(..., genus=True)`).
//!
//! A quotient is built heap by heap ([`crate::quotient::compute_reporting`]):
//! for heaps `0..=N`, or, without a last heap, until the periodicity theorem
//! for misère quotients proves it for heaps of every size (up to heap
//! [`UNTIL_PROVEN_REACH`]). Its construction is bounded by its order
//! ([`Request::max_order`]: a quotient may be infinite, and recalibration may
//! find no candidate), the memory of its automata ([`Limits::bytes`]) and the
//! time ([`Limits::time`]). A construction stopped by one of them fails with
//! the orders of the quotients it built, said once here for every front end,
//! each limit naming the setting that raises it ([`Door`]).

use std::io::{self, Write};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::seq::{setting, words};
use super::watch::CutShort;
use super::{Door, Failure, Limits};
use crate::catalogue::parse_rule;
use crate::quotient::genus::Genus;
use crate::quotient::{
    MAX_HEAP, MisereQuotient, QuotientError, QuotientLimits, compute_reporting, report,
};
use crate::rules::HeapRule;
use crate::theory::cancel::{self, Cancel};
use crate::theory::limits::{Limit, SearchError};

/// The furthest heap a quotient is built to when no last heap is asked:
/// heaps are added until a periodicity theorem proves it, up to this one.
pub const UNTIL_PROVEN_REACH: u64 = 1000;

/// What is asked: the quotient of a rule, for which heaps, and how large it
/// may grow.
#[derive(Clone, Debug)]
pub struct Request {
    /// The heap game, without heaps: `octal[0.75]`, `kayles`, `sub[1, 3]`, ...
    pub rule: String,
    /// The last heap: the quotient of heaps `0..=N`; `None` to build it until
    /// it is proven for every heap.
    pub last_heap: Option<u64>,
    /// The largest order (number of elements) the quotient may reach
    /// (`--max-order`, `max_order=`).
    pub max_order: usize,
}

impl Request {
    /// The quotient of `rule` for heaps `0..=last_heap` (or until proven),
    /// of the default largest order.
    pub fn new(rule: impl Into<String>, last_heap: Option<u64>) -> Self {
        Self {
            rule: rule.into(),
            last_heap,
            max_order: QuotientLimits::default().max_order,
        }
    }

    /// The heaps to build, and whether to stop as soon as the quotient is
    /// proven.
    fn reach(&self) -> (u64, bool) {
        self.last_heap
            .map_or((UNTIL_PROVEN_REACH, true), |last| (last, false))
    }
}

/// Who is told of a construction as it goes. Every method has a default that
/// tells no one.
pub trait Watcher {
    /// The construction of `rule`'s quotient (written as the library writes
    /// it) starts, to heap `last_heap` at the furthest; `until_proven` when it
    /// stops as soon as a periodicity theorem proves it.
    fn start(&mut self, rule: &str, last_heap: u64, until_proven: bool) {
        let _ = (rule, last_heap, until_proven);
    }

    /// Heap `heap` of `last_heap` is added: the quotient of heaps `<= heap`
    /// has `order` elements.
    fn progress(&mut self, heap: u64, last_heap: u64, order: usize) {
        let _ = (heap, last_heap, order);
    }
}

/// A [`Watcher`] told nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl Watcher for Quiet {}

/// A verified misère quotient, with the rule it is of.
#[derive(Clone, Debug)]
pub struct Quotient {
    /// The rule, written as the library writes it.
    pub rule: String,
    /// The quotient.
    pub quotient: MisereQuotient,
}

impl Quotient {
    /// The report every front end gives ([`report::to_json`]): the order,
    /// presentation, elements, P-portion, heap map, orders, proof and table.
    pub fn json(&self) -> Value {
        report::to_json(&self.quotient, &self.rule)
    }

    /// Writes [`Self::json`] on one line.
    ///
    /// # Errors
    /// Errors writing to `out`.
    pub fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        serde_json::to_writer(&mut *out, &self.json()).map_err(io::Error::from)?;
        writeln!(out)
    }

    /// Writes the quotient for a reader: its order and P-portion, whether a
    /// periodicity theorem proves it, its presentation (generators and
    /// relations), the P-portion, the element of each heap, and the orders of
    /// the quotients of fewer heaps.
    ///
    /// # Errors
    /// Errors writing to `out`.
    pub fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        let quotient = &self.quotient;
        let presentation = quotient.presentation();
        let (_, proof) = report::proof_text(quotient);
        let p_portion: Vec<String> = quotient
            .p_portion()
            .iter()
            .map(|&e| presentation.element(e))
            .collect();
        writeln!(
            out,
            "misère quotient of {}, heaps 0..={}: order {}, P-portion of {} elements",
            self.rule,
            quotient.heaps(),
            quotient.order(),
            p_portion.len()
        )?;
        writeln!(out, "{proof}")?;
        let generators: Vec<String> = presentation
            .generators
            .iter()
            .map(|(name, heap, _)| format!("{name} = heap {heap}"))
            .collect();
        writeln!(out, "generators: {}", generators.join(", "))?;
        let relations = presentation.relation_texts();
        writeln!(
            out,
            "relations: {}",
            if relations.is_empty() {
                "none".to_owned()
            } else {
                relations.join(", ")
            }
        )?;
        writeln!(
            out,
            "P-portion (misère P-positions, second player wins): {}",
            p_portion.join(", ")
        )?;
        writeln!(out, "heap map (the element of each heap):")?;
        for (heap, &element) in quotient.heap_map().iter().enumerate() {
            writeln!(out, "  {heap}: {}", presentation.element(element))?;
        }
        writeln!(
            out,
            "orders of the quotients for heaps <= k, k = 0..={}: {}",
            quotient.heaps(),
            orders_text(quotient.orders())
        )
    }
}

/// A quotient is built whole: a construction stopped fails.
impl CutShort for Quotient {
    fn cut_short(&self) -> bool {
        false
    }
}

/// Whether `request` may be built within `limits`: its last heap at most
/// [`MAX_HEAP`] (the options of every heap are listed), and no limit of 0.
/// [`run`] checks it first; a front end that calls these bad arguments rather
/// than limits (Python: `ValueError`) checks it before.
///
/// # Errors
/// A [`Failure::Limit`] that no setting raises, or that names both settings.
pub fn check(request: &Request, limits: &Limits, door: Door) -> Result<(), Failure> {
    if let Some(last) = request.last_heap.filter(|&last| last > MAX_HEAP) {
        return Err(beyond_max_heap("quotients are built", last, door));
    }
    if limits.bytes == 0 || request.max_order == 0 {
        return Err(Failure::limit(format!(
            "error: a limit of 0 allows nothing; raise {} or {}",
            setting(door, Limit::Memory),
            setting(door, Limit::Order)
        )));
    }
    Ok(())
}

/// Builds the quotient `request` asks for within `limits`, telling `watcher`
/// of each heap added. Under a time limit the construction stops a little
/// before it (a tenth of it, at most 2 s), so that its failure, with the
/// orders it found, is said within the limit; a stop of the caller's
/// cancellation signal ([`crate::theory::cancel`]) is said as Ctrl-C's.
///
/// ```
/// use grundy::workflow::quotient::{self, Quiet, Request};
/// use grundy::workflow::{Door, Limits};
///
/// let built = quotient::run(&Request::new("octal[0.75]", None), &Limits::default(), Door::Python, &mut Quiet);
/// let found = built.unwrap();
/// assert_eq!(found.quotient.order(), 8);
/// assert!(found.quotient.periodicity().is_some());
/// ```
///
/// # Errors
/// A [`Failure`]: a rule that does not parse, a request [`check`] refuses,
/// or a construction stopped by a limit (naming the setting that raises it)
/// or by the caller.
pub fn run(
    request: &Request,
    limits: &Limits,
    door: Door,
    watcher: &mut dyn Watcher,
) -> Result<Quotient, Failure> {
    let (rule, rule_text) =
        parse_rule(&request.rule).map_err(|e| Failure::language(&e, &request.rule, door))?;
    check(request, limits, door)?;
    let (heaps, until_proven) = request.reach();
    let bounds = QuotientLimits {
        max_bytes: limits.bytes,
        max_order: request.max_order,
        // Not bounded by the work limit: the order, the memory and the time
        // bound a construction asked for.
        max_work: u64::MAX,
    };
    watcher.start(&rule_text, heaps, until_proven);
    let deadline = limits.time.and_then(|time| {
        let margin = (time / 10).min(Duration::from_secs(2));
        Instant::now().checked_add(time - margin)
    });
    let signal = match (cancel::current(), deadline) {
        (Some(caller), Some(deadline)) => caller.child_until(deadline),
        (None, Some(deadline)) => Cancel::with_deadline(deadline),
        (caller, None) => caller.unwrap_or_default(),
    };
    let built = signal.run(|| {
        compute_reporting(&rule, heaps, until_proven, bounds, &mut |heap, order| {
            watcher.progress(heap, heaps, order);
        })
    });
    built
        .map(|quotient| Quotient {
            rule: rule_text,
            quotient,
        })
        .map_err(|error| stopped(&error, Built::Quotient(request.max_order), &signal, door))
}

/// The genus of every heap `0..=heaps` of `rule` (written `rule_text`), read
/// from the misère quotient of its heaps with nim heaps, built with the
/// default bounds but for the memory.
///
/// # Errors
/// A [`Failure::Limit`]: heaps beyond [`MAX_HEAP`], or that quotient out of
/// reach.
pub(super) fn genera(
    rule: &HeapRule,
    rule_text: &str,
    heaps: u64,
    limits: &Limits,
    door: Door,
) -> Result<Vec<Genus>, Failure> {
    if heaps > MAX_HEAP {
        return Err(beyond_max_heap("genera are computed", heaps, door));
    }
    let bounds = QuotientLimits {
        max_bytes: limits.bytes,
        ..QuotientLimits::default()
    };
    let signal = cancel::current().unwrap_or_default();
    crate::quotient::genus::genera(rule, heaps, bounds).map_err(|error| {
        let genera = Built::Genera {
            rule: rule_text,
            heaps,
            max_order: bounds.max_order,
        };
        stopped(&error, genera, &signal, door)
    })
}

/// `what` (`quotients are built`) for heaps up to [`MAX_HEAP`] only, not
/// `heaps`: a limit that no setting raises.
fn beyond_max_heap(what: &str, heaps: u64, door: Door) -> Failure {
    Failure::limit(format!(
        "error: {what} for heaps up to {MAX_HEAP}, not {heaps}; {}",
        words(door).nothing_raises
    ))
}

/// What a construction that stopped was building, which its failure names.
#[derive(Clone, Copy, Debug)]
enum Built<'a> {
    /// The quotient asked for, of at most this many elements.
    Quotient(usize),
    /// Genera, read from the quotient of the heaps with nim heaps.
    Genera {
        /// The rule, written as the library writes it.
        rule: &'a str,
        /// The last heap whose genus is asked.
        heaps: u64,
        /// The largest order that quotient may reach.
        max_order: usize,
    },
}

/// The failure of a construction stopped by `error`, running under `signal`:
/// why, naming the setting that raises the limit reached (the order's is the
/// quotient's own: genera have none), and for a quotient the orders of the
/// quotients it built. A stop is the time limit's when `signal`'s deadline
/// has passed, otherwise the caller's (Ctrl-C); both are [`Limit::Time`],
/// which is how a front end knows the work was cancelled.
fn stopped(error: &QuotientError, built: Built<'_>, signal: &Cancel, door: Door) -> Failure {
    let (reason, raised_by) = match (&error.error, built) {
        (SearchError::MemoryLimit { limit }, _) => (
            format!(
                "{} reached the memory limit of {limit} bytes; raise it with {}",
                match built {
                    Built::Quotient(_) => "its automata",
                    Built::Genera { .. } => "the misère quotient they are read from",
                },
                door.setting(Limit::Memory)
            ),
            Some(Limit::Memory),
        ),
        (SearchError::StateLimit { .. }, Built::Quotient(max_order)) => (
            format!(
                "no candidate of at most {max_order} elements passed the check: the quotient \
                 may be infinite, larger (raise {}), or beyond what recalibration finds",
                door.setting(Limit::Order)
            ),
            Some(Limit::Order),
        ),
        (SearchError::StateLimit { .. }, Built::Genera { max_order, .. }) => (
            format!(
                "no misère quotient of at most {max_order} elements was found for the heaps with \
                 nim heaps, which they are read from (it may be larger, infinite, or beyond what \
                 recalibration finds); {}",
                match door {
                    Door::CommandLine => "no flag of `seq` raises this",
                    Door::Python => "nothing raises this",
                }
            ),
            None,
        ),
        (SearchError::Cancelled, _) => {
            let timed_out = signal
                .deadline()
                .is_some_and(|deadline| Instant::now() >= deadline);
            let how = if timed_out {
                format!("stopped by the time limit ({})", setting(door, Limit::Time))
            } else {
                "interrupted (Ctrl-C)".to_owned()
            };
            (format!("it was {how}"), Some(Limit::Time))
        }
        (other, _) => (other.to_string(), None),
    };
    let message = match built {
        Built::Quotient(_) => format!(
            "error: the misère quotient could not be extended to heap {}: {reason}\n\
             the orders of the quotients for heaps <= k, k = 0..{}: {}",
            error.heap,
            error.heap.saturating_sub(1),
            orders_text(&error.orders)
        ),
        Built::Genera { rule, heaps, .. } => {
            format!("error: the genera of {rule} up to heap {heaps} are out of reach: {reason}")
        }
    };
    Failure::Limit { message, raised_by }
}

/// The orders of the quotients of heaps `<= k`, from `k = 0`: `1, 2, 6`.
fn orders_text(orders: &[usize]) -> String {
    let orders: Vec<String> = orders.iter().map(ToString::to_string).collect();
    orders.join(", ")
}

#[cfg(test)]
mod tests;
