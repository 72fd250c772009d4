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
//! `<= N`, with `φ(h) = φ(h - p)` for `n0 + p <= h <= N`, and
//! `N >= J (n0 + p) + k + p - 1`. Extend `φ` to every heap by the period. Then
//! `Q` with the extended `φ` is the misère quotient of the whole game.
//!
//! *Proof.* The verification of a candidate (module `automaton`) reads heaps
//! as letters, and a letter enters it only through `φ(h)` and the set `T1(h)`
//! of the classes of `h`'s options. For `s >= J (n0 + p)` the classes of the
//! ways to leave `j <= J` heaps of total `s` depend only on `s mod p`: a heap
//! below `n0` is a fixed class beside `j - 1` heaps of total at least
//! `(j - 1)(n0 + p)`, and heaps all at least `n0` realise every combination of
//! residues. So `T1(h + p) = T1(h)` once `h >= J (n0 + p) + k` (for all-but
//! games `T1(h)` is then every class the heaps take). Each heap beyond `N` is
//! therefore the same letter as the heap `p` below it, down to a heap `<= N`:
//! the verification over every heap is the one already passed over heaps
//! `<= N`, and the states are told apart by heaps `<= N` already. ∎

use crate::rules::HeapRule;

/// A proven period of the heap map: `φ(h) = φ(h - period)` for every
/// `h >= preperiod + period`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Periodicity {
    /// The first heap of the periodic part (`n0`).
    pub preperiod: u64,
    /// The period (`p`).
    pub period: u64,
    /// The heaps the theorem needed computed (`J (n0 + p) + k + p - 1`).
    pub needed: u64,
}

impl Periodicity {
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
            let needed = j * (preperiod + period) + k + period - 1;
            if needed <= n {
                return Some(Self {
                    preperiod,
                    period,
                    needed,
                });
            }
            if j * period + k + period > n {
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
