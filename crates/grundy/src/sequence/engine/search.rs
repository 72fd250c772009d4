//! The search of the pairs of common heaps for the least value no option
//! reaches: in one pass for all wanted values ([`Search`]), or one candidate at a
//! time ([`mex_by_candidates`]). The last stage of valuing a heap.

use super::*;
/// Pairs looked at one by one before a vectorised search.
pub(super) const SCALAR_RUN: usize = 32;

/// Pairs copied at a time when a search reaches further back than the mirror.
pub(super) const COPIED_PAIRS: usize = 4096;

/// The one-pass search records the first pairs of each move as options before it
/// searches the others.
pub(super) const PREFIX_PAIRS: usize = 256;

/// The one-pass search is used while some class lists at least this many rare heaps:
/// with fewer, few values are wanted and one candidate at a time is faster (0.16,
/// 0.106).
pub(super) const ONE_PASS_RARE: usize = 256;

#[inline(always)]
pub(super) fn contains_bit(options: &[u64], value: u32) -> bool {
    options
        .get((value >> 6) as usize)
        .is_some_and(|w| w >> (value & 63) & 1 == 1)
}

/// The first `a` in `from..=to` with `G(a) xor G(m - a) = target`, and how many pairs
/// were looked at. Written as chunked folds so that it vectorises.
pub(super) fn find_pair<T: StoredValue>(
    g: &[T],
    mirror: Option<Reversed<'_, T>>,
    m: usize,
    from: usize,
    to: usize,
    target: u32,
) -> (Option<usize>, u64) {
    if from > to {
        return (None, 0);
    }
    if u64::from(target) > cell_max::<T>() {
        // No pair of stored values reaches a value the cell type cannot hold.
        return (None, 0);
    }
    let target = T::narrow(target);
    const BLOCK: usize = 64;
    if let Some(right) = mirror.and_then(|mirror| mirror.run(m, from, to)) {
        // `G(m - a)` for increasing `a` is read forwards: both halves stream through
        // plain vector loads and compares.
        let left = &g[from..=to];
        let blocks = left.len() / BLOCK;
        for block in 0..blocks {
            let range = block * BLOCK..(block + 1) * BLOCK;
            let l: &[T; BLOCK] = left[range.clone()].try_into().expect("block length");
            let r: &[T; BLOCK] = right[range].try_into().expect("block length");
            let mut hit = false;
            for i in 0..BLOCK {
                hit |= (l[i] ^ r[i]) == target;
            }
            if hit {
                let offset = (0..BLOCK).position(|i| (l[i] ^ r[i]) == target);
                let scanned = (block as u64 + 1) * BLOCK as u64;
                return (offset.map(|o| from + block * BLOCK + o), scanned);
            }
        }
        let done = blocks * BLOCK;
        let scanned = left.len() as u64;
        for i in done..left.len() {
            if (left[i] ^ right[i]) == target {
                return (Some(from + i), (i + 1) as u64);
            }
        }
        return (None, scanned);
    }
    // Fixed-size blocks with constant indices: the compiler turns the block test into
    // vector compares (the reversed half becomes a shuffle).
    let left = &g[from..=to];
    let right = &g[m - to..=m - from];
    let blocks = left.len() / BLOCK;
    for block in 0..blocks {
        let l: &[T; BLOCK] = left[block * BLOCK..(block + 1) * BLOCK]
            .try_into()
            .expect("block length");
        let r_start = right.len() - (block + 1) * BLOCK;
        let r: &[T; BLOCK] = right[r_start..r_start + BLOCK]
            .try_into()
            .expect("block length");
        let mut hit = false;
        for i in 0..BLOCK {
            hit |= (l[i] ^ r[BLOCK - 1 - i]) == target;
        }
        if hit {
            let offset = (0..BLOCK).position(|i| (l[i] ^ r[BLOCK - 1 - i]) == target);
            let scanned = (block as u64 + 1) * BLOCK as u64;
            return (offset.map(|o| from + block * BLOCK + o), scanned);
        }
    }
    let done = blocks * BLOCK;
    let tail = left.len() - done;
    for i in 0..tail {
        if (left[done + i] ^ right[tail - 1 - i]) == target {
            return (Some(from + done + i), (done + i + 1) as u64);
        }
    }
    (None, left.len() as u64)
}

pub(super) fn cell_max<T: StoredValue>() -> u64 {
    (1u64 << (8 * std::mem::size_of::<T>())) - 1
}

/// How [`TableEngine::step`] searches the pairs of two common heaps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SearchMode {
    /// One candidate value at a time: a short scalar run, then a search for the
    /// candidate alone (vectorised by the compiler), the next candidate on a hit.
    Candidates,
    /// All wanted values in one pass ([`Search`]), by the engine's kernel (its
    /// portable loop with the scalar kernel). Used while every value is below
    /// [`TARGET_LIMIT`] and held in 8 or 16 bits; [`Self::Candidates`] beyond.
    OnePass,
}

impl SearchMode {
    /// The mode for a kernel: the one-pass search with vector instructions,
    /// candidates one at a time with the scalar kernel (the one-pass search is only
    /// faster with vectors). Tests choose a mode through the sequence options'
    /// `with_search`.
    pub(crate) fn for_isa(isa: Isa) -> Self {
        match isa {
            Isa::Scalar => Self::Candidates,
            Isa::Avx2 | Isa::Avx512 => Self::OnePass,
        }
    }
}

/// The search of the common pairs of one heap, all wanted values at once (see
/// [`simd`]): the alternative to the candidate-by-candidate search of
/// [`TableEngine::step`], for values below [`TARGET_LIMIT`] held in 8 or 16 bits.
pub(super) struct Search<'a, T> {
    pub(super) table: &'a MoveTable,
    pub(super) classes: &'a [SparseClass; 2],
    pub(super) stats: &'a mut EngineStats,
    pub(super) g: &'a [T],
    /// The last values in reverse order (see [`Mirror`]).
    pub(super) mirror: Reversed<'a, T>,
    /// The low bytes of the first values and of the mirror, for 9-bit values.
    pub(super) low_prefix: &'a [u8],
    pub(super) low_mirror: Reversed<'a, u8>,
    /// The kernel searching (the scalar one runs the portable loops).
    pub(super) isa: Isa,
}

impl<'a, T: StoredValue> Search<'a, T> {
    /// Up to where the pairs `(a, m - a)` from `a = from` on are read at once (at most
    /// `to`), and `G(m - a)` for those `a` in order: from the mirror when it holds
    /// them, else copied from the values (a search reaching that far back is rare).
    pub(super) fn others(&self, m: usize, from: usize, to: usize) -> (usize, Cow<'a, [T]>) {
        let reach = self.mirror.reach(m);
        let to = if from <= reach {
            to.min(reach)
        } else {
            to.min(from + COPIED_PAIRS - 1)
        };
        let others = match self.mirror.run(m, from, to) {
            Some(run) => Cow::Borrowed(run),
            None => Cow::Owned((from..=to).map(|a| self.g[m - a]).collect()),
        };
        (to, others)
    }

    /// [`Self::search_move`] by bytes, 64 or 32 pairs a step ([`simd::scan_codes`]), over the
    /// pairs from `a = from` on as far as the bytes reach; returns where it stopped, or
    /// `None` when it does not apply. The bytes are the values when these have 8 bits.
    /// With 9 bits and bit 8 in the class's mask, two common heaps give a value whose
    /// parity under the mask is known (see the module doc), which gives bit 8 back
    /// from the low bytes; pairs with a rare heap are skipped (none of their values is
    /// wanted but those of two rare heaps, which the rare lists recorded), on the left
    /// by the rare heaps' bit set, on the right by asking that none be rare.
    pub(super) fn search_bytes(
        &mut self,
        parity: usize,
        m: usize,
        from: usize,
        half: usize,
        bits: u32,
        wanted: &mut TargetSet,
    ) -> Option<usize> {
        let class = &self.classes[parity];
        let mask = class.mask?;
        if self.isa == Isa::Scalar || from > half || bits > 9 {
            return None;
        }
        let (left, right, skip, ninth) = if let Some(g) = T::as_u8(self.g) {
            let to = half.min(self.mirror.reach(m));
            let right = T::as_u8(self.mirror.run(m, from, to)?)?;
            (g.get(from..=to)?, right, &[][..], None)
        } else {
            let value_mask = mask >> 1;
            if bits != 9 || value_mask >> 8 & 1 == 0 {
                return None;
            }
            let to = half
                .min(self.low_mirror.reach(m))
                .min(self.low_prefix.len().checked_sub(1)?);
            let last_rare = class.rare.last().map_or(0, |&r| r as usize);
            // The skipped pairs are counted from heap `PREFIX_PAIRS + 1` on.
            if from != PREFIX_PAIRS + 1 || from > to || m - to <= last_rare {
                return None;
            }
            let right = self.low_mirror.run(m, from, to)?;
            let ninth = simd::NinthBit {
                low_mask: (value_mask & 0xFF) as u8,
                lanes: m as u32 & mask & 1,
            };
            let skip = &class.rare_after_prefix[..];
            (&self.low_prefix[from..=to], right, skip, Some(ninth))
        };
        // Every wanted value is below 512 and named by its low byte: values `v` and
        // `v + 256` are never both wanted.
        let mut codes: simd::CodeSet = [0; 4];
        for (q, code) in codes.iter_mut().enumerate() {
            *code = wanted[q] | wanted[q + 4];
            debug_assert_eq!(wanted[q] & wanted[q + 4], 0);
        }
        let looked = simd::scan_codes(left, right, skip, &mut codes, self.isa)?;
        self.stats.scanned_pairs += looked as u64;
        self.stats.byte_pairs += looked as u64;
        let high = match ninth {
            Some(ninth) => simd::high_codes(ninth.low_mask)[ninth.lanes as usize],
            None => [0; 4],
        };
        let mut still: TargetSet = [0; 16];
        for (q, &code) in codes.iter().enumerate() {
            still[q] = code & !high[q];
            still[q + 4] = code & high[q];
        }
        debug_assert!(still.iter().zip(wanted.iter()).all(|(s, w)| s & !w == 0));
        *wanted = still;
        Some(from + looked)
    }

    /// Takes out of `wanted` every value of a pair `(a, m - a)` with
    /// `PREFIX_PAIRS < a <= half`: one pass over the pairs while two or more values are
    /// wanted, plain compares for the last one.
    pub(super) fn search_move(
        &mut self,
        parity: usize,
        m: usize,
        half: usize,
        bits: u32,
        wanted: &mut TargetSet,
    ) {
        let mut from = PREFIX_PAIRS + 1;
        if let Some(next) = self.search_bytes(parity, m, from, half, bits, wanted) {
            from = next;
        }
        while from <= half && !simd::is_empty(wanted) {
            let (to, others) = self.others(m, from, half);
            let left = &self.g[from..=to];
            let looked = simd::scan(left, &others, wanted, self.isa);
            self.stats.scanned_pairs += looked as u64;
            if looked == left.len() {
                from = to + 1;
                continue;
            }
            // At most one value left (the scan stops there): compares find it faster,
            // or prove it absent, here and in the pairs after.
            let Some(last) = simd::first(wanted) else {
                return;
            };
            let (mut at, mut chunk_to, mut others) = (from + looked, to, others);
            loop {
                let offset = at - from;
                let (l, r) = (&self.g[at..=chunk_to], &others[offset..]);
                let found = if simd::find_applies(self.g, self.isa) {
                    simd::find(l, r, last, self.isa)
                } else {
                    l.iter()
                        .zip(r)
                        .position(|(&x, &y)| StoredValue::get(x ^ y) == last)
                };
                self.stats.scanned_pairs += found.map_or(l.len(), |i| i + 1) as u64;
                if found.is_some() {
                    *wanted = [0; 16];
                    return;
                }
                if chunk_to == half {
                    return;
                }
                from = chunk_to + 1;
                at = from;
                (chunk_to, others) = self.others(m, from, half);
            }
        }
    }

    /// The value of heap `n = g.len()`, every value being below `1 << bits`, given
    /// `options`: every option except the pairs of two common heaps of the classes with
    /// a mask.
    ///
    /// Let `u` be the least value that is not in `options` and that no class can reach
    /// with two common heaps: no option has value `u`, so the value is at most `u`. The
    /// values below `u` still missing from `options` are searched for in one pass over
    /// the pairs of each class that can reach them; each one found is an option, and
    /// the value is the least one never found (or `u`): the mex of all options.
    pub(super) fn value(mut self, n: usize, options: &mut Marks, bits: u32) -> Option<u32> {
        // Most often the mex is a value no two common heaps reach: it is the value.
        let mex = options.mex_from(0);
        let reachable_by = |parity: usize| {
            let class = &self.classes[parity];
            class.mask.is_some()
                && class.reachable[n.wrapping_sub(parity) & 1]
                    .get((mex >> 6) as usize)
                    .is_some_and(|word| word >> (mex & 63) & 1 == 1)
        };
        if !reachable_by(0) && !reachable_by(1) {
            return Some(mex);
        }
        let unequal = self.table.unequal_split;
        // The first pairs of each move are recorded as options outright (a byte store
        // each, no branch): they hold most of the wanted values, which the search
        // would otherwise meet one by one, each hit a mispredicted branch.
        for (parity, moves) in self.table.leave_two.iter().enumerate() {
            if self.classes[parity].mask.is_none() {
                continue;
            }
            for &j in moves {
                if j + 2 > n {
                    break;
                }
                let m = n - j;
                let half = if unequal { (m - 1) / 2 } else { m / 2 };
                let run = half.min(PREFIX_PAIRS);
                if run == 0 {
                    continue;
                }
                let (run, others) = self.others(m, 1, run);
                simd::mark_values(
                    options.marks,
                    bits,
                    options.stamp,
                    &self.g[1..=run],
                    &others,
                    self.isa,
                );
                self.stats.scanned_pairs += run as u64;
            }
        }
        let limit = 1usize << bits;
        let words = limit.div_ceil(64);
        let mut absent: TargetSet = [0; 16];
        simd::unmarked(options.marks, options.stamp, &mut absent[..words], self.isa);
        if limit < 64 {
            absent[0] &= (1u64 << limit) - 1;
        }
        // The rows were written directly: the word of the options below 64 follows.
        options.reread_low();
        let mut reachable: [TargetSet; 2] = [[0; 16]; 2];
        for (parity, class) in self.classes.iter().enumerate() {
            if class.mask.is_some() {
                reachable[parity] = class.reachable[n.wrapping_sub(parity) & 1];
            }
        }
        let mut unreached = absent;
        for (w, word) in unreached.iter_mut().enumerate().take(words) {
            *word &= !(reachable[0][w] | reachable[1][w]);
        }
        let bound = simd::first(&unreached).map_or(limit, |u| u as usize);
        // The wanted values: missing, reachable, below `bound`.
        let mut wanted = absent;
        for (w, word) in wanted.iter_mut().enumerate().take(words) {
            let start = w * 64;
            *word &= reachable[0][w] | reachable[1][w];
            if start >= bound {
                *word = 0;
            } else if bound - start < 64 {
                *word &= (1u64 << (bound - start)) - 1;
            }
        }
        let unequal = self.table.unequal_split;
        for (parity, moves) in self.table.leave_two.iter().enumerate() {
            if self.classes[parity].mask.is_none() {
                continue;
            }
            let mut class_wanted = wanted;
            for (word, reach) in class_wanted.iter_mut().zip(&reachable[parity]) {
                *word &= reach;
            }
            if simd::is_empty(&class_wanted) {
                continue;
            }
            self.stats.candidate_searches += 1;
            for &j in moves {
                if j + 2 > n {
                    break;
                }
                let m = n - j;
                let half = if unequal { (m - 1) / 2 } else { m / 2 };
                if half == 0 {
                    continue;
                }
                if half <= PREFIX_PAIRS {
                    continue;
                }
                let before = class_wanted;
                self.search_move(parity, m, half, bits, &mut class_wanted);
                for ((word, was), is) in wanted.iter_mut().zip(&before).zip(&class_wanted) {
                    *word &= !(was & !is);
                }
                if simd::is_empty(&class_wanted) {
                    break;
                }
            }
        }
        Some(simd::first(&wanted).map_or(bound, |v| (v as usize).min(bound)) as u32)
    }
}

/// Whether the common pairs are searched in one pass ([`Search`]): the values fit the
/// wanted sets (below [`TARGET_LIMIT`], stored in 8 or 16 bits), and some class lists
/// enough rare heaps ([`ONE_PASS_RARE`]) for many values to be wanted.
#[inline(always)]
pub(super) fn one_pass_applies<T: StoredValue>(
    classes: &[SparseClass; 2],
    value_bits: u32,
    g: &[T],
) -> bool {
    value_bits <= TARGET_LIMIT.trailing_zeros()
        && classes
            .iter()
            .any(|class| class.mask.is_some() && class.rare.len() >= ONE_PASS_RARE)
        && (T::as_u8(g).is_some() || T::as_u16(g).is_some())
}

/// The value of heap `n = g.len()`, given `options`: every option but the pairs of two
/// common heaps of the classes with a mask. Candidate values are tried from the mex of
/// `options` up: two common heaps reach only values `c` with `2c + (m mod 2)` of even
/// parity under the class's mask, so a candidate of the other parity needs no search;
/// otherwise a short scalar run over the next pairs, then a vectorised search for the
/// candidate alone, and on a hit the next candidate.
#[inline(always)]
#[allow(
    clippy::too_many_arguments,
    reason = "the parts of the engine the search reads"
)]
pub(super) fn mex_by_candidates<T: StoredValue>(
    table: &MoveTable,
    classes: &[SparseClass; 2],
    stats: &mut EngineStats,
    g: &[T],
    mirror: Option<Reversed<'_, T>>,
    options: &mut Marks,
    prefix_to: usize,
    below_64: bool,
) -> u32 {
    if classes.iter().all(|class| class.mask.is_none()) {
        // Every pair is in `options` already.
        return options.mex_from(0);
    }
    let n = g.len();
    let unequal = table.unequal_split;
    // `inserted[parity][i]`: pairs `a < inserted` of the i-th move of the class are in
    // `options`; the rest were at most searched for one candidate, and are searched
    // again whenever the candidate moves.
    let mut inserted: [SmallVec<[usize; 4]>; 2] = [
        ones(table.leave_two[0].len()),
        ones(table.leave_two[1].len()),
    ];
    if prefix_to > PREFIX_FROM {
        // The rows hold the pairs from `PREFIX_FROM` to `prefix_to`: those before
        // go in now, and the search starts after them.
        for (parity, class) in classes.iter().enumerate() {
            if class.mask.is_none() {
                continue;
            }
            for (index, &j) in table.leave_two[parity].iter().enumerate() {
                if j + 2 > n {
                    break;
                }
                let m = n - j;
                let half = if unequal { (m - 1) / 2 } else { m / 2 };
                for a in 1..PREFIX_FROM.min(half + 1) {
                    options.insert((g[a] ^ g[m - a]).get());
                }
                stats.scanned_pairs += PREFIX_FROM.min(half + 1) as u64 - 1;
                inserted[parity][index] = prefix_to.min(half + 1).max(PREFIX_FROM.min(half + 1));
            }
        }
    }
    let mut candidate = options.mex_from(0);
    // The candidate each class was last searched for without a hit.
    let mut cleared: [Option<u32>; 2] = [None, None];
    'candidate: loop {
        for parity in 0..2 {
            let Some(mask) = classes[parity].mask else {
                continue;
            };
            if cleared[parity] == Some(candidate)
                || odd_parity(extended(candidate, n.wrapping_sub(parity)) & mask)
            {
                continue;
            }
            stats.candidate_searches += 1;
            for (index, &j) in table.leave_two[parity].iter().enumerate() {
                if j + 2 > n {
                    break;
                }
                let m = n - j;
                let half = if unequal { (m - 1) / 2 } else { m / 2 };
                let from = &mut inserted[parity][index];
                if *from <= half {
                    // A short scalar run first: it usually excludes the candidate and
                    // the next few rare values.
                    let stop = half.min(*from + SCALAR_RUN - 1);
                    if below_64 {
                        // Every value is below 64: the run's values gathered as bits
                        // in a register, no store.
                        let mut values = 0u64;
                        for a in *from..=stop {
                            values |= 1 << ((g[a] ^ g[m - a]).get() & 63);
                        }
                        options.insert_below_64(values);
                    } else {
                        for a in *from..=stop {
                            options.insert((g[a] ^ g[m - a]).get());
                        }
                    }
                    stats.scanned_pairs += (stop + 1 - *from) as u64;
                    *from = stop + 1;
                    if options.contains(candidate) {
                        candidate = options.mex_from(candidate);
                        continue 'candidate;
                    }
                    let (hit, scanned) = find_pair(g, mirror, m, *from, half, candidate);
                    stats.scanned_pairs += scanned;
                    if hit.is_some() {
                        // Only the candidate is excluded; the pairs skipped by the search
                        // stay unrecorded and are searched again (vectorised) for the
                        // next candidate, far cheaper than recording them.
                        options.insert(candidate);
                        candidate = options.mex_from(candidate);
                        continue 'candidate;
                    }
                }
            }
            cleared[parity] = Some(candidate);
        }
        break;
    }
    candidate
}
