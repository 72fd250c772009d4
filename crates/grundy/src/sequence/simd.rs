//! The vector kernels of the sequence engine, and the portable loops that keep the
//! same promises: the multi-target search over the splits of a heap, the search of one
//! value, and the marking of the options of a block of heaps.
//!
//! The search looks at the pairs `(a, m - a)` in one pass for every wanted value at
//! once. A pair's value is `x = G(a) xor G(m - a)`; the wanted values are a bit set of
//! values below 1024 ([`TargetSet`]). Each value met that is still wanted is taken out
//! of the set, and the search stops as soon as the set is empty (or the pairs run out).
//!
//! Which instructions run is the [`Kernel`] the engine is given (by default the best
//! this machine has, detected at run time):
//! - `avx512` (x86-64 with AVX-512 F, BW, VL, VBMI2; module `avx512`): 32 pairs a
//!   step, the bit set in one vector register (two from value 512 on), `vpermw`
//!   (`vpermt2w`) picking the 16-bit word of each lane's value and a variable shift
//!   testing its bit; the values that hit are packed (`vpcompressw`) and taken out of
//!   the set every few steps. [`scan_codes`] does the same on bytes, 64 pairs a step,
//!   with VBMI and BITALG too (without them, AVX2's byte search). The pairs of rare
//!   heaps are gathered in bit sets in registers ([`mark_pairs_in_registers`]).
//! - `avx2` (x86-64-v3: AVX2, BMI1, BMI2, POPCNT; module `avx2`): the byte search 32
//!   pairs a step by `vpshufb` lookups into the two halves of the 256-bit set, 16-bit
//!   values by gathers of the set's words, and the pairs of rare heaps by byte stores
//!   whose positions are computed 16 at a time.
//! - `scalar`: the portable loops, the reference, on every machine.
//!
//! The kernels are chosen once per run by the engine's options, never by the
//! environment; tests compare every kernel the machine runs with the scalar one.

use super::storage::StoredValue;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;

/// A set of values below 1024: bit `v & 63` of word `v >> 6` is set when `v` is in it.
pub(crate) type TargetSet = [u64; 16];

/// Values a [`TargetSet`] can hold.
pub(crate) const TARGET_LIMIT: u32 = 1024;

/// A set of byte values (codes below 256): bit `c & 63` of word `c >> 6`.
pub(crate) type CodeSet = [u64; 4];

/// The instruction sets the kernels are written for. A value other than `Scalar` is
/// only made for a machine that runs it ([`Isa::runs`]), and each vector kernel
/// asserts it again before it calls a function compiled for those instructions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Isa {
    /// Plain Rust: the reference, on every machine.
    Scalar,
    /// x86-64 with AVX2, BMI1, BMI2 and POPCNT (x86-64-v3).
    Avx2,
    /// x86-64 with AVX-512 F, BW, VL and VBMI2, and AVX2; the byte search needs VBMI
    /// and BITALG too (else it is AVX2's).
    Avx512,
}

/// The CPU features of each vector instruction set, by `is_x86_feature_detected!`'s
/// names.
const AVX2_FEATURES: [&str; 4] = ["avx2", "bmi1", "bmi2", "popcnt"];
const AVX512_FEATURES: [&str; 8] = [
    "avx2",
    "bmi1",
    "bmi2",
    "popcnt",
    "avx512f",
    "avx512bw",
    "avx512vl",
    "avx512vbmi2",
];
const AVX512_CODE_FEATURES: [&str; 2] = ["avx512vbmi", "avx512bitalg"];

/// Whether this machine has the CPU feature `name`. Never under Miri, which
/// interprets the portable loops only.
fn has_feature(name: &str) -> bool {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        match name {
            "avx2" => std::arch::is_x86_feature_detected!("avx2"),
            "bmi1" => std::arch::is_x86_feature_detected!("bmi1"),
            "bmi2" => std::arch::is_x86_feature_detected!("bmi2"),
            "popcnt" => std::arch::is_x86_feature_detected!("popcnt"),
            "avx512f" => std::arch::is_x86_feature_detected!("avx512f"),
            "avx512bw" => std::arch::is_x86_feature_detected!("avx512bw"),
            "avx512vl" => std::arch::is_x86_feature_detected!("avx512vl"),
            "avx512vbmi2" => std::arch::is_x86_feature_detected!("avx512vbmi2"),
            "avx512vbmi" => std::arch::is_x86_feature_detected!("avx512vbmi"),
            "avx512bitalg" => std::arch::is_x86_feature_detected!("avx512bitalg"),
            _ => false,
        }
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    {
        let _ = name;
        false
    }
}

/// What this machine runs, detected once (the kernels ask per call).
#[derive(Debug, Clone, Copy)]
struct Detected {
    avx2: bool,
    avx512: bool,
    avx512_codes: bool,
}

fn detected() -> Detected {
    static DETECTED: std::sync::OnceLock<Detected> = std::sync::OnceLock::new();
    *DETECTED.get_or_init(|| {
        let all = |features: &[&str]| features.iter().all(|f| has_feature(f));
        let avx512 = all(&AVX512_FEATURES);
        Detected {
            avx2: all(&AVX2_FEATURES),
            avx512,
            avx512_codes: avx512 && all(&AVX512_CODE_FEATURES),
        }
    })
}

/// Whether the AVX-512 byte search runs here (VBMI and BITALG besides the rest).
fn avx512_codes_run() -> bool {
    detected().avx512_codes
}

impl Isa {
    /// Every instruction set, the reference first.
    pub(crate) const ALL: [Self; 3] = [Self::Scalar, Self::Avx2, Self::Avx512];

    /// Whether this machine runs the kernels of this instruction set.
    pub(crate) fn runs(self) -> bool {
        match self {
            Self::Scalar => true,
            Self::Avx2 => detected().avx2,
            Self::Avx512 => detected().avx512,
        }
    }

    /// The fastest instruction set this machine runs.
    pub(crate) fn best() -> Self {
        [Self::Avx512, Self::Avx2]
            .into_iter()
            .find(|isa| isa.runs())
            .unwrap_or(Self::Scalar)
    }

    /// The CPU features this instruction set needs.
    pub(crate) const fn features(self) -> &'static [&'static str] {
        match self {
            Self::Scalar => &[],
            Self::Avx2 => &AVX2_FEATURES,
            Self::Avx512 => &AVX512_FEATURES,
        }
    }

    /// The features it needs that this machine lacks (all of them off x86-64).
    pub(crate) fn missing_features(self) -> Vec<&'static str> {
        missing_of(self.features(), has_feature)
    }

    /// The kernel's name, as `--kernel` takes it.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Self::Scalar => "scalar",
            Self::Avx2 => "avx2",
            Self::Avx512 => "avx512",
        }
    }
}

/// The features of `features` that `has` lacks.
fn missing_of(features: &[&'static str], has: impl Fn(&str) -> bool) -> Vec<&'static str> {
    features.iter().copied().filter(|f| !has(f)).collect()
}

/// The instructions the sequence engine computes with: plain Rust (`scalar`, the
/// reference, on every machine) or x86-64 vector instructions (`avx2`: AVX2, BMI1,
/// BMI2 and POPCNT; `avx512`: AVX-512 F, BW, VL and VBMI2 besides, and VBMI and BITALG
/// for its byte search). Every kernel gives the same values; only the speed differs.
/// A `Kernel` always names one this machine runs: [`Kernel::auto`] (the default) is
/// the fastest, and [`Kernel::named`] refuses one the machine lacks.
///
/// ```
/// use grundy::sequence::{Kernel, Method, SequenceSolver};
/// use grundy::rules::HeapRule;
///
/// let officers = HeapRule::octal("0.6").unwrap();
/// let mut reference = SequenceSolver::new(officers.clone(), Method::SparseSpace)
///     .with_kernel(Kernel::scalar());
/// reference.extend_to(20_000);
/// for kernel in Kernel::on_this_machine() {
///     let mut solver = SequenceSolver::new(officers.clone(), Method::SparseSpace)
///         .with_kernel(kernel);
///     solver.extend_to(20_000);
///     assert_eq!(solver.values(), reference.values(), "{kernel}");
/// }
/// assert!(Kernel::named("scalar").is_ok());
/// assert!(Kernel::named("sse9").is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Kernel(Isa);

impl Kernel {
    /// The names [`Kernel::named`] reads: `auto` and one per kernel.
    pub const NAMES: [&'static str; 4] = ["auto", "scalar", "avx2", "avx512"];

    /// The fastest kernel this machine runs (detected once).
    pub fn auto() -> Self {
        Self(Isa::best())
    }

    /// The portable kernel, the reference: it runs everywhere.
    pub const fn scalar() -> Self {
        Self(Isa::Scalar)
    }

    /// The kernel named `name` (one of [`Kernel::NAMES`], any case).
    ///
    /// # Errors
    /// [`KernelError::Unknown`] for another name, [`KernelError::NotHere`] for a
    /// kernel whose instructions this machine lacks.
    pub fn named(name: &str) -> Result<Self, KernelError> {
        let name = name.trim().to_ascii_lowercase();
        if name == "auto" {
            return Ok(Self::auto());
        }
        let isa = Isa::ALL
            .into_iter()
            .find(|isa| isa.name() == name)
            .ok_or_else(|| KernelError::Unknown(name.clone()))?;
        if isa.runs() {
            Ok(Self(isa))
        } else {
            Err(KernelError::NotHere {
                kernel: isa.name(),
                missing: isa.missing_features(),
            })
        }
    }

    /// The kernels this machine runs, the scalar one first.
    pub fn on_this_machine() -> Vec<Self> {
        Isa::ALL
            .into_iter()
            .filter(|isa| isa.runs())
            .map(Self)
            .collect()
    }

    /// Its name: `scalar`, `avx2` or `avx512`.
    pub const fn name(self) -> &'static str {
        self.0.name()
    }

    pub(crate) const fn isa(self) -> Isa {
        self.0
    }

    /// The kernel of `isa`, which this machine must run.
    #[cfg(test)]
    pub(crate) fn of(isa: Isa) -> Self {
        assert!(isa.runs(), "this machine does not run {isa:?}");
        Self(isa)
    }
}

impl Default for Kernel {
    /// [`Kernel::auto`].
    fn default() -> Self {
        Self::auto()
    }
}

impl std::fmt::Display for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Kernel {
    type Err = KernelError;

    fn from_str(name: &str) -> Result<Self, KernelError> {
        Self::named(name)
    }
}

/// A kernel asked for by name that cannot be had (see [`Kernel::named`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KernelError {
    /// No kernel has this name.
    #[error("no kernel is named {0:?} (the kernels: auto, scalar, avx2, avx512)")]
    Unknown(String),
    /// The kernel needs instructions this machine lacks.
    #[error(
        "this machine cannot run the {kernel} kernel: it lacks {}; it runs {}",
        missing.join(", "),
        runs_here()
    )]
    NotHere {
        /// The kernel asked for.
        kernel: &'static str,
        /// The CPU features it lacks (all of them off x86-64).
        missing: Vec<&'static str>,
    },
}

/// The kernels this machine runs, for a message: `auto, scalar, avx2`.
fn runs_here() -> String {
    std::iter::once("auto")
        .chain(Kernel::on_this_machine().into_iter().map(Kernel::name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The vector kernels a test compares with the scalar one: those this machine runs.
/// For each it does not run (on such a machine the test would only run the portable
/// loops again) the test says so on standard error, once per test and past the test
/// harness's capture, as `SKIPPED: TEST: the avx512 kernel not compared with the scalar
/// one (no avx512vbmi2, ...)`; built with the feature `require-simd` (for a CI machine
/// that has AVX-512) an x86-64 kernel left out fails the test instead.
#[cfg(test)]
pub(crate) fn vector_kernels(test: &str) -> Vec<Isa> {
    Isa::ALL[1..]
        .iter()
        .copied()
        .filter(|&isa| kernel_runs(test, isa.name(), &isa.missing_features()))
        .collect()
}

/// Whether the part of the test `test` that needs `what` (a kernel, or the AVX-512
/// byte search) runs: true when nothing is `missing`; otherwise it says so, as
/// [`vector_kernels`] does, or fails with the feature `require-simd`.
#[cfg(test)]
pub(crate) fn kernel_runs(test: &str, what: &str, missing: &[&str]) -> bool {
    if missing.is_empty() {
        return true;
    }
    if cfg!(feature = "require-simd") && cfg!(target_arch = "x86_64") && !cfg!(miri) {
        panic!(
            "the feature require-simd is on, but {test} cannot compare the {what} kernel: no {}",
            missing.join(", no ")
        );
    }
    let line = skipped_line(test, what, missing);
    static SAID: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut said = SAID
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if !said.contains(&line) {
        said.push(line.clone());
        // Written to the stream itself: `eprintln!` would be captured, and shown only
        // if the test failed.
        use std::io::Write;
        let _ = writeln!(std::io::stderr().lock(), "{line}");
    }
    false
}

/// Whether the AVX-512 byte search runs in the test `test` (see [`kernel_runs`]).
#[cfg(test)]
pub(crate) fn avx512_byte_search_runs(test: &str) -> bool {
    let mut missing = Isa::Avx512.missing_features();
    missing.extend(missing_of(&AVX512_CODE_FEATURES, has_feature));
    kernel_runs(test, "avx512 byte search", &missing)
}

/// The line [`kernel_runs`] writes.
#[cfg(test)]
fn skipped_line(test: &str, what: &str, missing: &[&str]) -> String {
    format!(
        "SKIPPED: {test}: the {what} kernel not compared with the scalar one (no {})",
        missing.join(", no ")
    )
}

/// Looks at the pairs `(left[i], right[i])` in order and takes each value
/// `left[i] xor right[i]` found in `targets` out of it; may stop once at most one value
/// is left in `targets` (the portable loop does: a single value is searched faster by
/// plain compares; the vector searches go on until none is left, or one for the
/// search of bytes). Returns how many pairs were looked at: the values left are in none
/// of them (the vector searches count whole steps).
///
/// Every value in `left` and `right` must be below [`TARGET_LIMIT`].
pub(crate) fn scan<T: StoredValue>(
    left: &[T],
    right: &[T],
    targets: &mut TargetSet,
    isa: Isa,
) -> usize {
    match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => {
            if let (Some(l), Some(r)) = (T::as_u16(left), T::as_u16(right)) {
                return avx512::scan(l, r, targets);
            }
            if let (Some(l), Some(r)) = (T::as_u8(left), T::as_u8(right)) {
                return avx512::scan(l, r, targets);
            }
        }
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => {
            if let (Some(l), Some(r)) = (T::as_u16(left), T::as_u16(right)) {
                return avx2::scan_u16(l, r, targets);
            }
            if let (Some(l), Some(r)) = (T::as_u8(left), T::as_u8(right)) {
                return avx2::scan_u8(l, r, targets);
            }
        }
        _ => {}
    }
    scan_portable(left, right, targets)
}

/// [`scan`] over bytes, 64 pairs per step with AVX-512, 32 with AVX2: takes out of
/// `targets` each code `left[i] xor right[i]` met, leaving out pair `i` when bit
/// `i % 64` of `skip[i / 64]` is set (words past the end of `skip` skip nothing); may
/// stop once at most one code is left. Returns how many pairs were looked at (whole
/// steps), or `None` (nothing done) for the scalar kernel: the caller then uses
/// [`scan`].
pub(crate) fn scan_codes(
    left: &[u8],
    right: &[u8],
    skip: &[u64],
    targets: &mut CodeSet,
    isa: Isa,
) -> Option<usize> {
    match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 if avx512_codes_run() => Some(avx512::scan_codes(left, right, skip, targets)),
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 | Isa::Avx2 => Some(avx2::scan_codes(left, right, skip, targets)),
        _ => {
            let _ = (left, right, skip, targets);
            None
        }
    }
}

/// Heaps whose option rows [`mark_pairs`] fills at once.
pub(crate) const MARK_LANES: usize = 32;

/// For each `r` of `rare` and `k < MARK_LANES`: `rows[k * width + (G(r) xor
/// G(base + k - r))] = stamp`, where every value is below `1 << bits`. Returns false
/// (and marks nothing) when no vector version applies: the scalar kernel, values
/// wider than 16 bits, or `MARK_LANES * width` beyond 16 bits; the caller then marks
/// the pairs itself.
///
/// Panics unless `1 << bits <= width`, `rows` holds `MARK_LANES` rows, and every
/// heap `base + k - r` is below `g.len()`.
#[allow(
    clippy::too_many_arguments,
    reason = "the block's rows and the pairs' parts"
)]
pub(crate) fn mark_pairs<T: StoredValue>(
    rows: &mut [u8],
    width: usize,
    bits: u32,
    stamp: u8,
    g: &[T],
    base: usize,
    rare: &[u32],
    isa: Isa,
) -> bool {
    assert!(bits < 16 && 1usize << bits <= width);
    assert!(rows.len() >= MARK_LANES * width);
    if MARK_LANES * width > usize::from(u16::MAX) {
        return false;
    }
    match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => {
            if let Some(g) = T::as_u16(g) {
                avx512::mark_pairs(rows, width, bits, stamp, g, base, rare);
                return true;
            }
            if let Some(g) = T::as_u8(g) {
                avx512::mark_pairs(rows, width, bits, stamp, g, base, rare);
                return true;
            }
        }
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => {
            if let Some(g) = T::as_u16(g) {
                avx2::mark_pairs(rows, width, bits, stamp, g, base, rare);
                return true;
            }
            if let Some(g) = T::as_u8(g) {
                avx2::mark_pairs(rows, width, bits, stamp, g, base, rare);
                return true;
            }
        }
        _ => {}
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
/// cycle per pair, against about 1 for a byte store); the sets are written to the
/// rows once, 64 bytes per masked store. Returns false (and marks nothing) when this
/// does not apply: a kernel other than AVX-512 (AVX2 has too few registers to hold
/// the sets), or values wider than 16 bits.
///
/// Panics unless `rows` holds `MARK_LANES` rows of `width` bytes, a multiple of 64 and
/// above every value marked (at least 512 with `ninth`), and every heap
/// `base + k - r` is below `g.len()`.
#[allow(
    clippy::too_many_arguments,
    reason = "the block's rows and the pairs' parts"
)]
pub(crate) fn mark_pairs_in_registers<T: StoredValue>(
    rows: &mut [u8],
    width: usize,
    stamp: u8,
    g: &[T],
    base: usize,
    rare: &[u32],
    ninth: Option<NinthBit>,
    isa: Isa,
) -> bool {
    assert!(width.is_multiple_of(64) && (ninth.is_none() || width >= 512));
    assert!(rows.len() >= MARK_LANES * width);
    #[cfg(target_arch = "x86_64")]
    if isa == Isa::Avx512 {
        let mut sets = [[0u64; 4]; MARK_LANES];
        if let Some(g) = T::as_u16(g) {
            avx512::byte_sets(g, base, rare, &mut sets);
        } else if let Some(g) = T::as_u8(g) {
            avx512::byte_sets(g, base, rare, &mut sets);
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
            avx512::store_stamps(row, &words, stamp);
        }
        return true;
    }
    let _ = (stamp, g, base, rare, ninth, isa);
    false
}

/// Whether [`mark_pairs_in_registers`] runs with `isa`.
pub(crate) fn marks_in_registers(isa: Isa) -> bool {
    isa == Isa::Avx512
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
    isa: Isa,
) {
    assert!(bits < 16 && 1usize << bits <= row.len());
    match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => {
            if let (Some(l), Some(r)) = (T::as_u16(left), T::as_u16(right)) {
                return avx512::mark_values(row, bits, stamp, l, r);
            }
            if let (Some(l), Some(r)) = (T::as_u8(left), T::as_u8(right)) {
                return avx512::mark_values(row, bits, stamp, l, r);
            }
        }
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => {
            if let (Some(l), Some(r)) = (T::as_u16(left), T::as_u16(right)) {
                return avx2::mark_values(row, bits, stamp, l, r);
            }
            if let (Some(l), Some(r)) = (T::as_u8(left), T::as_u8(right)) {
                return avx2::mark_values(row, bits, stamp, l, r);
            }
        }
        _ => {}
    }
    for (&l, &r) in left.iter().zip(right) {
        row[(l ^ r).get() as usize] = stamp;
    }
}

/// The first `i` with `left[i] xor right[i] == target`, by vector compares; `None`
/// also when no vector version applies (the caller then searches itself): check
/// [`find_applies`] first.
pub(crate) fn find<T: StoredValue>(
    left: &[T],
    right: &[T],
    target: u32,
    isa: Isa,
) -> Option<usize> {
    match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => {
            if let (Some(l), Some(r)) = (T::as_u16(left), T::as_u16(right)) {
                return avx512::find(l, r, target);
            }
            if let (Some(l), Some(r)) = (T::as_u8(left), T::as_u8(right)) {
                return avx512::find(l, r, target);
            }
        }
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => {
            if let (Some(l), Some(r)) = (T::as_u16(left), T::as_u16(right)) {
                return avx2::find(l, r, target);
            }
            if let (Some(l), Some(r)) = (T::as_u8(left), T::as_u8(right)) {
                return avx2::find(l, r, target);
            }
        }
        _ => {}
    }
    let _ = (left, right, target);
    None
}

/// True when [`find`] searches values of this type with `isa`.
pub(crate) fn find_applies<T: StoredValue>(values: &[T], isa: Isa) -> bool {
    isa != Isa::Scalar && (T::as_u16(values).is_some() || T::as_u8(values).is_some())
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
pub(crate) fn unmarked(row: &[u8], stamp: u8, out: &mut [u64], isa: Isa) {
    match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => return avx512::unmarked(row, stamp, out),
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => return avx2::unmarked(row, stamp, out),
        _ => {}
    }
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

/// Every kernel is compared with the definition (and so with the scalar one) where
/// the machine runs it; for each kernel it does not run, each test still checks the
/// portable loops against the definition, and says on standard error `SKIPPED: TEST:
/// the avx512 kernel not compared ... (no avx512vbmi2, ...)` ([`vector_kernels`]);
/// the feature `require-simd` turns that into a failure, for a CI machine that must
/// run them. Under Miri (no vector kernel runs) only the portable loops are checked.
#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The kernels `test` compares: the scalar one everywhere, and each vector kernel
    /// this machine runs.
    fn paths(test: &str) -> Vec<Isa> {
        std::iter::once(Isa::Scalar)
            .chain(vector_kernels(test))
            .collect()
    }

    #[test]
    fn the_features_named_are_those_detected() {
        for isa in Isa::ALL {
            assert_eq!(isa.runs(), isa.missing_features().is_empty(), "{isa:?}");
        }
        assert!(Isa::Scalar.runs());
        assert!(Isa::best().runs());
        assert_eq!(
            avx512_codes_run(),
            Isa::Avx512.runs() && missing_of(&AVX512_CODE_FEATURES, has_feature).is_empty()
        );
        // A machine with AVX-512 but without VBMI2, VBMI and BITALG (Skylake-X).
        let skylake =
            |feature: &str| !matches!(feature, "avx512vbmi" | "avx512vbmi2" | "avx512bitalg");
        assert!(missing_of(Isa::Avx2.features(), skylake).is_empty());
        let missing = missing_of(Isa::Avx512.features(), skylake);
        assert_eq!(missing, ["avx512vbmi2"]);
        assert_eq!(
            skipped_line("code_scan_keeps_its_promise", "avx512", &missing),
            "SKIPPED: code_scan_keeps_its_promise: the avx512 kernel not compared with the \
             scalar one (no avx512vbmi2)"
        );
        assert_eq!(missing_of(Isa::Avx512.features(), |_| false).len(), 8);
    }

    /// The public names: every kernel by its name, `auto` the best, and the errors.
    #[test]
    fn kernels_are_named() {
        assert_eq!(Kernel::named("auto"), Ok(Kernel::auto()));
        assert_eq!(Kernel::named(" Scalar "), Ok(Kernel::scalar()));
        assert_eq!(Kernel::default(), Kernel::auto());
        assert_eq!(Kernel::on_this_machine()[0], Kernel::scalar());
        for isa in Isa::ALL {
            match Kernel::named(isa.name()) {
                Ok(kernel) => {
                    assert!(isa.runs());
                    assert_eq!(kernel.isa(), isa);
                    assert_eq!(kernel.to_string(), isa.name());
                    assert!(Kernel::on_this_machine().contains(&kernel));
                }
                Err(KernelError::NotHere { kernel, missing }) => {
                    assert!(!isa.runs());
                    assert_eq!(kernel, isa.name());
                    assert!(!missing.is_empty());
                }
                Err(other) => panic!("{isa:?}: {other}"),
            }
            assert!(Kernel::NAMES.contains(&isa.name()));
        }
        let unknown = "sse9".parse::<Kernel>().unwrap_err();
        assert_eq!(
            unknown.to_string(),
            "no kernel is named \"sse9\" (the kernels: auto, scalar, avx2, avx512)"
        );
        let not_here = KernelError::NotHere {
            kernel: "avx512",
            missing: vec!["avx512f", "avx512bw"],
        };
        assert!(
            not_here
                .to_string()
                .starts_with("this machine cannot run the avx512 kernel: it lacks avx512f, avx512bw; it runs auto, scalar"),
            "{not_here}"
        );
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
            for isa in paths("unmarked_matches_bytes") {
                let mut out = vec![0; words];
                unmarked(&row, stamp, &mut out, isa);
                prop_assert_eq!(&out, &expected);
            }
        }
    }

    /// What [`scan`] promises: the values taken out are exactly the wanted values met
    /// in the pairs looked at, and it looked at every pair unless at most one value is
    /// left.
    fn check_scan<T: StoredValue>(left: &[T], right: &[T], wanted: &TargetSet, isa: Isa) -> usize {
        let mut after = *wanted;
        let looked = scan(left, right, &mut after, isa);
        assert!(looked <= left.len());
        let mut met = [0u64; 16];
        for (&l, &r) in left[..looked].iter().zip(right) {
            let x = (l ^ r).get();
            met[(x >> 6) as usize] |= 1 << (x & 63);
        }
        for w in 0..16 {
            assert_eq!(after[w], wanted[w] & !met[w], "word {w}, {isa:?}");
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
        for isa in paths("finds_each_value_once_and_stops_when_one_is_left") {
            check_scan(&left, &right, &set_of(&[3, 7, 90]), isa);
            assert_eq!(check_scan(&left, &right, &set_of(&[3, 700, 800]), isa), 100);
            let bytes: Vec<u8> = (0..100).collect();
            let zeros = vec![0u8; 100];
            // 700 and 800 cannot be met by bytes: the scan reads every pair.
            assert_eq!(
                check_scan(&bytes, &zeros, &set_of(&[3, 700, 800]), isa),
                100
            );
        }
        assert_eq!(first(&set_of(&[700, 513])), Some(513));
        assert_eq!(first(&[0; 16]), None);
    }

    /// The portable and the vector scans all keep [`scan`]'s promise, and the vector
    /// ones look at least as far (they count whole steps); `test` names the caller in
    /// the line saying a kernel is skipped.
    fn both_keep_the_promise<T: StoredValue>(
        test: &str,
        left: &[T],
        right: &[T],
        wanted: &[u32],
    ) -> Result<(), TestCaseError> {
        let wanted = set_of(wanted);
        let portable = check_scan(left, right, &wanted, Isa::Scalar);
        for isa in vector_kernels(test) {
            let vector = check_scan(left, right, &wanted, isa);
            prop_assert!(vector >= portable, "{:?}", isa);
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
            for isa in paths("vector_scan_finds_values_met_early") {
                check_scan(&left, &right, &set_of(&wanted), isa);
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
        /// portable twin: with the scalar kernel the engine marks the pairs itself).
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
            let mut expected_narrow = vec![0u8; MARK_LANES * width];
            for &r in &rare {
                let r = r as usize;
                for k in 0..MARK_LANES {
                    expected_narrow[k * width + usize::from(narrow[r] ^ narrow[base + k - r])] = stamp;
                }
            }
            for isa in paths("mark_pairs_marks_every_pair_and_nothing_else") {
                rows.fill(0);
                let marked = mark_pairs(&mut rows, width, bits, stamp, &g, base, &rare, isa);
                prop_assert_eq!(marked, isa != Isa::Scalar);
                if marked {
                    prop_assert_eq!(&rows, &expected);
                }
                // 8-bit values: the same with the top bit dropped.
                rows.fill(0);
                let marked = mark_pairs(&mut rows, width, 8, stamp, &narrow, base, &rare, isa);
                prop_assert_eq!(marked, isa != Isa::Scalar);
                if marked {
                    prop_assert_eq!(&rows, &expected_narrow);
                }
            }
        }

        /// The byte search keeps the promise of [`scan`], leaving the skipped heaps out
        /// (no portable twin: with the scalar kernel the engine searches by [`scan`]).
        /// The AVX-512 kernel uses AVX2's byte search without VBMI and BITALG.
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
            let kernels = paths("code_scan_keeps_its_promise");
            if kernels.contains(&Isa::Avx512) {
                avx512_byte_search_runs("code_scan_keeps_its_promise");
            }
            for (isa, skip) in kernels.into_iter().flat_map(|isa| [(isa, &[][..]), (isa, &bits[..])]) {
                let mut after = targets;
                let looked = scan_codes(&left, &right, skip, &mut after, isa);
                prop_assert_eq!(looked.is_some(), isa != Isa::Scalar);
                let Some(looked) = looked else {
                    continue;
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
                for isa in paths("mark_pairs_in_registers_marks_every_pair_and_nothing_else") {
                    let mut rows = vec![0u8; MARK_LANES * width];
                    let marked = match ninth {
                        None => mark_pairs_in_registers(&mut rows, width, stamp, &narrow, base, &rare, None, isa),
                        Some(_) => mark_pairs_in_registers(&mut rows, width, stamp, &g, base, &rare, ninth, isa),
                    };
                    prop_assert_eq!(marked, marks_in_registers(isa));
                    if marked {
                        prop_assert_eq!(&rows, &expected);
                    }
                }
            }
        }

        #[test]
        fn mark_values_marks_every_pair((left, right, _w) in case(10), stamp in 1u8..255) {
            let mut expected = vec![0u8; 1024 + 64];
            for (&l, &r) in left.iter().zip(&right) {
                expected[usize::from(l ^ r)] = stamp;
            }
            for isa in paths("mark_values_marks_every_pair") {
                let mut row = vec![0u8; 1024 + 64];
                mark_values(&mut row, 10, stamp, &left, &right, isa);
                prop_assert_eq!(&row, &expected);
            }
        }

        #[test]
        fn find_gives_the_first_pair((left, right, _w) in case(9), target in 0u32..512) {
            // No portable twin: with the scalar kernel the engine searches by compares
            // itself.
            let expected = left
                .iter()
                .zip(&right)
                .position(|(&l, &r)| u32::from(l ^ r) == target);
            let narrow = |v: &[u16]| v.iter().map(|&x| x as u8).collect::<Vec<u8>>();
            let (l8, r8) = (narrow(&left), narrow(&right));
            let expected_narrow = l8
                .iter()
                .zip(&r8)
                .position(|(&l, &r)| u32::from(l ^ r) == target);
            for isa in paths("find_gives_the_first_pair") {
                prop_assert_eq!(find_applies(&left, isa), isa != Isa::Scalar);
                prop_assert_eq!(find_applies(&l8, isa), isa != Isa::Scalar);
                if find_applies(&left, isa) {
                    prop_assert_eq!(find(&left, &right, target, isa), expected);
                    prop_assert_eq!(find(&l8, &r8, target, isa), expected_narrow);
                }
            }
        }
    }
}
