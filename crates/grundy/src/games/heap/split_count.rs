//! The splits of a heap too large to enumerate, counted and listed from a proven
//! period of the game's values.
//!
//! # The theory used
//!
//! Let the values be periodic or arithmetic-periodic from heap `L` (the preperiod):
//! `G(L + r + p·q) = G(L + r) + s·q` for `0 <= r < p` and `q >= 0`, with `s = 0` or
//! `s = 2^i` a power of two. Then every value is a *base* and a *level* side by
//! side: `G(h) = base(h) + level(h)·2^i` with `base(h) = G(h) mod 2^i` and
//! `level(h) = G(h) >> i`. For `h = L + r + p·q` the base is that of `L + r` and the
//! level is `f_r + q`, where the *floor* `f_r = G(L + r) >> i` is the level of the
//! first heap of the residue class (0 when the first values are below the saltus,
//! the form the level test certifies; larger for the codes only the automaton test
//! proves, whose values grow from the start). Xor acts on the two parts separately,
//! so a split of `n` reaches value `t` exactly when the bases of its parts xor to
//! `t mod 2^i` and their levels xor to `Q = t >> i` (with `s = 0` levels do not count).
//!
//! Parts below `L` are few and checked one by one. Parts from `L` on are grouped by
//! their residue `r`; for each combination of residues whose bases xor right, the
//! levels `k_a = f_a + q_a` are the solutions of `k_1 + ... + k_m = S + Σ f_a` (`S`,
//! the sum of the `q_a`, is fixed by `n` and the residues) with `k_1 ⊕ ... ⊕ k_m = Q`
//! and `k_a >= f_a`. They are counted bit by bit from the lowest ([`LevelEquations`]):
//! the state is the carry (below `m`) and, for each part, whether its bits so far
//! are at least those of its floor (the comparison of the lowest bits decides when
//! the higher bits are equal). With `s = 0` the levels are free: `S + 1` and
//! `(S + 1)(S + 2) / 2` solutions.
//!
//! The residues of the parts' sum are fixed modulo `p`, so their sum takes at most two
//! (three) values; the counts are computed once per sum and tuple of floors.
//! The parts of a move are at least 1: the counts are made over parts of at least 0
//! and the splits with a zero part taken out by inclusion and exclusion (they are
//! splits of `n` into fewer parts). A move leaves its parts unordered: the counts of
//! ordered splits become counts of moves by Burnside's lemma (pairs: `(ordered + equal pairs) / 2`; triples:
//! `(ordered + 3·(a, a, c) + 2·(a, a, a)) / 6`).
//!
//! A saltus `s` that is not a power of two (0.3F's is 3) does not split the values:
//! xor mixes the bits that `s·q` carries. The values are then taken whole, and the
//! equations `Σ q_a = S`, `⊕ (s·q_a + G(L + r_a)) = t` are solved by another
//! automaton over the bits of the `q_a` ([`ProductEquations`]): besides the carry of
//! the sum, it carries each product `s·q_a` as in a long multiplication, which needs
//! the part's last `bitlen(s) - 1` bits and a carry up to `popcount(s) + 1`. This is
//! how `crate::sequence::automaton` proves such periods; here it counts. Its states
//! grow with `s`: 3, 5 and 6 are taken, larger ones refused.
//!
//! Listing follows the order in which moves are enumerated (smallest part first).
//! Two levels with `x + y = T` and `x ⊕ y = Q` are `x = A | u`, `y = A | (Q ⊕ u)` for
//! the submasks `u` of `Q` (`A = (T - Q) / 2`, when it is a whole number with
//! `A & Q = 0`), so the pairs come in order of `u`.
//! For three parts the smallest part is tried from 1 up within a work limit; when
//! that finds too few, further moves with three large parts are built from the
//! solutions of the level equations (see [`SplitCounter::list_three`]).

use std::collections::BTreeMap;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{CheckedSub, One, ToPrimitive, Zero};

use crate::sequence::{GrundyValues, Periodicity};

/// Work (in the sequence engine's steps, as `--max-work`) and bytes taken per pair of
/// residues when three-heap splits are counted: the count looks at `(L + p)^2` of
/// them, grouped in a map.
pub(crate) const TRIPLE_PAIR_COST: (u64, u64) = (30, 48);

/// The largest `L + p` (preperiod plus period) for which three-heap splits are
/// counted within `work` steps and `bytes` of memory: 3162 with the defaults
/// (`3·10^8` steps, ten million pairs).
pub(crate) fn largest_triple_span(work: u64, bytes: u64) -> usize {
    let pairs = (work / TRIPLE_PAIR_COST.0).min(bytes / TRIPLE_PAIR_COST.1);
    usize::try_from(pairs.isqrt()).unwrap_or(usize::MAX)
}

/// Smallest parts tried when listing three-heap splits, at most (by work: parts
/// below `L` plus residues, summed over the parts tried).
const LISTING_WORK: usize = 1_000_000;

/// A value split into its base (below `2^i`) and level, or a target so split.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Split {
    base: u32,
    level: BigUint,
}

impl Split {
    fn xor(&self, other: &Self) -> Self {
        Self {
            base: self.base ^ other.base,
            level: &self.level ^ &other.level,
        }
    }
}

/// The values of a game, periodic or arithmetic-periodic with a power-of-two saltus,
/// arranged for counting splits (see the module documentation).
#[derive(Debug, Clone)]
pub(crate) struct SplitCounter {
    /// The values of heaps `0..start + period`.
    values: Vec<u32>,
    /// `L`: heaps from here on are periodic.
    start: usize,
    period: usize,
    saltus: Saltus,
}

/// The saltus of a [`SplitCounter`], as it splits the values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Saltus {
    /// Periodic values: all base, levels free.
    Zero,
    /// `2^i`: a base below it and a level above (the [`LevelEquations`]).
    Shift(u32),
    /// `s`, not a power of two: a value is all level (no base),
    /// `G(L + r + p·q) = G(L + r) + s·q`, solved by the [`ProductEquations`].
    Times(u32),
}

impl Saltus {
    /// For a shift of `Some(i)` (`2^i`) or `None` (0) (tests).
    #[cfg(test)]
    fn shift(shift: Option<u32>) -> Self {
        shift.map_or(Self::Zero, Self::Shift)
    }
}

impl SplitCounter {
    /// The counter for `values` with a (proven) `periodicity`, or `None` when the
    /// saltus is neither 0, a power of two, nor small enough for [`ProductEquations`]
    /// (3, 5 and 6 are).
    pub(crate) fn new(values: &GrundyValues, periodicity: &Periodicity) -> Option<Self> {
        let start = periodicity.preperiod;
        let period = periodicity.period;
        if period == 0 {
            return None;
        }
        let values: Vec<u32> = values.iter().take(start + period).collect();
        if values.len() < start + period {
            return None;
        }
        let saltus = match periodicity.saltus {
            0 => Saltus::Zero,
            saltus if saltus.is_power_of_two() => Saltus::Shift(saltus.trailing_zeros()),
            saltus if ProductEquations::<3>::fit(saltus) => Saltus::Times(saltus),
            _ => return None,
        };
        Some(Self {
            values,
            start,
            period,
            saltus,
        })
    }

    /// Builds a counter directly (tests).
    #[cfg(test)]
    fn from_parts(values: Vec<u32>, start: usize, saltus: Saltus) -> Self {
        let period = values.len() - start;
        Self {
            values,
            start,
            period,
            saltus,
        }
    }

    /// `L + p`: three-heap splits look at its square of residue pairs (see
    /// [`largest_triple_span`]).
    pub(crate) const fn span(&self) -> usize {
        self.start + self.period
    }

    /// A value below 2^32 as a split.
    fn split(&self, value: u32) -> Split {
        match self.saltus {
            Saltus::Zero => Split {
                base: value,
                level: BigUint::zero(),
            },
            Saltus::Shift(shift) => Split {
                base: value & ((1 << shift) - 1),
                level: BigUint::from(value >> shift),
            },
            Saltus::Times(_) => Split {
                base: 0,
                level: BigUint::from(value),
            },
        }
    }

    /// The value of a heap below `L + p` as a split.
    fn small(&self, heap: usize) -> Split {
        self.split(self.values[heap])
    }

    /// The base of the heaps `L + residue + p·q`.
    fn base(&self, residue: usize) -> u32 {
        self.split(self.values[self.start + residue]).base
    }

    /// The floor of residue class `residue`: the level of its first heap `L + residue`
    /// (0 when the saltus is 0; the whole value with [`Saltus::Times`]).
    fn floor(&self, residue: usize) -> u32 {
        let first = self.values[self.start + residue];
        match self.saltus {
            Saltus::Zero => 0,
            Saltus::Shift(shift) => first >> shift,
            Saltus::Times(_) => first,
        }
    }

    /// The `q` with level `level` in residue class `residue` (`floor + q` with a
    /// power-of-two saltus, `floor + s·q` with [`Saltus::Times`]), if any.
    fn increment_to(&self, level: &BigUint, residue: usize) -> Option<BigUint> {
        let above = level.checked_sub(&BigUint::from(self.floor(residue)))?;
        match self.saltus {
            Saltus::Times(saltus) => {
                let (q, r) = above.div_rem(&BigUint::from(saltus));
                r.is_zero().then_some(q)
            }
            Saltus::Zero | Saltus::Shift(_) => Some(above),
        }
    }

    /// The value of any heap as a split.
    fn part(&self, heap: &BigUint) -> Split {
        if let Some(small) = heap.to_usize().filter(|&h| h < self.start) {
            return self.small(small);
        }
        let (level, residue) = (heap - self.start).div_rem(&BigUint::from(self.period));
        let residue = residue.to_usize().expect("below the period");
        Split {
            base: self.base(residue),
            level: match self.saltus {
                Saltus::Zero => BigUint::zero(),
                Saltus::Shift(_) => level + self.floor(residue),
                Saltus::Times(saltus) => level * saltus + self.floor(residue),
            },
        }
    }

    /// The value of any heap, straight from the definition (tests).
    #[cfg(test)]
    fn value(&self, heap: &BigUint) -> BigUint {
        if let Some(small) = heap.to_usize().filter(|&h| h < self.values.len()) {
            return self.values[small].into();
        }
        let (q, r) = (heap - self.start).div_rem(&BigUint::from(self.period));
        let saltus = match self.saltus {
            Saltus::Zero => 0,
            Saltus::Shift(shift) => 1 << shift,
            Saltus::Times(saltus) => saltus,
        };
        q * saltus + self.values[self.start + r.to_usize().unwrap()]
    }

    /// `target` as a split; `None` when no value reaches it (with saltus 0, a
    /// target beyond 32 bits).
    fn target(&self, target: &BigUint) -> Option<Split> {
        match self.saltus {
            Saltus::Zero => Some(Split {
                base: target.to_u32()?,
                level: BigUint::zero(),
            }),
            Saltus::Shift(shift) => {
                let low = target & ((BigUint::one() << shift) - 1u32);
                Some(Split {
                    base: low.to_u32().expect("below the saltus"),
                    level: target >> shift,
                })
            }
            Saltus::Times(_) => Some(Split {
                base: 0,
                level: target.clone(),
            }),
        }
    }

    /// Level solutions for parts in residue classes of `floors` whose level
    /// increments sum to `sum`, with levels xoring to `xor` (free levels when the
    /// saltus is 0).
    fn count_levels<const M: usize>(
        &self,
        sum: &BigUint,
        xor: &BigUint,
        floors: [u32; M],
    ) -> BigUint {
        match self.saltus {
            Saltus::Zero => match M {
                2 => sum + 1u32,
                _ => (sum + 1u32) * (sum + 2u32) / 2u32,
            },
            Saltus::Shift(_) => LevelEquations::new(sum, xor, floors).count(),
            Saltus::Times(saltus) => ProductEquations::new(sum, xor, floors, saltus).count(),
        }
    }

    /// Does a heap of `heap` have `value` exactly?
    fn has(&self, heap: &BigUint, value: &Split) -> bool {
        self.part(heap) == *value
    }

    /// For `parts` parts of at least `L` summing to `n`: `n - parts·L`, what the
    /// residues and `p` times the levels share, and its residue `sigma0`; `None`
    /// when `n` is too small.
    fn above_starts(&self, n: &BigUint, parts: usize) -> Option<(BigUint, usize)> {
        let starts = BigUint::from(parts * self.start);
        let rest = n.checked_sub(&starts)?;
        let sigma0 = (&rest % self.period).to_usize().expect("below the period");
        Some((rest, sigma0))
    }

    /// Ordered splits of `rest` (above the starts) over residue combinations
    /// `classes` (residues and their sum): each combination summing to
    /// `sigma0 + g·p` has level increments summing to `(rest - sigma0 - g·p) / p`,
    /// whose solutions with levels xoring to `xor` are counted once per sum and
    /// tuple of floors.
    fn sum_over_classes<const M: usize>(
        &self,
        rest: &BigUint,
        sigma0: usize,
        classes: impl Iterator<Item = ([usize; M], usize)>,
        xor: &BigUint,
    ) -> BigUint {
        let p = self.period;
        let mut groups: BTreeMap<(usize, [u32; M]), u64> = BTreeMap::new();
        for (residues, sum) in classes {
            let mut floors = residues.map(|r| self.floor(r));
            floors.sort_unstable();
            *groups.entry(((sum - sigma0) / p, floors)).or_default() += 1;
        }
        let mut total = BigUint::zero();
        for ((g, floors), matching) in groups {
            let sigma = BigUint::from(sigma0 + g * p);
            if *rest < sigma {
                continue;
            }
            total += self.count_levels(&((rest - sigma) / p), xor, floors) * matching;
        }
        total
    }

    /// The residues `[rb, rc]` of two parts from `L` on whose sum is `sigma0` modulo
    /// `p` (`rb` fixes `rc`) and whose bases xor to `base`, with `rb + rc`.
    fn residue_pairs(&self, sigma0: usize, base: u32) -> impl Iterator<Item = ([usize; 2], usize)> {
        let p = self.period;
        (0..p)
            .map(move |rb| [rb, (sigma0 + p - rb) % p])
            .filter(move |&[rb, rc]| self.base(rb) ^ self.base(rc) == base)
            .map(|residues| (residues, residues.iter().sum()))
    }

    /// The residues `[ra, rb, rc]` of three parts, as [`Self::residue_pairs`].
    fn residue_triples(
        &self,
        sigma0: usize,
        base: u32,
    ) -> impl Iterator<Item = ([usize; 3], usize)> {
        let p = self.period;
        (0..p)
            .flat_map(move |ra| (0..p).map(move |rb| [ra, rb, (sigma0 + 2 * p - ra - rb) % p]))
            .filter(move |&[ra, rb, rc]| self.base(ra) ^ self.base(rb) ^ self.base(rc) == base)
            .map(|residues| (residues, residues.iter().sum()))
    }

    /// Ordered pairs `(b, c)` of parts of at least `L` with `b + c = n` reaching
    /// `target`.
    fn large_pairs(&self, n: &BigUint, target: &Split) -> BigUint {
        let Some((rest, sigma0)) = self.above_starts(n, 2) else {
            return BigUint::zero();
        };
        let classes = self.residue_pairs(sigma0, target.base);
        self.sum_over_classes(&rest, sigma0, classes, &target.level)
    }

    /// Ordered triples of parts of at least `L` with sum `n` reaching `target`.
    fn large_triples(&self, n: &BigUint, target: &Split) -> BigUint {
        let Some((rest, sigma0)) = self.above_starts(n, 3) else {
            return BigUint::zero();
        };
        let classes = self.residue_triples(sigma0, target.base);
        self.sum_over_classes(&rest, sigma0, classes, &target.level)
    }

    /// Ordered pairs `(b, c)` of parts of at least 0 with `b + c = n` reaching
    /// `target` (zero parts are taken out by the callers).
    fn ordered_pairs(&self, n: &BigUint, target: &Split) -> BigUint {
        let mut total = self.large_pairs(n, target);
        let start = BigUint::from(self.start);
        for small in 0..self.start {
            let small_big = BigUint::from(small);
            if small_big > *n {
                break;
            }
            let other = n - &small_big;
            // (small, other) for any other; (other, small) when other is large.
            if self.has(&other, &target.xor(&self.small(small))) {
                total += 1u32;
                if other >= start {
                    total += 1u32;
                }
            }
        }
        total
    }

    /// Ordered triples of parts of at least 0 with sum `n` reaching `target`.
    fn ordered_triples(&self, n: &BigUint, target: &Split) -> BigUint {
        let start = BigUint::from(self.start);
        let mut total = self.large_triples(n, target);
        // By the parts below L, each `small` in turn.
        for small in 0..self.start {
            let small_big = BigUint::from(small);
            if small_big > *n {
                break;
            }
            let rest = n - &small_big;
            let wanted = target.xor(&self.small(small));
            // (small, any, any).
            total += self.ordered_pairs(&rest, &wanted);
            // (large, small, large) and (large, large, small).
            total += self.large_pairs(&rest, &wanted) * 2u32;
            // (large, small, other small).
            for other in 0..self.start {
                let other_big = BigUint::from(other);
                if other_big > rest {
                    break;
                }
                let large = &rest - other_big;
                if large >= start && self.has(&large, &wanted.xor(&self.small(other))) {
                    total += 1u32;
                }
            }
        }
        total
    }

    /// The value of a heap of a purely periodic sequence (saltus 0), in machine words.
    fn periodic_value(&self, heap: u64) -> u32 {
        let start = self.start as u64;
        if heap < start {
            return self.values[heap as usize];
        }
        let residue = ((heap - start) % self.period as u64) as usize;
        self.values[self.start + residue]
    }

    /// [`Self::count_two`] for a purely periodic sequence and a heap below 2^64, in
    /// machine words: the same count (parts below `L` one by one, pairs of residue
    /// classes from `L` on, each `rest / p + 1` pairs as the levels are free), without
    /// the arbitrary-size arithmetic that made a sum of a million heaps take
    /// fourteen microseconds a heap.
    fn count_two_periodic(&self, n: u64, target: u32) -> u64 {
        if n == 0 {
            return 0;
        }
        let (start, period) = (self.start as u64, self.period as u64);
        // Ordered pairs (b, c), b + c = n, parts of at least 0.
        let mut ordered = 0u64;
        if let Some(rest) = n.checked_sub(2 * start) {
            let sigma0 = rest % period;
            for rb in 0..period {
                let rc = (sigma0 + period - rb) % period;
                let bases =
                    self.values[self.start + rb as usize] ^ self.values[self.start + rc as usize];
                let sigma = rb + rc;
                if bases == target && rest >= sigma {
                    ordered += (rest - sigma) / period + 1;
                }
            }
        }
        for small in 0..start.min(n.saturating_add(1)) {
            let other = n - small;
            if self.periodic_value(other) ^ self.values[small as usize] == target {
                ordered += if other >= start { 2 } else { 1 };
            }
        }
        // Take out (0, n) and (n, 0); the pair (n/2, n/2) is its own mirror.
        if self.periodic_value(n) ^ self.values[0] == target {
            ordered -= 2;
        }
        let equal = u64::from(n.is_multiple_of(2) && target == 0);
        (ordered + equal) / 2
    }

    /// Moves leaving two heaps `b + c = n` (unordered, both at least 1) of value
    /// xor `target`.
    pub(crate) fn count_two(&self, n: &BigUint, target: &BigUint) -> BigUint {
        if self.saltus == Saltus::Zero
            && let (Some(n), Some(target)) = (n.to_u64().filter(|&n| n < 1 << 62), target.to_u32())
        {
            return self.count_two_periodic(n, target).into();
        }
        self.count_two_any_size(n, target)
    }

    /// [`Self::count_two`] in arbitrary-size arithmetic, for any saltus.
    fn count_two_any_size(&self, n: &BigUint, target: &BigUint) -> BigUint {
        let Some(target) = self.target(target) else {
            return BigUint::zero();
        };
        if n.is_zero() {
            return BigUint::zero();
        }
        // Take out (0, n) and (n, 0).
        let zero = self.small(0);
        let with_zero = u32::from(self.has(n, &target.xor(&zero)));
        let ordered = self.ordered_pairs(n, &target) - 2 * with_zero;
        // The pair (n/2, n/2) is its own mirror; it reaches 0.
        let equal = n.is_even() && target.base == 0 && target.level.is_zero();
        (ordered + u32::from(equal)) / 2u32
    }

    /// Moves leaving three heaps `a + b + c = n` (unordered, each at least 1) of
    /// value xor `target`.
    pub(crate) fn count_three(&self, n: &BigUint, target: &BigUint) -> BigUint {
        let Some(target) = self.target(target) else {
            return BigUint::zero();
        };
        if n.is_zero() {
            return BigUint::zero();
        }
        // Inclusion and exclusion of the zero parts: one part 0 (three places), two
        // parts 0 (the third is n; G(0) ⊕ G(0) = 0).
        let zero = self.small(0);
        let ordered = self.ordered_triples(n, &target) + u32::from(self.has(n, &target)) * 3u32
            - self.ordered_pairs(n, &target.xor(&zero)) * 3u32;
        let pairs = self.doubled_parts(n, &target);
        let three_equal = n.is_multiple_of(&BigUint::from(3u32)) && self.has(&(n / 3u32), &target);
        let total = ordered + pairs * 3u32 + BigUint::from(2 * u32::from(three_equal));
        let (moves, remainder) = total.div_rem(&BigUint::from(6u32));
        debug_assert!(remainder.is_zero(), "Burnside's count is a whole number");
        moves
    }

    /// Splits `(a, a, c)` of `n`, `a, c >= 1`, reaching `target`: `G(a) ⊕ G(a) = 0`, so
    /// the heaps `c = n - 2a` of value `target`.
    fn doubled_parts(&self, n: &BigUint, target: &Split) -> BigUint {
        let two = BigUint::from(2u32);
        if *n < BigUint::from(3u32) {
            return BigUint::zero();
        }
        let last = n - &two; // c <= n - 2, c ≡ n (mod 2)
        let n_odd = n.is_odd();
        let mut count = BigUint::zero();
        for c in 1..self.start {
            let c_big = BigUint::from(c);
            if c_big > last {
                break;
            }
            if (c % 2 == 1) == n_odd && self.small(c) == *target {
                count += 1u32;
            }
        }
        let p = self.period;
        for r in 0..p {
            // c = first + p·q; c = 0 (first = 0, q = 0) is no part.
            let first = BigUint::from(self.start + r);
            if self.base(r) != target.base || first > last {
                continue;
            }
            let most = (&last - &first) / p; // levels 0..=most fit
            let first_odd = (self.start + r) % 2 == 1;
            let zero_counted = first.is_zero() && !n_odd;
            match self.saltus {
                Saltus::Shift(_) | Saltus::Times(_) => {
                    // The level is fixed: one heap per residue, when the residue's
                    // values reach it.
                    let Some(q) = self.increment_to(&target.level, r) else {
                        continue;
                    };
                    let c = &first + q * p;
                    if !c.is_zero() && c <= last && c.is_odd() == n_odd {
                        count += 1u32;
                    }
                }
                Saltus::Zero if p.is_multiple_of(2) => {
                    if first_odd == n_odd {
                        count += &most + 1u32 - u32::from(zero_counted);
                    }
                }
                Saltus::Zero => {
                    // c has the parity of n when q has parity `wanted`.
                    let wanted = u32::from(first_odd != n_odd);
                    let wanted_big = BigUint::from(wanted);
                    if most >= wanted_big {
                        count += (&most - wanted_big) / 2u32 + 1u32 - u32::from(zero_counted);
                    }
                }
            }
        }
        count
    }

    /// The smaller parts `b` (ascending, `lo <= b <= n - b`) of the first `max`
    /// moves leaving two heaps `b + (n - b)` of value xor `target`.
    fn list_pairs(&self, n: &BigUint, target: &Split, lo: &BigUint, max: usize) -> Vec<BigUint> {
        let mut found = Vec::new();
        let half = n / 2u32;
        let start = BigUint::from(self.start);
        for b in 1..self.start {
            let b_big = BigUint::from(b);
            if found.len() >= max || b_big > half {
                return found;
            }
            if b_big >= *lo && self.has(&(n - &b_big), &target.xor(&self.small(b))) {
                found.push(b_big);
            }
        }
        if found.len() >= max {
            return found;
        }
        // Parts from L on (the other part is then at least L too): the first `max`
        // of each residue class, merged.
        let Some((rest, sigma0)) = self.above_starts(n, 2) else {
            return found;
        };
        let p = self.period;
        let wanted = max - found.len();
        let mut candidates = Vec::new();
        for ([rb, rc], sigma) in self.residue_pairs(sigma0, target.base) {
            let sigma = BigUint::from(sigma);
            if rest < sigma {
                continue;
            }
            let sum = (&rest - sigma) / p;
            let first = &start + rb; // b = first + p·q
            let mut taken = 0;
            let mut push = |q: &BigUint| -> bool {
                let b = &first + q * p;
                if b > half {
                    return false;
                }
                if b >= *lo {
                    candidates.push(b);
                    taken += 1;
                }
                taken < wanted
            };
            // The first q reaching lo.
            let least = if *lo > first {
                (lo - &first).div_ceil(&BigUint::from(p))
            } else {
                BigUint::zero()
            };
            match self.saltus {
                Saltus::Zero => {
                    // Levels are free: q from the first reaching lo.
                    let mut q = least;
                    while q <= sum && push(&q) {
                        q += 1u32;
                    }
                }
                Saltus::Times(saltus) => {
                    // The solutions for b's q in ascending order, from the first
                    // reaching lo.
                    let constants = [self.floor(rb), self.floor(rc)];
                    let equations = ProductEquations::new(&sum, &target.level, constants, saltus);
                    for q in ascending_first(&equations, &least, wanted) {
                        if !push(&q) {
                            break;
                        }
                    }
                }
                Saltus::Shift(_) => {
                    // Levels x = A | u of b for the submasks u of Q, ascending, kept
                    // when at least b's floor (at most floor_b submasks are not).
                    // The level of c is then at least its floor: c >= b >= L.
                    let floor_b = BigUint::from(self.floor(rb));
                    let levels_sum = &sum + &floor_b + self.floor(rc);
                    let Some(and) = and_part(&levels_sum, &target.level) else {
                        continue;
                    };
                    let xor = &target.level;
                    let outside = ((BigUint::one() << xor.bits()) - 1u32) ^ xor;
                    let mut submask = BigUint::zero();
                    loop {
                        let x = &and | &submask;
                        if x >= floor_b && !push(&(x - &floor_b)) {
                            break;
                        }
                        if submask == *xor {
                            break;
                        }
                        submask = ((&submask | &outside) + 1u32) & xor;
                    }
                }
            }
        }
        candidates.sort_unstable();
        found.extend(candidates.into_iter().take(wanted));
        found
    }

    /// The first `max` moves leaving two heaps of `n` of value xor `target`, as
    /// `[b, n - b]` with `b <= n - b` ascending (the order of enumeration).
    pub(crate) fn list_two(&self, n: &BigUint, target: &BigUint, max: usize) -> Vec<Vec<BigUint>> {
        let Some(target) = self.target(target) else {
            return Vec::new();
        };
        self.list_pairs(n, &target, &BigUint::one(), max)
            .into_iter()
            .map(|b| {
                let c = n - &b;
                vec![b, c]
            })
            .collect()
    }

    /// Up to `max` moves leaving three heaps of `n` of value xor `target`, as
    /// `[a, b, c]` with `a <= b <= c`. The smallest part `a` is tried from 1 up while
    /// the work stays within [`LISTING_WORK`], which lists the first moves in the
    /// order of enumeration (`a`, then `b` ascending). With a saltus, when that finds
    /// fewer than `max` (a huge heap whose winning splits all have three huge parts),
    /// moves with three parts from `L` on are added from the level equations: valid
    /// and distinct, but not the next ones in that order.
    pub(crate) fn list_three(
        &self,
        n: &BigUint,
        target: &BigUint,
        max: usize,
    ) -> Vec<Vec<BigUint>> {
        let Some(target) = self.target(target) else {
            return Vec::new();
        };
        let mut moves = Vec::new();
        let mut work = 0;
        let mut a = BigUint::one();
        while moves.len() < max && &a * 3u32 <= *n && work < LISTING_WORK {
            let rest = n - &a;
            let wanted = target.xor(&self.part(&a));
            for b in self.list_pairs(&rest, &wanted, &a, max - moves.len()) {
                let c = &rest - &b;
                moves.push(vec![a.clone(), b, c]);
            }
            // With a saltus that is not a power of two each residue class of pairs
            // builds its automaton: about a thousand times the work of a submask walk.
            let per_class = if matches!(self.saltus, Saltus::Times(_)) {
                1000
            } else {
                1
            };
            work += self.start + self.period * per_class;
            a += 1u32;
        }
        let exhausted = &a * 3u32 > *n; // every smallest part was tried: all are listed
        if moves.len() < max && !exhausted && self.saltus != Saltus::Zero {
            // The work ran out before `max` moves: their smallest parts lie further.
            // Moves with every part from L on are built from solutions of the level
            // equations instead (any of them, not the first ones).
            let more = self.some_large_triples(n, &target, max - moves.len(), &moves);
            moves.extend(more);
        }
        moves
    }

    /// Up to `max` moves leaving three parts of at least `L` (none among `listed`),
    /// built from the level solutions of matching residues; sorted. Residue triples
    /// with the same sum and floors share their level solutions, found once.
    fn some_large_triples(
        &self,
        n: &BigUint,
        target: &Split,
        max: usize,
        listed: &[Vec<BigUint>],
    ) -> Vec<Vec<BigUint>> {
        let Some((rest, sigma0)) = self.above_starts(n, 3) else {
            return Vec::new();
        };
        let p = self.period;
        let mut groups: BTreeMap<(usize, [u32; 3]), Vec<[usize; 3]>> = BTreeMap::new();
        for (residues, sum) in self.residue_triples(sigma0, target.base) {
            let floors = residues.map(|r| self.floor(r));
            groups
                .entry(((sum - sigma0) / p, floors))
                .or_default()
                .push(residues);
        }
        let mut found = std::collections::BTreeSet::new();
        for ((g, floors), members) in groups {
            let sigma = BigUint::from(sigma0 + g * p);
            if rest < sigma {
                continue;
            }
            let sum = (&rest - sigma) / p;
            let solutions = match self.saltus {
                Saltus::Times(saltus) => {
                    ProductEquations::new(&sum, &target.level, floors, saltus).solutions(max)
                }
                Saltus::Zero | Saltus::Shift(_) => {
                    LevelEquations::new(&sum, &target.level, floors).solutions(max)
                }
            };
            for residues in members {
                for increments in &solutions {
                    let mut parts: Vec<BigUint> = residues
                        .iter()
                        .zip(increments)
                        .map(|(&r, q)| BigUint::from(self.start + r) + q * p)
                        .collect();
                    parts.sort_unstable();
                    if !parts[0].is_zero() && !listed.contains(&parts) {
                        found.insert(parts);
                    }
                }
                if found.len() >= max {
                    return found.into_iter().take(max).collect();
                }
            }
        }
        found.into_iter().take(max).collect()
    }
}

/// `(sum - xor) / 2` when `x + y = sum`, `x ⊕ y = xor` has solutions (it is then
/// `x & y`), else `None`.
fn and_part(sum: &BigUint, xor: &BigUint) -> Option<BigUint> {
    if sum < xor {
        return None;
    }
    let twice = sum - xor;
    if twice.is_odd() {
        return None;
    }
    let and = twice >> 1u32;
    (&and & xor).is_zero().then_some(and)
}

/// Equations on `M` non-negative numbers decided bit by bit from the lowest, by a
/// deterministic automaton reading one bit of every number per step (bit `a` of a
/// `pattern` for number `a`): it starts in [`Self::START`] and must be there again
/// after [`Self::bits`] bits, past which every number's bits are 0.
trait BitEquations<const M: usize> {
    const START: usize;

    /// States are `0..states()`.
    fn states(&self) -> usize;

    /// Bits to decide.
    fn bits(&self) -> u64;

    /// The state after `bit` takes the bits `pattern` in `state`, or `None` when they
    /// break an equation.
    fn step(&self, bit: u64, state: usize, pattern: usize) -> Option<usize>;

    /// The unknown that number `a` stands for (the solution's part).
    fn unknown(&self, a: usize, number: BigUint) -> BigUint;

    /// `[j][state]`: `state` is reached from the start after bits `0..j`.
    fn reached(&self) -> Vec<Vec<bool>> {
        let bits = self.bits() as usize;
        let mut reach = vec![vec![false; self.states()]; bits + 1];
        reach[0][Self::START] = true;
        for bit in 0..bits {
            let (done, rest) = reach.split_at_mut(bit + 1);
            for (state, _) in done[bit].iter().enumerate().filter(|(_, r)| **r) {
                for pattern in 0..1 << M {
                    if let Some(to) = self.step(bit as u64, state, pattern) {
                        rest[0][to] = true;
                    }
                }
            }
        }
        reach
    }

    /// The number of solutions.
    fn count(&self) -> BigUint {
        let mut ways: Vec<BigUint> = vec![BigUint::zero(); self.states()];
        ways[Self::START] = BigUint::one();
        for bit in 0..self.bits() {
            let mut next = vec![BigUint::zero(); self.states()];
            for (state, count) in ways.iter().enumerate() {
                if count.is_zero() {
                    continue;
                }
                for pattern in 0..1 << M {
                    if let Some(to) = self.step(bit, state, pattern) {
                        next[to] += count;
                    }
                }
            }
            ways = next;
        }
        std::mem::take(&mut ways[Self::START])
    }

    /// Up to `max` solutions (in no particular order): depth-first over the bits from
    /// the lowest, following only states from which the higher bits can still be
    /// completed.
    fn solutions(&self, max: usize) -> Vec<[BigUint; M]> {
        let bits = self.bits() as usize;
        let reach = self.reached();
        // completes[j][state]: bits j.. can be chosen from `state` into bit j (only
        // for the states reached).
        let mut completes = vec![vec![false; self.states()]; bits + 1];
        completes[bits][Self::START] = true;
        for bit in (0..bits).rev() {
            for (state, &reached) in reach[bit].iter().enumerate() {
                completes[bit][state] = reached
                    && (0..1 << M).any(|pattern| {
                        self.step(bit as u64, state, pattern)
                            .is_some_and(|to| completes[bit + 1][to])
                    });
            }
        }
        let mut found = Vec::new();
        if !completes[0][Self::START] {
            return found;
        }
        // patterns[j]: the bits chosen at bit j; next[j]: the next pattern to try there.
        let mut patterns: Vec<usize> = Vec::with_capacity(bits);
        let mut path = vec![Self::START];
        let mut next = vec![0usize];
        while let Some(&from) = next.last() {
            if found.len() >= max {
                break;
            }
            let bit = patterns.len();
            let state = *path.last().expect("a state per level");
            if bit == bits {
                found.push(std::array::from_fn(|a| {
                    let mut number = BigUint::zero();
                    for (k, &pattern) in patterns.iter().enumerate() {
                        number.set_bit(k as u64, pattern >> a & 1 == 1);
                    }
                    self.unknown(a, number)
                }));
            } else if let Some((pattern, to)) = (from..1 << M).find_map(|pattern| {
                self.step(bit as u64, state, pattern)
                    .filter(|&to| completes[bit + 1][to])
                    .map(|to| (pattern, to))
            }) {
                *next.last_mut().expect("a level") = pattern + 1;
                patterns.push(pattern);
                path.push(to);
                next.push(0);
                continue;
            }
            next.pop();
            path.pop();
            patterns.pop();
        }
        found
    }
}

/// Up to `max` values of the first number of two-number equations, ascending, from
/// `least` on. From the highest bit down, the first number's bit 0 is tried before
/// 1, keeping the set of states the lower bits must lead to; among the states
/// reachable from the start, a nonempty set always completes.
fn ascending_first<E: BitEquations<2>>(equations: &E, least: &BigUint, max: usize) -> Vec<BigUint> {
    let bits = equations.bits() as usize;
    let reach = equations.reached();
    let mut ascent = Ascent {
        equations,
        reach,
        least,
        max,
        found: Vec::new(),
    };
    if ascent.reach[bits][E::START] {
        let mut targets = vec![false; equations.states()];
        targets[E::START] = true;
        ascent.descend(bits, targets, BigUint::zero(), true);
    }
    ascent.found
}

/// The search of [`ascending_first`].
struct Ascent<'a, E> {
    equations: &'a E,
    /// `[j][state]`: reached from the start after bits `0..j`.
    reach: Vec<Vec<bool>>,
    least: &'a BigUint,
    max: usize,
    found: Vec<BigUint>,
}

impl<E: BitEquations<2>> Ascent<'_, E> {
    /// Bits `..bit` of the first number are still to choose, and the states after
    /// them must be in `targets`; `tight` while the bits chosen (`prefix`) equal
    /// those of `least`.
    fn descend(&mut self, bit: usize, targets: Vec<bool>, prefix: BigUint, tight: bool) {
        if bit == 0 {
            self.found.push(prefix);
            return;
        }
        let below = bit - 1;
        let least_bit = self.least.bit(below as u64);
        for chosen in [false, true] {
            if self.found.len() >= self.max {
                return;
            }
            if tight && !chosen && least_bit {
                continue;
            }
            let mut before = vec![false; targets.len()];
            let mut any = false;
            for (state, &reached) in self.reach[below].iter().enumerate() {
                if !reached {
                    continue;
                }
                let lead = (0..2).any(|other| {
                    let pattern = usize::from(chosen) | other << 1;
                    self.equations
                        .step(below as u64, state, pattern)
                        .is_some_and(|to| targets[to])
                });
                before[state] = lead;
                any |= lead;
            }
            if any {
                let mut next = prefix.clone();
                next.set_bit(below as u64, chosen);
                self.descend(below, before, next, tight && chosen == least_bit);
            }
        }
    }
}

/// The level equations of `M` parts: levels `k_a >= floors[a]` with
/// `Σ k_a = sum` and `⊕ k_a = xor`, solved bit by bit from the lowest. A state after
/// some bits is the carry into the next bit (below `M`) and, for each part, whether
/// its bits so far are at least its floor's (`k mod 2^j >= f mod 2^j`; a higher
/// bit that differs decides the comparison, an equal one keeps it). A solution ends
/// with carry 0 and every part at least its floor.
struct LevelEquations<const M: usize> {
    sum: BigUint,
    xor: BigUint,
    floors: [u32; M],
    /// Bits to decide: past them every level bit is 0 and the carry must be 0.
    bits: u64,
}

impl<const M: usize> LevelEquations<M> {
    /// The equations for parts in classes with `floors`, whose level increments
    /// `k_a - floors[a]` sum to `increments`.
    fn new(increments: &BigUint, xor: &BigUint, floors: [u32; M]) -> Self {
        let sum = increments + floors.iter().map(|&f| u64::from(f)).sum::<u64>();
        let bits = sum.bits().max(xor.bits()).max(32) + 2;
        Self {
            sum,
            xor: xor.clone(),
            floors,
            bits,
        }
    }
}

impl<const M: usize> BitEquations<M> for LevelEquations<M> {
    const START: usize = (1 << M) - 1;

    fn states(&self) -> usize {
        M << M
    }

    fn bits(&self) -> u64 {
        self.bits
    }

    fn step(&self, bit: u64, state: usize, pattern: usize) -> Option<usize> {
        let ones = pattern.count_ones() as usize;
        let carry = state >> M;
        let total = ones + carry;
        if (ones & 1 == 1) != self.xor.bit(bit) || (total & 1 == 1) != self.sum.bit(bit) {
            return None;
        }
        let mut at_least = state & Self::START;
        for (a, &floor) in self.floors.iter().enumerate() {
            let mine = pattern >> a & 1;
            let theirs = if bit < 32 {
                (floor >> bit) as usize & 1
            } else {
                0
            };
            if mine != theirs {
                at_least = (at_least & !(1 << a)) | (mine << a);
            }
        }
        Some((total >> 1) << M | at_least)
    }

    /// The increment `k_a - floors[a]` of a level.
    fn unknown(&self, a: usize, number: BigUint) -> BigUint {
        number - self.floors[a]
    }
}

/// The equations of `M` parts of values `s·q_a + c_a` (a saltus `s` that is not a
/// power of two, so that xor does not split the values): `Σ q_a = sum` and
/// `⊕ (s·q_a + c_a) = xor`, over `q_a >= 0`. The products are carried bit by bit as
/// in a long multiplication: bit `j` of `s·q` is bit 0 of `carry + Σ_i s_i·q_{j-i}`,
/// so a state holds, besides the carry of the sum (below `M`), each part's carry
/// (at most `popcount(s) + 1`) and its last `bitlen(s) - 1` bits.
struct ProductEquations<const M: usize> {
    sum: BigUint,
    xor: BigUint,
    constants: [u32; M],
    saltus: u32,
    bits: u64,
}

impl<const M: usize> ProductEquations<M> {
    /// States beyond this are not built (the saltus is then too large).
    const LARGEST: usize = 1 << 14;

    fn new(sum: &BigUint, xor: &BigUint, constants: [u32; M], saltus: u32) -> Self {
        let width = u64::from(32 - saltus.leading_zeros());
        let bits = (sum.bits() + width).max(xor.bits()).max(33) + width + 2;
        Self {
            sum: sum.clone(),
            xor: xor.clone(),
            constants,
            saltus,
            bits,
        }
    }

    /// Each part's share of a state: its carry and its last bits.
    fn part_states(saltus: u32) -> usize {
        let carries = saltus.count_ones() as usize + 2;
        let width = 32 - saltus.leading_zeros();
        carries << (width - 1)
    }

    /// Whether the equations for `saltus` stay within [`Self::LARGEST`] states.
    fn fit(saltus: u32) -> bool {
        Self::part_states(saltus)
            .checked_pow(M as u32)
            .and_then(|n| n.checked_mul(M))
            .is_some_and(|n| n <= Self::LARGEST)
    }
}

impl<const M: usize> BitEquations<M> for ProductEquations<M> {
    const START: usize = 0;

    fn states(&self) -> usize {
        M * Self::part_states(self.saltus).pow(M as u32)
    }

    fn bits(&self) -> u64 {
        self.bits
    }

    fn step(&self, bit: u64, state: usize, pattern: usize) -> Option<usize> {
        let per_part = Self::part_states(self.saltus);
        let carries = self.saltus.count_ones() as usize + 2;
        let width = 32 - self.saltus.leading_zeros();
        let kept = (1usize << (width - 1)) - 1;
        let sum_carry = state % M;
        let mut rest = state / M;
        let ones = pattern.count_ones() as usize;
        let total = ones + sum_carry;
        if (total & 1 == 1) != self.sum.bit(bit) {
            return None;
        }
        let mut parity = false;
        let mut next = 0;
        let mut scale = 1;
        for (a, &constant) in self.constants.iter().enumerate() {
            let part = rest % per_part;
            rest /= per_part;
            let (carry, last) = (part % carries, part / carries);
            // Bit i of `window` is bit `bit - i` of q.
            let window = (pattern >> a & 1) | last << 1;
            let constant_bit = if bit < 32 {
                (constant >> bit) as usize & 1
            } else {
                0
            };
            let t = carry + (window & self.saltus as usize).count_ones() as usize + constant_bit;
            parity ^= t & 1 == 1;
            let carry = t >> 1;
            debug_assert!(carry < carries);
            next += (carry + carries * (window & kept)) * scale;
            scale *= per_part;
        }
        if parity != self.xor.bit(bit) {
            return None;
        }
        Some(total / 2 + M * next)
    }

    fn unknown(&self, _a: usize, number: BigUint) -> BigUint {
        number
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Every unordered split of `n` into `parts` parts (ascending), by brute force.
    fn splits(n: u64, parts: usize) -> Vec<Vec<u64>> {
        let mut all = Vec::new();
        match parts {
            2 => {
                for b in 1..=n / 2 {
                    all.push(vec![b, n - b]);
                }
            }
            3 => {
                for a in 1..=n / 3 {
                    for b in a..=(n - a) / 2 {
                        all.push(vec![a, b, n - a - b]);
                    }
                }
            }
            _ => unreachable!(),
        }
        all
    }

    fn brute(counter: &SplitCounter, n: u64, parts: usize, target: &BigUint) -> Vec<Vec<BigUint>> {
        splits(n, parts)
            .into_iter()
            .filter(|split| {
                split
                    .iter()
                    .fold(BigUint::zero(), |x, &h| x ^ counter.value(&h.into()))
                    == *target
            })
            .map(|split| split.into_iter().map(BigUint::from).collect())
            .collect()
    }

    /// A periodic or arithmetic-periodic sequence (saltus `2^shift`): `first` holds
    /// the values of heaps below `start + period`, any size.
    fn counter(first: Vec<u32>, start: usize, shift: Option<u32>) -> SplitCounter {
        SplitCounter::from_parts(first, start, Saltus::shift(shift))
    }

    fn check(counter: &SplitCounter, n: u64, target: u32) {
        if counter.saltus == Saltus::Zero {
            assert_eq!(
                counter.count_two_periodic(n, target),
                brute(counter, n, 2, &target.into()).len() as u64,
                "two in machine words, n {n} {counter:?}"
            );
        }
        let target = BigUint::from(target);
        let n_big = BigUint::from(n);
        let two = brute(counter, n, 2, &target);
        let three = brute(counter, n, 3, &target);
        assert_eq!(
            counter.count_two_any_size(&n_big, &target),
            BigUint::from(two.len()),
            "two in any size, n {n} {counter:?}"
        );
        assert_eq!(
            counter.count_two(&n_big, &target),
            BigUint::from(two.len()),
            "two, n {n} {counter:?}"
        );
        assert_eq!(
            counter.count_three(&n_big, &target),
            BigUint::from(three.len()),
            "three, n {n} {counter:?}"
        );
        assert_eq!(
            counter.list_two(&n_big, &target, 7),
            two.into_iter().take(7).collect::<Vec<_>>()
        );
        assert_eq!(
            counter.list_three(&n_big, &target, 7),
            three.into_iter().take(7).collect::<Vec<_>>()
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Counts and lists agree with brute force on every split of small heaps, for
        /// random periodic and arithmetic-periodic sequences.
        #[test]
        fn counts_and_lists_agree_with_brute_force(
            start in 0usize..5,
            period in 1usize..6,
            seed in proptest::collection::vec(0u32..24, 11),
            shift in proptest::option::of(1u32..4),
            n in 1u64..70,
            target in 0u32..48,
        ) {
            let first: Vec<u32> = seed.iter().copied().cycle().take(start + period).collect();
            let counter = counter(first, start, shift);
            check(&counter, n, target);
        }

        /// The same with a saltus that is not a power of two.
        #[test]
        fn counts_and_lists_agree_with_brute_force_for_any_saltus(
            start in 0usize..5,
            period in 1usize..6,
            seed in proptest::collection::vec(0u32..24, 11),
            saltus in prop_oneof![Just(3u32), Just(5), Just(6)],
            n in 1u64..70,
            target in 0u32..64,
        ) {
            let first: Vec<u32> = seed.iter().copied().cycle().take(start + period).collect();
            let counter = SplitCounter::from_parts(first, start, Saltus::Times(saltus));
            check(&counter, n, target);
        }
    }

    #[test]
    #[ignore = "exhaustive (15-90 s): run with --include-ignored, as CI does"]
    fn counts_agree_on_every_small_heap_of_fixed_sequences() {
        // Kayles-like (period 12), a saltus of 4 with a preperiod, a saltus of 1.
        let kayles = vec![0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4];
        let cases = [
            counter(kayles, 1, None),
            counter(vec![0, 1, 2, 0, 3, 1, 2, 3], 3, Some(2)),
            counter(vec![0, 0, 0, 0], 1, Some(0)),
            counter(vec![0, 1, 0, 2], 2, Some(2)),
            // From heap 0: 0, 1, 2 | 4, 5, 6 | 8, ... (period 3, saltus 4).
            counter(vec![0, 1, 2], 0, Some(2)),
            counter(vec![0, 1, 1, 0, 2], 0, None),
            // Values above the saltus from the start (floors above 0): Nim's G(n) = n
            // as period 4, saltus 4; a linear growth with a preperiod, as the codes only
            // the automaton test proves (0.FB: G(n) = n - 1 from heap 2).
            counter(vec![0, 1, 2, 3], 0, Some(2)),
            counter(vec![0, 0, 1, 2, 3, 4, 5, 6, 7], 1, Some(3)),
            counter(vec![0, 1, 3, 2, 6, 9, 8, 11, 10], 3, Some(1)),
        ];
        for counter in &cases {
            for n in 1..60 {
                for target in 0..24 {
                    check(counter, n, target);
                }
            }
        }
        // Saltus 3: 0.3F's G(n) = 3·(n div 6) + n mod 3 from heap 0, and with a
        // preperiod; saltus 6 from values above it.
        let cases = [
            SplitCounter::from_parts(vec![0, 1, 2, 0, 1, 2], 0, Saltus::Times(3)),
            SplitCounter::from_parts(vec![0, 0, 1, 2, 0, 4, 5], 2, Saltus::Times(3)),
            SplitCounter::from_parts(vec![0, 7, 9, 13], 1, Saltus::Times(6)),
        ];
        for counter in &cases {
            for n in 1..60 {
                for target in 0..40 {
                    check(counter, n, target);
                }
            }
        }
    }

    /// Every solution of the level equations with increments summing to `sum`, by
    /// enumeration: increments `[x, y]` or `[x, y, z]`.
    fn enumerated_levels(sum: u32, xor: u32, floors: &[u32]) -> Vec<Vec<BigUint>> {
        let mut all = Vec::new();
        let level = |a: usize, q: u32| floors[a] + q;
        for x in 0..=sum {
            if floors.len() == 2 {
                if level(0, x) ^ level(1, sum - x) == xor {
                    all.push(vec![x.into(), (sum - x).into()]);
                }
                continue;
            }
            for y in 0..=sum - x {
                if level(0, x) ^ level(1, y) ^ level(2, sum - x - y) == xor {
                    all.push(vec![x.into(), y.into(), (sum - x - y).into()]);
                }
            }
        }
        all
    }

    /// The count and the listed solutions of the level equations with `floors`,
    /// against enumeration, for every sum below `sums` and xor below 64.
    fn check_level_equations<const M: usize>(floors: [u32; M], sums: u32) {
        for sum in 0..sums {
            for xor in 0u32..64 {
                let expected = enumerated_levels(sum, xor, &floors);
                let equations = LevelEquations::new(&sum.into(), &xor.into(), floors);
                let context = format!("sum {sum} xor {xor} floors {floors:?}");
                assert_eq!(
                    equations.count(),
                    BigUint::from(expected.len()),
                    "{context}"
                );
                let mut listed: Vec<Vec<BigUint>> = equations
                    .solutions(usize::MAX)
                    .into_iter()
                    .map(Vec::from)
                    .collect();
                listed.sort();
                assert_eq!(listed, expected, "{context}");
                assert_eq!(
                    equations.solutions(M).len(),
                    expected.len().min(M),
                    "{context}"
                );
            }
        }
    }

    /// Products by a saltus that is not a power of two: counts, the ascending listing
    /// of the first number and the solutions against enumeration, two and three parts.
    #[test]
    fn product_equations_match_enumeration() {
        for saltus in [3u32, 5, 6] {
            for constants in [[0u32, 0, 0], [1, 2, 0], [5, 9, 4], [40, 3, 17]] {
                for sum in 0u32..12 {
                    let value = |q: u32, c: u32| saltus * q + c;
                    let xors: std::collections::BTreeSet<u32> = (0..=sum)
                        .map(|q| value(q, constants[0]) ^ value(sum - q, constants[1]))
                        .chain([0, 1, 77])
                        .collect();
                    for &xor in &xors {
                        let expected: Vec<BigUint> = (0..=sum)
                            .filter(|&q| {
                                value(q, constants[0]) ^ value(sum - q, constants[1]) == xor
                            })
                            .map(BigUint::from)
                            .collect();
                        let equations = ProductEquations::new(
                            &sum.into(),
                            &xor.into(),
                            [constants[0], constants[1]],
                            saltus,
                        );
                        assert_eq!(equations.count(), BigUint::from(expected.len()));
                        assert_eq!(ascending_first(&equations, &BigUint::zero(), 100), expected);
                        let least = BigUint::from(sum / 2);
                        let from_least: Vec<BigUint> = expected
                            .iter()
                            .filter(|&q| *q >= least)
                            .take(2)
                            .cloned()
                            .collect();
                        assert_eq!(ascending_first(&equations, &least, 2), from_least);
                        let mut listed: Vec<BigUint> = equations
                            .solutions(100)
                            .into_iter()
                            .map(|[q, _]| q)
                            .collect();
                        listed.sort();
                        assert_eq!(listed, expected);
                    }
                    // Three parts, xors of a few triples.
                    for xor in [
                        0u32,
                        3,
                        value(1, constants[0]) ^ value(sum.saturating_sub(1), constants[2]),
                    ] {
                        let mut expected = Vec::new();
                        for q0 in 0..=sum {
                            for q1 in 0..=sum - q0 {
                                let q2 = sum - q0 - q1;
                                if value(q0, constants[0])
                                    ^ value(q1, constants[1])
                                    ^ value(q2, constants[2])
                                    == xor
                                {
                                    expected.push([q0, q1, q2].map(BigUint::from));
                                }
                            }
                        }
                        let equations =
                            ProductEquations::new(&sum.into(), &xor.into(), constants, saltus);
                        assert_eq!(
                            equations.count(),
                            BigUint::from(expected.len()),
                            "{saltus} {constants:?} {sum} {xor}"
                        );
                        let mut listed = equations.solutions(1000);
                        listed.sort();
                        expected.sort();
                        assert_eq!(listed, expected);
                    }
                }
            }
        }
        let taken: Vec<u32> = (1..=64u32)
            .filter(|s| !s.is_power_of_two() && ProductEquations::<3>::fit(*s))
            .collect();
        assert_eq!(taken, [3, 5, 6], "the saltus the refusal message names");
    }

    #[test]
    fn level_equations_match_enumeration() {
        // Floors 0 (the level test's form) and above, including floors with high bits.
        for floors in [[0, 0], [1, 0], [0, 5], [3, 6], [9, 2], [12, 12]] {
            check_level_equations(floors, 50);
        }
        for floors in [[0, 0, 0], [1, 0, 2], [4, 4, 0], [3, 7, 5], [16, 1, 9]] {
            check_level_equations(floors, 30);
        }
    }

    #[test]
    fn huge_heaps_count_without_enumerating() {
        // A target with a huge level: the winning splits have three huge parts, found
        // from the level equations (the smallest parts tried first hold none).
        let counter8 = counter(vec![0, 1, 2], 0, Some(2));
        let heap: BigUint = BigUint::from(10u32).pow(40) + 7u32;
        let x = BigUint::from(3u32) * BigUint::from(10u32).pow(39) + 1u32;
        let y = &x + 12_345u32;
        let z = &heap - &x - &y;
        let target = counter8.value(&x) ^ counter8.value(&y) ^ counter8.value(&z);
        let count = counter8.count_three(&heap, &target);
        let listed = counter8.list_three(&heap, &target, 5);
        assert!(count > BigUint::from(5u32), "{count}");
        assert_eq!(listed.len(), 5);
        for split in &listed {
            assert_eq!(split.iter().sum::<BigUint>(), heap);
            assert!(split[0] > BigUint::from(10u32).pow(20), "{split:?}");
            let value = split
                .iter()
                .fold(BigUint::zero(), |x, h| x ^ counter8.value(h));
            assert_eq!(value, target);
        }
        // G(0) = 0, then 1, 0, 3, 2, 5, 4, ...: period 2, saltus 2 from heap 1.
        let counter = counter(vec![0, 1, 0], 1, Some(1));
        let heap: BigUint = BigUint::from(10u32).pow(60) * 2u32 + 1u32;
        for target in [0u32, 1, 6] {
            let target = BigUint::from(target);
            for (parts, count, listed) in [
                (
                    2,
                    counter.count_two(&heap, &target),
                    counter.list_two(&heap, &target, 3),
                ),
                (
                    3,
                    counter.count_three(&heap, &target),
                    counter.list_three(&heap, &target, 3),
                ),
            ] {
                assert!(BigUint::from(listed.len()) <= count);
                assert_eq!(
                    listed.len(),
                    3.min(count.to_usize().unwrap_or(3)),
                    "{parts} parts"
                );
                for split in listed {
                    assert_eq!(split.len(), parts);
                    assert_eq!(split.iter().sum::<BigUint>(), heap);
                    assert!(split.windows(2).all(|w| w[0] <= w[1]));
                    let value = split
                        .iter()
                        .fold(BigUint::zero(), |x, h| x ^ counter.value(h));
                    assert_eq!(value, target);
                }
            }
        }
    }
}
