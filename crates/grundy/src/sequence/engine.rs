//! The computing engines: plain mex over every option, and the sparse-space method for
//! the options that leave two heaps.
//!
//! # Sparse space
//!
//! (A. Flammenkamp's "sparse space"; A. Gangolli and T. Plambeck, *A note on
//! periodicity in some octal games*, Int. J. Game Theory 18 (1989).) Attach to each
//! heap `i` its extended value `e(i) = 2·G(i) + (i mod 2)` and pick a bit mask `M` and a
//! parity `q`. Call `i` *common* when `e(i) & M` has parity `q` and *rare* otherwise.
//! For a split of `m` tokens into `a + b`, `e(a) xor e(b) = 2·(G(a) xor G(b)) + (m mod 2)`
//! and parity is additive under xor, so the option value `x = G(a) xor G(b)` of two
//! common heaps always has `2x + (m mod 2)` of *even* parity (`q xor q = 0`). Hence:
//!
//! 1. every pair with at least one rare part is enumerated from the (short) list of
//!    rare heaps;
//! 2. the mex `c` of these options and of the non-splitting options is the value,
//!    unless `2c + (m mod 2)` has even parity: only then can a pair of common heaps
//!    reach `c`, and only then are the other pairs looked at.
//!
//! The options of a heap are kept as a row of bytes (see `Block`). The pairs of a rare
//! heap `r` are inserted for 32 consecutive heaps at once: the other halves
//! `G(m - r), G(m + 1 - r), ...` are consecutive values, and `G(r)` is read once (with
//! a vector kernel the 32 positions are computed in vectors, see [`simd::mark_pairs`]). These
//! pairs bound the speed of games with many rare heaps (Officers: 1,583 per heap). A
//! byte store each costs about one cycle; when the values a block's rare pairs can take
//! are named by 8 bits, the AVX-512 kernel keeps each heap's set of them in vector registers instead
//! (about 0.7 cycle per pair, see [`simd::mark_pairs_in_registers`]): values below 256,
//! or below 512 with bit 8 in the mask and no rare heap among the other halves, since a
//! rare heap and a common one give a value of known parity under the mask, which gives
//! bit 8 back from the others (`Marking`).
//!
//! The common pairs are searched in one of two ways (`SearchMode`):
//! - one pass for all wanted values (the default with a vector kernel): every value missing
//!   below the least one no pair of common heaps can reach is wanted; the first 256
//!   pairs are recorded outright (a byte store each: they hold most wanted values,
//!   each of which would otherwise cost the search a mispredicted branch), then one
//!   pass over the others takes out each wanted value it meets, stopping when none is
//!   left (see [`super::simd`]; the last value is searched for alone by compares);
//!   where the values have 8 bits, or 9 with bit 8 in the mask, the pass reads their
//!   low bytes, 64 pairs a step with AVX-512, 32 with AVX2 (`Search::search_bytes`);
//! - one candidate at a time (with the scalar kernel, or with values too large for the
//!   one-pass sets): a short scalar run, then a vectorisable search for `c`; on a hit
//!   `c` is excluded and the next candidate checked. The pairs before a hit are looked
//!   at again for each candidate, so where a heap's search looks at many pairs
//!   (Officers: 12,800 in 19 searches) the block's rows also hold each heap's pairs
//!   `(a, m - a)`, `64 <= a < 1024`, recorded once (see [`Block`]).
//!
//! With more than one thread, a second thread fills the next block's rows while the
//! current block is valued (module `ahead`).
//!
//! Moves removing an even number `j` see `m` of the heap's own parity, so a common heap
//! must have odd parity (`q = 1`) for its own value to need no search. Moves removing an
//! odd number see `m` of the other parity: with a mask using the position bit the common
//! heaps are then the *even* ones (`q = 0`; this is what makes 0.106 sparse). Each parity
//! class of moves keeps its own mask and `q`.
//! Masks are chosen automatically: a Walsh-Hadamard transform of the histogram of
//! extended values gives, for every mask at once, how many heaps would be rare; the best
//! mask is kept while it pays and re-chosen when the number of heaps doubles or the rare
//! list doubles. When no mask makes fewer than a quarter of the heaps rare, the class is
//! computed plainly. The method changes only the speed, never the values: tests compare
//! it with the plain mex on every heap.
//!
//! # Runs of moves
//!
//! A class without a mask, and the moves leaving three heaps, gather the options of
//! moves removing consecutive numbers of tokens (`0.777...7`) through sliding windows,
//! a run at the cost of about one move (module `runs`). A run's many moves can make a
//! mask cost more than that (each searching for a value no pair reaches): the pairs
//! looked at under the masks are weighed against what the windows would look at, and
//! the masks are given up until they are next chosen when they lose.

use crate::rules::HeapRule;
use crate::rules::octal::{LEAVE_NONE, LEAVE_ONE, LEAVE_THREE, LEAVE_TWO};

use smallvec::SmallVec;

use super::OutOfMemory;
use super::runs::MoveRuns;
use super::simd::{self, Isa, TARGET_LIMIT, TargetSet};
use super::storage::{LowMirror, MIRROR_WINDOW, Mirror, Reversed, StoredValue};

use std::borrow::Cow;

mod ahead;
pub(crate) mod append_only;
mod block;
mod options;
mod search;

pub(crate) use ahead::{RowsAhead, with_helper};
pub(crate) use block::option_rows_bytes;
use block::*;
use options::*;
pub(crate) use search::SearchMode;
use search::*;

/// Numbers of tokens a move may remove: a finite list or everything but a finite list.
#[derive(Debug, Clone)]
enum Tokens {
    Listed(Vec<usize>),
    AllExcept(Vec<usize>),
}

impl Tokens {
    fn contains(&self, tokens: usize) -> bool {
        match self {
            Self::Listed(list) => list.binary_search(&tokens).is_ok(),
            Self::AllExcept(list) => tokens >= 1 && list.binary_search(&tokens).is_err(),
        }
    }
}

/// The moves of a heap rule, arranged for computing.
#[derive(Debug, Clone)]
struct MoveTable {
    /// Removing `j` tokens may leave nothing (only from a heap of exactly `j`).
    leave_none: Tokens,
    /// Removing `j` tokens may leave one heap.
    leave_one: Tokens,
    /// Numbers removed by moves leaving two heaps, split by parity (index `j % 2`).
    leave_two: [Vec<usize>; 2],
    /// Numbers removed by moves leaving three heaps.
    leave_three: Vec<usize>,
    /// The two heaps left must differ in size (Grundy's game).
    unequal_split: bool,
}

impl MoveTable {
    fn for_rule(rule: &HeapRule) -> Option<Self> {
        let empty = || Tokens::Listed(Vec::new());
        let mut table = Self {
            leave_none: empty(),
            leave_one: empty(),
            leave_two: [Vec::new(), Vec::new()],
            leave_three: Vec::new(),
            unequal_split: false,
        };
        match rule {
            HeapRule::TakeAndBreak(code) => {
                let (mut none, mut one) = (Vec::new(), Vec::new());
                for (j, &digit) in code.digits().iter().enumerate() {
                    if j > 0 && digit & LEAVE_NONE != 0 {
                        none.push(j);
                    }
                    if j > 0 && digit & LEAVE_ONE != 0 {
                        one.push(j);
                    }
                    if digit & LEAVE_TWO != 0 {
                        table.leave_two[j % 2].push(j);
                    }
                    if digit & LEAVE_THREE != 0 {
                        table.leave_three.push(j);
                    }
                }
                table.leave_none = Tokens::Listed(none);
                table.leave_one = Tokens::Listed(one);
            }
            HeapRule::Subtraction(set) => {
                let list: Vec<usize> = set.elements().iter().map(|&s| s as usize).collect();
                table.leave_none = Tokens::Listed(list.clone());
                table.leave_one = Tokens::Listed(list);
            }
            HeapRule::AllButSubtraction(game) => {
                let list: Vec<usize> = game.excluded().iter().map(|&s| s as usize).collect();
                table.leave_none = Tokens::AllExcept(list.clone());
                table.leave_one = Tokens::AllExcept(list);
            }
            HeapRule::GrundysGame => {
                table.leave_two[0].push(0);
                table.unequal_split = true;
            }
            HeapRule::LaskersNim => {
                table.leave_none = Tokens::AllExcept(Vec::new());
                table.leave_one = Tokens::AllExcept(Vec::new());
                table.leave_two[0].push(0);
            }
            HeapRule::RestNim => return None,
        }
        Some(table)
    }
}

/// Counters describing how the engine spent its time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EngineStats {
    /// Pairs of heaps looked at through the rare lists.
    pub rare_pairs: u64,
    /// Of those, the pairs whose values were gathered in bit sets in vector registers
    /// (the others were stored one byte each).
    pub register_pairs: u64,
    /// Pairs of heaps looked at by full scans and searches.
    pub scanned_pairs: u64,
    /// Of those, the pairs searched by their values' low bytes, 64 at a time.
    pub byte_pairs: u64,
    /// Searches over all pairs for one candidate value.
    pub candidate_searches: u64,
    /// Times the masks were chosen anew.
    pub mask_rebuilds: u64,
    /// Blocks of heaps whose rows a second thread filled ahead (see the `ahead` module).
    pub blocks_filled_ahead: u64,
    /// Pairs of heaps looked at to fill the windows of runs of two-heap moves (see the
    /// `runs` module).
    pub run_pairs: u64,
    /// 64-bit words of sets of two-heap values read for the moves leaving three heaps
    /// (one by one, or to fill the windows of their runs).
    pub three_heap_words: u64,
    /// Rare heaps currently listed, per parity class of splitting moves.
    pub rare_heaps: [usize; 2],
    /// Current masks per parity class (0 when the class is computed plainly).
    pub masks: [u32; 2],
}

/// The sparse-space state of one parity class of splitting moves.
#[derive(Debug, Clone, Default)]
struct SparseClass {
    /// `None`: compute this class plainly.
    mask: Option<u32>,
    /// Parity of `e(i) & mask` that makes heap `i` common.
    common_parity: bool,
    /// The rare heaps (at least 1), in increasing order.
    rare: Vec<u32>,
    /// The rare heaps `h` with `PREFIX_PAIRS < h < LOW_PREFIX` as a bit set: bit
    /// `i & 63` of word `i >> 6` for `h = PREFIX_PAIRS + 1 + i` (the pairs the byte
    /// search skips, 64 per step).
    rare_after_prefix: Vec<u64>,
    /// `reachable[m % 2]`: the values below 1024 that two common heaps summing to `m`
    /// can reach (those `v` with `2v + (m mod 2)` of even parity under the mask).
    reachable: [TargetSet; 2],
}

impl SparseClass {
    fn add_rare(&mut self, heap: usize) {
        self.rare.push(heap as u32);
        if (PREFIX_PAIRS + 1..LOW_PREFIX).contains(&heap) {
            let i = heap - PREFIX_PAIRS - 1;
            if self.rare_after_prefix.len() <= i >> 6 {
                self.rare_after_prefix.resize((i >> 6) + 1, 0);
            }
            self.rare_after_prefix[i >> 6] |= 1 << (i & 63);
        }
    }

    fn set_rare(&mut self, rare: Vec<u32>) {
        self.rare.clear();
        self.rare_after_prefix.clear();
        for heap in rare {
            self.add_rare(heap as usize);
        }
    }

    fn set_mask(&mut self, mask: u32, common_parity: bool) {
        self.mask = Some(mask);
        self.common_parity = common_parity;
        for (m_parity, set) in self.reachable.iter_mut().enumerate() {
            *set = [0; 16];
            for v in 0..TARGET_LIMIT {
                if !odd_parity(extended(v, m_parity) & mask) {
                    set[(v >> 6) as usize] |= 1 << (v & 63);
                }
            }
        }
    }
}

#[inline(always)]
fn odd_parity(x: u32) -> bool {
    x.count_ones() & 1 == 1
}

#[inline(always)]
fn extended(value: u32, heap: usize) -> u32 {
    (value << 1) | (heap as u32 & 1)
}

#[inline(always)]
fn insert_bit(set: &mut [u64], value: u32) {
    set[(value >> 6) as usize] |= 1u64 << (value & 63);
}

/// Makes room in `vec` for `total` elements in all, or says how large the allocation
/// that failed was.
fn reserve_total<T>(vec: &mut Vec<T>, total: usize) -> Result<(), OutOfMemory> {
    vec.try_reserve_exact(total.saturating_sub(vec.len()))
        .map_err(|_| OutOfMemory::of::<T>(total))
}

/// A bit set of `words` zero words, or the allocation that failed.
fn zeroed(words: usize) -> Result<Vec<u64>, OutOfMemory> {
    let mut set = Vec::new();
    reserve_total(&mut set, words)?;
    set.resize(words, 0);
    Ok(set)
}

fn bit_set_mex(options: &[u64]) -> u32 {
    for (i, &word) in options.iter().enumerate() {
        if word != u64::MAX {
            return (i as u32) * 64 + (!word).trailing_zeros();
        }
    }
    options.len() as u32 * 64
}

/// `len` ones; for the usual few moves without a call (`SmallVec::from_elem` is not
/// always inlined, and this runs for every heap).
#[inline(always)]
fn ones(len: usize) -> SmallVec<[usize; 4]> {
    if len <= 4 {
        SmallVec::from_buf_and_len([1; 4], len)
    } else {
        smallvec::smallvec![1; len]
    }
}

/// The engine for every rule described by a [`MoveTable`].
#[derive(Debug, Clone)]
pub(crate) struct TableEngine {
    table: MoveTable,
    classes: [SparseClass; 2],
    /// Histogram of extended values of heaps from 1 on (kept only to choose masks).
    extended_counts: Vec<u64>,
    /// Room for the Walsh-Hadamard transform of `extended_counts` (see `rebuild`),
    /// reserved with it so that choosing masks never allocates.
    transform: Vec<i64>,
    /// Every value so far is below `1 << value_bits`.
    value_bits: u32,
    /// The option sets of the current block of heaps.
    block: Block,
    /// Counts the rebuilds of the rare lists (a block prepared before is stale).
    generation: u64,
    /// The kernel computing (see [`simd`]).
    isa: Isa,
    /// How the common pairs are searched.
    search: SearchMode,
    /// For rules leaving three heaps: `two_heap_values[m]` = values of the splits of `m`.
    two_heap_values: Vec<Vec<u64>>,
    /// The two-heap moves of the classes without a mask, by runs (see the `runs`
    /// module): the moves in no run are computed one by one.
    two_heap_runs: MoveRuns,
    /// Those moves in no run, by class (`j % 2`).
    single_two: [Vec<usize>; 2],
    /// The three-heap moves, by runs.
    three_heap_runs: MoveRuns,
    /// The work per heap of the two-heap moves when no class has a mask, counted in
    /// moves (see [`MoveRuns::work`]); `None` when no run of moves makes it less than
    /// the moves themselves (then masks are never weighed against windows).
    window_work: Option<usize>,
    /// Since the masks were last chosen: the first heap, and the pairs looked at
    /// before it (see [`Self::masks_cost_more`]).
    masks_since: (usize, u64),
    /// No mask is chosen before this heap: masks cost more than windows would.
    masks_barred_until: usize,
    next_rebuild: usize,
    rare_at_rebuild: [usize; 2],
    stats: EngineStats,
    /// The last values in reverse order (see [`Mirror`]), for forward vector searches.
    mirror: Mirror,
    /// The low bytes of the mirror's values and of the first [`LOW_PREFIX`] values.
    low_mirror: LowMirror,
    low_prefix: Vec<u8>,
    /// Values the mirror keeps at least ([`MIRROR_WINDOW`]; smaller in tests).
    mirror_window: usize,
    /// For all-but takes: the values of heaps `1..n` as a bit set, with counts.
    present: Vec<u64>,
    value_counts: Vec<u32>,
    /// The rule only takes, by an all-but set: a faster mex applies.
    only_takes_all_but: bool,
    /// The values of the heaps are counted by value (`present`, `value_counts`): for
    /// moves leaving one heap by an all-but set.
    counts_values: bool,
    /// Masks are chosen (`extended_counts`, `rebuild`): sparse space with moves leaving
    /// two heaps.
    chooses_masks: bool,
    /// The smallest value from 1 on not in `present` is at least this.
    first_absent_above_zero: u32,
    /// Blocks hold each heap's first common pairs (see [`Self::prefix_to`]), as
    /// judged at the heap and scanned-pair count of `prefix_window`.
    prefix_on: bool,
    prefix_window: (usize, u64),
}

impl TableEngine {
    fn new(table: MoveTable, sparse_enabled: bool, isa: Isa) -> Self {
        let mut engine = Self {
            table,
            classes: Default::default(),
            extended_counts: Vec::new(),
            transform: Vec::new(),
            value_bits: 0,
            block: Block::default(),
            generation: 0,
            isa,
            search: SearchMode::for_isa(isa),
            two_heap_values: Vec::new(),
            two_heap_runs: MoveRuns::default(),
            single_two: Default::default(),
            three_heap_runs: MoveRuns::default(),
            window_work: None,
            masks_since: (0, 0),
            masks_barred_until: 0,
            next_rebuild: 64,
            rare_at_rebuild: [0; 2],
            stats: EngineStats::default(),
            mirror: Mirror::default(),
            mirror_window: MIRROR_WINDOW,
            low_mirror: LowMirror::default(),
            low_prefix: Vec::new(),
            present: Vec::new(),
            value_counts: Vec::new(),
            only_takes_all_but: false,
            counts_values: false,
            chooses_masks: false,
            first_absent_above_zero: 1,
            prefix_on: false,
            prefix_window: (0, 0),
        };
        engine.counts_values = matches!(engine.table.leave_one, Tokens::AllExcept(_));
        let splits_in_two = engine.table.leave_two.iter().any(|moves| !moves.is_empty());
        engine.chooses_masks = sparse_enabled && splits_in_two;
        engine.only_takes_all_but =
            engine.counts_values && !splits_in_two && engine.table.leave_three.is_empty();
        // The plain method (the reference) computes every move one by one.
        engine.three_heap_runs = if sparse_enabled {
            MoveRuns::plan(&engine.table.leave_three, 0)
        } else {
            MoveRuns::single(&engine.table.leave_three)
        };
        // Until masks are chosen, no class has one.
        engine.plan_two_heap_runs(0);
        let two_heap_moves = engine.table.leave_two.iter().map(Vec::len).sum::<usize>();
        engine.window_work = Some(engine.two_heap_runs.work())
            .filter(|&work| engine.two_heap_runs.any() && work < two_heap_moves);
        // A few bytes: the reservation cannot fail in practice.
        let _ = engine.reserve_tables(1);
        engine.resize_tables(1);
        engine
    }

    /// Reserves what the tables indexed by value need for values below `1 << bits`,
    /// changing nothing else: these are the engine's large tables once values are large
    /// (4 bytes per value for counts by value, 32 per value for choosing masks, one
    /// per value for the option rows).
    fn reserve_tables(&mut self, bits: u32) -> Result<(), OutOfMemory> {
        let values = 1usize << bits;
        if self.counts_values {
            reserve_total(&mut self.present, (values >> 6) + 1)?;
            reserve_total(&mut self.value_counts, values)?;
        }
        if self.chooses_masks {
            reserve_total(&mut self.extended_counts, 2 * values)?;
            reserve_total(&mut self.transform, 2 * values)?;
        }
        if !self.only_takes_all_but {
            let (width, len) = Block::shape(bits);
            reserve_total(&mut self.block.rows, width * len)?;
        }
        self.two_heap_runs.reserve(values)?;
        self.three_heap_runs.reserve(values)?;
        Ok(())
    }

    /// Sizes the tables indexed by value for values below `1 << bits`, within the room
    /// [`Self::reserve_tables`] made.
    fn resize_tables(&mut self, bits: u32) {
        self.value_bits = bits;
        let values = 1usize << bits;
        if self.counts_values {
            self.present.resize((values >> 6) + 1, 0);
            self.value_counts.resize(values, 0);
        }
        if self.chooses_masks {
            self.extended_counts.resize(2 * values, 0);
        }
        self.two_heap_runs.resize(values);
        self.three_heap_runs.resize(values);
    }

    /// Splits the two-heap moves of the classes without a mask into runs and single
    /// moves, the windows starting at heap `first_heap` (the next to compute). Kept as
    /// they are when nothing changes. The plain method, and Grundy's game (whose splits
    /// must be unequal), compute every move one by one.
    fn plan_two_heap_runs(&mut self, first_heap: usize) {
        let mut moves: Vec<usize> = (0..2)
            .filter(|&parity| self.classes[parity].mask.is_none())
            .flat_map(|parity| self.table.leave_two[parity].iter().copied())
            .collect();
        moves.sort_unstable();
        let plan = if self.chooses_masks && !self.table.unequal_split {
            MoveRuns::plan(&moves, first_heap)
        } else {
            MoveRuns::single(&moves)
        };
        if plan.same_runs(&self.two_heap_runs)
            && plan.single_moves() == self.two_heap_runs.single_moves()
        {
            return;
        }
        self.two_heap_runs = plan.make_room(1 << self.value_bits);
        self.single_two = [0, 1].map(|parity| {
            self.two_heap_runs
                .single_moves()
                .iter()
                .copied()
                .filter(|&j| j % 2 == parity)
                .collect()
        });
    }

    /// How far the rows of a block hold each heap's common pairs (see [`Block`]):
    /// with the search one candidate at a time, which would look at them again for
    /// each candidate ([`PREFIX_TO`]); none with the one-pass search, which
    /// records its first pairs itself.
    ///
    /// Only while the search looks at more than four times as many pairs per heap
    /// (Officers: 12,800 without the prefix), judged over the last 256 heaps or more
    /// before heap `n`: else recording them costs more than it saves (0.16: 160).
    fn prefix_to(&mut self, n: usize) -> usize {
        if self.search != SearchMode::Candidates {
            return 0;
        }
        let (since, scanned) = self.prefix_window;
        if n >= since + 256 {
            let per_heap = (self.stats.scanned_pairs - scanned) / (n - since) as u64;
            self.prefix_on = per_heap > 4 * PREFIX_TO as u64;
            self.prefix_window = (n, self.stats.scanned_pairs);
        }
        if self.prefix_on { PREFIX_TO } else { 0 }
    }

    /// The value of heap `g.len()` with the blocks filled ahead by `ahead`'s thread.
    #[inline(always)]
    pub(crate) fn step_ahead<T: StoredValue>(&mut self, g: &[T], ahead: &mut RowsAhead) -> u32 {
        self.step(g, Some(ahead))
    }

    /// Prepares the block of heaps starting at heap `g.len()` (see [`Block`]).
    fn prepare_block<T: StoredValue>(&mut self, g: &[T]) {
        let prefix_to = self.prefix_to(g.len());
        let filling = BlockFilling {
            leave_two: &self.table.leave_two,
            unequal_split: self.table.unequal_split,
            classes: &self.classes,
            value_bits: self.value_bits,
            generation: self.generation,
            isa: self.isa,
            prefix_to,
        };
        let filled = filling.fill(&mut self.block, g, g.len(), BLOCK);
        self.stats.register_pairs += filled.register_pairs;
        self.stats.scanned_pairs += filled.prefix_pairs;
    }

    /// The value of heap `n = g.len()`, given the values of all smaller heaps: the mex of
    /// its options, gathered in the phases the module documentation describes.
    ///
    /// 1. The options that leave no heap, one heap or three heaps, all of them.
    /// 2. The pairs of the two-heap moves that contain a rare heap (every pair, for a
    ///    class without a mask); most were put in the block's rows beforehand.
    /// 3. The pairs of two common heaps, only as far as they can change the mex: all
    ///    wanted values in one pass ([`Search`]) where that applies, else one candidate
    ///    value at a time.
    ///
    /// With `ahead`, the blocks are filled ahead by a second thread (see [`ahead`]).
    #[inline(always)]
    fn step<T: StoredValue>(&mut self, g: &[T], ahead: Option<&mut RowsAhead>) -> u32 {
        if self.only_takes_all_but {
            return self.step_all_but(g);
        }
        let n = g.len();
        if !self.block.holds(n, self.value_bits, self.generation) {
            match ahead {
                Some(ahead) => ahead.next_block(self, g),
                None => self.prepare_block(g),
            }
        }
        let Self {
            table,
            classes,
            block,
            stats,
            present,
            value_counts,
            two_heap_values,
            two_heap_runs,
            single_two,
            three_heap_runs,
            value_bits,
            mirror,
            search,
            low_mirror,
            low_prefix,
            isa,
            ..
        } = self;
        let (mut row, covered, prefix_to) = block.row(n, *isa);
        let options = &mut row;
        insert_non_splitting_options(table, present, value_counts, g, options);
        insert_three_heap_options(
            three_heap_runs.single_moves(),
            two_heap_values,
            &mut stats.three_heap_words,
            g,
            options,
        );
        insert_unsearched_pairs(table, classes, single_two, covered, stats, g, options);
        insert_run_options(
            [two_heap_runs, three_heap_runs],
            classes,
            n,
            1 << *value_bits,
            options,
        );
        let mirror = T::mirror_of(mirror);
        if *search == SearchMode::OnePass
            && let Some(mirror) = mirror
            && one_pass_applies(classes, *value_bits, g)
        {
            let search = Search {
                table,
                classes,
                stats: &mut *stats,
                g,
                mirror,
                low_prefix,
                low_mirror: low_mirror.reversed(),
                isa: *isa,
            };
            if let Some(value) = search.value(n, options, *value_bits) {
                return value;
            }
        }
        let below_64 = *value_bits <= 6;
        mex_by_candidates(
            table, classes, stats, g, mirror, options, prefix_to, below_64,
        )
    }

    /// The value of heap `g.len()` for a rule that only takes, by an all-but set
    /// (Nim and all-but subtraction games): `O(|E|)` amortised per heap.
    fn step_all_but<T: StoredValue>(&mut self, g: &[T]) -> u32 {
        let n = g.len();
        let Tokens::AllExcept(excluded) = &self.table.leave_one else {
            unreachable!("checked at construction")
        };
        let zero_reached = self.table.leave_none.contains(n);
        let mut best = u32::MAX;
        for value in hidden_values(g, excluded, &self.value_counts) {
            if !(value == 0 && zero_reached) {
                best = best.min(value);
            }
        }
        // Both pointers only move up: `present` only grows.
        while contains_bit(&self.present, self.first_absent_above_zero) {
            self.first_absent_above_zero += 1;
        }
        let absent = if zero_reached || contains_bit(&self.present, 0) {
            self.first_absent_above_zero
        } else {
            0
        };
        best.min(absent)
    }

    /// Updates the state after the value of heap `g.len() - 1` was appended.
    ///
    /// # Errors
    /// [`OutOfMemory`] when the tables this value needs cannot be allocated; then
    /// nothing has changed (all large allocations come first), and the caller takes
    /// the value back.
    pub(crate) fn record<T: StoredValue>(&mut self, g: &[T]) -> Result<(), OutOfMemory> {
        self.record_tables(g)?;
        self.advance_runs(g);
        Ok(())
    }

    /// Takes into the windows of runs of moves the values they need for heap
    /// `g.len()`, the next to compute.
    fn advance_runs<T: StoredValue>(&mut self, g: &[T]) {
        let next = g.len();
        self.stats.run_pairs += self.two_heap_runs.advance(next, |m, last| {
            for a in 1..=m / 2 {
                last[(g[a] ^ g[m - a]).get() as usize] = m as u32;
            }
            (m / 2) as u64
        });
        let two_heap_values = &self.two_heap_values;
        self.stats.three_heap_words += self.three_heap_runs.advance(next, |rest, last| {
            let mut words_read = 0;
            for (a, first) in g.iter().enumerate().take(rest.saturating_sub(1)).skip(1) {
                let first = first.get();
                words_read += two_heap_values[rest - a].len() as u64;
                for (w, &word) in two_heap_values[rest - a].iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        let t = (w as u32) * 64 + bits.trailing_zeros();
                        bits &= bits - 1;
                        last[(t ^ first) as usize] = rest as u32;
                    }
                }
            }
            words_read
        });
    }

    /// [`Self::record`] for every table but the windows of runs of moves (which
    /// [`Self::advance_runs`] fills after it, once the masks and the runs are chosen).
    fn record_tables<T: StoredValue>(&mut self, g: &[T]) -> Result<(), OutOfMemory> {
        let n = g.len() - 1;
        let value = g[n].get();
        let wider = (value >= 1 << self.value_bits).then(|| 32 - value.leading_zeros());
        if let Some(bits) = wider {
            self.reserve_tables(bits)?;
        }
        let two_heap_values = if self.table.leave_three.is_empty() {
            None
        } else {
            let words = ((1usize << wider.unwrap_or(self.value_bits)) >> 6) + 1;
            self.two_heap_values
                .try_reserve(1)
                .map_err(|_| OutOfMemory::of::<Vec<u64>>(self.two_heap_values.len() + 1))?;
            Some(zeroed(words)?)
        };
        if self.chooses_masks {
            T::mirror_push(&mut self.mirror, g, self.mirror_window);
            if T::as_u16(g).is_some() {
                self.low_mirror.push(g, self.mirror_window);
                let prefix = g.len().min(LOW_PREFIX);
                if self.low_prefix.len() + 1 == prefix {
                    self.low_prefix.push(value as u8);
                } else if self.low_prefix.len() != prefix {
                    // The values just widened to 16 bits.
                    self.low_prefix = Vec::with_capacity(LOW_PREFIX);
                    self.low_prefix
                        .extend(g[..prefix].iter().map(|v| v.get() as u8));
                }
            }
        }
        if let Some(bits) = wider {
            self.resize_tables(bits);
            self.next_rebuild = self.next_rebuild.min(g.len());
        }
        if let Some(mut set) = two_heap_values {
            for a in 1..=n / 2 {
                insert_bit(&mut set, (g[a] ^ g[n - a]).get());
            }
            self.two_heap_values.push(set);
        }
        if n == 0 {
            return Ok(());
        }
        if self.counts_values {
            self.value_counts[value as usize] += 1;
            insert_bit(&mut self.present, value);
        }
        if !self.chooses_masks {
            return Ok(());
        }
        let e = extended(value, n);
        self.extended_counts[e as usize] += 1;
        for class in &mut self.classes {
            if let Some(mask) = class.mask
                && odd_parity(e & mask) != class.common_parity
            {
                class.add_rare(n);
            }
        }
        let rare_grew = (0..2).any(|p| {
            self.classes[p].mask.is_some()
                && self.classes[p].rare.len() > 2 * self.rare_at_rebuild[p] + 64
        });
        let masks_lose = self.masks_cost_more(g.len());
        if masks_lose {
            self.masks_barred_until = 2 * g.len();
        }
        if g.len() >= self.next_rebuild || rare_grew || masks_lose {
            self.rebuild(g);
        }
        Ok(())
    }

    /// The pairs looked at so far, by masks and rare lists and one by one.
    fn pairs_looked_at(&self) -> u64 {
        self.stats.scanned_pairs + self.stats.rare_pairs + self.stats.register_pairs
    }

    /// Whether the masks chosen last cost more than windows would, over the heaps
    /// computed since (up to `heaps`): long runs of moves (`0.777...7`) can have a mask
    /// with hardly any rare heap, and yet each of their many moves searched for a
    /// value no pair reaches. Windows look at about `window_work · m / 2` pairs per
    /// heap; past twice that (and a margin), the masks are given up until the next
    /// regular choice, which tries them again.
    fn masks_cost_more(&self, heaps: usize) -> bool {
        const MARGIN: u64 = 1 << 16;
        let Some(work) = self.window_work else {
            return false;
        };
        if self.classes.iter().all(|class| class.mask.is_none()) {
            return false;
        }
        let (first, before) = self.masks_since;
        let pairs = self.pairs_looked_at() - before;
        // Σ m / 2 over the heaps since, `m` up to the heap.
        let count = heaps.saturating_sub(first) as u64;
        let by_windows = work as u64 * count * (first + heaps) as u64 / 4;
        pairs > 2 * by_windows + MARGIN
    }

    /// Chooses the masks anew and rebuilds the rare lists.
    fn rebuild<T: StoredValue>(&mut self, g: &[T]) {
        self.stats.mask_rebuilds += 1;
        self.generation += 1;
        self.next_rebuild = 2 * g.len();
        self.masks_since = (g.len(), self.pairs_looked_at());
        let barred = g.len() < self.masks_barred_until;
        // rare(M) = (total + W(M)) / 2 where W is the Walsh-Hadamard transform (computed
        // in the room `reserve_tables` made).
        let transform = &mut self.transform;
        transform.clear();
        transform.extend(self.extended_counts.iter().map(|&c| c as i64));
        let size = transform.len();
        let mut half = 1;
        while half < size {
            for block in (0..size).step_by(2 * half) {
                for i in block..block + half {
                    let (x, y) = (transform[i], transform[i + half]);
                    transform[i] = x + y;
                    transform[i + half] = x - y;
                }
            }
            half *= 2;
        }
        let total = transform[0];
        let heaps = g.len() - 1;
        for parity in 0..2 {
            let class = &mut self.classes[parity];
            class.set_rare(Vec::new());
            class.mask = None;
            if self.table.leave_two[parity].is_empty() {
                continue;
            }
            // Common-common pairs reach only options whose extended value has even
            // parity, whatever parity the common heaps have; a heap of value `c` needs
            // no search when `2c + (m mod 2)` has odd parity. For moves removing an even
            // number that is the heap's own extended value, so common heaps are the odd
            // ones; for an odd number `m` and the heap differ in parity, so with a mask
            // using the position bit the common heaps are the even ones.
            let best = (1..size)
                .map(|mask| {
                    let common_parity = parity == 0 || mask & 1 == 0;
                    let rare = if common_parity {
                        total + transform[mask]
                    } else {
                        total - transform[mask]
                    } / 2;
                    (rare, mask as u32, common_parity)
                })
                .min();
            if let Some((rare, mask, common_parity)) = best
                && (rare as usize) * 4 <= heaps
                && !barred
            {
                class.set_mask(mask, common_parity);
                class.set_rare(
                    (1..g.len())
                        .filter(|&i| odd_parity(extended(g[i].get(), i) & mask) != common_parity)
                        .map(|i| i as u32)
                        .collect(),
                );
            }
            self.rare_at_rebuild[parity] = class.rare.len();
        }
        self.plan_two_heap_runs(g.len());
    }

    fn stats(&self) -> EngineStats {
        let mut stats = self.stats;
        for p in 0..2 {
            stats.rare_heaps[p] = self.classes[p].rare.len();
            stats.masks[p] = self.classes[p].mask.unwrap_or(0);
        }
        stats
    }
}

/// Rest Nim: a move leaves any partition of any `m < n`.
///
/// `reachable[m]` is the set of values of the partitions of `m`:
/// `{0}` for `m = 0`, else the union over the first part `a` of `G(a) xor reachable[m - a]`.
#[derive(Debug, Clone, Default)]
pub(crate) struct RestNimEngine {
    reachable: Vec<Vec<u64>>,
    union: Vec<u64>,
}

impl RestNimEngine {
    /// The value of heap `g.len()`: the mex of the values of the partitions of every
    /// smaller heap (their sets were made by [`Self::record`]).
    fn step<T: StoredValue>(&mut self, _: &[T]) -> u32 {
        let mut union = self.union.clone();
        union.push(0);
        bit_set_mex(&union)
    }

    /// Makes `reachable[m]` for the heap `m = g.len() - 1` just appended: the values of
    /// its partitions, the union over the first part `a` of `G(a) xor reachable[m - a]`.
    ///
    /// # Errors
    /// [`OutOfMemory`] when the set cannot be allocated; then nothing has changed.
    #[inline(never)]
    fn record<T: StoredValue>(&mut self, g: &[T]) -> Result<(), OutOfMemory> {
        let m = g.len() - 1;
        let width =
            ((g.iter().map(|v| v.get()).max().unwrap_or(0) as usize + 1).next_power_of_two() >> 6)
                + 1;
        self.reachable
            .try_reserve(1)
            .map_err(|_| OutOfMemory::of::<Vec<u64>>(self.reachable.len() + 1))?;
        reserve_total(&mut self.union, width)?;
        let mut set = zeroed(width)?;
        if m == 0 {
            insert_bit(&mut set, 0);
        }
        for (a, first) in g.iter().enumerate().take(m + 1).skip(1) {
            let first = first.get();
            for (w, &word) in self.reachable[m - a].iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let t = (w as u32) * 64 + bits.trailing_zeros();
                    bits &= bits - 1;
                    insert_bit(&mut set, t ^ first);
                }
            }
        }
        if self.union.len() < width {
            self.union.resize(width, 0);
        }
        for (u, s) in self.union.iter_mut().zip(&set) {
            *u |= s;
        }
        self.reachable.push(set);
        Ok(())
    }
}

/// One of the engines.
#[derive(Debug, Clone)]
pub(crate) enum Engine {
    Table(Box<TableEngine>),
    RestNim(RestNimEngine),
}

impl Engine {
    pub(crate) fn new(rule: &HeapRule, sparse: bool, isa: Isa) -> Self {
        match MoveTable::for_rule(rule) {
            Some(table) => Self::Table(Box::new(TableEngine::new(table, sparse, isa))),
            None => Self::RestNim(RestNimEngine::default()),
        }
    }

    /// Computes from now on with the kernel `isa` (and the search that suits it): the
    /// values stay the same.
    pub(crate) fn set_isa(&mut self, isa: Isa) {
        if let Self::Table(engine) = self {
            engine.isa = isa;
            engine.search = SearchMode::for_isa(isa);
        }
    }

    #[inline(always)]
    pub(crate) fn step<T: StoredValue>(&mut self, g: &[T]) -> u32 {
        match self {
            Self::Table(engine) => engine.step(g, None),
            Self::RestNim(engine) => engine.step(g),
        }
    }

    /// The engine with a helper thread for the run from `g.len()` to `end` values, when
    /// one pays (see [`ahead`]).
    pub(crate) fn helped(&mut self, done: usize, end: usize) -> Option<&mut TableEngine> {
        match self {
            Self::Table(engine) if ahead::pays(engine, done, end) => Some(engine),
            _ => None,
        }
    }

    /// Updates the state after the value of heap `g.len() - 1` was appended.
    ///
    /// # Errors
    /// [`OutOfMemory`] when the engine's tables cannot grow for this value; then the
    /// engine is as before, and the value must be taken back.
    #[inline]
    pub(crate) fn record<T: StoredValue>(&mut self, g: &[T]) -> Result<(), OutOfMemory> {
        match self {
            Self::Table(engine) => engine.record(g),
            Self::RestNim(engine) => engine.record(g),
        }
    }

    /// Chooses how the common pairs are searched (tests compare the modes, with each
    /// kernel).
    #[cfg(test)]
    pub(crate) fn set_search(&mut self, mode: SearchMode) {
        if let Self::Table(engine) = self {
            engine.search = mode;
        }
    }

    /// Bytes held by the mirror of the values and the low bytes (tests of the memory
    /// bound).
    #[cfg(test)]
    pub(crate) fn mirror_bytes(&self) -> usize {
        match self {
            Self::Table(engine) => {
                engine.mirror.allocated_bytes()
                    + engine.low_mirror.allocated_bytes()
                    + engine.low_prefix.capacity()
            }
            Self::RestNim(_) => 0,
        }
    }

    /// Keeps fewer values in the mirror, so that searches reach past it (tests).
    #[cfg(test)]
    pub(crate) fn set_mirror_window(&mut self, window: usize) {
        if let Self::Table(engine) = self {
            engine.mirror_window = window;
        }
    }

    pub(crate) fn stats(&self) -> EngineStats {
        match self {
            Self::Table(engine) => engine.stats(),
            Self::RestNim(_) => EngineStats::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values of heaps `0..count` by `engine`, recorded as they come.
    fn computed(engine: &mut Engine, count: usize) -> Vec<u32> {
        let mut g = Vec::new();
        for _ in 0..count {
            let value = engine.step(&g);
            g.push(value);
            engine.record(&g).unwrap();
        }
        g
    }

    /// The tables indexed by value are kept only where the rule uses them: an all-but
    /// rule (values growing with the heaps: 50005 at heap 10^5 for `all_but[15]`) keeps
    /// its counts of each value, 4 bytes a slot, but no histogram for choosing masks
    /// (32 bytes a slot: 662 MB at 3*10^7 heaps, when it was kept) and no option rows;
    /// Kayles keeps the histogram and the rows, and no counts.
    #[test]
    fn tables_by_value_are_kept_only_where_the_rule_uses_them() {
        let mut engine = Engine::new(&HeapRule::all_but([15]).unwrap(), true, Isa::Scalar);
        let g = computed(&mut engine, 100_000);
        assert_eq!(g[99_999], 50_004);
        let Engine::Table(all_but) = &engine else {
            panic!("all-but rules have a move table")
        };
        assert_eq!(all_but.value_counts.len(), 1 << 16);
        assert_eq!(all_but.extended_counts.capacity(), 0);
        assert_eq!(all_but.transform.capacity(), 0);
        assert_eq!(all_but.block.rows.capacity(), 0);
        let mut engine = Engine::new(&HeapRule::kayles(), true, Isa::Scalar);
        computed(&mut engine, 1000);
        let Engine::Table(kayles) = &engine else {
            panic!("Kayles has a move table")
        };
        assert_eq!(kayles.value_counts.capacity(), 0);
        assert_eq!(kayles.extended_counts.len(), 32);
        assert!(kayles.transform.capacity() >= 32);
        assert!(!kayles.block.rows.is_empty());
    }

    /// Rest Nim's sets of partition values are made as each value is recorded, so that
    /// an engine given values it did not compute (as when resuming) has them.
    #[test]
    fn rest_nim_rebuilds_its_sets_from_recorded_values() {
        let mut engine = Engine::new(&HeapRule::RestNim, false, Isa::Scalar);
        let g: Vec<u32> = (0..50).collect();
        for len in 1..=g.len() {
            engine.record(&g[..len]).unwrap();
        }
        assert_eq!(engine.step(&g), 50);
        let mut fresh = Engine::new(&HeapRule::RestNim, false, Isa::Scalar);
        assert_eq!(computed(&mut fresh, 60), (0..60).collect::<Vec<u32>>());
    }

    /// The bit 8 that `Marking::for_block` promises: for every pair of a rare heap `r`
    /// and a common heap `o = base + k - r`, `NinthBit::value` gives back `G(r) xor
    /// G(o)` from its low 8 bits. All 9-bit value pairs, masks with and without the
    /// heap's parity bit, both parities of common heaps and of `base`.
    #[test]
    fn the_ninth_bit_comes_back_from_the_parity() {
        let (r, last_rare) = (40usize, 41u32);
        let mut checked = 0;
        for mask in [
            0b10_1010_1010,
            0b11_1101_1100,
            0b10_0000_0001,
            0b11_0110_0111,
        ] {
            for common_parity in [false, true] {
                let mut class = SparseClass::default();
                class.set_mask(mask, common_parity);
                class.rare = vec![r as u32, last_rare];
                let rare_at = |heap: usize, value: u32| {
                    odd_parity(extended(value, heap) & mask) != common_parity
                };
                for base in [1000, 1001] {
                    let marking = Marking::for_block(&class, 9, base, &[r as u32], Isa::Avx512);
                    let Marking::Registers(Some(ninth)) = marking else {
                        panic!("mask {mask:#b}: {marking:?}");
                    };
                    for k in [0, 1, 2, 31] {
                        let o = base + k - r;
                        for own in (0..512).filter(|&v| rare_at(r, v)) {
                            for other in (0..512).filter(|&v| !rare_at(o, v)) {
                                let x = own ^ other;
                                assert_eq!(ninth.value((x & 255) as u8, k), x);
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 1_000_000);
    }

    #[test]
    fn stores_where_registers_cannot_name_the_values() {
        let mut class = SparseClass::default();
        class.set_mask(0b11_1101_1100, true);
        class.rare = vec![40, 900];
        let block = |class: &SparseClass, bits, base| {
            Marking::for_block(class, bits, base, &[40], Isa::Avx512)
        };
        // A rare heap (900) among the other halves: their value's bit 8 is not known.
        assert_eq!(block(&class, 9, 930), Marking::Stores);
        assert!(matches!(block(&class, 9, 941), Marking::Registers(Some(_))));
        // 8-bit values need no parity, rare other halves or not.
        assert_eq!(block(&class, 8, 930), Marking::Registers(None));
        // Values of 10 bits, or a mask without bit 8 of the values.
        assert_eq!(block(&class, 10, 2000), Marking::Stores);
        class.set_mask(0b01_1101_1100, true);
        assert_eq!(block(&class, 9, 2000), Marking::Stores);
        // Only the AVX-512 kernel has the registers.
        for isa in [Isa::Scalar, Isa::Avx2] {
            assert_eq!(
                Marking::for_block(&class, 8, 2000, &[40], isa),
                Marking::Stores
            );
        }
    }
}
