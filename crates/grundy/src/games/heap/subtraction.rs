//! Subtraction games: a move takes `s` tokens from one heap, for `s` in a
//! finite set `S`.
//!
//! The nimber of a heap of `n` is `mex { G(n − s) : s ∈ S, s ≤ n }`, so it
//! depends only on the previous `max S` values. The sequence is therefore
//! eventually periodic, and as soon as a window of `max S` consecutive values
//! repeats, the period is *proven*: everything after a window is determined by
//! it (Winning Ways ch. 4, "subtraction games"). grundy finds the first repeat with Brent's cycle-finding algorithm
//! and then answers heaps of any size from the period.

use std::fmt::Write as _;
use std::sync::Arc;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{ToPrimitive, Zero};

use super::{HeapMovesTo, HeapRule, HeapRules, Leaves, Wanted, heap_parts};
use crate::family::EverySteps;
use crate::lang::arguments::heap_sizes;
use crate::lang::{LangError, Term, ValueKind};
use crate::registry::{BuildContext, DrawingKind, EntryKind, GameEntry};
use crate::sums::position::Group;

/// The most values computed while looking for the period.
const MAX_VALUES_FOR_PERIOD: usize = 1 << 24;
/// The most steps (an amount looked at for a value) spent looking for the period, a
/// second or two: a set of 2^20 amounts would otherwise spend 2^44 steps on 2^24 values.
const MAX_STEPS_FOR_PERIOD: usize = 1 << 30;
/// The largest subtraction amount accepted.
pub(crate) const MAX_AMOUNT: u64 = 1 << 20;

/// A proven periodic sequence: `G(n + period) = G(n)` for all `n >= preperiod`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubtractionPeriodicity {
    /// The first heap from which the sequence repeats.
    pub preperiod: u64,
    /// The length of the repeating block.
    pub period: u64,
    /// `G(0) .. G(preperiod + period - 1)`.
    values: Vec<u32>,
}

impl SubtractionPeriodicity {
    /// The value at a heap of any size.
    #[must_use]
    pub fn value(&self, heap: &BigUint) -> u32 {
        let index = match heap.to_u64() {
            Some(n) if n < self.preperiod + self.period => n,
            _ => {
                self.preperiod
                    + ((heap - self.preperiod) % self.period)
                        .to_u64()
                        .unwrap_or(0)
            }
        };
        self.values[usize::try_from(index).unwrap_or(0)]
    }
}

/// The rules of the subtraction game with the finite set `S`.
#[derive(Clone, Debug)]
pub struct Subtraction {
    amounts: Vec<u64>,
    periodicity: Option<SubtractionPeriodicity>,
    /// The Every-SG steps of the heaps, found when first asked.
    every_steps: std::sync::OnceLock<Option<StepsPeriod>>,
}

/// The Every-SG steps of the heaps of a subtraction game, arithmetic-periodic:
/// `steps(n + period) = steps(n) + saltus` for every `n >= start`.
///
/// A heap's steps are 0 without a move, otherwise one more than the largest
/// even steps of an option if there is one, and than the least otherwise (see
/// [`crate::sums::every_sg`]); they depend only on the `max S` heaps below.
/// So once `steps(i + p) = steps(i) + d` holds for `max S` consecutive heaps
/// `i` from `start`, with `d` even (parities, which decide the choices, are
/// kept), it holds for every heap above by induction: the proof is the same
/// as for the nimbers' period, with an offset.
#[derive(Clone, Debug)]
struct StepsPeriod {
    start: u64,
    period: u64,
    saltus: u64,
    /// The steps of the heaps `0..start + period`.
    steps: Vec<u64>,
}

impl StepsPeriod {
    fn steps(&self, heap: &BigUint) -> BigUint {
        match heap.to_u64() {
            Some(n) if n < self.start + self.period => self.steps[n as usize].into(),
            _ => {
                let (laps, offset) = (heap - self.start).div_rem(&BigUint::from(self.period));
                let offset = offset.to_u64().unwrap_or(0);
                BigUint::from(self.steps[(self.start + offset) as usize]) + laps * self.saltus
            }
        }
    }
}

/// The most work (heaps times amounts, and heaps compared) spent looking for
/// the period of the steps.
const MAX_WORK_FOR_STEPS_PERIOD: u64 = 1 << 26;
/// The most multiples of the nimbers' period tried as the period of the steps.
const MAX_STEPS_PERIOD_MULTIPLE: u64 = 64;

/// The steps' period (see [`StepsPeriod`]), tried at the multiples of the
/// nimbers' period (a period of the steps keeps the outcomes, so it is one
/// of them), each from the first heap where `max S` differences agree.
fn find_steps_period(amounts: &[u64], periodicity: &SubtractionPeriodicity) -> Option<StepsPeriod> {
    let width = *amounts.last()?;
    let count = u64::try_from(amounts.len()).ok()?;
    let heaps = (MAX_WORK_FOR_STEPS_PERIOD / count.max(1)).min(1 << 20);
    let mut steps: Vec<u64> = Vec::with_capacity(usize::try_from(heaps).ok()?);
    for n in 0..heaps {
        let options = amounts
            .iter()
            .take_while(|&&a| a <= n)
            .map(|&a| steps[(n - a) as usize]);
        let (mut least, mut even) = (None::<u64>, None::<u64>);
        for option in options {
            least = Some(least.map_or(option, |l| l.min(option)));
            if option % 2 == 0 {
                even = Some(even.map_or(option, |e| e.max(option)));
            }
        }
        steps.push(even.or(least).map_or(0, |v| v + 1));
    }
    let from = periodicity.preperiod.max(width);
    for multiple in 1..=MAX_STEPS_PERIOD_MULTIPLE {
        let period = periodicity.period * multiple;
        let mut run = 0;
        let mut saltus = None;
        let mut i = from;
        while i + period < heaps {
            let difference = steps[(i + period) as usize].checked_sub(steps[i as usize]);
            if difference.is_some() && difference == saltus {
                run += 1;
            } else {
                run = 1;
                saltus = difference;
            }
            if run == width && saltus.is_some_and(|d| d % 2 == 0) {
                let start = i + 1 - width;
                steps.truncate((start + period) as usize);
                return Some(StepsPeriod {
                    start,
                    period,
                    saltus: saltus.unwrap_or(0),
                    steps,
                });
            }
            i += 1;
        }
    }
    None
}

/// The rules are the set; the period is derived from it.
impl PartialEq for Subtraction {
    fn eq(&self, other: &Self) -> bool {
        self.amounts == other.amounts
    }
}

impl Subtraction {
    /// The subtraction game of `amounts` (each at least 1), with its period
    /// found and proven if it shows within the first 2^24 values (fewer for sets of
    /// more than 64 amounts: 2^30 / |S|).
    #[must_use]
    pub fn new(mut amounts: Vec<u64>) -> Self {
        amounts.sort_unstable();
        amounts.dedup();
        let periodicity = find_period(&amounts);
        Self {
            amounts,
            periodicity,
            every_steps: std::sync::OnceLock::new(),
        }
    }

    /// The proven period, if found.
    #[must_use]
    pub const fn periodicity(&self) -> Option<&SubtractionPeriodicity> {
        self.periodicity.as_ref()
    }

    /// The canonical name: `sub[1..3, 7]` (runs of three or more as ranges).
    #[must_use]
    pub fn head(&self) -> String {
        head_of(&self.amounts)
    }
}

/// The canonical name of the subtraction game of `amounts` (sorted, without repeats):
/// `sub[1..3, 7]`. Without building the game, whose period search costs up to 2^24
/// values of `|S|` steps each.
pub(crate) fn head_of(amounts: &[u64]) -> String {
    let mut head = String::from("sub[");
    let mut i = 0;
    while i < amounts.len() {
        let mut j = i;
        while j + 1 < amounts.len() && amounts[j + 1] == amounts[j] + 1 {
            j += 1;
        }
        if i > 0 {
            head.push_str(", ");
        }
        if j >= i + 2 {
            let _ = write!(head, "{}..{}", amounts[i], amounts[j]);
            i = j + 1;
        } else {
            let _ = write!(head, "{}", amounts[i]);
            i += 1;
        }
    }
    head.push(']');
    head
}

/// `mex { values[n − s] : s ∈ amounts, s ≤ n }` for the next heap `n = values.len()`.
fn next_value(amounts: &[u64], values: &[u32]) -> u32 {
    let n = values.len() as u64;
    // At most |S| options, so the mex is at most |S|: a small bitset suffices.
    let mut seen: smallvec::SmallVec<[u64; 4]> = smallvec::smallvec![0u64; amounts.len() / 64 + 1];
    for &s in amounts.iter().take_while(|&&s| s <= n) {
        let value = values[(n - s) as usize] as usize;
        if value < seen.len() * 64 {
            seen[value / 64] |= 1 << (value % 64);
        }
    }
    let word = seen
        .iter()
        .position(|&w| w != u64::MAX)
        .unwrap_or(seen.len());
    let ones = seen.get(word).map_or(0, |w| w.trailing_ones());
    u32::try_from(word * 64).unwrap_or(u32::MAX) + ones
}

/// Sums of windows of `width` consecutive values, rolled from one window to the next in
/// constant time: comparing two windows value by value costs `width` steps, and
/// `max S` reaches 2^20 (`sub[911177, 330389, 19]` compared windows for hours). Windows
/// whose sums are equal are still compared value by value.
///
/// The sum of `v_i .. v_{i+w-1}` is `Σ (v_{i+k} + 1) B^(w-1-k)` modulo the prime
/// `2^61 - 1`.
#[derive(Debug, Clone, Copy)]
struct WindowSums {
    /// `B^(width-1)`, which the value leaving a window is weighted by.
    leaving_weight: u64,
}

impl WindowSums {
    const PRIME: u64 = (1 << 61) - 1;
    const BASE: u64 = 0x1F35_A4C1_9E2B_7D63 % Self::PRIME;

    fn new(width: usize) -> Self {
        let mut leaving_weight = 1;
        for _ in 1..width {
            leaving_weight = Self::times(leaving_weight, Self::BASE);
        }
        Self { leaving_weight }
    }

    fn times(a: u64, b: u64) -> u64 {
        let product = u128::from(a) * u128::from(b);
        let folded = (product as u64 & Self::PRIME) + (product >> 61) as u64;
        let folded = (folded & Self::PRIME) + (folded >> 61);
        if folded >= Self::PRIME {
            folded - Self::PRIME
        } else {
            folded
        }
    }

    fn plus(a: u64, b: u64) -> u64 {
        let sum = a + b;
        if sum >= Self::PRIME {
            sum - Self::PRIME
        } else {
            sum
        }
    }

    /// The sum of the window `values`.
    fn of(values: &[u32]) -> u64 {
        values.iter().fold(0, |sum, &value| {
            Self::plus(Self::times(sum, Self::BASE), u64::from(value) + 1)
        })
    }

    /// The sum of the window one further, from the sum of the window starting with
    /// `leaving` and the value `entering` after it.
    fn roll(self, sum: u64, leaving: u32, entering: u32) -> u64 {
        let removed = Self::times(u64::from(leaving) + 1, self.leaving_weight);
        let kept = Self::plus(sum, Self::PRIME - removed);
        Self::plus(Self::times(kept, Self::BASE), u64::from(entering) + 1)
    }
}

/// Finds the first repeat of a window of `max S` values with Brent's algorithm,
/// which proves the period (see the module documentation). Windows are compared by
/// their rolling sums first ([`WindowSums`]): linear time in the values computed.
fn find_period(amounts: &[u64]) -> Option<SubtractionPeriodicity> {
    let width = usize::try_from(*amounts.last()?).ok()?;
    let most_values = MAX_VALUES_FOR_PERIOD.min(MAX_STEPS_FOR_PERIOD / amounts.len());
    let mut values: Vec<u32> = Vec::new();
    let extend_to = |values: &mut Vec<u32>, length: usize| -> bool {
        if length > most_values {
            return false;
        }
        while values.len() < length {
            let value = next_value(amounts, values);
            values.push(value);
        }
        true
    };
    let same = |values: &[u32], a: usize, b: usize| values[a..a + width] == values[b..b + width];
    let sums = WindowSums::new(width);
    // Brent: the window at `hare` is compared with the window at `tortoise`,
    // which jumps to the hare at powers of two.
    let (mut power, mut lambda, mut tortoise, mut hare) = (1usize, 1usize, 0usize, 1usize);
    if !extend_to(&mut values, hare + width) {
        return None;
    }
    let mut tortoise_sum = WindowSums::of(&values[..width]);
    let mut hare_sum = sums.roll(tortoise_sum, values[0], values[width]);
    loop {
        if tortoise_sum == hare_sum && same(&values, tortoise, hare) {
            break;
        }
        if power == lambda {
            tortoise = hare;
            tortoise_sum = hare_sum;
            power *= 2;
            lambda = 0;
        }
        hare += 1;
        lambda += 1;
        if !extend_to(&mut values, hare + width) {
            return None;
        }
        hare_sum = sums.roll(hare_sum, values[hare - 1], values[hare - 1 + width]);
    }
    // The first window that repeats `lambda` values later: every window up to the
    // hare's is computed.
    let mut first_sum = WindowSums::of(&values[..width]);
    let mut later_sum = WindowSums::of(&values[lambda..lambda + width]);
    let mut mu = 0;
    while !(first_sum == later_sum && same(&values, mu, mu + lambda)) {
        first_sum = sums.roll(first_sum, values[mu], values[mu + width]);
        later_sum = sums.roll(later_sum, values[mu + lambda], values[mu + lambda + width]);
        mu += 1;
    }
    values.truncate(mu + lambda);
    Some(SubtractionPeriodicity {
        preperiod: mu as u64,
        period: lambda as u64,
        values,
    })
}

impl HeapRules for Subtraction {
    fn heap_rule(&self) -> Option<HeapRule> {
        let amounts: Option<Vec<u32>> = self
            .amounts
            .iter()
            .map(|&a| u32::try_from(a).ok())
            .collect();
        HeapRule::subtraction(amounts?).ok()
    }

    fn heap_moves(&self, size: u64, limit: usize, moves: &mut Vec<Leaves>) {
        moves.extend(
            self.amounts
                .iter()
                .take_while(|&&s| s <= size)
                .take(limit.saturating_add(1))
                .map(|&s| Leaves::from_slice(&[size - s])),
        );
    }

    fn heap_nimber(&self, size: &BigUint) -> Option<(BigUint, &'static str)> {
        let periodicity = self.periodicity.as_ref()?;
        Some((periodicity.value(size).into(), "subtraction period"))
    }

    fn heap_moves_to_nimber(&self, size: &BigUint, wanted: Wanted<'_>) -> Option<HeapMovesTo> {
        let Wanted { target, max } = wanted;
        let periodicity = self.periodicity.as_ref()?;
        let mut count = BigUint::zero();
        let mut listed = Vec::new();
        for &s in &self.amounts {
            if BigUint::from(s) > *size {
                break;
            }
            let left = size - s;
            if BigUint::from(periodicity.value(&left)) == *target {
                count += 1u32;
                if listed.len() < max {
                    listed.push(vec![left]);
                }
            }
        }
        Some((count, listed))
    }

    /// Every-SG steps by their arithmetic period (`StepsPeriod`), found
    /// when first asked.
    fn heap_every_steps(&self, size: &BigUint, max: usize) -> Option<EverySteps<BigUint>> {
        let period = self
            .every_steps
            .get_or_init(|| find_steps_period(&self.amounts, self.periodicity.as_ref()?))
            .as_ref()?;
        let leaves = self
            .amounts
            .iter()
            .map(|&a| BigUint::from(a))
            .take_while(|a| a <= size)
            .map(|a| size - a);
        Some(super::single_heap_options(
            leaves,
            |heap| period.steps(heap),
            max,
        ))
    }
}

/// Reads the amounts of `sub[...]`: integers and ranges, each at least 1.
pub(crate) fn amounts(term: &Term) -> Result<Vec<u64>, LangError> {
    let mut amounts = Vec::new();
    let too_large = |span| {
        LangError::new(
            format!("subtraction amounts are limited to {MAX_AMOUNT}"),
            span,
        )
    };
    for param in &term.params {
        let span = param.value.span;
        if let Some((key, key_span)) = &param.key {
            return Err(LangError::new(
                format!("`sub` takes no named parameter `{key}`"),
                *key_span,
            ));
        }
        let one = BigUint::from(1u8);
        let (low, high, step) = match &param.value.kind {
            ValueKind::Integer(n) => (n, n, &one),
            ValueKind::Range(low, high, step) => (low, high, step),
            _ => {
                return Err(LangError::new(
                    "the amounts of `sub` are integers or ranges such as 1..3 or 1..99 step 2",
                    span,
                ));
            }
        };
        if low.sign() != num_bigint::Sign::Plus {
            return Err(LangError::new(
                format!("a subtraction amount must be at least 1, not {low}"),
                span,
            ));
        }
        let low = low
            .to_u64()
            .filter(|&v| v <= MAX_AMOUNT)
            .ok_or_else(|| too_large(span))?;
        let high = high
            .to_u64()
            .filter(|&v| v <= MAX_AMOUNT)
            .ok_or_else(|| too_large(span))?;
        if low > high {
            return Err(LangError::new(
                format!("the range {low}..{high} is empty: its start is above its end"),
                span,
            ));
        }
        // A step beyond the range leaves its first amount only.
        let step = usize::try_from(step).unwrap_or(usize::MAX);
        amounts.extend((low..=high).step_by(step));
    }
    if amounts.is_empty() {
        return Err(LangError::new(
            "`sub` needs at least one subtraction amount",
            term.name_span,
        )
        .with_help("for example `sub[1, 3, 4](10)` or `sub[1..3, 7](10)`"));
    }
    Ok(amounts)
}

/// The heap rule `sub[a, b, ...]`, for `grundy seq`, written with its
/// amounts sorted.
fn rule(term: &Term) -> Result<(super::HeapRule, String), LangError> {
    let mut amounts = amounts(term)?;
    let rule = super::subtraction_rule(term, &amounts)?;
    amounts.sort_unstable();
    amounts.dedup();
    Ok((rule, head_of(&amounts)))
}

fn build(term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
    let rules = Subtraction::new(amounts(term)?);
    let head = rules.head();
    Ok(Group::new(
        head,
        heap_parts(&Arc::new(rules), heap_sizes(term, context.limits.bytes)?),
    ))
}

/// The catalogue entry.
pub(crate) const ENTRY: GameEntry = GameEntry {
    name: "sub",
    summary: "take s tokens from one heap, for s in a finite set",
    rules: "A move takes exactly s tokens from a single heap, for some s in the finite set S. \
            G(n) = mex{G(n - s)} depends only on the previous max(S) values, so the sequence is \
            eventually periodic and a repeated window of max(S) values proves the period \
            (Winning Ways ch. 4). grundy finds it (Brent's algorithm) and answers heaps of any size \
            from it; without a period in the first 2^24 values (2^30 / |S| for more than 64 \
            amounts) it searches.",
    syntax: "sub[s1, s2, ...](n, ...), amounts may be ranges: sub[1..3, 7](n), and ranges may \
             have a step: sub[1..99 step 2](n) takes any odd number below 100",
    examples: &[
        "sub[1, 3, 4](10)",
        "sub[1..3, 7](20, 30)",
        "sub[1..99 step 2](1000)",
        "sub[2, 5](1000000000000000000000)",
    ],
    kind: EntryKind::Game(build),
    heap_rule: Some(rule),
    drawing: DrawingKind::Heaps,
    every_start: None,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_refused, try_answer as answer};
    use crate::theory::game::{ImpartialGame, Outcome};
    use crate::theory::solver::Solver;
    use proptest::prelude::*;

    /// The first window of `max S` values that repeats, and the distance to its
    /// repeat, by comparing every pair of windows: the reference for [`find_period`].
    fn period_by_every_pair(amounts: &[u64]) -> (usize, usize) {
        let width = *amounts.last().unwrap() as usize;
        let mut values = Vec::new();
        while values.len() < 4096 {
            let value = next_value(amounts, &values);
            values.push(value);
        }
        let window = |i: usize| &values[i..i + width];
        for mu in 0.. {
            for lambda in 1..=(values.len() - width - mu) {
                if window(mu) == window(mu + lambda) {
                    return (mu, lambda);
                }
            }
        }
        unreachable!("a window repeats within 4096 values for max S <= 9")
    }

    #[test]
    fn the_period_found_by_window_sums_is_the_first_repeat() {
        for mask in 1u32..512 {
            let amounts: Vec<u64> = (1..=9).filter(|s| mask & (1 << (s - 1)) != 0).collect();
            let found = find_period(&amounts).unwrap();
            assert_eq!(
                (found.preperiod as usize, found.period as usize),
                period_by_every_pair(&amounts),
                "{amounts:?}"
            );
        }
    }

    /// The steps' period, used past its first lap, gives every heap the steps
    /// that the generic Every-SG search finds, for every set within 1..=9.
    #[test]
    fn steps_by_their_period_are_the_searched_steps() {
        use crate::sums::every_sg::EverySg;
        struct Heaps(Vec<u64>);
        impl ImpartialGame for Heaps {
            type Position = u64;
            fn moves(&self, n: &u64, moves: &mut Vec<u64>) {
                moves.extend(self.0.iter().filter(|&&a| a <= *n).map(|&a| n - a));
            }
        }
        let mut used_the_period = 0;
        for mask in 1u32..512 {
            let amounts: Vec<u64> = (1..=9).filter(|s| mask & (1 << (s - 1)) != 0).collect();
            let game = Subtraction::new(amounts.clone());
            let heaps = Heaps(amounts.clone());
            let mut every = EverySg::new(&heaps);
            let period = game.every_steps.get_or_init(|| {
                find_steps_period(&game.amounts, game.periodicity.as_ref().unwrap())
            });
            let period = period.as_ref().expect("a steps period for a small set");
            let last = (period.start + 3 * period.period + 40).max(300);
            used_the_period += usize::from(period.start + period.period < last);
            for n in 0..last {
                let found = game.heap_every_steps(&BigUint::from(n), 0).unwrap();
                assert_eq!(
                    found.steps,
                    BigUint::from(every.steps(&n).unwrap()),
                    "{amounts:?} heap {n}"
                );
                let counted: BigUint = found.options.iter().map(|group| &group.count).sum();
                assert_eq!(
                    counted,
                    BigUint::from(amounts.iter().filter(|&&a| a <= n).count())
                );
            }
        }
        assert_eq!(used_the_period, 511);
    }

    #[test]
    fn a_large_set_gives_up_its_period_search_within_its_budget() {
        // 2^20 amounts: 2^44 steps for 2^24 values; the window alone needs 2^20 values.
        let started = std::time::Instant::now();
        let game = Subtraction::new((1..=1 << 20).collect());
        assert!(game.periodicity().is_none());
        assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
        // Sets of up to 64 amounts keep the whole 2^24 values.
        assert!(Subtraction::new((1..=64).collect()).periodicity().is_some());
    }

    #[test]
    fn a_wide_window_is_found_in_linear_time() {
        // Windows of 911177 values compared one by one took hours.
        let started = std::time::Instant::now();
        let game = Subtraction::new(vec![911_177, 330_389, 19]);
        assert!(game.periodicity().is_some());
        assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    }

    struct Searched(Vec<u64>);
    impl ImpartialGame for Searched {
        type Position = u64;
        fn moves(&self, heap: &u64, moves: &mut Vec<u64>) {
            moves.extend(self.0.iter().filter(|&&s| s <= *heap).map(|s| heap - s));
        }
    }

    #[test]
    fn known_periods() {
        // Winning Ways: S = {1, 3, 4} has period 7 (0 1 0 1 2 3 2) from the start.
        let game = Subtraction::new(vec![1, 3, 4]);
        let p = game.periodicity().unwrap();
        assert_eq!(
            (p.preperiod, p.period, p.values.as_slice()),
            (0, 7, &[0, 1, 0, 1, 2, 3, 2][..])
        );
        // S = {2, 5}: 0 0 1 1 0 2 1 — period 7.
        let p = Subtraction::new(vec![2, 5]).periodicity().cloned().unwrap();
        assert_eq!(p.period, 7);
        // Bash as a subtraction game: period m + 1.
        assert_eq!(
            Subtraction::new(vec![1, 2, 3])
                .periodicity()
                .unwrap()
                .period,
            4
        );
    }

    #[test]
    fn canonical_heads_compress_runs() {
        assert_eq!(Subtraction::new(vec![7, 1, 2, 3, 3]).head(), "sub[1..3, 7]");
        assert_eq!(Subtraction::new(vec![1, 2, 5]).head(), "sub[1, 2, 5]");
        assert_eq!(
            answer("sub[3,1,2](5)").unwrap().position.as_str(),
            "sub[1..3](5)"
        );
    }

    #[test]
    fn ranges_with_a_step_take_every_step_th_amount() {
        // Take any odd number up to 99: the odd numbers alternate with the evens.
        let stepped = answer("sub[1..99 step 2](10, 7)").unwrap();
        let listed = answer(&format!(
            "sub[{}](10, 7)",
            (1..=99)
                .step_by(2)
                .map(|n: u32| n.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .unwrap();
        assert_eq!(stepped.position.as_str(), listed.position.as_str());
        assert_eq!(stepped.nimber, listed.nimber);
        assert_eq!(stepped.winning_move_count, listed.winning_move_count);
        assert_eq!(
            answer("sub[2..10 step 4](9)").unwrap().position.as_str(),
            "sub[2, 6, 10](9)"
        );
        assert_eq!(
            answer("sub[1..5 step 0](9)").unwrap_err().message,
            "the step of a range must be at least 1"
        );
        assert_eq!(
            answer("nim(1..9 step 4)").unwrap().position.as_str(),
            "nim(1, 5, 9)"
        );
    }

    #[test]
    fn bad_amounts_are_rejected() {
        assert_refused(&[
            (
                "sub[0](5)",
                "a subtraction amount must be at least 1, not 0",
            ),
            ("sub(5)", "`sub` needs at least one subtraction amount"),
            (
                "sub[5..2](5)",
                "the range 5..2 is empty: its start is above its end",
            ),
        ]);
        assert!(
            answer("sub[99999999999](5)")
                .unwrap_err()
                .message
                .contains("limited")
        );
    }

    #[test]
    fn period_answers_agree_with_search_on_many_sets() {
        let sets: &[&[u64]] = &[
            &[1, 3, 4],
            &[2, 5],
            &[1, 4, 5],
            &[3, 7, 8],
            &[2, 3, 11],
            &[1, 2, 6, 9],
            &[5],
            &[4, 9, 13, 14],
        ];
        for &set in sets {
            let game = Searched(set.to_vec());
            let mut solver = Solver::new(&game);
            let rules = Subtraction::new(set.to_vec());
            for n in 0..400u64 {
                let (value, _) = rules.heap_nimber(&n.into()).unwrap();
                assert_eq!(value, solver.nimber(&n).unwrap().into(), "{set:?} at {n}");
            }
        }
    }

    #[test]
    fn huge_heaps_answer_from_the_period() {
        let answer = answer(&format!("sub[1, 3, 4](1{})", "0".repeat(99))).unwrap();
        // 10^99 mod 7 = 6 (10 ≡ 3, 3^99 ≡ 3^(99 mod 6) = 3^3 = 27 ≡ 6), and G(6) = 2.
        assert_eq!(answer.nimber, Some(2u32.into()));
        assert_eq!(answer.method, "subtraction period");
        for winning in &answer.winning_moves {
            assert_eq!(
                self::answer(&answer.target(winning)).unwrap().outcome,
                Outcome::PreviousPlayerWins
            );
        }
    }

    proptest! {
        #[test]
        fn period_matches_search(set in prop::collection::btree_set(1u64..12, 1..5), n in 0u64..300) {
            let set: Vec<u64> = set.into_iter().collect();
            let game = Searched(set.clone());
            let mut solver = Solver::new(&game);
            let rules = Subtraction::new(set);
            prop_assert_eq!(rules.heap_nimber(&n.into()).unwrap().0, solver.nimber(&n).unwrap().into());
            let text = format!("{}({n})", rules.head());
            let answer = answer(&text).unwrap();
            prop_assert_eq!(answer.winning_move_count, solver.winning_moves(&n).unwrap().len().into());
        }
    }
}
