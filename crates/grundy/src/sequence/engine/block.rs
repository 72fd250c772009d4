//! The rows of options of a block of heaps: the pairs of rare heaps marked in
//! bytes or in vector registers, and the prefix of common pairs recorded once (see
//! [`Block`]). The first stage of valuing a block.

use super::*;
/// Heaps whose values' low bytes the engine keeps (the left halves of the byte search).
pub(super) const LOW_PREFIX: usize = 1 << 16;

/// Heaps whose option sets are prepared together (see [`Block`]).
pub(super) const BLOCK: usize = simd::MARK_LANES;

/// Rows wider than this (values of more than 12 bits) are kept one heap at a time.
pub(super) const WIDE_ROW: usize = 4096 + 64;

/// The option sets of a block of consecutive heaps `start..start + len`, one row of
/// bytes per heap: `rows[k * width + v] == stamp` when `v` is an option of heap
/// `start + k`. Plain stores (no read-modify-write chains as with a bit set) and no
/// clearing between blocks: each block has its own stamp.
///
/// When a block starts, the pairs of every rare heap `r` with `BLOCK <= r` and
/// `2r < start - j` are inserted for all its heaps at once: for such `r` the heaps
/// `start + k - j - r` are all known and consecutive, so `G(r)` is read once and the
/// other halves in one run. The other rare pairs (a few small `r`, the rare heaps found
/// since) are inserted heap by heap.
#[derive(Debug, Clone, Default)]
pub(super) struct Block {
    pub(super) rows: Vec<u8>,
    pub(super) width: usize,
    pub(super) len: usize,
    pub(super) stamp: u8,
    pub(super) start: usize,
    /// The `value_bits` and rare-list generation the rows were prepared for.
    pub(super) prepared_for: Option<(u32, u64)>,
    pub(super) covered: CoveredRare,
    /// The rows also hold the pairs `(a, m - a)` with `PREFIX_FROM <= a < prefix_to`
    /// (and `a` at most half of `m`) of every two-heap move of a class with a mask
    /// (0: none): a block filled ahead by a second thread (see [`ahead`]).
    pub(super) prefix_to: usize,
}

/// The first pair a block filled ahead holds of each heap's common pairs: the other
/// halves of the pairs from `2·BLOCK` on are known a block ahead.
pub(super) const PREFIX_FROM: usize = 2 * BLOCK;

/// How far the rows of a block hold each heap's common pairs, with the search one
/// candidate at a time (see [`TableEngine::prefix_to`]).
pub(super) const PREFIX_TO: usize = 1024;

/// Per parity class and move of a [`Block`]: its rows hold the pairs of the rare heaps
/// `rare[lo..hi]`.
pub(super) type CoveredRare = [SmallVec<[(usize, usize); 4]>; 2];

impl Block {
    /// The width of a row and the number of rows for values below `1 << bits`.
    pub(super) fn shape(bits: u32) -> (usize, usize) {
        let width = (1usize << bits).max(64) + 64;
        let len = if width > WIDE_ROW { 1 } else { BLOCK };
        (width, len)
    }

    /// Whether the rows hold the options of heap `n`, prepared for values below
    /// `1 << value_bits` and the rare lists of `generation`.
    #[inline]
    pub(super) fn holds(&self, n: usize, value_bits: u32, generation: u64) -> bool {
        self.prepared_for == Some((value_bits, generation))
            && n >= self.start
            && n < self.start + self.len
    }

    /// The options of heap `n`, a heap of the block, and which rare pairs the rows
    /// already hold (`covered`).
    #[inline]
    pub(super) fn row(&mut self, n: usize, isa: Isa) -> (Marks<'_>, &CoveredRare, usize) {
        let k = n - self.start;
        let options = Marks::new(
            &mut self.rows[k * self.width..(k + 1) * self.width],
            self.stamp,
            isa,
        );
        (options, &self.covered, self.prefix_to)
    }
}

/// Bytes of the option rows for values below `1 << bits` (for the cost model).
pub(crate) fn option_rows_bytes(bits: u32) -> usize {
    let (width, len) = Block::shape(bits);
    width * len
}

/// How the pairs of a block's rare heaps go into the rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Marking {
    /// One byte store per pair (scalar, or positions computed by vector).
    Stores,
    /// Bit sets in vector registers ([`simd::mark_pairs_in_registers`]), with bit 8
    /// of the values got back as said.
    Registers(Option<simd::NinthBit>),
}

impl Marking {
    /// The marking for the pairs `(r, base + k - r)` of the block, `r` in `rare` (all
    /// rare heaps of `class`): in registers when every value fits in 8 bits, or in 9
    /// bits with bit 8 in the mask and every other half common; then each value `x`
    /// has `2x + (m mod 2)` of odd parity under the mask (see the module doc), which
    /// gives bit 8 from the others. Only the AVX-512 kernel keeps sets in registers.
    pub(super) fn for_block(
        class: &SparseClass,
        bits: u32,
        base: usize,
        rare: &[u32],
        isa: Isa,
    ) -> Self {
        let (Some(mask), Some(&largest)) = (class.mask, rare.last()) else {
            return Self::Stores;
        };
        if !simd::marks_in_registers(isa) {
            return Self::Stores;
        }
        if bits <= 8 {
            return Self::Registers(None);
        }
        let value_mask = mask >> 1;
        let all_rare_below = class
            .rare
            .last()
            .is_none_or(|&last| (last as usize) < base - largest as usize);
        if bits != 9 || value_mask >> 8 & 1 == 0 || !all_rare_below {
            return Self::Stores;
        }
        // parity(x & value_mask) = 1 xor (m mod 2 when the mask uses the heap's parity),
        // with m = base + k.
        let lanes = (0..BLOCK).fold(0u32, |lanes, k| {
            let top = 1 ^ ((base + k) as u32 & mask & 1);
            lanes | top << k
        });
        Self::Registers(Some(simd::NinthBit {
            low_mask: (value_mask & 0xFF) as u8,
            lanes,
        }))
    }
}

/// What filling a [`Block`]'s rows needs to know of the engine: its two-heap moves, its
/// masks and rare lists, the width of its values and the rare lists' generation.
pub(super) struct BlockFilling<'a> {
    pub(super) leave_two: &'a [Vec<usize>; 2],
    /// The splits must be unequal (Grundy's game).
    pub(super) unequal_split: bool,
    pub(super) classes: &'a [SparseClass; 2],
    pub(super) value_bits: u32,
    pub(super) generation: u64,
    /// The kernel marking the pairs.
    pub(super) isa: Isa,
    /// Put each heap's common pairs up to this one in the rows too (see [`Block`]).
    pub(super) prefix_to: usize,
}

/// The pairs [`BlockFilling::fill`] marked: in vector registers, and of the prefix.
pub(super) struct Filled {
    pub(super) register_pairs: u64,
    pub(super) prefix_pairs: u64,
}

impl BlockFilling<'_> {
    /// Prepares `block` for the heaps from `start` on, from the values `g` known so far
    /// (`g.len() <= start`): the pairs of every rare heap `r` of a class with a mask,
    /// `first_rare <= r` and `2r < start - j`, go into its rows when the rows are
    /// `BLOCK` long; every other half `start + k - j - r` must be below `g.len()`,
    /// which `first_rare >= BLOCK + start - g.len()` ensures. Returns the pairs marked
    /// in registers.
    pub(super) fn fill<T: StoredValue>(
        &self,
        block: &mut Block,
        g: &[T],
        start: usize,
        first_rare: usize,
    ) -> Filled {
        debug_assert!(first_rare >= BLOCK + start - g.len());
        let mut register_pairs = 0;
        let (width, len) = Block::shape(self.value_bits);
        if block.width != width || block.len != len {
            block.width = width;
            block.len = len;
            block.rows.clear();
            block.rows.resize(width * len, 0);
            block.stamp = 0;
        }
        block.stamp = block.stamp.wrapping_add(1);
        if block.stamp == 0 {
            block.rows.fill(0);
            block.stamp = 1;
        }
        block.start = start;
        block.prepared_for = Some((self.value_bits, self.generation));
        for (parity, (class, moves)) in self.classes.iter().zip(self.leave_two).enumerate() {
            block.covered[parity].clear();
            for &j in moves {
                let (mut lo, mut hi) = (0, 0);
                if class.mask.is_some() && len == BLOCK && start > j {
                    // For heap `start + k` and move `j` the split is `m = start + k - j`;
                    // with `BLOCK <= r` and `2r < start - j`, `m - r` is known, exceeds
                    // `r` (so differs from it) and lies in `start - j - r + k`.
                    lo = class.rare.partition_point(|&r| (r as usize) < first_rare);
                    hi = class
                        .rare
                        .partition_point(|&r| 2 * (r as usize) < start - j)
                        .max(lo);
                    let rare = &class.rare[lo..hi];
                    let marking =
                        Marking::for_block(class, self.value_bits, start - j, rare, self.isa);
                    let base = start - j;
                    if insert_rare_pairs(block, self.value_bits, g, base, rare, marking, self.isa) {
                        register_pairs += (rare.len() * BLOCK) as u64;
                    }
                }
                block.covered[parity].push((lo, hi));
            }
        }
        block.prefix_to = 0;
        let mut prefix_pairs = 0;
        if self.prefix_to > PREFIX_FROM && len == BLOCK {
            debug_assert!(PREFIX_FROM >= BLOCK + start - g.len());
            prefix_pairs = self.fill_prefix(block, g, start);
            block.prefix_to = self.prefix_to;
        }
        Filled {
            register_pairs,
            prefix_pairs,
        }
    }

    /// Puts into the rows the pairs `(a, m - a)`, `PREFIX_FROM <= a < prefix_to` and
    /// `a` at most half of `m`, of each heap's two-heap moves of the classes with a
    /// mask (rare heaps or not: every pair is an option).
    pub(super) fn fill_prefix<T: StoredValue>(
        &self,
        block: &mut Block,
        g: &[T],
        start: usize,
    ) -> u64 {
        let prefix_to = self.prefix_to;
        let (width, stamp) = (block.width, block.stamp);
        let mut pairs = 0;
        for (class, moves) in self.classes.iter().zip(self.leave_two) {
            if class.mask.is_none() {
                continue;
            }
            for &j in moves {
                for (k, row) in block.rows.chunks_exact_mut(width).enumerate() {
                    let heap = start + k;
                    if j + 2 > heap {
                        continue;
                    }
                    let m = heap - j;
                    let half = if self.unequal_split {
                        (m - 1) / 2
                    } else {
                        m / 2
                    };
                    let to = prefix_to.min(half + 1);
                    if to <= PREFIX_FROM {
                        continue;
                    }
                    let left = &g[PREFIX_FROM..to];
                    let right = &g[m + 1 - to..=m - PREFIX_FROM];
                    for (&a, &b) in left.iter().zip(right.iter().rev()) {
                        row[(a ^ b).get() as usize] = stamp;
                    }
                    pairs += left.len() as u64;
                }
            }
        }
        pairs
    }
}

/// Inserts into the `BLOCK` rows of `block` the values `G(r) xor G(base + k - r)` for
/// each `r` of `rare` and `k < BLOCK`, every value being below `1 << bits`; every
/// `base + k - r` must be below `g.len()`. By the `marking` asked for with the kernel
/// `isa` where it applies, else by scalar stores. True when the pairs went through
/// registers.
pub(super) fn insert_rare_pairs<T: StoredValue>(
    block: &mut Block,
    bits: u32,
    g: &[T],
    base: usize,
    rare: &[u32],
    marking: Marking,
    isa: Isa,
) -> bool {
    let (width, stamp) = (block.width, block.stamp);
    let rows = &mut block.rows;
    match marking {
        Marking::Registers(ninth) => {
            if simd::mark_pairs_in_registers(rows, width, stamp, g, base, rare, ninth, isa) {
                return true;
            }
        }
        Marking::Stores => {
            if simd::mark_pairs(rows, width, bits, stamp, g, base, rare, isa) {
                return false;
            }
        }
    }
    let mut chunks = rows.chunks_exact_mut(width);
    let mut rows: [&mut [u8]; BLOCK] =
        std::array::from_fn(|_| chunks.next().expect("the block has BLOCK rows"));
    for &r in rare {
        let r = r as usize;
        let value = g[r];
        let others: &[T; BLOCK] = g[base - r..base - r + BLOCK]
            .try_into()
            .expect("block length");
        for (row, &other) in rows.iter_mut().zip(others) {
            row[(value ^ other).get() as usize] = stamp;
        }
    }
    false
}

/// The option set of one heap, borrowed as a plain slice (see [`Block`]), with its
/// options below 64 also kept as the bits of a word, `low`. The mex is read from that
/// word first: a wide load of bytes stored just before waits until the stores are
/// written (no store forwards to a load spanning several), and a heap's own options
/// are stored just before its mex is looked for. The options below 64 are those of
/// `low` ([`Marks::insert_below_64`] puts them there alone); a writer of `marks`
/// other than [`Marks::insert`] and [`Marks::remove`] calls [`Marks::reread_low`]
/// after it. Rows are at least 128 bytes wide.
#[derive(Debug)]
pub(super) struct Marks<'a> {
    pub(super) marks: &'a mut [u8],
    pub(super) stamp: u8,
    low: u64,
    isa: Isa,
}

impl<'a> Marks<'a> {
    /// The set `marks`, `stamp` marking its options, read by the kernel `isa`.
    #[inline(always)]
    pub(super) fn new(marks: &'a mut [u8], stamp: u8, isa: Isa) -> Self {
        debug_assert!(marks.len() >= 64);
        let mut options = Self {
            marks,
            stamp,
            low: 0,
            isa,
        };
        options.reread_low();
        options
    }
}

impl Marks<'_> {
    /// Takes into `low` the options below 64 written to `marks` directly.
    #[inline(always)]
    pub(super) fn reread_low(&mut self) {
        let mut out = [u64::MAX];
        simd::unmarked(self.marks, self.stamp, &mut out, self.isa);
        self.low |= !out[0];
    }

    /// Inserts the values of the bits of `values`, all below 64, into `low` alone.
    #[inline(always)]
    pub(super) fn insert_below_64(&mut self, values: u64) {
        self.low |= values;
    }

    #[inline(always)]
    pub(super) fn insert(&mut self, value: u32) {
        self.low |= u64::from(value < 64) << (value & 63);
        self.marks[value as usize] = self.stamp;
    }

    #[inline(always)]
    pub(super) fn remove(&mut self, value: u32) {
        self.low &= !(u64::from(value < 64) << (value & 63));
        self.marks[value as usize] = 0;
    }

    #[inline(always)]
    pub(super) fn contains(&self, value: u32) -> bool {
        if value < 64 {
            return self.low >> value & 1 == 1;
        }
        self.marks.get(value as usize) == Some(&self.stamp)
    }

    /// The smallest value from `from` on that is not an option (the mex when every
    /// value below `from` is known to be one).
    #[inline(always)]
    pub(super) fn mex_from(&self, from: u32) -> u32 {
        let mut from = from;
        if from < 64 {
            let free = !self.low & (u64::MAX << from);
            if free != 0 {
                return free.trailing_zeros();
            }
            from = 64;
        }
        let stamp = self.stamp;
        let rest = &self.marks[from as usize..];
        // Eight marks at a time: the first byte differing from the stamp is the first
        // nonzero byte of the xor (little-endian: its trailing zeros / 8).
        let stamps = u64::from(stamp) * 0x0101_0101_0101_0101;
        let mut chunks = rest.chunks_exact(8);
        for (i, chunk) in chunks.by_ref().enumerate() {
            let x = u64::from_le_bytes(chunk.try_into().expect("8 bytes")) ^ stamps;
            if x != 0 {
                return from + (8 * i) as u32 + x.trailing_zeros() / 8;
            }
        }
        let done = rest.len() - chunks.remainder().len();
        match chunks.remainder().iter().position(|&mark| mark != stamp) {
            Some(offset) => from + (done + offset) as u32,
            None => self.marks.len() as u32,
        }
    }
}
