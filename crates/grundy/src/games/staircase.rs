//! Staircase Nim, and the game of stones on a line that reduces to it.
//!
//! # Rules
//! `a_i` coins stand on step `i >= 1`; a move takes some coins (at least one)
//! from one step `i` down to step `i - 1`. Step 0 is the floor: coins there are
//! out of play. Whoever cannot move loses.
//!
//! # Theorem
//! The nimber is the nim-sum of the odd steps, `a_1 xor a_3 xor a_5 xor ...`
//! (Winning Ways ch. 6 for the
//! outcome). Proof of the nimber, not only the outcome: a move from an odd step
//! lowers one odd heap, which reaches every smaller nim-sum as in Nim; a move
//! from an even step `2j` raises the odd heap `a_(2j-1)`. Either way the nim-sum
//! changes, so it is never the value of an option, and by induction it is the
//! mex of the options' values.
//!
//! # Winning moves
//! To reach nim-sum `t` from nim-sum `s`: from an odd step `i`, move `a_i -
//! (a_i xor s xor t)` coins down when that is positive; from an even step `2j`,
//! move `(a_(2j-1) xor s xor t) - a_(2j-1)` coins onto the odd step below when
//! that is positive and at most `a_(2j)`. So winning moves can start on an even
//! step too: in `staircase(0, 5, 1)` (nim-sum 1) moving one coin from step 3 to
//! step 2 wins, and so does moving one coin from step 2 to step 1. The usual
//! statement only describes the moves on odd steps (the even steps being a
//! "black hole"), so a count of winning moves that follows them is too
//! low; the tests show it. Each step has at most one winning move.
//!
//! # Stones on a line
//! Stones stand at distinct points `p_1 < ... < p_n` of the nonnegative integers;
//! a move slides one stone left to a free point `y` with no stone in `[y, x)`.
//! The gaps `g_1 = p_1`, `g_i = p_i - p_(i-1) - 1` change as a staircase: moving
//! stone `i` by `c` takes `c` from `g_i` and adds it to `g_(i+1)` (gap `n`'s
//! coins leave play). So gap `n + 1 - s` is step `s`: the nimber is `g_n xor
//! g_(n-2) xor ...`.
//!
//! ```
//! use grundy::games::staircase;
//! use num_bigint::BigUint;
//!
//! let steps: Vec<BigUint> = [0u32, 5, 1].map(BigUint::from).to_vec();
//! assert_eq!(staircase::nimber(&steps), BigUint::from(1u8));
//! let moves = staircase::moves_to_nimber(&steps, &BigUint::from(0u8));
//! assert_eq!(moves.len(), 2);
//! assert_eq!(moves[0].describe(), "move 1 coin from step 2 to step 1");
//! assert_eq!(moves[1].describe(), "move 1 coin from step 3 to step 2");
//! ```

use std::sync::Arc;

use num_bigint::BigUint;
use num_traits::Zero;

use crate::drawing::Drawing;
use crate::family::write_integers;
use crate::family::{Family, MovesTo, part};
use crate::lang::arguments::{heap_sizes, no_params};
use crate::lang::{LangError, Term};
use crate::registry::{BuildContext, DrawingKind, EntryKind, GameEntry};
use crate::sums::position::Group;
use crate::theory::game::Outcome;
use crate::theory::solver::SearchError;

/// Why a stones-on-a-line position is not valid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StonesError {
    /// Two stones share a point, or the points are not in increasing order.
    #[error(
        "stone {index} stands at {at}, not right of the stone before it at {before}: points must increase"
    )]
    NotIncreasing {
        /// The stone (counted from 1).
        index: usize,
        /// Its point.
        at: BigUint,
        /// The point of the stone before it.
        before: BigUint,
    },
}

/// The nimber of a staircase: the nim-sum of the odd steps. `steps[0]` is step 1.
#[must_use]
pub fn nimber(steps: &[BigUint]) -> BigUint {
    steps
        .iter()
        .step_by(2)
        .fold(BigUint::zero(), |sum, coins| sum ^ coins)
}

/// Who wins a staircase.
#[must_use]
pub fn outcome(steps: &[BigUint]) -> Outcome {
    if nimber(steps).is_zero() {
        Outcome::PreviousPlayerWins
    } else {
        Outcome::NextPlayerWins
    }
}

/// A staircase move: `coins` coins from step `from` (counted from 1) to step
/// `from - 1`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StaircaseMove {
    /// The step the coins leave.
    pub from: usize,
    /// How many coins move.
    pub coins: BigUint,
}

impl StaircaseMove {
    /// The move in words; step 0 is "the floor".
    #[must_use]
    pub fn describe(&self) -> String {
        let noun = if self.coins == BigUint::from(1u8) {
            "coin"
        } else {
            "coins"
        };
        if self.from == 1 {
            format!("move {} {noun} from step 1 to the floor", self.coins)
        } else {
            format!(
                "move {} {noun} from step {} to step {}",
                self.coins,
                self.from,
                self.from - 1
            )
        }
    }

    /// The steps after the move.
    #[must_use]
    pub fn apply(&self, steps: &[BigUint]) -> Vec<BigUint> {
        let mut after = steps.to_vec();
        after[self.from - 1] -= &self.coins;
        if self.from >= 2 {
            after[self.from - 2] += &self.coins;
        }
        after
    }
}

/// Every move to a staircase of nimber `target`, in order of the step it
/// starts from; at most one per step. With `target = 0` these are the winning
/// moves.
#[must_use]
pub fn moves_to_nimber(steps: &[BigUint], target: &BigUint) -> Vec<StaircaseMove> {
    let change = nimber(steps) ^ target;
    if change.is_zero() {
        return Vec::new();
    }
    let mut moves = Vec::new();
    for (index, coins) in steps.iter().enumerate() {
        let step = index + 1;
        if step % 2 == 1 {
            let wanted = coins ^ &change;
            if wanted < *coins {
                moves.push(StaircaseMove {
                    from: step,
                    coins: coins - wanted,
                });
            }
        } else {
            let below = &steps[index - 1];
            let wanted = below ^ &change;
            if wanted > *below && &wanted - below <= *coins {
                moves.push(StaircaseMove {
                    from: step,
                    coins: wanted - below,
                });
            }
        }
    }
    moves
}

/// Every winning move of a staircase.
#[must_use]
pub fn winning_moves(steps: &[BigUint]) -> Vec<StaircaseMove> {
    moves_to_nimber(steps, &BigUint::zero())
}

/// The staircase of a stones-on-a-line position: step `s` holds gap `n + 1 - s`.
///
/// # Errors
/// [`StonesError::NotIncreasing`] unless the points strictly increase.
pub fn stones_to_staircase(points: &[BigUint]) -> Result<Vec<BigUint>, StonesError> {
    let mut gaps = Vec::with_capacity(points.len());
    for (index, point) in points.iter().enumerate() {
        if index == 0 {
            gaps.push(point.clone());
            continue;
        }
        let before = &points[index - 1];
        if point <= before {
            return Err(StonesError::NotIncreasing {
                index: index + 1,
                at: point.clone(),
                before: before.clone(),
            });
        }
        gaps.push(point - before - 1u32);
    }
    gaps.reverse();
    Ok(gaps)
}

/// A stones-on-a-line move: stone `stone` (counted from 1, leftmost first)
/// slides from `from` to `to`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StoneMove {
    /// The stone, counted from 1 at the left.
    pub stone: usize,
    /// Where it stands.
    pub from: BigUint,
    /// Where it goes.
    pub to: BigUint,
}

impl StoneMove {
    /// The move in words.
    #[must_use]
    pub fn describe(&self) -> String {
        format!("slide the stone at {} to {}", self.from, self.to)
    }
}

/// Every winning move of a stones-on-a-line position, by the staircase.
///
/// # Errors
/// As [`stones_to_staircase`].
pub fn stones_winning_moves(points: &[BigUint]) -> Result<Vec<StoneMove>, StonesError> {
    let steps = stones_to_staircase(points)?;
    let count = points.len();
    let mut moves: Vec<StoneMove> = winning_moves(&steps)
        .into_iter()
        .map(|step_move| {
            // Step s is gap n + 1 - s: moving its coins down moves stone n + 1 - s left.
            let stone = count + 1 - step_move.from;
            let from = points[stone - 1].clone();
            StoneMove {
                stone,
                to: &from - &step_move.coins,
                from,
            }
        })
        .collect();
    moves.sort_by_key(|m| m.stone);
    Ok(moves)
}

/// Staircase Nim as a game family: `staircase(a1, ..., an)`, coins on steps
/// 1..=n; the nimber is the nim-sum of the odd steps at any size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Staircase;

/// Stones on a line as a game family: `stones(p1, ..., pn)`, the increasing
/// points; answered through its staircase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StonesOnALine;

impl Family for Staircase {
    type Position = Vec<BigUint>;

    /// The steps as heaps, the lowest step (next to the floor) first.
    fn drawing(&self, steps: &Vec<BigUint>) -> Option<Drawing> {
        Some(Drawing::Heaps(steps.clone()))
    }

    fn write_position(&self, steps: &Vec<BigUint>, out: &mut String) {
        write_integers(out, steps);
    }

    fn nimber_by_theory(&self, steps: &Vec<BigUint>) -> Option<(BigUint, &'static str)> {
        Some((nimber(steps), "staircase: nim-sum of odd steps"))
    }

    fn moves(
        &self,
        steps: &Vec<BigUint>,
        limit: usize,
    ) -> Result<Vec<Vec<Vec<BigUint>>>, SearchError> {
        let total: BigUint = steps.iter().sum();
        if total > BigUint::from(limit) {
            return Err(SearchError::StateLimit { limit });
        }
        let mut moves = Vec::new();
        for (index, coins) in steps.iter().enumerate() {
            let mut moved = BigUint::from(1u8);
            while moved <= *coins {
                let step_move = StaircaseMove {
                    from: index + 1,
                    coins: moved.clone(),
                };
                moves.push(vec![step_move.apply(steps)]);
                moved += 1u32;
            }
        }
        Ok(moves)
    }

    fn moves_to_nimber_by_theory(
        &self,
        steps: &Vec<BigUint>,
        target: &BigUint,
        max: usize,
    ) -> Option<MovesTo<Vec<BigUint>>> {
        let moves = moves_to_nimber(steps, target);
        Some(MovesTo {
            count: BigUint::from(moves.len()),
            listed: moves
                .iter()
                .take(max)
                .map(|m| vec![m.apply(steps)])
                .collect(),
        })
    }

    fn describe_move(&self, steps: &Vec<BigUint>, to: &[Vec<BigUint>]) -> String {
        let Some(after) = to.first() else {
            return "a move".to_owned();
        };
        // The move lowers exactly one step; its coins went one step down.
        let lowered = steps
            .iter()
            .zip(after)
            .position(|(before, after)| after < before);
        match lowered {
            Some(index) => StaircaseMove {
                from: index + 1,
                coins: &steps[index] - &after[index],
            }
            .describe(),
            None => "a move".to_owned(),
        }
    }
}

fn build(term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
    no_params(term)?;
    let steps = heap_sizes(term, context.limits.bytes)?;
    Ok(Group::new(
        "staircase",
        vec![part(&Arc::new(Staircase), steps)],
    ))
}

/// The catalogue entry.
pub(crate) const ENTRY: GameEntry = GameEntry {
    name: "staircase",
    summary: "coins on steps; a move takes coins from one step down to the step below",
    rules: "staircase(a1, ..., an): ai coins stand on step i; a move takes one or more coins from \
            one step i >= 1 down to step i - 1 (step 0 is the floor, out of play). The nimber is \
            the nim-sum a1 xor a3 xor a5 ... of the odd steps (Winning Ways ch. 6); the winning \
            moves lower an odd step, or move coins from an even step onto the odd step below \
            (strategies that lower odd steps only miss these). Steps of any size.",
    syntax: "staircase(a1, ..., an)",
    examples: &[
        "staircase(3, 5, 7)",
        "staircase(0, 5, 1)",
        "staircase(1, 2, 3) + nim(2)",
    ],
    kind: EntryKind::Game(build),
    heap_rule: None,
    drawing: DrawingKind::Heaps,
    every_start: None,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::theory::game::ImpartialGame;
    use crate::theory::solver::Solver;
    use proptest::prelude::*;

    /// An independent statement of the rules, for the generic solver: `position[i]` coins on
    /// step `i + 1`.
    struct SearchedStaircase;

    impl ImpartialGame for SearchedStaircase {
        type Position = Vec<u32>;

        fn moves(&self, steps: &Vec<u32>, moves: &mut Vec<Vec<u32>>) {
            for (index, &coins) in steps.iter().enumerate() {
                for moved in 1..=coins {
                    let mut next = steps.clone();
                    next[index] -= moved;
                    if index > 0 {
                        next[index - 1] += moved;
                    }
                    moves.push(next);
                }
            }
        }
    }

    /// An independent statement of the rules, for the generic solver: the increasing points.
    pub(super) struct SearchedStones;

    impl ImpartialGame for SearchedStones {
        type Position = Vec<u32>;

        fn moves(&self, points: &Vec<u32>, moves: &mut Vec<Vec<u32>>) {
            for (index, &point) in points.iter().enumerate() {
                let lowest = if index == 0 { 0 } else { points[index - 1] + 1 };
                for to in lowest..point {
                    let mut next = points.clone();
                    next[index] = to;
                    moves.push(next);
                }
            }
        }
    }

    /// The family's own moves (what misère and every-sg searches use) give
    /// the nimbers of the independent statement of the rules.
    #[test]
    fn the_families_moves_are_the_rules() {
        use crate::family::Rules;
        let (staircase, stones) = (Rules::new(Staircase), Rules::new(StonesOnALine));
        let (mut by_family, mut by_stones) = (Solver::new(&staircase), Solver::new(&stones));
        let (mut oracle, mut stones_oracle) = (
            Solver::new(&SearchedStaircase),
            Solver::new(&SearchedStones),
        );
        for steps in all_vectors(3, 4) {
            assert_eq!(
                by_family.nimber(&vec![bigs(&steps)]).unwrap(),
                oracle.nimber(&steps).unwrap()
            );
            let mut points = steps.clone();
            for i in 1..points.len() {
                points[i] += points[i - 1] + 1;
            }
            assert_eq!(
                by_stones.nimber(&vec![bigs(&points)]).unwrap(),
                stones_oracle.nimber(&points).unwrap()
            );
        }
    }

    use crate::testing::{all_vectors, bigs};

    #[test]
    fn nimbers_and_winning_moves_match_search() {
        let mut solver = Solver::new(&SearchedStaircase);
        for length in 1..=4 {
            let max = if length == 4 { 3 } else { 5 };
            for steps in all_vectors(length, max) {
                let big = bigs(&steps);
                assert_eq!(
                    nimber(&big),
                    BigUint::from(solver.nimber(&steps).unwrap()),
                    "{steps:?}"
                );
                let mut expected = solver.winning_moves(&steps).unwrap();
                let mut found: Vec<Vec<u32>> = winning_moves(&big)
                    .iter()
                    .map(|m| {
                        m.apply(&big)
                            .iter()
                            .map(|c| u32::try_from(c).unwrap())
                            .collect()
                    })
                    .collect();
                expected.sort();
                found.sort();
                assert_eq!(found, expected, "{steps:?}");
            }
        }
    }

    #[test]
    fn moves_to_any_nimber_match_search() {
        let mut solver = Solver::new(&SearchedStaircase);
        for steps in all_vectors(3, 4) {
            let big = bigs(&steps);
            let mut options = Vec::new();
            SearchedStaircase.moves(&steps, &mut options);
            for target in 0..8u32 {
                let expected = options
                    .iter()
                    .filter(|o| solver.nimber(o).unwrap() == target)
                    .count();
                assert_eq!(
                    moves_to_nimber(&big, &BigUint::from(target)).len(),
                    expected,
                    "{steps:?} to {target}"
                );
            }
        }
    }

    #[test]
    fn the_odd_steps_strategy_misses_winning_moves_from_even_steps() {
        // Odd steps only, as the usual strategy describes: one winning move (from step 3).
        let steps = bigs(&[0, 5, 1]);
        let odd_only = winning_moves(&steps)
            .iter()
            .filter(|m| m.from % 2 == 1)
            .count();
        assert_eq!(odd_only, 1);
        let mut solver = Solver::new(&SearchedStaircase);
        assert_eq!(solver.winning_moves(&vec![0, 5, 1]).unwrap().len(), 2);
        assert_eq!(winning_moves(&steps).len(), 2);
    }

    #[test]
    fn stones_on_a_line_match_search() {
        let mut solver = Solver::new(&SearchedStones);
        for count in 1..=3 {
            for points in all_vectors(count, 7) {
                if points.windows(2).any(|w| w[0] >= w[1]) {
                    continue;
                }
                let big = bigs(&points);
                let steps = stones_to_staircase(&big).unwrap();
                assert_eq!(
                    outcome(&steps),
                    solver.outcome(&points).unwrap(),
                    "{points:?}"
                );
                let mut expected = solver.winning_moves(&points).unwrap();
                let mut found: Vec<Vec<u32>> = stones_winning_moves(&big)
                    .unwrap()
                    .iter()
                    .map(|m| {
                        let mut after = points.clone();
                        after[m.stone - 1] = u32::try_from(&m.to).unwrap();
                        after
                    })
                    .collect();
                expected.sort();
                found.sort();
                assert_eq!(found, expected, "{points:?}");
            }
        }
    }

    #[test]
    fn stones_must_stand_at_increasing_points() {
        assert_eq!(
            stones_to_staircase(&bigs(&[1, 4, 4])),
            Err(StonesError::NotIncreasing {
                index: 3,
                at: BigUint::from(4u8),
                before: BigUint::from(4u8)
            })
        );
        assert_eq!(
            stones_to_staircase(&bigs(&[2, 5, 6])).unwrap(),
            bigs(&[0, 2, 2])
        );
        let describe = StoneMove {
            stone: 1,
            from: BigUint::from(5u8),
            to: BigUint::from(2u8),
        }
        .describe();
        assert_eq!(describe, "slide the stone at 5 to 2");
    }

    #[test]
    fn the_catalogue_answers_as_search_does() {
        use crate::testing::{answer, assert_targets, descriptions};
        let mut solver = Solver::new(&SearchedStaircase);
        for steps in all_vectors(3, 4) {
            let text = format!(
                "staircase({})",
                steps
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            let found = answer(&text);
            assert_eq!(found.nimber, Some(solver.nimber(&steps).unwrap().into()));
            let expected: Vec<String> = solver
                .winning_moves(&steps)
                .unwrap()
                .iter()
                .map(|after| {
                    format!(
                        "staircase({})",
                        after
                            .iter()
                            .map(u32::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })
                .collect();
            assert_targets(&found, expected, &text);
        }
        let found = answer("staircase(0, 5, 1)");
        assert_eq!(
            descriptions(&found),
            [
                "move 1 coin from step 2 to step 1",
                "move 1 coin from step 3 to step 2"
            ]
        );
        // In a sum, moves to other nimbers count too: staircase(1, 2, 3) has nimber 2.
        assert_eq!(
            answer("staircase(1, 2, 3) + nim(2)").outcome,
            Outcome::PreviousPlayerWins
        );
    }

    proptest! {
        #[test]
        fn winning_moves_reach_zero_on_large_staircases(steps in prop::collection::vec("[0-9]{1,60}", 1..12)) {
            let steps: Vec<BigUint> = steps.iter().map(|s| s.parse().unwrap()).collect();
            let moves = winning_moves(&steps);
            prop_assert_eq!(moves.is_empty(), nimber(&steps).is_zero());
            for m in &moves {
                prop_assert!(!m.coins.is_zero() && m.coins <= steps[m.from - 1]);
                prop_assert!(nimber(&m.apply(&steps)).is_zero());
            }
        }
    }
}

impl Family for StonesOnALine {
    type Position = Vec<BigUint>;

    fn write_position(&self, points: &Vec<BigUint>, out: &mut String) {
        write_integers(out, points);
    }

    fn nimber_by_theory(&self, points: &Vec<BigUint>) -> Option<(BigUint, &'static str)> {
        let steps = stones_to_staircase(points).ok()?;
        Some((nimber(&steps), "stones on a line as staircase nim"))
    }

    fn moves(
        &self,
        points: &Vec<BigUint>,
        limit: usize,
    ) -> Result<Vec<Vec<Vec<BigUint>>>, SearchError> {
        let mut moves = Vec::new();
        for (index, point) in points.iter().enumerate() {
            let lowest = if index == 0 {
                BigUint::zero()
            } else {
                &points[index - 1] + 1u32
            };
            let mut to = lowest;
            while &to < point {
                if moves.len() >= limit {
                    return Err(SearchError::StateLimit { limit });
                }
                moves.push(vec![slide(points, index, to.clone())]);
                to += 1u32;
            }
        }
        Ok(moves)
    }

    fn moves_to_nimber_by_theory(
        &self,
        points: &Vec<BigUint>,
        target: &BigUint,
        max: usize,
    ) -> Option<MovesTo<Vec<BigUint>>> {
        let steps = stones_to_staircase(points).ok()?;
        let count = points.len();
        let moves = moves_to_nimber(&steps, target);
        let listed = moves
            .iter()
            .take(max)
            .map(|step_move| {
                // Step s is gap n + 1 - s: its coins moving down is stone n + 1 - s sliding left.
                let index = count - step_move.from;
                vec![slide(points, index, &points[index] - &step_move.coins)]
            })
            .collect();
        Some(MovesTo {
            count: moves.len().into(),
            listed,
        })
    }

    fn describe_move(&self, points: &Vec<BigUint>, to: &[Vec<BigUint>]) -> String {
        let Some(after) = to.first() else {
            return "a move".to_owned();
        };
        points
            .iter()
            .zip(after)
            .find(|(before, after)| before != after)
            .map_or_else(
                || "a move".to_owned(),
                |(from, to)| format!("slide the stone at {from} to {to}"),
            )
    }
}

/// The points after stone `index` slides to `to`.
fn slide(points: &[BigUint], index: usize, to: BigUint) -> Vec<BigUint> {
    let mut points = points.to_vec();
    points[index] = to;
    points
}

fn build_stones(term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
    no_params(term)?;
    let points = heap_sizes(term, context.limits.bytes)?;
    if let Err(StonesError::NotIncreasing { index, at, before }) = stones_to_staircase(&points) {
        let span = term.args.get(index - 1).map_or(term.span, |arg| arg.span);
        return Err(LangError::new(
            format!(
                "the stones must stand at increasing points: stone {index} at {at} is not right of {before}"
            ),
            span,
        ));
    }
    Ok(Group::new(
        "stones",
        vec![part(&Arc::new(StonesOnALine), points)],
    ))
}

/// The catalogue entry of stones on a line.
pub(crate) const STONES_ENTRY: GameEntry = GameEntry {
    name: "stones",
    summary: "stones on a line: slide one stone left, never onto or past another",
    rules: "Stones stand at distinct points p1 < p2 < ... of the non-negative integers. A move slides \
            one stone left to a free point without jumping over the stone on its left. The gaps \
            between stones form a staircase: sliding stone i by c moves c coins from gap i to gap \
            i + 1, so the game is staircase Nim on the gaps read from the right (Winning Ways ch. 6), and the \
            nimber is the nim-sum of every other gap from the rightmost.",
    syntax: "stones(p1, p2, ..., pn), points in increasing order",
    examples: &[
        "stones(1, 4, 9)",
        "stones(2, 3, 10, 20)",
        "stones(5, 100000000000000000000000000000)",
    ],
    kind: EntryKind::Game(build_stones),
    heap_rule: None,
    drawing: DrawingKind::None,
    every_start: None,
};

#[cfg(test)]
mod stones_term_tests {
    use super::tests::SearchedStones;
    use crate::catalogue::build;
    use crate::lang::parse;
    use crate::testing::{answer, assert_targets};
    use crate::theory::solver::Solver;

    #[test]
    fn the_term_agrees_with_search_on_every_small_position() {
        let mut solver = Solver::new(&SearchedStones);
        for a in 0..6u32 {
            for b in a + 1..8 {
                for c in b + 1..10 {
                    let text = format!("stones({a}, {b}, {c})");
                    let answer = answer(&text);
                    let points = vec![a, b, c];
                    assert_eq!(
                        answer.nimber,
                        Some(solver.nimber(&points).unwrap().into()),
                        "{text}"
                    );
                    let winning = solver.winning_moves(&points).unwrap();
                    assert_eq!(answer.winning_move_count, winning.len().into(), "{text}");
                    let expected: Vec<String> = winning
                        .iter()
                        .map(|p| format!("stones({}, {}, {})", p[0], p[1], p[2]))
                        .collect();
                    assert_targets(&answer, expected, &text);
                    if let Some(first) = answer.winning_moves.first() {
                        assert!(
                            first.description.starts_with("slide the stone at "),
                            "{}",
                            first.description
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn points_must_increase() {
        let error = build(&parse("stones(1, 4, 4)").unwrap()).unwrap_err();
        assert_eq!(
            error.message,
            "the stones must stand at increasing points: stone 3 at 4 is not right of 4"
        );
        assert_eq!(error.span.start, 13);
    }
}
