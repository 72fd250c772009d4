//! A misère sum of heaps of one octal rule answered by the rule's misère
//! quotient (Plambeck and Siegel, "Misère quotients for impartial games",
//! 2008; see [`crate::quotient`]), the quotients kept for the rules used last
//! in the computation's context of caches ([`crate::theory::caches`]).

use num_bigint::BigUint;

use super::answer::{leaf_parts, misere_answer};
use crate::quotient::{self, MisereQuotient, QuotientLimits};
use crate::rules::HeapRule;
use crate::sums::answer::{Answer, SolveOptions, WinningMove};
use crate::sums::position::Position;
use crate::theory::caches::{Caches, Shelf};
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

/// The most rules the genus's memories keep ([`NotTame`](super::genus::NotTame),
/// [`GenusFailed`](super::genus::GenusFailed)),
/// the least recently used forgotten first; their bytes are counted in the
/// context of caches the computation runs under ([`Caches`]), which bounds
/// them all.
pub(in crate::sums) const RULES_REMEMBERED: usize = 32;

/// Quotients built while solving, by rule and the heaps asked for: each the
/// quotient built, or the heap where its construction failed (at most
/// [`QUOTIENTS_REMEMBERED`] entries, each counted by
/// [`MisereQuotient::held_bytes`]).
pub(in crate::sums) struct Quotients;

impl Shelf for Quotients {
    type Key = (HeapRule, u64);
    type Value = BuiltQuotient;
    const ENTRIES: usize = QUOTIENTS_REMEMBERED;
}

/// The most quotients kept ([`Quotients`]): a rule may be kept for several
/// reaches (sums of different largest heaps).
pub(in crate::sums) const QUOTIENTS_REMEMBERED: usize = 2 * RULES_REMEMBERED;

/// A quotient built while solving, or the heap where its construction failed.
pub(in crate::sums) type BuiltQuotient = Result<std::sync::Arc<MisereQuotient>, u64>;

/// Whether `built`, kept for `rule`, is what building the quotient of `rule`
/// to `reach` heaps gives now, so that an answer through it is the one a
/// fresh context gives. The construction adds heap after heap and stops at
/// the first heap where the heap map is proven periodic: to `reach`, it is
/// the quotient proven at a heap up to `reach`, or else the quotient of
/// exactly `reach` heaps; it fails at the same heap whatever the heaps asked
/// beyond it (its bounds count steps, never time).
fn is_built_to(built: &BuiltQuotient, reach: u64) -> bool {
    match built {
        Ok(q) if q.periodicity().is_some() => q.heaps() <= reach,
        Ok(q) => q.heaps() == reach,
        Err(failed) => *failed <= reach,
    }
}

/// The quotient of `rule` knowing heaps up to `largest`, built (or found
/// built, in the context of caches of the computation) within `budget`.
pub(in crate::sums) fn quotient_for(
    rule: &HeapRule,
    largest: &BigUint,
    budget: Budget,
) -> Result<Option<std::sync::Arc<MisereQuotient>>, SearchError> {
    use num_traits::ToPrimitive;
    let knows = |q: &MisereQuotient| q.heap_class(largest).is_some();
    let reach = match largest.to_u64() {
        Some(small) if small <= QUOTIENT_REACH => small,
        _ => PROOF_REACH,
    };
    let caches = Caches::current();
    let built = caches.find::<Quotients>(budget.bytes, |(r, _), built| {
        r == rule && is_built_to(built, reach)
    });
    let result = match built {
        Some(built) => built,
        None => {
            let limits = construction_limits(budget);
            let result = match unless_stopped(|| quotient::compute(rule, reach, true, limits))? {
                Ok(q) => Ok(std::sync::Arc::new(q)),
                // A failure cut by a limit of the caller's below the
                // construction's own says nothing of the rule: not remembered
                // (one cut by the caller's deadline never gets here: it is
                // `Cancelled` above).
                Err(error) if failed_by_callers_limit(&error.error, limits) => return Ok(None),
                Err(error) => Err(error.heap),
            };
            let bytes = result.as_ref().map_or(0, |q| q.held_bytes()) + rule.held_bytes();
            let key = (rule.clone(), reach);
            caches.keep::<Quotients>(budget.bytes, key, result.clone(), bytes as u64);
            result
        }
    };
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

#[cfg(test)]
mod tests {
    use crate::catalogue::build;
    use crate::lang::parse;
    use crate::rules::HeapRule;
    use crate::sums::analysis::{SolveOptions, solve};
    use crate::sums::report::answer_json;
    use crate::theory::caches::Caches;
    use crate::theory::cancel::Cancel;

    /// The answer to `text` in `caches`, as the front ends write it (its
    /// method's notes included), or its error.
    fn answer_in(caches: &Caches, text: &str, options: &SolveOptions) -> String {
        Cancel::new().caching(caches).run(|| {
            let position = build(&parse(text).unwrap()).unwrap();
            match solve(&position, options) {
                Ok(answer) => format!("{} {:?}", answer_json(&answer, &position), answer.notes),
                Err(error) => format!("error: {error}"),
            }
        })
    }

    /// The first 200 octal codes `0.d1d2d3` that are rules.
    fn octal_codes() -> Vec<String> {
        let codes: Vec<String> = (1..512)
            .map(|n| format!("0.{}{}{}", n / 64, n / 8 % 8, n % 8))
            .filter(|code| HeapRule::octal(code).is_ok())
            .take(200)
            .collect();
        assert_eq!(codes.len(), 200);
        codes
    }

    /// A context held for a long run (a server, a notebook) answers the misère
    /// sums of 200 rules, each twice (the second from what the first kept) and
    /// once more with fewer heaps: it never holds more than its cap, and every
    /// answer is the one a fresh context gives.
    #[test]
    fn a_context_kept_over_many_rules_stays_within_its_cap_and_answers_alike() {
        let cap = 16 << 10;
        let warm = Caches::new(cap);
        let options = SolveOptions::default();
        let mut held_at_most = 0;
        for code in octal_codes() {
            for heaps in ["3, 5, 7", "3, 5, 7", "2, 6"] {
                let text = format!("misere(octal[{code}]({heaps}))");
                let cold = answer_in(&Caches::default(), &text, &options);
                assert_eq!(answer_in(&warm, &text, &options), cold, "{text}");
                assert!(warm.held_bytes() <= cap, "{text}: {warm:?}");
                held_at_most = held_at_most.max(warm.held_bytes());
            }
        }
        // The cap, not only the count of entries, bounded what was held.
        assert!(held_at_most > cap / 2, "{held_at_most} bytes at most");
    }

    /// Under a small memory budget the entries held beside the computation
    /// stay within its share, whatever a larger budget kept before.
    #[test]
    fn a_memory_budget_bounds_what_the_context_holds() {
        let warm = Caches::new(64 << 20);
        let roomy = SolveOptions::default();
        let tight = SolveOptions {
            max_memory: 64 << 10,
            ..SolveOptions::default()
        };
        for code in octal_codes().iter().take(40) {
            let text = format!("misere(octal[{code}](4, 6, 9))");
            let cold = answer_in(&Caches::default(), &text, &roomy);
            assert_eq!(answer_in(&warm, &text, &roomy), cold, "{text}");
        }
        assert!(
            warm.held_bytes() > warm.limit_under(tight.max_memory),
            "{warm:?}"
        );
        for code in octal_codes().iter().skip(40).take(40) {
            let text = format!("misere(octal[{code}](4, 6, 9))");
            let cold = answer_in(&Caches::default(), &text, &tight);
            assert_eq!(answer_in(&warm, &text, &tight), cold, "{text}");
            assert!(
                warm.held_bytes() <= warm.limit_under(tight.max_memory),
                "{warm:?}"
            );
        }
    }
}
