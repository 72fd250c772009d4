//! Conway's genus of heaps (Winning Ways, chapter 13; On Numbers and Games,
//! chapter 12): `g^{γ0 γ1 γ2 ...}` where `g` is the normal-play Grundy value
//! and `γk` the misère Grundy value of the heap plus `k` nim heaps of size 2.
//! The `γk` alternate between two values from some `k` on; the symbol is
//! written up to the first two values of that alternation (`0^{120}`: `γ =
//! 1, 2, 0, 2, 0, ...`).
//!
//! The misère Grundy value `G⁻` (`1` for a position without moves, else the
//! mex of its options' values) is the unique `m` with `G + *m` a misère
//! P-position. (Induction: the options of `G + *m` are `G' + *m`, a
//! P-position iff `G'⁻ = m`, and `G + *j` for `j < m`, one iff `G⁻ = j`; so
//! `G + *m` is a P-position iff no option of `G` has value `m` and `G⁻ >= m`,
//! that is iff `G⁻ = m`; for `m = 0` it is the definition.)
//!
//! So each `γk` is read from a misère quotient of the heaps together with the
//! nim heaps `*1 .. *M`: `γk` is the `m` whose class times
//! `heap · (*2)^k` lies in the P-portion. The classes `heap · (*2)^k`
//! repeat with period 2 from some `k` on (every element `x` of a misère
//! quotient has `x^(j+2) = x^j` for some `j`, Plambeck-Siegel), which ends the
//! symbol. When some `γk` exceeds `M`, `M` is doubled.

use std::fmt;

use super::{Builder, QuotientError, QuotientLimits, heap_options};
use crate::rules::HeapRule;
use crate::theory::limits::SearchError;

/// The genus of one heap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Genus {
    /// The normal-play Grundy value `g`.
    pub normal: u64,
    /// `γ0 γ1 ...`, up to the first two values of the final alternation.
    pub misere: Vec<u64>,
}

impl fmt::Display for Genus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let wide = self.misere.iter().any(|&v| v > 9);
        let digits: Vec<String> = self.misere.iter().map(u64::to_string).collect();
        let joined = if wide {
            digits.join(",")
        } else {
            digits.concat()
        };
        write!(f, "{}^{{{joined}}}", self.normal)
    }
}

impl Genus {
    /// The genus of the nim heap `*n`: `0^{120}`, `1^{031}`, and `n^{n, n⊕2}`
    /// for `n >= 2`.
    pub fn of_nim_heap(n: u64) -> Self {
        let misere = match n {
            0 => vec![1, 2, 0],
            1 => vec![0, 3, 1],
            _ => vec![n, n ^ 2],
        };
        Self { normal: n, misere }
    }

    /// Whether this is the genus of a sum of nim heaps: `0^{120}` and
    /// `1^{031}` (heaps of at most one token), `0^{02}` and `1^{13}`, and
    /// `g^{g, g⊕2}` for `g >= 2` (some heap larger).
    pub fn is_nim_like(&self) -> bool {
        let g = self.normal;
        match (g, self.misere.as_slice()) {
            (0, [1, 2, 0] | [0, 2]) | (1, [0, 3, 1] | [1, 3]) => true,
            (g, [a, b]) => g >= 2 && *a == g && *b == g ^ 2,
            _ => false,
        }
    }

    /// Whether a nim position of this genus has only heaps of at most one
    /// token (`0^{120}`, `1^{031}`): a "fickle" or "firm" small game.
    pub fn is_small(&self) -> bool {
        self.normal <= 1 && self.misere.len() == 3
    }
}

/// Conway's theorem on tame games (On Numbers and Games, chapter 12; Winning
/// Ways, chapter 13): a game all of whose positions have the genus of a nim
/// position plays, in misère sums with other such games, as that nim
/// position. So a sum of them is a misère P-position exactly as misère Nim's
/// (Bouton): when every part is small (as heaps of at most one token) iff the
/// nim-sum of their Grundy values is 1, otherwise iff it is 0.
pub fn tame_sum_is_p(nim_sum: &num_bigint::BigUint, all_small: bool) -> bool {
    *nim_sum == num_bigint::BigUint::from(u8::from(all_small))
}

/// The genus of every heap `0..=heaps` of `rule`.
///
/// # Errors
/// A [`QuotientError`] when the quotient of the heaps with the nim heaps
/// cannot be built within `limits`.
pub fn genera(
    rule: &HeapRule,
    heaps: u64,
    limits: QuotientLimits,
) -> Result<Vec<Genus>, QuotientError> {
    let normal = normal_values(rule, heaps);
    let largest = normal.iter().copied().max().unwrap_or(0);
    let mut nim_heaps = (largest + 3).next_power_of_two().max(4);
    loop {
        match genera_with(rule, heaps, &normal, nim_heaps, limits)? {
            Some(found) => return Ok(found),
            None => nim_heaps *= 2,
        }
        if nim_heaps > 1 << 12 {
            return Err(QuotientError {
                error: SearchError::StateLimit { limit: 1 << 12 },
                heap: heaps,
                orders: Vec::new(),
            });
        }
    }
}

/// The normal-play Grundy values of heaps `0..=heaps`, by the mex rule.
fn normal_values(rule: &HeapRule, heaps: u64) -> Vec<u64> {
    let mut values: Vec<u64> = Vec::with_capacity(heaps as usize + 1);
    for h in 0..=heaps {
        let mut seen = Vec::new();
        for m in rule.moves(h) {
            seen.push(m.leaves.iter().fold(0, |x, &l| x ^ values[l as usize]));
        }
        seen.sort_unstable();
        seen.dedup();
        let mex = seen
            .iter()
            .enumerate()
            .find(|&(i, &v)| v != i as u64)
            .map_or(seen.len() as u64, |(i, _)| i as u64);
        values.push(mex);
    }
    values
}

/// The genera read from the quotient of the rule's heaps `1..=heaps` (letters
/// `0..heaps`) and the nim heaps `*1..=*nim_heaps` (the letters after them);
/// `None` when a value exceeds `nim_heaps`.
fn genera_with(
    rule: &HeapRule,
    heaps: u64,
    normal: &[u64],
    nim_heaps: u64,
    limits: QuotientLimits,
) -> Result<Option<Vec<Genus>>, QuotientError> {
    let rule_heaps = heaps as u32;
    let mut builder = Builder::new(limits);
    let fail = |error: SearchError, heap: u64| QuotientError {
        error,
        heap,
        orders: Vec::new(),
    };
    // The rule's heaps are letters 0..heaps, then the nim heaps *1..=*M.
    for letter in 0..heaps + nim_heaps {
        let opts = if letter < heaps {
            heap_options(rule, letter + 1).map_err(|e| fail(e, letter + 1))?
        } else {
            // *m moves to *j for every j < m (*0 is the empty word).
            let m = (letter - heaps) as u32 + 1;
            std::iter::once(Vec::new())
                .chain((1..m).map(|j| vec![rule_heaps + j - 1]))
                .collect()
        };
        builder
            .add(opts)
            .map_err(|e| fail(e, (letter + 1).min(heaps)))?;
    }
    let (monoid, image) = (&builder.monoid, &builder.image);
    let nim = |m: u64| {
        if m == 0 {
            0
        } else {
            image[(heaps + m - 1) as usize]
        }
    };
    let two = nim(2);
    let mut found = Vec::with_capacity(heaps as usize + 1);
    for h in 0..=heaps {
        let class = if h == 0 { 0 } else { image[(h - 1) as usize] };
        let mut xs = vec![class];
        loop {
            let k = xs.len();
            // x_{k-1} = x_{k-3}: periodic with period 2 from k - 3 on.
            if k >= 3 && xs[k - 1] == xs[k - 3] {
                break;
            }
            if k > 2 * monoid.order + 4 {
                break;
            }
            xs.push(monoid.times(xs[k - 1], two));
        }
        // The values γk of each x_k, then the shortest prefix ending with two
        // values of the final alternation.
        let mut values = Vec::with_capacity(xs.len());
        for &x in &xs {
            let Some(m) = (0..=nim_heaps).find(|&m| monoid.p[monoid.times(x, nim(m)) as usize])
            else {
                return Ok(None);
            };
            values.push(m);
        }
        let start = (0..values.len())
            .find(|&j| (j..values.len().saturating_sub(2)).all(|i| values[i] == values[i + 2]))
            .unwrap_or(0);
        values.truncate((start + 2).min(values.len()));
        found.push(Genus {
            normal: normal[h as usize],
            misere: values,
        });
    }
    Ok(Some(found))
}
