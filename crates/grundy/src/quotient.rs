//! Misère quotients of heap games (Plambeck, "Taming the wild in impartial
//! combinatorial games", INTEGERS 5 (2005) G05; Plambeck and Siegel, "Misère
//! quotients for impartial games", JCTA 115 (2008), arXiv math/0609825).
//!
//! Under misère play (whoever moves last loses) a sum's outcome is not a
//! function of its parts' nimbers. The misère quotient restores an algebra: take
//! the positions `A` of a heap rule with heaps of at most `N` tokens (every sum
//! of such heaps: closed under moves and sums), and call two of them equivalent
//! when no third position of `A` tells them apart,
//!
//! `G ≡ H  ⟺  o⁻(G + X) = o⁻(H + X) for every X in A`.
//!
//! The classes form a commutative monoid `Q` (the sum of positions is the
//! product of classes); the classes of P-positions are its *P-portion*. A sum of
//! heaps is then answered by multiplying the classes of its heaps and asking
//! whether the product lies in the P-portion, as Nim's nim-sum answers normal
//! play. Every quotient of an impartial game has even order (Plambeck-Siegel).
//!
//! **How it is computed** (the `automaton` module): heap by heap, as Plambeck and Siegel
//! do, the quotient for heaps `<= n - 1` is extended by heap `n`. A heap whose
//! options have the classes of an earlier heap's options is that heap's class
//! at once. Otherwise it is tried as each element already there (a
//! conservative extension), and then as a new generator beside the old
//! quotient, mended by Siegel's *recalibration* (the method of his
//! MisereSolver): while the candidate fails the check, its least failing sum
//! is a sum whose heaps it reads too coarsely, and some of those heaps are
//! given cyclic generators of their own. Each candidate's outcomes come from
//! its least words, and the one kept has passed a finite verification that
//! holds exactly when it predicts every sum's outcome; its minimal automaton
//! is the quotient. No outcome is ever taken from a guess. When no
//! recalibration mends a failure, the construction stops and says so: the
//! quotient may be infinite, or beyond what recalibration finds.
//!
//! **QuotientPeriodicity** (the `periodicity` module): when the heap map (the class of each
//! heap) is periodic far enough, the quotient holds for heaps of every size
//! (our proof of Plambeck and Siegel's periodicity theorem, with its bound,
//! in that module).

mod automaton;
pub mod genus;
mod periodicity;
pub mod play;
mod presentation;
pub mod report;

use std::fmt;

use rustc_hash::FxHashSet;

use crate::rules::HeapRule;
use crate::theory::cancel::checkpoint;
use crate::theory::limits::SearchError;

use automaton::{Dfa, Stop};
pub use periodicity::QuotientPeriodicity;
pub use presentation::Presentation;

/// The most tokens `grundy quotient` and the misère solver build a quotient
/// for: the options of every heap up to it are listed.
pub const MAX_HEAP: u64 = 100_000;

/// A verified misère quotient of a heap rule restricted to heaps of at most
/// [`MisereQuotient::heaps`] tokens.
#[derive(Clone, Debug)]
pub struct MisereQuotient {
    rule: HeapRule,
    heaps: u64,
    order: usize,
    /// `mul[a * order + b]`; element 0 is the identity (the empty position).
    mul: Vec<u32>,
    p_portion: Vec<bool>,
    /// The class of each heap `0..=heaps`.
    heap_map: Vec<u32>,
    /// The order of the quotient for heaps `<= k`, for `k = 0..=heaps`.
    orders: Vec<usize>,
    periodicity: Option<QuotientPeriodicity>,
}

/// How the construction of a quotient is bounded.
#[derive(Clone, Copy, Debug)]
pub struct QuotientLimits {
    /// The most bytes its automata may hold.
    pub max_bytes: u64,
    /// The largest order (number of elements) it may reach.
    pub max_order: usize,
    /// The most pair transitions its verifications may compute in all (a bound
    /// on its time that is the same on every machine).
    pub max_work: u64,
}

impl QuotientLimits {
    fn budget(self) -> automaton::Budget {
        automaton::Budget {
            max_bytes: self.max_bytes,
            work_left: std::cell::Cell::new(self.max_work),
            max_work: self.max_work,
        }
    }
}

impl Default for QuotientLimits {
    fn default() -> Self {
        Self {
            max_bytes: 1 << 30,
            max_order: 1 << 16,
            max_work: u64::MAX,
        }
    }
}

/// Why a quotient could not be computed up to the heap asked.
#[derive(Debug, Clone)]
pub struct QuotientError {
    /// What stopped it.
    pub error: SearchError,
    /// The heap whose extension failed (the quotient is known below it).
    pub heap: u64,
    /// The orders of the quotients for heaps `<= k`, `k = 0..heap`.
    pub orders: Vec<usize>,
}

impl fmt::Display for QuotientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the quotient could not be extended to heap {}: {}",
            self.heap, self.error
        )
    }
}

/// The distinct options of heap `h` under `rule`, each the sorted letters
/// (heap `k` is letter `k - 1`) of the heaps it leaves.
fn heap_options(rule: &HeapRule, h: u64) -> Result<Vec<Vec<u32>>, SearchError> {
    let mut seen: FxHashSet<Vec<u32>> = FxHashSet::default();
    let mut options = Vec::new();
    for (i, m) in rule.moves(h).enumerate() {
        if i % 4096 == 0 {
            checkpoint()?;
        }
        let mut word: Vec<u32> = m
            .leaves
            .iter()
            .filter(|&&leaf| leaf > 0)
            .map(|&leaf| (leaf - 1) as u32)
            .collect();
        word.sort_unstable();
        if seen.insert(word.clone()) {
            options.push(word);
        }
    }
    Ok(options)
}

/// A finite commutative monoid with its P-portion, as built so far.
struct Monoid {
    order: usize,
    mul: Vec<u32>,
    p: Vec<bool>,
}

impl Monoid {
    fn trivial() -> Self {
        // The empty position is an N-position under misère play.
        Self {
            order: 1,
            mul: vec![0],
            p: vec![false],
        }
    }

    fn times(&self, a: u32, b: u32) -> u32 {
        self.mul[a as usize * self.order + b as usize]
    }

    /// The automaton reading letter `l` as multiplying by `image[l]`.
    fn automaton(&self, image: &[u32]) -> Dfa {
        let letters = image.len();
        let mut delta = Vec::with_capacity(self.order * letters);
        for q in 0..self.order as u32 {
            delta.extend(image.iter().map(|&g| self.times(q, g)));
        }
        Dfa {
            states: self.order,
            letters,
            delta,
            accept: self.p.clone(),
        }
    }

    /// The monoid of a verified, minimal, commutative automaton: its states,
    /// multiplied by reading a word of the second factor.
    fn of_automaton(dfa: &Dfa) -> Result<Self, SearchError> {
        let order = dfa.states;
        // A shortest word reaching each state: its parent and last letter.
        let mut parent = vec![(u32::MAX, 0u32); order];
        let mut queue = std::collections::VecDeque::from([0u32]);
        let mut seen = vec![false; order];
        seen[0] = true;
        let mut by_distance = vec![0u32];
        while let Some(q) = queue.pop_front() {
            for l in 0..dfa.letters as u32 {
                let to = dfa.step(q, l);
                if !seen[to as usize] {
                    seen[to as usize] = true;
                    parent[to as usize] = (q, l);
                    by_distance.push(to);
                    queue.push_back(to);
                }
            }
        }
        let mut mul = vec![0u32; order * order];
        for a in 0..order {
            checkpoint()?;
            mul[a * order] = a as u32;
            for &b in &by_distance[1..] {
                let (up, l) = parent[b as usize];
                mul[a * order + b as usize] = dfa.step(mul[a * order + up as usize], l);
            }
        }
        Ok(Self {
            order,
            mul,
            p: dfa.accept.clone(),
        })
    }
}

/// Builds the quotient of `rule` heap by heap up to heap `heaps`, or, when
/// `until_proven`, stopping as soon as the heap map is proven periodic.
///
/// # Errors
/// A [`QuotientError`] naming the limit reached and the orders found before.
pub fn compute(
    rule: &HeapRule,
    heaps: u64,
    until_proven: bool,
    limits: QuotientLimits,
) -> Result<MisereQuotient, QuotientError> {
    compute_reporting(rule, heaps, until_proven, limits, &mut |_, _| {})
}

/// As [`compute`], calling `on_heap(n, order)` once heap `n` is added and the
/// quotient of heaps `<= n` has `order` elements: the progress of a long
/// construction, for a front end to show.
///
/// # Errors
/// As [`compute`].
pub fn compute_reporting(
    rule: &HeapRule,
    heaps: u64,
    until_proven: bool,
    limits: QuotientLimits,
    on_heap: &mut dyn FnMut(u64, usize),
) -> Result<MisereQuotient, QuotientError> {
    let heaps = heaps.min(MAX_HEAP);
    let mut builder = Builder::new(limits);
    let mut orders = vec![1usize];
    let mut periodicity = None;
    let fail = |error: SearchError, heap: u64, orders: &Vec<usize>| QuotientError {
        error,
        heap,
        orders: orders.clone(),
    };
    for n in 1..=heaps {
        let opts = heap_options(rule, n).map_err(|e| fail(e, n, &orders))?;
        builder.add(opts).map_err(|e| fail(e, n, &orders))?;
        orders.push(builder.monoid.order);
        on_heap(n, builder.monoid.order);
        if until_proven {
            let map = heap_map(&builder.image);
            if let Some(found) = QuotientPeriodicity::find(rule, &map) {
                periodicity = Some(found);
                break;
            }
        }
    }
    let heap_map = heap_map(&builder.image);
    if periodicity.is_none() {
        periodicity = QuotientPeriodicity::find(rule, &heap_map);
    }
    let monoid = builder.monoid;
    Ok(MisereQuotient {
        rule: rule.clone(),
        heaps: heap_map.len() as u64 - 1,
        order: monoid.order,
        mul: monoid.mul,
        p_portion: monoid.p,
        heap_map,
        orders,
        periodicity,
    })
}

/// A quotient being built letter by letter: the verified monoid, the class of
/// each letter so far, the letters' options, and what extending it reuses.
struct Builder {
    monoid: Monoid,
    /// `image[l]`: the class of letter `l`.
    image: Vec<u32>,
    options: Vec<Vec<Vec<u32>>>,
    known: Known,
    limits: QuotientLimits,
    budget: automaton::Budget,
}

impl Builder {
    fn new(limits: QuotientLimits) -> Self {
        Self {
            monoid: Monoid::trivial(),
            image: Vec::new(),
            options: Vec::new(),
            known: Known::default(),
            limits,
            budget: limits.budget(),
        }
    }

    /// Extends the quotient by a letter whose options are words over the
    /// letters before it.
    fn add(&mut self, options: Vec<Vec<u32>>) -> Result<(), SearchError> {
        self.options.push(options);
        extend(
            &mut self.monoid,
            &mut self.image,
            &self.options,
            self.limits,
            &self.budget,
            &mut self.known,
        )
    }
}

fn heap_map(image: &[u32]) -> Vec<u32> {
    std::iter::once(0).chain(image.iter().copied()).collect()
}

/// The classes of the options of a heap (sorted, without repeats).
fn option_classes(monoid: &Monoid, image: &[u32], options: &[Vec<u32>]) -> Vec<u32> {
    let mut classes: Vec<u32> = options
        .iter()
        .map(|word| {
            word.iter()
                .fold(0u32, |q, &l| monoid.times(q, image[l as usize]))
        })
        .collect();
    classes.sort_unstable();
    classes.dedup();
    classes
}

/// The class of each set of option classes met so far under the current
/// monoid: a heap whose options have the same classes as an earlier heap's is
/// the same letter for the verification (same class, same options), so it
/// extends the quotient without a new check.
#[derive(Default)]
struct Known(rustc_hash::FxHashMap<Vec<u32>, u32>);

impl Known {
    fn rebuild(&mut self, monoid: &Monoid, image: &[u32], options: &[Vec<Vec<u32>>]) {
        self.0.clear();
        for (l, opts) in options.iter().enumerate() {
            if !opts.is_empty() {
                self.0
                    .entry(option_classes(monoid, image, opts))
                    .or_insert(image[l]);
            }
        }
    }
}

/// Extends the verified quotient `monoid` for heaps `1..n` with heap classes
/// `image` to heaps `1..=n` (`options.len() == n`), in place.
fn extend(
    monoid: &mut Monoid,
    image: &mut Vec<u32>,
    options: &[Vec<Vec<u32>>],
    limits: QuotientLimits,
    budget: &automaton::Budget,
    known: &mut Known,
) -> Result<(), SearchError> {
    let n = options.len();
    let new_options = &options[n - 1];
    if new_options.is_empty() {
        // A heap without moves changes no sum: it is the identity.
        image.push(0);
        return Ok(());
    }
    let classes = option_classes(monoid, image, new_options);
    if let Some(&class) = known.0.get(&classes) {
        image.push(class);
        return Ok(());
    }
    match extension(monoid, image, options, limits, budget)? {
        Extension::Same(class) => {
            image.push(class);
            known.0.insert(classes, class);
        }
        Extension::New(next, next_image) => {
            *monoid = next;
            *image = next_image;
            known.rebuild(monoid, image, options);
        }
    }
    Ok(())
}

/// How heap `n` extends the quotient.
enum Extension {
    /// As an element already there.
    Same(u32),
    /// With a new monoid and new heap classes.
    New(Monoid, Vec<u32>),
}

/// The extension of the verified quotient for heaps `1..n` to heap `n`.
fn extension(
    monoid: &Monoid,
    image: &[u32],
    options: &[Vec<Vec<u32>>],
    limits: QuotientLimits,
    budget: &automaton::Budget,
) -> Result<Extension, SearchError> {
    let n = options.len();
    let new_options = &options[n - 1];
    let mut image = image.to_vec();
    // The heap alone is a P-position iff all its options are N-positions.
    let class_of = |word: &[u32]| {
        word.iter()
            .fold(0u32, |q, &l| monoid.times(q, image[l as usize]))
    };
    let heap_is_p = new_options.iter().all(|o| !monoid.p[class_of(o) as usize]);
    // A conservative extension: heap n equal to an element already there.
    image.push(0);
    for x in 0..monoid.order as u32 {
        if monoid.p[x as usize] != heap_is_p {
            continue;
        }
        checkpoint()?;
        image[n - 1] = x;
        let dfa = monoid.automaton(&image);
        let checked = automaton::pairs(&dfa, options, &Stop::AtFirstFailure, budget)?;
        if checked.first_failure.is_none() {
            return Ok(Extension::Same(x));
        }
    }
    // Heap n as a new generator beside the old quotient (which reads it as
    // the identity), recalibrated until the check passes.
    image[n - 1] = 0;
    match recalibrated(&monoid.automaton(&image), options, limits, budget)? {
        Some(dfa) => {
            let (monoid, image) = finish(&dfa, options, n, limits, budget)?;
            Ok(Extension::New(monoid, image))
        }
        None => Err(SearchError::StateLimit {
            limit: limits.max_order,
        }),
    }
}

/// How many recalibrations one heap may take before the construction gives up.
const MAX_RECALIBRATIONS: usize = 64;

/// Siegel's recalibration (as MisereSolver does it): start from `old` (the old
/// quotient, reading heap `n` as the identity) beside a new generator for heap
/// `n`, and while the candidate fails
/// the check, mend it at its least failure `w`. The candidate is right on
/// every word below `w`, so `w`'s true outcome is the opposite of the
/// candidate's: some heaps of `w` are read by too coarse a class. For each set
/// of `w`'s heaps, fewest first, those heaps are taken out of the candidate
/// and each given a cyclic generator of its own, long enough to count its
/// copies in `w`; the first such candidate (labelled by least words and
/// minimized) that gets `w` right is the next one. `None` when no set mends
/// the failure or the recalibrations run out.
fn recalibrated(
    old: &Dfa,
    options: &[Vec<Vec<u32>>],
    limits: QuotientLimits,
    budget: &automaton::Budget,
) -> Result<Option<Dfa>, SearchError> {
    let n = options.len();
    let max_states = limits.max_order.saturating_mul(16);
    let new_heap = Counter {
        letter: n as u32 - 1,
        index: 2,
        period: 2,
    };
    let Some(mut trial) = counted(old, &[new_heap], options, max_states, budget)? else {
        return Ok(None);
    };
    for _ in 0..MAX_RECALIBRATIONS {
        let Some(failure) = automaton::least_failure(&trial, options, budget)? else {
            return Ok(trial.is_commutative().then_some(trial));
        };
        let wrong = trial.accept[trial.read(0, &failure) as usize];
        let mut heaps: Vec<u32> = failure.clone();
        heaps.dedup();
        heaps.retain(|&h| !options[h as usize].is_empty());
        let mut mended = None;
        'sets: for size in 1..=heaps.len() {
            for set in subsets(&heaps, size) {
                checkpoint()?;
                let counters: Vec<Counter> = set
                    .iter()
                    .map(|&h| Counter::covering(&trial, h, &failure))
                    .collect();
                let Some(next) = counted(&trial, &counters, options, max_states, budget)? else {
                    continue;
                };
                if next.accept[next.read(0, &failure) as usize] != wrong {
                    mended = Some(next);
                    break 'sets;
                }
            }
        }
        match mended {
            Some(next) => trial = next,
            None => return Ok(None),
        }
    }
    Ok(None)
}

/// A cyclic generator `x` with `x^(index + period) = x^index` read by one
/// letter.
#[derive(Clone, Copy)]
struct Counter {
    letter: u32,
    index: u32,
    period: u32,
}

impl Counter {
    /// A counter for heap `h` at least as fine as its class in `trial` (the
    /// index and period of that element, the period made even) and able to
    /// count the copies of `h` in `failure`.
    fn covering(trial: &Dfa, h: u32, failure: &[u32]) -> Self {
        let mut first_seen = vec![u32::MAX; trial.states];
        let mut q = 0u32;
        let mut power = 0u32;
        while first_seen[q as usize] == u32::MAX {
            first_seen[q as usize] = power;
            q = trial.step(q, h);
            power += 1;
        }
        let index = first_seen[q as usize];
        let period = power - index;
        let copies = failure.iter().filter(|&&l| l == h).count() as u32;
        Self {
            letter: h,
            index: index.max(copies.saturating_sub(1)),
            period: period.max(2).next_multiple_of(2),
        }
    }

    fn powers(self) -> u32 {
        self.index + self.period
    }

    fn times_x(self, c: u32) -> u32 {
        if c + 1 < self.powers() {
            c + 1
        } else {
            self.index
        }
    }
}

/// The candidate `base × ⟨x_1⟩ × ... × ⟨x_k⟩`: the counters' letters read by
/// their generators only, every other letter by `base`; its reachable part,
/// labelled by least words and minimized. `None` past `max_states`.
fn counted(
    base: &Dfa,
    counters: &[Counter],
    options: &[Vec<Vec<u32>>],
    max_states: usize,
    budget: &automaton::Budget,
) -> Result<Option<Dfa>, SearchError> {
    let letters = base.letters;
    let mut counter_of = vec![usize::MAX; letters];
    for (i, c) in counters.iter().enumerate() {
        counter_of[c.letter as usize] = i;
    }
    let mut number: rustc_hash::FxHashMap<Vec<u32>, u32> = rustc_hash::FxHashMap::default();
    let start = vec![0u32; counters.len() + 1];
    number.insert(start.clone(), 0);
    let mut states = vec![start];
    let mut delta = Vec::new();
    let mut at = 0;
    while at < states.len() {
        if at % 1024 == 0 {
            checkpoint()?;
        }
        let state = states[at].clone();
        at += 1;
        budget.charge(letters as u64)?;
        for (l, &counter) in counter_of.iter().enumerate() {
            let mut next = state.clone();
            match counter {
                usize::MAX => next[0] = base.step(state[0], l as u32),
                i => next[i + 1] = counters[i].times_x(state[i + 1]),
            }
            let fresh = states.len() as u32;
            let id = *number.entry(next.clone()).or_insert(fresh);
            if id == fresh {
                if states.len() >= max_states {
                    return Ok(None);
                }
                states.push(next);
            }
            delta.push(id);
        }
    }
    let mut dfa = Dfa {
        states: states.len(),
        letters,
        delta,
        accept: vec![false; states.len()],
    };
    dfa.relabel(options, budget)?;
    Ok(Some(dfa.minimized()?))
}

/// The subsets of `items` with `size` elements, in lexicographic order.
fn subsets(items: &[u32], size: usize) -> Vec<Vec<u32>> {
    if size == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        for mut rest in subsets(&items[i + 1..], size - 1) {
            rest.insert(0, first);
            all.push(rest);
        }
    }
    all
}

/// The monoid of a candidate that passed the check, minimized.
fn finish(
    dfa: &Dfa,
    options: &[Vec<Vec<u32>>],
    letters: usize,
    limits: QuotientLimits,
    budget: &automaton::Budget,
) -> Result<(Monoid, Vec<u32>), SearchError> {
    let checked = automaton::pairs(dfa, options, &Stop::Never, budget)?;
    let minimal = checked.minimized()?;
    let monoid = Monoid::of_automaton(&minimal)?;
    if monoid.order > limits.max_order {
        return Err(SearchError::StateLimit {
            limit: limits.max_order,
        });
    }
    let image = (0..letters as u32).map(|l| minimal.step(0, l)).collect();
    Ok((monoid, image))
}

impl MisereQuotient {
    /// The rule whose quotient this is.
    pub const fn rule(&self) -> &HeapRule {
        &self.rule
    }

    /// The largest heap computed.
    pub const fn heaps(&self) -> u64 {
        self.heaps
    }

    /// The number of elements.
    pub const fn order(&self) -> usize {
        self.order
    }

    /// The bytes the quotient holds on the heap: its multiplication table,
    /// P-portion, heap map and orders.
    pub(crate) fn held_bytes(&self) -> usize {
        self.mul.len() * std::mem::size_of::<u32>()
            + self.p_portion.len()
            + self.heap_map.len() * std::mem::size_of::<u32>()
            + self.orders.len() * std::mem::size_of::<usize>()
    }

    /// The product of two elements (element 0 is the identity).
    pub fn times(&self, a: u32, b: u32) -> u32 {
        self.mul[a as usize * self.order + b as usize]
    }

    /// Whether an element is in the P-portion (its positions are misère
    /// P-positions).
    pub fn is_p(&self, element: u32) -> bool {
        self.p_portion[element as usize]
    }

    /// The elements of the P-portion.
    pub fn p_portion(&self) -> Vec<u32> {
        (0..self.order as u32).filter(|&e| self.is_p(e)).collect()
    }

    /// The class of each heap `0..=heaps()`.
    pub fn heap_map(&self) -> &[u32] {
        &self.heap_map
    }

    /// The orders of the quotients for heaps `<= k`, `k = 0..=heaps()`.
    pub fn orders(&self) -> &[usize] {
        &self.orders
    }

    /// The periodicity that proves this quotient for heaps of every size, if
    /// one was found.
    pub const fn periodicity(&self) -> Option<&QuotientPeriodicity> {
        self.periodicity.as_ref()
    }

    /// The class of a heap of `size` tokens: from the heap map, or beyond it
    /// by the proven period; `None` when the heap is beyond what is known.
    pub fn heap_class(&self, size: &num_bigint::BigUint) -> Option<u32> {
        use num_traits::ToPrimitive;
        if let Some(small) = size.to_u64().filter(|&s| s <= self.heaps) {
            return Some(self.heap_map[small as usize]);
        }
        let period = self.periodicity.as_ref()?;
        let start = num_bigint::BigUint::from(period.preperiod);
        let offset = ((size - &start) % period.period).to_u64()?;
        Some(self.heap_map[(period.preperiod + offset) as usize])
    }

    /// [`Self::heap_class`] of a heap given as a machine word.
    pub fn small_heap_class(&self, size: u64) -> Option<u32> {
        if size <= self.heaps {
            return Some(self.heap_map[size as usize]);
        }
        let period = self.periodicity.as_ref()?;
        let offset = (size - period.preperiod) % period.period;
        Some(self.heap_map[(period.preperiod + offset) as usize])
    }

    /// The full multiplication table, row by row.
    pub fn table(&self) -> Vec<Vec<u32>> {
        self.mul.chunks(self.order).map(<[u32]>::to_vec).collect()
    }

    /// Generators (one per new heap class), relations and normal forms.
    pub fn presentation(&self) -> Presentation {
        Presentation::of(self)
    }
}

#[cfg(test)]
mod tests;
