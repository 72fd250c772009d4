//! When a quotient holds for heaps of every size: the periodicity theorem for
//! misère quotients (Plambeck and Siegel 2008, stated for octal games; here
//! with our own proof and bound, for every rule of the form below).
//!
//! **Rules covered.** A move removes `i` tokens from one heap (`i` in a finite
//! set up to `k`, or every `i` but a finite set up to `k`) and leaves at most
//! `J` heaps: take-and-break codes (octal `J = 2`, hexadecimal with the bit 8
//! `J = 3`; `k` the code's length), subtraction sets (`J = 1`, `k` the largest
//! amount) and all-but games (`J = 1`, `k` the largest excluded amount).
//!
//! **Theorem.** Let `φ` be the heap map of the verified quotient `Q` of heaps
//! `<= N`, with `φ(h) = φ(h - p)` for `n0 + p <= h <= N`. Write
//! `n1 = max(n0, 1)` and `J1 = max(J, 1)`, and let
//! `N >= J1 (n1 + p) + k + p - 1`. Extend `φ` to every heap by the period.
//! Then `Q` with the extended `φ` is the misère quotient of the whole game.
//!
//! *Proof.* The verification of a candidate (module `automaton`) reads heaps
//! as letters, and a letter enters it only through `φ(h)` and the set `T1(h)`
//! of the classes of `h`'s options. An option removing `i` tokens and leaving
//! `j` heaps (each of at least one token) of total `s = h - i` has the class
//! of the product of their classes; call `C_j(s)` the set of these products.
//! A move leaving no heap exists only when `s = 0`, so it is the one
//! dependence on `s` itself rather than on `s mod p`: this is why `J1` and
//! `n1` are at least 1 (with `J = 0`, as for the octal code 0.1 whose one move
//! empties a heap of 1, the bound must still pass the heaps `<= k`, where
//! those moves exist; with `n0 = 0` a heap cut down by `p` could be empty).
//! For `1 <= j <= J` and `s >= J1 (n1 + p)`, `C_j(s + p) = C_j(s)`: the
//! largest of `j` heaps of total `s + p` is above `n1 + p`, and cutting it
//! down by `p` keeps its class (it stays `>= n1 >= n0`) and leaves it a heap
//! (`>= 1`); conversely adding `p` to the largest of `j` heaps of total `s`
//! (at least `n1 + p`) keeps its class. So `T1(h + p) = T1(h)` once
//! `h >= J1 (n1 + p) + k`: every option removes at most `k` tokens (for
//! all-but games, those removing more leave one heap below `h - k` or none,
//! and once `h - k >= n0 + p` every class the heaps take is among them, for
//! `h` and for `h + p` alike). Each heap beyond `N` is therefore the same
//! letter as the heap `p` below it, down to a heap `<= N`: the verification
//! over every heap is the one already passed over heaps `<= N`, and the
//! states are told apart by heaps `<= N` already. ∎
//!
//! The bound is checked against the quotient computed four times further for
//! every octal code of up to three digits and every hexadecimal code of up to
//! two, and every subtraction and all-but game of amounts up to 6 and 5 (the
//! library's property tests, `proof_sweep`).

use crate::rules::HeapRule;

/// A proven period of the heap map: `φ(h) = φ(h - period)` for every
/// `h >= preperiod + period`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuotientPeriodicity {
    /// The first heap of the periodic part (`n0`).
    pub preperiod: u64,
    /// The period (`p`).
    pub period: u64,
    /// The heaps the theorem needed computed
    /// (`max(J, 1) (max(n0, 1) + p) + k + p - 1`).
    pub needed: u64,
}

impl QuotientPeriodicity {
    /// `(k, J)` of the rules the theorem covers (see the module documentation).
    fn shape(rule: &HeapRule) -> Option<(u64, u64)> {
        match rule {
            HeapRule::TakeAndBreak(code) => {
                Some((code.max_removed() as u64, code.max_heaps_left() as u64))
            }
            HeapRule::Subtraction(set) => Some((u64::from(set.max()), 1)),
            HeapRule::AllButSubtraction(game) => Some((
                game.excluded().iter().copied().max().map_or(0, u64::from),
                1,
            )),
            HeapRule::GrundysGame | HeapRule::LaskersNim | HeapRule::RestNim => None,
        }
    }

    /// The heaps the theorem needs computed for rules of shape `(k, J)`
    /// (see the module documentation).
    const fn needed(heaps_left: u64, removed: u64, preperiod: u64, period: u64) -> u64 {
        let heaps_left = if heaps_left == 0 { 1 } else { heaps_left };
        let first = if preperiod == 0 { 1 } else { preperiod };
        heaps_left * (first + period) + removed + period - 1
    }

    /// The smallest period the theorem proves from `map` (the classes of heaps
    /// `0..=N`), if any.
    pub(crate) fn find(rule: &HeapRule, map: &[u32]) -> Option<Self> {
        let (k, j) = Self::shape(rule)?;
        let n = map.len() as u64 - 1;
        for period in 1..=n {
            // The largest heap breaking the period: the periodic part starts
            // just after it.
            let broken = (period..=n)
                .rev()
                .find(|&h| map[h as usize] != map[(h - period) as usize]);
            let preperiod = broken.map_or(0, |h| h - period + 1);
            let needed = Self::needed(j, k, preperiod, period);
            if needed <= n {
                return Some(Self {
                    preperiod,
                    period,
                    needed,
                });
            }
            // Larger periods need more heaps than the map holds, whatever
            // their preperiod.
            if Self::needed(j, k, 0, period) > n {
                return None;
            }
        }
        None
    }

    /// The proof in words.
    pub fn proof(&self) -> String {
        format!(
            "the heap map is periodic with period {} from heap {} through the heaps computed, \
             which reach the {} that the periodicity theorem for misère quotients needs: \
             the quotient holds for heaps of every size",
            self.period, self.preperiod, self.needed
        )
    }
}
