//! A proof of arithmetic periodicity for take-and-break codes: the *level test*.
//!
//! Octal codes are never arithmetic-periodic (Horrocks and Nowakowski, *Regularity in
//! the G-sequences of octal games with a pass*, Integers 3 (2003)); hexadecimal codes,
//! whose moves may leave three heaps, often are. Howse and Nowakowski (*Periodicity
//! and arithmetic-periodicity in hexadecimal games*, Theoret. Comput. Sci. 313 (2004))
//! prove such sequences with a finite test. We could not check the exact statement of
//! their theorem, so grundy proves its own, stated and proved here; it is sound for
//! every finite code (octal or hexadecimal) and certifies the common case where the
//! saltus is a power of two above every value of the first `n0 + p` heaps.
//!
//! # The theorem
//!
//! Let `d0.d1...dk` be a code, `G` its Grundy sequence, and `n0 >= 0`, `p >= 1`,
//! `s = 2^m` such that
//!
//! - **(H1)** `G(n) < s` for every `n < n0 + p`;
//! - **(H2)** `G(n + p) = G(n) + s` for `n0 <= n` and `n + p < L`, where
//!   `L >= n0 + p + k + 1`.
//!
//! Write `h(n) = max(0, floor((n - n0) / p))` (the *level* of a heap), `x(n) = (n - n0) mod p`
//! and `low(x) = G(n0 + x)`; the claim is `G(n) = low(x(n)) + s·h(n)` for `n >= n0`.
//! Call heaps below `n0 + p` *small* (level 0) and the others *big*. Because every low
//! value is below `s = 2^m`, the nim-sum of heaps splits into a low part and a level part:
//! `xor G(a_i) = (xor low_i) + s·(xor h(a_i))`.
//!
//! Then `G(n + p) = G(n) + s` for every `n >= n0` if the following finite checks hold:
//!
//! - **(C1) the top level.** For each offset `x` and each `r` in 1..=3, the mex of
//!   `T_1(x) ∪ ... ∪ T_r(x)` is `low(x)`, where `T_q(x)` is the set of
//!   `low(x_1) ^ ... ^ low(x_q) ^ G(c_1) ^ ... ^ G(c_t)` over moves removing `j` tokens
//!   and leaving `q` big parts with offsets `x_i` and `t` small parts `c_i` (sizes
//!   `1..n0 + p`, `q + t` heaps allowed by `d_j`), with
//!   `x_1 + ... + x_q + c_1 + ... + c_t = x - j - (q - 1)·n0`.
//! - **(C2) the lower levels are full.** For each offset `x` and each `e` in `1..=E`
//!   (`E` below), the set `F(x, e)` defined below is all of `0..s`.
//!
//! *Proof* (induction on `N >= L`; below `L` it is (H2)). Let `H = h(N) >= 1` and
//! `x = x(N)`. A move removes `j <= k < N` tokens and leaves parts summing to `N - j`.
//!
//! 1. *No option is above level `H`.* `h` is superadditive (`h(a) + h(b) <= h(a + b)`:
//!    both floors drop at most one `n0`) and non-decreasing, so the level of an option,
//!    `xor h(a_i) <= sum h(a_i) <= h(N - j) <= H`.
//! 2. *Level `H` is exactly `T_1 ∪ ... ∪ T_r` with `r = min(3, popcount(H))`.* An option
//!    at level `H` has `xor h(a_i) = sum h(a_i) = H`: its big parts have levels with
//!    disjoint bits summing to `H`, which exist for `q` big parts exactly when
//!    `popcount(H) >= q`. Writing each big part `n0 + h_i·p + x_i`, the sizes sum to
//!    `N - j = n0 + H·p + x - j` exactly when the offsets and small parts satisfy the
//!    equation of (C1), whatever the levels `h_i`; the values are the `T_q(x)` elements.
//! 3. *Every level `c < H` is full.* Let `e = H - c`. Two families of options are
//!    always there:
//!    - `F1`: one big part `n0 + c·p + y` and `t <= 2` small parts summing to `S`, with
//!      `y = x - j - S + e·p` in `0..p`: value `low(y) ^ xor G(small)` at level `c`;
//!    - `F3` (codes leaving three heaps): parts `n0 + w·p + x_1`, `n0 + w·p + x_2`,
//!      `n0 + c·p + x_3` at level `w ^ w ^ c = c`, for every `δ <= e` with
//!      `δ ≡ e (mod 2)`, `w = (e - δ)/2` and
//!      `x_1 + x_2 + x_3 = x - j - 2·n0 + δ·p` in `0..=3(p - 1)`: value
//!      `low(x_1) ^ low(x_2) ^ low(x_3)`.
//!
//!    A part of size 0 (only when `n0 = 0` and its offset and level are 0) is no heap;
//!    such a family member counts only if `d_j` allows every number of heaps it may
//!    leave. `F(x, e)` is the union of both families. For `e > E`, with `E` two more
//!    than the largest `δ` and the largest `e` of `F1`, `F1` is empty and every `w >= 1`,
//!    so `F(x, e) = F(x, e - 2)`: checking `e <= E` covers every level.
//! 4. So every value below `s·H` is an option, none is above level `H`, and the mex at
//!    level `H` is `low(x)` by (C1) and step 2: `G(N) = low(x) + s·H`.
//!
//! (H1) fails for some sequences with the smallest period, but may hold for a multiple:
//! if `G(n + p) = G(n) + s`, then `G(n + 2p) = G(n) + 2s`, and proving the multiple for
//! all `n` proves the original once it is seen on one period of the multiple. The test
//! tries the multiples `2^i·p` whose saltus is a power of two.
//!
//! The test is sufficient, not necessary: a sequence that fails it stays unproven. It
//! is exercised against computed values far past the heaps it needs (module tests).

use std::cell::Cell;

use crate::rules::octal::TakeAndBreak;

/// The largest saltus, period and work the test accepts (beyond them: unproven).
const MAX_SALTUS: u32 = 1 << 12;
const MAX_PERIOD: usize = 1 << 12;
const MAX_WORK: u64 = 400_000_000;

/// A set of values below the saltus.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ValueSet(Vec<u64>);

impl ValueSet {
    fn empty(size: u32) -> Self {
        Self(vec![0; (size as usize).div_ceil(64)])
    }

    fn insert(&mut self, value: u32) {
        self.0[(value >> 6) as usize] |= 1 << (value & 63);
    }

    fn union_with(&mut self, other: &Self) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }

    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let bit = bits.trailing_zeros();
                    bits &= bits - 1;
                    (i as u32) * 64 + bit
                })
            })
        })
    }

    /// The smallest value not in the set (`size` when every value below it is).
    fn mex(&self, size: u32) -> u32 {
        (0..size)
            .find(|&v| self.0[(v >> 6) as usize] >> (v & 63) & 1 == 0)
            .unwrap_or(size)
    }
}

/// The test's working state for one candidate `(n0, p, s)`.
struct LevelTest<'a> {
    code: &'a TakeAndBreak,
    preperiod: usize,
    period: usize,
    saltus: u32,
    /// `low[x] = G(n0 + x)`.
    low: Vec<u32>,
    /// `small[t][sum]`: nim-sums of `t` small heaps (sizes `1..n0 + p`) of total `sum`.
    small: [Vec<ValueSet>; 3],
    /// `lows[q][sum]`: nim-sums of `low` at `q` offsets (each `0..p`) of total `sum`.
    lows: [Vec<ValueSet>; 4],
    /// The same with every offset at least 1 (parts that may not be empty).
    lows_nonzero: [Vec<ValueSet>; 4],
    /// Work spent so far (a cell, so that reading the tables while spending needs no copy).
    work: Cell<u64>,
}

/// Why the test gave up (internal: the answer is simply "unproven").
struct GiveUp;

impl<'a> LevelTest<'a> {
    fn new(
        code: &'a TakeAndBreak,
        g: &[u32],
        preperiod: usize,
        period: usize,
        saltus: u32,
    ) -> Result<Self, GiveUp> {
        let mut test = Self {
            code,
            preperiod,
            period,
            saltus,
            low: g[preperiod..preperiod + period].to_vec(),
            small: Default::default(),
            lows: Default::default(),
            lows_nonzero: Default::default(),
            work: Cell::new(0),
        };
        let small_end = preperiod + period; // small heaps are 1..small_end
        // Sums of t small heaps.
        let mut zero = ValueSet::empty(saltus);
        zero.insert(0);
        test.small[0] = vec![zero.clone()];
        let singles: Vec<(usize, u32)> = (1..small_end).map(|c| (c, g[c])).collect();
        test.small[1] = test.add_part(&test.small[0], &singles)?;
        test.small[2] = test.add_part(&test.small[1], &singles)?;
        // Sums of q offsets.
        let offsets: Vec<(usize, u32)> = test.low.iter().copied().enumerate().collect();
        let nonzero: Vec<(usize, u32)> = offsets[1..].to_vec();
        test.lows[0] = vec![zero.clone()];
        test.lows_nonzero[0] = vec![zero];
        for q in 1..4 {
            test.lows[q] = test.add_part(&test.lows[q - 1], &offsets)?;
            test.lows_nonzero[q] = test.add_part(&test.lows_nonzero[q - 1], &nonzero)?;
        }
        Ok(test)
    }

    fn spend(&self, amount: u64) -> Result<(), GiveUp> {
        self.work.set(self.work.get() + amount);
        if self.work.get() > MAX_WORK {
            Err(GiveUp)
        } else {
            Ok(())
        }
    }

    /// `result[sum + size] ∋ v ^ value` for every `v` in `sets[sum]` and every
    /// `(size, value)` in `parts`.
    fn add_part(&self, sets: &[ValueSet], parts: &[(usize, u32)]) -> Result<Vec<ValueSet>, GiveUp> {
        let max_size = parts.iter().map(|&(size, _)| size).max().unwrap_or(0);
        let mut result = vec![ValueSet::empty(self.saltus); sets.len() + max_size];
        for (sum, set) in sets.iter().enumerate() {
            if set.is_empty() {
                continue;
            }
            let members: Vec<u32> = set.iter().collect();
            self.spend((members.len() * parts.len()) as u64)?;
            for &(size, value) in parts {
                let target = &mut result[sum + size];
                for &v in &members {
                    target.insert(v ^ value);
                }
            }
        }
        Ok(result)
    }

    /// Inserts `a ^ b` for all `a` in `left`, `b` in `right` into `into`.
    fn insert_products(
        &self,
        into: &mut ValueSet,
        left: &ValueSet,
        right: &ValueSet,
    ) -> Result<(), GiveUp> {
        let (a, b): (Vec<u32>, Vec<u32>) = (left.iter().collect(), right.iter().collect());
        self.spend((a.len() * b.len()) as u64 + 1)?;
        for &u in &a {
            for &v in &b {
                into.insert(u ^ v);
            }
        }
        Ok(())
    }

    fn allows(&self, removed: usize, heaps: usize) -> bool {
        self.code.allows_leaving(removed, heaps)
    }

    fn set_at(sets: &[ValueSet], sum: i64) -> Option<&ValueSet> {
        usize::try_from(sum).ok().and_then(|s| sets.get(s))
    }

    /// `T_q(x)` of (C1).
    fn top(&self, x: usize, q: usize) -> Result<ValueSet, GiveUp> {
        let mut set = ValueSet::empty(self.saltus);
        for removed in 0..=self.code.max_removed() {
            for t in 0..=3 - q {
                if !self.allows(removed, q + t) {
                    continue;
                }
                let total = x as i64 - removed as i64 - (q as i64 - 1) * self.preperiod as i64;
                for small_sum in 0..=total.max(-1) {
                    let (Some(smalls), Some(lows)) = (
                        Self::set_at(&self.small[t], small_sum),
                        Self::set_at(&self.lows[q], total - small_sum),
                    ) else {
                        continue;
                    };
                    self.insert_products(&mut set, smalls, lows)?;
                }
            }
        }
        Ok(set)
    }

    /// The `F1` family of level `H - e` at offset `x`.
    fn single_big(&self, x: usize, e: usize, into: &mut ValueSet) -> Result<(), GiveUp> {
        let p = self.period as i64;
        for removed in 0..=self.code.max_removed() {
            for t in 0..=2 {
                if !self.allows(removed, 1 + t) {
                    continue;
                }
                for y in 0..self.period {
                    // The big part n0 + c·p + y is empty only when n0 = 0, y = 0 and
                    // c = 0; then the move leaves t heaps, which must be allowed too
                    // (t = 0 would mean N = j, impossible past k).
                    if self.preperiod == 0 && y == 0 && t > 0 && !self.allows(removed, t) {
                        continue;
                    }
                    let small_sum = x as i64 - removed as i64 + e as i64 * p - y as i64;
                    let Some(smalls) = Self::set_at(&self.small[t], small_sum) else {
                        continue;
                    };
                    let mut single = ValueSet::empty(self.saltus);
                    single.insert(self.low[y]);
                    self.insert_products(into, smalls, &single)?;
                }
            }
        }
        Ok(())
    }

    /// The `F3` family of level `H - e` at offset `x`.
    fn three_parts(&self, x: usize, e: usize, into: &mut ValueSet) -> Result<(), GiveUp> {
        let p = self.period as i64;
        for removed in 0..=self.code.max_removed() {
            if !self.allows(removed, 3) {
                continue;
            }
            for delta in (e % 2..=e).step_by(2) {
                let sigma =
                    x as i64 - removed as i64 - 2 * self.preperiod as i64 + delta as i64 * p;
                if sigma < 0 || sigma > 3 * (p - 1) {
                    continue;
                }
                let w = (e - delta) / 2;
                if self.preperiod > 0 {
                    if let Some(set) = Self::set_at(&self.lows[3], sigma) {
                        into.union_with(set);
                    }
                    continue;
                }
                // n0 = 0: an offset 0 makes part 1 or 2 empty when w = 0, part 3 empty
                // when c = 0 (unknown here: both must be allowed). Enumerate which
                // parts sit at offset 0; low(0) = G(0) = 0 adds nothing to the value.
                for zeros in 0u32..8 {
                    let nonzero_parts = 3 - zeros.count_ones() as usize;
                    let mut fewest = 3;
                    for part in 0..3 {
                        if zeros >> part & 1 == 1 && (part == 2 || w == 0) {
                            fewest -= 1;
                        }
                    }
                    let most = if zeros >> 2 & 1 == 1 {
                        fewest + 1
                    } else {
                        fewest
                    };
                    // An option leaving no heap would need N = j: not past k.
                    let counts_ok = (fewest.max(1)..=most).all(|h| self.allows(removed, h));
                    if !counts_ok {
                        continue;
                    }
                    if let Some(set) = Self::set_at(&self.lows_nonzero[nonzero_parts], sigma) {
                        into.union_with(set);
                    }
                }
            }
        }
        Ok(())
    }

    fn run(&self) -> Result<bool, GiveUp> {
        let full = {
            let mut all = ValueSet::empty(self.saltus);
            for v in 0..self.saltus {
                all.insert(v);
            }
            all
        };
        let p = self.period;
        let k = self.code.max_removed();
        // (C1)
        for x in 0..p {
            let mut union = ValueSet::empty(self.saltus);
            for q in 1..=3 {
                union.union_with(&self.top(x, q)?);
                if union.mex(self.saltus) != self.low[x] {
                    return Ok(false);
                }
            }
        }
        // (C2): delta <= (3(p - 1) + k + 2·n0) / p, and F1 needs
        // e·p = y - x + j + S <= (p - 1) + k + 2(n0 + p - 1).
        let delta_max = (3 * (p - 1) + k + 2 * self.preperiod) / p;
        let f1_max = (3 * p + k + 2 * self.preperiod) / p + 1;
        let levels = delta_max.max(f1_max) + 2;
        for x in 0..p {
            for e in 1..=levels {
                let mut set = ValueSet::empty(self.saltus);
                self.single_big(x, e, &mut set)?;
                self.three_parts(x, e, &mut set)?;
                if set != full {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }
}

/// `L` of (H2) for the candidate `(n0, p)`: heaps from here on are the induction's.
fn induction_base(code: &TakeAndBreak, preperiod: usize, period: usize) -> usize {
    preperiod + period + code.max_removed() + 1
}

/// Values needed (heaps `0..length`) before the level test may certify `(n0, p)`.
pub(crate) fn required_length(code: &TakeAndBreak, preperiod: usize, period: usize) -> usize {
    induction_base(code, preperiod, period) + period
}

/// Whether the values `g` show `G(n + period) = G(n) + saltus` for every `n` from
/// `preperiod` to their end (the hypothesis every arithmetic test starts from).
pub(crate) fn values_show(g: &[u32], preperiod: usize, period: usize, saltus: u32) -> bool {
    (preperiod..g.len().saturating_sub(period)).all(|n| g[n + period] == g[n] + saltus)
}

/// Whether the level test proves `G(n + period) = G(n) + saltus` for every
/// `n >= preperiod`, given the values `g` (which must show it on all of `g`).
pub(crate) fn proves(
    code: &TakeAndBreak,
    g: &[u32],
    preperiod: usize,
    period: usize,
    saltus: u32,
) -> bool {
    if saltus == 0 || g.len() < required_length(code, preperiod, period) {
        return false;
    }
    if !values_show(g, preperiod, period, saltus) {
        return false;
    }
    let (mut p, mut s) = (period, saltus);
    while p <= MAX_PERIOD && s <= MAX_SALTUS {
        // The base of the multiple's induction, plus one period of the original to
        // carry the proof back to it.
        if g.len() < induction_base(code, preperiod, p) + period {
            return false;
        }
        let below_saltus = g[..preperiod + p].iter().all(|&v| v < s);
        if s.is_power_of_two() && below_saltus {
            // Err(GiveUp): past the work budget, which leaves the period unproven.
            if let Ok(true) = LevelTest::new(code, g, preperiod, p, s).and_then(|t| t.run()) {
                return true;
            }
        }
        p *= 2;
        s *= 2;
    }
    false
}

/// Whether the *window test* proves `G(n + period) = G(n) + saltus` for every
/// `n >= preperiod` in the all-but subtraction game excluding `excluded`, given the
/// values `g` (which must show it on all of `g`).
///
/// # The theorem (proved here)
///
/// A move from `N` goes to any `m < N` with `N - m` not excluded; let `e` be the
/// largest excluded number, `b(x) = G(n0 + x)` for `x < p`, `B = max b`, and `V0` one
/// more than every value below `n0`, and at least `B`. Suppose
///
/// - **(W1)** the `b(x) mod s` cover every residue modulo `s`;
/// - **(W2)** every value below `V0` is the value of a heap below
///   `B0 = n0 + p·(V0/s + 2)`;
/// - **(W3)** for each offset `x` and each `d` in `-D..=0`, with
///   `D = ceil(s(e + p)/p) + B + 1`: the value `b(x) + d` is *reached*, in the sense
///   below, exactly when `d < 0`; reached means some offset `x'` has
///   `b(x) + d - b(x') = q·s` for an integer `q` and `r = x' - x + q·p` negative with
///   `-r` not excluded;
/// - **(W4)** the values agree with the claim on heaps `0..L`, `L` as computed below.
///
/// *Proof* (induction on `N >= L`). Write `N = n0 + x + H·p`, so the claim is
/// `G(N) = b(x) + s·H`. Heaps `n >= n0` below `N` have the values `b(x') + s·t`; a value
/// `v >= V0` (above every value below `n0`) sits exactly at the heaps
/// `n0 + x' + t·p` with `b(x') + s·t = v`. For `v = G(N) + d` with `-D <= d <= 0`, such
/// a heap lies at `N + r` with `r` as in (W3), whatever `H`; it is a legal option when
/// `r < 0` and `-r` is not excluded. So (W3) says: the values `G(N) + d`, `-D <= d < 0`,
/// are options and `G(N)` is not. A value `V0 <= v <= G(N) - D` has a heap (by (W1))
/// below `N - e` (by the choice of `D`), a legal option; a value below `V0` has one
/// below `B0 <= N - e` (W2). So the mex is `G(N)`. `L` is large enough for all of this:
/// `L > B0 + e`, `G(N) - D >= V0`, and the heaps `N + r` lie past `n0`.
pub(crate) fn proves_all_but(
    excluded: &[u32],
    g: &[u32],
    preperiod: usize,
    period: usize,
    saltus: u32,
) -> bool {
    if saltus == 0 || period == 0 || period > MAX_PERIOD || saltus > MAX_SALTUS {
        return false;
    }
    if g.len() < preperiod + 2 * period || !values_show(g, preperiod, period, saltus) {
        return false;
    }
    let (p, s) = (period as i64, i64::from(saltus));
    let e = excluded.iter().copied().max().map_or(0, i64::from);
    let base: Vec<i64> = g[preperiod..preperiod + period]
        .iter()
        .map(|&v| i64::from(v))
        .collect();
    let highest = base.iter().copied().max().unwrap_or(0);
    let lowest = base.iter().copied().min().unwrap_or(0);
    let v0 = g[..preperiod]
        .iter()
        .map(|&v| i64::from(v) + 1)
        .max()
        .unwrap_or(0)
        .max(highest);
    // (W1)
    let mut residues = vec![false; saltus as usize];
    for &b in &base {
        residues[b.rem_euclid(s) as usize] = true;
    }
    if residues.contains(&false) {
        return false;
    }
    let n0 = preperiod as i64;
    let d_max = (s * (e + p) + p - 1) / p + highest + 1;
    let reach = p + p * (d_max + highest) / s + p;
    let b0 = n0 + p * (v0 / s + 2);
    let levels_needed = (v0 + d_max - lowest).div_euclid(s) + 2;
    let length = (b0 + e + 1).max(n0 + reach + 1).max(n0 + p * levels_needed) + p;
    if d_max > 1 << 20 || usize::try_from(length).map_or(true, |l| l > g.len()) {
        return false;
    }
    // (W2)
    let mut seen = vec![false; usize::try_from(v0).unwrap_or(0)];
    for &v in &g[..usize::try_from(b0).unwrap_or(0)] {
        if let Some(slot) = seen.get_mut(v as usize) {
            *slot = true;
        }
    }
    if seen.contains(&false) {
        return false;
    }
    // (W3)
    let allowed = |gap: i64| gap > 0 && !excluded.iter().any(|&x| i64::from(x) == gap);
    for x in 0..p {
        for d in -d_max..=0 {
            let target = base[x as usize] + d;
            let reached = (0..p).any(|other| {
                let diff = target - base[other as usize];
                diff.rem_euclid(s) == 0 && {
                    let r = other - x + diff / s * p;
                    r < 0 && allowed(-r)
                }
            });
            if reached != (d < 0) {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::HeapRule;
    use crate::sequence::{GrundyValues, Proof, find_periodicity, grundy_values};

    fn code(text: &str) -> TakeAndBreak {
        text.parse().unwrap()
    }

    /// Every certificate, from prefixes of every length tried, is checked against
    /// values computed far past what it used.
    #[test]
    #[ignore = "exhaustive (15-90 s): run with --include-ignored, as CI does"]
    fn certified_codes_stay_arithmetic_periodic_far_beyond() {
        let mut certified = Vec::new();
        let mut uncertified = Vec::new();
        for text in crate::testing::hexadecimal_code_texts() {
            let Ok(rule) = HeapRule::octal(&text) else {
                continue;
            };
            let HeapRule::TakeAndBreak(tb) = &rule else {
                unreachable!()
            };
            if tb.max_heaps_left() < 3 {
                continue;
            }
            let long = grundy_values(&rule, 1200).to_vec();
            let mut proven_once = false;
            for length in [12, 20, 30, 45, 70, 100, 150, 250, 400] {
                let prefix: GrundyValues = long[..length].iter().copied().collect();
                let Some(p) = find_periodicity(&rule, &prefix) else {
                    continue;
                };
                if !matches!(p.proof, Proof::LevelTest { .. }) {
                    continue;
                }
                proven_once = true;
                for n in p.preperiod..long.len() - p.period {
                    assert_eq!(
                        long[n + p.period],
                        long[n] + p.saltus,
                        "{text}: certified from {length} values, fails at heap {n}"
                    );
                }
            }
            if proven_once {
                certified.push(text);
            } else if find_periodicity(&rule, &long.iter().copied().collect())
                .is_some_and(|p| p.saltus > 0)
            {
                uncertified.push(text);
            }
        }
        // The test certifies a good share of the arithmetic-periodic hexadecimal codes.
        assert!(certified.len() >= 40, "certified {certified:?}");
        for known in ["0.8", "0.AA", "0.FF", "0.0F", "0.A8", "0.C", "0.28"] {
            assert!(
                certified.contains(&known.to_owned()),
                "{known} not certified"
            );
        }
        eprintln!("certified {certified:?}\nuncertified {uncertified:?}");
    }

    #[test]
    fn never_certifies_a_relation_the_values_do_not_show() {
        let rule = HeapRule::octal("0.AA").unwrap();
        let HeapRule::TakeAndBreak(tb) = &rule else {
            unreachable!()
        };
        let g = grundy_values(&rule, 200).to_vec();
        assert!(proves(tb, &g, 1, 1, 1));
        assert!(!proves(tb, &g, 1, 1, 2));
        assert!(!proves(tb, &g, 0, 1, 1), "G(1) = 0 = G(0): not from 0");
        let mut broken = g.clone();
        broken[150] += 1;
        assert!(!proves(tb, &broken, 1, 1, 1));
        // Too few values for the base of the induction.
        assert!(!proves(tb, &g[..4], 1, 1, 1));
    }

    #[test]
    fn refuses_values_that_are_not_the_games() {
        // 0.AA has G(n) = n - 1 from heap 1. The sequence 2(n - 1) is arithmetic-periodic
        // with saltus 2, but the game's options cannot fill the odd values of each level:
        // (C2) fails.
        let tb = code("0.AA");
        let fake: Vec<u32> = (0..200u32).map(|n| 2 * n.saturating_sub(1)).collect();
        assert!(!proves(&tb, &fake, 1, 1, 2));
        let real: Vec<u32> = (0..200u32).map(|n| n.saturating_sub(1)).collect();
        assert!(proves(&tb, &real, 1, 1, 1));
    }

    #[test]
    fn all_but_games_are_proven_and_hold_far_beyond() {
        let sets: [&[u32]; 10] = [
            &[1],
            &[2],
            &[1, 2],
            &[1, 3],
            &[2, 3],
            &[1, 2, 3],
            &[1, 4],
            &[2, 5],
            &[3, 5, 6],
            &[1, 2, 4, 8],
        ];
        for excluded in sets {
            let rule = HeapRule::all_but(excluded.iter().copied()).unwrap();
            let long = grundy_values(&rule, 20_000).to_vec();
            let mut proven_at = None;
            for length in [50, 100, 200, 400, 800, 1600, 3200] {
                let prefix: GrundyValues = long[..length].iter().copied().collect();
                let Some(p) = find_periodicity(&rule, &prefix) else {
                    continue;
                };
                if !p.proven() {
                    continue;
                }
                proven_at.get_or_insert(length);
                for n in p.preperiod..long.len() - p.period {
                    assert_eq!(
                        long[n + p.period],
                        long[n] + p.saltus,
                        "all_but{excluded:?}: proven from {length} values, fails at {n}"
                    );
                }
            }
            assert!(proven_at.is_some(), "all_but{excluded:?} never proven");
        }
    }

    #[test]
    fn the_window_test_refuses_false_claims() {
        let excluded = [1u32, 2];
        let rule = HeapRule::all_but(excluded).unwrap();
        let g = grundy_values(&rule, 3000).to_vec();
        let p = find_periodicity(&rule, &g.iter().copied().collect()).unwrap();
        assert!(proves_all_but(
            &excluded,
            &g,
            p.preperiod,
            p.period,
            p.saltus
        ));
        // The same values claimed for another game, or with a broken value, fail.
        assert!(!proves_all_but(
            &[1, 3],
            &g,
            p.preperiod,
            p.period,
            p.saltus
        ));
        let mut broken = g.clone();
        broken[2000] += 1;
        assert!(!proves_all_but(
            &excluded,
            &broken,
            p.preperiod,
            p.period,
            p.saltus
        ));
        // A sequence that is arithmetic-periodic but not this game's: 0, 1, 2, ... is
        // Nim's, and all_but[1, 2] cannot reach n - 1 from n.
        let nim: Vec<u32> = (0..3000).collect();
        assert!(!proves_all_but(&excluded, &nim, 0, 1, 1));
    }

    #[test]
    fn octal_codes_are_never_arithmetic_periodic_here() {
        // A periodic octal sequence has saltus 0; the test refuses saltus 0.
        let kayles = code("0.77");
        let g = grundy_values(&HeapRule::TakeAndBreak(kayles.clone()), 300).to_vec();
        assert!(!proves(&kayles, &g, 71, 12, 0));
    }
}
