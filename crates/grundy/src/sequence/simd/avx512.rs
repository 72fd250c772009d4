//! The AVX-512 kernels (F, BW, VL and VBMI2; VBMI and BITALG for the byte search).
//! Every `unsafe` here is either a call of a function compiled
//! for AVX-512 (made only after run-time detection) or a vector load from a slice
//! whose bounds are checked next to it.
#![allow(
    unsafe_code,
    reason = "AVX-512 intrinsics: target-feature calls after detection, and loads \
              from slices within their checked bounds"
)]

use std::arch::x86_64::*;

use super::TargetSet;

/// Whether this machine runs these kernels (detected once: the engine asks per heap).
fn available() -> bool {
    super::Isa::Avx512.runs()
}

/// Whether it runs the byte search too, which needs VBMI (`vpermb`), VBMI2
/// (`vpcompressb`) and BITALG (`vpshufbitqmb`).
pub(super) fn codes_available() -> bool {
    super::avx512_codes_run()
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
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512bitalg,popcnt")]
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
pub(super) fn mark_values<T: Lanes>(row: &mut [u8], bits: u32, stamp: u8, left: &[T], right: &[T]) {
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
