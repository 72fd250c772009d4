//! The divisor game: `divisors(n)` and `divisors([a1, ..., ak])`.
//!
//! # Rules (the divisor game: a poset game, like Chomp; Gale 1974)
//! The numbers `1..=n` (or the numbers `a1, ..., ak`) are on the board. A move
//! picks a number left and deletes it and every divisor of it that is left.
//! With no number left the player to move loses.
//!
//! # Theory
//! This is Chomp on the divisibility order (a poset game). `divisors(n)` is a
//! first-player win for every `n >= 1` by strategy stealing: if picking 1
//! lost, the winning reply would have been available at once, since it
//! deletes 1 too. The winning moves and nimbers come from search: positions
//! are sets of at most 128 numbers held as bit sets, valued once each in a
//! table of the positions reached, within `--max-states`. On one thread the
//! table is filled depth first. On more, two facts make it parallel: the
//! positions reached are the up-sets of the numbers under divisibility (the
//! set less the divisors of the numbers picked), listed directly; and every
//! move lowers the count of numbers left, so the positions are valued level
//! by level by that count, smallest first, each level on every thread.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use num_bigint::BigUint;
use rayon::prelude::*;
use rustc_hash::{FxBuildHasher, FxHashMap};

use crate::drawing::Drawing;
use crate::family::{Family, SearchedNimbers, part};
use crate::lang::{LangError, Term, ValueKind};
use crate::registry::{BuildContext, DrawingKind, EntryKind, GameEntry};
use crate::sums::position::Group;
use crate::theory::cancel::{Cancel, checkpoint, run_under};
use crate::theory::solver::{Budget, SearchError};

/// The most numbers a position may hold.
pub const MOST_NUMBERS: usize = 128;

/// The divisor game on one set of numbers: bit `i` of a position stands for
/// `numbers[i]`.
#[derive(Debug, PartialEq, Eq)]
pub struct Divisors {
    numbers: Vec<u64>,
    /// `divides[i]`: the numbers of the set dividing `numbers[i]` (itself too).
    divides: Vec<u128>,
}

impl Divisors {
    fn new(mut numbers: Vec<u64>) -> Self {
        numbers.sort_unstable();
        numbers.dedup();
        let divides = numbers
            .iter()
            .map(|&x| {
                numbers
                    .iter()
                    .enumerate()
                    .filter(|&(_, &d)| x % d == 0)
                    .fold(0u128, |mask, (i, _)| mask | 1 << i)
            })
            .collect();
        Self { numbers, divides }
    }

    fn each_move(&self, set: u128, mut visit: impl FnMut(usize, u128)) {
        let mut left = set;
        while left != 0 {
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            visit(i, set & !self.divides[i]);
        }
    }

    /// The nimber of `set` and of every position it reaches, within `limit`
    /// positions: depth first on one thread ([`Self::table_in_depth`]), by
    /// levels on more ([`Self::table_by_levels`]). Both store exactly the
    /// positions reachable from `set` and fail with the same
    /// [`SearchError::StateLimit`] when there are more than `limit` of them,
    /// so the table is the same whatever the number of threads.
    fn table(&self, set: u128, limit: usize) -> Result<Table, SearchError> {
        if rayon::current_num_threads() > 1 {
            self.table_by_levels(set, limit)
        } else {
            self.table_in_depth(set, limit)
        }
    }

    /// [`Self::table`] on one thread: a depth-first search valuing each
    /// position after its options.
    fn table_in_depth(&self, set: u128, limit: usize) -> Result<Table, SearchError> {
        let mut nimbers: FxHashMap<u128, u32> = FxHashMap::default();
        let mut stack = vec![(set, false)];
        let mut seen = Vec::new();
        while let Some((position, expanded)) = stack.pop() {
            if nimbers.contains_key(&position) {
                continue;
            }
            checkpoint()?;
            if expanded {
                seen.clear();
                self.each_move(position, |_, after| seen.push(nimbers[&after]));
                let mex = crate::theory::nimber::mex(&seen);
                if nimbers.len() == limit {
                    return Err(SearchError::StateLimit { limit });
                }
                nimbers.insert(position, mex);
                continue;
            }
            stack.push((position, true));
            self.each_move(position, |_, after| {
                if !nimbers.contains_key(&after) {
                    stack.push((after, false));
                }
            });
        }
        Ok(Table::One(nimbers))
    }

    /// [`Self::table`] on every thread of the current rayon pool.
    ///
    /// Every move deletes at least the number picked, so the options of a
    /// position of `k` numbers all hold fewer than `k`: once the positions
    /// are stored ([`Self::reachable`]), they are valued level by level, by
    /// their count of numbers, smallest first, the positions of one level at
    /// once, shared among the threads, from the nimbers of the levels below.
    /// Each nimber is the mex of its options', whoever computes it: the
    /// nimbers are those of one thread.
    fn table_by_levels(&self, set: u128, limit: usize) -> Result<Table, SearchError> {
        let cancel = crate::theory::cancel::current();
        let cancel = cancel.as_ref();
        let mut levels = self.reachable(set, limit, cancel)?;
        for count in 0..levels.len() {
            let (below, here) = levels.split_at_mut(count);
            let below = &*below;
            here[0].par_iter_mut().try_for_each(|map| {
                run_under(cancel, || {
                    let mut seen = Vec::new();
                    for (i, (&position, nimber)) in map.iter_mut().enumerate() {
                        if i % 64 == 0 {
                            checkpoint()?;
                        }
                        seen.clear();
                        self.each_move(position, |_, after| {
                            // Every option has fewer numbers: a level below, valued.
                            seen.push(*in_levels(below, after).expect("an option stored below"));
                        });
                        *nimber = crate::theory::nimber::mex(&seen);
                    }
                    Ok(())
                })
            })?;
        }
        Ok(Table::ByLevel(levels))
    }

    /// The positions reachable from `set`, by level and shard as in
    /// [`Table::ByLevel`], not valued yet, found on every thread of the
    /// current rayon pool; or [`SearchError::StateLimit`] if there are more
    /// than `limit`.
    ///
    /// They need no search: a position reached is `set` less a down-set of
    /// its numbers under divisibility (a move deletes the divisors of a
    /// number, and a down-set is deleted by picking its largest numbers one
    /// by one), which is to say an up-set of `set`, and [`UpSets`] lists
    /// those each once. They are counted first, the count stopping as soon
    /// as it passes `limit`, then stored, [`SHARDS`] maps a level so that the
    /// threads seldom wait for one another.
    fn reachable(
        &self,
        set: u128,
        limit: usize,
        cancel: Option<&Cancel>,
    ) -> Result<Vec<Vec<FxHashMap<u128, u32>>>, SearchError> {
        // `multiples[i]`: the numbers of `set` that `numbers[i]` divides.
        let mut multiples = vec![0u128; self.numbers.len()];
        self.each_move(set, |j, _| {
            let mut divisors = self.divides[j] & set;
            while divisors != 0 {
                multiples[divisors.trailing_zeros() as usize] |= 1 << j;
                divisors &= divisors - 1;
            }
        });
        let top = set.count_ones() as usize;
        let counted = AtomicUsize::new(0);
        let by_level: Vec<AtomicUsize> = (0..=top).map(|_| AtomicUsize::new(0)).collect();
        UpSets::new(&multiples, cancel, |up_sets| {
            checkpoint()?;
            let n = up_sets.len();
            if counted.fetch_add(n, Ordering::Relaxed).saturating_add(n) > limit {
                return Err(SearchError::StateLimit { limit });
            }
            let mut here = [0; LEVELS];
            for up in up_sets {
                here[up.count_ones() as usize] += 1;
            }
            for (level, &n) in by_level.iter().zip(&here) {
                level.fetch_add(n, Ordering::Relaxed);
            }
            Ok(())
        })
        .list(set)?;
        let levels: Vec<Vec<Mutex<FxHashMap<u128, u32>>>> = by_level
            .into_iter()
            .map(|n| {
                let n = n.into_inner() / SHARDS;
                let capacity = if n == 0 { 0 } else { n + n / 8 + 8 };
                let map = || FxHashMap::with_capacity_and_hasher(capacity, FxBuildHasher);
                (0..SHARDS).map(|_| Mutex::new(map())).collect()
            })
            .collect();
        UpSets::new(&multiples, cancel, |up_sets| {
            checkpoint()?;
            for &position in up_sets {
                let level = &levels[position.count_ones() as usize];
                let mut map = level[shard_of(position)]
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner);
                map.insert(position, UNVALUED);
            }
            Ok(())
        })
        .list(set)?;
        let levels = levels.into_iter().map(|level| {
            let maps = level.into_iter().map(Mutex::into_inner);
            maps.map(|map| map.unwrap_or_else(PoisonError::into_inner))
                .collect()
        });
        Ok(levels.collect())
    }
}

/// The counts of numbers a position may hold: 0 to [`MOST_NUMBERS`].
const LEVELS: usize = MOST_NUMBERS + 1;

/// The maps of each level of a table filled on several threads.
const SHARDS: usize = 64;

/// The value of a position stored but not valued yet.
const UNVALUED: u32 = u32::MAX;

/// Lists the up-sets under divisibility of a set of numbers (the subsets
/// holding every multiple in the set of each of their numbers) on every
/// thread of the current rayon pool. The smallest number not decided yet is
/// left out, or taken with its multiples: every number dividing it is
/// decided, so both choices lead to up-sets, and every up-set is reached
/// once.
struct UpSets<'a, V> {
    /// `multiples[i]`: the numbers of the set that `numbers[i]` divides.
    multiples: &'a [u128],
    cancel: Option<&'a Cancel>,
    /// Called on the up-sets, at most `2^SPLIT` at a time; its first error
    /// stops the listing.
    visit: V,
    /// Whether `visit` has failed.
    failed: AtomicBool,
}

/// Up-sets with at most this many numbers left to decide are listed on one
/// thread, at most `2^SPLIT` of them.
const SPLIT: u32 = 12;

impl<'a, V: Fn(&[u128]) -> Result<(), SearchError> + Sync> UpSets<'a, V> {
    fn new(multiples: &'a [u128], cancel: Option<&'a Cancel>, visit: V) -> Self {
        Self {
            multiples,
            cancel,
            visit,
            failed: AtomicBool::new(false),
        }
    }

    /// Calls `visit` on every up-set of `set`, or stops at its first error.
    fn list(&self, set: u128) -> Result<(), SearchError> {
        run_under(self.cancel, || self.list_from(set, 0))
    }

    /// Calls `visit` on the up-sets holding `up` (itself an up-set) and
    /// whatever else of `undecided`; `Ok` without a call once it has failed
    /// (the error is the call's that failed).
    fn list_from(&self, undecided: u128, up: u128) -> Result<(), SearchError> {
        if self.failed.load(Ordering::Relaxed) {
            return Ok(());
        }
        let undecided = undecided & !up;
        if undecided.count_ones() <= SPLIT {
            let mut up_sets = Vec::new();
            self.push(undecided, up, &mut up_sets);
            let visited = (self.visit)(&up_sets);
            if visited.is_err() {
                self.failed.store(true, Ordering::Relaxed);
            }
            return visited;
        }
        let i = undecided.trailing_zeros() as usize;
        let rest = undecided & (undecided - 1);
        let (without, with) = rayon::join(
            || run_under(self.cancel, || self.list_from(rest, up)),
            || run_under(self.cancel, || self.list_from(rest, up | self.multiples[i])),
        );
        without.and(with)
    }

    /// [`Self::list_from`] on this thread, the up-sets pushed on `up_sets`.
    fn push(&self, undecided: u128, up: u128, up_sets: &mut Vec<u128>) {
        let undecided = undecided & !up;
        if undecided == 0 {
            up_sets.push(up);
            return;
        }
        let i = undecided.trailing_zeros() as usize;
        let rest = undecided & (undecided - 1);
        self.push(rest, up, up_sets);
        self.push(rest, up | self.multiples[i], up_sets);
    }
}

/// The nimbers of the positions a search reached.
#[derive(Debug)]
enum Table {
    /// In one map.
    One(FxHashMap<u128, u32>),
    /// `levels[k][shard]`: the positions of `k` numbers in that shard, with
    /// their nimbers; a position's shard comes from a hash of it (not the
    /// maps' own, [`shard_of`]), so the [`SHARDS`] shards share a level
    /// evenly.
    ByLevel(Vec<Vec<FxHashMap<u128, u32>>>),
}

impl Table {
    /// The nimber of `set`, if stored.
    fn get(&self, set: u128) -> Option<&u32> {
        match self {
            Self::One(map) => map.get(&set),
            Self::ByLevel(levels) => in_levels(levels, set),
        }
    }

    /// The positions stored and their nimbers, in no particular order.
    #[cfg(test)]
    fn iter(&self) -> Box<dyn Iterator<Item = (&u128, &u32)> + '_> {
        match self {
            Self::One(map) => Box::new(map.iter()),
            Self::ByLevel(levels) => Box::new(levels.iter().flatten().flatten()),
        }
    }

    /// How many positions are stored.
    #[cfg(test)]
    fn len(&self) -> usize {
        match self {
            Self::One(map) => map.len(),
            Self::ByLevel(levels) => levels.iter().flatten().map(FxHashMap::len).sum(),
        }
    }
}

/// The nimber of `set` in `levels`, laid out as in [`Table::ByLevel`], if
/// stored.
fn in_levels(levels: &[Vec<FxHashMap<u128, u32>>], set: u128) -> Option<&u32> {
    let level = levels.get(set.count_ones() as usize)?;
    level[shard_of(set)].get(&set)
}

/// The shard of `set` in its level: a hash of it other than the maps' own.
fn shard_of(set: u128) -> usize {
    let folded = (set as u64) ^ ((set >> 64) as u64).rotate_left(32);
    (folded.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) as usize % SHARDS
}

impl std::ops::Index<&u128> for Table {
    type Output = u32;

    fn index(&self, set: &u128) -> &u32 {
        self.get(*set).expect("a position of the table")
    }
}

/// A position: the numbers left, as bits of the game's numbers.
pub type Board = u128;

impl Family for Divisors {
    type Position = Board;

    fn drawing(&self, set: &Board) -> Option<Drawing> {
        let left = self
            .numbers
            .iter()
            .enumerate()
            .filter(|&(i, _)| set >> i & 1 == 1);
        Some(Drawing::Numbers(left.map(|(_, &x)| x).collect()))
    }

    fn write_position(&self, set: &Board, out: &mut String) {
        out.push('[');
        let mut first = true;
        for (i, x) in self.numbers.iter().enumerate() {
            if set >> i & 1 == 1 {
                if !first {
                    out.push_str(", ");
                }
                first = false;
                out.push_str(&x.to_string());
            }
        }
        out.push(']');
    }

    fn moves(&self, set: &Board, limit: usize) -> Result<Vec<Vec<Board>>, SearchError> {
        if set.count_ones() as usize > limit {
            return Err(SearchError::StateLimit { limit });
        }
        let mut moves = Vec::new();
        self.each_move(*set, |_, after| moves.push(vec![after]));
        Ok(moves)
    }

    fn describe_move(&self, from: &Board, to: &[Board]) -> String {
        let Some(to) = to.first() else {
            return "a move".to_owned();
        };
        // The number picked: the largest one deleted.
        let deleted = from & !to;
        let picked = 127 - deleted.leading_zeros() as usize;
        match self.numbers.get(picked) {
            Some(x) if deleted != 0 => format!("pick {x}"),
            _ => "a move".to_owned(),
        }
    }

    fn nimbers_by_search(
        &self,
        set: &Board,
        budget: Budget,
    ) -> Option<Result<SearchedNimbers<Board>, SearchError>> {
        // A position: a 128-bit set and its value in a hash table.
        let table = budget.search_positions(40, |limit| self.table(*set, limit));
        Some(table.map(|nimbers| {
            let mut options = Vec::new();
            self.each_move(*set, |_, after| {
                options.push((vec![after], BigUint::from(nimbers[&after])));
            });
            SearchedNimbers {
                nimber: nimbers[set].into(),
                options,
            }
        }))
    }
}

fn build(term: &Term, _context: &BuildContext<'_>) -> Result<Group, LangError> {
    crate::lang::arguments::no_params(term)?;
    let too_many = |span| {
        LangError::new(
            format!("the divisor game holds at most {MOST_NUMBERS} numbers"),
            span,
        )
    };
    let numbers: Vec<u64> = match term.args.as_slice() {
        [value] => match &value.kind {
            ValueKind::Integer(n) => {
                let n = u64::try_from(n)
                    .ok()
                    .filter(|&n| n as usize <= MOST_NUMBERS)
                    .ok_or_else(|| too_many(value.span))?;
                (1..=n).collect()
            }
            ValueKind::List(items) => {
                let mut numbers = Vec::with_capacity(items.len());
                for item in items {
                    let ValueKind::Integer(x) = &item.kind else {
                        return Err(LangError::new("the numbers are integers", item.span));
                    };
                    let x = u64::try_from(x).ok().filter(|&x| x >= 1).ok_or_else(|| {
                        LangError::new(
                            format!("`{x}` is not a positive integer below 2^64"),
                            item.span,
                        )
                    })?;
                    if numbers.contains(&x) {
                        return Err(LangError::new(format!("{x} is listed twice"), item.span));
                    }
                    numbers.push(x);
                }
                if numbers.len() > MOST_NUMBERS {
                    return Err(too_many(value.span));
                }
                numbers
            }
            _ => {
                return Err(LangError::new(
                    "`divisors` takes n (the numbers 1..n) or the numbers left `[a1, ..., ak]`",
                    value.span,
                ));
            }
        },
        _ => {
            return Err(LangError::new(
                "`divisors` takes n (the numbers 1..n) or the numbers left `[a1, ..., ak]`",
                term.span,
            ));
        }
    };
    let all = if numbers.len() == 128 {
        u128::MAX
    } else {
        (1u128 << numbers.len()) - 1
    };
    Ok(Group::new(
        "divisors",
        vec![part(&Arc::new(Divisors::new(numbers)), all)],
    ))
}

/// The catalogue entry.
pub(crate) const ENTRY: GameEntry = GameEntry {
    name: "divisors",
    summary: "pick a number and delete it with all its divisors left",
    rules: "divisors(n) puts the numbers 1..n on the board, divisors([a1, ..., ak]) the numbers \
            listed. A move picks a number left and deletes it and every divisor of it left; with \
            no number left the player to move loses. divisors(n) is a first-player win for every \
            n >= 1 (strategy stealing: picking 1 deletes only what every move deletes too), but \
            the winning moves and nimbers come from search over the sets reached (at most 128 \
            numbers), within --max-states. Positions after a move are written with the numbers \
            left: divisors([2, 3, 5]).",
    syntax: "divisors(n), divisors([a1, ..., ak])",
    examples: &[
        "divisors(10)",
        "divisors([2, 3, 4, 6])",
        "divisors(6) + nim(2)",
    ],
    kind: EntryKind::Game(build),
    heap_rule: None,
    drawing: DrawingKind::Numbers,
    every_start: None,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Rules;
    use crate::testing::on_one_two_and_seven_threads;
    use crate::theory::solver::Solver;

    #[test]
    fn the_table_matches_search_and_strategy_stealing() {
        for n in 1..=14u64 {
            let game = Divisors::new((1..=n).collect());
            let all = (1u128 << n) - 1;
            let table = game.table(all, usize::MAX).unwrap();
            let rules = Rules::new(Divisors::new((1..=n).collect()));
            let mut solver = Solver::new(&rules);
            for (&set, &g) in table.iter().take(300) {
                assert_eq!(g, solver.nimber(&vec![set]).unwrap(), "{n} {set:b}");
            }
            assert_ne!(table[&all], 0, "divisors({n}) is a first-player win");
        }
    }

    /// The nimber of `set` by the rules alone: picking `numbers[i]` deletes
    /// every number left that divides it; memoised in `known`.
    fn brute_force(numbers: &[u64], set: u128, known: &mut FxHashMap<u128, u32>) -> u32 {
        if let Some(&g) = known.get(&set) {
            return g;
        }
        let mut seen = Vec::new();
        for (i, x) in numbers.iter().enumerate() {
            if set >> i & 1 == 1 {
                let deleted = numbers
                    .iter()
                    .enumerate()
                    .filter(|&(j, d)| set >> j & 1 == 1 && x % d == 0)
                    .fold(0u128, |mask, (j, _)| mask | 1 << j);
                seen.push(brute_force(numbers, set & !deleted, known));
            }
        }
        let g = (0..).find(|g| !seen.contains(g)).unwrap();
        known.insert(set, g);
        g
    }

    /// The table's positions and nimbers, sorted.
    fn sorted(table: &Table) -> Vec<(u128, u32)> {
        let mut entries: Vec<(u128, u32)> = table.iter().map(|(&s, &g)| (s, g)).collect();
        entries.sort_unstable();
        entries
    }

    /// Some sets of numbers: `1..=n`, a few lists, and 46 numbers in chains of
    /// powers (few positions, many levels).
    fn some_sets() -> Vec<Vec<u64>> {
        let mut sets: Vec<Vec<u64>> = (1..=30u64).map(|n| (1..=n).collect()).collect();
        sets.push(vec![2, 3, 4, 6, 8, 9, 12, 18, 24, 36]);
        sets.push(vec![6, 10, 15, 30, 7, 14, 21, 42, 35, 105, 210]);
        sets.push((2..=40u64).step_by(2).chain([3, 9, 27, 81]).collect());
        let chains = (1..=20)
            .map(|k| 2u64.pow(k))
            .chain((1..=12).map(|k| 3u64.pow(k)))
            .chain((1..=10).map(|k| 5u64.pow(k)))
            .chain([6, 10, 15, 30]);
        sets.push(chains.collect());
        sets
    }

    #[test]
    fn the_nimbers_are_the_same_on_one_two_and_seven_threads() {
        for numbers in some_sets() {
            let game = Divisors::new(numbers.clone());
            let all = (1u128 << game.numbers.len()) - 1;
            let tables =
                on_one_two_and_seven_threads(|| sorted(&game.table(all, usize::MAX).unwrap()));
            assert!(
                tables[1] == tables[0] && tables[2] == tables[0],
                "{numbers:?}"
            );
            let searched = on_one_two_and_seven_threads(|| {
                let found = game.nimbers_by_search(&all, Budget::UNLIMITED);
                let found = found.unwrap().unwrap();
                (found.nimber, found.options)
            });
            assert!(
                searched[1] == searched[0] && searched[2] == searched[0],
                "{numbers:?}"
            );
            // The brute force on the smaller sets.
            if tables[0].len() <= 100_000 {
                let mut known = FxHashMap::default();
                let (nimber, options) = &searched[0];
                let g = brute_force(&game.numbers, all, &mut known);
                assert_eq!(*nimber, BigUint::from(g), "{numbers:?}");
                for (after, g) in options {
                    let expected = brute_force(&game.numbers, after[0], &mut known);
                    assert_eq!(*g, BigUint::from(expected), "{numbers:?}");
                }
                for &(set, g) in &tables[0] {
                    assert_eq!(g, brute_force(&game.numbers, set, &mut known));
                }
                assert_eq!(known.len(), tables[0].len(), "{numbers:?}");
            }
        }
    }

    #[test]
    fn the_state_limit_stops_every_thread_count_alike() {
        for numbers in [(1..=16u64).collect(), (1..=24u64).collect::<Vec<u64>>()] {
            let game = Divisors::new(numbers);
            let all = (1u128 << game.numbers.len()) - 1;
            let reachable = game.table(all, usize::MAX).unwrap().len();
            for limit in [0, 1, 10, reachable / 2, reachable - 1] {
                let failed = on_one_two_and_seven_threads(|| {
                    game.table(all, limit).map(|table| table.len())
                });
                assert_eq!(
                    failed,
                    vec![Err(SearchError::StateLimit { limit }); 3],
                    "{limit}"
                );
                let failed = on_one_two_and_seven_threads(|| {
                    game.nimbers_by_search(&all, Budget::states(limit))
                        .unwrap()
                        .map(|found| found.nimber)
                });
                assert_eq!(failed, vec![Err(SearchError::StateLimit { limit }); 3]);
            }
            let stored = on_one_two_and_seven_threads(|| {
                game.table(all, reachable).map(|table| table.len())
            });
            assert_eq!(stored, vec![Ok(reachable); 3]);
        }
        // 100 primes: 2^100 positions, and the limit stops the work at once.
        let primes: Vec<u64> = (2..)
            .filter(|&p: &u64| (2..p).take_while(|d| d * d <= p).all(|d| p % d != 0))
            .take(100)
            .collect();
        let game = Divisors::new(primes);
        let all = (1u128 << 100) - 1;
        let failed =
            on_one_two_and_seven_threads(|| game.table(all, 1000).map(|table| table.len()));
        assert_eq!(
            failed,
            vec![Err(SearchError::StateLimit { limit: 1000 }); 3]
        );
    }

    #[test]
    fn a_raised_signal_stops_the_search_on_every_thread_count() {
        let game = Divisors::new((1..=24).collect());
        let all = (1u128 << 24) - 1;
        let signal = crate::theory::cancel::Cancel::new();
        signal.cancel();
        let stopped = on_one_two_and_seven_threads(|| {
            signal.run(|| game.table(all, usize::MAX).map(|t| t.len()))
        });
        assert_eq!(stopped, vec![Err(SearchError::Cancelled); 3]);
    }
}
