//! Periodicity of Grundy sequences: detection, proof, and values of huge heaps.
//!
//! A sequence is *arithmetic-periodic* with period `p`, preperiod `n0` and saltus `s`
//! when `G(n + p) = G(n) + s` for every `n >= n0`; *periodic* when `s = 0`.
//!
//! # What certifies a period (`proven`)
//!
//! - **Take-and-break codes** (octal and hexadecimal, saltus 0): the Guy-Smith
//!   periodicity theorem (R. K. Guy and C. A. B. Smith, *The G-values of various games*,
//!   Proc. Cambridge Philos. Soc. 52 (1956); Winning Ways, chapter 4): let `k` be the
//!   largest number of tokens a move removes (the index of the last non-zero digit) and
//!   `h` the largest number of heaps a move leaves (at least 1), and `n1 = max(n0, 1)`.
//!   If `G(n + p) = G(n)` for every `n0 <= n < M` with `M = h·n1 + (h-1)·p + k`, then it
//!   holds for every `n >= n0`. For octal codes (`h = 2`) and `n0 >= 1` this is Winning
//!   Ways' `n0 <= n < 2·n0 + p + k`. Proof sketch (induction on `M`): an option of heap
//!   `M + p` removes `j <= k` tokens and leaves at most `h` heaps of at least one token
//!   each, the largest of size `b >= (M + p - k)/h >= n1 + p`, so `n1 <= b - p < M`;
//!   replacing `b` by `b - p` gives an option of heap `M` of the same value (the heap
//!   `b - p` is not empty, hence `n1` rather than `n0`: with `n0 = 0` the code 0.04,
//!   whose only move splits a heap in two after taking 2, has `G = 0, 0, 0, 0, 1`, and
//!   Winning Ways' window `0 <= n < 3` would "prove" period 1), and conversely enlarging
//!   the largest part of an option of `M` by `p` gives one of `M + p`. Moves leaving no
//!   heap exist only from heaps `<= k < M`. The check therefore needs the values of
//!   heaps `0 ..= M - 1 + p`.
//! - **Finite subtraction games**: the same argument with `h = 1`: a window of
//!   `max(S)` values repeating (from `n0 >= 1`, or `max(S) + 1` values from 0) proves
//!   the period.
//! - **Closed forms**: Nim (`G(n) = n`), Rest Nim (`G(n) = n`, see
//!   [`crate::games::heap`]) and Lasker's Nim (period 4, saltus 4, preperiod 1; Winning
//!   Ways, chapter 15) are proven by their theorems; the computed values are checked
//!   against them.
//! - **Arithmetic periodicity of hexadecimal codes** (moves leaving three heaps) is
//!   certified by the *level test* proved in the `arithmetic` module, when the saltus
//!   (or that of a multiple of the period) is a power of two above every value of the
//!   first `n0 + p` heaps and its finite checks pass; failing that, by the *automaton
//!   test* of the `automaton` module, which decides exactly, by automata over the
//!   binary digits, whether the claimed values obey the mex rule at every heap past
//!   those computed (a power-of-two saltus by levels and low parts; any other saltus
//!   up to 16, like 0.3F's 3, by the automata of `automaton::any_saltus`).
//!   **All-but subtraction games** are certified by the *window test* of the
//!   `arithmetic` module. Arithmetic-periodic sequences beyond these caps are reported
//!   but *not* certified: `proven` stays false. (Howse and Nowakowski, *Periodicity and
//!   arithmetic-periodicity in hexadecimal games*, Theoret. Comput. Sci. 313 (2004),
//!   give a published test; we could not check its exact statement, so grundy proves
//!   its own.)
//! - Grundy's game has no known period: anything found there is unproven.
//!
//! # Detection
//!
//! For each candidate period `p` in increasing order, the saltus is read from the end
//! of the sequence and the relation is followed backwards to the smallest `n0` from
//! which it holds up to the last value. A candidate is *reported* when the relation has
//! been seen over at least `n0 + p` heaps past `n0` (so the periodic part is at least as
//! long as the preperiod plus one period) and at least `2p` heaps, or as soon as a
//! theorem above certifies it from the values at hand (the level test may need fewer
//! heaps than that; Guy-Smith needs `2·max(n0, 1) + 2p + k`, never fewer); the report is
//! *proven* when a theorem certifies it.

use std::ops::ControlFlow;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::ToPrimitive;

use super::storage::{Store, StoredValue};
use super::{GrundyValues, Interrupted, Progress, SequenceSolver};

use crate::rules::HeapRule;
use std::borrow::Cow;

/// A period found in a Grundy sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Periodicity {
    /// The first heap from which `G(n + period) = G(n) + saltus` holds.
    pub preperiod: usize,
    /// The period.
    pub period: usize,
    /// The saltus (0 for a periodic sequence).
    pub saltus: u32,
    /// What certifies it, if anything.
    pub proof: Proof,
}

/// What certifies a [`Periodicity`] for every heap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proof {
    /// Seen in the computed values only.
    Unproven,
    /// The Guy-Smith theorem, checked on heaps `0..checked` (take-and-break codes).
    GuySmith {
        /// Values of heaps below this were compared.
        checked: usize,
    },
    /// A repeated window of a finite subtraction game, checked on heaps `0..checked`.
    SubtractionWindow {
        /// Values of heaps below this were compared.
        checked: usize,
    },
    /// The level test for arithmetic periodicity (saltus a power of two above the
    /// values of the first period; see the `arithmetic` module), checked on heaps
    /// `0..checked`.
    LevelTest {
        /// Values of heaps below this were compared.
        checked: usize,
    },
    /// The automaton test for arithmetic periodicity (any early values; see the
    /// `automaton` module), checked on heaps `0..checked`.
    AutomatonTest {
        /// Values of heaps below this were compared.
        checked: usize,
    },
    /// The window test for arithmetic periodicity of all-but subtraction games (see the
    /// `arithmetic` module), checked on heaps `0..checked`.
    WindowTest {
        /// Values of heaps below this were compared.
        checked: usize,
    },
    /// A closed formula proven for every heap.
    ClosedForm {
        /// The theorem, in words.
        theorem: &'static str,
    },
}

impl Proof {
    /// The method, in a few words, as an answer's `method` names it: "proven
    /// period (Guy-Smith)", "closed form", ...
    #[must_use]
    pub const fn method(&self) -> &'static str {
        match self {
            Self::Unproven => "grundy sequence",
            Self::GuySmith { .. } | Self::SubtractionWindow { .. } => "proven period (Guy-Smith)",
            Self::LevelTest { .. } => "proven arithmetic period (level test)",
            Self::AutomatonTest { .. } => "proven arithmetic period (automaton test)",
            Self::WindowTest { .. } => "proven arithmetic period (window test)",
            Self::ClosedForm { .. } => "closed form",
        }
    }

    /// The proof in a sentence, with the heaps it was checked on: what `grundy
    /// seq` prints as `proof`.
    #[must_use]
    pub fn describe(&self) -> String {
        match *self {
            Self::Unproven => "seen in the computed values only, not proven".to_owned(),
            Self::GuySmith { checked } => {
                format!("Guy-Smith periodicity theorem, checked on heaps 0..{checked}")
            }
            Self::SubtractionWindow { checked } => format!(
                "a repeated window of max(S) values (subtraction game), checked on heaps 0..{checked}"
            ),
            Self::LevelTest { checked } => format!(
                "arithmetic periodicity by grundy's level test (saltus a power of two), checked on heaps 0..{checked}"
            ),
            Self::AutomatonTest { checked } => format!(
                "arithmetic periodicity by grundy's automaton test, checked on heaps 0..{checked}"
            ),
            Self::WindowTest { checked } => format!(
                "arithmetic periodicity by grundy's window test (all-but subtraction), checked on heaps 0..{checked}"
            ),
            Self::ClosedForm { theorem } => theorem.to_owned(),
        }
    }
}

impl Periodicity {
    /// True when a theorem certifies the period for every heap.
    pub fn proven(&self) -> bool {
        self.proof != Proof::Unproven
    }

    /// The value of any heap, from the values of heaps `0..preperiod + period`.
    ///
    /// Only a proven periodicity answers for heaps beyond the computed values.
    ///
    /// ```
    /// use grundy::rules::HeapRule;
    /// use grundy::sequence::{find_periodicity, grundy_values};
    /// use num_bigint::BigUint;
    ///
    /// let kayles = HeapRule::kayles();
    /// let values = grundy_values(&kayles, 200);
    /// let periodicity = find_periodicity(&kayles, &values).unwrap();
    /// let heap: BigUint = "1".repeat(100).parse().unwrap();
    /// // 11...1 (100 ones) is 71 + 12q + 8 for some q, so its value is G(79) = 2.
    /// assert_eq!(values.get(79), Some(2));
    /// assert_eq!(periodicity.value_of_heap(&values, &heap).unwrap(), BigUint::from(2u32));
    /// ```
    pub fn value_of_heap(
        &self,
        values: &GrundyValues,
        heap: &BigUint,
    ) -> Result<BigUint, ValueError> {
        if let Some(small) = heap.to_usize()
            && let Some(value) = values.get(small)
        {
            return Ok(BigUint::from(value));
        }
        if !self.proven() {
            return Err(ValueError::NotProven);
        }
        let needed = self.preperiod + self.period;
        if values.len() < needed {
            return Err(ValueError::TooFewValues {
                needed,
                have: values.len(),
            });
        }
        let (cycles, offset) = (heap - self.preperiod).div_rem(&BigUint::from(self.period));
        let base = self.preperiod + offset.to_usize().expect("offset is below the period");
        let base_value = values.get(base).expect("base heap is stored");
        Ok(BigUint::from(base_value) + cycles * self.saltus)
    }

    /// The values of heaps `0..=last_heap` from the values of heaps
    /// `0..preperiod + period` (`G(n0 + x + t·p) = G(n0 + x) + t·s`), as
    /// [`Periodicity::value_of_heap`] gives them one by one; `None` when fewer values are
    /// given or one would not fit in 32 bits. Only a proven period should be extended.
    #[must_use]
    pub fn values_up_to(&self, values: &GrundyValues, last_heap: usize) -> Option<GrundyValues> {
        let (preperiod, period) = (self.preperiod, self.period);
        let base: Vec<u32> = values.iter().take(preperiod + period).collect();
        if base.len() < preperiod + period {
            return None;
        }
        let mut all = GrundyValues::new();
        all.reserve(last_heap + 1);
        for heap in 0..=last_heap {
            let value = if heap < preperiod + period {
                u64::from(base[heap])
            } else {
                let (cycles, offset) = ((heap - preperiod) / period, (heap - preperiod) % period);
                u64::from(base[preperiod + offset]) + cycles as u64 * u64::from(self.saltus)
            };
            all.push(u32::try_from(value).ok()?);
        }
        Some(all)
    }
}

/// Why [`Periodicity::value_of_heap`] could not answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    /// The heap lies beyond the computed values and the period is not proven.
    #[error("the heap lies beyond the computed values and the period is not proven")]
    NotProven,
    /// Fewer values than the preperiod plus one period were given.
    #[error("{needed} values are needed, {have} were given")]
    TooFewValues {
        /// Values needed.
        needed: usize,
        /// Values given.
        have: usize,
    },
}

/// The closed forms proven for every heap: (preperiod, period, saltus, theorem).
fn closed_form(rule: &HeapRule) -> Option<(usize, usize, u32, &'static str)> {
    match rule {
        HeapRule::AllButSubtraction(game) if game.is_nim() => Some((0, 1, 1, "Nim: G(n) = n")),
        HeapRule::RestNim => Some((
            0,
            1,
            1,
            "Rest Nim: G(n) = n (xor of parts never exceeds their sum)",
        )),
        HeapRule::LaskersNim => Some((
            1,
            4,
            4,
            "Lasker's Nim: G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4, G(4k+4) = 4k+3 (Winning Ways, ch. 15)",
        )),
        _ => None,
    }
}

/// The value of a heap by a closed form proven for every heap (Nim, Rest Nim: `n`;
/// Lasker's Nim: see [`crate::rules::lasker`]), or `None` for a rule without one.
///
/// ```
/// use grundy::rules::HeapRule;
/// use grundy::sequence::closed_form_value;
///
/// assert_eq!(closed_form_value(&HeapRule::LaskersNim, 7), Some(8));
/// assert_eq!(closed_form_value(&HeapRule::RestNim, 7), Some(7));
/// assert_eq!(closed_form_value(&HeapRule::kayles(), 7), None);
/// ```
pub fn closed_form_value(rule: &HeapRule, heap: u64) -> Option<u64> {
    match rule {
        HeapRule::AllButSubtraction(game) if game.is_nim() => Some(heap),
        HeapRule::RestNim => Some(heap),
        HeapRule::LaskersNim => crate::rules::lasker::lasker_nimber_u64(heap),
        _ => None,
    }
}

/// How many values (heaps `0..length`) certify a period with this preperiod, period and
/// saltus, or `None` when no theorem here certifies it (see the module documentation).
pub fn certification_length(
    rule: &HeapRule,
    preperiod: usize,
    period: usize,
    saltus: u32,
) -> Option<usize> {
    if saltus != 0 {
        return match rule {
            HeapRule::TakeAndBreak(code) if code.max_heaps_left() == 3 => Some(
                super::arithmetic::required_length(code, preperiod, period)
                    .min(super::automaton::induction_base(code, preperiod, period)),
            ),
            // A lower bound; the window test works out the exact need from the values.
            HeapRule::AllButSubtraction(game) => Some(
                preperiod
                    + 3 * period
                    + game.excluded().iter().max().map_or(0, |&e| e as usize)
                    + 1,
            ),
            _ => None,
        };
    }
    let (heaps_left, max_removed) = match rule {
        HeapRule::TakeAndBreak(code) => (code.max_heaps_left().max(1), code.max_removed()),
        HeapRule::Subtraction(set) => (1, set.max() as usize),
        _ => return None,
    };
    // A heap cut down by the period must stay a heap: `max(n0, 1)` (module documentation).
    let first = preperiod.max(1);
    let bound = heaps_left * first + (heaps_left - 1) * period + max_removed;
    Some(bound + period)
}

/// Finds the period, preperiod and saltus of `values`, and whether a theorem proves them.
///
/// Returns `None` when no period is seen clearly enough (see the module documentation).
pub fn find_periodicity(rule: &HeapRule, values: &GrundyValues) -> Option<Periodicity> {
    detection(rule, values).found
}

/// The period seen in `values` of a rule no theorem here covers (a game a user's
/// script defines): detected as by [`find_periodicity`], and never proven.
pub fn find_unproven_periodicity(values: &GrundyValues) -> Option<Periodicity> {
    let unproven = |_, _, _| Proof::Unproven;
    match &values.store {
        Store::Narrow(g) => detect_counting(g, unproven, &mut 0).found,
        Store::Medium(g) => detect_counting(g, unproven, &mut 0).found,
        Store::Wide(g) => detect_counting(g, unproven, &mut 0).found,
    }
}

/// [`find_periodicity`], with the relation seen over the most heaps.
fn detection(rule: &HeapRule, values: &GrundyValues) -> Detection {
    // Read in place, at the storage's own width: no copy of a long sequence.
    match &values.store {
        Store::Narrow(g) => find_in(rule, g, values),
        Store::Medium(g) => find_in(rule, g, values),
        Store::Wide(g) => find_in(rule, g, values),
    }
}

/// [`detection`] on the stored cells `g` of `values`.
fn find_in<T: StoredValue>(rule: &HeapRule, g: &[T], values: &GrundyValues) -> Detection {
    if let Some((preperiod, period, saltus, theorem)) = closed_form(rule) {
        let holds = (preperiod..g.len().saturating_sub(period))
            .all(|n| g[n + period].get() == g[n].get() + saltus);
        if holds && g.len() > preperiod + period {
            return Detection {
                found: Some(Periodicity {
                    preperiod,
                    period,
                    saltus,
                    proof: Proof::ClosedForm { theorem },
                }),
                widest: Some((preperiod, period, saltus)),
            };
        }
    }
    // A candidate the values already certify is accepted even when seen over fewer
    // heaps than the detection rule asks: the theorem, not the length, decides.
    detect_counting(
        g,
        |preperiod, period, saltus| prove(rule, values, preperiod, period, saltus),
        &mut 0,
    )
}

/// What certifies `G(n + period) = G(n) + saltus` from `preperiod` on, given the values
/// `g` that show it up to their end (see the module documentation).
fn prove(
    rule: &HeapRule,
    values: &GrundyValues,
    preperiod: usize,
    period: usize,
    saltus: u32,
) -> Proof {
    let checked = values.len();
    if certification_length(rule, preperiod, period, saltus).is_none_or(|l| l > checked) {
        return Proof::Unproven;
    }
    // The arithmetic tests read the values as 32-bit numbers: borrowed when stored so
    // (they are, once large), copied otherwise.
    let wide = || -> Cow<'_, [u32]> {
        match &values.store {
            Store::Wide(g) => Cow::Borrowed(g),
            _ => Cow::Owned(values.to_vec()),
        }
    };
    let certified = |holds: bool, proof: Proof| if holds { proof } else { Proof::Unproven };
    match rule {
        HeapRule::Subtraction(_) => Proof::SubtractionWindow { checked },
        HeapRule::TakeAndBreak(code) if saltus != 0 => {
            let g = wide();
            if super::arithmetic::proves(code, &g, preperiod, period, saltus) {
                Proof::LevelTest { checked }
            } else {
                certified(
                    super::automaton::proves(code, &g, preperiod, period, saltus),
                    Proof::AutomatonTest { checked },
                )
            }
        }
        HeapRule::AllButSubtraction(game) => certified(
            super::arithmetic::proves_all_but(game.excluded(), &wide(), preperiod, period, saltus),
            Proof::WindowTest { checked },
        ),
        _ => Proof::GuySmith { checked },
    }
}

/// What [`detect_counting`] saw.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Detection {
    /// The period reported, proven or not.
    found: Option<Periodicity>,
    /// The relation `(preperiod, period, saltus)` seen over the most heaps, reported or
    /// not: where [`until_proven`] looks for the values a proof would need.
    widest: Option<(usize, usize, u32)>,
}

/// The smallest period seen clearly, or whose relation `prove` certifies from the values
/// at hand, with its smallest preperiod and what `prove` says of it; with the relation
/// seen over the most heaps, and adding to `compared` the number of values compared
/// while following relations back (tests bound it).
///
/// Once a period `p` is seen from `n0` on, its multiples `q` with `n0 + q <= last` hold
/// from exactly `n0` too (with saltus `(q/p)·s`) and are not followed back again: the
/// relation of `q` holds from `n0` since that of `p` does, and if it held at `n0 - 1`,
/// then `G(n0 - 1 + p) = G(n0 - 1 + q) - (q/p - 1)·s = G(n0 - 1) + s`, so `p` would hold
/// at `n0 - 1`. Without this, a period seen over a long stretch but not long enough to
/// report (0.376's period 4 from heap 2268248, in 3·10^6 values) made every one of its
/// multiples walk that stretch again: quadratic time, a minute for 3·10^6 values.
fn detect_counting<T: StoredValue>(
    g: &[T],
    prove: impl Fn(usize, usize, u32) -> Proof,
    compared: &mut u64,
) -> Detection {
    let len = g.len();
    // The relation followed back the furthest so far: (period, preperiod).
    let mut earliest: Option<(usize, usize)> = None;
    // The relation seen over the most heaps so far, and over how many.
    let mut widest: Option<((usize, usize, u32), usize)> = None;
    for period in 1..=len / 2 {
        let last = len - 1;
        let Some(saltus) = g[last].get().checked_sub(g[last - period].get()) else {
            continue;
        };
        let start = match earliest {
            Some((p, n0)) if period % p == 0 && n0 + period <= last => n0,
            _ => {
                let mut start = last - period;
                while start > 0
                    && g[start - 1 + period].get() == g[start - 1].get().wrapping_add(saltus)
                {
                    start -= 1;
                }
                *compared += (last - period - start) as u64 + 1;
                if earliest.is_none_or(|(_, n0)| start < n0) {
                    earliest = Some((period, start));
                }
                start
            }
        };
        let seen = len - period - start;
        if widest.is_none_or(|(_, most)| seen > most) {
            widest = Some(((start, period, saltus), seen));
        }
        let clear = seen >= start + period && seen >= 2 * period;
        if clear || seen >= period {
            let proof = prove(start, period, saltus);
            if clear || proof != Proof::Unproven {
                return Detection {
                    found: Some(Periodicity {
                        preperiod: start,
                        period,
                        saltus,
                        proof,
                    }),
                    widest: widest.map(|(relation, _)| relation),
                };
            }
        }
    }
    Detection {
        found: None,
        widest: widest.map(|(relation, _)| relation),
    }
}

/// Computes values until a theorem proves a period, or until `max_heap`.
///
/// Starts from what `solver` has and grows the sequence geometrically, doubling it,
/// except that once a relation `G(n + p) = G(n) + s` is seen (reported or not) whose
/// proof needs fewer than twice the values at hand ([`certification_length`]), it grows
/// to exactly that many (or by a sixteenth, if that is more: a relation seen by chance
/// cannot make it crawl). Returns the proven periodicity, or the best unproven one found
/// by `max_heap`.
pub fn until_proven(
    solver: &mut SequenceSolver,
    max_heap: usize,
    progress: &mut dyn FnMut(Progress) -> ControlFlow<()>,
) -> Result<Option<Periodicity>, Interrupted> {
    let mut target = solver
        .values()
        .len()
        .max(256)
        .min(max_heap.saturating_add(1));
    loop {
        solver.extend_to_with_progress(target - 1, progress)?;
        let seen = detection(solver.rule(), solver.values());
        if seen.found.as_ref().is_some_and(Periodicity::proven) {
            return Ok(seen.found);
        }
        let have = solver.values().len();
        if have > max_heap {
            return Ok(seen.found);
        }
        target = next_target(solver.rule(), have, &seen).min(max_heap.saturating_add(1));
    }
}

/// How many values [`until_proven`] computes next, holding `have` and having seen `seen`.
fn next_target(rule: &HeapRule, have: usize, seen: &Detection) -> usize {
    let doubled = have.saturating_mul(2);
    let relation = seen
        .found
        .as_ref()
        .map(|p| (p.preperiod, p.period, p.saltus))
        .or(seen.widest);
    match relation.and_then(|(n0, p, s)| certification_length(rule, n0, p, s)) {
        Some(needed) if needed > have => needed.max(have + have / 16 + 1).min(doubled),
        _ => doubled,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// `detect` as it was: every candidate period followed back from the end.
    fn detect_reference(
        g: &[u32],
        prove: impl Fn(usize, usize, u32) -> Proof,
    ) -> Option<Periodicity> {
        let len = g.len();
        for period in 1..=len / 2 {
            let last = len - 1;
            let Some(saltus) = g[last].checked_sub(g[last - period]) else {
                continue;
            };
            let mut start = last - period;
            while start > 0 && g[start - 1 + period] == g[start - 1].wrapping_add(saltus) {
                start -= 1;
            }
            let seen = len - period - start;
            let clear = seen >= start + period && seen >= 2 * period;
            if clear || seen >= period {
                let proof = prove(start, period, saltus);
                if clear || proof != Proof::Unproven {
                    return Some(Periodicity {
                        preperiod: start,
                        period,
                        saltus,
                        proof,
                    });
                }
            }
        }
        None
    }

    /// A preperiod of arbitrary values, then `G(n + period) = G(n) + saltus`.
    fn eventually_periodic(preperiod: &[u32], base: &[u32], saltus: u32, len: usize) -> Vec<u32> {
        let mut g = preperiod.to_vec();
        let period = base.len();
        while g.len() < len {
            let i = g.len() - preperiod.len();
            g.push(base[i % period] + (i / period) as u32 * saltus);
        }
        g.truncate(len);
        g
    }

    #[test]
    fn a_long_unreported_period_is_not_followed_back_once_per_multiple() {
        // Period 4 from heap 55000 in 100000 values (like 0.376's period 4 from heap
        // 2268248 in 3*10^6): seen over 45000 heaps, fewer than the preperiod, so not
        // reported. Its 12500 multiples up to 50000 used to walk those 45000 heaps
        // again each (5.6*10^8 comparisons; 0.376 took a minute); now once.
        let preperiod: Vec<u32> = (0..55_000u32).map(|n| n % 7 + 10 * (n % 3)).collect();
        let g = eventually_periodic(&preperiod, &[1, 5, 2, 8], 0, 100_000);
        let never = |_, _, _| Proof::Unproven;
        let mut compared = 0;
        let seen = detect_counting(&g, never, &mut compared);
        assert_eq!(seen.found, detect_reference(&g, never));
        assert!(seen.found.is_none());
        // The relation until_proven extends the values for.
        assert_eq!(seen.widest, Some((55_000, 4, 0)));
        assert!(compared < 2 * g.len() as u64, "{compared} values compared");
        // A proof at hand still reports it, at its smallest period.
        let proven = |n0, p, s| {
            if (n0, p, s) == (55_000, 4, 0) {
                Proof::GuySmith { checked: 0 }
            } else {
                Proof::Unproven
            }
        };
        let found = detect_counting(&g, proven, &mut 0).found.unwrap();
        assert_eq!((found.preperiod, found.period), (55_000, 4));
    }

    #[test]
    fn until_proven_grows_to_what_the_widest_relation_needs() {
        // 0.376 at 2^22 values: period 4 seen from heap 2268248 over 1.9*10^6 heaps, not
        // reported; Guy-Smith needs heaps 0..2·2268248 + 4 + 3 + 4. Doubling to 2^23
        // computed 3.7*10^6 values more than that.
        let rule = HeapRule::octal("0.376").unwrap();
        let seen = |widest| Detection {
            found: None,
            widest,
        };
        let have = 1 << 22;
        assert_eq!(
            next_target(&rule, have, &seen(Some((2_268_248, 4, 0)))),
            4_536_507
        );
        // Nothing seen, or a proof needing more than twice the values: doubling.
        assert_eq!(next_target(&rule, have, &seen(None)), 2 * have);
        assert_eq!(
            next_target(&rule, have, &seen(Some((have - 2, 5, 0)))),
            2 * have
        );
        // A proof just out of reach: at least a sixteenth more, never a crawl.
        assert_eq!(
            next_target(&rule, 800, &seen(Some((396, 4, 0)))),
            800 + 50 + 1
        );
        // A reported, unproven period comes first.
        let found = Detection {
            found: Some(Periodicity {
                preperiod: 2_268_248,
                period: 4,
                saltus: 0,
                proof: Proof::Unproven,
            }),
            widest: Some((have - 10, 5, 0)),
        };
        assert_eq!(next_target(&rule, have, &found), 4_536_507);
    }

    proptest! {
        #[test]
        fn detection_agrees_with_following_every_period_back(
            preperiod in prop::collection::vec(0u32..4, 0..40),
            base in prop::collection::vec(0u32..4, 1..8),
            saltus in 0u32..3,
            len in 1usize..120,
            // A candidate whose proof is at hand, or none.
            proven in prop::option::of((0usize..40, 1usize..16)),
        ) {
            let g = eventually_periodic(&preperiod, &base, saltus, len);
            let prove = |n0, p, _| {
                if proven == Some((n0, p)) {
                    Proof::GuySmith { checked: 0 }
                } else {
                    Proof::Unproven
                }
            };
            prop_assert_eq!(detect_counting(&g, prove, &mut 0).found, detect_reference(&g, prove));
        }
    }
}
