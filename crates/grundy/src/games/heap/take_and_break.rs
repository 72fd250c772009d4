//! Catalogue terms for heap games given as rules ([`HeapRule`]): take-and-break
//! games by octal or hexadecimal code (`octal[0.137]`), Kayles, Dawson's Kayles,
//! Grundy's game, Lasker's Nim, Rest Nim and all-but subtraction games.
//!
//! A heap's nimber is read from the game's Grundy sequence, computed by the
//! sequence engine ([`crate::sequence`]). When a period is *proven* (the
//! Guy-Smith periodicity theorem for finite octal codes, Winning Ways ch. 4; the
//! level test for arithmetic periods of hexadecimal codes; a closed form for
//! Lasker's Nim and Rest Nim), heaps of any size answer from it, and so do their
//! winning moves: the splits of a huge heap into two or three parts fall into
//! residue classes modulo the period, counted exactly (see `split_count`; with a
//! power-of-two saltus the levels of the parts are counted by their xor).
//! Lasker's Nim's saltus is not of that form: its winning moves
//! are counted by its own theorem ([`crate::rules::lasker`]) for heaps of any
//! size, and Rest Nim's for heaps up to 1024 tokens.
//! Without a proof, heaps are answered from computed values, within the limits of
//! the position being built ([`crate::registry::BuildLimits`]: ten million heaps by
//! default, `solve --max-heap`).

use std::ops::ControlFlow;
use std::sync::{Arc, Mutex, OnceLock};

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{ToPrimitive, Zero};

use super::split_convolution::{self, PairQuestion};
use super::split_count::{SplitCounter, TRIPLE_PAIR_COST, largest_triple_span};
use super::{
    HeapMovesTo, HeapRule, HeapRules, Leaves, Wanted, heap_parts, rule_without_parameters,
};
use crate::lang::arguments::{heap_sizes_with_text, no_params};
use crate::lang::{LangError, Term, ValueKind};
use crate::registry::{BuildContext, BuildLimits, DrawingKind, EntryKind, GameEntry};
use crate::rules::lasker::{
    REST_NIM_LARGEST_COUNTED, lasker_moves_to_nimber, rest_nim_moves_to_nimber,
};
use crate::rules::octal::{LEAVE_NONE, LEAVE_ONE, LEAVE_THREE, LEAVE_TWO};
use crate::sequence::{
    Cost, CostModel, GrundyValues, Method, Periodicity, SequenceSolver, until_proven,
};
use crate::sums::position::Group;
use crate::theory::caches::{Caches, Shelf};
use crate::theory::cancel::stop_requested;
use crate::theory::solver::{Limit, Refusal};

/// Values computed when a term is built, to find and prove a period.
const PERIOD_SEARCH_HEAPS: usize = 1 << 12;
/// The most moves of one heap enumerated to list its winning moves.
const MOVE_BUDGET: usize = 20_000_000;

/// A heap game whose nimbers come from its Grundy sequence.
#[derive(Debug)]
pub struct SequenceRules {
    rule: HeapRule,
    values: GrundyValues,
    /// A proven period, if any.
    periodicity: Option<Periodicity>,
    /// Why the values stop short of the largest heap asked about (when they do).
    short: Option<Refusal>,
    /// The largest preperiod plus period for which three-heap splits are counted,
    /// from the limits the position was built with.
    triple_span: usize,
    /// The splits counter of the proven period, made at the first count past the values.
    counter: OnceLock<Option<SplitCounter>>,
    /// Grundy's game: the splits of every heap counted at once for the sum being
    /// answered, once passing over them heap by heap has cost enough.
    splits: Mutex<SplitTable>,
    /// The memory limit the position was built with, for that count.
    bytes: u64,
}

/// The unequal splits of every computed heap `m` of Grundy's game to the nimber
/// `G(m) ⊕ nim_sum`: what a heap must reach in a sum of nim-sum `nim_sum`.
#[derive(Debug, Default)]
struct SplitTable {
    nim_sum: u32,
    /// Splits passed over one by one for this nim-sum.
    passed: u64,
    /// The count of each heap, once made.
    counts: Option<Vec<u32>>,
    /// The count was refused (memory, cancellation, values too large).
    refused: bool,
}

/// The rules are the rule; the values and the period are derived from it (a
/// position built within other limits may have computed more of them, but
/// never different ones).
impl PartialEq for SequenceRules {
    fn eq(&self, other: &Self) -> bool {
        self.rule == other.rule
    }
}

impl SequenceRules {
    /// The values of `rule` up to the largest heap it will be asked about (when
    /// within `limits`), and a period if one is proven within 4096 heaps,
    /// or, for a heap beyond the limits, within the limits. When
    /// every heap is below 4096 only their values are computed: heaps only shrink, so
    /// no period is ever needed (and codes leaving three heaps cost cubic time).
    #[must_use]
    pub fn new(rule: HeapRule, largest_heap: Option<&BigUint>, limits: BuildLimits) -> Self {
        let mut solver = SequenceSolver::new(rule.clone(), Method::SparseSpace);
        let small = largest_heap
            .and_then(ToPrimitive::to_usize)
            .filter(|&largest| largest < PERIOD_SEARCH_HEAPS);
        let first_reach = small.unwrap_or(PERIOD_SEARCH_HEAPS);
        if let Err(refusal) = Self::check_first_reach(&rule, &solver, first_reach, limits) {
            return Self {
                rule,
                values: solver.into_values(),
                periodicity: None,
                short: Some(refusal),
                triple_span: largest_triple_span(limits.work, limits.bytes),
                counter: OnceLock::new(),
                splits: Mutex::default(),
                bytes: limits.bytes,
            };
        }
        if let Some(largest) = small {
            solver.extend_to(largest);
            return Self {
                rule,
                values: solver.into_values(),
                periodicity: None,
                short: None,
                triple_span: largest_triple_span(limits.work, limits.bytes),
                counter: OnceLock::new(),
                splits: Mutex::default(),
                bytes: limits.bytes,
            };
        }
        let mut periodicity = until_proven(&mut solver, PERIOD_SEARCH_HEAPS, &mut |_| {
            ControlFlow::Continue(())
        })
        .ok()
        .flatten()
        .filter(Periodicity::proven);
        let mut short = None;
        if periodicity.is_none()
            && let Some(largest) = largest_heap
        {
            match Self::extend_within_budget(&rule, &mut solver, largest, limits) {
                Ok(found) => periodicity = found,
                Err(reason) => short = Some(reason),
            }
        }
        Self {
            rule,
            values: solver.into_values(),
            periodicity,
            short,
            triple_span: largest_triple_span(limits.work, limits.bytes),
            counter: OnceLock::new(),
            splits: Mutex::default(),
            bytes: limits.bytes,
        }
    }

    /// Whether the values every position of this rule computes first (those of its heaps
    /// when all are small, otherwise the heaps where a period is looked for) fit in the
    /// heap and memory limits, however small they were set: `--max-memory 0` refuses, it
    /// does not answer. (Their work is small and fixed, and the work limit counts only
    /// what lies beyond it.)
    fn check_first_reach(
        rule: &HeapRule,
        solver: &SequenceSolver,
        reach: usize,
        limits: BuildLimits,
    ) -> Result<(), Refusal> {
        let largest_allowed = usize::try_from(limits.largest_heap).unwrap_or(usize::MAX);
        if reach > largest_allowed {
            let reason = format!(
                "its values up to heap {reach} are needed (to answer, or to look for a \
                 period), beyond the largest heap allowed, {}",
                limits.largest_heap
            );
            return Err(Refusal::new(reason, &[Limit::LargestHeap]));
        }
        let cost = CostModel::new(rule, Method::SparseSpace, solver.values()).cost(reach);
        if cost.bytes <= limits.bytes {
            return Ok(());
        }
        let reason = format!(
            "its values up to heap {reach} (needed to answer, or to look for a period) take \
             about {} bytes, beyond the memory limit of {} bytes",
            cost.bytes, limits.bytes
        );
        Err(Refusal::new(reason, &[Limit::Memory]))
    }

    /// Computes the values up to `largest` when that stays within the limits of the
    /// position being built (`limits`: heaps, work and memory by the engine's
    /// cost model). When `largest` lies beyond them, computes values as far as the
    /// limits allow, looking for a period a theorem proves (as `grundy seq
    /// --until-proven`): a heap of any size then answers from it. Returns that period,
    /// or why the heap's value stays unknown, naming the `solve` flag that raises the
    /// limit that stopped the computation.
    fn extend_within_budget(
        rule: &HeapRule,
        solver: &mut SequenceSolver,
        largest: &BigUint,
        limits: BuildLimits,
    ) -> Result<Option<Periodicity>, Refusal> {
        let have = solver.values().len();
        let model = CostModel::new(rule, Method::SparseSpace, solver.values());
        let budget = Cost {
            bytes: limits.bytes,
            steps: limits.work,
        };
        let largest_allowed = usize::try_from(limits.largest_heap).unwrap_or(usize::MAX);
        if let Some(heap) = largest.to_usize().filter(|&heap| heap <= largest_allowed)
            && model.largest_heap_within(have.min(heap), heap, &budget) == Some(heap)
        {
            solver.extend_to(heap);
            return Ok(None);
        }
        if matches!(rule, HeapRule::GrundysGame) {
            let reason = format!(
                "{rule} has no known period, and a position's heap values are computed only up \
                 to heap {} (the largest-heap limit raises it)",
                limits.largest_heap
            );
            return Err(Refusal::new(reason, &[Limit::LargestHeap]));
        }
        // Beyond the limits: search for a proven period as far as they allow.
        let reach = model
            .largest_heap_within(have, largest_allowed, &budget)
            .unwrap_or(have);
        if reach > have {
            let found = until_proven(solver, reach, &mut |_| ControlFlow::Continue(()))
                .ok()
                .flatten();
            if let Some(periodicity) = found.filter(Periodicity::proven) {
                return Ok(Some(periodicity));
            }
        }
        let searched = solver.values().len();
        if reach >= largest_allowed {
            let reason = format!(
                "no period of {rule} is proven from its first {searched} values, and a \
                 position's heap values are computed only up to heap {} (the largest-heap \
                 limit raises it)",
                limits.largest_heap
            );
            return Err(Refusal::new(reason, &[Limit::LargestHeap]));
        }
        let wanted = largest
            .to_usize()
            .unwrap_or(usize::MAX)
            .min(largest_allowed);
        let cost = model.cost(wanted);
        let reason = format!(
            "no period of {rule} is proven from its first {searched} values, and its values \
             up to heap {wanted} need about {:.1e} steps and {} MB, beyond the {:.1e} steps \
             and {} MB a position may take to build (the work and memory limits raise them)",
            cost.steps as f64,
            cost.bytes >> 20,
            limits.work as f64,
            limits.bytes >> 20,
        );
        Err(Refusal::new(reason, &[Limit::Work, Limit::Memory]))
    }

    /// The unequal splits of a heap of `heap` (below the values' end) of Grundy's game
    /// reaching `target`, from the count of every heap at once made for the sum being
    /// answered (nim-sum `target ⊕ G(heap)`; see `split_convolution`), or `None` while
    /// passing over the splits heap by heap costs less, or when that count is refused
    /// (memory, values beyond 2^12, a cancellation). The count is made once the
    /// splits passed over for one nim-sum reach the value bound times the
    /// transform length (its cost is about twenty nanoseconds for each of those
    /// points, a pass about one a split), so a sum of few heaps never makes it.
    fn grundy_splits_counted(&self, heap: usize, target: u32) -> Option<u64> {
        let nim_sum = target ^ self.values.get(heap)?;
        let mut table = self.splits.lock().ok()?;
        if table.nim_sum != nim_sum {
            *table = SplitTable {
                nim_sum,
                ..SplitTable::default()
            };
        }
        if let Some(counts) = &table.counts {
            return counts.get(heap).map(|&count| u64::from(count));
        }
        if table.refused {
            return None;
        }
        table.passed += heap as u64 / 2;
        let heaps = self.values.len();
        let bound = (self.values.max_value() + 1).next_power_of_two();
        let length = (2 * heaps).next_power_of_two() as u64;
        if table.passed < u64::from(bound) * length {
            return None;
        }
        let threads = rayon::current_num_threads();
        if split_convolution::bytes_needed(heaps, heaps, threads) > self.bytes {
            table.refused = true;
            return None;
        }
        let questions: Vec<PairQuestion> = (0..heaps)
            .map(|sum| PairQuestion {
                sum,
                target: self.values.get(sum).unwrap_or(0) ^ nim_sum,
            })
            .collect();
        let Ok(Some(ordered)) = split_convolution::ordered_pair_counts(&self.values, &questions)
        else {
            table.refused = true;
            return None;
        };
        // Ordered pairs to unordered unequal ones: (m/2, m/2) reaches 0 and is its
        // own mirror.
        let counts: Vec<u32> = ordered
            .iter()
            .zip(&questions)
            .map(|(&pairs, question)| {
                let equal =
                    u64::from(question.sum % 2 == 0 && question.sum > 0 && question.target == 0);
                ((pairs - equal) / 2) as u32
            })
            .collect();
        let count = counts.get(heap).map(|&count| u64::from(count));
        table.counts = Some(counts);
        count
    }

    /// The rule.
    #[must_use]
    pub const fn rule(&self) -> &HeapRule {
        &self.rule
    }

    /// The nimber of a heap of any size, when computed or proven.
    #[must_use]
    pub fn value(&self, heap: &BigUint) -> Option<BigUint> {
        if let Some(value) = heap.to_usize().and_then(|n| self.values.get(n)) {
            return Some(value.into());
        }
        self.periodicity
            .as_ref()?
            .value_of_heap(&self.values, heap)
            .ok()
    }

    fn method(&self, heap: &BigUint) -> &'static str {
        let computed = heap.to_usize().is_some_and(|n| n < self.values.len());
        match &self.periodicity {
            Some(periodicity) if !computed => periodicity.proof.method(),
            _ => "grundy sequence",
        }
    }

    /// Winning moves of a heap past the computed values, for a take-and-break code with
    /// a proven period (saltus 0, a power of two, 3, 5 or 6): the heaps
    /// left by each number of tokens removed, counted and listed by
    /// [`SplitCounter`] (residue classes modulo the period, levels by their xor).
    fn periodic_moves_to(
        &self,
        heap: &BigUint,
        target: &BigUint,
        max: usize,
    ) -> Option<HeapMovesTo> {
        let HeapRule::TakeAndBreak(code) = &self.rule else {
            return self.all_but_moves_to(heap, target, max);
        };
        let counter = self
            .counter
            .get_or_init(|| SplitCounter::new(&self.values, self.periodicity.as_ref()?))
            .as_ref()?;
        let mut count = BigUint::zero();
        let mut listed = Vec::new();
        for removed in 0..=code.max_removed() {
            let digit = code.digit(removed);
            if BigUint::from(removed) > *heap {
                break;
            }
            let rest = heap - removed;
            if removed > 0 && digit & LEAVE_NONE != 0 && rest.is_zero() && target.is_zero() {
                count += 1u32;
                if listed.len() < max {
                    listed.push(Vec::new());
                }
            }
            if removed > 0
                && digit & LEAVE_ONE != 0
                && !rest.is_zero()
                && self.value(&rest)? == *target
            {
                count += 1u32;
                if listed.len() < max {
                    listed.push(vec![rest.clone()]);
                }
            }
            if digit & LEAVE_TWO != 0 {
                count += counter.count_two(&rest, target);
                let room = max - listed.len();
                listed.extend(counter.list_two(&rest, target, room));
            }
            if digit & LEAVE_THREE != 0 {
                if counter.span() > self.triple_span {
                    return None;
                }
                count += counter.count_three(&rest, target);
                let room = max - listed.len();
                listed.extend(counter.list_three(&rest, target, room));
            }
        }
        Some((count, listed))
    }

    /// Winning moves of a heap too large to enumerate in an all-but subtraction game
    /// with a proven arithmetic period (`G(n + p) = G(n) + s` from `n0`). A move leaves
    /// one heap `m`, so the moves to `target` are the heaps of that value: those below
    /// `n0` holding it, and for each offset `x` with `target - G(n0 + x)` a
    /// non-negative multiple `t·s`, the heap `n0 + x + t·p` (at most `n0 + p` heaps in
    /// all); each is a move when it is below `heap` and `heap - m` is not excluded.
    fn all_but_moves_to(
        &self,
        heap: &BigUint,
        target: &BigUint,
        max: usize,
    ) -> Option<(BigUint, Vec<Vec<BigUint>>)> {
        let HeapRule::AllButSubtraction(game) = &self.rule else {
            return None;
        };
        let periodicity = self.periodicity.as_ref()?;
        let (preperiod, period, saltus) = (
            periodicity.preperiod,
            periodicity.period,
            periodicity.saltus,
        );
        if saltus == 0 {
            return None;
        }
        let mut heaps: Vec<BigUint> = Vec::new();
        for m in 0..preperiod {
            if BigUint::from(self.values.get(m)?) == *target {
                heaps.push(m.into());
            }
        }
        for x in 0..period {
            let base = BigUint::from(self.values.get(preperiod + x)?);
            if *target >= base {
                let (cycles, rest) = (target - &base).div_rem(&BigUint::from(saltus));
                if rest.is_zero() {
                    heaps.push(cycles * period + preperiod + x);
                }
            }
        }
        // Listed like the enumeration of moves: fewest tokens taken first.
        heaps.sort_unstable_by(|a, b| b.cmp(a));
        heaps.dedup();
        let moves: Vec<BigUint> = heaps
            .into_iter()
            .filter(|m| m < heap && (heap - m).to_u64().is_none_or(|taken| game.allows(taken)))
            .collect();
        let count = BigUint::from(moves.len());
        let listed = moves
            .into_iter()
            .take(max)
            .map(|m| if m.is_zero() { Vec::new() } else { vec![m] })
            .collect();
        Some((count, listed))
    }
}

impl HeapRules for SequenceRules {
    fn heap_rule(&self) -> Option<HeapRule> {
        Some(self.rule.clone())
    }

    fn heap_moves(&self, size: u64, limit: usize, moves: &mut Vec<Leaves>) {
        moves.extend(
            self.rule
                .moves(size)
                .take(limit.saturating_add(1))
                .map(|heap_move| Leaves::from_slice(&heap_move.leaves)),
        );
    }

    fn heap_nimber(&self, size: &BigUint) -> Option<(BigUint, &'static str)> {
        Some((self.value(size)?, self.method(size)))
    }

    fn heap_nimber_refusal(&self, size: &BigUint) -> Option<Refusal> {
        let short = self.short.as_ref()?;
        self.value(size).is_none().then(|| Refusal {
            reason: format!(
                "the nimber of a heap of {size} in {} is unknown: {}",
                self.rule, short.reason
            ),
            raised_by: short.raised_by.clone(),
        })
    }

    fn heap_moves_to_nimber(&self, size: &BigUint, wanted: Wanted<'_>) -> Option<HeapMovesTo> {
        let Wanted { target, max } = wanted;
        match self.rule {
            HeapRule::LaskersNim => return Some(lasker_moves_to_nimber(size, target, max)),
            HeapRule::RestNim => return rest_nim_moves_to_nimber(size, target, max),
            _ => {}
        }
        let small = size.to_u64().filter(|&n| (n as usize) < self.values.len());
        let Some(small) = small else {
            return self.periodic_moves_to(size, target, max);
        };
        // Values are 32-bit, and so is the nim-sum of the heaps a move leaves.
        let Some(target) = target.to_u32() else {
            return Some((BigUint::zero(), Vec::new()));
        };
        if self.rule == HeapRule::GrundysGame {
            let heap = usize::try_from(small).ok()?;
            let count = match self.grundy_splits_counted(heap, target) {
                Some(count) => count,
                None => unequal_split_count(&self.values, heap, target),
            };
            let listed = unequal_splits_listed(&self.values, heap, target, max.min(count as usize));
            let listed = listed
                .into_iter()
                .map(|a| vec![BigUint::from(a), BigUint::from(small - a)])
                .collect();
            return Some((count.into(), listed));
        }
        let mut count = 0u64;
        let mut listed = Vec::new();
        for (index, heap_move) in self.rule.moves(small).enumerate() {
            if index >= MOVE_BUDGET {
                return None;
            }
            let value = heap_move.leaves.iter().try_fold(0u32, |x, &leaf| {
                Some(x ^ self.values.get(usize::try_from(leaf).ok()?)?)
            })?;
            if value == target {
                count += 1;
                if listed.len() < max {
                    listed.push(
                        heap_move
                            .leaves
                            .iter()
                            .map(|&leaf| BigUint::from(leaf))
                            .collect(),
                    );
                }
            }
        }
        Some((count.into(), listed))
    }

    fn heap_moves_to_nimber_refusal(&self, size: &BigUint, target: &BigUint) -> Option<Refusal> {
        // Asked only when the theory above gave no count. Past the computed values a
        // proven period gives the nimber, but the moves are counted by it only when the
        // saltus is 0, a power of two, 3, 5 or 6 (see `SplitCounter`).
        let beyond = size.to_usize().is_none_or(|n| n >= self.values.len());
        if beyond && self.periodicity.is_some() && self.rule != HeapRule::RestNim {
            let size_text = size.to_string();
            let shown = if size_text.len() > 30 {
                format!("{} digits", size_text.len())
            } else {
                size_text
            };
            let reason = format!(
                "a heap of {shown} in {} lies past the {} computed values; its nimber comes from \
                 the proven period, but its winning moves are counted from the period only when \
                 the saltus is 0, a power of two, 3, 5 or 6 (a larger one makes the \
                 counting automaton too large), and, \
                 for moves leaving three heaps, when the preperiod plus the period is at most \
                 {} (the count looks at its square of residue pairs, about {} steps and {} bytes \
                 each; the work and memory limits raise it)",
                self.rule,
                self.values.len(),
                self.triple_span,
                TRIPLE_PAIR_COST.0,
                TRIPLE_PAIR_COST.1,
            );
            return Some(Refusal::new(reason, &[Limit::Work, Limit::Memory]));
        }
        (self.rule == HeapRule::RestNim && target < size).then(|| {
            let reason = format!(
                "a Rest Nim heap of {size} moves to nimber {target} by leaving any partition of a \
                 smaller heap whose parts have that nim-sum, and grundy counts these partitions only \
                 for heaps up to {REST_NIM_LARGEST_COUNTED} (a fixed limit: the count takes about \
                 n^3/2 steps and is about exp(2.5 sqrt(n)); no flag raises it)"
            );
            Refusal::new(reason, &[])
        })
    }
}

/// The splits of a heap of `heap` tokens (below the values' end) into two
/// unequal heaps `a < heap - a` (Grundy's game) whose values xor to `target`,
/// by a pass over them: a few cycles a split, where enumerating moves and
/// comparing big integers cost about forty nanoseconds. A sum of many heaps
/// passing over each heap's splits costs the square of its largest heap; past a
/// point it counts every heap at once instead
/// ([`SequenceRules::grundy_splits_counted`]).
fn unequal_split_count(values: &GrundyValues, heap: usize, target: u32) -> u64 {
    let value = |i: usize| values.get(i).unwrap_or(u32::MAX);
    (1..heap.div_ceil(2))
        .filter(|&a| value(a) ^ value(heap - a) == target)
        .count() as u64
}

/// The first `max` of those splits, as the smaller heap `a` in increasing order
/// (the order of [`HeapRule::moves`]).
fn unequal_splits_listed(values: &GrundyValues, heap: usize, target: u32, max: usize) -> Vec<u64> {
    let value = |i: usize| values.get(i).unwrap_or(u32::MAX);
    (1..heap.div_ceil(2))
        .filter(|&a| value(a) ^ value(heap - a) == target)
        .take(max)
        .map(|a| a as u64)
        .collect()
}

/// Builds a term of `rule` named `head`.
fn group(
    term: &Term,
    context: &BuildContext<'_>,
    head: String,
    rule: HeapRule,
) -> Result<Group, LangError> {
    let sizes = heap_sizes_with_text(term, context.limits.bytes)?;
    let largest = sizes.iter().map(|size| &size.value).max();
    let rules = shared_rules(rule, largest, context.limits);
    Ok(Group::new(head, heap_parts(&rules, sizes)))
}

/// The values of the rules built last, kept for the positions built after them
/// within the same limits, in the computation's context of caches: a table of
/// `octal[0.07](n)` for n up to 10^5 builds 10^5 positions, and each would
/// otherwise compute the values and look for the period again, the same
/// proven period each time. At most [`KEPT_RULES`] entries of
/// [`KEPT_VALUES`] values each, counted by [`kept_bytes`].
struct KeptRules;

impl Shelf for KeptRules {
    type Key = (BuildLimits, HeapRule);
    type Value = Arc<SequenceRules>;
    const ENTRIES: usize = KEPT_RULES;
}

/// The most rules kept ([`KeptRules`]).
const KEPT_RULES: usize = 8;

/// The most values a kept rule may hold (a byte or so each).
const KEPT_VALUES: usize = 1 << 20;

/// The bytes kept rules hold, as the context of caches counts them: the
/// values, and per value up to 8 bytes more for the tables filled later as
/// its positions are answered (the splits' counts of Grundy's game, the
/// values of a proven period's counter).
fn kept_bytes(rules: &SequenceRules) -> u64 {
    let values = rules.values.len() as u64;
    values * (rules.values.bytes_per_value() as u64 + 8) + rules.rule.held_bytes() as u64
}

/// [`SequenceRules::new`], or rules built before within the same `limits` that
/// give the same answers: their period is proven (every heap follows from it),
/// or their values reach `largest`. Rules cut short (a limit, a cancellation)
/// are never kept.
fn shared_rules(
    rule: HeapRule,
    largest: Option<&BigUint>,
    limits: BuildLimits,
) -> Arc<SequenceRules> {
    let caches = Caches::current();
    let serves = |kept: &SequenceRules| {
        kept.periodicity.is_some()
            || largest.is_none_or(|largest| {
                largest
                    .to_usize()
                    .is_some_and(|heap| heap < kept.values.len())
            })
    };
    let same = |(kept_limits, kept_rule): &(BuildLimits, HeapRule)| {
        *kept_limits == limits && *kept_rule == rule
    };
    if let Some(found) =
        caches.find::<KeptRules>(limits.bytes, |key, kept| same(key) && serves(kept))
    {
        return found;
    }
    let mut reached = 0;
    caches.scan::<KeptRules>(|key, kept| {
        if same(key) {
            reached = reached.max(kept.values.len());
        }
    });
    // Positions of the same rule built one after another with growing heaps (a table
    // of `octal[0.07](n)`, n = 0, 1, 2, ...) would each compute the values again, a
    // little further: their cost summed to the cube of the largest heap. Twice the
    // heaps reached before makes it a geometric series, about twice the cost of the
    // last; when that is beyond the limits, the values reach the heaps asked for.
    let grown = largest
        .and_then(ToPrimitive::to_usize)
        .filter(|&heap| reached > 0 && heap < 2 * reached)
        .map(|_| SequenceRules::new(rule.clone(), Some(&BigUint::from(2 * reached)), limits))
        .filter(|grown| grown.short.is_none() && !stop_requested());
    let built = Arc::new(grown.unwrap_or_else(|| SequenceRules::new(rule, largest, limits)));
    if built.short.is_none() && built.values.len() <= KEPT_VALUES && !stop_requested() {
        let bytes = kept_bytes(&built);
        let key = (limits, built.rule.clone());
        caches.keep::<KeptRules>(limits.bytes, key, Arc::clone(&built), bytes);
    }
    built
}

/// The heap rule `octal[CODE]`, for `grundy seq`, written as the code reads
/// (`grundy_game` for Grundy's game).
fn octal_rule(term: &Term) -> Result<(HeapRule, String), LangError> {
    let code = match term.params.as_slice() {
        [param] if param.key.is_none() => param,
        _ => {
            return Err(
                LangError::new("`octal` takes one parameter: the code", term.name_span)
                    .with_help("for example `octal[0.77](10)` (Kayles) or `octal[4.07](10)`"),
            );
        }
    };
    let text = match &code.value.kind {
        ValueKind::Code(text) => text.clone(),
        // `octal[4]` reads as an integer; as a code it is `4.`.
        ValueKind::Integer(n) => format!("{n}."),
        _ => {
            return Err(LangError::new(
                "the code of `octal` looks like 0.77 or 4.07",
                code.value.span,
            ));
        }
    };
    let rule = HeapRule::octal(&text).map_err(|error| {
        LangError::new(format!("invalid code `{text}`: {error}"), code.value.span)
    })?;
    let head = match &rule {
        HeapRule::GrundysGame => "grundy_game".to_owned(),
        other => other.to_string(),
    };
    Ok((rule, head))
}

fn build_octal(term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
    let (rule, head) = octal_rule(term)?;
    group(term, context, head, rule)
}

/// The heap rule `all_but[...]`, for `grundy seq`.
fn all_but_rule(term: &Term) -> Result<(HeapRule, String), LangError> {
    let mut excluded = Vec::new();
    for param in &term.params {
        let ValueKind::Integer(n) = &param.value.kind else {
            return Err(LangError::new(
                "the excluded amounts of `all_but` are integers",
                param.value.span,
            ));
        };
        let amount = n.to_u32().filter(|&amount| amount >= 1).ok_or_else(|| {
            LangError::new(
                format!("an excluded amount must be from 1 to {}, not {n}", u32::MAX),
                param.value.span,
            )
        })?;
        excluded.push(amount);
    }
    let rule = HeapRule::all_but(excluded)
        .map_err(|error| LangError::new(error.to_string(), term.name_span))?;
    let head = rule.to_string();
    Ok((rule, head))
}

fn build_all_but(term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
    let (rule, head) = all_but_rule(term)?;
    group(term, context, head, rule)
}

macro_rules! named {
    ($function:ident, $name:literal, $rule:expr) => {
        fn $function(term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
            no_params(term)?;
            group(term, context, $name.to_owned(), $rule)
        }
    };
}

named!(build_kayles, "kayles", HeapRule::kayles());

/// The heap rules of the games named without parameters, for `grundy seq`.
macro_rules! named_rule {
    ($function:ident, $name:literal, $rule:expr) => {
        fn $function(term: &Term) -> Result<(HeapRule, String), LangError> {
            rule_without_parameters(term, $name, $rule)
        }
    };
}

named_rule!(kayles_rule, "kayles", HeapRule::kayles());
named_rule!(
    dawson_kayles_rule,
    "dawson_kayles",
    HeapRule::dawsons_kayles()
);
named_rule!(grundy_game_rule, "grundy_game", HeapRule::GrundysGame);
named_rule!(lasker_rule, "lasker", HeapRule::LaskersNim);
named_rule!(rest_nim_rule, "rest_nim", HeapRule::RestNim);
named!(
    build_dawson_kayles,
    "dawson_kayles",
    HeapRule::dawsons_kayles()
);
named!(build_grundy_game, "grundy_game", HeapRule::GrundysGame);
named!(build_lasker, "lasker", HeapRule::LaskersNim);
named!(build_rest_nim, "rest_nim", HeapRule::RestNim);

/// `octal[CODE]`.
pub(crate) const OCTAL_ENTRY: GameEntry = GameEntry {
    name: "octal",
    summary: "take-and-break game given by an octal or hexadecimal code",
    rules: "The code d0.d1d2...dk says what a move may do: digit dk (0-9, A-F) for removing k tokens \
            from one heap is a sum of 1 (may remove a whole heap of exactly k), 2 (may leave one \
            non-empty heap), 4 (may leave two non-empty heaps), 8 (hexadecimal: three heaps). \
            d0 = 4 allows splitting without removing. Nimbers come from the Grundy sequence; a \
            period proven by the Guy-Smith theorem (Winning Ways ch. 4) answers heaps of any size. \
            `octal[4!.0]` is Grundy's game (CGSuite's code).",
    syntax: "octal[CODE](n, ...), e.g. octal[0.137](10), octal[4.07](9, 12)",
    examples: &[
        "octal[0.137](20)",
        "octal[0.6](30, 31)",
        "octal[0.07](1000000000000000000000000000000)",
    ],
    kind: EntryKind::Game(build_octal),
    heap_rule: Some(octal_rule),
    drawing: DrawingKind::Heaps,
    every_start: None,
};

/// `kayles`.
pub(crate) const KAYLES_ENTRY: GameEntry = GameEntry {
    name: "kayles",
    summary: "knock down one pin or two adjacent pins from a row (octal 0.77)",
    rules: "A heap is a row of pins; a move removes one or two adjacent pins, which may split the row \
            in two. Octal code 0.77. Its Grundy sequence has period 12 from heap 71 on (last \
            exception at 70), proven by the Guy-Smith theorem, so heaps of any size answer instantly \
            (Winning Ways ch. 4).",
    syntax: "kayles(n, ...)",
    examples: &[
        "kayles(10)",
        "kayles(3, 4, 5)",
        "kayles(123456789012345678901234567890)",
    ],
    kind: EntryKind::Game(build_kayles),
    heap_rule: Some(kayles_rule),
    drawing: DrawingKind::Heaps,
    every_start: None,
};

/// `dawson_kayles`.
pub(crate) const DAWSON_KAYLES_ENTRY: GameEntry = GameEntry {
    name: "dawson_kayles",
    summary: "remove two adjacent pins from a row (octal 0.07)",
    rules: "A move removes exactly two adjacent pins from a row, which may split it in two. Octal \
            code 0.07 (Dawson's chess). Period 34 from heap 53 on, proven by the Guy-Smith theorem \
            (Winning Ways ch. 4).",
    syntax: "dawson_kayles(n, ...)",
    examples: &["dawson_kayles(20)", "dawson_kayles(1000000000000000000001)"],
    kind: EntryKind::Game(build_dawson_kayles),
    heap_rule: Some(dawson_kayles_rule),
    drawing: DrawingKind::Heaps,
    every_start: None,
};

/// `grundy_game`.
pub(crate) const GRUNDY_GAME_ENTRY: GameEntry = GameEntry {
    name: "grundy_game",
    summary: "split one heap into two heaps of different sizes",
    rules: "A move splits a heap into two non-empty heaps of different sizes. No period is known (none \
            up to at least 2^35, Flammenkamp), so heaps are answered from computed values, up to ten \
            million.",
    syntax: "grundy_game(n, ...)",
    examples: &["grundy_game(10)", "grundy_game(100, 200)"],
    kind: EntryKind::Game(build_grundy_game),
    heap_rule: Some(grundy_game_rule),
    drawing: DrawingKind::Heaps,
    every_start: None,
};

/// `lasker`.
pub(crate) const LASKER_ENTRY: GameEntry = GameEntry {
    name: "lasker",
    summary: "take any number from a heap, or split a heap in two (Lasker's Nim)",
    rules: "A move removes any positive number of tokens from one heap, or splits a heap into two \
            non-empty heaps. G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4, G(4k+4) = 4k+3 \
            (Winning Ways ch. 15; also called multi-nim), checked on the computed sequence. Heaps of \
            any size are answered exactly, winning moves included: G is its own inverse, so at \
            most one removal reaches a nimber, and the splits a + b fall into four classes mod 4 \
            in which G(a) xor G(b) = t becomes x + y = S, x xor y = T, with 2^popcount(T) \
            solutions (x and y = (S - T) / 2).",
    syntax: "lasker(n, ...)",
    examples: &[
        "lasker(3, 4, 7)",
        "lasker(1000000)",
        "lasker(100000000000000000000000000000, 3)",
    ],
    kind: EntryKind::Game(build_lasker),
    heap_rule: Some(lasker_rule),
    drawing: DrawingKind::Heaps,
    every_start: None,
};

/// `rest_nim`.
pub(crate) const REST_NIM_ENTRY: GameEntry = GameEntry {
    name: "rest_nim",
    summary: "take any number from a heap, then split the rest freely",
    rules: "A move removes a positive number of tokens from one heap and may split what remains into \
            any number of non-empty heaps. G(n) = n: the xor of parts never exceeds their sum. \
            Winning moves leave partitions of smaller heaps with a given nim-sum; they are \
            counted by a table of partitions by sum and nim-sum (n^3/2 steps) for heaps up to \
            1024 tokens. Beyond that, a position whose winning moves would need that count \
            stops at this limit (exit 3), its message still giving the winner and the nimber.",
    syntax: "rest_nim(n, ...)",
    examples: &["rest_nim(3, 5)", "rest_nim(7, 9, 12)"],
    kind: EntryKind::Game(build_rest_nim),
    heap_rule: Some(rest_nim_rule),
    drawing: DrawingKind::Heaps,
    every_start: None,
};

/// `all_but[...]`.
pub(crate) const ALL_BUT_ENTRY: GameEntry = GameEntry {
    name: "all_but",
    summary: "take any positive number of tokens except those in a finite set",
    rules: "A move removes any positive number of tokens from one heap, except the amounts listed. \
            all_but[] is Nim. Nimbers come from the Grundy sequence (all-but subtraction games are \
            arithmetic-periodic; Angela Siegel).",
    syntax: "all_but[e1, e2, ...](n, ...)",
    examples: &["all_but[1, 2](10)", "all_but[3](4, 5, 6)"],
    kind: EntryKind::Game(build_all_but),
    heap_rule: Some(all_but_rule),
    drawing: DrawingKind::Heaps,
    every_start: None,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::build;
    use crate::lang::parse;
    use crate::sequence::Proof;
    use crate::sums::analysis::{Answer, SolveOptions, solve};
    use crate::theory::game::{ImpartialGame, Outcome};
    use crate::theory::solver::Solver;

    fn answer(text: &str) -> Answer {
        solve(
            &build(&parse(text).unwrap()).unwrap(),
            &SolveOptions::default(),
        )
        .unwrap()
    }

    /// Positions of growing heaps answered in one context, whose kept values
    /// grow, are replaced and are evicted under a small cap, answer as in a
    /// fresh context each; the context never holds more than its cap.
    #[test]
    fn kept_values_answer_as_fresh_ones_within_the_cap() {
        use crate::theory::caches::Caches;
        use crate::theory::cancel::Cancel;
        let in_context = |caches: &Caches, text: &str| {
            Cancel::new().caching(caches).run(|| {
                let answer = answer(text);
                (answer.nimber, answer.winning_move_count, answer.notes)
            })
        };
        let cap = 2 << 10;
        let warm = Caches::new(cap);
        for n in (0..300).step_by(7) {
            for code in ["0.07", "0.137", "4.07", "0.6"] {
                let text = format!("octal[{code}]({n}, {})", n / 2);
                let cold = in_context(&Caches::default(), &text);
                assert_eq!(in_context(&warm, &text), cold, "{text}");
                assert!(warm.held_bytes() <= cap, "{warm:?}");
            }
        }
        assert!(!warm.is_empty());
    }

    /// Grundy's game's winning moves by the pass over its values, against the
    /// moves of its rule valued one by one: counts and the moves listed.
    #[test]
    fn grundy_game_splits_to_a_nimber_are_those_of_its_moves() {
        let rules = SequenceRules::new(
            HeapRule::GrundysGame,
            Some(&BigUint::from(400u32)),
            BuildLimits::default(),
        );
        for heap in 0..400u64 {
            for target in 0..8u32 {
                let wanted = Wanted {
                    target: &BigUint::from(target),
                    max: 3,
                };
                let (count, listed) = rules
                    .heap_moves_to_nimber(&BigUint::from(heap), wanted)
                    .unwrap();
                let expected: Vec<Vec<BigUint>> = HeapRule::GrundysGame
                    .moves(heap)
                    .filter(|m| {
                        m.leaves.iter().fold(0, |x, &l| {
                            x ^ rules.values.get(usize::try_from(l).unwrap()).unwrap()
                        }) == target
                    })
                    .map(|m| m.leaves.iter().map(|&l| BigUint::from(l)).collect())
                    .collect();
                assert_eq!(count, BigUint::from(expected.len()), "{heap} to {target}");
                assert_eq!(
                    listed,
                    expected[..expected.len().min(3)],
                    "{heap} to {target}"
                );
            }
        }
    }

    /// A heap position of any `HeapRule`, searched by the generic solver from
    /// the rule's moves alone (heaps kept sorted).
    struct Searched(HeapRule);
    impl ImpartialGame for Searched {
        type Position = Vec<u64>;
        fn moves(&self, heaps: &Vec<u64>, moves: &mut Vec<Vec<u64>>) {
            for (i, &heap) in heaps.iter().enumerate() {
                for heap_move in self.0.moves(heap) {
                    let mut next: Vec<u64> = heaps
                        .iter()
                        .enumerate()
                        .filter(|&(j, _)| j != i)
                        .map(|(_, &h)| h)
                        .collect();
                    next.extend(heap_move.leaves.iter().copied());
                    next.sort_unstable();
                    moves.push(next);
                }
            }
        }
    }

    #[test]
    fn named_games_agree_with_search() {
        for (name, rule) in [
            ("kayles", HeapRule::kayles()),
            ("dawson_kayles", HeapRule::dawsons_kayles()),
            ("grundy_game", HeapRule::GrundysGame),
            ("lasker", HeapRule::LaskersNim),
            ("rest_nim", HeapRule::RestNim),
            ("octal[0.137]", HeapRule::octal("0.137").unwrap()),
            ("octal[4.07]", HeapRule::octal("4.07").unwrap()),
            ("all_but[2, 3]", HeapRule::all_but([2, 3]).unwrap()),
        ] {
            let game = Searched(rule);
            let mut solver = Solver::new(&game);
            for a in 0..9u64 {
                for b in 0..7u64 {
                    let mut heaps = vec![a, b];
                    heaps.sort_unstable();
                    let answer = answer(&format!("{name}({a}, {b})"));
                    let nimber = solver.nimber(&heaps).unwrap();
                    assert_eq!(answer.nimber, Some(nimber.into()), "{name}({a}, {b})");
                    let winning = solver.winning_moves(&heaps).unwrap();
                    assert_eq!(
                        answer.winning_move_count,
                        winning.len().into(),
                        "{name}({a}, {b})"
                    );
                    for m in &answer.winning_moves {
                        assert_eq!(
                            self::answer(&answer.target(m)).outcome,
                            Outcome::PreviousPlayerWins
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn lasker_and_rest_nim_moves_agree_with_search_on_larger_heaps() {
        /// [`Searched`], told that heaps are independent components (so the
        /// solver searches single heaps, not every multiset of them).
        struct SearchedSum(Searched);
        impl ImpartialGame for SearchedSum {
            type Position = Vec<u64>;
            fn moves(&self, heaps: &Vec<u64>, moves: &mut Vec<Vec<u64>>) {
                self.0.moves(heaps, moves);
            }
            fn components(&self, heaps: &Vec<u64>) -> Option<Vec<Vec<u64>>> {
                (heaps.len() > 1).then(|| heaps.iter().map(|&h| vec![h]).collect())
            }
        }
        for (name, rule, last) in [
            ("lasker", HeapRule::LaskersNim, 48u64),
            ("rest_nim", HeapRule::RestNim, 14),
        ] {
            let game = SearchedSum(Searched(rule));
            let mut solver = Solver::new(&game);
            for a in 1..=last {
                for b in [0, 1, 2, 3, 5, 8, a / 2, a - 1] {
                    let mut heaps = vec![a, b];
                    heaps.sort_unstable();
                    let answer = answer(&format!("{name}({a}, {b})"));
                    let winning = solver.winning_moves(&heaps).unwrap();
                    assert_eq!(
                        answer.winning_move_count,
                        winning.len().into(),
                        "{name}({a}, {b})"
                    );
                    // The same moves (their order is checked in `games::lasker`).
                    let mut targets: Vec<Vec<u64>> = answer
                        .winning_moves
                        .iter()
                        .map(|m| {
                            let text = answer.target(m);
                            let inner = &text[name.len() + 1..text.len() - 1];
                            let mut heaps: Vec<u64> = inner
                                .split(", ")
                                .filter_map(|h| h.parse().ok())
                                .filter(|&h| h > 0)
                                .collect();
                            heaps.sort_unstable();
                            heaps
                        })
                        .collect();
                    let mut expected: Vec<Vec<u64>> = winning
                        .iter()
                        .map(|next| next.iter().copied().filter(|&h| h > 0).collect())
                        .collect();
                    targets.sort();
                    expected.sort();
                    assert_eq!(targets, expected, "{name}({a}, {b})");
                }
            }
        }
    }

    #[test]
    fn rest_nim_beyond_its_counting_limit_answers_and_says_the_moves_were_not_counted() {
        let found = answer("rest_nim(2000, 3)");
        assert_eq!(found.nimber, Some(BigUint::from(2000u32 ^ 3)));
        assert!(found.outcome.first_player_wins());
        assert!(!found.moves_counted);
        assert!(found.winning_moves.is_empty());
        let [note] = found.notes.as_slice() else {
            panic!("{:?}", found.notes);
        };
        assert!(
            note.contains("rest_nim(2000)") && note.contains("up to 1024"),
            "{note}"
        );
        // The heap of 3 is counted: its target 2000 ^ 3 ^ 3 is above it, so none.
        assert_eq!(found.winning_move_count, BigUint::zero());
        // A P-position needs no count; nor does a target above the heap.
        assert_eq!(
            answer("rest_nim(5000, 5000)").winning_move_count,
            BigUint::zero()
        );
        let answer = answer("rest_nim(5000) + nim(9000)");
        assert_eq!(answer.winning_move_count, BigUint::from(1u32));
        assert!(answer.moves_counted);
    }

    #[test]
    fn grundys_game_counts_every_heap_at_once_as_a_pass_over_its_splits_does() {
        // A sum of every heap 1..3000 with one nim-sum: past the first thousand or so
        // heaps the counts come from the convolution of every heap at once; each must
        // be what the pass over the heap's splits finds, and so must the moves listed.
        let heaps = 3000u32;
        let rules = SequenceRules::new(
            HeapRule::GrundysGame,
            Some(&BigUint::from(heaps)),
            BuildLimits::default(),
        );
        for nim_sum in [5u32, 0, 1] {
            for heap in 1..=heaps as usize {
                let target = rules.values.get(heap).unwrap() ^ nim_sum;
                let (count, listed) = rules
                    .heap_moves_to_nimber(
                        &BigUint::from(heap),
                        Wanted {
                            target: &BigUint::from(target),
                            max: 3,
                        },
                    )
                    .unwrap();
                let by_pass = unequal_split_count(&rules.values, heap, target);
                assert_eq!(
                    count,
                    BigUint::from(by_pass),
                    "heap {heap}, nim-sum {nim_sum}"
                );
                let expected: Vec<Vec<BigUint>> =
                    unequal_splits_listed(&rules.values, heap, target, 3)
                        .into_iter()
                        .map(|a| vec![BigUint::from(a), BigUint::from(heap as u64 - a)])
                        .collect();
                assert_eq!(listed, expected);
            }
            let table = rules.splits.lock().unwrap();
            assert!(table.counts.is_some(), "the counts were made at once");
        }
    }

    #[test]
    fn small_heaps_compute_only_their_values() {
        // A code leaving three heaps costs cubic time: a heap of 7 needs 8 values, not
        // the 4096 of a period search; a huge heap still searches for the period.
        let rule = HeapRule::octal("0.FB").unwrap();
        let small = SequenceRules::new(
            rule.clone(),
            Some(&BigUint::from(7u32)),
            BuildLimits::default(),
        );
        assert_eq!(small.values.len(), 8);
        assert!(small.periodicity.is_none());
        assert_eq!(answer("octal[0.FB](7)").nimber, Some(BigUint::from(6u32)));
        let kayles = HeapRule::octal("0.77").unwrap();
        let huge = SequenceRules::new(
            kayles,
            Some(&BigUint::from(10u32).pow(30)),
            BuildLimits::default(),
        );
        assert!(huge.periodicity.as_ref().is_some_and(Periodicity::proven));
        // 10^30 = 4 = 100 (mod 12), both past Kayles' preperiod 71.
        assert_eq!(
            answer("kayles(1000000000000000000000000000000)").nimber,
            answer("kayles(100)").nimber
        );
    }

    #[test]
    fn values_beyond_the_budget_are_refused_not_computed() {
        // 0.9 leaves three heaps (cubic time): 20000 values are far beyond the
        // budget of a position, 300 within it.
        let rule = HeapRule::octal("0.9").unwrap();
        let mut solver = SequenceSolver::new(rule.clone(), Method::SparseSpace);
        solver.extend_to(255);
        // The estimate the search was sized by.
        let model = CostModel::new(&rule, Method::SparseSpace, solver.values());
        let reason = SequenceRules::extend_within_budget(
            &rule,
            &mut solver,
            &BigUint::from(20_000u32),
            BuildLimits::default(),
        );
        let refusal = reason.expect_err("20000 values of 0.9 are over the budget");
        assert_eq!(refusal.raised_by, [Limit::Work, Limit::Memory]);
        let reason = refusal.reason;
        assert!(
            reason.contains("steps") && !reason.contains("--max"),
            "{reason}"
        );
        // It searched for a period only as far as the budget allows (0.9 shows
        // none).
        let searched = solver.values().len();
        let limits = BuildLimits::default();
        let budget = Cost {
            bytes: limits.bytes,
            steps: limits.work,
        };
        assert!(searched > 256 && searched < 20_000, "{searched}");
        assert!(model.cost(searched - 1).within(&budget), "{searched}");
        assert!(
            reason.contains(&format!("first {searched} values")),
            "{reason}"
        );
        let within = SequenceRules::extend_within_budget(
            &rule,
            &mut solver,
            &BigUint::from(300u32),
            BuildLimits::default(),
        );
        assert_eq!(within, Ok(None));
        assert_eq!(solver.values().len(), searched, "nothing more to compute");
        // A heap past ten million with no period proven (Officers): exit 3 with the
        // reason, after a search as far as the limit (10^7 by default, 2·10^4 here).
        let officers = crate::catalogue::BuildLimits {
            largest_heap: 20_000,
            ..crate::catalogue::BuildLimits::default()
        };
        let position = crate::catalogue::build_with(
            &parse("octal[0.6](20000000) + nim(1)").unwrap(),
            officers,
        )
        .unwrap();
        let error = solve(&position, &SolveOptions::default()).unwrap_err();
        let crate::theory::solver::SearchError::TheoryLimit { refusal } = error else {
            panic!("{error:?}");
        };
        let reason = &refusal.reason;
        assert!(reason.contains("only up to heap 20000"), "{reason}");
        assert!(reason.contains("first 20001 values"), "{reason}");
        assert_eq!(refusal.raised_by, [Limit::LargestHeap]);
        // Grundy's game has no known period: no search, the same limit named.
        let position = build(&parse("grundy_game(20000000)").unwrap()).unwrap();
        let error = solve(&position, &SolveOptions::default()).unwrap_err();
        let crate::theory::solver::SearchError::TheoryLimit { refusal } = error else {
            panic!("{error:?}");
        };
        assert!(refusal.reason.contains("no known period"), "{refusal:?}");
        assert_eq!(refusal.raised_by, [Limit::LargestHeap]);
        // The limits given to `build_with` are the ones applied.
        let refusal = |text: &str, limits| {
            let position = crate::catalogue::build_with(&parse(text).unwrap(), limits).unwrap();
            match solve(&position, &SolveOptions::default()) {
                Err(crate::theory::solver::SearchError::TheoryLimit { refusal }) => Some(refusal),
                Ok(_) => None,
                Err(error) => panic!("{error:?}"),
            }
        };
        let defaults = crate::catalogue::BuildLimits::default();
        let little_work = crate::catalogue::BuildLimits {
            work: 1_000,
            ..defaults
        };
        let small_heaps = crate::catalogue::BuildLimits {
            largest_heap: 5_000,
            ..defaults
        };
        let found = refusal("octal[0.9](4200) + nim(1)", little_work).expect("over 1000 steps");
        assert!(found.reason.contains("1.0e3 steps"), "{found:?}");
        assert_eq!(found.raised_by, [Limit::Work, Limit::Memory]);
        let found = refusal("octal[0.6](6000) + nim(1)", small_heaps).expect("over 5000");
        assert!(found.reason.contains("up to heap 5000"), "{found:?}");
        assert_eq!(found.raised_by, [Limit::LargestHeap]);
        assert_eq!(refusal("octal[0.6](6000) + nim(1)", defaults), None);
        // The defaults are back after each call.
        let position = build(&parse("octal[0.6](6000) + nim(1)").unwrap()).unwrap();
        assert!(solve(&position, &SolveOptions::default()).is_ok());
    }

    /// The same game with values computed `more` heaps past those of `periodic` and no
    /// period: its winning moves there come from enumerating every move.
    /// The moves of `heap` to `target` (the first `max` listed), counted from
    /// `periodic`'s period and by enumerating every move with `explicit`'s
    /// values (computed past the period's proof).
    fn both_ways(
        periodic: &SequenceRules,
        explicit: &SequenceRules,
        heap: &BigUint,
        target: &BigUint,
        max: usize,
    ) -> (HeapMovesTo, HeapMovesTo) {
        let by_period = periodic.periodic_moves_to(heap, target, max).unwrap();
        let by_enumeration = explicit
            .heap_moves_to_nimber(heap, Wanted { target, max })
            .unwrap();
        (by_period, by_enumeration)
    }

    fn computed_past(periodic: &SequenceRules, more: usize) -> SequenceRules {
        SequenceRules {
            values: crate::sequence::grundy_values(&periodic.rule, periodic.values.len() + more),
            periodicity: None,
            short: None,
            rule: periodic.rule.clone(),
            triple_span: periodic.triple_span,
            counter: OnceLock::new(),
            splits: Mutex::default(),
            bytes: periodic.bytes,
        }
    }

    #[test]
    fn huge_heaps_count_splits_by_residue_class() {
        // Check the periodic counting against enumeration on heaps just past the
        // computed values' reach: compare with a rules object that computed far enough.
        for code in ["0.77", "0.07", "0.137", "4.07", "0.6"] {
            let rule = HeapRule::octal(code).unwrap();
            let periodic = SequenceRules::new(rule.clone(), None, BuildLimits::default());
            let Some(periodicity) = periodic.periodicity.clone() else {
                continue;
            };
            // The same game with values computed past the heaps asked and no
            // period: its winning moves come from enumerating every split.
            let explicit = computed_past(&periodic, 3000);
            for heap in [
                periodic.values.len() + 1,
                periodic.values.len() + 777,
                periodic.values.len() + 2999,
            ] {
                let heap_big = BigUint::from(heap);
                for target in 0..8u32 {
                    let target = BigUint::from(target);
                    let (by_period, by_enumeration) =
                        both_ways(&periodic, &explicit, &heap_big, &target, 5);
                    assert_eq!(
                        by_period.0, by_enumeration.0,
                        "{code} heap {heap} target {target} ({periodicity:?})"
                    );
                    assert_eq!(
                        by_period.1, by_enumeration.1,
                        "{code} heap {heap} target {target}"
                    );
                }
            }
        }
    }

    /// Counts and first moves from the period agree with enumerating every move, on
    /// heaps just past the computed values (and `more` past them), for targets around
    /// each heap's value.
    fn check_moves_past_the_computed_values(code: &str, periodic: &SequenceRules, more: usize) {
        let explicit = computed_past(periodic, more);
        for heap in [
            periodic.values.len(),
            periodic.values.len() + more / 7,
            periodic.values.len() + more - 1,
        ] {
            let heap_big = BigUint::from(heap);
            let value = explicit.value(&heap_big).unwrap();
            assert_eq!(
                periodic.value(&heap_big),
                Some(value.clone()),
                "{code} {heap}"
            );
            let v = value.to_u64().unwrap();
            let targets = (0..6)
                .chain(v.saturating_sub(3)..=v + 3)
                .chain([v ^ 1, v ^ 5, v / 2]);
            for target in targets {
                let target = BigUint::from(target);
                let (by_period, by_enumeration) =
                    both_ways(periodic, &explicit, &heap_big, &target, 6);
                assert_eq!(
                    by_period, by_enumeration,
                    "{code} heap {heap} target {target}"
                );
            }
        }
    }

    #[test]
    fn three_heap_codes_count_splits_past_the_computed_values() {
        // Codes leaving three heaps, periodic (Guy-Smith) and arithmetic-periodic (level
        // test, saltus a power of two): counts and first moves agree with enumerating
        // every move, on heaps past the values the period was proven from.
        let mut arithmetic = 0;
        for code in [
            "0.B", "0.F", "0.A", "0.8", "0.08", "0.28", "0.C4", "0.AF", "0.E8", "0.FF",
        ] {
            let rule = HeapRule::octal(code).unwrap();
            let periodic = SequenceRules::new(
                rule,
                Some(&BigUint::from(10u32).pow(30)),
                BuildLimits::default(),
            );
            let periodicity = periodic.periodicity.clone().expect("proven");
            arithmetic += usize::from(periodicity.saltus > 0);
            check_moves_past_the_computed_values(code, &periodic, 400);
        }
        assert!(arithmetic >= 5, "the arithmetic-periodic codes are covered");
    }

    /// Three-heap splits look at `(L + p)^2` residue pairs: the span allowed follows
    /// the work and memory limits (3162 by default), and past it the moves are refused
    /// with the flags that raise it.
    #[test]
    fn the_triple_span_follows_the_limits() {
        let defaults = crate::catalogue::BuildLimits::default();
        assert_eq!(largest_triple_span(defaults.work, defaults.bytes), 3162);
        assert_eq!(largest_triple_span(30 * 10_000 * 10_000, u64::MAX), 10_000);
        assert_eq!(largest_triple_span(u64::MAX, 48 * 100), 10);
        let heap = BigUint::from(10u32).pow(30) + 7u32;
        let mut rules = SequenceRules::new(
            HeapRule::octal("0.28").unwrap(),
            Some(&heap),
            BuildLimits::default(),
        );
        let periodicity = rules.periodicity.clone().expect("proven");
        let span = periodicity.preperiod + periodicity.period;
        let target = BigUint::from(5u32);
        assert!(rules.periodic_moves_to(&heap, &target, 3).is_some());
        rules.triple_span = span - 1;
        assert!(rules.periodic_moves_to(&heap, &target, 3).is_none());
        let refusal = rules.heap_moves_to_nimber_refusal(&heap, &target).unwrap();
        assert!(
            refusal.reason.contains(&format!("at most {}", span - 1)),
            "{refusal:?}"
        );
        assert_eq!(refusal.raised_by, [Limit::Work, Limit::Memory]);
    }

    #[test]
    fn codes_proven_by_the_automaton_count_splits_past_the_computed_values() {
        // Codes whose values pass the saltus from the start, proven by the automaton
        // test only: the residue classes have floors above 0. 0.3F's saltus is 3,
        // not a power of two: its splits are counted by the product equations.
        for code in [
            "0.0B", "0.1A", "0.8B", "0.9C", "0.BA", "0.CF", "0.FB", "0.FE", "0.3F",
        ] {
            let rule = HeapRule::octal(code).unwrap();
            let periodic = SequenceRules::new(
                rule,
                Some(&BigUint::from(10u32).pow(30)),
                BuildLimits::default(),
            );
            let periodicity = periodic.periodicity.clone().expect("proven");
            assert!(
                matches!(periodicity.proof, Proof::AutomatonTest { .. }),
                "{code}: {periodicity:?}"
            );
            check_moves_past_the_computed_values(code, &periodic, 300);
        }
    }

    #[test]
    fn a_long_period_is_searched_for_and_counts_pairs() {
        // 0.16 (Gangolli and Plambeck): period 149459 from heap 105351, proven only
        // from about 5·10^5 values. A huge heap makes the build search that far; its
        // two-heap splits are counted over the 149459 residues, and agree with
        // enumerating every move of heaps past the values the period was proven from.
        let rule = HeapRule::octal("0.16").unwrap();
        let periodic = SequenceRules::new(
            rule,
            Some(&BigUint::from(10u32).pow(40)),
            BuildLimits::default(),
        );
        let periodicity = periodic.periodicity.clone().expect("proven by the search");
        assert_eq!(
            (
                periodicity.preperiod,
                periodicity.period,
                periodicity.saltus
            ),
            (105_351, 149_459, 0)
        );
        let explicit = computed_past(&periodic, 200_001);
        for heap in [
            periodic.values.len(),
            periodic.values.len() + 77_777,
            periodic.values.len() + 200_000,
        ] {
            let heap_big = BigUint::from(heap);
            let value = explicit.value(&heap_big).unwrap();
            assert_eq!(periodic.value(&heap_big), Some(value.clone()), "{heap}");
            let v = value.to_u64().unwrap();
            for target in [0, 1, v, v ^ 1, v + 1, 7] {
                let target = BigUint::from(target);
                let (by_period, by_enumeration) =
                    both_ways(&periodic, &explicit, &heap_big, &target, 5);
                assert_eq!(by_period, by_enumeration, "heap {heap} target {target}");
            }
        }
    }

    #[test]
    fn all_but_heaps_past_the_computed_values_answer_from_the_period() {
        for excluded in [&[1u32][..], &[1, 2], &[2, 5], &[1, 3, 4], &[3, 5, 6]] {
            let rule = HeapRule::all_but(excluded.iter().copied()).unwrap();
            let periodic = SequenceRules::new(rule.clone(), None, BuildLimits::default());
            let periodicity = periodic.periodicity.clone().expect("proven");
            assert!(matches!(periodicity.proof, Proof::WindowTest { .. }));
            let explicit = computed_past(&periodic, 3000);
            for heap in [
                periodic.values.len(),
                periodic.values.len() + 1,
                periodic.values.len() + 1234,
                periodic.values.len() + 2999,
            ] {
                let heap_big = BigUint::from(heap);
                let value = explicit.value(&heap_big).unwrap();
                assert_eq!(periodic.value(&heap_big), Some(value.clone()));
                // Targets all over: far below, just below, the value itself, above.
                let mut targets: Vec<u64> = (0..12).collect();
                let v = value.to_u64().unwrap();
                targets.extend(v.saturating_sub(12)..=v + 2);
                for target in targets {
                    let target = BigUint::from(target);
                    let (by_period, by_enumeration) =
                        both_ways(&periodic, &explicit, &heap_big, &target, 4);
                    assert_eq!(by_period, by_enumeration, "{excluded:?} {heap} {target}");
                }
            }
        }
    }

    #[test]
    fn kayles_of_a_huge_heap_answers_from_the_period() {
        let heap = "1".repeat(100);
        let answer = answer(&format!("kayles({heap})"));
        // 11...1 (100 ones) ≡ 79 in Kayles' period, and G(79) = 2.
        assert_eq!(answer.nimber, Some(2u32.into()));
        assert_eq!(answer.method, "proven period (Guy-Smith)");
        assert!(answer.winning_move_count > BigUint::from(10u32).pow(90));
        for m in answer.winning_moves.iter().take(5) {
            let next = self::answer(&answer.target(m));
            assert_eq!(
                next.outcome,
                Outcome::PreviousPlayerWins,
                "{}",
                answer.target(m)
            );
        }
    }

    #[test]
    fn bad_codes_are_refused_with_the_reason() {
        let error = build(&parse("octal[0.G](3)").unwrap()).unwrap_err();
        assert!(
            error.message.starts_with("invalid code `0.G`"),
            "{}",
            error.message
        );
        assert_eq!(error.span.start, 6);
        let error = build(&parse("octal(3)").unwrap()).unwrap_err();
        assert_eq!(error.message, "`octal` takes one parameter: the code");
        assert!(build(&parse("kayles[1](3)").unwrap()).is_err());
        assert!(build(&parse("all_but[0](3)").unwrap()).is_err());
    }
}
