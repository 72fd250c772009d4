//! The AVX2 kernels (x86-64-v3: AVX2, BMI1, BMI2 and POPCNT), for the machines
//! without AVX-512: the byte search of 32 pairs a step by `vpshufb` lookups, the
//! search of 16-bit values by gathers, the search of one value by compares, and the
//! byte stores of pairs with their positions computed 16 or 32 at a time.
//!
//! Every `unsafe` here is either a call of a function compiled for these features
//! (made only after run-time detection, which each public function asserts) or a
//! vector load or store on an array or a slice of the exact size, checked next to
//! it. The gathers read `targets`, sixteen 64-bit words, at indices below 32.
#![allow(
    unsafe_code,
    reason = "AVX2 intrinsics: target-feature calls after detection, and loads and \
              stores on arrays or slices within their checked bounds"
)]

use std::arch::x86_64::*;

use super::{CodeSet, TargetSet};

/// Whether this machine runs these kernels (detected once: the engine asks per heap).
fn available() -> bool {
    super::Isa::Avx2.runs()
}

/// Steps of 32 pairs between two updates of the wanted set, at most (the batches
/// grow from one step: a few wanted values are often met early).
const BATCH: usize = 16;

/// [`super::scan_codes`] with AVX2.
pub(super) fn scan_codes(left: &[u8], right: &[u8], skip: &[u64], targets: &mut CodeSet) -> usize {
    assert!(available());
    // SAFETY: the CPU has AVX2, BMI1, BMI2 and POPCNT (asserted above).
    unsafe { scan_bytes(left, right, skip, targets, 0) }
}

/// [`super::scan`] for bytes: their values are below 256, so the values of
/// `targets` from 256 on are never met (and count as left).
pub(super) fn scan_u8(left: &[u8], right: &[u8], targets: &mut TargetSet) -> usize {
    assert!(available());
    let never_met: u32 = targets[4..].iter().map(|w| w.count_ones()).sum();
    let mut codes: CodeSet = [targets[0], targets[1], targets[2], targets[3]];
    // SAFETY: the CPU has AVX2, BMI1, BMI2 and POPCNT (asserted above).
    let looked = unsafe { scan_bytes(left, right, &[], &mut codes, never_met) };
    targets[..4].copy_from_slice(&codes);
    looked
}

/// The byte search, 32 pairs a step: for each code `x = l xor r`, `vpshufb` picks the
/// set's byte `x >> 3` from one of the two 16-byte halves of the 256-bit set (the top
/// bit of `x` chooses, by `vpblendvb`) and the bit `x & 7` of it, giving a 32-bit mask
/// of hits by `vpmovmskb`. Each step's mask is kept, and after each batch of steps the
/// codes hit (read again from the slices) are taken out of the set, which stays in a
/// register: a variable shift of a one into each of its four 64-bit words (a shift by
/// 64 or more, or by a negative count, gives 0). A code met twice is taken out twice,
/// harmlessly. Pair `i` is left out when bit `i % 64` of `skip[i / 64]` is set. The
/// search stops once at most one code is left, counting `never_met` more.
///
/// # Safety
/// The CPU must support AVX2, BMI1, BMI2 and POPCNT.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
unsafe fn scan_bytes(
    left: &[u8],
    right: &[u8],
    skip: &[u64],
    targets: &mut CodeSet,
    never_met: u32,
) -> usize {
    let len = left.len().min(right.len());
    let (left, right) = (&left[..len], &right[..len]);
    let low_nibble = _mm256_set1_epi8(0x0F);
    let seven = _mm256_set1_epi8(7);
    let bit_of: [u8; 32] = std::array::from_fn(|i| 1u8 << (i % 8));
    // SAFETY: `bit_of` is 32 bytes.
    let bit_of = unsafe { _mm256_loadu_si256(bit_of.as_ptr().cast()) };
    let word_starts = _mm256_setr_epi64x(0, 64, 128, 192);
    let ones = _mm256_set1_epi64x(1);
    // SAFETY: `targets` is four 64-bit words, 32 bytes.
    let mut set = unsafe { _mm256_loadu_si256(targets.as_ptr().cast()) };
    let mut hits = [0u32; BATCH];
    let mut at = 0;
    let mut remaining = count_ones(set) + never_met;
    let mut batch = 1;
    while remaining > 1 && at < len {
        // The set's bytes 0..16 and 16..32, each in both 128-bit lanes (`vpshufb`
        // looks up within a lane).
        let low = _mm256_permute2x128_si256::<0x00>(set, set);
        let high = _mm256_permute2x128_si256::<0x11>(set, set);
        let steps = batch.min((len - at).div_ceil(32));
        for (step, step_hits) in hits.iter_mut().enumerate().take(steps) {
            let from = at + 32 * step;
            // `from` is a multiple of 32: half a word of `skip`.
            let skipped = (skip.get(from / 64).copied().unwrap_or(0) >> (from % 64)) as u32;
            let (kept, l, r) = if from + 32 <= len {
                let l: &[u8; 32] = left[from..from + 32].try_into().expect("32 bytes");
                let r: &[u8; 32] = right[from..from + 32].try_into().expect("32 bytes");
                // SAFETY: `l` and `r` are 32 bytes each.
                unsafe {
                    (
                        !skipped,
                        _mm256_loadu_si256(l.as_ptr().cast()),
                        _mm256_loadu_si256(r.as_ptr().cast()),
                    )
                }
            } else {
                let (mut l, mut r) = ([0u8; 32], [0u8; 32]);
                l[..len - from].copy_from_slice(&left[from..]);
                r[..len - from].copy_from_slice(&right[from..]);
                let lanes = (1u32 << (len - from)) - 1;
                // SAFETY: `l` and `r` are 32 bytes each.
                unsafe {
                    (
                        !skipped & lanes,
                        _mm256_loadu_si256(l.as_ptr().cast()),
                        _mm256_loadu_si256(r.as_ptr().cast()),
                    )
                }
            };
            let x = _mm256_xor_si256(l, r);
            let index = _mm256_and_si256(_mm256_srli_epi16::<3>(x), low_nibble);
            let byte = _mm256_blendv_epi8(
                _mm256_shuffle_epi8(low, index),
                _mm256_shuffle_epi8(high, index),
                x,
            );
            let bit = _mm256_shuffle_epi8(bit_of, _mm256_and_si256(x, seven));
            let hit = _mm256_cmpeq_epi8(_mm256_and_si256(byte, bit), bit);
            *step_hits = _mm256_movemask_epi8(hit) as u32 & kept;
        }
        let mut met = _mm256_setzero_si256();
        for (step, &step_hits) in hits.iter().enumerate().take(steps) {
            let from = at + 32 * step;
            let mut mask = step_hits;
            while mask != 0 {
                let i = from + mask.trailing_zeros() as usize;
                let code = i64::from(left[i] ^ right[i]);
                let shifts = _mm256_sub_epi64(_mm256_set1_epi64x(code), word_starts);
                met = _mm256_or_si256(met, _mm256_sllv_epi64(ones, shifts));
                mask &= mask - 1;
            }
        }
        at += 32 * steps;
        set = _mm256_andnot_si256(met, set);
        remaining = count_ones(set) + never_met;
        batch = (2 * batch).min(BATCH);
    }
    // SAFETY: `targets` is four 64-bit words, 32 bytes.
    unsafe { _mm256_storeu_si256(targets.as_mut_ptr().cast(), set) };
    at.min(len)
}

/// The values in the 256-bit set `set`.
#[inline]
#[target_feature(enable = "avx2,popcnt")]
fn count_ones(set: __m256i) -> u32 {
    _mm256_extract_epi64::<0>(set).count_ones()
        + _mm256_extract_epi64::<1>(set).count_ones()
        + _mm256_extract_epi64::<2>(set).count_ones()
        + _mm256_extract_epi64::<3>(set).count_ones()
}

/// [`super::scan`] for 16-bit values (below 1024).
pub(super) fn scan_u16(left: &[u16], right: &[u16], targets: &mut TargetSet) -> usize {
    assert!(available());
    // SAFETY: the CPU has AVX2, BMI1, BMI2 and POPCNT (asserted above).
    unsafe { scan_words(left, right, targets) }
}

/// The search of 16-bit values, 16 pairs a step: each value `x` (below 1024) gathers
/// the 32-bit word `x >> 5` of the set (`vpgatherdd`, eight lanes at a time: the set's
/// sixteen 64-bit words read as 32 little-endian words of 32 bits) and tests bit
/// `x & 31` of it. Each step's mask of hits is kept, and the values hit (read again
/// from the slices) are taken out of the set after each batch of steps.
///
/// # Safety
/// The CPU must support AVX2, BMI1, BMI2 and POPCNT.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
unsafe fn scan_words(left: &[u16], right: &[u16], targets: &mut TargetSet) -> usize {
    let len = left.len().min(right.len());
    let (left, right) = (&left[..len], &right[..len]);
    let below_1024 = _mm256_set1_epi32(1023);
    let thirty_one = _mm256_set1_epi32(31);
    let one = _mm256_set1_epi32(1);
    let mut hits = [0u32; 2 * BATCH];
    let mut at = 0;
    let mut remaining: u32 = targets.iter().map(|w| w.count_ones()).sum();
    let mut batch = 1;
    while remaining > 1 && at < len {
        let steps = batch.min((len - at).div_ceil(16));
        for (step, step_hits) in hits.iter_mut().enumerate().take(steps) {
            let from = at + 16 * step;
            let (lanes, x) = if from + 16 <= len {
                let l: &[u16; 16] = left[from..from + 16].try_into().expect("16 values");
                let r: &[u16; 16] = right[from..from + 16].try_into().expect("16 values");
                // SAFETY: `l` and `r` are 16 values of 16 bits, 32 bytes each.
                let x = unsafe {
                    _mm256_xor_si256(
                        _mm256_loadu_si256(l.as_ptr().cast()),
                        _mm256_loadu_si256(r.as_ptr().cast()),
                    )
                };
                (u32::MAX, x)
            } else {
                let (mut l, mut r) = ([0u16; 16], [0u16; 16]);
                l[..len - from].copy_from_slice(&left[from..]);
                r[..len - from].copy_from_slice(&right[from..]);
                // SAFETY: `l` and `r` are 16 values of 16 bits, 32 bytes each.
                let x = unsafe {
                    _mm256_xor_si256(
                        _mm256_loadu_si256(l.as_ptr().cast()),
                        _mm256_loadu_si256(r.as_ptr().cast()),
                    )
                };
                ((1u32 << (len - from)) - 1, x)
            };
            let mut mask = 0u32;
            for half in 0..2 {
                let x16 = if half == 0 {
                    _mm256_castsi256_si128(x)
                } else {
                    _mm256_extracti128_si256::<1>(x)
                };
                // Masked to 10 bits: every index below 32, inside `words`.
                let x32 = _mm256_and_si256(_mm256_cvtepu16_epi32(x16), below_1024);
                let index = _mm256_srli_epi32::<5>(x32);
                // SAFETY: every index is below 32, and `targets` is 128 bytes: each
                // lane reads the 4 bytes at `4 * index`.
                let word = unsafe { _mm256_i32gather_epi32::<4>(targets.as_ptr().cast(), index) };
                let bit = _mm256_and_si256(
                    _mm256_srlv_epi32(word, _mm256_and_si256(x32, thirty_one)),
                    one,
                );
                let hit = _mm256_cmpeq_epi32(bit, one);
                mask |= (_mm256_movemask_ps(_mm256_castsi256_ps(hit)) as u32) << (8 * half);
            }
            *step_hits = mask & lanes;
        }
        for (step, &step_hits) in hits.iter().enumerate().take(steps) {
            let from = at + 16 * step;
            let mut mask = step_hits;
            while mask != 0 {
                let i = from + mask.trailing_zeros() as usize;
                let value = usize::from((left[i] ^ right[i]) & 1023);
                targets[value >> 6] &= !(1 << (value & 63));
                mask &= mask - 1;
            }
        }
        at += 16 * steps;
        remaining = targets.iter().map(|w| w.count_ones()).sum();
        batch = (2 * batch).min(2 * BATCH);
    }
    at.min(len)
}

/// Values loaded 16 at a time into 16-bit lanes.
pub(super) trait Lanes: Sized + Copy + Into<u16> {
    /// The values `values[at..at + 16]`; panics when out of bounds.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    unsafe fn load16(values: &[Self], at: usize) -> __m256i;
}

impl Lanes for u16 {
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load16(values: &[u16], at: usize) -> __m256i {
        let chunk: &[u16; 16] = values[at..at + 16].try_into().expect("16 values");
        // SAFETY: `chunk` is 16 values of 16 bits, 32 bytes.
        unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) }
    }
}

impl Lanes for u8 {
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load16(values: &[u8], at: usize) -> __m256i {
        let chunk: &[u8; 16] = values[at..at + 16].try_into().expect("16 values");
        // SAFETY: `chunk` is 16 bytes.
        _mm256_cvtepu8_epi16(unsafe { _mm_loadu_si128(chunk.as_ptr().cast()) })
    }
}

/// [`super::find`] for 8- and 16-bit values.
pub(super) fn find<T: Lanes>(left: &[T], right: &[T], target: u32) -> Option<usize> {
    assert!(available());
    // SAFETY: the CPU has AVX2, BMI1, BMI2 and POPCNT (asserted above).
    unsafe { find_avx2(left, right, target) }
}

/// 32 pairs a step: two compares of 16 lanes, one branch.
///
/// # Safety
/// The CPU must support AVX2 and BMI1.
#[target_feature(enable = "avx2,bmi1")]
unsafe fn find_avx2<T: Lanes>(left: &[T], right: &[T], target: u32) -> Option<usize> {
    let len = left.len().min(right.len());
    if target > u32::from(u16::MAX) {
        return None;
    }
    let wanted = _mm256_set1_epi16(target as u16 as i16);
    let mut at = 0;
    while at + 32 <= len {
        // SAFETY: the features this function is compiled for; `load16` checks the
        // bounds.
        let (a, b) = unsafe {
            (
                _mm256_xor_si256(T::load16(left, at), T::load16(right, at)),
                _mm256_xor_si256(T::load16(left, at + 16), T::load16(right, at + 16)),
            )
        };
        // Two bits a lane: the byte mask of each 16-bit compare.
        let hits = u64::from(_mm256_movemask_epi8(_mm256_cmpeq_epi16(a, wanted)) as u32)
            | u64::from(_mm256_movemask_epi8(_mm256_cmpeq_epi16(b, wanted)) as u32) << 32;
        if hits != 0 {
            return Some(at + hits.trailing_zeros() as usize / 2);
        }
        at += 32;
    }
    (at..len).find(|&i| u32::from(left[i].into() ^ right[i].into()) == target)
}

/// [`super::mark_values`] for 8- and 16-bit values (the caller checked the sizes).
pub(super) fn mark_values<T: Lanes>(row: &mut [u8], bits: u32, stamp: u8, left: &[T], right: &[T]) {
    assert!(available());
    // SAFETY: the CPU has AVX2, BMI1, BMI2 and POPCNT (asserted above).
    unsafe { mark_values_avx2(row, bits, stamp, left, right) }
}

/// 16 pairs a step: the values computed in one vector, masked to `bits` bits, then
/// stored to one by one.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn mark_values_avx2<T: Lanes>(
    row: &mut [u8],
    bits: u32,
    stamp: u8,
    left: &[T],
    right: &[T],
) {
    assert!(bits < 16 && 1usize << bits <= row.len());
    let row = &mut row[..1 << bits];
    let len = left.len().min(right.len());
    let low_bits = _mm256_set1_epi16(((1u32 << bits) - 1) as u16 as i16);
    let mut at = 0;
    while at + 16 <= len {
        // SAFETY: the features this function is compiled for; `load16` checks the
        // bounds.
        let x = unsafe { _mm256_xor_si256(T::load16(left, at), T::load16(right, at)) };
        // SAFETY: masked to `bits` bits, every lane is below `row.len()`.
        unsafe { store_at(row, _mm256_and_si256(x, low_bits), stamp) };
        at += 16;
    }
    for i in at..len {
        row[usize::from(left[i].into() ^ right[i].into())] = stamp;
    }
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
    // SAFETY: the CPU has AVX2, BMI1, BMI2 and POPCNT (asserted above).
    unsafe { mark_pairs_avx2(rows, width, bits, stamp, g, base, rare) }
}

/// The 32 positions `k * width + (G(r) xor G(base + k - r))` of one rare heap are
/// computed in two vectors (the value masked to `bits` bits, so each position lies
/// in row `k`), then stored to one by one.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn mark_pairs_avx2<T: Lanes>(
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
    // SAFETY: `offsets` is 32 values of 16 bits: the loads read 0..16 and 16..32.
    let offsets = unsafe {
        [
            _mm256_loadu_si256(offsets.as_ptr().cast()),
            _mm256_loadu_si256(offsets[16..].as_ptr().cast()),
        ]
    };
    let low_bits = _mm256_set1_epi16(((1u32 << bits) - 1) as u16 as i16);
    for &r in rare {
        let r = r as usize;
        let own = _mm256_set1_epi16(g[r].into() as i16);
        for (half, offsets) in offsets.iter().enumerate() {
            // SAFETY: the features this function is compiled for; `load16` checks
            // the bounds of `g[base - r + 16 * half..][..16]`.
            let others = unsafe { T::load16(g, base - r + 16 * half) };
            let x = _mm256_and_si256(_mm256_xor_si256(own, others), low_bits);
            // SAFETY: lane `k` holds `k * width + x` with `x < 1 << bits <= width`,
            // below `LANES * width = rows.len()`.
            unsafe { store_at(rows, _mm256_add_epi16(x, *offsets), stamp) };
        }
    }
}

/// `bytes[p] = stamp` for the 16 offsets `p` in the 16-bit lanes of `positions`,
/// taken out four per 64-bit word by shifts (ALU work; one extract a lane would
/// queue on one port).
///
/// # Safety
/// The CPU must support AVX2, and every lane of `positions` must be below
/// `bytes.len()`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn store_at(bytes: &mut [u8], positions: __m256i, stamp: u8) {
    let halves = [
        _mm256_castsi256_si128(positions),
        _mm256_extracti128_si256::<1>(positions),
    ];
    for half in halves {
        for word in [
            _mm_cvtsi128_si64(half) as u64,
            _mm_extract_epi64::<1>(half) as u64,
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

/// [`super::unmarked`] with two compares per 64 bytes.
pub(super) fn unmarked(row: &[u8], stamp: u8, out: &mut [u64]) {
    assert!(available());
    // SAFETY: the CPU has AVX2, BMI1, BMI2 and POPCNT (asserted above).
    unsafe { unmarked_avx2(row, stamp, out) }
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn unmarked_avx2(row: &[u8], stamp: u8, out: &mut [u64]) {
    let stamps = _mm256_set1_epi8(stamp as i8);
    for (word, bytes) in out.iter_mut().zip(row.chunks_exact(64)) {
        // SAFETY: `bytes` is 64 bytes: the loads read 0..32 and 32..64.
        let (low, high) = unsafe {
            (
                _mm256_loadu_si256(bytes.as_ptr().cast()),
                _mm256_loadu_si256(bytes[32..].as_ptr().cast()),
            )
        };
        let marked = u64::from(_mm256_movemask_epi8(_mm256_cmpeq_epi8(low, stamps)) as u32)
            | u64::from(_mm256_movemask_epi8(_mm256_cmpeq_epi8(high, stamps)) as u32) << 32;
        *word = !marked;
    }
}
