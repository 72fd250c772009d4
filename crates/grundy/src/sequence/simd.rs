//! The multi-target search over the splits of a heap: one pass over the pairs
//! `(a, m - a)` that looks for every wanted value at once.
//!
//! A pair's value is `x = G(a) xor G(m - a)`; the wanted values are a bit set of values
//! below 1024 ([`TargetSet`]). Each value met that is still wanted is taken out of the
//! set, and the search stops as soon as the set is empty (or the pairs run out).
//!
//! On x86-64 with AVX-512 (F, BW, VL, VBMI2; detected at run time) 32 pairs are looked
//! at per step: the bit set sits in one vector register (two from value 512 on),
//! `vpermw` (`vpermt2w`) picks the 16-bit word of each lane's value (`x >> 4`) and a
//! variable shift by `x & 15` tests its bit. The values that hit are packed into a
//! buffer without branching and taken out of the set every few steps. Elsewhere, and
//! when asked to, a portable scalar loop keeps the same promise. [`scan_codes`] does
//! the same on bytes, 64 pairs a step (with VBMI and BITALG too).

use super::storage::StoredValue;

/// A set of values below 1024: bit `v & 63` of word `v >> 6` is set when `v` is in it.
pub(crate) type TargetSet = [u64; 16];

/// Values a [`TargetSet`] can hold.
pub(crate) const TARGET_LIMIT: u32 = 1024;

/// True when the vector search runs on this machine.
pub(crate) fn available() -> bool {
    x86::available()
}

/// Looks at the pairs `(left[i], right[i])` in order and takes each value
/// `left[i] xor right[i]` found in `targets` out of it; may stop once at most one value
/// is left in `targets` (the portable loop does: a single value is searched faster by
/// plain compares; the vector search goes on until none is left). Returns how many
/// pairs were looked at: the values left are in none of them (the vector search counts
/// whole steps of 32).
///
/// Every value in `left` and `right` must be below [`TARGET_LIMIT`]. With `vector`
/// false, or on a machine without AVX-512, the portable loop runs.
pub(crate) fn scan<T: StoredValue>(
    left: &[T],
    right: &[T],
    targets: &mut TargetSet,
    vector: bool,
) -> usize {
    #[cfg(target_arch = "x86_64")]
    if vector && x86::available() {
        if let (Some(l), Some(r)) = (T::as_u16(left), T::as_u16(right)) {
            return x86::scan(l, r, targets);
        }
        if let (Some(l), Some(r)) = (T::as_u8(left), T::as_u8(right)) {
            return x86::scan(l, r, targets);
        }
    }
    let _ = vector;
    scan_portable(left, right, targets)
}

/// A set of byte values (codes below 256): bit `c & 63` of word `c >> 6`.
pub(crate) type CodeSet = [u64; 4];

/// [`scan`] over bytes, 64 pairs per step: takes out of `targets` each code
/// `left[i] xor right[i]` met, leaving out pair `i` when bit `i % 64` of `skip[i / 64]`
/// is set (words past the end of `skip` skip nothing); may stop once at most one code
/// is left. Returns how many pairs were looked at (whole steps), or `None` (nothing
/// done) when the vector version does not apply: no AVX-512 with VBMI, VBMI2 and
/// BITALG. The caller then uses [`scan`].
pub(crate) fn scan_codes(
    left: &[u8],
    right: &[u8],
    skip: &[u64],
    targets: &mut CodeSet,
) -> Option<usize> {
    if !codes_available() {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    return Some(x86::scan_codes(left, right, skip, targets));
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (left, right, skip, targets);
        None
    }
}

/// True when [`scan_codes`] runs on this machine.
pub(crate) fn codes_available() -> bool {
    x86::codes_available()
}

/// The vector paths a test compares with the portable ones, by what they need.
#[cfg(test)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Paths {
    /// Those of [`available`]: AVX-512 F, BW, VL and VBMI2.
    Words,
    /// Those of [`codes_available`]: the same, and VBMI and BITALG.
    Bytes,
}

#[cfg(test)]
impl Paths {
    /// The CPU features, by `is_x86_feature_detected!`'s names.
    const fn features(self) -> &'static [&'static str] {
        const BYTES: [&str; 6] = [
            "avx512f",
            "avx512bw",
            "avx512vl",
            "avx512vbmi2",
            "avx512vbmi",
            "avx512bitalg",
        ];
        match self {
            Self::Words => BYTES.split_at(4).0,
            Self::Bytes => &BYTES,
        }
    }
}

/// The features `paths` need that `has` lacks.
#[cfg(test)]
fn missing_of(paths: Paths, has: impl Fn(&str) -> bool) -> Vec<&'static str> {
    paths
        .features()
        .iter()
        .copied()
        .filter(|feature| !has(feature))
        .collect()
}

/// The features `paths` need that this machine lacks (all on another architecture).
#[cfg(test)]
pub(crate) fn missing_features(paths: Paths) -> Vec<&'static str> {
    #[cfg(target_arch = "x86_64")]
    let has = |feature: &str| match feature {
        "avx512f" => std::arch::is_x86_feature_detected!("avx512f"),
        "avx512bw" => std::arch::is_x86_feature_detected!("avx512bw"),
        "avx512vl" => std::arch::is_x86_feature_detected!("avx512vl"),
        "avx512vbmi2" => std::arch::is_x86_feature_detected!("avx512vbmi2"),
        "avx512vbmi" => std::arch::is_x86_feature_detected!("avx512vbmi"),
        "avx512bitalg" => std::arch::is_x86_feature_detected!("avx512bitalg"),
        _ => false,
    };
    #[cfg(not(target_arch = "x86_64"))]
    let has = |_: &str| false;
    missing_of(paths, has)
}

/// Whether the vector half of the test `test` runs: true when this machine has what
/// `paths` need. Otherwise (on such a machine the vector calls would silently run the
/// portable loop again) it says so on standard error, once per test and past the test
/// harness's capture, as `SKIPPED: TEST: vector paths not compared (no avx512vbmi,
/// ...)`, and returns false; built with the feature `require-simd` (for a CI machine
/// that has AVX-512) it fails instead.
#[cfg(test)]
pub(crate) fn vector_half_runs(test: &str, paths: Paths) -> bool {
    let missing = missing_features(paths);
    if missing.is_empty() {
        return true;
    }
    if cfg!(feature = "require-simd") {
        panic!(
            "the feature require-simd is on, but {test} cannot compare the vector paths: no {}",
            missing.join(", no ")
        );
    }
    let line = skipped_line(test, &missing);
    static SAID: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut said = SAID
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if !said.iter().any(|t| t == test) {
        said.push(test.to_owned());
        // Written to the stream itself: `eprintln!` would be captured, and shown only
        // if the test failed.
        use std::io::Write;
        let _ = writeln!(std::io::stderr().lock(), "{line}");
    }
    false
}

/// The line [`vector_half_runs`] writes.
#[cfg(test)]
fn skipped_line(test: &str, missing: &[&str]) -> String {
    format!(
        "SKIPPED: {test}: vector paths not compared with the portable ones (no {})",
        missing.join(", no ")
    )
}

/// Heaps whose option rows [`mark_pairs`] fills at once.
pub(crate) const MARK_LANES: usize = 32;

/// For each `r` of `rare` and `k < MARK_LANES`: `rows[k * width + (G(r) xor
/// G(base + k - r))] = stamp`, where every value is below `1 << bits`. Returns false
/// (and marks nothing) when the vector version does not apply: no AVX-512, values
/// wider than 16 bits, or `MARK_LANES * width` beyond 16 bits; the caller then marks
/// the pairs itself.
///
/// Panics unless `1 << bits <= width`, `rows` holds `MARK_LANES` rows, and every
/// heap `base + k - r` is below `g.len()`.
pub(crate) fn mark_pairs<T: StoredValue>(
    rows: &mut [u8],
    width: usize,
    bits: u32,
    stamp: u8,
    g: &[T],
    base: usize,
    rare: &[u32],
) -> bool {
    assert!(bits < 16 && 1usize << bits <= width);
    assert!(rows.len() >= MARK_LANES * width);
    #[cfg(target_arch = "x86_64")]
    if MARK_LANES * width <= usize::from(u16::MAX) && x86::available() {
        if let Some(g) = T::as_u16(g) {
            x86::mark_pairs(rows, width, bits, stamp, g, base, rare);
            return true;
        }
        if let Some(g) = T::as_u8(g) {
            x86::mark_pairs(rows, width, bits, stamp, g, base, rare);
            return true;
        }
    }
    let _ = (stamp, g, base, rare);
    false
}

/// How [`mark_pairs_in_registers`] gets back bit 8 of a pair's value from its low 8
/// bits: by parity. When the rows belong to a parity class whose mask uses bit 8 of the
/// values, a pair of one rare and one common heap has a value `x` with
/// `parity(x & mask)` known in each lane (see the engine), so bit 8 is
/// `lanes bit k xor parity(x & low_mask)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NinthBit {
    /// The mask's bits below bit 8.
    pub(crate) low_mask: u8,
    /// Bit `k`: the parity lane `k` starts from.
    pub(crate) lanes: u32,
}

impl NinthBit {
    /// The value whose low 8 bits are `code`, in lane `k` (the definition;
    /// [`high_codes`] gives all at once).
    #[cfg(test)]
    pub(crate) fn value(self, code: u8, k: usize) -> u32 {
        let top = (self.lanes >> k) & 1 ^ (code & self.low_mask).count_ones() & 1;
        u32::from(code) | top << 8
    }
}

/// The same marks as [`mark_pairs`], with the value of each pair `x = G(r) xor
/// G(base + k - r)` named by its low 8 bits: `x` itself when `ninth` is `None` (every
/// `x` must then be below 256), else `ninth.value(x & 255, k)` (the caller knows it is
/// `x`). Each heap's set of those bytes is kept as 256 bits in vector registers: per
/// pair a rotate, then a compare and a masked or for each bucket of 32 bits (about 0.7
/// cycle per pair here, against about 1 for a byte store); the sets are written to the
/// rows once, 64 bytes per masked store. Returns false (and marks nothing) when the vector version does not
/// apply: no AVX-512, or values wider than 16 bits.
///
/// Panics unless `rows` holds `MARK_LANES` rows of `width` bytes, a multiple of 64 and
/// above every value marked (at least 512 with `ninth`), and every heap
/// `base + k - r` is below `g.len()`.
pub(crate) fn mark_pairs_in_registers<T: StoredValue>(
    rows: &mut [u8],
    width: usize,
    stamp: u8,
    g: &[T],
    base: usize,
    rare: &[u32],
    ninth: Option<NinthBit>,
) -> bool {
    assert!(width.is_multiple_of(64) && (ninth.is_none() || width >= 512));
    assert!(rows.len() >= MARK_LANES * width);
    #[cfg(target_arch = "x86_64")]
    if x86::available() {
        let mut sets = [[0u64; 4]; MARK_LANES];
        if let Some(g) = T::as_u16(g) {
            x86::byte_sets(g, base, rare, &mut sets);
        } else if let Some(g) = T::as_u8(g) {
            x86::byte_sets(g, base, rare, &mut sets);
        } else {
            return false;
        }
        let rows = &mut rows[..MARK_LANES * width];
        let high = ninth.map(|ninth| high_codes(ninth.low_mask));
        for (k, (row, codes)) in rows.chunks_exact_mut(width).zip(&sets).enumerate() {
            let mut words = [0u64; 8];
            match (ninth, &high) {
                (Some(ninth), Some(high)) => {
                    let high = &high[(ninth.lanes >> k & 1) as usize];
                    for q in 0..4 {
                        words[q] = codes[q] & !high[q];
                        words[4 + q] = codes[q] & high[q];
                    }
                }
                _ => words[..4].copy_from_slice(codes),
            }
            x86::store_stamps(row, &words, stamp);
        }
        return true;
    }
    let _ = (stamp, g, base, rare, ninth);
    false
}

/// `[t]`: the codes `c < 256` whose value has bit 8 set in a lane starting from parity
/// `t` (`NinthBit::value(c, k) >= 256`), as a bit set: those with `parity(c & low_mask)`
/// different from `t`.
pub(crate) fn high_codes(low_mask: u8) -> [CodeSet; 2] {
    // Bit c of `WITH_BIT[j]`: bit j of c. The parity of `c & low_mask` is the xor of
    // the sets of the mask's bits.
    const WITH_BIT: [CodeSet; 8] = {
        let mut sets = [[0u64; 4]; 8];
        let mut c = 0;
        while c < 256 {
            let mut j = 0;
            while j < 8 {
                if c >> j & 1 == 1 {
                    sets[j][c / 64] |= 1 << (c % 64);
                }
                j += 1;
            }
            c += 1;
        }
        sets
    };
    let mut odd: CodeSet = [0; 4];
    for (j, set) in WITH_BIT.iter().enumerate() {
        if low_mask >> j & 1 == 1 {
            for (word, bits) in odd.iter_mut().zip(set) {
                *word ^= bits;
            }
        }
    }
    [odd, odd.map(|w| !w)]
}

/// `row[left[i] xor right[i]] = stamp` for every `i`: records the values of a run of
/// pairs as options. Every value must be below `1 << bits <= row.len()`.
pub(crate) fn mark_values<T: StoredValue>(
    row: &mut [u8],
    bits: u32,
    stamp: u8,
    left: &[T],
    right: &[T],
    vector: bool,
) {
    assert!(bits < 16 && 1usize << bits <= row.len());
    #[cfg(target_arch = "x86_64")]
    if vector && x86::available() {
        if let (Some(l), Some(r)) = (T::as_u16(left), T::as_u16(right)) {
            return x86::mark_values(row, bits, stamp, l, r);
        }
        if let (Some(l), Some(r)) = (T::as_u8(left), T::as_u8(right)) {
            return x86::mark_values(row, bits, stamp, l, r);
        }
    }
    let _ = vector;
    for (&l, &r) in left.iter().zip(right) {
        row[(l ^ r).get() as usize] = stamp;
    }
}

/// The first `i` with `left[i] xor right[i] == target`, by AVX-512 compares of 32
/// pairs at a time; `None` also when the vector version does not apply (the caller
/// then searches itself): check [`find_applies`] first.
pub(crate) fn find<T: StoredValue>(left: &[T], right: &[T], target: u32) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if x86::available() {
        if let (Some(l), Some(r)) = (T::as_u16(left), T::as_u16(right)) {
            return x86::find(l, r, target);
        }
        if let (Some(l), Some(r)) = (T::as_u8(left), T::as_u8(right)) {
            return x86::find(l, r, target);
        }
    }
    let _ = (left, right, target);
    None
}

/// True when [`find`] searches values of this type on this machine.
pub(crate) fn find_applies<T: StoredValue>(values: &[T]) -> bool {
    available() && (T::as_u16(values).is_some() || T::as_u8(values).is_some())
}

/// The portable version of [`scan`].
pub(crate) fn scan_portable<T: StoredValue>(
    left: &[T],
    right: &[T],
    targets: &mut TargetSet,
) -> usize {
    let mut remaining: u32 = targets.iter().map(|w| w.count_ones()).sum();
    if remaining <= 1 {
        return 0;
    }
    for (i, (&l, &r)) in left.iter().zip(right).enumerate() {
        let x = (l ^ r).get() as usize;
        if let Some(word) = targets.get_mut(x >> 6) {
            let bit = 1u64 << (x & 63);
            if *word & bit != 0 {
                *word &= !bit;
                remaining -= 1;
                if remaining == 1 {
                    return i + 1;
                }
            }
        }
    }
    left.len().min(right.len())
}

/// For each `w < out.len()`: bit `i` of `out[w]` is set when `row[64 * w + i] != stamp`
/// (`row` holds at least `64 * out.len()` bytes).
pub(crate) fn unmarked(row: &[u8], stamp: u8, out: &mut [u64], vector: bool) {
    #[cfg(target_arch = "x86_64")]
    if vector && x86::available() {
        return x86::unmarked(row, stamp, out);
    }
    let _ = vector;
    let stamps = u64::from(stamp) * 0x0101_0101_0101_0101;
    for (word, bytes) in out.iter_mut().zip(row.chunks_exact(64)) {
        let mut bits = 0u64;
        for (i, eight) in bytes.chunks_exact(8).enumerate() {
            let x = u64::from_le_bytes(eight.try_into().expect("8 bytes")) ^ stamps;
            // The top bit of each byte of `x` that is not zero, then the 8 top bits
            // gathered into one byte (no carries: every product bit lands apart).
            let nonzero =
                (((x & 0x7f7f_7f7f_7f7f_7f7f) + 0x7f7f_7f7f_7f7f_7f7f) | x) & 0x8080_8080_8080_8080;
            let gathered = (nonzero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
            bits |= gathered << (8 * i);
        }
        *word = bits;
    }
}

/// True when the set holds no value (word by word: an array compare calls `memcmp`).
pub(crate) fn is_empty(set: &TargetSet) -> bool {
    set.iter().fold(0, |acc, &w| acc | w) == 0
}

/// The smallest value in a set, if any.
pub(crate) fn first(set: &TargetSet) -> Option<u32> {
    set.iter()
        .position(|&w| w != 0)
        .map(|i| i as u32 * 64 + set[i].trailing_zeros())
}

/// Off x86-64 there is no vector search.
#[cfg(not(target_arch = "x86_64"))]
mod x86 {
    pub(super) fn available() -> bool {
        false
    }

    pub(super) fn codes_available() -> bool {
        false
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! The AVX-512 search. Every `unsafe` here is either a call of a function compiled
    //! for AVX-512 (made only after run-time detection) or a vector load from a slice
    //! whose bounds are checked next to it.
    #![allow(
        unsafe_code,
        reason = "AVX-512 intrinsics: target-feature calls after detection, and loads \
                  from slices within their checked bounds"
    )]

    use std::arch::x86_64::*;

    use super::TargetSet;

    /// Detected once: the engine asks per heap.
    pub(super) fn available() -> bool {
        static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *AVAILABLE.get_or_init(|| {
            std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
                && std::arch::is_x86_feature_detected!("avx512vl")
                && std::arch::is_x86_feature_detected!("avx512vbmi2")
        })
    }

    /// Detected once: the byte search needs VBMI (`vpermb`), VBMI2 (`vpcompressb`)
    /// and BITALG (`vpshufbitqmb`) too.
    pub(super) fn codes_available() -> bool {
        static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *AVAILABLE.get_or_init(|| {
            available()
                && std::arch::is_x86_feature_detected!("avx512vbmi")
                && std::arch::is_x86_feature_detected!("avx512bitalg")
        })
    }

    /// [`super::scan_codes`].
    pub(super) fn scan_codes(
        left: &[u8],
        right: &[u8],
        skip: &[u64],
        targets: &mut super::CodeSet,
    ) -> usize {
        assert!(codes_available());
        // SAFETY: the CPU has AVX-512 F, BW, VL, VBMI, VBMI2 and BITALG (asserted above).
        unsafe { scan_codes_avx512(left, right, skip, targets) }
    }

    /// The search of [`scan_avx512`] on bytes, 64 pairs a step. The 256-bit set is
    /// held twice in one register; `vpermb` picks for each lane the byte of its code
    /// (`x >> 3`; the sixth index bit, spilled over from the next byte by a 16-bit
    /// shift, picks one of the two equal copies) and `vpshufbitqmb` tests bit `x & 7` of it (the byte sits
    /// at `8 * (lane % 8)` within its 64-bit lane). Hits are packed by `vpcompressb`
    /// and taken out of the set after each batch of steps (a code met twice is packed
    /// twice, harmlessly).
    ///
    /// # Safety
    /// The CPU must support AVX-512 F, BW, VL, VBMI, VBMI2 and BITALG.
    #[target_feature(
        enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512bitalg,popcnt"
    )]
    unsafe fn scan_codes_avx512(
        left: &[u8],
        right: &[u8],
        skip: &[u64],
        targets: &mut super::CodeSet,
    ) -> usize {
        let len = left.len().min(right.len());
        let (left, right) = (&left[..len], &right[..len]);
        let table = |targets: &super::CodeSet| {
            // SAFETY: `targets` is four 64-bit words, 32 bytes.
            _mm512_broadcast_i64x4(unsafe { _mm256_loadu_si256(targets.as_ptr().cast()) })
        };
        let mut set = table(targets);
        let byte_offsets: [u8; 64] = std::array::from_fn(|j| (8 * (j % 8)) as u8);
        // SAFETY: 64 bytes.
        let byte_offsets = unsafe { _mm512_loadu_si512(byte_offsets.as_ptr().cast()) };
        let seven = _mm512_set1_epi8(7);
        let mut found = [0u8; 64 * BATCH];
        let word_starts = _mm256_setr_epi64x(0, 64, 128, 192);
        let ones = _mm256_set1_epi64x(1);
        let mut at = 0;
        let mut remaining: u32 = targets.iter().map(|w| w.count_ones()).sum();
        let mut batch = 1;
        while remaining > 1 && at < len {
            let steps = batch.min((len - at).div_ceil(64));
            let mut count = 0;
            for step in 0..steps {
                let from = at + 64 * step;
                let kept = !skip.get(from / 64).copied().unwrap_or(0);
                let (kept, l, r) = if from + 64 <= len {
                    // SAFETY: `from + 64 <= len`, the length of both slices.
                    unsafe {
                        (
                            kept,
                            _mm512_loadu_si512(left.as_ptr().add(from).cast()),
                            _mm512_loadu_si512(right.as_ptr().add(from).cast()),
                        )
                    }
                } else {
                    let lanes = (1u64 << (len - from)) - 1;
                    // SAFETY: the lanes read are below `len - from`, inside both
                    // slices (checked by the slicing); masked-off lanes are not read.
                    unsafe {
                        (
                            kept & lanes,
                            _mm512_maskz_loadu_epi8(lanes, left[from..].as_ptr().cast()),
                            _mm512_maskz_loadu_epi8(lanes, right[from..].as_ptr().cast()),
                        )
                    }
                };
                let x = _mm512_xor_si512(l, r);
                let bytes = _mm512_permutexvar_epi8(_mm512_srli_epi16::<3>(x), set);
                // (x & 7) | byte offset.
                let index = _mm512_ternarylogic_epi32::<0xEA>(x, seven, byte_offsets);
                let hits = _mm512_mask_bitshuffle_epi64_mask(kept, bytes, index);
                let packed = _mm512_maskz_compress_epi8(hits, x);
                debug_assert!(count + 64 <= found.len());
                // SAFETY: at most 64 codes per step were packed before, so
                // `count + 64 <= 64 * (step + 1) <= found.len()`.
                unsafe { _mm512_storeu_si512(found.as_mut_ptr().add(count).cast(), packed) };
                count += hits.count_ones() as usize;
            }
            at += 64 * steps;
            // The codes met as a 256-bit set in a register: bit `c - 64 q` of word `q`
            // (a shift by 64 or more, or by a negative count, gives 0). No chain of
            // updates through memory.
            let mut met = _mm256_setzero_si256();
            for &c in &found[..count] {
                let shifts = _mm256_sub_epi64(_mm256_set1_epi64x(i64::from(c)), word_starts);
                met = _mm256_or_si256(met, _mm256_sllv_epi64(ones, shifts));
            }
            let mut met_words = [0u64; 4];
            // SAFETY: four 64-bit words, 32 bytes.
            unsafe { _mm256_storeu_si256(met_words.as_mut_ptr().cast(), met) };
            for (word, met) in targets.iter_mut().zip(met_words) {
                *word &= !met;
            }
            remaining = targets.iter().map(|w| w.count_ones()).sum();
            set = table(targets);
            batch = (2 * batch).min(BATCH);
        }
        at.min(len)
    }

    /// [`super::scan`] for 8- and 16-bit values.
    pub(super) fn scan<T: Lanes>(left: &[T], right: &[T], targets: &mut TargetSet) -> usize {
        assert!(available());
        // SAFETY: the CPU has AVX-512 F, BW, VL and VBMI2 (asserted above).
        unsafe { scan_avx512(left, right, targets) }
    }

    /// [`super::mark_pairs`] for 8- and 16-bit values (the caller checked the sizes).
    pub(super) fn mark_pairs<T: Lanes>(
        rows: &mut [u8],
        width: usize,
        bits: u32,
        stamp: u8,
        g: &[T],
        base: usize,
        rare: &[u32],
    ) {
        assert!(available());
        // SAFETY: the CPU has AVX-512 F, BW, VL and VBMI2 (asserted above).
        unsafe { mark_pairs_avx512(rows, width, bits, stamp, g, base, rare) }
    }

    /// The 32 positions `k * width + (G(r) xor G(base + k - r))` of one rare heap are
    /// computed in one vector (the value masked to `bits` bits, so each position lies
    /// in row `k`), then stored to one by one: a load and a byte store per pair.
    ///
    /// # Safety
    /// The CPU must support AVX-512 F, BW and VL.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn mark_pairs_avx512<T: Lanes>(
        rows: &mut [u8],
        width: usize,
        bits: u32,
        stamp: u8,
        g: &[T],
        base: usize,
        rare: &[u32],
    ) {
        const LANES: usize = super::MARK_LANES;
        assert!(bits < 16 && 1usize << bits <= width && LANES * width <= 1 << 16);
        let rows = &mut rows[..LANES * width];
        let offsets: [u16; LANES] = std::array::from_fn(|k| (k * width) as u16);
        // SAFETY: `offsets` is 32 values of 16 bits, 64 bytes.
        let offsets = unsafe { _mm512_loadu_si512(offsets.as_ptr().cast()) };
        let low_bits = _mm512_set1_epi16(((1u32 << bits) - 1) as u16 as i16);
        for &r in rare {
            let r = r as usize;
            let own = _mm512_set1_epi16(g[r].into() as i16);
            // SAFETY: the features this function is compiled for; `load_all` checks
            // the bounds of `g[base - r..][..32]`.
            let others = unsafe { T::load_all(g, base - r) };
            let x = _mm512_and_si512(_mm512_xor_si512(own, others), low_bits);
            let positions = _mm512_add_epi16(x, offsets);
            // SAFETY: lane `k` holds `k * width + x` with `x < 1 << bits <= width`,
            // below `LANES * width = rows.len()`.
            unsafe { store_at(rows, positions, stamp) };
        }
    }

    /// For each heap `k < MARK_LANES`: `sets[k]` gains bit `x & 255` for every pair
    /// value `x = G(r) xor G(base + k - r)`, `r` in `rare`.
    pub(super) fn byte_sets<T: Lanes>(
        g: &[T],
        base: usize,
        rare: &[u32],
        sets: &mut [[u64; 4]; super::MARK_LANES],
    ) {
        assert!(available());
        // SAFETY: the CPU has AVX-512 F, BW, VL and VBMI2 (asserted above).
        unsafe { byte_sets_avx512(g, base, rare, sets) }
    }

    /// Heaps in 32-bit lanes, 16 per vector; each heap's 256-bit set is eight 32-bit
    /// buckets in eight registers. A pair sets bit `x & 31` (a rotate) of the bucket
    /// `(x >> 5) & 7` (eight compares, eight masked ors): about 21 operations per 16
    /// pairs, all in registers.
    ///
    /// # Safety
    /// The CPU must support AVX-512 F, BW and VL.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn byte_sets_avx512<T: Lanes>(
        g: &[T],
        base: usize,
        rare: &[u32],
        sets: &mut [[u64; 4]; super::MARK_LANES],
    ) {
        let one = _mm512_set1_epi32(1);
        let low_byte = _mm512_set1_epi32(255);
        let buckets: [__m512i; 8] = std::array::from_fn(|b| _mm512_set1_epi32(b as i32));
        let mut low = [_mm512_setzero_si512(); 8];
        let mut high = [_mm512_setzero_si512(); 8];
        for &r in rare {
            let r = r as usize;
            let own = _mm512_set1_epi32(i32::from(g[r].into()));
            for (half, acc) in [&mut low, &mut high].into_iter().enumerate() {
                // SAFETY: the features this function is compiled for; `load16` checks
                // the bounds of `g[base - r + 16 * half..][..16]`.
                let others = unsafe { T::load16(g, base - r + 16 * half) };
                let x = _mm512_and_si512(_mm512_xor_si512(own, others), low_byte);
                let bit = _mm512_rolv_epi32(one, x);
                let bucket = _mm512_srli_epi32::<5>(x);
                for (set, b) in acc.iter_mut().zip(&buckets) {
                    let lanes = _mm512_cmpeq_epi32_mask(bucket, *b);
                    *set = _mm512_mask_or_epi32(*set, lanes, *set, bit);
                }
            }
        }
        let mut words = [[0u32; 16]; 16];
        for (out, set) in words.iter_mut().zip(low.iter().chain(&high)) {
            // SAFETY: `out` is 16 values of 32 bits, 64 bytes.
            unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), *set) };
        }
        for (k, set) in sets.iter_mut().enumerate() {
            let (half, lane) = (k / 16, k % 16);
            for (q, word) in set.iter_mut().enumerate() {
                let bucket = 8 * half + 2 * q;
                *word |= u64::from(words[bucket][lane]) | u64::from(words[bucket + 1][lane]) << 32;
            }
        }
    }

    /// `row[64 * w + i] = stamp` for every bit `i` of `words[w]`: one masked store per
    /// word.
    pub(super) fn store_stamps(row: &mut [u8], words: &[u64; 8], stamp: u8) {
        assert!(available());
        // SAFETY: the CPU has AVX-512 F, BW, VL and VBMI2 (asserted above).
        unsafe { store_stamps_avx512(row, words, stamp) }
    }

    /// # Safety
    /// The CPU must support AVX-512 F and BW.
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn store_stamps_avx512(row: &mut [u8], words: &[u64; 8], stamp: u8) {
        assert!(
            words[(row.len() / 64).min(8)..].iter().all(|&w| w == 0),
            "a value beyond the row"
        );
        let stamps = _mm512_set1_epi8(stamp as i8);
        for (chunk, &word) in row.chunks_exact_mut(64).zip(words) {
            if word != 0 {
                // SAFETY: `chunk` is 64 bytes.
                unsafe { _mm512_mask_storeu_epi8(chunk.as_mut_ptr().cast(), word, stamps) };
            }
        }
    }

    /// [`super::find`] for 8- and 16-bit values.
    pub(super) fn find<T: Lanes>(left: &[T], right: &[T], target: u32) -> Option<usize> {
        assert!(available());
        // SAFETY: the CPU has AVX-512 F, BW, VL and VBMI2 (asserted above).
        unsafe { find_avx512(left, right, target) }
    }

    /// # Safety
    /// The CPU must support AVX-512 F, BW and VL.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,bmi1")]
    unsafe fn find_avx512<T: Lanes>(left: &[T], right: &[T], target: u32) -> Option<usize> {
        let len = left.len().min(right.len());
        if target > u32::from(u16::MAX) {
            return None;
        }
        let wanted = _mm512_set1_epi16(target as u16 as i16);
        let mut at = 0;
        // Two steps per test: the branch is taken once.
        while at + 64 <= len {
            // SAFETY: the features this function is compiled for; `load_all` checks
            // the bounds.
            let (a, b) = unsafe {
                (
                    _mm512_xor_si512(T::load_all(left, at), T::load_all(right, at)),
                    _mm512_xor_si512(T::load_all(left, at + 32), T::load_all(right, at + 32)),
                )
            };
            let hits = u64::from(_mm512_cmpeq_epi16_mask(a, wanted))
                | u64::from(_mm512_cmpeq_epi16_mask(b, wanted)) << 32;
            if hits != 0 {
                return Some(at + hits.trailing_zeros() as usize);
            }
            at += 64;
        }
        (at..len).find(|&i| u32::from(left[i].into() ^ right[i].into()) == target)
    }

    /// [`super::mark_values`] for 8- and 16-bit values (the caller checked the sizes).
    pub(super) fn mark_values<T: Lanes>(
        row: &mut [u8],
        bits: u32,
        stamp: u8,
        left: &[T],
        right: &[T],
    ) {
        assert!(available());
        // SAFETY: the CPU has AVX-512 F, BW, VL and VBMI2 (asserted above).
        unsafe { mark_values_avx512(row, bits, stamp, left, right) }
    }

    /// Stores `stamp` at the 32 bytes whose offsets are the 16-bit lanes of
    /// `positions`, taken out four per 64-bit word by shifts (ALU ports; lane extracts
    /// would all queue on one port).
    ///
    /// # Safety
    /// The CPU must support AVX-512 F, BW and VL, and every lane of `positions` must be
    /// below `bytes.len()`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn store_at(bytes: &mut [u8], positions: __m512i, stamp: u8) {
        let quarters = [
            _mm512_castsi512_si128(positions),
            _mm512_extracti32x4_epi32::<1>(positions),
            _mm512_extracti32x4_epi32::<2>(positions),
            _mm512_extracti32x4_epi32::<3>(positions),
        ];
        for quarter in quarters {
            for word in [
                _mm_cvtsi128_si64(quarter) as u64,
                _mm_extract_epi64::<1>(quarter) as u64,
            ] {
                for lane in 0..4 {
                    let p = usize::from((word >> (16 * lane)) as u16);
                    debug_assert!(p < bytes.len());
                    // SAFETY: every lane is below `bytes.len()` (the caller's promise).
                    unsafe { *bytes.get_unchecked_mut(p) = stamp };
                }
            }
        }
    }

    /// # Safety
    /// The CPU must support AVX-512 F, BW and VL.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn mark_values_avx512<T: Lanes>(
        row: &mut [u8],
        bits: u32,
        stamp: u8,
        left: &[T],
        right: &[T],
    ) {
        assert!(bits < 16 && 1usize << bits <= row.len());
        let len = left.len().min(right.len());
        let low_bits = _mm512_set1_epi16(((1u32 << bits) - 1) as u16 as i16);
        let mut at = 0;
        while at + 32 <= len {
            // SAFETY: the features this function is compiled for; `load_all` checks
            // the bounds.
            let x = unsafe { _mm512_xor_si512(T::load_all(left, at), T::load_all(right, at)) };
            // SAFETY: masked to `bits` bits, every lane is below `row.len()`.
            unsafe { store_at(row, _mm512_and_si512(x, low_bits), stamp) };
            at += 32;
        }
        for i in at..len {
            let x = usize::from(left[i].into() ^ right[i].into());
            row[x] = stamp;
        }
    }

    /// [`super::unmarked`] with one vector compare per 64 bytes.
    pub(super) fn unmarked(row: &[u8], stamp: u8, out: &mut [u64]) {
        assert!(available());
        // SAFETY: the CPU has AVX-512 F, BW, VL and VBMI2 (asserted above).
        unsafe { unmarked_avx512(row, stamp, out) }
    }

    /// # Safety
    /// The CPU must support AVX-512 F and BW.
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn unmarked_avx512(row: &[u8], stamp: u8, out: &mut [u64]) {
        let stamps = _mm512_set1_epi8(stamp as i8);
        for (word, bytes) in out.iter_mut().zip(row.chunks_exact(64)) {
            // SAFETY: `bytes` is 64 bytes long.
            let marks = unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) };
            *word = _mm512_cmpneq_epi8_mask(marks, stamps);
        }
    }

    /// Values loaded 32 at a time into 16-bit lanes.
    pub(super) trait Lanes: Sized + Copy + Into<u16> {
        /// The 32 values `values[at..at + 32]` (those with their bit in `lanes`, zero
        /// for the others) as 16-bit lanes; panics when a lane read is out of bounds.
        ///
        /// # Safety
        /// The CPU must support AVX-512 F, BW and VL.
        unsafe fn load(values: &[Self], at: usize, lanes: __mmask32) -> __m512i;

        /// The 32 values `values[at..at + 32]`; panics when out of bounds.
        ///
        /// # Safety
        /// The CPU must support AVX-512 F, BW and VL.
        unsafe fn load_all(values: &[Self], at: usize) -> __m512i;

        /// The 16 values `values[at..at + 16]` as 32-bit lanes; panics when out of
        /// bounds.
        ///
        /// # Safety
        /// The CPU must support AVX-512 F, BW and VL.
        unsafe fn load16(values: &[Self], at: usize) -> __m512i;

        /// The 32 values from `ptr` on, unchecked.
        ///
        /// # Safety
        /// The CPU must support AVX-512 F, BW and VL, and `ptr` must point to 32
        /// readable values.
        unsafe fn load_unchecked(ptr: *const Self) -> __m512i;
    }

    impl Lanes for u16 {
        #[inline]
        #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
        unsafe fn load16(values: &[u16], at: usize) -> __m512i {
            let chunk: &[u16; 16] = values[at..at + 16].try_into().expect("16 values");
            // SAFETY: `chunk` is 16 values of 16 bits, 32 bytes.
            _mm512_cvtepu16_epi32(unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) })
        }

        #[inline]
        #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
        unsafe fn load_unchecked(ptr: *const u16) -> __m512i {
            // SAFETY: 32 values of 16 bits, 64 bytes, readable (the caller's promise).
            unsafe { _mm512_loadu_si512(ptr.cast()) }
        }

        #[inline]
        #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
        unsafe fn load_all(values: &[u16], at: usize) -> __m512i {
            let chunk: &[u16; 32] = values[at..at + 32].try_into().expect("32 values");
            // SAFETY: `chunk` is 32 values of 16 bits, 64 bytes.
            unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) }
        }

        #[inline]
        #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
        unsafe fn load(values: &[u16], at: usize, lanes: __mmask32) -> __m512i {
            let read = 32 - lanes.leading_zeros() as usize;
            let ptr = values[at..at + read].as_ptr();
            if lanes == u32::MAX {
                // SAFETY: `values[at..at + 32]` is in bounds (checked by the slicing).
                unsafe { _mm512_loadu_si512(ptr.cast()) }
            } else {
                // SAFETY: the lanes read are below `read`, in bounds (checked by the
                // slicing); masked-off lanes are not accessed.
                unsafe { _mm512_maskz_loadu_epi16(lanes, ptr.cast()) }
            }
        }
    }

    impl Lanes for u8 {
        #[inline]
        #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
        unsafe fn load16(values: &[u8], at: usize) -> __m512i {
            let chunk: &[u8; 16] = values[at..at + 16].try_into().expect("16 values");
            // SAFETY: `chunk` is 16 bytes.
            _mm512_cvtepu8_epi32(unsafe { _mm_loadu_si128(chunk.as_ptr().cast()) })
        }

        #[inline]
        #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
        unsafe fn load_unchecked(ptr: *const u8) -> __m512i {
            // SAFETY: 32 bytes, readable (the caller's promise).
            _mm512_cvtepu8_epi16(unsafe { _mm256_loadu_si256(ptr.cast()) })
        }

        #[inline]
        #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
        unsafe fn load_all(values: &[u8], at: usize) -> __m512i {
            let chunk: &[u8; 32] = values[at..at + 32].try_into().expect("32 values");
            // SAFETY: `chunk` is 32 bytes.
            _mm512_cvtepu8_epi16(unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) })
        }

        #[inline]
        #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
        unsafe fn load(values: &[u8], at: usize, lanes: __mmask32) -> __m512i {
            let read = 32 - lanes.leading_zeros() as usize;
            let ptr = values[at..at + read].as_ptr();
            let bytes = if lanes == u32::MAX {
                // SAFETY: `values[at..at + 32]` is in bounds (checked by the slicing).
                unsafe { _mm256_loadu_si256(ptr.cast()) }
            } else {
                // SAFETY: the lanes read are below `read`, in bounds (checked by the
                // slicing); masked-off lanes are not accessed.
                unsafe { _mm256_maskz_loadu_epi8(lanes, ptr.cast()) }
            };
            _mm512_cvtepu8_epi16(bytes)
        }
    }

    /// Steps of 32 pairs between two updates of the wanted set, at most.
    const BATCH: usize = 16;

    /// The search, 32 pairs per step. The values that hit are packed into a buffer
    /// (`vpcompressw`) without a branch; every `BATCH` steps they are taken out of the
    /// set, in the registers. A value met again before that is packed again, harmlessly.
    /// With every wanted value below 512 the set is one register (`vpermw`), else two
    /// (`vpermt2w`).
    ///
    /// # Safety
    /// The CPU must support AVX-512 F, BW, VL and VBMI2.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi2,popcnt,bmi1,bmi2")]
    unsafe fn scan_avx512<T: Lanes>(left: &[T], right: &[T], targets: &mut TargetSet) -> usize {
        let wide = targets[8..].iter().any(|&w| w != 0);
        // SAFETY: the features these functions are compiled for.
        unsafe {
            if wide {
                scan_in::<T, true>(left, right, targets)
            } else {
                scan_in::<T, false>(left, right, targets)
            }
        }
    }

    /// The lanes of `x` whose value is in the set (`low`, and `high` when `WIDE`).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    fn lookup<const WIDE: bool>(x: __m512i, low: __m512i, high: __m512i) -> __mmask32 {
        let index = _mm512_srli_epi16::<4>(x);
        let word = if WIDE {
            _mm512_permutex2var_epi16(low, index, high)
        } else {
            _mm512_permutexvar_epi16(index, low)
        };
        // Bit `x & 15` of the word moved to the top, by `15 - (x & 15)`.
        let top = _mm512_sllv_epi16(word, _mm512_andnot_si512(x, _mm512_set1_epi16(15)));
        _mm512_movepi16_mask(top)
    }

    /// [`scan_avx512`] with the set in two registers (`WIDE`) or one.
    ///
    /// # Safety
    /// The CPU must support AVX-512 F, BW, VL and VBMI2.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi2,popcnt,bmi1,bmi2")]
    unsafe fn scan_in<T: Lanes, const WIDE: bool>(
        left: &[T],
        right: &[T],
        targets: &mut TargetSet,
    ) -> usize {
        let len = left.len().min(right.len());
        let (left, right) = (&left[..len], &right[..len]);
        // Values 0..512 in `low` and 512..1024 in `high`, 16 per 16-bit lane (32 per
        // 32-bit lane).
        // SAFETY: `targets` is 16 words: the loads read words 0..8 and 8..16.
        let (mut low, mut high) = unsafe {
            (
                _mm512_loadu_si512(targets.as_ptr().cast()),
                _mm512_loadu_si512(targets[8..].as_ptr().cast()),
            )
        };
        let mut found = [0u16; 32 * BATCH];
        let mut at = 0;
        let mut remaining: u32 = targets.iter().map(|w| w.count_ones()).sum();
        // Batches grow from one step: few wanted values are often met early.
        let mut batch = 1;
        while remaining > 1 && at < len {
            let steps = batch.min((len - at).div_ceil(32));
            let mut count = 0;
            for step in 0..steps {
                let from = at + 32 * step;
                let (lanes, l, r) = if from + 32 <= len {
                    // SAFETY: `from + 32 <= len`, the length of both slices.
                    unsafe {
                        (
                            u32::MAX,
                            T::load_unchecked(left.as_ptr().add(from)),
                            T::load_unchecked(right.as_ptr().add(from)),
                        )
                    }
                } else {
                    let lanes = (1u32 << (len - from)) - 1;
                    // SAFETY: `load` needs the features this function is compiled for.
                    unsafe {
                        (
                            lanes,
                            T::load(left, from, lanes),
                            T::load(right, from, lanes),
                        )
                    }
                };
                let x = _mm512_xor_si512(l, r);
                let hits = lookup::<WIDE>(x, low, high) & lanes;
                let packed = _mm512_maskz_compress_epi16(hits, x);
                debug_assert!(count + 32 <= found.len());
                // SAFETY: at most 32 values per step were packed before, so
                // `count + 32 <= 32 * (step + 1) <= found.len()`: the 64 bytes written
                // are inside `found`.
                unsafe { _mm512_storeu_si512(found.as_mut_ptr().add(count).cast(), packed) };
                count += hits.count_ones() as usize;
            }
            at += 32 * steps;
            for &v in &found[..count] {
                // Lane `(v >> 5) & 15` of the half holding `v` loses bit `v & 31`;
                // `targets` keeps the count (a value met twice counts once).
                let v = u32::from(v);
                let (w, b) = ((v >> 6) as usize, v & 63);
                remaining -= ((targets[w] >> b) & 1) as u32;
                targets[w] &= !(1 << b);
                let lane = 1u16 << ((v >> 5) & 15);
                let bit = _mm512_maskz_set1_epi32(lane, (1u32 << (v & 31)) as i32);
                if v < 512 {
                    low = _mm512_andnot_si512(bit, low);
                } else {
                    high = _mm512_andnot_si512(bit, high);
                }
            }
            batch = (2 * batch).min(BATCH);
        }
        at.min(len)
    }
}

/// The vector paths are compared with the portable ones where they run; on a machine
/// without the AVX-512 features they need (F, BW, VL, VBMI2; and VBMI, BITALG for the
/// byte search), each test still checks the portable path against the definition, and
/// says on standard error `SKIPPED: TEST: vector paths not compared ... (no avx512vbmi,
/// ...)` for its vector half ([`vector_half_runs`]); the feature `require-simd` turns
/// that into a failure, for a CI machine that must run them.
#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The paths `test` compares: the portable one everywhere (`false`), the vector one
    /// where it runs (`true`).
    fn paths(test: &str) -> Vec<bool> {
        if vector_half_runs(test, Paths::Words) {
            vec![false, true]
        } else {
            vec![false]
        }
    }

    #[test]
    fn the_features_named_are_those_detected() {
        assert_eq!(available(), missing_features(Paths::Words).is_empty());
        assert_eq!(codes_available(), missing_features(Paths::Bytes).is_empty());
        // A machine with AVX-512 but without VBMI and BITALG (Skylake-X, Cascade Lake).
        let skylake = |feature: &str| !matches!(feature, "avx512vbmi" | "avx512bitalg");
        assert!(missing_of(Paths::Words, skylake).is_empty());
        let missing = missing_of(Paths::Bytes, skylake);
        assert_eq!(missing, ["avx512vbmi", "avx512bitalg"]);
        assert_eq!(
            skipped_line("code_scan_keeps_its_promise", &missing),
            "SKIPPED: code_scan_keeps_its_promise: vector paths not compared with the \
             portable ones (no avx512vbmi, no avx512bitalg)"
        );
        assert_eq!(missing_of(Paths::Words, |_| false).len(), 4);
    }

    fn set_of(values: &[u32]) -> TargetSet {
        let mut set = [0u64; 16];
        for &v in values {
            set[(v >> 6) as usize] |= 1 << (v & 63);
        }
        set
    }

    proptest! {
        #[test]
        fn unmarked_matches_bytes(row in proptest::collection::vec(0u8..4, 0..300), stamp in 0u8..4) {
            let words = row.len() / 64;
            let expected: Vec<u64> = (0..words)
                .map(|w| (0..64).fold(0, |acc, i| acc | u64::from(row[64 * w + i] != stamp) << i))
                .collect();
            for vector in paths("unmarked_matches_bytes") {
                let mut out = vec![0; words];
                unmarked(&row, stamp, &mut out, vector);
                prop_assert_eq!(&out, &expected);
            }
        }
    }

    /// What [`scan`] promises: the values taken out are exactly the wanted values met
    /// in the pairs looked at, and it looked at every pair unless at most one value is
    /// left.
    fn check_scan<T: StoredValue>(
        left: &[T],
        right: &[T],
        wanted: &TargetSet,
        vector: bool,
    ) -> usize {
        let mut after = *wanted;
        let looked = scan(left, right, &mut after, vector);
        assert!(looked <= left.len());
        let mut met = [0u64; 16];
        for (&l, &r) in left[..looked].iter().zip(right) {
            let x = (l ^ r).get();
            met[(x >> 6) as usize] |= 1 << (x & 63);
        }
        for w in 0..16 {
            assert_eq!(after[w], wanted[w] & !met[w], "word {w}, vector {vector}");
        }
        let left_over: u32 = after.iter().map(|w| w.count_ones()).sum();
        assert!(
            looked == left.len() || left_over <= 1,
            "stopped early at {looked}"
        );
        looked
    }

    #[test]
    fn finds_each_value_once_and_stops_when_one_is_left() {
        let left: Vec<u16> = (0..100).collect();
        let right = vec![0u16; 100];
        let mut targets = set_of(&[3, 7, 90]);
        assert_eq!(scan_portable(&left, &right, &mut targets), 8);
        assert_eq!(targets, set_of(&[90]));
        let mut targets = set_of(&[3, 700, 800]);
        assert_eq!(scan_portable(&left, &right, &mut targets), 100);
        assert_eq!(targets, set_of(&[700, 800]));
        let mut targets = set_of(&[700]);
        assert_eq!(scan_portable(&left, &right, &mut targets), 0);
        for vector in paths("finds_each_value_once_and_stops_when_one_is_left") {
            check_scan(&left, &right, &set_of(&[3, 7, 90]), vector);
            assert_eq!(
                check_scan(&left, &right, &set_of(&[3, 700, 800]), vector),
                100
            );
        }
        assert_eq!(first(&set_of(&[700, 513])), Some(513));
        assert_eq!(first(&[0; 16]), None);
    }

    /// The portable and the vector scan both keep [`scan`]'s promise, and the vector
    /// one looks at least as far (it goes on past one value left); `test` names the
    /// caller in the line saying the vector half is skipped.
    fn both_keep_the_promise<T: StoredValue>(
        test: &str,
        left: &[T],
        right: &[T],
        wanted: &[u32],
    ) -> Result<(), TestCaseError> {
        let wanted = set_of(wanted);
        let portable = check_scan(left, right, &wanted, false);
        if vector_half_runs(test, Paths::Words) {
            let vector = check_scan(left, right, &wanted, true);
            prop_assert!(vector >= portable);
        }
        Ok(())
    }

    /// Pairs and targets drawn so that some values are met and some are not, across the
    /// 512 boundary of the two vector halves.
    fn case(bits: u32) -> impl Strategy<Value = (Vec<u16>, Vec<u16>, Vec<u32>)> {
        let top = 1u16 << bits;
        // Under Miri, which interprets every step, shorter rows: still past two
        // vector blocks of 64.
        let longest = if cfg!(miri) { 140 } else { 600 };
        (0usize..longest).prop_flat_map(move |len| {
            (
                proptest::collection::vec(0..top, len),
                proptest::collection::vec(0..top, len),
                proptest::collection::vec(0..u32::from(top), 0..40),
            )
        })
    }

    proptest! {
        #[test]
        fn vector_scan_keeps_its_promise_u16((left, right, wanted) in case(10)) {
            both_keep_the_promise("vector_scan_keeps_its_promise_u16", &left, &right, &wanted)?;
        }

        #[test]
        fn vector_scan_keeps_its_promise_below_512((left, right, wanted) in case(9)) {
            both_keep_the_promise("vector_scan_keeps_its_promise_below_512", &left, &right, &wanted)?;
        }

        #[test]
        fn vector_scan_keeps_its_promise_u8((left, right, wanted) in case(8)) {
            let left: Vec<u8> = left.iter().map(|&v| v as u8).collect();
            let right: Vec<u8> = right.iter().map(|&v| v as u8).collect();
            both_keep_the_promise("vector_scan_keeps_its_promise_u8", &left, &right, &wanted)?;
        }

        #[test]
        fn vector_scan_finds_values_met_early((left, right, _w) in case(9), picks in proptest::collection::vec(0usize..600, 1..10)) {
            // Every target is met: the scan leaves at most one, and none it looked past.
            prop_assume!(!left.is_empty());
            let wanted: Vec<u32> = picks.iter().map(|&i| u32::from(left[i % left.len()] ^ right[i % left.len()])).collect();
            for vector in paths("vector_scan_finds_values_met_early") {
                check_scan(&left, &right, &set_of(&wanted), vector);
            }
        }
    }

    /// `NinthBit::value` gives back every 9-bit value from its low 8 bits when the
    /// lane's parity is that of the value under the mask (bit 8 and `low_mask`), and
    /// only then.
    #[test]
    fn high_codes_are_those_whose_value_has_bit_8() {
        for low_mask in 0..=255u8 {
            let high = high_codes(low_mask);
            for t in 0..2 {
                let ninth = NinthBit { low_mask, lanes: t };
                for c in 0..=255u8 {
                    let set = high[t as usize][usize::from(c / 64)] >> (c % 64) & 1 == 1;
                    assert_eq!(set, ninth.value(c, 0) >= 256, "{low_mask} {t} {c}");
                }
            }
        }
    }

    #[test]
    fn the_ninth_bit_is_the_parity_of_the_rest() {
        for low_mask in [0u8, 1, 0x80, 0xEE, 0xDB, 0xFF] {
            for x in 0u32..512 {
                let parity = (x & (u32::from(low_mask) | 256)).count_ones() & 1;
                for lanes in [0b01u32, 0b10] {
                    let ninth = NinthBit { low_mask, lanes };
                    for k in 0..2 {
                        let agrees = (lanes >> k & 1) == parity;
                        assert_eq!(ninth.value(x as u8, k) == x, agrees, "{x} {low_mask} {k}");
                    }
                }
            }
        }
    }

    proptest! {
        /// The vector marking stores exactly the bytes the definition names (it has no
        /// portable twin: without AVX-512 the engine marks the pairs itself).
        #[test]
        fn mark_pairs_marks_every_pair_and_nothing_else(
            g in proptest::collection::vec(0u16..512, 300..400),
            rare in proptest::collection::btree_set(32u32..120, 0..40),
            stamp in 1u8..255,
        ) {
            let (width, bits) = (512 + 64, 9);
            let base = 200;
            let rare: Vec<u32> = rare.into_iter().collect();
            let mut rows = vec![0u8; MARK_LANES * width];
            let narrow: Vec<u8> = g.iter().map(|&v| v as u8).collect();
            let mut expected = vec![0u8; MARK_LANES * width];
            for &r in &rare {
                let r = r as usize;
                for k in 0..MARK_LANES {
                    expected[k * width + usize::from(g[r] ^ g[base + k - r])] = stamp;
                }
            }
            let runs = vector_half_runs("mark_pairs_marks_every_pair_and_nothing_else", Paths::Words);
            let marked = mark_pairs(&mut rows, width, bits, stamp, &g, base, &rare);
            prop_assert_eq!(marked, runs);
            if marked {
                prop_assert_eq!(&rows, &expected);
            }
            // 8-bit values: the same with the top bit dropped.
            let mut rows = vec![0u8; MARK_LANES * width];
            let mut expected = vec![0u8; MARK_LANES * width];
            for &r in &rare {
                let r = r as usize;
                for k in 0..MARK_LANES {
                    expected[k * width + usize::from(narrow[r] ^ narrow[base + k - r])] = stamp;
                }
            }
            let marked = mark_pairs(&mut rows, width, 8, stamp, &narrow, base, &rare);
            prop_assert_eq!(marked, runs);
            if marked {
                prop_assert_eq!(&rows, &expected);
            }
        }

        /// The byte search keeps the promise of [`scan`], leaving the skipped heaps out
        /// (no portable twin: without VBMI and BITALG the engine searches by [`scan`]).
        #[test]
        fn code_scan_keeps_its_promise(
            pairs in proptest::collection::vec((0u8..=255, 0u8..=255), 0..700),
            wanted in proptest::collection::vec(0u8..=255, 0..40),
            skip in proptest::collection::vec(any::<u64>(), 0..14),
            sparse_skips: bool,
        ) {
            let (left, right): (Vec<u8>, Vec<u8>) = pairs.into_iter().unzip();
            let mut targets: CodeSet = [0; 4];
            for &c in &wanted {
                targets[usize::from(c >> 6)] |= 1 << (c & 63);
            }
            // Few skipped heaps, or about half.
            let bits: Vec<u64> = skip.iter().map(|&w| if sparse_skips { w & w >> 7 & w >> 13 } else { w }).collect();
            let runs = vector_half_runs("code_scan_keeps_its_promise", Paths::Bytes);
            for skip in [&[][..], &bits] {
                let mut after = targets;
                let looked = scan_codes(&left, &right, skip, &mut after);
                prop_assert_eq!(looked.is_some(), runs);
                let Some(looked) = looked else {
                    return Ok(());
                };
                prop_assert!(looked <= left.len());
                let mut met: CodeSet = [0; 4];
                for (i, (&l, &r)) in left[..looked].iter().zip(&right).enumerate() {
                    if skip.get(i / 64).is_none_or(|w| w >> (i % 64) & 1 == 0) {
                        let c = l ^ r;
                        met[usize::from(c >> 6)] |= 1 << (c & 63);
                    }
                }
                for w in 0..4 {
                    prop_assert_eq!(after[w], targets[w] & !met[w], "word {}", w);
                }
                let left_over: u32 = after.iter().map(|w| w.count_ones()).sum();
                prop_assert!(looked == left.len() || left_over <= 1, "stopped early at {}", looked);
            }
        }

        /// The marking in registers stores exactly the bytes the definition names: the
        /// pair values themselves (8 bits), or with bit 8 rebuilt by `NinthBit::value`.
        #[test]
        fn mark_pairs_in_registers_marks_every_pair_and_nothing_else(
            g in proptest::collection::vec(0u16..512, 300..400),
            rare in proptest::collection::btree_set(32u32..120, 0..40),
            stamp in 1u8..255,
            low_mask: u8,
            lanes: u32,
        ) {
            let base = 200;
            let rare: Vec<u32> = rare.into_iter().collect();
            let narrow: Vec<u8> = g.iter().map(|&v| v as u8).collect();
            let ninth = NinthBit { low_mask, lanes };
            let cases: [(Option<NinthBit>, usize); 2] = [(None, 256 + 64), (Some(ninth), 512 + 64)];
            for (ninth, width) in cases {
                let mut expected = vec![0u8; MARK_LANES * width];
                for &r in &rare {
                    let r = r as usize;
                    for k in 0..MARK_LANES {
                        let x = match ninth {
                            None => u32::from(narrow[r] ^ narrow[base + k - r]),
                            Some(ninth) => ninth.value((g[r] ^ g[base + k - r]) as u8, k),
                        };
                        expected[k * width + x as usize] = stamp;
                    }
                }
                let mut rows = vec![0u8; MARK_LANES * width];
                let marked = match ninth {
                    None => mark_pairs_in_registers(&mut rows, width, stamp, &narrow, base, &rare, None),
                    Some(_) => mark_pairs_in_registers(&mut rows, width, stamp, &g, base, &rare, ninth),
                };
                prop_assert_eq!(
                    marked,
                    vector_half_runs("mark_pairs_in_registers_marks_every_pair_and_nothing_else", Paths::Words)
                );
                if marked {
                    prop_assert_eq!(&rows, &expected);
                }
            }
        }

        #[test]
        fn mark_values_marks_every_pair((left, right, _w) in case(10), stamp in 1u8..255) {
            let mut expected = vec![0u8; 1024 + 64];
            for (&l, &r) in left.iter().zip(&right) {
                expected[usize::from(l ^ r)] = stamp;
            }
            for vector in paths("mark_values_marks_every_pair") {
                let mut row = vec![0u8; 1024 + 64];
                mark_values(&mut row, 10, stamp, &left, &right, vector);
                prop_assert_eq!(&row, &expected);
            }
        }

        #[test]
        fn find_gives_the_first_pair((left, right, _w) in case(9), target in 0u32..512) {
            // No portable twin: without AVX-512 the engine searches by compares itself.
            let runs = vector_half_runs("find_gives_the_first_pair", Paths::Words);
            prop_assert_eq!(find_applies(&left), runs);
            let expected = left
                .iter()
                .zip(&right)
                .position(|(&l, &r)| u32::from(l ^ r) == target);
            if find_applies(&left) {
                prop_assert_eq!(find(&left, &right, target), expected);
            }
            let narrow = |v: &[u16]| v.iter().map(|&x| x as u8).collect::<Vec<u8>>();
            let (l8, r8) = (narrow(&left), narrow(&right));
            let expected = l8
                .iter()
                .zip(&r8)
                .position(|(&l, &r)| u32::from(l ^ r) == target);
            if find_applies(&l8) {
                prop_assert_eq!(find(&l8, &r8, target), expected);
            }
        }
    }
}
