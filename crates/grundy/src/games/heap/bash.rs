//! Bash's game: take 1 to `m` tokens from one heap.
//!
//! A heap of `n` has nimber `n mod (m + 1)` (Winning Ways ch. 4: the second
//! player answers a take of `k` with `m + 1 − k`). So a single heap is lost for
//! the player to move iff `m + 1` divides `n`, and the winning move from a heap
//! takes `n mod (m + 1)`.

use std::sync::Arc;

use num_bigint::BigUint;
use num_traits::Zero;

use num_integer::Integer;

use super::{HeapMovesTo, HeapRules, Leaves, Wanted, heap_parts};
use crate::family::{EverySteps, OptionsWithSteps};
use crate::lang::arguments::{heap_sizes, integer_param};
use crate::lang::{LangError, Term};
use crate::registry::{BuildContext, DrawingKind, EntryKind, GameEntry};
use crate::sums::position::Group;

/// The rules of Bash's game with at most `max_take` tokens a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bash {
    max_take: BigUint,
}

impl Bash {
    /// Bash's game with moves of 1 to `max_take` tokens (at least 1).
    #[must_use]
    pub const fn new(max_take: BigUint) -> Self {
        Self { max_take }
    }

    fn modulus(&self) -> BigUint {
        &self.max_take + 1u32
    }
}

impl HeapRules for Bash {
    fn heap_moves(&self, size: u64, limit: usize, moves: &mut Vec<Leaves>) {
        let most = u64::try_from(&self.max_take).unwrap_or(u64::MAX).min(size);
        moves.extend(
            (1..=most)
                .take(limit.saturating_add(1))
                .map(|take| Leaves::from_slice(&[size - take])),
        );
    }

    fn heap_nimber(&self, size: &BigUint) -> Option<(BigUint, &'static str)> {
        Some((size % self.modulus(), "bash: n mod (m + 1)"))
    }

    fn heap_moves_to_nimber(&self, size: &BigUint, wanted: Wanted<'_>) -> Option<HeapMovesTo> {
        let Wanted { target, max } = wanted;
        let modulus = self.modulus();
        let none = Some((BigUint::zero(), Vec::new()));
        if target >= &modulus {
            return none;
        }
        // The take k must satisfy size - k ≡ target (mod m + 1) and 1 <= k <= min(m, size).
        let take = (size + &modulus - target) % &modulus;
        if take.is_zero() || &take > size {
            return none;
        }
        let listed = if max > 0 {
            vec![vec![size - &take]]
        } else {
            Vec::new()
        };
        Some((1u32.into(), listed))
    }

    /// A heap of nimber 0 is a multiple of `m + 1`; taking `m` from a nonempty
    /// one leaves nimber 1.
    fn satisfies_anti_sg_condition(&self) -> bool {
        true
    }

    /// Every-SG steps: `2q` for a heap of `q (m + 1)` tokens and `2q + 1` for
    /// one of `q (m + 1) + r`, `0 < r <= m` (by induction on the definition
    /// of steps: from a multiple of `m + 1` every take leaves the block below,
    /// of steps `2q - 1`, so the loser's best is `1 + (2q - 1)`; from the
    /// others the only move to nimber 0 leaves `q (m + 1)`). Checked against
    /// exploring the heaps in this module's tests.
    fn heap_every_steps(&self, size: &BigUint, max: usize) -> Option<EverySteps<BigUint>> {
        let modulus = self.modulus();
        let steps = |heap: &BigUint| -> BigUint {
            let (q, r) = heap.div_rem(&modulus);
            (q << 1u32) + u32::from(!r.is_zero())
        };
        let mut options = Vec::new();
        if size.is_zero() {
            return Some(EverySteps::from_options(options));
        }
        // The heaps left, `low..=high`, fewer than `m + 1`: at most two blocks.
        let high = size - 1u32;
        let low = size - (&self.max_take).min(size);
        let mut block = &low / &modulus;
        while &block * &modulus <= high {
            let start = &block * &modulus;
            let end = &start + &self.max_take;
            if start >= low {
                options.push(OptionsWithSteps {
                    steps: steps(&start),
                    count: 1u32.into(),
                    first: std::iter::once(vec![start.clone()]).take(max).collect(),
                });
            }
            let from = (&start + 1u32).max(low.clone());
            let to = end.min(high.clone());
            if from <= to {
                let count = &to - &from + 1u32;
                let first = std::iter::successors(Some(from.clone()), |x| Some(x + 1u32))
                    .take_while(|x| *x <= to)
                    .take(max)
                    .map(|x| vec![x])
                    .collect();
                options.push(OptionsWithSteps {
                    steps: steps(&from),
                    count,
                    first,
                });
            }
            block += 1u32;
        }
        let found = EverySteps::from_options(options);
        debug_assert_eq!(found.steps, steps(size));
        Some(found)
    }
}

/// The heap rule `bash[m]`, for `grundy seq`: the subtraction set `1..=m`.
fn rule(term: &Term) -> Result<(super::HeapRule, String), LangError> {
    use num_traits::ToPrimitive;
    let most = integer_param(term, 0, "m", 1)?
        .ok_or_else(|| LangError::new("`bash` needs its parameter m", term.name_span))?;
    // A sequence engine looks at every amount of every heap (and the set
    // of 2^32 amounts would not fit in memory): as for `sub`.
    let largest = super::subtraction::MAX_AMOUNT;
    let most = most.to_u64().filter(|&m| m <= largest).ok_or_else(|| {
        LangError::new(
            format!("`bash[m]` as a sequence needs m at most {largest}, as the amounts of `sub`"),
            term.name_span,
        )
        .with_help("G(n) of bash[m] is n mod (m + 1); `grundy solve 'bash[m](n)'` answers any m")
    })?;
    let amounts: Vec<u64> = (1..=most).collect();
    let rule = super::subtraction_rule(term, &amounts)?;
    Ok((rule, format!("bash[{most}]")))
}

fn build(term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
    let max_take = integer_param(term, 0, "m", 1)?.ok_or_else(|| {
        LangError::new(
            "`bash` needs its parameter m, the most tokens a move may take",
            term.name_span,
        )
        .with_help("for example `bash[3](10)` or `bash[m=3](10)`")
    })?;
    if term.params.len() > 1 {
        return Err(LangError::new(
            "`bash` takes one parameter, m",
            term.params[1].value.span,
        ));
    }
    let head = format!("bash[{max_take}]");
    Ok(Group::new(
        head,
        heap_parts(
            &Arc::new(Bash::new(max_take)),
            heap_sizes(term, context.limits.bytes)?,
        ),
    ))
}

/// The catalogue entry.
pub(crate) const ENTRY: GameEntry = GameEntry {
    name: "bash",
    summary: "take 1 to m tokens from one heap",
    rules: "A move takes between 1 and m tokens from a single heap (m >= 1). A heap of n has nimber \
            n mod (m + 1): the second player wins a single heap iff m + 1 divides n, by answering \
            each take of k with m + 1 - k (Bash's game, Winning Ways ch. 4). Sums use the nim-sum.",
    syntax: "bash[m](n, ...) or bash[m=M](n, ...)",
    examples: &[
        "bash[3](10)",
        "bash[m=3](8, 9)",
        "bash[2](1000000000000000000000000)",
    ],
    kind: EntryKind::Game(build),
    heap_rule: Some(rule),
    drawing: DrawingKind::Heaps,
    every_start: None,
};

#[cfg(test)]
mod tests {
    use crate::testing::{assert_refused, try_answer as answer};
    use crate::theory::game::{ImpartialGame, Outcome};
    use crate::theory::solver::Solver;
    use proptest::prelude::*;

    struct SearchedBash(u32);
    impl ImpartialGame for SearchedBash {
        type Position = u32;
        fn moves(&self, heap: &u32, moves: &mut Vec<u32>) {
            moves.extend((1..=self.0.min(*heap)).map(|take| heap - take));
        }
    }

    #[test]
    fn closed_form_matches_search_on_all_small_heaps() {
        for m in 1..8 {
            let game = SearchedBash(m);
            let mut solver = Solver::new(&game);
            for n in 0..60 {
                let answer = answer(&format!("bash[{m}]({n})")).unwrap();
                assert_eq!(
                    answer.nimber,
                    Some(solver.nimber(&n).unwrap().into()),
                    "bash[{m}]({n})"
                );
                let winning = solver.winning_moves(&n).unwrap();
                assert_eq!(answer.winning_move_count, winning.len().into());
                let listed: Vec<String> = winning
                    .iter()
                    .map(|left| format!("bash[{m}]({left})"))
                    .collect();
                let targets: Vec<String> = answer
                    .winning_moves
                    .iter()
                    .map(|w| answer.target(w))
                    .collect();
                assert_eq!(targets, listed);
            }
        }
    }

    #[test]
    fn parameters_are_checked() {
        assert_refused(&[
            (
                "bash[0](3)",
                "the parameter `m` of `bash` must be at least 1, not 0",
            ),
            (
                "bash(3)",
                "`bash` needs its parameter m, the most tokens a move may take",
            ),
            ("bash[3](-1)", "a heap size cannot be negative: -1"),
        ]);
        assert_eq!(
            answer("bash[m=3](8)").unwrap().position.as_str(),
            "bash[3](8)"
        );
    }

    proptest! {
        #[test]
        fn sums_agree_with_the_solver_on_the_sum(m in 1u32..5, heaps in prop::collection::vec(0u32..12, 1..4)) {
            // Search the sum as one game (no splitting) and compare the outcome.
            struct Sum(u32);
            impl ImpartialGame for Sum {
                type Position = Vec<u32>;
                fn moves(&self, heaps: &Vec<u32>, moves: &mut Vec<Vec<u32>>) {
                    for (i, &heap) in heaps.iter().enumerate() {
                        for take in 1..=self.0.min(heap) {
                            let mut next = heaps.clone();
                            next[i] -= take;
                            moves.push(next);
                        }
                    }
                }
            }
            let game = Sum(m);
            let mut solver = Solver::new(&game);
            let text = format!("bash[{m}]({})", heaps.iter().map(u32::to_string).collect::<Vec<_>>().join(", "));
            let answer = answer(&text).unwrap();
            prop_assert_eq!(answer.nimber.clone(), Some(solver.nimber(&heaps).unwrap().into()));
            for winning in &answer.winning_moves {
                prop_assert_eq!(self::answer(&answer.target(winning)).unwrap().outcome, Outcome::PreviousPlayerWins);
            }
        }
    }
}
