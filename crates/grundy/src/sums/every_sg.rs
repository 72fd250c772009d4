//! Every-SG: a sum in which every component that can move must be moved.
//!
//! # Rules
//! Several components of impartial games. A move moves *every* component that
//! still has a move (one move in each); whoever cannot move loses. So the game
//! lasts as long as its longest-lasting component, and the player who makes the
//! last move in that component wins. Winning Ways (ch. 9, "continued
//! conjunctive compounds") solves it with *suspense numbers*;
//! Jia Zhihao's 2009 paper calls them steps.
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
//! among the components is odd.
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
//! # In the catalogue: `every(SUM)`
//! The components of `SUM` (each heap, each pair of Wythoff piles, ...) are
//! explored as explicit graphs and their steps computed on them. A move that
//! splits a component (a take-and-break game) leaves its parts as separate
//! components, as the printed position says when read back; since an Every-SG
//! sum is decided by its largest steps, such an option counts with the largest
//! steps of its parts, and the parity of steps says who wins a component alone,
//! so the definition above reads, with no nimbers: `1 + max` of the options'
//! even steps if there is one, otherwise `1 + min` of all.
//!
//! ```
//! use grundy::sums::every_sg::EverySg;
//! use grundy::theory::game::{ImpartialGame, Outcome};
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

use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::family::{EverySteps, Part};
#[cfg(test)]
use crate::sums::answer::WHOLE_MOVES_BYTES;
use crate::sums::answer::{
    Answer, SearchCost, SolveOptions, WinningMove, keep_whole_moves_within_budget,
    whole_moves_note, whole_moves_within_budget,
};
use crate::sums::explorer::Explorer;
use crate::sums::position::{Compound, Group, Position, PositionText};
use crate::theory::cancel::checkpoint;
use crate::theory::game::{Convention, ImpartialGame, Outcome};
use crate::theory::solver::{SearchError, Solver};

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
            checkpoint()?;
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
        let sorted: Vec<Vec<u64>> = choices
            .iter()
            .map(|c| {
                let mut steps: Vec<u64> = c.iter().map(|&(_, s)| s).collect();
                steps.sort_unstable();
                steps
            })
            .collect();
        let sorted: Vec<&[u64]> = sorted.iter().map(Vec::as_slice).collect();
        result.count = count_even_largest(&sorted)?;
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

/// The steps of every explored node reachable from `roots`, indexed by node
/// (nodes not reached stay 0); an option that splits counts with the largest
/// steps of its parts.
///
/// # Errors
/// [`SearchError::Cycle`] if the explored graph has a cycle.
fn node_steps(
    explorer: &Explorer,
    roots: impl IntoIterator<Item = u32>,
) -> Result<Vec<u64>, SearchError> {
    let count = explorer.len();
    let mut steps = vec![0u64; count];
    let mut known = vec![false; count];
    let mut on_stack = vec![false; count];
    // Frames: (node, option index, part index within the option).
    let mut stack: Vec<(u32, usize, usize)> = Vec::new();
    for root in roots {
        if known[root as usize] {
            continue;
        }
        on_stack[root as usize] = true;
        stack.push((root, 0, 0));
        while let Some(frame) = stack.last_mut() {
            checkpoint()?;
            let (id, option, part) = *frame;
            let options = explorer.options(id);
            if let Some(parts) = options.get(option) {
                if let Some(&child) = parts.get(part) {
                    frame.2 += 1;
                    if !known[child as usize] {
                        if on_stack[child as usize] {
                            return Err(SearchError::Cycle);
                        }
                        on_stack[child as usize] = true;
                        stack.push((child, 0, 0));
                    }
                } else {
                    frame.1 += 1;
                    frame.2 = 0;
                }
                continue;
            }
            let values = options
                .iter()
                .map(|parts| parts.iter().map(|&p| steps[p as usize]).max().unwrap_or(0));
            let longest_even = values.clone().filter(|v| v % 2 == 0).max();
            let value = match longest_even {
                _ if options.is_empty() => 0,
                Some(even) => 1 + even,
                None => 1 + values.min().unwrap_or(0),
            };
            steps[id as usize] = value;
            known[id as usize] = true;
            on_stack[id as usize] = false;
            stack.pop();
        }
    }
    Ok(steps)
}

/// The number of moves of an Every-SG sum whose largest steps is even: a move
/// takes one option in each movable component, whose option steps are
/// `sorted[c]` (in increasing order, none empty). See [`count_even_largest_of`].
///
/// # Errors
/// [`SearchError::Cancelled`] (or the deadline's error) when the search is
/// cancelled.
fn count_even_largest(sorted: &[&[u64]]) -> Result<BigUint, SearchError> {
    let counts: Vec<Counts<'_>> = sorted.iter().map(|s| Counts::Listed(s)).collect();
    count_even_largest_of(&counts)
}

/// The options of one movable component by their steps: listed one by one
/// (increasing), or grouped (increasing distinct steps, with the number of
/// options at or below each: a component valued by theory, whose options may
/// number 10^100).
#[derive(Clone, Copy)]
enum Counts<'a> {
    Listed(&'a [u64]),
    Grouped {
        levels: &'a [u64],
        cumulative: &'a [BigUint],
    },
}

/// How many options of a component have at most some steps.
#[derive(Clone, PartialEq, Eq)]
enum Factor {
    Small(u64),
    Big(BigUint),
}

impl<'a> Counts<'a> {
    fn levels(self) -> &'a [u64] {
        match self {
            Self::Listed(levels) | Self::Grouped { levels, .. } => levels,
        }
    }

    /// How many options have at most `level` steps.
    fn factor(self, level: u64) -> Factor {
        let below = self.levels().partition_point(|&v| v <= level);
        match self {
            Self::Listed(_) => Factor::Small(below as u64),
            Self::Grouped { cumulative, .. } => match below {
                0 => Factor::Small(0),
                _ => Factor::Big(cumulative[below - 1].clone()),
            },
        }
    }
}

/// The number of moves of an Every-SG sum whose largest steps is even: a move
/// takes one option in each movable component, whose options' steps are
/// `counts[c]`.
///
/// With `c_i(m)` the options of component `i` with at most `m` steps and
/// `P(m) = prod c_i(m)`, the moves whose largest is exactly the level `m` number
/// `P(m) - P(m')`, `m'` the level below. `P` is 0 below the largest of the
/// components' least steps, so only the levels from there count; over them the
/// count is a signed sum of products, `sum_j w_j P(l_j)` with `w_j` in
/// `{-1, 0, 1}`. It is found by halving the levels: a component whose factor
/// stays the same over a half is multiplied in once for that half, so each
/// component takes part only where its own levels lie, and the work is near
/// linear in the options (not levels times components, as a product per level
/// would be).
///
/// # Errors
/// [`SearchError::Cancelled`] (or the deadline's error) when the search is
/// cancelled.
fn count_even_largest_of(counts: &[Counts<'_>]) -> Result<BigUint, SearchError> {
    let Some(floor) = counts.iter().map(|c| c.levels()[0]).max() else {
        return Ok(BigUint::zero());
    };
    let mut levels: Vec<u64> = counts
        .iter()
        .flat_map(|c| {
            let levels = c.levels();
            levels[levels.partition_point(|&v| v < floor)..]
                .iter()
                .copied()
        })
        .collect();
    levels.sort_unstable();
    levels.dedup();
    let even = |j: usize| levels.get(j).is_some_and(|level| level % 2 == 0);
    let weights: Vec<i8> = (0..levels.len())
        .map(|j| i8::from(even(j)) - i8::from(even(j + 1)))
        .collect();
    // nonzero_before[j]: how many of the first j weights are not 0.
    let mut nonzero_before = Vec::with_capacity(levels.len() + 1);
    nonzero_before.push(0usize);
    for &w in &weights {
        nonzero_before.push(nonzero_before.last().copied().unwrap_or(0) + usize::from(w != 0));
    }
    let sweep = LevelSweep {
        counts,
        levels: &levels,
        weights: &weights,
        nonzero_before: &nonzero_before,
    };
    let (constant, varying) = sweep.split(0..counts.len(), 0, levels.len());
    let total = BigInt::from(product(constant)) * sweep.sum(0, levels.len(), varying)?;
    Ok(total.to_biguint().unwrap_or_default())
}

/// The levels of [`count_even_largest_of`] and the components' options over them.
struct LevelSweep<'a> {
    counts: &'a [Counts<'a>],
    levels: &'a [u64],
    weights: &'a [i8],
    nonzero_before: &'a [usize],
}

impl LevelSweep<'_> {
    /// How many options of component `c` have at most the steps of level `j`.
    fn factor(&self, c: usize, j: usize) -> Factor {
        self.counts[c].factor(self.levels[j])
    }

    /// Splits `components` into the factors of those constant over the levels
    /// `lo..hi` and the indices of those that vary there.
    fn split(
        &self,
        components: impl IntoIterator<Item = usize>,
        lo: usize,
        hi: usize,
    ) -> (Vec<Factor>, Vec<usize>) {
        let mut constant = Vec::new();
        let mut varying = Vec::new();
        for c in components {
            let first = self.factor(c, lo);
            if first == self.factor(c, hi - 1) {
                constant.push(first);
            } else {
                varying.push(c);
            }
        }
        (constant, varying)
    }

    /// `sum_{lo <= j < hi} w_j prod_{c in varying} c(l_j)`, where the
    /// components not in `varying` are constant over these levels.
    fn sum(&self, lo: usize, hi: usize, varying: Vec<usize>) -> Result<BigInt, SearchError> {
        checkpoint()?;
        if self.nonzero_before[hi] == self.nonzero_before[lo] {
            return Ok(BigInt::zero());
        }
        if hi - lo == 1 {
            let factors = varying.iter().map(|&c| self.factor(c, lo)).collect();
            return Ok(BigInt::from(self.weights[lo]) * BigInt::from(product(factors)));
        }
        let mid = lo + (hi - lo) / 2;
        let (left_constant, left_varying) = self.split(varying.iter().copied(), lo, mid);
        let (right_constant, right_varying) = self.split(varying, mid, hi);
        let left = self.sum(lo, mid, left_varying)?;
        let right = self.sum(mid, hi, right_varying)?;
        let times = |constant: Vec<Factor>, sum: BigInt| {
            if sum.is_zero() {
                sum
            } else {
                sum * BigInt::from(product(constant))
            }
        };
        Ok(times(left_constant, left) + times(right_constant, right))
    }
}

/// The product of `factors`, multiplied as a balanced tree so that large
/// products cost near-linear time.
fn product(factors: Vec<Factor>) -> BigUint {
    // Pack small factors into machine words first.
    let mut words: Vec<BigUint> = Vec::new();
    let mut word = 1u64;
    for f in factors {
        match f {
            Factor::Small(f) => match word.checked_mul(f) {
                Some(w) => word = w,
                None => {
                    words.push(BigUint::from(word));
                    word = f;
                }
            },
            Factor::Big(f) => words.push(f),
        }
    }
    words.push(BigUint::from(word));
    while words.len() > 1 {
        let mut paired = Vec::with_capacity(words.len().div_ceil(2));
        let mut pairs = words.into_iter();
        while let Some(a) = pairs.next() {
            paired.push(match pairs.next() {
                Some(b) => a * b,
                None => a,
            });
        }
        words = paired;
    }
    words.pop().unwrap_or_else(BigUint::one)
}

/// One movable component of an Every-SG position: where it stands, the steps
/// of each option it can list (in the explorer's move order, or by groups of
/// steps for a component valued by theory), and its options' steps counted.
struct Movable {
    root: usize,
    /// The steps (or their ranks) of the options listed.
    values: Vec<u64>,
    options: MovableOptions,
    /// The steps of all options, increasing: one entry per option, or the
    /// distinct steps when `cumulative` counts them.
    levels: Vec<u64>,
    /// For a component valued by theory, the number of options at or below
    /// each of `levels`.
    cumulative: Option<Vec<BigUint>>,
}

/// Where the options of a movable component come from.
enum MovableOptions {
    /// The explored node: option `i` is its `i`-th.
    Explored(u32),
    /// The options listed by theory, each as the components it leaves.
    Listed(Vec<Vec<Part>>),
}

impl Movable {
    fn counts(&self) -> Counts<'_> {
        match &self.cumulative {
            None => Counts::Listed(&self.levels),
            Some(cumulative) => Counts::Grouped {
                levels: &self.levels,
                cumulative,
            },
        }
    }
}

/// How a component of an Every-SG sum is valued.
enum Valued {
    Explored(u32),
    Theory(EverySteps<Part>),
}

/// Steps made small: the ranks of steps that may be huge (a heap of 10^100
/// tokens lasts about as many moves), keeping their order and parity, which
/// is all the outcome and the winning moves depend on.
struct Ranks {
    sorted: Vec<BigUint>,
    ranks: Vec<u64>,
}

impl Ranks {
    fn new(mut values: Vec<BigUint>) -> Self {
        values.sort_unstable();
        values.dedup();
        let mut ranks = Vec::with_capacity(values.len());
        for (j, value) in values.iter().enumerate() {
            let parity = u64::from(value.bit(0));
            ranks.push(match j {
                0 => parity,
                _ => {
                    let last: u64 = ranks[j - 1];
                    if last % 2 == parity {
                        last + 2
                    } else {
                        last + 1
                    }
                }
            });
        }
        Self {
            sorted: values,
            ranks,
        }
    }

    fn rank(&self, value: &BigUint) -> u64 {
        self.sorted
            .binary_search(value)
            .map_or(0, |index| self.ranks[index])
    }
}

/// Answers `every(SUM)`: who wins by the largest steps, and every winning move
/// (one option in each movable component) with their exact count. A component
/// whose family knows its steps by theory (Nim, Bash, subtraction games) is
/// valued by them, whatever its size; the others are explored.
///
/// # Errors
/// [`SearchError::StateLimit`] when exploring the components needs more than
/// `options.max_states` positions; [`SearchError::Cycle`] for a cyclic game.
pub(crate) fn solve_every(
    position: &Position,
    options: &SolveOptions,
) -> Result<Answer, SearchError> {
    let text = PositionText::new(position);
    let max = whole_moves_within_budget(options.max_moves, text.as_str().len());
    let mut explorer = options.explorer();
    // (group, part) of every component, in order, and how it is valued.
    let mut roots = Vec::with_capacity(position.component_count());
    let mut valued = Vec::with_capacity(position.component_count());
    for (g, group) in position.groups.iter().enumerate() {
        for (i, part) in group.parts.iter().enumerate() {
            roots.push((g, i));
            valued.push(match part.every_steps_by_theory(max) {
                Some(steps) => Valued::Theory(steps),
                None => Valued::Explored(explorer.explore(part)?),
            });
        }
    }
    let explored = valued.iter().filter_map(|v| match v {
        Valued::Explored(id) => Some(*id),
        Valued::Theory(_) => None,
    });
    let steps = node_steps(&explorer, explored)?;
    let option_steps = |id: u32| -> Vec<u64> {
        explorer
            .options(id)
            .iter()
            .map(|parts| parts.iter().map(|&p| steps[p as usize]).max().unwrap_or(0))
            .collect()
    };
    // Steps by theory may be huge: all steps are replaced by their ranks.
    let by_theory = valued.iter().any(|v| matches!(v, Valued::Theory(_)));
    let ranks = by_theory.then(|| {
        let mut all = Vec::new();
        for v in &valued {
            match v {
                Valued::Explored(id) => {
                    all.push(BigUint::from(steps[*id as usize]));
                    all.extend(option_steps(*id).into_iter().map(BigUint::from));
                }
                Valued::Theory(found) => {
                    all.push(found.steps.clone());
                    all.extend(found.options.iter().map(|group| group.steps.clone()));
                }
            }
        }
        Ranks::new(all)
    });
    let small = |value: u64| {
        ranks
            .as_ref()
            .map_or(value, |ranks| ranks.rank(&BigUint::from(value)))
    };
    let longest = valued
        .iter()
        .map(|v| match v {
            Valued::Explored(id) => small(steps[*id as usize]),
            Valued::Theory(found) => ranks.as_ref().map_or(0, |ranks| ranks.rank(&found.steps)),
        })
        .max()
        .unwrap_or(0);
    let outcome = if longest % 2 == 1 {
        Outcome::NextPlayerWins
    } else {
        Outcome::PreviousPlayerWins
    };
    let mut movable: Vec<Movable> = Vec::new();
    for (root, v) in valued.into_iter().enumerate() {
        match v {
            Valued::Explored(id) => {
                if explorer.options(id).is_empty() {
                    continue;
                }
                let values: Vec<u64> = option_steps(id).into_iter().map(small).collect();
                let mut levels = values.clone();
                levels.sort_unstable();
                movable.push(Movable {
                    root,
                    values,
                    options: MovableOptions::Explored(id),
                    levels,
                    cumulative: None,
                });
            }
            Valued::Theory(found) => {
                if found.options.is_empty() {
                    continue;
                }
                let rank = |steps: &BigUint| ranks.as_ref().map_or(0, |ranks| ranks.rank(steps));
                let mut values = Vec::new();
                let mut listed = Vec::new();
                let mut levels = Vec::new();
                let mut cumulative: Vec<BigUint> = Vec::new();
                for group in found.options {
                    let level = rank(&group.steps);
                    levels.push(level);
                    let below = cumulative.last().cloned().unwrap_or_default();
                    cumulative.push(below + &group.count);
                    for leaves in group.first {
                        values.push(level);
                        listed.push(leaves);
                    }
                }
                movable.push(Movable {
                    root,
                    values,
                    options: MovableOptions::Listed(listed),
                    levels,
                    cumulative: Some(cumulative),
                });
            }
        }
    }
    // A move wins iff the largest steps after it is even.
    let counts: Vec<Counts<'_>> = movable.iter().map(Movable::counts).collect();
    let count = count_even_largest_of(&counts)?;
    // Below the largest of the components' least steps no move has its
    // largest there; from it on, each level holds at least one move.
    let floor = movable.iter().map(|m| m.levels[0]).max().unwrap_or(0);
    let mut levels: Vec<u64> = movable
        .iter()
        .flat_map(|m| {
            m.levels[m.levels.partition_point(|&v| v < floor)..]
                .iter()
                .copied()
        })
        .filter(|level| level % 2 == 0)
        .collect();
    levels.sort_unstable();
    levels.dedup();
    let mut moves = Vec::new();
    for &level in &levels {
        if moves.len() >= max {
            break;
        }
        checkpoint()?;
        list_level(
            position, &explorer, &roots, &movable, level, max, &mut moves,
        )?;
    }
    let dropped = keep_whole_moves_within_budget(&mut moves);
    let truncated = count > BigUint::from(moves.len());
    let mut notes = Vec::new();
    if truncated && (dropped || max < options.max_moves) {
        notes.push(whole_moves_note(moves.len()));
    }
    Ok(Answer {
        position: text,
        convention: Convention::Normal,
        play: "every",
        outcome,
        nimber: None,
        loopy_value: None,
        winning_moves: moves,
        winning_move_count: count,
        truncated,
        moves_counted: true,
        method: if by_theory {
            "every-sg suspense numbers, by theory where known".to_owned()
        } else {
            "every-sg suspense numbers".to_owned()
        },
        notes,
        search: SearchCost {
            components_explored: explorer.len(),
            ..SearchCost::default()
        },
    })
}

/// Lists, up to `max` moves in all, the moves whose largest steps is exactly
/// `level`: each movable component takes an option of at most `level` steps,
/// and at least one takes exactly `level`. Backtracking prunes every branch
/// that cannot be completed, so the work is proportional to what is listed.
fn list_level(
    position: &Position,
    explorer: &Explorer,
    roots: &[(usize, usize)],
    movable: &[Movable],
    level: u64,
    max: usize,
    moves: &mut Vec<WinningMove>,
) -> Result<(), SearchError> {
    let allowed: Vec<Vec<usize>> = movable
        .iter()
        .map(|m| {
            (0..m.values.len())
                .filter(|&o| m.values[o] <= level)
                .collect()
        })
        .collect();
    if allowed.iter().any(Vec::is_empty) {
        return Ok(());
    }
    let width = movable.len();
    // reaches_level[c]: some component from c on can take exactly `level`.
    let mut reaches_level = vec![false; width + 1];
    for c in (0..width).rev() {
        reaches_level[c] = reaches_level[c + 1] || movable[c].values.contains(&level);
    }
    let mut choice = vec![0usize; width];
    // hit[c]: a component before c took exactly `level`.
    let mut hit = vec![false; width + 1];
    let mut c = 0;
    loop {
        checkpoint()?;
        // Advance component c to its next option that can be completed.
        let mut found = false;
        while choice[c] < allowed[c].len() {
            let value = movable[c].values[allowed[c][choice[c]]];
            let hit_after = hit[c] || value == level;
            if hit_after || reaches_level[c + 1] {
                hit[c + 1] = hit_after;
                found = true;
                break;
            }
            choice[c] += 1;
        }
        if !found {
            if c == 0 {
                return Ok(());
            }
            c -= 1;
            choice[c] += 1;
            continue;
        }
        if c + 1 < width {
            c += 1;
            choice[c] = 0;
            continue;
        }
        moves.push(every_move(
            position, explorer, roots, movable, &allowed, &choice,
        )?);
        if moves.len() >= max {
            return Ok(());
        }
        choice[c] += 1;
    }
}

/// The winning move that takes option `allowed[c][choice[c]]` in each movable
/// component `c`: its description and the whole position after it.
fn every_move(
    position: &Position,
    explorer: &Explorer,
    roots: &[(usize, usize)],
    movable: &[Movable],
    allowed: &[Vec<usize>],
    choice: &[usize],
) -> Result<WinningMove, SearchError> {
    let mut groups: Vec<Group> = position
        .groups
        .iter()
        .map(|group| group.with_parts(Vec::with_capacity(group.parts.len())))
        .collect();
    let mut descriptions = Vec::with_capacity(movable.len());
    let mut next = movable.iter().zip(allowed.iter().zip(choice)).peekable();
    for (root, &(g, i)) in roots.iter().enumerate() {
        // A move of a sum of many components is long to write: the
        // deadline is read while writing it, not only between moves.
        checkpoint()?;
        let part = &position.groups[g].parts[i];
        match next.peek() {
            Some((m, (allowed, choice))) if m.root == root => {
                let option = allowed[**choice];
                let leaves = match &m.options {
                    MovableOptions::Explored(id) => explorer.leaves(*id, option)?,
                    MovableOptions::Listed(listed) => listed[option].clone(),
                };
                descriptions.push(part.describe_move(&leaves));
                groups[g].parts.extend(leaves);
                next.next();
            }
            _ => groups[g].parts.push(part.clone()),
        }
    }
    let after = Position {
        convention: Convention::Normal,
        compound: Compound::Every,
        groups,
    };
    Ok(WinningMove {
        description: descriptions.join("; "),
        group: 0,
        part: 0,
        leaves: Vec::new(),
        whole: Some(PositionText::new(&after).as_str().to_owned()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Subtraction, answer_listing_every_move as answer};

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

    use crate::catalogue::build as build_position;
    use crate::family::Family;
    use crate::lang::parse;
    use crate::sums::analysis::solve;
    use proptest::prelude::*;
    use std::sync::Arc;

    /// An explored component graph whose moves never split, as a game on node
    /// numbers: what the oracle [`EverySum`] needs.
    struct Nodes<'e>(&'e Explorer);
    impl ImpartialGame for Nodes<'_> {
        type Position = u32;
        fn moves(&self, id: &u32, moves: &mut Vec<u32>) {
            moves.extend(self.0.options(*id).iter().map(|option| {
                assert_eq!(option.len(), 1, "a move that splits");
                option[0]
            }));
        }
    }

    /// The catalogue's answer to `every(SUM)` against the brute-force oracle
    /// [`EverySum`] on the explored components: outcome, exact count, and the
    /// position after each winning move.
    fn check_against_oracle(text: &str) {
        let found = answer(text);
        let position = build_position(&parse(text).unwrap()).unwrap();
        let mut explorer = Explorer::without_canonical_forms(1_000_000);
        let mut roots = Vec::new();
        for group in &position.groups {
            for part in &group.parts {
                roots.push(explorer.explore(part).unwrap());
            }
        }
        let nodes = Nodes(&explorer);
        let sum = EverySum::new(&nodes);
        let mut oracle = Solver::new(&sum);
        assert_eq!(found.outcome, oracle.outcome(&roots).unwrap(), "{text}");
        let winning = oracle.winning_moves(&roots).unwrap();
        assert_eq!(
            found.winning_move_count,
            BigUint::from(winning.len()),
            "{text}"
        );
        let print = |ids: &Vec<u32>| {
            let mut ids = ids.iter();
            let groups = position
                .groups
                .iter()
                .map(|group| {
                    let parts = group
                        .parts
                        .iter()
                        .map(|_| explorer.part(*ids.next().unwrap()).clone())
                        .collect();
                    group.with_parts(parts)
                })
                .collect();
            Position {
                convention: Convention::Normal,
                compound: Compound::Every,
                groups,
            }
            .to_string()
        };
        let expected: Vec<String> = winning.iter().map(print).collect();
        crate::testing::assert_targets(&found, expected, text);
        assert_eq!(found.nimber, None);
        assert_eq!(found.play, "every");
    }

    #[test]
    fn every_catalogue_sum_is_answered_as_the_oracle_answers_it() {
        for text in [
            "every(nim(1, 2) + bash[2](5))",
            "every(sub[1, 3, 4](7, 9) + wythoff(2, 3))",
            "every(staircase(1, 2) + nim(3))",
            "every(wythoff(3, 5) + bash[3](6, 2))",
            "every(nim(0, 0))",
            "every(nim(0) + sub[2](1))",
        ] {
            check_against_oracle(text);
        }
    }

    /// Nim, Bash and subtraction games are valued by their steps by theory
    /// (any size): on every small heap, and sums of two, their answers are
    /// the exhaustive search's.
    #[test]
    fn steps_by_theory_answer_as_the_oracle_does() {
        let families = [
            "nim",
            "bash[2]",
            "bash[3]",
            "sub[1, 3, 4]",
            "sub[2, 5]",
            "sub[3]",
        ];
        for family in families {
            for n in 0..=16 {
                check_against_oracle(&format!("every({family}({n}))"));
                check_against_oracle(&format!(
                    "every({family}({n}) + wythoff({}, {}))",
                    n % 4,
                    n % 3
                ));
                check_against_oracle(&format!("every({family}({n}, {}))", (n * 7) % 13));
            }
        }
        for (a, b) in [(3, 8), (9, 4), (12, 12), (15, 2)] {
            check_against_oracle(&format!(
                "every(nim({a}) + bash[2]({b}) + sub[2, 5]({}))",
                a + b
            ));
        }
    }

    /// Huge heaps: the steps by theory answer what exploring cannot, and
    /// agree with the periodic pattern of small heaps (a heap and the same heap
    /// plus a multiple of the period have the same outcome and move count).
    #[test]
    fn huge_heaps_are_answered_by_theory() {
        let huge = "1000000000000000000000000000000";
        for family in ["nim", "bash[2]", "sub[1, 3, 4]"] {
            let found = answer(&format!("every({family}({huge}) + nim(2))"));
            assert_eq!(found.play, "every");
            assert!(found.method.contains("theory"), "{}", found.method);
        }
        // bash[2]: a heap of 3q + r has steps 2q + [r > 0]; 10^30 = 1 (mod 3)
        // has odd steps and the longest, so the first player wins by taking 1
        // (to 3q, steps 2q: even), and the heap of 2 moves anyhow (2 moves).
        let found = answer(&format!("every(bash[2]({huge}) + nim(2))"));
        assert_eq!(found.outcome, Outcome::NextPlayerWins);
        assert_eq!(found.winning_move_count, BigUint::from(2u8));
        // A heap of nim alone: steps 1, won by emptying it.
        let found = answer(&format!("every(nim({huge}))"));
        assert_eq!(found.outcome, Outcome::NextPlayerWins);
        assert_eq!(found.winning_move_count, BigUint::from(1u8));
        // Two heaps of nim: every move wins that empties one and leaves the
        // other at steps 0 or 1: (n - 1) moves keep steps 1 (odd) and lose;
        // the winning moves empty both.
        let found = answer(&format!("every(nim({huge}, {huge}))"));
        assert_eq!(found.outcome, Outcome::NextPlayerWins);
        assert_eq!(found.winning_move_count, BigUint::from(1u8));
    }

    #[test]
    fn known_every_sg_answers() {
        // bash[2](5) has steps 3 (5 -> 3, which the loser leaves in 2 more);
        // the heaps of nim have steps 1: the first player wins, and must take
        // the heap of 5 to 3 and empty the heap of 1; the heap of 2 goes to 0 or 1.
        let found = answer("every(nim(1, 2) + bash[2](5))");
        assert_eq!(found.outcome, Outcome::NextPlayerWins);
        assert_eq!(found.winning_move_count, BigUint::from(2u8));
        assert_eq!(
            found.winning_moves[0].description,
            "take 1 from the heap of 1; take 2 from the heap of 2; take 2 from the heap of 5"
        );
        assert_eq!(
            found.target(&found.winning_moves[0]),
            "every(nim(0, 0) + bash[2](3))"
        );
        // Forty heaps of 3 take any of their 3 options beside bash[2](4) -> 3:
        // 3^40 winning moves, counted without listing them.
        let text = format!("every({}bash[2](4))", "nim(3) + ".repeat(40));
        let options = SolveOptions {
            max_moves: 5,
            ..SolveOptions::default()
        };
        let found = solve(&build_position(&parse(&text).unwrap()).unwrap(), &options).unwrap();
        assert_eq!(found.winning_move_count, BigUint::from(3u8).pow(40));
        assert_eq!(found.winning_moves.len(), 5);
        assert!(found.truncated);
    }

    #[test]
    fn moves_of_a_huge_position_stop_at_the_bytes_of_whole_moves() {
        // Each move of every(bash[2](1..20000)) is written whole (about 100 KB of
        // position, 500 KB of description): the list stops near 10^7 bytes, says so in
        // a note, and the count stays exact. A position of 100 heaps lists them all.
        let options = SolveOptions {
            max_moves: 100,
            ..SolveOptions::default()
        };
        let solved =
            |text: &str| solve(&build_position(&parse(text).unwrap()).unwrap(), &options).unwrap();
        let huge = solved("every(bash[2](1..20000))");
        let listed = huge.winning_moves.len();
        assert!((1..100).contains(&listed), "{listed} moves listed");
        let bytes: usize = huge
            .winning_moves
            .iter()
            .map(|m| m.description.len() + m.whole.as_ref().map_or(0, String::len))
            .sum();
        assert!(bytes <= WHOLE_MOVES_BYTES, "{bytes} bytes");
        assert!(huge.truncated);
        assert_eq!(huge.notes, [whole_moves_note(listed)]);
        assert!(huge.winning_move_count > BigUint::from(listed));
        let small = solved("every(bash[2](1..100))");
        assert_eq!(
            BigUint::from(small.winning_moves.len()),
            small.winning_move_count.clone().min(BigUint::from(100u8))
        );
        assert!(small.notes.is_empty());
    }

    /// A heap that loses one token, and may then split what is left into two
    /// non-empty heaps: a component whose moves split.
    #[derive(Debug, PartialEq)]
    struct SplitHeap;
    impl Family for SplitHeap {
        type Position = u32;
        fn write_position(&self, heap: &u32, out: &mut String) {
            out.push_str(&heap.to_string());
        }
        fn moves(&self, heap: &u32, _limit: usize) -> Result<Vec<Vec<u32>>, SearchError> {
            let Some(rest) = heap.checked_sub(1) else {
                return Ok(Vec::new());
            };
            let mut moves = vec![vec![rest]];
            moves.extend((1..rest).map(|a| vec![a, rest - a]));
            Ok(moves)
        }
        fn describe_move(&self, _heap: &u32, _to: &[u32]) -> String {
            "move".to_owned()
        }
    }

    /// The Every-SG sum of split heaps, split parts being new components.
    struct SplitEvery;
    impl ImpartialGame for SplitEvery {
        type Position = Vec<u32>;
        fn moves(&self, heaps: &Vec<u32>, moves: &mut Vec<Vec<u32>>) {
            let mut partial: Vec<Vec<u32>> = vec![Vec::new()];
            for &n in heaps.iter().filter(|&&n| n > 0) {
                let rest = n - 1;
                let mut options = vec![vec![rest]];
                options.extend((1..rest).map(|a| vec![a, rest - a]));
                partial = partial
                    .iter()
                    .flat_map(|prefix| options.iter().map(move |o| [prefix.as_slice(), o].concat()))
                    .collect();
            }
            if heaps.iter().any(|&n| n > 0) {
                moves.extend(partial.into_iter().map(|mut p| {
                    p.retain(|&n| n > 0);
                    p.sort_unstable();
                    p
                }));
            }
        }
    }

    #[test]
    fn split_parts_become_components_and_count_by_their_largest_steps() {
        let mut oracle = Solver::new(&SplitEvery);
        let options = SolveOptions {
            max_moves: usize::MAX,
            ..SolveOptions::default()
        };
        for a in 0..9 {
            for b in 0..7 {
                let parts: Vec<crate::family::Part> =
                    crate::family::parts(&Arc::new(SplitHeap), [a, b]);
                let position = Position {
                    convention: Convention::Normal,
                    compound: Compound::Every,
                    groups: vec![Group::new("split", parts)],
                };
                let found = solve_every(&position, &options).unwrap();
                let mut heaps = vec![a, b];
                heaps.retain(|&n| n > 0);
                heaps.sort_unstable();
                assert_eq!(found.outcome, oracle.outcome(&heaps).unwrap(), "{a}, {b}");
                assert_eq!(
                    found.winning_move_count,
                    BigUint::from(oracle.winning_moves(&heaps).unwrap().len()),
                    "{a}, {b}"
                );
                for m in &found.winning_moves {
                    // The text after the move, read back as heaps, is a loss.
                    let text = m.whole.as_deref().unwrap();
                    let inner = &text["every(split(".len()..text.len() - 2];
                    let mut after: Vec<u32> = inner
                        .split(", ")
                        .filter(|t| !t.is_empty())
                        .map(|t| t.parse().unwrap())
                        .filter(|&n| n > 0)
                        .collect();
                    after.sort_unstable();
                    assert_eq!(oracle.outcome(&after).unwrap(), Outcome::PreviousPlayerWins);
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn random_sums_are_answered_as_the_oracle_answers_them(
            terms in prop::collection::vec((0usize..5, prop::collection::vec(0u32..7, 1..3)), 1..4)
        ) {
            let text: Vec<String> = terms
                .iter()
                .map(|(kind, args)| {
                    let args: Vec<String> = args.iter().map(u32::to_string).collect();
                    match kind {
                        0 => format!("nim({})", args.join(", ")),
                        1 => format!("bash[2]({})", args.join(", ")),
                        2 => format!("sub[1, 3, 4]({})", args.join(", ")),
                        3 => format!("staircase({})", args.join(", ")),
                        _ => format!("wythoff({}, {})", args[0], args.get(1).map_or("1", String::as_str)),
                    }
                })
                .collect();
            check_against_oracle(&format!("every({})", text.join(" + ")));
        }
    }

    /// The moves whose largest steps is even, by enumerating every choice of
    /// one option per component: what [`count_even_largest`] must count.
    fn count_by_enumeration(steps: &[Vec<u64>]) -> BigUint {
        let mut largest = vec![0u64];
        for options in steps {
            largest = largest
                .iter()
                .flat_map(|&l| options.iter().map(move |&s| l.max(s)))
                .collect();
        }
        BigUint::from(largest.iter().filter(|&&l| l % 2 == 0).count())
    }

    /// The count as a product per level over all components (levels times
    /// components big-integer products): slow, but independent of the sweep.
    fn count_by_levels(sorted: &[&[u64]]) -> BigUint {
        let mut levels: Vec<u64> = sorted.iter().flat_map(|s| s.iter().copied()).collect();
        levels.sort_unstable();
        levels.dedup();
        let mut count = BigUint::zero();
        let mut below = BigUint::zero();
        for level in levels {
            let upto = sorted.iter().fold(BigUint::one(), |product, s| {
                product * s.partition_point(|&v| v <= level)
            });
            if level % 2 == 0 {
                count += &upto - &below;
            }
            below = upto;
        }
        count
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn the_level_sweep_counts_as_enumeration_does(
            steps in prop::collection::vec(prop::collection::vec(0u64..9, 1..5), 1..6)
        ) {
            let sorted: Vec<Vec<u64>> = steps
                .iter()
                .map(|s| {
                    let mut s = s.clone();
                    s.sort_unstable();
                    s
                })
                .collect();
            let slices: Vec<&[u64]> = sorted.iter().map(Vec::as_slice).collect();
            prop_assert_eq!(count_even_largest(&slices).unwrap(), count_by_enumeration(&steps));
        }
    }

    /// Many components with many levels each (heaps of bash, whose steps grow
    /// with the heap): the sweep agrees with a product per level.
    #[test]
    fn the_level_sweep_counts_as_products_per_level_do() {
        let game = Subtraction(vec![1, 2]);
        let mut every = EverySg::new(&game);
        for spread in [1u64, 7, 40] {
            let sorted: Vec<Vec<u64>> = (1..600u32)
                .map(|n| {
                    let mut options = Vec::new();
                    game.moves(&n, &mut options);
                    let mut steps: Vec<u64> = options
                        .iter()
                        .map(|o| every.steps(o).unwrap() * spread % 301)
                        .collect();
                    steps.sort_unstable();
                    steps
                })
                .collect();
            let slices: Vec<&[u64]> = sorted.iter().map(Vec::as_slice).collect();
            assert_eq!(
                count_even_largest(&slices).unwrap(),
                count_by_levels(&slices)
            );
        }
    }

    /// A sum of 200,000 heaps has about 130,000 levels: a product over the
    /// components per level took hours; the sweep takes well under a second.
    #[test]
    fn every_sum_of_many_components_is_counted_in_near_linear_time() {
        let text = "every(bash[2](1..200000))";
        let position = build_position(&parse(text).unwrap()).unwrap();
        let options = SolveOptions {
            max_moves: 2,
            ..SolveOptions::default()
        };
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let found = crate::theory::cancel::Cancel::with_deadline(deadline)
            .run(|| solve(&position, &options))
            .unwrap();
        // Each move is written whole (a megabyte of position, more of description):
        // one is listed within the bytes of whole moves.
        assert_eq!(found.winning_moves.len(), 1);
        assert!(found.winning_move_count > BigUint::from(2u8));
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
