//! The values of heaps `0..=N` of a rule, kept in memory, within a budget of
//! memory and work, with the period found past them: what `grundy seq` answers
//! without an `--out` file, for callers that hold the values (the Python
//! package's `grundy.seq`).
//!
//! The cost of the range is estimated before it is computed ([`CostModel`], from
//! the values of the first 1024 heaps), so that a range beyond the budget is
//! refused at once rather than stopped late. Once the first values prove a period
//! (Guy and Smith's theorem for octal games, *Winning Ways* ch. 4), every value
//! follows from it, for rules whose values cost more than linear time and for
//! purely periodic ones. Otherwise the values are computed, then the sequence is
//! grown up to the reach asked for until a theorem proves its period
//! ([`until_proven`]).

use std::ops::ControlFlow;

use crate::rules::HeapRule;
use crate::sequence::estimate::{SettingNames, announcement};
use crate::sequence::{
    Cost, CostModel, GrundyValues, Interrupted, Method, Periodicity, Progress, SequenceSolver,
    StopCause, find_periodicity, until_proven,
};
use crate::theory::cancel::stop_requested;

/// The largest heap whose value is stored: values are 32-bit.
pub const LARGEST_HEAP: usize = u32::MAX as usize - 1;
/// Values computed first, as the period search would.
const FIRST_HEAPS: usize = 1 << 8;
/// Values computed first to predict the cost of the rest (see [`CostModel`]).
const PREDICTION_HEAPS: usize = 1 << 10;

/// What a bounded computation may take, and how far it looks for a period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// The memory and the work beyond linear the values may take, by estimate.
    pub budget: Cost,
    /// The furthest heap whose value is computed to find and prove a period
    /// (when larger than `N`; 16384 for `grundy seq`, `--max-heap` with
    /// `--until-proven`).
    pub period_reach: usize,
    /// How the values are computed.
    pub method: Method,
    /// Whether the values past `N` are computed until a period is proven
    /// (up to `period_reach`): a run that may go far past the heaps asked,
    /// whose announcement says so.
    pub until_proven: bool,
}

/// The values asked for and the period found.
#[derive(Debug, Clone)]
pub struct Bounded {
    /// The values of heaps `0..=N` at least (more when the period was looked for
    /// past `N`).
    pub values: GrundyValues,
    /// The period found, proven or not; `None` when none was seen.
    pub periodicity: Option<Periodicity>,
}

/// Why a bounded computation gave no answer.
#[derive(Debug, Clone)]
pub enum BoundedStop {
    /// The values asked for would pass the budget, by estimate; nothing was
    /// computed beyond the first heaps that made the estimate.
    OverBudget {
        /// The estimated need of heaps `0..=N`.
        needed: Cost,
        /// Why the need grows faster than the heaps, when it does (the rule's
        /// moves leave three heaps, Rest Nim).
        what_grows: Option<&'static str>,
    },
    /// A value of heaps `0..=N` does not fit in the 32 bits values are stored in.
    TooLarge {
        /// The values that fit, from heap 0.
        done: usize,
    },
    /// The computation stopped early: cancelled ([`crate::theory::cancel`]), the
    /// progress callback asked it to, or the system refused memory. The values
    /// computed so far are kept, and right.
    Stopped {
        /// Why it stopped.
        cause: StopCause,
        /// The values computed, from heap 0.
        values: GrundyValues,
    },
}

/// The values of heaps `0..=last_heap` of `rule` within `bounds`, and the period
/// found (see the module's documentation); `progress` is told as values are
/// computed and may stop the computation.
///
/// ```
/// use grundy::games::heap::HeapRule;
/// use grundy::sequence::{Cost, Method, bounded};
///
/// let bounds = bounded::Bounds {
///     budget: Cost { bytes: 1 << 30, steps: 1 << 30 },
///     period_reach: 1 << 14,
///     method: Method::SparseSpace,
///     until_proven: false,
/// };
/// let found = bounded::compute(&HeapRule::kayles(), 20, &bounds, &mut |_| {
///     std::ops::ControlFlow::Continue(())
/// })
/// .unwrap();
/// assert_eq!(found.values.get(4), Some(1));
/// let period = found.periodicity.unwrap();
/// assert_eq!((period.period, period.preperiod, period.proven()), (12, 71, true));
/// ```
///
/// # Errors
/// [`BoundedStop`]: over the budget by estimate, a value beyond 32 bits, or
/// stopped early with the values computed.
pub fn compute(
    rule: &HeapRule,
    last_heap: usize,
    bounds: &Bounds,
    progress: &mut dyn FnMut(Progress) -> ControlFlow<()>,
) -> Result<Bounded, BoundedStop> {
    bounded_values(rule, last_heap, bounds, None, progress)
}

/// As [`compute`], first handing `announce` what the run will cost when it
/// is estimated to take more than a few seconds ([`announcement`], naming
/// the front end's settings by `names`): said once the run is known to fit
/// its bounds, before the long work starts.
///
/// # Errors
/// As [`compute`].
pub fn compute_announcing(
    rule: &HeapRule,
    last_heap: usize,
    bounds: &Bounds,
    names: SettingNames<'_>,
    announce: &mut dyn FnMut(String),
    progress: &mut dyn FnMut(Progress) -> ControlFlow<()>,
) -> Result<Bounded, BoundedStop> {
    bounded_values(rule, last_heap, bounds, Some((names, announce)), progress)
}

/// [`compute`], announcing the run's cost to `announce` when there is one
/// (the estimate takes a sample of the speed: none without a listener).
fn bounded_values(
    rule: &HeapRule,
    last_heap: usize,
    bounds: &Bounds,
    announce: Option<(SettingNames<'_>, &mut dyn FnMut(String))>,
    progress: &mut dyn FnMut(Progress) -> ControlFlow<()>,
) -> Result<Bounded, BoundedStop> {
    if last_heap > LARGEST_HEAP {
        return Err(BoundedStop::TooLarge {
            done: LARGEST_HEAP + 1,
        });
    }
    let wanted = bounds
        .period_reach
        .clamp(last_heap, LARGEST_HEAP.max(last_heap));
    // The first values predict what the rest costs: 256 tell which kind of rule
    // it is, and 1024 how fast the values grow. Rules costing more than linear
    // keep computing from the 1024; the others start again from 256, so that the
    // period search starts where it always does.
    let mut probe = SequenceSolver::new(rule.clone(), bounds.method);
    probe.extend_to(wanted.min(FIRST_HEAPS - 1));
    let mut prediction = probe.clone();
    prediction.extend_to(wanted.min(PREDICTION_HEAPS - 1));
    let model = CostModel::new(rule, bounds.method, prediction.values());
    if model.what_grows().is_some() {
        probe = prediction;
    }
    // The first values stop short when cancelled, and a period proven from
    // fewer of them would be proven on another range: the stop is reported.
    if stop_requested() {
        return Err(BoundedStop::Stopped {
            cause: StopCause::Cancelled,
            values: probe.into_values(),
        });
    }
    if let Some(periodicity) = proven_shortcut(rule, bounds.method, &model, probe.values()) {
        let bytes = periodic_bytes(&periodicity, probe.values(), last_heap);
        if bytes > bounds.budget.bytes {
            return Err(BoundedStop::OverBudget {
                needed: Cost { bytes, steps: 0 },
                what_grows: model.what_grows(),
            });
        }
        let values = periodicity
            .values_up_to(probe.values(), last_heap)
            .ok_or(BoundedStop::TooLarge { done: 0 })?;
        return Ok(Bounded {
            values,
            periodicity: Some(periodicity),
        });
    }
    let Some(reach) = model.largest_heap_within(last_heap, wanted, &bounds.budget) else {
        return Err(BoundedStop::OverBudget {
            needed: model.cost(last_heap),
            what_grows: model.what_grows(),
        });
    };
    let (last, until_proven_to) = if bounds.until_proven {
        (last_heap, Some(reach))
    } else {
        (reach, None)
    };
    // The estimate measures the speed on the next values, which are kept.
    if let Some((names, announce)) = announce
        && let Some(said) = announcement(
            &rule.to_string(),
            &model,
            &mut probe,
            0,
            last,
            until_proven_to,
            names,
        )
    {
        announce(said);
    }
    let mut solver = probe;
    let stopped = |solver: SequenceSolver, stop: Interrupted| match stop.cause {
        StopCause::ValueTooLarge => BoundedStop::TooLarge { done: stop.done },
        cause => BoundedStop::Stopped {
            cause,
            values: solver.into_values(),
        },
    };
    if let Err(stop) = solver.extend_to_with_progress(last_heap, progress) {
        return Err(stopped(solver, stop));
    }
    if solver.values().len() <= last_heap {
        return Err(BoundedStop::TooLarge {
            done: solver.values().len(),
        });
    }
    // Past N, a value beyond 32 bits only ends the search for a period (the
    // values asked for are known); being stopped does not.
    let periodicity = match until_proven(&mut solver, reach, progress) {
        Ok(found) => found,
        Err(Interrupted {
            cause: StopCause::ValueTooLarge,
            ..
        }) => None,
        Err(stop) => return Err(stopped(solver, stop)),
    };
    Ok(Bounded {
        values: solver.into_values(),
        periodicity,
    })
}

/// A period proven by the first `values` of `rule`, when every value is to be
/// taken from it rather than computed: for rules costing more than linear time
/// (codes leaving three heaps) and purely periodic ones. Values growing by a
/// saltus (Nim) keep the engine, whose allocations are fallible.
#[must_use]
pub fn proven_shortcut(
    rule: &HeapRule,
    method: Method,
    model: &CostModel,
    values: &GrundyValues,
) -> Option<Periodicity> {
    if method != Method::SparseSpace {
        return None;
    }
    find_periodicity(rule, values)
        .filter(Periodicity::proven)
        .filter(|found| model.what_grows().is_some() || found.saltus == 0)
}

/// The bytes of the values of heaps `0..=last_heap` given by `periodicity`,
/// stored as narrow as their largest value allows (one, two or four bytes).
#[must_use]
pub fn periodic_bytes(periodicity: &Periodicity, values: &GrundyValues, last_heap: usize) -> u64 {
    let base = periodicity.preperiod + periodicity.period;
    let first = values.iter().take(base).max().map_or(0, u64::from);
    let cycles = last_heap.saturating_sub(periodicity.preperiod) / periodicity.period.max(1);
    let largest = first.saturating_add(cycles as u64 * u64::from(periodicity.saltus));
    let width: u64 = match largest {
        0..=0xFF => 1,
        0x100..=0xFFFF => 2,
        _ => 4,
    };
    (last_heap as u64 + 1).saturating_mul(width)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::grundy_values;

    fn bounds(bytes: u64) -> Bounds {
        Bounds {
            budget: Cost {
                bytes,
                steps: 3 * 10u64.pow(8),
            },
            period_reach: 1 << 14,
            method: Method::SparseSpace,
            until_proven: false,
        }
    }

    fn go(rule: &HeapRule, last: usize, bytes: u64) -> Result<Bounded, BoundedStop> {
        compute(rule, last, &bounds(bytes), &mut |_| {
            ControlFlow::Continue(())
        })
    }

    #[test]
    fn the_values_are_those_of_the_plain_computation() {
        for rule in [
            HeapRule::kayles(),
            HeapRule::dawsons_kayles(),
            crate::catalogue::parse_rule("octal[0.8]").unwrap().0,
            crate::catalogue::parse_rule("sub[1, 3, 4]").unwrap().0,
            crate::catalogue::parse_rule("nim").unwrap().0,
        ] {
            let found = go(&rule, 3000, 1 << 30).unwrap();
            let plain = grundy_values(&rule, 3000);
            assert_eq!(
                found.values.to_vec()[..3001],
                plain.to_vec()[..],
                "{rule:?}"
            );
            assert!(found.periodicity.is_some_and(|p| p.proven()), "{rule:?}");
        }
    }

    #[test]
    fn a_range_past_the_budget_is_refused_by_estimate() {
        let rule = crate::catalogue::parse_rule("octal[0.9]").unwrap().0;
        let Err(BoundedStop::OverBudget { needed, what_grows }) = go(&rule, 100_000, 1 << 30)
        else {
            panic!("0.9 to 10^5 was computed");
        };
        assert!(needed.steps > 3 * 10u64.pow(8));
        assert!(what_grows.is_some());
    }

    #[test]
    fn a_cancelled_computation_keeps_its_values() {
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(200);
        let cancel = crate::cancel::Cancel::with_deadline(deadline);
        let rule = crate::catalogue::parse_rule("octal[0.6]").unwrap().0;
        // 2^26 values of Officers take about a minute.
        let stop = cancel.run(|| go(&rule, 1 << 26, 1 << 30)).unwrap_err();
        let BoundedStop::Stopped { cause, values } = stop else {
            panic!("not stopped: {stop:?}");
        };
        assert_eq!(cause, StopCause::Cancelled);
        assert!(
            values.len() > 1024 && values.len() < 1 << 26,
            "{}",
            values.len()
        );
        let plain = grundy_values(&rule, values.len().saturating_sub(1));
        assert_eq!(values.to_vec(), plain.to_vec());
    }
}
