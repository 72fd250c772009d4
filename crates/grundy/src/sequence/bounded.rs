//! What bounds the values of a Grundy sequence kept in memory: the largest
//! heap whose value is stored, and the values that follow from a period
//! proven by the first ones, without computing them.
//!
//! Once the first values prove a period (Guy and Smith's theorem for octal
//! games, *Winning Ways* ch. 4), every value follows from it, for rules whose
//! values cost more than linear time and for purely periodic ones. The
//! workflow that computes a sequence within its limits, with its period, is
//! [`crate::workflow::seq`].

use crate::rules::HeapRule;
use crate::sequence::{CostModel, GrundyValues, Method, Periodicity, find_periodicity};

/// The largest heap whose value is stored: values are 32-bit.
pub const LARGEST_HEAP: usize = u32::MAX as usize - 1;

/// A period proven by the first `values` of `rule`, when every value is to be
/// taken from it rather than computed: for rules costing more than linear time
/// (codes leaving three heaps) and purely periodic ones. Values growing by a
/// saltus (Nim) keep the engine, whose allocations are fallible.
#[must_use]
pub fn proven_shortcut(
    rule: &HeapRule,
    method: Method,
    model: &CostModel,
    values: &GrundyValues,
) -> Option<Periodicity> {
    if method != Method::SparseSpace {
        return None;
    }
    find_periodicity(rule, values)
        .filter(Periodicity::proven)
        .filter(|found| model.what_grows().is_some() || found.saltus == 0)
}

/// The bytes of the values of heaps `0..=last_heap` given by `periodicity`,
/// stored as narrow as their largest value allows (one, two or four bytes).
#[must_use]
pub fn periodic_bytes(periodicity: &Periodicity, values: &GrundyValues, last_heap: usize) -> u64 {
    let base = periodicity.preperiod + periodicity.period;
    let first = values.iter().take(base).max().map_or(0, u64::from);
    let cycles = last_heap.saturating_sub(periodicity.preperiod) / periodicity.period.max(1);
    let largest = first.saturating_add(cycles as u64 * u64::from(periodicity.saltus));
    let width: u64 = match largest {
        0..=0xFF => 1,
        0x100..=0xFFFF => 2,
        _ => 4,
    };
    (last_heap as u64 + 1).saturating_mul(width)
}
