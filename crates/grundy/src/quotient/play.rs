//! Misère sums of heaps answered through a quotient: the sum is a P-position
//! iff the product of its heaps' classes lies in the P-portion, and a move in
//! heap `i` to the heaps `o` wins iff `(product of the other heaps) · Φ(o)` does.
//!
//! A heap up to [`ENUMERATED_HEAP`] tokens has its moves listed one by one. A
//! larger one (beyond the heaps computed, so the heap map is periodic) has its
//! winning moves counted by residues: a move leaving two heaps `a + b = s`
//! depends only on `a mod p` once both are in the periodic part, so each
//! residue class is counted at once. Moves leaving three heaps are counted only
//! by enumeration.

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

use super::MisereQuotient;
use crate::rules::HeapRule;
use crate::rules::octal::{LEAVE_ONE, LEAVE_THREE, LEAVE_TWO};

/// The largest heap whose moves are listed one by one to count them.
pub const ENUMERATED_HEAP: u64 = 1 << 16;

/// The most moves scanned to list the winning moves of one large heap.
const LISTING_SCAN: usize = 1 << 20;

/// A misère sum answered by a quotient.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuotientAnswer {
    /// The class of the whole sum.
    pub class: u32,
    /// Whether the sum is a misère P-position (the previous player wins).
    pub p_position: bool,
    /// The number of winning moves.
    pub count: BigUint,
    /// The first winning moves: the index of the heap moved in and the heaps
    /// the move leaves in its place.
    pub moves: Vec<(usize, Vec<BigUint>)>,
}

/// The answer to the misère sum of `heaps`, listing at most `max_moves`
/// winning moves; `None` when a heap is beyond what the quotient knows or its
/// moves cannot be counted this way.
pub fn answer(
    quotient: &MisereQuotient,
    heaps: &[BigUint],
    max_moves: usize,
) -> Option<QuotientAnswer> {
    let classes: Vec<u32> = heaps
        .iter()
        .map(|h| quotient.heap_class(h))
        .collect::<Option<_>>()?;
    let n = classes.len();
    // rest[i]: the product of every class but the i-th.
    let mut prefix = vec![0u32; n + 1];
    for i in 0..n {
        prefix[i + 1] = quotient.times(prefix[i], classes[i]);
    }
    let mut suffix = vec![0u32; n + 1];
    for i in (0..n).rev() {
        suffix[i] = quotient.times(classes[i], suffix[i + 1]);
    }
    let class = prefix[n];
    let mut count = BigUint::zero();
    let mut moves = Vec::new();
    // Counts by heap and class of the rest: a sum of many equal heaps counts
    // each once.
    let mut counted: rustc_hash::FxHashMap<(&BigUint, u32), BigUint> =
        rustc_hash::FxHashMap::default();
    for (i, heap) in heaps.iter().enumerate() {
        if crate::theory::cancel::stop_requested() {
            return None;
        }
        let rest = quotient.times(prefix[i], suffix[i + 1]);
        let room = max_moves - moves.len();
        if let (0, Some(known)) = (room, counted.get(&(heap, rest))) {
            count += known;
            continue;
        }
        let (found, listed) = winning_moves(quotient, heap, rest, room)?;
        moves.extend(listed.into_iter().map(|leaves| (i, leaves)));
        count += &found;
        counted.insert((heap, rest), found);
    }
    Some(QuotientAnswer {
        class,
        p_position: quotient.is_p(class),
        count,
        moves,
    })
}

/// The class of the heaps `leaves`.
fn class_of(quotient: &MisereQuotient, leaves: &[u64]) -> Option<u32> {
    leaves.iter().try_fold(0u32, |c, &leaf| {
        Some(quotient.times(c, quotient.small_heap_class(leaf)?))
    })
}

/// The moves of `heap` to a P-position beside the rest of class `rest`: their
/// number and the first `max` of them.
fn winning_moves(
    quotient: &MisereQuotient,
    heap: &BigUint,
    rest: u32,
    max: usize,
) -> Option<(BigUint, Vec<Vec<BigUint>>)> {
    let rule = quotient.rule();
    let wins = |class: u32| quotient.is_p(quotient.times(rest, class));
    let small = heap.to_u64();
    let counted = if small.is_some_and(|h| h <= quotient.heaps()) {
        None
    } else {
        count_by_residues(quotient, rule, heap, &wins)
    };
    if let (None, Some(small)) = (&counted, small.filter(|&h| h <= ENUMERATED_HEAP)) {
        let mut count = BigUint::zero();
        let mut listed = Vec::new();
        for m in rule.moves(small) {
            if wins(class_of(quotient, &m.leaves)?) {
                count += 1u32;
                if listed.len() < max {
                    listed.push(m.leaves.iter().map(|&l| BigUint::from(l)).collect());
                }
            }
        }
        return Some((count, listed));
    }
    let count = counted?;
    // List the first winning moves by scanning the moves in order.
    let mut listed = Vec::new();
    // Every winning move is listed once as many as counted are found.
    let max = count.to_usize().map_or(max, |c| c.min(max));
    if max > 0 {
        if let Some(h) = heap.to_u64() {
            for m in rule.moves(h).take(LISTING_SCAN) {
                if wins(class_of(quotient, &m.leaves)?) {
                    listed.push(m.leaves.iter().map(|&l| BigUint::from(l)).collect());
                    if listed.len() == max {
                        break;
                    }
                }
            }
        } else {
            listed = list_huge(quotient, rule, heap, &wins, max)?;
        }
    }
    Some((count, listed))
}

/// The numbers `x` in `[lo, hi]` with `x ≡ r (mod p)`.
fn congruent(lo: &BigUint, hi: &BigUint, r: u64, p: u64) -> BigUint {
    // #{0 <= y <= x : y ≡ r}.
    let upto = |x: &BigUint| -> BigUint {
        if *x < BigUint::from(r) {
            BigUint::zero()
        } else {
            (x - r) / p + 1u32
        }
    };
    if hi < lo {
        return BigUint::zero();
    }
    let below = if lo.is_zero() {
        BigUint::zero()
    } else {
        upto(&(lo - 1u32))
    };
    upto(hi) - below
}

/// The class of a heap of the periodic part by its residue: heap `x >= n0`
/// with `x mod p == residue`.
fn periodic_class(quotient: &MisereQuotient, residue: u64) -> Option<u32> {
    let period = quotient.periodicity()?;
    let (n0, p) = (period.preperiod, period.period);
    let offset = (residue + p - n0 % p) % p;
    Some(quotient.heap_map()[(n0 + offset) as usize])
}

fn residue(x: &BigUint, p: u64) -> u64 {
    (x % p).to_u64().unwrap_or(0)
}

/// The winning moves of a heap beyond the enumerated ones, counted by
/// residues (two-heap splits) or one by one (finitely many one-heap moves).
fn count_by_residues(
    quotient: &MisereQuotient,
    rule: &HeapRule,
    heap: &BigUint,
    wins: &dyn Fn(u32) -> bool,
) -> Option<BigUint> {
    let period = quotient.periodicity()?;
    let (n0, p) = (period.preperiod, period.period);
    let start = n0 + p; // every heap from here on is periodic, and beyond the
    // direct part below.
    let class = |x: &BigUint| quotient.heap_class(x);
    let mut count = BigUint::zero();
    match rule {
        HeapRule::TakeAndBreak(code) => {
            for removed in 0..=code.max_removed() {
                let digit = code.digit(removed);
                let rest = heap - removed as u64;
                if digit & LEAVE_THREE != 0 {
                    return None;
                }
                if digit & LEAVE_ONE != 0 && removed > 0 && wins(class(&rest)?) {
                    count += 1u32;
                }
                if digit & LEAVE_TWO != 0 {
                    // a in [1, start) one by one; a in [start, rest / 2] by
                    // residue (b = rest - a >= rest / 2 >= start is periodic).
                    let half = &rest / 2u32;
                    let direct_end = half.to_u64().map_or(start, |h| start.min(h + 1));
                    for a in 1..direct_end {
                        let b = &rest - a;
                        if wins(quotient.times(class(&BigUint::from(a))?, class(&b)?)) {
                            count += 1u32;
                        }
                    }
                    for r in 0..p {
                        let b_residue = (residue(&rest, p) + p - r) % p;
                        let pair = quotient.times(
                            periodic_class(quotient, r)?,
                            periodic_class(quotient, b_residue)?,
                        );
                        if wins(pair) {
                            count += congruent(&BigUint::from(start), &half, r, p);
                        }
                    }
                }
            }
        }
        HeapRule::Subtraction(set) => {
            for &s in set.elements() {
                let s = u64::from(s);
                if wins(class(&(heap - s))?) {
                    count += 1u32;
                }
            }
        }
        HeapRule::AllButSubtraction(game) => {
            // Leaving j = heap - s for every s in [1, heap] not excluded.
            let direct_end = heap.to_u64().map_or(start, |h| start.min(h));
            for j in 0..direct_end {
                if wins(class(&BigUint::from(j))?) {
                    count += 1u32;
                }
            }
            let last = heap - 1u32;
            for r in 0..p {
                if wins(periodic_class(quotient, r)?) {
                    count += congruent(&BigUint::from(start), &last, r, p);
                }
            }
            for &s in game.excluded() {
                let s = u64::from(s);
                if s >= 1 && wins(class(&(heap - s))?) {
                    count -= 1u32;
                }
            }
        }
        HeapRule::GrundysGame | HeapRule::LaskersNim | HeapRule::RestNim => return None,
    }
    Some(count)
}

/// The first winning moves of a heap too large for a machine word, in the
/// rule's order.
fn list_huge(
    quotient: &MisereQuotient,
    rule: &HeapRule,
    heap: &BigUint,
    wins: &dyn Fn(u32) -> bool,
    max: usize,
) -> Option<Vec<Vec<BigUint>>> {
    let class = |x: &BigUint| quotient.heap_class(x);
    let mut listed: Vec<Vec<BigUint>> = Vec::new();
    match rule {
        HeapRule::TakeAndBreak(code) => {
            for removed in 0..=code.max_removed() {
                let digit = code.digit(removed);
                let rest = heap - removed as u64;
                if digit & LEAVE_ONE != 0 && removed > 0 && wins(class(&rest)?) {
                    listed.push(vec![rest.clone()]);
                }
                if digit & LEAVE_TWO != 0 {
                    for a in 1..LISTING_SCAN as u64 {
                        if listed.len() >= max {
                            break;
                        }
                        let b = &rest - a;
                        if wins(quotient.times(class(&BigUint::from(a))?, class(&b)?)) {
                            listed.push(vec![BigUint::from(a), b]);
                        }
                    }
                }
                if listed.len() >= max {
                    break;
                }
            }
        }
        HeapRule::Subtraction(set) => {
            for &s in set.elements() {
                let rest = heap - u64::from(s);
                if listed.len() < max && wins(class(&rest)?) {
                    listed.push(vec![rest]);
                }
            }
        }
        HeapRule::AllButSubtraction(game) => {
            for s in 1..LISTING_SCAN as u64 {
                if listed.len() >= max {
                    break;
                }
                if game.allows(s) && wins(class(&(heap - s))?) {
                    listed.push(vec![heap - s]);
                }
            }
        }
        HeapRule::GrundysGame | HeapRule::LaskersNim | HeapRule::RestNim => return None,
    }
    listed.truncate(max);
    Some(listed)
}
