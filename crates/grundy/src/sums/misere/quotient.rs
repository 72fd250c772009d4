//! A misère sum of heaps of one octal rule answered by the rule's misère
//! quotient (Plambeck and Siegel, "Misère quotients for impartial games",
//! 2008; see [`crate::quotient`]), the quotients kept for the rules used last.

use num_bigint::BigUint;

use super::answer::{leaf_parts, misere_answer};
use crate::quotient::{self, MisereQuotient, QuotientLimits};
use crate::sums::answer::{Answer, SolveOptions, WinningMove};
use crate::sums::position::Position;
use crate::theory::cancel::{self};
use crate::theory::game::Outcome;
use crate::theory::solver::{Budget, SearchError};

/// The heaps a misère quotient is computed to for a sum whose heaps are all
/// below it; a sum with a larger heap needs the quotient proven for every heap
/// by its period within [`PROOF_REACH`] heaps.
pub(in crate::sums) const QUOTIENT_REACH: u64 = 64;
/// How far the heaps are added looking for a period of the quotient.
pub(in crate::sums) const PROOF_REACH: u64 = 400;
/// The most work a quotient (or genus) built while solving may take: pair
/// transitions of its verification and transitions of the candidates tried
/// (one to two seconds; the same bound on every machine).
pub(in crate::sums) const QUOTIENT_WORK: u64 = 10_000_000;
/// Steps of a construction counted as one position of the caller's state
/// limit: the default limit of 2,000,000 positions allows [`QUOTIENT_WORK`]
/// exactly, and a caller who allows a search of few positions does not wait
/// for a construction of millions of steps.
pub(in crate::sums) const WORK_PER_STATE: u64 = 5;
/// What a quotient built while solving may hold.
pub(in crate::sums) const QUOTIENT_BYTES: u64 = 256 << 20;

/// The bounds of a quotient or genus construction under the caller's
/// `budget`: its own ([`QUOTIENT_WORK`], [`QUOTIENT_BYTES`]) or the caller's
/// when smaller.
pub(in crate::sums) fn construction_limits(budget: Budget) -> QuotientLimits {
    let states = u64::try_from(budget.states).unwrap_or(u64::MAX);
    QuotientLimits {
        max_bytes: budget.bytes.min(QUOTIENT_BYTES),
        max_order: 4096,
        max_work: states.saturating_mul(WORK_PER_STATE).min(QUOTIENT_WORK),
    }
}

/// Whether a construction within `limits` that failed with `error` failed by
/// a bound of the caller's below the construction's own: a failure that says
/// nothing of the rule, and is not remembered.
pub(in crate::sums) fn failed_by_callers_limit(
    error: &SearchError,
    limits: QuotientLimits,
) -> bool {
    match error {
        SearchError::MemoryLimit { .. } => limits.max_bytes < QUOTIENT_BYTES,
        SearchError::StateLimit { .. } => limits.max_work < QUOTIENT_WORK,
        _ => false,
    }
}

/// The most rules the memories of this module keep ([`QUOTIENTS`],
/// [`NOT_TAME`](super::genus::NOT_TAME), [`GENUS_FAILED`](super::genus::GENUS_FAILED)), the oldest forgotten first: a server or a
/// notebook that sees rule after rule does not grow without bound.
pub(in crate::sums) const RULES_REMEMBERED: usize = 32;

/// The most bytes the quotients kept hold in all (the latest is kept
/// whatever its size: it was built within the caller's memory limit).
pub(in crate::sums) const QUOTIENTS_KEPT_BYTES: usize = 64 << 20;

/// Appends `entry` to `list`, forgetting the oldest entries past
/// [`RULES_REMEMBERED`].
pub(in crate::sums) fn remember_bounded<T>(list: &mut Vec<T>, entry: T) {
    list.push(entry);
    if list.len() > RULES_REMEMBERED {
        let excess = list.len() - RULES_REMEMBERED;
        list.drain(..excess);
    }
}

/// Quotients built while solving, by rule: each the furthest built, or the
/// heap where the construction failed (at most [`RULES_REMEMBERED`] rules and
/// [`QUOTIENTS_KEPT_BYTES`]).
pub(in crate::sums) static QUOTIENTS: std::sync::Mutex<
    Vec<(crate::rules::HeapRule, BuiltQuotient)>,
> = std::sync::Mutex::new(Vec::new());

/// A quotient built while solving, or the heap where its construction failed.
pub(in crate::sums) type BuiltQuotient = Result<std::sync::Arc<MisereQuotient>, u64>;

/// The quotient of `rule` knowing heaps up to `largest`, built (or found
/// built) within `bytes`.
pub(in crate::sums) fn quotient_for(
    rule: &crate::rules::HeapRule,
    largest: &BigUint,
    budget: Budget,
) -> Result<Option<std::sync::Arc<MisereQuotient>>, SearchError> {
    use num_traits::ToPrimitive;
    let knows = |q: &MisereQuotient| q.heap_class(largest).is_some();
    let built = QUOTIENTS
        .lock()
        .map(|list| list.iter().find(|(r, _)| r == rule).map(|(_, q)| q.clone()))
        .unwrap_or(None);
    let reach = match largest.to_u64() {
        Some(small) if small <= QUOTIENT_REACH => small,
        _ => PROOF_REACH,
    };
    match &built {
        Some(Ok(q)) if knows(q) => return Ok(Some(q.clone())),
        Some(Err(failed)) if *failed <= reach => return Ok(None),
        Some(Ok(q)) if q.heaps() >= reach => return Ok(None),
        _ => {}
    }
    let limits = construction_limits(budget);
    let built = unless_stopped(|| quotient::compute(rule, reach, true, limits))?;
    let result = match built {
        Ok(q) => Ok(std::sync::Arc::new(q)),
        // A failure cut by a limit of the caller's below the construction's
        // own says nothing of the rule: not remembered (one cut by the
        // caller's deadline never gets here: it is `Cancelled` above).
        Err(error) if failed_by_callers_limit(&error.error, limits) => return Ok(None),
        Err(error) => Err(error.heap),
    };
    if let Ok(mut list) = QUOTIENTS.lock() {
        list.retain(|(r, _)| r != rule);
        remember_bounded(&mut list, (rule.clone(), result.clone()));
        let held = |list: &[(crate::rules::HeapRule, BuiltQuotient)]| -> usize {
            list.iter()
                .map(|(_, q)| q.as_ref().map_or(0, |q| q.held_bytes()))
                .sum()
        };
        while list.len() > 1 && held(&list) > QUOTIENTS_KEPT_BYTES {
            drop(list.remove(0));
        }
    }
    Ok(result.ok().filter(|q| knows(q)))
}

/// Runs `build` (a quotient or genus construction, bounded by
/// [`QUOTIENT_WORK`], a count of its steps, never by a clock: its failure is a
/// fact of the rule, the same on every machine and in every process, and is
/// remembered). The caller's deadline and cancellation still stop it: those
/// are [`SearchError::Cancelled`] here, never a result, so that a construction
/// cut by a deadline is never remembered as the rule's failure.
pub(in crate::sums) fn unless_stopped<T>(build: impl FnOnce() -> T) -> Result<T, SearchError> {
    let caller = cancel::current().unwrap_or_default();
    let built = caller.run(build);
    // Asked of the caller's signal itself: `checkpoint` reads the clock only
    // every few calls, and a construction cut by the caller's deadline must
    // never pass for the rule's failure.
    if caller.is_cancelled() {
        return Err(SearchError::Cancelled);
    }
    Ok(built)
}

/// A misère sum of heaps of one heap rule, answered through the rule's misère
/// quotient (see [`crate::quotient`]) when it is built far enough: the sum's
/// class is the product of its heaps' classes, and a move wins iff it makes
/// the product fall in the P-portion.
pub(in crate::sums) fn solve_by_quotient(
    position: &Position,
    options: &SolveOptions,
) -> Result<Option<Answer>, SearchError> {
    let mut rule = None;
    let mut heaps = Vec::new();
    let mut places = Vec::new();
    for (g, group) in position.groups.iter().enumerate() {
        for (i, part) in group.parts.iter().enumerate() {
            let Some((part_rule, size)) = part.as_heap() else {
                return Ok(None);
            };
            match &rule {
                None => rule = Some(part_rule),
                Some(known) if *known == part_rule => {}
                Some(_) => return Ok(None),
            }
            heaps.push(size);
            places.push((g, i, part));
        }
    }
    let (Some(rule), Some(largest)) = (rule, heaps.iter().max()) else {
        return Ok(None);
    };
    let Some(quotient) = quotient_for(&rule, largest, options.budget())? else {
        return Ok(None);
    };
    let Some(found) = quotient::play::answer(&quotient, &heaps, options.max_moves) else {
        return Ok(None);
    };
    let mut moves = Vec::with_capacity(found.moves.len());
    for (index, leaves) in found.moves {
        let (g, i, part) = places[index];
        let Some(leaves) = leaf_parts(part, &rule, leaves) else {
            return Ok(None);
        };
        moves.push(WinningMove::in_component(part, g, i, leaves));
    }
    let outcome = if found.p_position {
        Outcome::PreviousPlayerWins
    } else {
        Outcome::NextPlayerWins
    };
    let truncated = found.count > BigUint::from(moves.len());
    let mut answer = misere_answer(
        position,
        outcome,
        moves,
        found.count,
        truncated,
        "misère quotient",
    );
    let reach = match quotient.periodicity() {
        Some(period) => format!(
            "proven for heaps of every size (heap map periodic with period {} from heap {})",
            period.period, period.preperiod
        ),
        None => format!("for heaps up to {}", quotient.heaps()),
    };
    answer.notes.push(format!(
        "the misère quotient of {rule} {reach} has order {} and a P-portion of {} elements; this sum is its element {}",
        quotient.order(),
        quotient.p_portion().len(),
        quotient.presentation().element(found.class),
    ));
    Ok(Some(answer))
}
