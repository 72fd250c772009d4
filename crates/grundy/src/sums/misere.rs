//! Misère play by closed forms: Anti-Nim (Bouton) and the Anti-SG rule (the SJ
//! theorem), with the condition under which the rule holds.
//!
//! # Anti-Nim (Bouton 1901)
//! Nim where whoever takes the last counter loses. The player to move wins iff
//! either some heap has at least 2 counters and the nim-sum is not 0, or every
//! heap has at most 1 counter and the nim-sum is 0 (an even number of heaps of 1).
//!
//! # The Anti-SG rule (Jia Zhihao, "组合游戏略述：浅谈SG游戏的若干拓展及变形",
//! 2009 Chinese national team paper, the "SJ theorem")
//! For a sum of games under misère play, with `g` the nim-sum of the parts'
//! nimbers: the player to move wins iff either `g != 0` and some part has
//! nimber `> 1`, or `g = 0` and no part has nimber `> 1`.
//!
//! The paper states it for games where "the game ends when every part has nimber
//! 0" (it changes the rules so). For a sum played as it is, we found (and the
//! proof below shows) that it holds exactly when this **condition** holds for
//! every position each part can reach:
//!
//! > a position of nimber 0 that is not terminal has a move to a position of nimber 1.
//!
//! Proof sketch, by induction on the sum, with `P` the claimed losing positions
//! (`g != 0` and all parts `<= 1`, or `g = 0` and some part `> 1`): from `g != 0`
//! with some part `> 1`, move the only big part to 0 or 1 leaving an odd number of
//! 1s, or with several big parts make the nim-sum 0 (a big part remains). From `g
//! = 0` with a big part there are two big parts and every move leaves one and
//! makes `g != 0`. From all parts `<= 1` with `g != 0`, every move makes `g = 0`
//! with all parts `<= 1` or makes a part big with `g != 0`. From all parts `<= 1`
//! with `g = 0`: a part of nimber 1 moves to 0; if every part has nimber 0, the
//! player either cannot move (and wins, misère) or needs a move to nimber 1,
//! which is the condition. Without it the rule fails: a part of nimber 0 whose
//! only move leads to nimber 2 is a loss for the player to move, but the rule
//! says win. The tests exhibit such a part and check the rule against direct
//! misère search on many sums that satisfy the condition.
//!
//! Nim heaps, Bash heaps (`bash[m]`: nimber 0 at multiples of `m + 1`, which
//! can move to nimber 1) and every game whose nimber-0 positions are all
//! terminal satisfy the condition; so did every subtraction game with moves in
//! `1..=8` that we searched. Wythoff's game does not: `(3, 5)` has nimber 0 and
//! every move from it reaches nimber 2 or more, and misère Wythoff from `(3, 5)`
//! is where the rule first goes wrong (tested). Two Nim heaps taken as a single
//! component break it too (`(2, 2)`): apply the rule to the finest split. So
//! does staircase Nim: `staircase(2, 0, 2)` has nimber 0, reaches only nimbers
//! 2 and 3, and is lost misère by the player to move.
//!
//! ```
//! use grundy::sums::misere;
//! use grundy::theory::game::Outcome;
//! use num_bigint::BigUint;
//!
//! let heaps: Vec<BigUint> = [1u32, 1, 1].map(BigUint::from).to_vec();
//! // Three heaps of 1 under misère play: the player to move takes one and loses.
//! assert_eq!(misere::anti_nim_outcome(&heaps), Outcome::PreviousPlayerWins);
//! assert_eq!(misere::anti_sg_outcome(&heaps), Outcome::PreviousPlayerWins);
//! ```

mod answer;
mod genus;
mod quotient;
mod search;
mod sum;

pub(in crate::sums) use sum::solve_misere;

use std::collections::VecDeque;

use num_bigint::BigUint;
use num_traits::{One, Zero};
use rustc_hash::FxHashSet;

use crate::theory::cancel::checkpoint;
use crate::theory::game::{ImpartialGame, Outcome};
use crate::theory::solver::{SearchError, Solver};

fn outcome_from_win(wins: bool) -> Outcome {
    if wins {
        Outcome::NextPlayerWins
    } else {
        Outcome::PreviousPlayerWins
    }
}

/// The Anti-SG rule on the parts' nimbers: the misère outcome of their sum,
/// valid when every part satisfies the condition of the [module
/// documentation](self) ([`satisfies_anti_sg_condition`] checks it).
#[must_use]
pub fn anti_sg_outcome(nimbers: &[BigUint]) -> Outcome {
    let sum = nimbers.iter().fold(BigUint::zero(), |sum, n| sum ^ n);
    let big = nimbers.iter().any(|n| *n > BigUint::one());
    outcome_from_win(if sum.is_zero() { !big } else { big })
}

/// Who wins misère Nim (Bouton).
#[must_use]
pub fn anti_nim_outcome(heaps: &[BigUint]) -> Outcome {
    // A Nim heap's nimber is its size, and Nim satisfies the condition.
    anti_sg_outcome(heaps)
}

/// A Nim move: heap `heap` (counted from 0) goes from `from` to `to`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NimMove {
    /// The heap, counted from 0.
    pub heap: usize,
    /// Its size before.
    pub from: BigUint,
    /// Its size after.
    pub to: BigUint,
}

impl NimMove {
    /// "take 2 from the heap of 7".
    #[must_use]
    pub fn describe(&self) -> String {
        format!(
            "take {} from the heap of {}",
            &self.from - &self.to,
            self.from
        )
    }
}

/// Every winning move of misère Nim, by heap; at most three per heap (to the
/// nim-sum-zeroing size, to 0, to 1), so their count is the length.
#[must_use]
pub fn anti_nim_winning_moves(heaps: &[BigUint]) -> Vec<NimMove> {
    let sum = heaps.iter().fold(BigUint::zero(), |sum, h| sum ^ h);
    let one = BigUint::one();
    let big_heaps = heaps.iter().filter(|h| **h > one).count();
    let ones = heaps.iter().filter(|h| **h == one).count();
    let mut moves = Vec::new();
    for (index, heap) in heaps.iter().enumerate() {
        let mut candidates = vec![heap ^ &sum, BigUint::zero(), one.clone()];
        candidates.sort();
        candidates.dedup();
        for to in candidates.into_iter().filter(|to| to < heap) {
            // The position after the move, from the counts without this heap.
            let big_after = big_heaps - usize::from(*heap > one) + usize::from(to > one);
            let ones_after = ones - usize::from(*heap == one) + usize::from(to == one);
            let sum_after = &sum ^ heap ^ &to;
            let loses = if big_after > 0 {
                sum_after.is_zero()
            } else {
                ones_after % 2 == 1
            };
            if loses {
                moves.push(NimMove {
                    heap: index,
                    from: heap.clone(),
                    to,
                });
            }
        }
    }
    moves
}

/// Why the Anti-SG rule cannot answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AntiSgError {
    /// A part can reach a non-terminal position of nimber 0 with no move to
    /// nimber 1, so the rule may be wrong.
    #[error(
        "part {part} can reach a position of nimber 0 that is not terminal and has no move to \
         nimber 1: the Anti-SG rule does not apply (search the misère sum instead)"
    )]
    ConditionFails {
        /// The part, counted from 0.
        part: usize,
    },
    /// A search stopped.
    #[error(transparent)]
    Search(#[from] SearchError),
}

/// Whether every position reachable from `position` satisfies the Anti-SG
/// condition: nimber 0 and not terminal implies a move to nimber 1.
///
/// # Errors
/// As [`Solver::nimber`]; the walk over reachable positions stops at the
/// solver's state limit too.
pub fn satisfies_anti_sg_condition<G: ImpartialGame>(
    solver: &mut Solver<'_, G>,
    position: &G::Position,
    state_limit: usize,
) -> Result<bool, SearchError> {
    let game = solver.game();
    let mut seen = FxHashSet::default();
    let mut queue = VecDeque::from([position.clone()]);
    seen.insert(position.clone());
    let mut options = Vec::new();
    while let Some(current) = queue.pop_front() {
        checkpoint()?;
        options.clear();
        game.moves(&current, &mut options);
        if !options.is_empty() && solver.nimber(&current)? == 0 {
            let mut reaches_one = false;
            for option in &options {
                if solver.nimber(option)? == 1 {
                    reaches_one = true;
                    break;
                }
            }
            if !reaches_one {
                return Ok(false);
            }
        }
        for option in options.drain(..) {
            if seen.insert(option.clone()) {
                if seen.len() > state_limit {
                    return Err(SearchError::StateLimit { limit: state_limit });
                }
                queue.push_back(option);
            }
        }
    }
    Ok(true)
}

/// The misère outcome of the sum of `parts` of `game` by the Anti-SG rule,
/// after checking its condition on every part.
///
/// # Errors
/// [`AntiSgError::ConditionFails`] when a part breaks the condition,
/// [`AntiSgError::Search`] when a search reaches `state_limit`.
pub fn anti_sg_outcome_checked<G: ImpartialGame>(
    game: &G,
    parts: &[G::Position],
    state_limit: usize,
) -> Result<Outcome, AntiSgError> {
    let mut solver = Solver::new(game).with_state_limit(state_limit);
    let mut nimbers = Vec::with_capacity(parts.len());
    for (index, part) in parts.iter().enumerate() {
        if !satisfies_anti_sg_condition(&mut solver, part, state_limit)? {
            return Err(AntiSgError::ConditionFails { part: index });
        }
        nimbers.push(BigUint::from(solver.nimber(part)?));
    }
    Ok(anti_sg_outcome(&nimbers))
}

/// The disjunctive sum of positions of one game, as one game searched whole
/// (the oracle for misère sums, where the Sprague-Grundy theorem does not hold).
#[derive(Debug)]
pub struct WholeSum<'g, G> {
    game: &'g G,
}

impl<'g, G> WholeSum<'g, G> {
    /// The sum game over `game`.
    pub const fn new(game: &'g G) -> Self {
        Self { game }
    }
}

impl<G: ImpartialGame> ImpartialGame for WholeSum<'_, G> {
    type Position = Vec<G::Position>;

    fn moves(&self, parts: &Vec<G::Position>, moves: &mut Vec<Vec<G::Position>>) {
        let mut options = Vec::new();
        for (index, part) in parts.iter().enumerate() {
            options.clear();
            self.game.moves(part, &mut options);
            for option in options.drain(..) {
                let mut next = parts.clone();
                next[index] = option;
                moves.push(next);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Subtraction, bigs};
    use proptest::prelude::*;

    /// Nim on one heap.
    struct NimHeap;
    impl ImpartialGame for NimHeap {
        type Position = u32;
        fn moves(&self, heap: &u32, moves: &mut Vec<u32>) {
            moves.extend(0..*heap);
        }
    }

    /// A small explicit game: `3 -> 2`, `2 -> {1, 0}`, `1 -> 0`. Position 3 has
    /// nimber 0 (its only option, 2, has nimber 2) and no move to nimber 1.
    struct Breaker;
    impl ImpartialGame for Breaker {
        type Position = u32;
        fn moves(&self, position: &u32, moves: &mut Vec<u32>) {
            match position {
                3 => moves.push(2),
                2 => moves.extend([1, 0]),
                1 => moves.push(0),
                _ => {}
            }
        }
    }

    #[test]
    fn anti_nim_and_its_winning_moves_match_misere_search() {
        let sum = WholeSum::new(&NimHeap);
        let mut solver = Solver::new(&sum);
        for code in 0..6u32.pow(4) {
            let heaps: Vec<u32> = (0..4).map(|i| code / 6u32.pow(i) % 6).collect();
            let big = bigs(&heaps);
            assert_eq!(
                anti_nim_outcome(&big),
                solver.misere_outcome(&heaps).unwrap(),
                "{heaps:?}"
            );
            let mut expected = solver
                .winning_moves_under(crate::theory::game::Convention::Misere, &heaps)
                .unwrap();
            let mut found: Vec<Vec<u32>> = anti_nim_winning_moves(&big)
                .iter()
                .map(|m| {
                    let mut after = heaps.clone();
                    after[m.heap] = u32::try_from(&m.to).unwrap();
                    after
                })
                .collect();
            expected.sort();
            found.sort();
            assert_eq!(found, expected, "{heaps:?}");
        }
    }

    #[test]
    fn the_anti_sg_rule_matches_misere_search_where_its_condition_holds() {
        let games = [
            vec![1, 2],
            vec![1, 3, 4],
            vec![2, 3],
            vec![1, 4],
            vec![2, 5, 6],
            vec![3],
            vec![1, 2, 3, 4, 5],
        ];
        let mut checked = 0;
        for rule in games {
            let game = Subtraction(rule.clone());
            let mut solver = Solver::new(&game);
            let sum = WholeSum::new(&game);
            let mut misere = Solver::new(&sum);
            for code in 0..15u32.pow(3) {
                let heaps: Vec<u32> = (0..3).map(|i| code / 15u32.pow(i) % 15).collect();
                let holds = heaps
                    .iter()
                    .all(|h| satisfies_anti_sg_condition(&mut solver, h, 1000).unwrap());
                if !holds {
                    continue;
                }
                let nimbers: Vec<BigUint> = heaps
                    .iter()
                    .map(|h| solver.nimber(h).unwrap().into())
                    .collect();
                assert_eq!(
                    anti_sg_outcome(&nimbers),
                    misere.misere_outcome(&heaps).unwrap(),
                    "{rule:?} {heaps:?}"
                );
                checked += 1;
            }
        }
        assert!(
            checked > 10_000,
            "only {checked} sums satisfied the condition"
        );
    }

    #[test]
    fn where_the_condition_fails_the_rule_can_be_wrong() {
        let mut solver = Solver::new(&Breaker);
        assert_eq!(solver.nimber(&3).unwrap(), 0);
        assert!(!satisfies_anti_sg_condition(&mut solver, &3, 100).unwrap());
        // The rule says the player to move wins (nimber 0, no part above 1) ...
        assert_eq!(anti_sg_outcome(&[BigUint::zero()]), Outcome::NextPlayerWins);
        // ... but the only move, to 2, lets the opponent move to 1 and win.
        assert_eq!(
            solver.misere_outcome(&3).unwrap(),
            Outcome::PreviousPlayerWins
        );
        assert_eq!(
            anti_sg_outcome_checked(&Breaker, &[1, 3], 100),
            Err(AntiSgError::ConditionFails { part: 1 })
        );
        // Subtraction games never break it (none with moves in 1..=8, by a search
        // made while writing this), but Wythoff's game does: the first position
        // where the rule is wrong fails the condition.
        let wythoff = crate::family::Rules::new(crate::games::wythoff::Wythoff::CLASSIC);
        let mut solver = Solver::new(&wythoff);
        let first_wrong = (0..20u32)
            .flat_map(|total| (0..=total).map(move |a| vec![(a.into(), (total - a).into())]))
            .find(|p| {
                let nimber = BigUint::from(solver.nimber(p).unwrap());
                anti_sg_outcome(&[nimber]) != solver.misere_outcome(p).unwrap()
            })
            .expect("Wythoff breaks the rule");
        assert!(!satisfies_anti_sg_condition(&mut solver, &first_wrong, 10_000).unwrap());
        assert_eq!(first_wrong, vec![(3u32.into(), 5u32.into())]);
        // Two-heap Nim as one component: (2, 2) has nimber 0 and moves only to
        // nimbers 2 and 3; misère it is lost for the player to move, the rule on
        // its single nimber 0 says won.
        let two_heaps = WholeSum::new(&NimHeap);
        let mut solver = Solver::new(&two_heaps);
        assert!(!satisfies_anti_sg_condition(&mut solver, &vec![2, 2], 100).unwrap());
        assert_eq!(
            solver.misere_outcome(&vec![2, 2]).unwrap(),
            Outcome::PreviousPlayerWins
        );
        assert_eq!(anti_sg_outcome(&[BigUint::zero()]), Outcome::NextPlayerWins);
        // Staircase Nim too: (2, 0, 2) has nimber 2 xor 2 = 0, and its moves
        // reach nimbers 2 and 3 only; misère, the player to move loses.
        let staircase = crate::family::Rules::new(crate::games::staircase::Staircase);
        let mut solver = Solver::new(&staircase);
        let steps = vec![[2u32, 0, 2].map(BigUint::from).to_vec()];
        assert!(!satisfies_anti_sg_condition(&mut solver, &steps, 1000).unwrap());
        assert_eq!(
            solver.misere_outcome(&steps).unwrap(),
            Outcome::PreviousPlayerWins
        );
    }

    #[test]
    fn the_anti_sg_rule_matches_misere_search_on_wythoff_sums_where_its_condition_holds() {
        let wythoff = crate::family::Rules::new(crate::games::wythoff::Wythoff::CLASSIC);
        let mut solver = Solver::new(&wythoff);
        let sum = WholeSum::new(&wythoff);
        let mut misere = Solver::new(&sum);
        let small: Vec<Vec<crate::games::wythoff::Piles>> = (0..7u32)
            .flat_map(|a| (0..7u32).map(move |b| vec![(a.into(), b.into())]))
            .collect();
        let (mut agreed, mut skipped) = (0, 0);
        for first in &small {
            for second in &small {
                let parts = vec![first.clone(), second.clone()];
                let holds = parts
                    .iter()
                    .all(|p| satisfies_anti_sg_condition(&mut solver, p, 10_000).unwrap());
                if !holds {
                    skipped += 1;
                    continue;
                }
                let nimbers: Vec<BigUint> = parts
                    .iter()
                    .map(|p| solver.nimber(p).unwrap().into())
                    .collect();
                assert_eq!(
                    anti_sg_outcome(&nimbers),
                    misere.misere_outcome(&parts).unwrap(),
                    "{parts:?}"
                );
                agreed += 1;
            }
        }
        assert!(
            agreed > 50 && skipped > 50,
            "{agreed} checked, {skipped} skipped"
        );
    }

    #[test]
    fn the_checked_rule_answers_sums_that_satisfy_the_condition() {
        let game = Subtraction(vec![1, 3, 4]);
        let sum = WholeSum::new(&game);
        let mut misere = Solver::new(&sum);
        let parts = vec![7, 9, 10];
        assert_eq!(
            anti_sg_outcome_checked(&game, &parts, 1000).unwrap(),
            misere.misere_outcome(&parts).unwrap()
        );
    }

    #[test]
    fn the_catalogue_answers_misere_nim_and_bash_by_the_rule_as_search_does() {
        use crate::testing::{answer, assert_targets};
        /// Heap i is Nim for i = 0, 1 and Bash with m = 2 for i = 2.
        struct Mixed;
        impl ImpartialGame for Mixed {
            type Position = Vec<u32>;
            fn moves(&self, heaps: &Vec<u32>, moves: &mut Vec<Vec<u32>>) {
                for (index, &heap) in heaps.iter().enumerate() {
                    let most = if index == 2 { heap.min(2) } else { heap };
                    for take in 1..=most {
                        let mut next = heaps.clone();
                        next[index] -= take;
                        moves.push(next);
                    }
                }
            }
        }
        let mut solver = Solver::new(&Mixed);
        for code in 0..6u32.pow(3) {
            let heaps: Vec<u32> = (0..3).map(|i| code / 6u32.pow(i) % 6).collect();
            let text = format!(
                "misere(nim({}, {}) + bash[2]({}))",
                heaps[0], heaps[1], heaps[2]
            );
            let answer = answer(&text);
            assert_eq!(answer.method, "anti-sg rule");
            assert_eq!(
                answer.outcome,
                solver.misere_outcome(&heaps).unwrap(),
                "{text}"
            );
            let winning = solver
                .winning_moves_under(crate::theory::game::Convention::Misere, &heaps)
                .unwrap();
            assert_eq!(
                answer.winning_move_count,
                BigUint::from(winning.len()),
                "{text}"
            );
            let expected: Vec<String> = winning
                .iter()
                .map(|h| format!("misere(nim({}, {}) + bash[2]({}))", h[0], h[1], h[2]))
                .collect();
            assert_targets(&answer, expected, &text);
        }
    }

    proptest! {
        #[test]
        fn anti_nim_winning_moves_reach_losing_positions(heaps in prop::collection::vec("[0-9]{1,40}", 1..10)) {
            let heaps: Vec<BigUint> = heaps.iter().map(|h| h.parse().unwrap()).collect();
            let moves = anti_nim_winning_moves(&heaps);
            // No move at all is a misère win with no winning move.
            let terminal = heaps.iter().all(Zero::is_zero);
            prop_assert_eq!(moves.is_empty(), terminal || anti_nim_outcome(&heaps) == Outcome::PreviousPlayerWins);
            for m in &moves {
                let mut after = heaps.clone();
                after[m.heap] = m.to.clone();
                prop_assert_eq!(anti_nim_outcome(&after), Outcome::PreviousPlayerWins);
            }
        }
    }
}
