//! Nim: take any positive number of tokens from one heap.
//!
//! Bouton's theorem (Annals of Mathematics 3, 1901): a heap of
//! `n` has nimber `n`, so a position's nimber is the nim-sum (xor) of its heaps
//! and the first player wins iff it is nonzero. The winning moves from a
//! position of nim-sum `X ≠ 0` are the moves on a heap `a` with `a ⊕ X < a`,
//! leaving `a ⊕ X`: one per such heap.

use std::sync::Arc;

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

use super::{HeapMovesTo, HeapRule, HeapRules, Leaves, Wanted, heap_parts};
use crate::family::{EverySteps, OptionsWithSteps};
use crate::lang::arguments::{heap_sizes_with_text, no_params};
use crate::lang::{LangError, Term};
use crate::registry::{BuildContext, DrawingKind, EntryKind, GameEntry};
use crate::sums::position::{Group, Position};
use crate::theory::game::Convention;

/// The rules of Nim.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Nim;

impl HeapRules for Nim {
    fn heap_rule(&self) -> Option<HeapRule> {
        Some(HeapRule::nim())
    }

    fn heap_moves(&self, size: u64, limit: usize, moves: &mut Vec<Leaves>) {
        moves.extend(
            (0..size)
                .take(limit.saturating_add(1))
                .map(|left| Leaves::from_slice(&[left])),
        );
    }

    fn heap_nimber(&self, size: &BigUint) -> Option<(BigUint, &'static str)> {
        Some((size.clone(), "nim-sum"))
    }

    fn heap_moves_to_nimber(&self, size: &BigUint, wanted: Wanted<'_>) -> Option<HeapMovesTo> {
        let Wanted { target, max } = wanted;
        if target < size {
            let listed = if max > 0 {
                vec![vec![target.clone()]]
            } else {
                Vec::new()
            };
            Some((1u32.into(), listed))
        } else {
            Some((BigUint::zero(), Vec::new()))
        }
    }

    /// The only heap of nimber 0 is the empty one, which is terminal.
    fn satisfies_anti_sg_condition(&self) -> bool {
        true
    }

    /// Every-SG steps: the empty heap 0, any other 1 (its winner empties it
    /// at once: its only option of nimber 0 is the empty heap). A heap of `n`
    /// has the empty heap (steps 0) and `n - 1` heaps of steps 1 as options.
    fn heap_every_steps(&self, size: &BigUint, max: usize) -> Option<EverySteps<BigUint>> {
        let mut options = Vec::new();
        if !size.is_zero() {
            options.push(OptionsWithSteps {
                steps: BigUint::zero(),
                count: 1u32.into(),
                first: std::iter::once(vec![BigUint::zero()]).take(max).collect(),
            });
        }
        if *size > BigUint::one() {
            let listed = size.to_u64().unwrap_or(u64::MAX) - 1;
            options.push(OptionsWithSteps {
                steps: BigUint::one(),
                count: size - 1u32,
                first: (1..=listed)
                    .take(max)
                    .map(|left| vec![BigUint::from(left)])
                    .collect(),
            });
        }
        Some(EverySteps::from_options(options))
    }
}

/// The heap rule `nim`, for `grundy seq`.
fn rule(term: &Term) -> Result<(super::HeapRule, String), LangError> {
    super::rule_without_parameters(term, "nim", super::HeapRule::nim())
}

fn build(term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
    no_params(term)?;
    Ok(Group::new(
        "nim",
        heap_parts(
            &Arc::new(Nim),
            heap_sizes_with_text(term, context.limits.bytes)?,
        ),
    ))
}

/// The catalogue entry.
pub(crate) const ENTRY: GameEntry = GameEntry {
    name: "nim",
    summary: "take any number of tokens from one heap",
    rules: "A move takes one or more tokens from a single heap. Bouton (1901): the nimber of a heap \
            is its size, so the first player wins iff the nim-sum (xor) of the heaps is nonzero; \
            the winning moves reduce a heap a to a xor X where X is the nim-sum. Heaps may be of \
            any size (10^100 answers instantly).",
    syntax: "nim(a, b, ...)   heaps: integers, ranges a..b, or @FILE (integers separated by blanks, \
             commas or newlines; # starts a comment; @FILE:counted when the first line is the \
             count of the heaps, as judges give it; @- reads standard input)",
    examples: &[
        "nim(3, 5, 7)",
        "nim(1, 1, 1)",
        "nim(10000000000000000000000000000000000000000, 1)",
    ],
    kind: EntryKind::Game(build),
    heap_rule: Some(rule),
    drawing: DrawingKind::Heaps,
    every_start: None,
};

fn build_anti_nim(term: &Term, context: &BuildContext<'_>) -> Result<Position, LangError> {
    Ok(Position::sum(
        Convention::Misere,
        vec![build(term, context)?],
    ))
}

/// Anti-Nim, the name contest problems give misère Nim: `anti_nim(a, ...)` is
/// `misere(nim(a, ...))`.
pub(crate) const ANTI_NIM_ENTRY: GameEntry = GameEntry {
    name: "anti_nim",
    summary: "Nim under misère play: whoever takes the last token loses",
    rules: "anti_nim(a, b, ...) is misere(nim(a, b, ...)) (Anti-Nim). Bouton's misère \
            rule, a case of the Anti-SG rule: if some heap has 2 or more tokens, the player to move \
            wins iff the nim-sum is nonzero; if every heap has at most 1, iff the nim-sum is zero. \
            Heaps of any size; the answer is printed as the misere(nim(...)) it stands for.",
    syntax: "anti_nim(a, b, ...)",
    examples: &["anti_nim(1, 1, 1)", "anti_nim(2, 3, 100000000000000000000)"],
    kind: EntryKind::Compound(build_anti_nim),
    heap_rule: None,
    drawing: DrawingKind::Heaps,
    every_start: None,
};

#[cfg(test)]
mod tests {
    use crate::catalogue::build as build_position;
    use crate::lang::parse;
    use crate::sums::analysis::{SolveOptions, solve};
    use crate::theory::game::ImpartialGame;
    use crate::theory::game::Outcome;
    use crate::theory::solver::Solver;
    use proptest::prelude::*;

    /// Nim searched by the generic solver, with no theory.
    struct SearchedNim;
    impl ImpartialGame for SearchedNim {
        type Position = Vec<u32>;
        fn moves(&self, heaps: &Vec<u32>, moves: &mut Vec<Vec<u32>>) {
            for (i, &heap) in heaps.iter().enumerate() {
                for left in 0..heap {
                    let mut next = heaps.clone();
                    next[i] = left;
                    moves.push(next);
                }
            }
        }
    }

    fn answer(source: &str) -> crate::sums::analysis::Answer {
        solve(
            &build_position(&parse(source).unwrap()).unwrap(),
            &SolveOptions::default(),
        )
        .unwrap()
    }

    #[test]
    fn the_contract_example() {
        // The contract's sample output shows one winning move; there are three:
        // 3 ⊕ 5 ⊕ 7 = 1 and every heap a has a ⊕ 1 < a.
        let answer = answer("nim(3,5,7)");
        assert_eq!(answer.position.as_str(), "nim(3, 5, 7)");
        assert_eq!(answer.outcome, Outcome::NextPlayerWins);
        assert_eq!(answer.nimber, Some(1u32.into()));
        assert_eq!(answer.method, "nim-sum");
        assert_eq!(answer.winning_move_count, 3u32.into());
        let moves: Vec<(String, &str)> = answer
            .winning_moves
            .iter()
            .map(|m| (answer.target(m), m.description.as_str()))
            .collect();
        assert_eq!(
            moves,
            [
                ("nim(2, 5, 7)".to_owned(), "take 1 from the heap of 3"),
                ("nim(3, 4, 7)".to_owned(), "take 1 from the heap of 5"),
                ("nim(3, 5, 6)".to_owned(), "take 1 from the heap of 7"),
            ]
        );
    }

    #[test]
    fn moves_are_counted_as_a_player_makes_them() {
        let answer = answer("nim(1, 1, 1)");
        assert_eq!(answer.winning_move_count, 3u32.into());
        let targets: Vec<String> = answer
            .winning_moves
            .iter()
            .map(|m| answer.target(m))
            .collect();
        assert_eq!(targets, ["nim(0, 1, 1)", "nim(1, 0, 1)", "nim(1, 1, 0)"]);
    }

    #[test]
    fn huge_heaps_are_exact() {
        let big = "1".to_owned() + "0".repeat(100).as_str();
        let answer = answer(&format!("nim({big}, {big}, 1)"));
        assert_eq!(answer.nimber, Some(1u32.into()));
        assert_eq!(answer.winning_move_count, 1u32.into());
        assert_eq!(
            answer.target(&answer.winning_moves[0]),
            format!("nim({big}, {big}, 0)")
        );
    }

    #[test]
    fn the_search_solver_agrees_on_every_small_position() {
        let mut solver = Solver::new(&SearchedNim);
        for a in 0..6u32 {
            for b in 0..6 {
                for c in 0..6 {
                    let answer = answer(&format!("nim({a}, {b}, {c})"));
                    let searched = solver.nimber(&vec![a, b, c]).unwrap();
                    assert_eq!(answer.nimber, Some(searched.into()));
                    let winning = solver.winning_moves(&vec![a, b, c]).unwrap();
                    assert_eq!(answer.winning_move_count, winning.len().into());
                }
            }
        }
    }

    proptest! {
        #[test]
        fn every_winning_move_leads_to_a_p_position(heaps in prop::collection::vec(0u64..1_000_000, 1..8)) {
            let text = format!("nim({})", heaps.iter().map(u64::to_string).collect::<Vec<_>>().join(", "));
            let answer = answer(&text);
            let xor = heaps.iter().fold(0, |x, h| x ^ h);
            prop_assert_eq!(answer.nimber.clone(), Some(xor.into()));
            let expected = heaps.iter().filter(|&&h| h ^ xor < h).count();
            prop_assert_eq!(answer.winning_move_count.clone(), expected.into());
            for winning in &answer.winning_moves {
                prop_assert_eq!(self::answer(&answer.target(winning)).outcome, Outcome::PreviousPlayerWins);
            }
        }
    }
}
