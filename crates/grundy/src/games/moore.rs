//! Moore's Nim_k: take from up to `k` heaps in one move.
//!
//! # Rules
//! Heaps of counters; a move chooses between 1 and `k` heaps and takes at least
//! one counter from each chosen heap (any number from each). Whoever cannot move
//! loses. `k = 1` is Nim.
//!
//! # Theorem (Moore, *Annals of Math.* 11, 1910)
//! Write the heaps in binary. The player to move loses iff in every bit column
//! the number of heaps with a 1 is a multiple of `k + 1`.
//!
//! A winning move is built from the top column down (the constructive half of
//! the proof): keep the set `F` of heaps already lowered, whose lower bits are
//! free. In a column whose count of ones among the other heaps is `r` modulo `k +
//! 1`, either lower `r` more heaps that have a 1 there (when `|F| + r <= k`) or
//! set the bit in `k + 1 - r` heaps of `F` (possible otherwise, since then `|F| >=
//! k + 1 - r`). [`Moore::a_winning_move`] does this for heaps of any size.
//!
//! # Counting the winning moves
//! Moore's Nim has no known nimber formula for `k >= 2`, and its winning moves
//! can be astronomically many (each lowered heap's low bits are partly free).
//! [`Moore::winning_moves`] counts them exactly: for each set `C` of at most `k`
//! heaps, a digit dynamic programme over the bit columns whose state is the set
//! of heaps of `C` not yet lowered ("tight"). In each column the bits of `C` must
//! sum to exactly the residue that the other heaps leave (it is at most `|C| <=
//! k < k + 1`). The work is about `sum_s C(n, s) 3^s` per bit column, so the
//! count is refused with [`MooreError::CountTooLarge`] beyond
//! [`MAX_COUNT_WORK`]; the outcome and one winning move need no such limit.
//!
//! ```
//! use grundy::games::moore::Moore;
//! use grundy::theory::game::Outcome;
//! use num_bigint::BigUint;
//!
//! let moore = Moore::new(2).unwrap();
//! let heaps: Vec<BigUint> = [1u32, 2, 3].map(BigUint::from).to_vec();
//! // Columns: ones 2 (1 and 3), twos 2 (2 and 3): neither is a multiple of 3.
//! assert_eq!(moore.outcome(&heaps), Outcome::NextPlayerWins);
//! let after = moore.a_winning_move(&heaps).unwrap();
//! assert!(moore.is_p_position(&after));
//! ```

use std::sync::Arc;

use num_bigint::BigUint;
use num_traits::{One, Zero};

use crate::drawing::Drawing;
use crate::family::write_integers;
use crate::family::{Family, FirstMoves, MovesTo, OutcomeAnswer, part};
use crate::lang::arguments::{heap_sizes, integer_param};
use crate::lang::{LangError, Term};
use crate::registry::{BuildContext, DrawingKind, EntryKind, GameEntry};
use crate::sums::position::Group;
use crate::theory::game::Outcome;
use crate::theory::solver::SearchError;

/// The most work [`Moore::winning_moves`] may do: sets of heaps times bit
/// columns times `3^|set|`.
pub const MAX_COUNT_WORK: f64 = 3e7;

/// Why a Moore's Nim question has no answer.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MooreError {
    /// `moore[0]`: a move must be allowed to touch at least one heap.
    #[error("moore[k] needs k >= 1: the most heaps one move may take from")]
    HeapsPerMoveIsZero,
    /// Counting the winning moves exactly would take too long.
    #[error(
        "counting the winning moves exactly needs about {work:.0} steps, more than the limit of \
         {limit:.0}: too many heaps for k = {heaps_per_move}"
    )]
    CountTooLarge {
        /// The estimated work.
        work: f64,
        /// [`MAX_COUNT_WORK`].
        limit: f64,
        /// `k`.
        heaps_per_move: u64,
    },
}

/// Moore's Nim_k.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Moore {
    heaps_per_move: u64,
}

/// The winning moves of a position: the positions they lead to (at most the
/// number asked for) and their exact count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MooreMoves {
    /// The heaps after each listed move.
    pub listed: Vec<Vec<BigUint>>,
    /// The number of winning moves.
    pub count: BigUint,
}

impl Moore {
    /// Moore's Nim_k with `k = heaps_per_move`.
    ///
    /// # Errors
    /// [`MooreError::HeapsPerMoveIsZero`] for `k = 0`.
    pub const fn new(heaps_per_move: u64) -> Result<Self, MooreError> {
        if heaps_per_move == 0 {
            return Err(MooreError::HeapsPerMoveIsZero);
        }
        Ok(Self { heaps_per_move })
    }

    /// `k`, the most heaps one move may change.
    #[must_use]
    pub const fn heaps_per_move(self) -> u64 {
        self.heaps_per_move
    }

    fn modulus(self) -> u128 {
        u128::from(self.heaps_per_move) + 1
    }

    fn column_counts(heaps: &[BigUint]) -> Vec<u64> {
        let bits = heaps.iter().map(BigUint::bits).max().unwrap_or(0);
        (0..bits)
            .map(|bit| heaps.iter().filter(|heap| heap.bit(bit)).count() as u64)
            .collect()
    }

    /// Whether the player to move loses: every column count is a multiple of `k + 1`.
    #[must_use]
    pub fn is_p_position(&self, heaps: &[BigUint]) -> bool {
        Self::column_counts(heaps)
            .iter()
            .all(|&count| u128::from(count) % self.modulus() == 0)
    }

    /// Who wins.
    #[must_use]
    pub fn outcome(&self, heaps: &[BigUint]) -> Outcome {
        if self.is_p_position(heaps) {
            Outcome::PreviousPlayerWins
        } else {
            Outcome::NextPlayerWins
        }
    }

    /// One winning move, as the heaps after it, built column by column (Moore's
    /// proof); `None` for a P-position.
    #[must_use]
    pub fn a_winning_move(&self, heaps: &[BigUint]) -> Option<Vec<BigUint>> {
        if self.is_p_position(heaps) {
            return None;
        }
        let modulus = self.modulus();
        let bits = heaps.iter().map(BigUint::bits).max().unwrap_or(0);
        let mut after = heaps.to_vec();
        let mut lowered = vec![false; heaps.len()];
        let mut lowered_count: u128 = 0;
        for bit in (0..bits).rev() {
            // Lowered heaps have their bits below the lowering column cleared, so
            // the column counts only the untouched heaps' ones.
            let ones = after.iter().filter(|heap| heap.bit(bit)).count() as u128;
            let residue = ones % modulus;
            if residue == 0 {
                continue;
            }
            if lowered_count + residue <= u128::from(self.heaps_per_move) {
                let mut left = residue;
                for (index, heap) in after.iter_mut().enumerate() {
                    if left == 0 {
                        break;
                    }
                    if !lowered[index] && heap.bit(bit) {
                        // Clear this bit and everything below it.
                        *heap = (&*heap >> bit) >> 1u32 << (bit + 1);
                        lowered[index] = true;
                        lowered_count += 1;
                        left -= 1;
                    }
                }
            } else {
                let mut left = modulus - residue;
                for (index, heap) in after.iter_mut().enumerate() {
                    if left == 0 {
                        break;
                    }
                    if lowered[index] {
                        heap.set_bit(bit, true);
                        left -= 1;
                    }
                }
            }
        }
        Some(after)
    }

    /// Every winning move, counted exactly, and the first `max_listed` of them as
    /// the heaps after the move.
    ///
    /// # Errors
    /// [`MooreError::CountTooLarge`] when the count needs more than
    /// [`MAX_COUNT_WORK`] steps.
    pub fn winning_moves(
        &self,
        heaps: &[BigUint],
        max_listed: usize,
    ) -> Result<MooreMoves, MooreError> {
        let mut moves = MooreMoves {
            listed: Vec::new(),
            count: BigUint::zero(),
        };
        if self.is_p_position(heaps) {
            return Ok(moves);
        }
        // Only nonempty heaps can be lowered.
        let candidates: Vec<usize> = (0..heaps.len()).filter(|&i| !heaps[i].is_zero()).collect();
        let largest_set = usize::try_from(self.heaps_per_move)
            .unwrap_or(usize::MAX)
            .min(candidates.len());
        let bits = heaps.iter().map(BigUint::bits).max().unwrap_or(0);
        let work = estimated_work(candidates.len(), largest_set, bits);
        if work > MAX_COUNT_WORK {
            return Err(MooreError::CountTooLarge {
                work,
                limit: MAX_COUNT_WORK,
                heaps_per_move: self.heaps_per_move,
            });
        }
        let columns = Self::column_counts(heaps);
        let mut chosen = Vec::new();
        for size in 1..=largest_set {
            for_each_subset(&candidates, size, &mut chosen, &mut |chosen| {
                let counter = SetCounter::new(self, heaps, &columns, chosen);
                let tables = counter.tables();
                let full = (1usize << chosen.len()) - 1;
                moves.count += &tables[columns.len()][full];
                if moves.listed.len() < max_listed && !tables[columns.len()][full].is_zero() {
                    let mut values = vec![BigUint::zero(); chosen.len()];
                    counter.list(&tables, columns.len(), full, &mut values, &mut |values| {
                        let mut after = heaps.to_vec();
                        for (slot, &heap) in chosen.iter().enumerate() {
                            after[heap] = values[slot].clone();
                        }
                        moves.listed.push(after);
                        moves.listed.len() < max_listed
                    });
                }
            });
        }
        Ok(moves)
    }
}

fn estimated_work(candidates: usize, largest_set: usize, bits: u64) -> f64 {
    let mut work = 0.0;
    let mut binomial = 1.0;
    for size in 1..=largest_set {
        binomial = binomial * (candidates + 1 - size) as f64 / size as f64;
        work += binomial * 3f64.powi(size as i32);
    }
    work * bits.max(1) as f64
}

/// Calls `visit` with every increasing `size`-subset of `items`.
fn for_each_subset(
    items: &[usize],
    size: usize,
    chosen: &mut Vec<usize>,
    visit: &mut dyn FnMut(&[usize]),
) {
    if chosen.len() == size {
        visit(chosen);
        return;
    }
    let start = chosen.last().map_or(0, |&last| {
        items.iter().position(|&i| i == last).unwrap_or(0) + 1
    });
    for at in start..items.len() {
        if items.len() - at < size - chosen.len() {
            break;
        }
        chosen.push(items[at]);
        for_each_subset(items, size, chosen, visit);
        chosen.pop();
    }
}

/// The digit dynamic programme for one set of lowered heaps.
struct SetCounter<'a> {
    heaps: &'a [BigUint],
    chosen: &'a [usize],
    /// `required[bit]`: how many heaps of the set must have a 1 in that column
    /// (`None` when impossible).
    required: Vec<Option<usize>>,
}

impl<'a> SetCounter<'a> {
    fn new(game: &Moore, heaps: &'a [BigUint], columns: &[u64], chosen: &'a [usize]) -> Self {
        let modulus = game.modulus();
        let required = columns
            .iter()
            .enumerate()
            .map(|(bit, &count)| {
                let inside = chosen.iter().filter(|&&h| heaps[h].bit(bit as u64)).count() as u128;
                let outside = u128::from(count) - inside;
                let needed = (modulus - outside % modulus) % modulus;
                usize::try_from(needed)
                    .ok()
                    .filter(|&needed| needed <= chosen.len())
            })
            .collect();
        Self {
            heaps,
            chosen,
            required,
        }
    }

    fn ones_mask(&self, bit: usize) -> usize {
        self.chosen
            .iter()
            .enumerate()
            .filter(|&(_, &h)| self.heaps[h].bit(bit as u64))
            .fold(0, |mask, (slot, _)| mask | 1 << slot)
    }

    /// `tables[level][tight]`: the ways to fill the `level` lowest columns when
    /// the heaps in `tight` are still equal to their old values above them.
    fn tables(&self) -> Vec<Vec<BigUint>> {
        let states = 1usize << self.chosen.len();
        let mut tables = Vec::with_capacity(self.required.len() + 1);
        let mut first = vec![BigUint::zero(); states];
        first[0] = BigUint::one();
        tables.push(first);
        for bit in 0..self.required.len() {
            let below = &tables[bit];
            let mut current = vec![BigUint::zero(); states];
            if let Some(required) = self.required[bit] {
                let ones = self.ones_mask(bit);
                for (tight, ways) in current.iter_mut().enumerate() {
                    let free = self.chosen.len() - tight.count_ones() as usize;
                    let tight_ones = tight & ones;
                    let tight_zeros = tight & !ones;
                    let mut stay = tight_ones;
                    loop {
                        let staying = stay.count_ones() as usize;
                        if staying <= required && required - staying <= free {
                            let next = &below[stay | tight_zeros];
                            if !next.is_zero() {
                                *ways += next * binomial(free, required - staying);
                            }
                        }
                        if stay == 0 {
                            break;
                        }
                        stay = (stay - 1) & tight_ones;
                    }
                }
            }
            tables.push(current);
        }
        tables
    }

    /// Lists the assignments of the `level` lowest columns from tight set
    /// `tight`, calling `emit` with the new values; stops when `emit` says so.
    fn list(
        &self,
        tables: &[Vec<BigUint>],
        level: usize,
        tight: usize,
        values: &mut [BigUint],
        emit: &mut dyn FnMut(&[BigUint]) -> bool,
    ) -> bool {
        if level == 0 {
            return emit(values);
        }
        let bit = level - 1;
        let Some(required) = self.required[bit] else {
            return true;
        };
        let ones = self.ones_mask(bit);
        let tight_ones = tight & ones;
        let tight_zeros = tight & !ones;
        let free_slots: Vec<usize> = (0..self.chosen.len())
            .filter(|&s| tight & (1 << s) == 0)
            .collect();
        let mut stay = tight_ones;
        loop {
            let staying = stay.count_ones() as usize;
            let next_tight = stay | tight_zeros;
            if staying <= required
                && required - staying <= free_slots.len()
                && !tables[bit][next_tight].is_zero()
            {
                let mut picks = Vec::new();
                let mut go_on = true;
                for_each_subset(
                    &(0..free_slots.len()).collect::<Vec<_>>(),
                    required - staying,
                    &mut picks,
                    &mut |picked| {
                        if !go_on {
                            return;
                        }
                        let mut with_bits = values.to_vec();
                        for (slot, value) in with_bits.iter_mut().enumerate() {
                            let one = if tight & (1 << slot) != 0 {
                                stay & (1 << slot) != 0
                            } else {
                                picked.iter().any(|&p| free_slots[p] == slot)
                            };
                            value.set_bit(bit as u64, one);
                        }
                        go_on = self.list(tables, level - 1, next_tight, &mut with_bits, emit);
                    },
                );
                if !go_on {
                    return false;
                }
            }
            if stay == 0 {
                break;
            }
            stay = (stay - 1) & tight_ones;
        }
        true
    }
}

fn binomial(n: usize, r: usize) -> u64 {
    (0..r).fold(1u64, |acc, i| acc * (n - i) as u64 / (i as u64 + 1))
}

/// The rules as a game family: `moore[k](a1, ..., an)`. The heaps are one
/// component, since a move may change several of them; outcome and winning
/// moves come from Moore's theorem at any size, the nimber (no formula for `k
/// >= 2`) from a bounded search.
impl Family for Moore {
    type Position = Vec<BigUint>;

    fn drawing(&self, heaps: &Vec<BigUint>) -> Option<Drawing> {
        Some(Drawing::Heaps(heaps.clone()))
    }

    fn write_position(&self, heaps: &Vec<BigUint>, out: &mut String) {
        write_integers(out, heaps);
    }

    fn nimber_by_theory(&self, heaps: &Vec<BigUint>) -> Option<(BigUint, &'static str)> {
        // Moore's Nim_1 is Nim; for k >= 2 no nimber formula is known.
        (self.heaps_per_move == 1).then(|| (nim_sum(heaps), "nim-sum"))
    }

    fn moves_to_nimber_by_theory(
        &self,
        heaps: &Vec<BigUint>,
        target: &BigUint,
        max: usize,
    ) -> Option<MovesTo<Vec<BigUint>>> {
        // Nim (k = 1): heap a goes to a xor s xor t when that is smaller.
        if self.heaps_per_move != 1 {
            return None;
        }
        let change = nim_sum(heaps) ^ target;
        let mut moves = MovesTo::default();
        if change.is_zero() {
            return Some(moves);
        }
        for (index, heap) in heaps.iter().enumerate() {
            let wanted = heap ^ &change;
            if wanted < *heap {
                moves.count += 1u32;
                if moves.listed.len() < max {
                    let mut after = heaps.clone();
                    after[index] = wanted;
                    moves.listed.push(vec![after]);
                }
            }
        }
        Some(moves)
    }

    fn moves(
        &self,
        heaps: &Vec<BigUint>,
        limit: usize,
    ) -> Result<Vec<Vec<Vec<BigUint>>>, SearchError> {
        fn extend(
            game: &Moore,
            from: usize,
            changed: u64,
            current: &mut Vec<BigUint>,
            original: &[u32],
            moves: &mut Vec<Vec<Vec<BigUint>>>,
        ) {
            if changed > 0 {
                moves.push(vec![current.clone()]);
            }
            if changed == game.heaps_per_move {
                return;
            }
            for index in from..original.len() {
                for value in 0..original[index] {
                    current[index] = value.into();
                    extend(game, index + 1, changed + 1, current, original, moves);
                }
                current[index] = original[index].into();
            }
        }
        let too_many = SearchError::StateLimit { limit };
        let small: Vec<u32> = heaps
            .iter()
            .map(|heap| u32::try_from(heap).ok().filter(|&heap| heap <= 64))
            .collect::<Option<_>>()
            .ok_or(too_many.clone())?;
        let estimate = small
            .iter()
            .fold(1f64, |product, &heap| product * f64::from(heap + 1));
        if estimate > limit as f64 {
            return Err(too_many);
        }
        let mut moves = Vec::new();
        extend(self, 0, 0, &mut heaps.clone(), &small, &mut moves);
        Ok(moves)
    }

    /// All the moves of a small position; of a large one, the moves that take
    /// 1, 2, 3, ... from one heap (each takes from at most `k` heaps), every
    /// heap in turn.
    fn first_moves(
        &self,
        heaps: &Vec<BigUint>,
        max: usize,
    ) -> Result<FirstMoves<Vec<BigUint>>, SearchError> {
        if let Ok(moves) = self.moves(heaps, max)
            && moves.len() <= max
        {
            return Ok(FirstMoves {
                moves,
                complete: true,
            });
        }
        let most = heaps.iter().max().cloned().unwrap_or_default();
        let takes = std::iter::successors(Some(BigUint::one()), |take| Some(take + 1u32))
            .take_while(move |take| *take <= most);
        let moves = takes.flat_map(|take| {
            let mut found = Vec::new();
            for (index, heap) in heaps.iter().enumerate() {
                if take <= *heap {
                    let mut after = heaps.clone();
                    after[index] = heap - &take;
                    found.push(vec![after]);
                }
            }
            found
        });
        Ok(FirstMoves {
            complete: false,
            ..FirstMoves::take(moves, max)
        })
    }

    fn describe_move(&self, heaps: &Vec<BigUint>, to: &[Vec<BigUint>]) -> String {
        let Some(after) = to.first() else {
            return "a move".to_owned();
        };
        let changes: Vec<String> = heaps
            .iter()
            .zip(after)
            .filter(|(before, after)| after < before)
            .map(|(before, after)| format!("take {} from the heap of {before}", before - after))
            .collect();
        changes.join(", ")
    }

    fn outcome_by_theory(
        &self,
        heaps: &Vec<BigUint>,
        max: usize,
    ) -> Option<OutcomeAnswer<Vec<BigUint>>> {
        let moves = self.winning_moves(heaps, max).ok()?;
        Some(OutcomeAnswer {
            outcome: self.outcome(heaps),
            winning: MovesTo {
                count: moves.count,
                listed: moves.listed.into_iter().map(|after| vec![after]).collect(),
            },
            method: "moore: column sums mod k + 1",
        })
    }
}

fn nim_sum(heaps: &[BigUint]) -> BigUint {
    heaps.iter().fold(BigUint::zero(), |sum, heap| sum ^ heap)
}

fn build(term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
    let k = integer_param(term, 0, "k", 1)?.ok_or_else(|| {
        LangError::new(
            "`moore` needs its parameter k, the most heaps one move may take from",
            term.name_span,
        )
        .with_help("for example `moore[2](1, 2, 3)`")
    })?;
    if term.params.len() > 1 {
        return Err(LangError::new(
            "`moore` takes one parameter, k",
            term.params[1].value.span,
        ));
    }
    let k = u64::try_from(&k).map_err(|_| {
        LangError::new(
            format!("the parameter `k` of `moore` is too large: {k}"),
            term.params[0].value.span,
        )
    })?;
    let game = Moore::new(k)
        .map_err(|error| LangError::new(error.to_string(), term.params[0].value.span))?;
    Ok(Group::new(
        format!("moore[{k}]"),
        vec![part(
            &Arc::new(game),
            heap_sizes(term, context.limits.bytes)?,
        )],
    ))
}

/// The catalogue entry.
pub(crate) const ENTRY: GameEntry = GameEntry {
    name: "moore",
    summary: "take from 1 to k heaps in one move",
    rules: "moore[k](a1, ..., an): a move takes at least one counter from each of 1 to k heaps \
            (k = 1 is Nim). Moore (1910): the player to move loses iff in every binary column the \
            number of heaps with a 1 is a multiple of k + 1. The winning moves are counted exactly \
            by a dynamic programme over the bit columns for each set of at most k heaps (refused \
            when too many sets); no nimber formula is known for k >= 2, so sums with other games \
            are searched.",
    syntax: "moore[k](a1, ..., an)",
    examples: &[
        "moore[2](1, 2, 3)",
        "moore[2](3, 3, 3)",
        "moore[3](100, 200, 300, 7)",
    ],
    kind: EntryKind::Game(build),
    heap_rule: None,
    drawing: DrawingKind::Heaps,
    every_start: None,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Rules;
    use crate::theory::solver::Solver;
    use proptest::prelude::*;

    use crate::testing::{all_vectors, bigs};

    #[test]
    fn outcomes_and_every_winning_move_match_search() {
        for k in 1..=4 {
            let game = Moore::new(k).unwrap();
            let rules = Rules::new(game);
            let mut solver = Solver::new(&rules);
            for length in 1..=4 {
                let max = if length == 4 { 4 } else { 6 };
                for heaps in all_vectors(length, max) {
                    let big = bigs(&heaps);
                    assert_eq!(
                        game.outcome(&big),
                        solver.outcome(&vec![bigs(&heaps)]).unwrap(),
                        "k = {k}, {heaps:?}"
                    );
                    let mut expected: Vec<Vec<BigUint>> = solver
                        .winning_moves(&vec![bigs(&heaps)])
                        .unwrap()
                        .into_iter()
                        .map(|mut to| to.remove(0))
                        .collect();
                    let found = game.winning_moves(&big, usize::MAX).unwrap();
                    assert_eq!(
                        found.count,
                        BigUint::from(expected.len()),
                        "k = {k}, {heaps:?}"
                    );
                    let mut listed = found.listed;
                    listed.sort();
                    expected.sort();
                    assert_eq!(listed, expected, "k = {k}, {heaps:?}");
                    if let Some(after) = game.a_winning_move(&big) {
                        assert!(expected.contains(&after), "k = {k}, {heaps:?}: {after:?}");
                    } else {
                        assert!(expected.is_empty());
                    }
                }
            }
        }
    }

    #[test]
    fn listing_stops_at_the_limit_but_counting_does_not() {
        let game = Moore::new(2).unwrap();
        let heaps = bigs(&[100, 200, 300, 7, 50]);
        let all = game.winning_moves(&heaps, usize::MAX).unwrap();
        let some = game.winning_moves(&heaps, 3).unwrap();
        assert_eq!(some.count, all.count);
        assert_eq!(some.listed.len(), 3);
        assert_eq!(some.listed[..], all.listed[..3]);
        assert!(all.listed.iter().all(|after| game.is_p_position(after)));
        assert_eq!(all.count, BigUint::from(all.listed.len()));
        assert_eq!(all.count, BigUint::from(8u8));
    }

    #[test]
    fn bad_parameters_and_huge_counts_are_refused() {
        assert_eq!(Moore::new(0), Err(MooreError::HeapsPerMoveIsZero));
        let game = Moore::new(6).unwrap();
        let heaps: Vec<BigUint> = (1..200u32).map(BigUint::from).collect();
        assert!(matches!(
            game.winning_moves(&heaps, 10),
            Err(MooreError::CountTooLarge { .. })
        ));
        // The constructive move still works.
        let after = game.a_winning_move(&heaps).unwrap();
        assert!(game.is_p_position(&after));
    }

    #[test]
    fn the_catalogue_answers_as_search_does() {
        use crate::catalogue::build as build_position;
        use crate::lang::parse;
        use crate::testing::{answer, assert_targets};
        let show_big = |heaps: &[BigUint]| {
            heaps
                .iter()
                .map(BigUint::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let show = |heaps: &[u32]| {
            heaps
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        for k in 1..=3 {
            let game = Moore::new(k).unwrap();
            let rules = Rules::new(game);
            let mut solver = Solver::new(&rules);
            for heaps in all_vectors(3, 4) {
                let text = format!("moore[{k}]({})", show(&heaps));
                let found = answer(&text);
                assert_eq!(
                    found.outcome,
                    solver.outcome(&vec![bigs(&heaps)]).unwrap(),
                    "{text}"
                );
                let expected: Vec<String> = solver
                    .winning_moves(&vec![bigs(&heaps)])
                    .unwrap()
                    .iter()
                    .map(|after| format!("moore[{k}]({})", show_big(&after[0])))
                    .collect();
                assert_targets(&found, expected, &text);
            }
        }
        let error = build_position(&parse("moore[0](1, 2)").unwrap()).unwrap_err();
        assert_eq!(
            error.message,
            "the parameter `k` of `moore` must be at least 1, not 0"
        );
        assert_eq!(
            answer("moore[2](1, 2, 3)").method,
            "moore: column sums mod k + 1"
        );
    }

    proptest! {
        #[test]
        fn the_constructed_move_is_legal_and_wins(
            heaps in prop::collection::vec("[0-9]{1,50}", 1..15), k in 1u64..6
        ) {
            let game = Moore::new(k).unwrap();
            let heaps: Vec<BigUint> = heaps.iter().map(|h| h.parse().unwrap()).collect();
            match game.a_winning_move(&heaps) {
                None => prop_assert!(game.is_p_position(&heaps)),
                Some(after) => {
                    prop_assert!(game.is_p_position(&after));
                    let changed = heaps.iter().zip(&after).filter(|(a, b)| a != b).count() as u64;
                    prop_assert!(changed >= 1 && changed <= k);
                    prop_assert!(heaps.iter().zip(&after).all(|(a, b)| b <= a));
                }
            }
        }
    }
}
