//! Every-SG: a sum in which every component that can move must be moved.
//!
//! # Rules
//! Several components of impartial games. A move moves *every* component that
//! still has a move (one move in each); whoever cannot move loses. So the game
//! lasts as long as its longest-lasting component, and the player who makes the
//! last move in that component wins. Winning Ways (ch. 9, "continued
//! conjunctive compounds") solves it with *suspense numbers*; seed note `000`
//! §3.6 and Jia Zhihao's 2009 paper call them steps.
//!
//! # Theorem
//! In each component, the player who wins it wants it to last as long as
//! possible and the loser wants it short. Define the steps of a position `v`:
//!
//! * `0` if `v` is terminal;
//! * `1 + max { steps(u) : u an option of v with nimber 0 }` if `v` has nimber `> 0`
//!   (the winner moves to a losing position, taking the longest way);
//! * `1 + min { steps(u) : u an option of v }` if `v` has nimber 0 and is not
//!   terminal (the loser hurries).
//!
//! The player to move wins the Every-SG sum iff the largest number of steps
//! among the components is odd (seed note `000` §3.6).
//!
//! Note that these are **not** Smith's remoteness (Winning Ways ch. 9,
//! conjunctive compounds), where the winner hurries and the loser delays: a
//! description of Every-SG as "for P-positions the longest, for N-positions the
//! shortest" has the two the wrong way round. The tests check the steps against
//! exhaustive search of Every-SG sums and show that remoteness gets them wrong.
//!
//! # Winning moves
//! A move picks one option in each movable component; it wins iff the largest
//! number of steps after it is even. Their number is counted exactly without
//! listing them: with `c_i(m)` the options of component `i` with at most `m`
//! steps, the moves whose largest is exactly `m` number `prod c_i(m) - prod
//! c_i(m - 1)`.
//!
//! ```
//! use grundy::games::every_sg::EverySg;
//! use grundy::game::{ImpartialGame, Outcome};
//!
//! /// Take 1 or 2 from a heap.
//! struct TakeOneOrTwo;
//! impl ImpartialGame for TakeOneOrTwo {
//!     type Position = u32;
//!     fn moves(&self, heap: &u32, moves: &mut Vec<u32>) {
//!         moves.extend((1..=2).filter(|&take| take <= *heap).map(|take| heap - take));
//!     }
//! }
//!
//! let mut every = EverySg::new(&TakeOneOrTwo);
//! // Heap 3 (nimber 0) lasts 2 moves at best for its loser; heap 4 lasts 3.
//! assert_eq!(every.steps(&3).unwrap(), 2);
//! assert_eq!(every.steps(&4).unwrap(), 3);
//! assert_eq!(every.outcome(&[3, 4]).unwrap(), Outcome::NextPlayerWins);
//! ```

use num_bigint::BigUint;
use num_traits::{One, Zero};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::game::{ImpartialGame, Outcome};
use crate::solver::{SearchError, Solver};

/// Steps of the positions of one game, and Every-SG sums of them.
#[derive(Debug)]
pub struct EverySg<'g, G: ImpartialGame> {
    solver: Solver<'g, G>,
    steps: FxHashMap<G::Position, u64>,
}

/// The winning moves of an Every-SG sum: the first ones (each as the
/// components after it) and their exact count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EveryWinningMoves<P> {
    /// The components after each listed move.
    pub listed: Vec<Vec<P>>,
    /// The number of winning moves.
    pub count: BigUint,
}

impl<'g, G: ImpartialGame> EverySg<'g, G> {
    /// Every-SG over `game`, with the solver's default state limit.
    #[must_use]
    pub fn new(game: &'g G) -> Self {
        Self {
            solver: Solver::new(game),
            steps: FxHashMap::default(),
        }
    }

    /// Sets the most positions the nimber search may store.
    #[must_use]
    pub fn with_state_limit(mut self, limit: usize) -> Self {
        self.solver = Solver::new(self.solver.game()).with_state_limit(limit);
        self
    }

    /// The steps of `position` (suspense number), by memoized search.
    ///
    /// # Errors
    /// As [`Solver::nimber`].
    pub fn steps(&mut self, position: &G::Position) -> Result<u64, SearchError> {
        if let Some(&steps) = self.steps.get(position) {
            return Ok(steps);
        }
        let game = self.solver.game();
        // An explicit stack of (position, its options, the next option to resolve).
        let mut stack: Vec<(G::Position, Vec<G::Position>, usize)> = Vec::new();
        let mut on_stack: FxHashSet<G::Position> = FxHashSet::default();
        let mut options = Vec::new();
        game.moves(position, &mut options);
        stack.push((position.clone(), options, 0));
        on_stack.insert(position.clone());
        while let Some((current, options, next)) = stack.last_mut() {
            if let Some(option) = options.get(*next) {
                if self.steps.contains_key(option) {
                    *next += 1;
                } else {
                    let option = option.clone();
                    if !on_stack.insert(option.clone()) {
                        return Err(SearchError::Cycle);
                    }
                    let mut deeper = Vec::new();
                    game.moves(&option, &mut deeper);
                    stack.push((option, deeper, 0));
                }
                continue;
            }
            let value = if options.is_empty() {
                0
            } else if self.solver.nimber(current)? == 0 {
                1 + options.iter().map(|o| self.steps[o]).min().unwrap_or(0)
            } else {
                let mut longest = 0;
                for option in options.iter() {
                    if self.solver.nimber(option)? == 0 {
                        longest = longest.max(self.steps[option]);
                    }
                }
                1 + longest
            };
            let (current, _, _) = stack.pop().expect("the loop holds a frame");
            on_stack.remove(&current);
            self.steps.insert(current, value);
        }
        Ok(self.steps[position])
    }

    /// Who wins the Every-SG sum of `parts`: the player to move iff the largest
    /// number of steps is odd.
    ///
    /// # Errors
    /// As [`EverySg::steps`].
    pub fn outcome(&mut self, parts: &[G::Position]) -> Result<Outcome, SearchError> {
        let mut longest = 0;
        for part in parts {
            longest = longest.max(self.steps(part)?);
        }
        Ok(if longest % 2 == 1 {
            Outcome::NextPlayerWins
        } else {
            Outcome::PreviousPlayerWins
        })
    }

    /// The winning moves of the Every-SG sum of `parts`: their exact count and
    /// the first `max_listed`.
    ///
    /// # Errors
    /// As [`EverySg::steps`].
    pub fn winning_moves(
        &mut self,
        parts: &[G::Position],
        max_listed: usize,
    ) -> Result<EveryWinningMoves<G::Position>, SearchError> {
        let game = self.solver.game();
        // For each part: its options and their steps (a terminal part stays, with 0 steps).
        let mut choices: Vec<Vec<(G::Position, u64)>> = Vec::with_capacity(parts.len());
        let mut movable = false;
        for part in parts {
            let mut options = Vec::new();
            game.moves(part, &mut options);
            if options.is_empty() {
                choices.push(vec![(part.clone(), 0)]);
            } else {
                movable = true;
                let mut valued = Vec::with_capacity(options.len());
                for option in options {
                    let steps = self.steps(&option)?;
                    valued.push((option, steps));
                }
                choices.push(valued);
            }
        }
        let mut result = EveryWinningMoves {
            listed: Vec::new(),
            count: BigUint::zero(),
        };
        if !movable {
            return Ok(result);
        }
        // Count the moves whose largest steps is even.
        let mut levels: Vec<u64> = choices.iter().flatten().map(|&(_, s)| s).collect();
        levels.sort_unstable();
        levels.dedup();
        let at_most = |m: u64| -> BigUint {
            choices
                .iter()
                .map(|c| BigUint::from(c.iter().filter(|&&(_, s)| s <= m).count()))
                .fold(BigUint::one(), |product, n| product * n)
        };
        let mut below = BigUint::zero();
        for &level in &levels {
            let upto = at_most(level);
            if level % 2 == 0 {
                result.count += &upto - &below;
            }
            below = upto;
        }
        // List by walking the product in order, keeping moves whose largest is even.
        let mut indices = vec![0usize; choices.len()];
        'walk: while result.listed.len() < max_listed {
            let largest = indices
                .iter()
                .zip(&choices)
                .map(|(&i, c)| c[i].1)
                .max()
                .unwrap_or(0);
            if largest % 2 == 0 {
                result.listed.push(
                    indices
                        .iter()
                        .zip(&choices)
                        .map(|(&i, c)| c[i].0.clone())
                        .collect(),
                );
            }
            for slot in (0..indices.len()).rev() {
                indices[slot] += 1;
                if indices[slot] < choices[slot].len() {
                    continue 'walk;
                }
                indices[slot] = 0;
            }
            break;
        }
        Ok(result)
    }
}

/// The rules of an Every-SG sum for the generic solver: a move moves every
/// component that can move, one entry per combination of their moves.
#[derive(Debug)]
pub struct EverySum<'g, G> {
    game: &'g G,
}

impl<'g, G> EverySum<'g, G> {
    /// The Every-SG sums over `game`.
    pub const fn new(game: &'g G) -> Self {
        Self { game }
    }
}

impl<G: ImpartialGame> ImpartialGame for EverySum<'_, G> {
    type Position = Vec<G::Position>;

    fn moves(&self, parts: &Vec<G::Position>, moves: &mut Vec<Vec<G::Position>>) {
        let mut partial: Vec<Vec<G::Position>> = vec![Vec::new()];
        let mut any = false;
        for part in parts {
            let mut options = Vec::new();
            self.game.moves(part, &mut options);
            if options.is_empty() {
                options.push(part.clone());
            } else {
                any = true;
            }
            partial = partial
                .into_iter()
                .flat_map(|prefix| {
                    options.iter().map(move |option| {
                        let mut next = prefix.clone();
                        next.push(option.clone());
                        next
                    })
                })
                .collect();
        }
        if any {
            moves.extend(partial);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Subtraction(Vec<u32>);
    impl ImpartialGame for Subtraction {
        type Position = u32;
        fn moves(&self, heap: &u32, moves: &mut Vec<u32>) {
            moves.extend(self.0.iter().filter(|&&s| s <= *heap).map(|s| heap - s));
        }
    }

    /// Smith's remoteness, the rule for conjunctive compounds: the winner hurries.
    fn remoteness<G: ImpartialGame>(solver: &mut Solver<'_, G>, position: &G::Position) -> u64 {
        let mut options = Vec::new();
        solver.game().moves(position, &mut options);
        if options.is_empty() {
            return 0;
        }
        let values: Vec<(u64, bool)> = options
            .iter()
            .map(|o| (remoteness(solver, o), solver.nimber(o).unwrap() == 0))
            .collect();
        if solver.nimber(position).unwrap() == 0 {
            1 + values.iter().map(|v| v.0).max().unwrap()
        } else {
            1 + values.iter().filter(|v| v.1).map(|v| v.0).min().unwrap()
        }
    }

    #[test]
    fn steps_decide_every_sg_sums_as_search_does() {
        for rule in [
            vec![1, 2],
            vec![1, 3, 4],
            vec![2, 3],
            vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
        ] {
            let game = Subtraction(rule.clone());
            let mut every = EverySg::new(&game);
            let sum = EverySum::new(&game);
            let mut solver = Solver::new(&sum);
            for a in 0..14 {
                for b in 0..14 {
                    for c in [0, 5, 9] {
                        let parts = vec![a, b, c];
                        let expected = solver.outcome(&parts).unwrap();
                        assert_eq!(
                            every.outcome(&parts).unwrap(),
                            expected,
                            "{rule:?} {parts:?}"
                        );
                        let winning = solver.winning_moves(&parts).unwrap();
                        let found = every.winning_moves(&parts, usize::MAX).unwrap();
                        assert_eq!(
                            found.count,
                            BigUint::from(winning.len()),
                            "{rule:?} {parts:?}"
                        );
                        assert_eq!(found.listed, winning, "{rule:?} {parts:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn remoteness_is_the_wrong_measure_for_every_sg() {
        let game = Subtraction(vec![1, 3, 4]);
        let sum = EverySum::new(&game);
        let mut searched = Solver::new(&sum);
        let mut solver = Solver::new(&game);
        let wrong = (0..20u32)
            .flat_map(|a| (0..20u32).map(move |b| vec![a, b]))
            .find(|parts| {
                let longest = parts
                    .iter()
                    .map(|p| remoteness(&mut solver, p))
                    .max()
                    .unwrap();
                let by_remoteness = if longest % 2 == 1 {
                    Outcome::NextPlayerWins
                } else {
                    Outcome::PreviousPlayerWins
                };
                by_remoteness != searched.outcome(parts).unwrap()
            });
        assert!(wrong.is_some());
    }

    #[test]
    fn known_steps_of_take_one_or_two() {
        // Nimber 0 at multiples of 3. Heap 3: the loser must move to 2 or 1, the
        // winner then takes all: 2 moves. Heap 6: 6 -> 4 or 5 -> 3 -> ... = 4.
        let game = Subtraction(vec![1, 2]);
        let mut every = EverySg::new(&game);
        let steps: Vec<u64> = (0..10).map(|n| every.steps(&n).unwrap()).collect();
        assert_eq!(steps, [0, 1, 1, 2, 3, 3, 4, 5, 5, 6]);
    }
}
