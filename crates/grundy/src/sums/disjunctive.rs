//! Plain disjunctive sums, under normal play by the Sprague-Grundy theorem and
//! under misère play by a search of the whole sum (see [`crate::analysis`] for
//! the theorem and its sources). `every(...)` and `rounds[k](...)` are played
//! elsewhere ([`crate::sums::every_sg`], [`crate::sums::rounds`]).

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};

use num_bigint::BigUint;
use num_traits::Zero;
use rayon::prelude::*;

use crate::family::{Part, PositionSearch, SearchedNimbers};
use crate::quotient::{self, MisereQuotient, QuotientLimits};
use crate::sums::answer::{Answer, SearchCost, SolveOptions, WinningMove};
use crate::sums::explorer::Explorer;
use crate::sums::explorer::{GraphGame, Multiset, SlotGame};
use crate::sums::position::{Position, PositionText};
use crate::theory::cancel::{self, Cancel};
use crate::theory::game::{Convention, ImpartialGame, Outcome};
use crate::theory::solver::{Budget, SearchError, Solver, parallel};

/// How a component's nimber is known.
enum Known {
    Theory(BigUint),
    Node(u32),
    /// Found by the family's own search, with every option's nimber.
    Searched(SearchedNimbers<Part>),
    /// Found by the family's own search, which is kept to find the moves to a
    /// given nimber afterwards.
    Searching(Box<dyn PositionSearch<Part>>, BigUint),
    /// Not known, but at least this by theory (the family's search would not
    /// fit the budget): see [`Floor`].
    AtLeast(BigUint),
}

/// Answers a plain sum (no `every(...)` or `rounds[k](...)`) under its convention.
///
/// # Errors
/// As [`crate::analysis::solve`].
pub(crate) fn solve_sum(
    position: &Position,
    options: &SolveOptions,
) -> Result<Answer, SearchError> {
    match position.convention {
        Convention::Normal => solve_normal(position, options),
        Convention::Misere => solve_misere(position, options),
    }
}

/// The most components the search for the nimber of a lone component whose
/// outcome is known by theory explores (a tenth of a second or so), within the
/// state limit: the answer is already exact without it, and for the walking
/// games on large graphs the search is hopeless, so it must give up fast.
const ALONE_NIMBER_SEARCH_LIMIT: usize = 1 << 16;

/// A position of one component whose outcome and winning moves are known by
/// theory though its nimber may not be: the nimber is 0 for a P-position, and
/// otherwise found by a bounded search of the component alone, or said to be
/// unknown and why. A search stopped by a deadline or a cancellation is that
/// error, never an answer whose nimber is "not searched": only the limits
/// that do not depend on time (states, memory) leave the nimber unknown.
///
/// # Errors
/// [`SearchError::Cancelled`] when the search of the nimber was stopped.
fn solve_alone(position: &Position, options: &SolveOptions) -> Result<Option<Answer>, SearchError> {
    let [group] = position.groups.as_slice() else {
        return Ok(None);
    };
    let [part] = group.parts.as_slice() else {
        return Ok(None);
    };
    if part.nimber_by_theory().is_some() {
        return Ok(None);
    }
    let Some(alone) = part.outcome_by_theory(options.max_moves) else {
        return Ok(None);
    };
    let mut notes = Vec::new();
    let nimber = if alone.outcome == Outcome::PreviousPlayerWins {
        Some(BigUint::zero())
    } else {
        let budget = Budget {
            states: options.max_states.min(ALONE_NIMBER_SEARCH_LIMIT),
            ..options.budget()
        };
        let searched = match part.nimber_by_search(options.budget()) {
            Some(found) => found,
            None => nimber_by_search(part, budget).map(BigUint::from),
        };
        match searched {
            Ok(nimber) => Some(nimber),
            Err(SearchError::Cancelled) => return Err(SearchError::Cancelled),
            Err(error) => {
                let known = match part.nimber_floor_by_theory(options.budget()) {
                    Some((floor, method)) => {
                        format!("is at least {floor} by theory ({method}), but")
                    }
                    None => "has no closed form and".to_owned(),
                };
                notes.push(format!(
                    "the nimber {known} was not searched: {error} \
                     (the outcome and the winning moves are exact)"
                ));
                None
            }
        }
    };
    let moves: Vec<WinningMove> = alone
        .winning
        .listed
        .into_iter()
        .take(options.max_moves)
        .map(|leaves| WinningMove::in_component(part, 0, 0, leaves))
        .collect();
    let truncated = alone.winning.count > BigUint::from(moves.len());
    Ok(Some(Answer {
        position: PositionText::new(position),
        convention: Convention::Normal,
        play: "normal",
        outcome: alone.outcome,
        nimber,
        winning_moves: moves,
        winning_move_count: alone.winning.count,
        moves_counted: true,
        truncated,
        method: alone.method.to_owned(),
        notes,
        search: SearchCost::default(),
    }))
}

/// The nimber of one component by search of its game graph alone, storing at
/// most `budget.states` components within `budget.bytes` (the graph and the
/// solver each).
///
/// # Errors
/// As [`Explorer::explore`] and [`Solver::nimber`].
fn nimber_by_search(part: &Part, budget: Budget) -> Result<u32, SearchError> {
    let mut explorer = Explorer::new(budget.states).with_memory_limit(budget.bytes);
    let id = explorer.explore(part)?;
    let game = GraphGame::new(&explorer);
    let mut solver = Solver::new(&game).with_budget(budget, budget.states);
    solver.nimber(&explorer.multiset([id]))
}

/// A misère sum whose components all know their nimbers by theory and satisfy
/// the Anti-SG condition: the Anti-SG rule (Bouton's rule for misère Nim,
/// generalized; see [`crate::sums::misere`]) answers it. A move of a component
/// of nimber `n` to nimber `t` wins iff the sum after it is a loss by the rule;
/// only `t` in `{n xor X, 0, 1}` can be, so those are counted by theory.
fn solve_anti_sg(position: &Position, options: &SolveOptions) -> Option<Answer> {
    let mut nimbers = Vec::new();
    for group in &position.groups {
        for part in &group.parts {
            if !part.satisfies_anti_sg_condition() {
                return None;
            }
            nimbers.push(part.nimber_by_theory()?.0);
        }
    }
    let one = BigUint::from(1u8);
    let total = nimbers.iter().fold(BigUint::zero(), |x, n| x ^ n);
    let big = nimbers.iter().filter(|n| **n > one).count();
    let outcome = crate::sums::misere::anti_sg_outcome(&nimbers);
    let mut moves = Vec::new();
    let mut count = BigUint::zero();
    let mut index = 0;
    for (g, group) in position.groups.iter().enumerate() {
        for (i, part) in group.parts.iter().enumerate() {
            let nimber = &nimbers[index];
            index += 1;
            let mut targets = vec![nimber ^ &total, BigUint::zero(), one.clone()];
            targets.sort();
            targets.dedup();
            for target in targets.into_iter().filter(|t| t != nimber) {
                let total_after = &total ^ nimber ^ &target;
                let big_after = big - usize::from(*nimber > one) + usize::from(target > one);
                let loses_after = if total_after.is_zero() {
                    big_after > 0
                } else {
                    big_after == 0
                };
                if !loses_after {
                    continue;
                }
                let room = options.max_moves.saturating_sub(moves.len());
                let found = part.moves_to_nimber_by_theory(&target, room)?;
                count += found.count;
                for leaves in found.listed.into_iter().take(room) {
                    moves.push(WinningMove::in_component(part, g, i, leaves));
                }
            }
        }
    }
    let truncated = count > BigUint::from(moves.len());
    Some(misere_answer(
        position,
        outcome,
        moves,
        count,
        truncated,
        "anti-sg rule",
    ))
}

/// The heaps a misère quotient is computed to for a sum whose heaps are all
/// below it; a sum with a larger heap needs the quotient proven for every heap
/// by its period within [`PROOF_REACH`] heaps.
const QUOTIENT_REACH: u64 = 64;
/// How far the heaps are added looking for a period of the quotient.
const PROOF_REACH: u64 = 400;
/// The most work a quotient (or genus) built while solving may take: pair
/// transitions of its verification and transitions of the candidates tried
/// (one to two seconds; the same bound on every machine).
const QUOTIENT_WORK: u64 = 10_000_000;
/// Steps of a construction counted as one position of the caller's state
/// limit: the default limit of 2,000,000 positions allows [`QUOTIENT_WORK`]
/// exactly, and a caller who allows a search of few positions does not wait
/// for a construction of millions of steps.
const WORK_PER_STATE: u64 = 5;
/// What a quotient built while solving may hold.
const QUOTIENT_BYTES: u64 = 256 << 20;

/// The bounds of a quotient or genus construction under the caller's
/// `budget`: its own ([`QUOTIENT_WORK`], [`QUOTIENT_BYTES`]) or the caller's
/// when smaller.
fn construction_limits(budget: Budget) -> QuotientLimits {
    let states = u64::try_from(budget.states).unwrap_or(u64::MAX);
    QuotientLimits {
        max_bytes: budget.bytes.min(QUOTIENT_BYTES),
        max_order: 4096,
        max_work: states.saturating_mul(WORK_PER_STATE).min(QUOTIENT_WORK),
    }
}

/// Whether a construction within `limits` that failed with `error` failed by
/// a bound of the caller's below the construction's own: a failure that says
/// nothing of the rule, and is not remembered.
fn failed_by_callers_limit(error: &SearchError, limits: QuotientLimits) -> bool {
    match error {
        SearchError::MemoryLimit { .. } => limits.max_bytes < QUOTIENT_BYTES,
        SearchError::StateLimit { .. } => limits.max_work < QUOTIENT_WORK,
        _ => false,
    }
}

/// The most rules the memories of this module keep ([`QUOTIENTS`],
/// [`NOT_TAME`], [`GENUS_FAILED`]), the oldest forgotten first: a server or a
/// notebook that sees rule after rule does not grow without bound.
const RULES_REMEMBERED: usize = 32;

/// The most bytes the quotients kept hold in all (the latest is kept
/// whatever its size: it was built within the caller's memory limit).
const QUOTIENTS_KEPT_BYTES: usize = 64 << 20;

/// Appends `entry` to `list`, forgetting the oldest entries past
/// [`RULES_REMEMBERED`].
fn remember_bounded<T>(list: &mut Vec<T>, entry: T) {
    list.push(entry);
    if list.len() > RULES_REMEMBERED {
        let excess = list.len() - RULES_REMEMBERED;
        list.drain(..excess);
    }
}

/// Quotients built while solving, by rule: each the furthest built, or the
/// heap where the construction failed (at most [`RULES_REMEMBERED`] rules and
/// [`QUOTIENTS_KEPT_BYTES`]).
static QUOTIENTS: std::sync::Mutex<Vec<(crate::rules::HeapRule, BuiltQuotient)>> =
    std::sync::Mutex::new(Vec::new());

/// A quotient built while solving, or the heap where its construction failed.
type BuiltQuotient = Result<std::sync::Arc<MisereQuotient>, u64>;

/// The quotient of `rule` knowing heaps up to `largest`, built (or found
/// built) within `bytes`.
fn quotient_for(
    rule: &crate::rules::HeapRule,
    largest: &BigUint,
    budget: Budget,
) -> Result<Option<std::sync::Arc<MisereQuotient>>, SearchError> {
    use num_traits::ToPrimitive;
    let knows = |q: &MisereQuotient| q.heap_class(largest).is_some();
    let built = QUOTIENTS
        .lock()
        .map(|list| list.iter().find(|(r, _)| r == rule).map(|(_, q)| q.clone()))
        .unwrap_or(None);
    let reach = match largest.to_u64() {
        Some(small) if small <= QUOTIENT_REACH => small,
        _ => PROOF_REACH,
    };
    match &built {
        Some(Ok(q)) if knows(q) => return Ok(Some(q.clone())),
        Some(Err(failed)) if *failed <= reach => return Ok(None),
        Some(Ok(q)) if q.heaps() >= reach => return Ok(None),
        _ => {}
    }
    let limits = construction_limits(budget);
    let built = unless_stopped(|| quotient::compute(rule, reach, true, limits))?;
    let result = match built {
        Ok(q) => Ok(std::sync::Arc::new(q)),
        // A failure cut by a limit of the caller's below the construction's
        // own says nothing of the rule: not remembered (one cut by the
        // caller's deadline never gets here: it is `Cancelled` above).
        Err(error) if failed_by_callers_limit(&error.error, limits) => return Ok(None),
        Err(error) => Err(error.heap),
    };
    if let Ok(mut list) = QUOTIENTS.lock() {
        list.retain(|(r, _)| r != rule);
        remember_bounded(&mut list, (rule.clone(), result.clone()));
        let held = |list: &[(crate::rules::HeapRule, BuiltQuotient)]| -> usize {
            list.iter()
                .map(|(_, q)| q.as_ref().map_or(0, |q| q.held_bytes()))
                .sum()
        };
        while list.len() > 1 && held(&list) > QUOTIENTS_KEPT_BYTES {
            drop(list.remove(0));
        }
    }
    Ok(result.ok().filter(|q| knows(q)))
}

/// Runs `build` (a quotient or genus construction, bounded by
/// [`QUOTIENT_WORK`], a count of its steps, never by a clock: its failure is a
/// fact of the rule, the same on every machine and in every process, and is
/// remembered). The caller's deadline and cancellation still stop it: those
/// are [`SearchError::Cancelled`] here, never a result, so that a construction
/// cut by a deadline is never remembered as the rule's failure.
fn unless_stopped<T>(build: impl FnOnce() -> T) -> Result<T, SearchError> {
    let caller = cancel::current().unwrap_or_default();
    let built = caller.run(build);
    // Asked of the caller's signal itself: `checkpoint` reads the clock only
    // every few calls, and a construction cut by the caller's deadline must
    // never pass for the rule's failure.
    if caller.is_cancelled() {
        return Err(SearchError::Cancelled);
    }
    Ok(built)
}

/// A misère sum of heaps of one heap rule, answered through the rule's misère
/// quotient (see [`crate::quotient`]) when it is built far enough: the sum's
/// class is the product of its heaps' classes, and a move wins iff it makes
/// the product fall in the P-portion.
fn solve_by_quotient(
    position: &Position,
    options: &SolveOptions,
) -> Result<Option<Answer>, SearchError> {
    let mut rule = None;
    let mut heaps = Vec::new();
    let mut places = Vec::new();
    for (g, group) in position.groups.iter().enumerate() {
        for (i, part) in group.parts.iter().enumerate() {
            let Some((part_rule, size)) = part.as_heap() else {
                return Ok(None);
            };
            match &rule {
                None => rule = Some(part_rule),
                Some(known) if *known == part_rule => {}
                Some(_) => return Ok(None),
            }
            heaps.push(size);
            places.push((g, i, part));
        }
    }
    let (Some(rule), Some(largest)) = (rule, heaps.iter().max()) else {
        return Ok(None);
    };
    let Some(quotient) = quotient_for(&rule, largest, options.budget())? else {
        return Ok(None);
    };
    let Some(found) = quotient::sums::answer(&quotient, &heaps, options.max_moves) else {
        return Ok(None);
    };
    let mut moves = Vec::with_capacity(found.moves.len());
    for (index, leaves) in found.moves {
        let (g, i, part) = places[index];
        let Some(leaves) = leaf_parts(part, &rule, leaves) else {
            return Ok(None);
        };
        moves.push(WinningMove::in_component(part, g, i, leaves));
    }
    let outcome = if found.p_position {
        Outcome::PreviousPlayerWins
    } else {
        Outcome::NextPlayerWins
    };
    let truncated = found.count > BigUint::from(moves.len());
    let mut answer = misere_answer(
        position,
        outcome,
        moves,
        found.count,
        truncated,
        "misère quotient",
    );
    let reach = match quotient.periodicity() {
        Some(period) => format!(
            "proven for heaps of every size (heap map periodic with period {} from heap {})",
            period.period, period.preperiod
        ),
        None => format!("for heaps up to {}", quotient.heaps()),
    };
    answer.notes.push(format!(
        "the misère quotient of {rule} {reach} has order {} and a P-portion of {} elements; this sum is its element {}",
        quotient.order(),
        quotient.p_portion().len(),
        quotient.presentation().element(found.class),
    ));
    Ok(Some(answer))
}

/// The largest heap of a rule other than Nim whose genus `solve` computes.
const GENUS_REACH: u64 = 64;

/// A misère sum of heaps, of several heap rules, whose every heap is tame:
/// every heap up to the largest of its rule has the genus of a nim position
/// (nim heaps always do), so by Conway's theorem on tame games
/// ([`quotient::genus::tame_sum_is_p`]) it plays as misère Nim on their
/// Grundy values. The options of a heap are sums of smaller heaps of its rule,
/// tame too, so each move is judged by the same rule. Nim heaps of any size
/// are answered without listing their moves.
fn solve_by_genus(
    position: &Position,
    options: &SolveOptions,
) -> Result<Option<Answer>, SearchError> {
    use num_traits::ToPrimitive;
    use quotient::genus::{Genus, tame_sum_is_p};
    let nim_rule = crate::rules::HeapRule::nim();
    // Each part: its place, its rule and size; the genera of each rule.
    let mut parts = Vec::new();
    let mut rules: Vec<(crate::rules::HeapRule, u64)> = Vec::new();
    for (g, group) in position.groups.iter().enumerate() {
        for (i, part) in group.parts.iter().enumerate() {
            let Some((rule, size)) = part.as_heap() else {
                return Ok(None);
            };
            if rule != nim_rule {
                let Some(small) = size.to_u64().filter(|&s| s <= GENUS_REACH) else {
                    return Ok(None);
                };
                match rules.iter_mut().find(|(r, _)| *r == rule) {
                    Some((_, largest)) => *largest = (*largest).max(small),
                    None => rules.push((rule.clone(), small)),
                }
            }
            parts.push((g, i, part, rule, size));
        }
    }
    if rules.is_empty() {
        // Misère Nim alone is the Anti-SG rule's.
        return Ok(None);
    }
    let limits = construction_limits(options.budget());
    let mut genera_of = Vec::with_capacity(rules.len());
    for (rule, largest) in &rules {
        match tame_genera(rule, *largest, limits)? {
            Some(found) => genera_of.push(found),
            None => return Ok(None),
        }
    }
    let genus_of = |rule: &crate::rules::HeapRule, size: u64| -> &Genus {
        let at = rules.iter().position(|(r, _)| r == rule).unwrap_or(0);
        &genera_of[at][size as usize]
    };
    // The Grundy value and smallness of each part.
    let mut values = Vec::with_capacity(parts.len());
    for (_, _, _, rule, size) in &parts {
        values.push(if *rule == nim_rule {
            (size.clone(), *size <= BigUint::from(1u8))
        } else {
            let genus = genus_of(rule, size.to_u64().unwrap_or(0));
            (BigUint::from(genus.normal), genus.is_small())
        });
    }
    let total = values.iter().fold(BigUint::zero(), |x, (v, _)| x ^ v);
    let small = values.iter().filter(|(_, s)| *s).count();
    let is_p = tame_sum_is_p(&total, small == values.len());
    let mut moves = Vec::new();
    let mut count = BigUint::zero();
    for (index, (g, i, part, rule, size)) in parts.iter().enumerate() {
        let (value, was_small) = &values[index];
        let others = &total ^ value;
        let others_small = small - usize::from(*was_small) == values.len() - 1;
        let wins = |after: &BigUint, after_small: bool| {
            tame_sum_is_p(&(&others ^ after), others_small && after_small)
        };
        if *rule == nim_rule {
            // A nim heap moves to any smaller one; only two targets can win.
            // Listed as the moves of Nim are, the largest heap left first.
            let mut targets = vec![others.clone(), &others ^ BigUint::from(1u8)];
            targets.sort_by(|a, b| b.cmp(a));
            targets.dedup();
            for target in targets {
                if target < *size && wins(&target, target <= BigUint::from(1u8)) {
                    count += 1u8;
                    if moves.len() < options.max_moves {
                        let Some(leaves) = leaf_parts(part, rule, vec![target]) else {
                            return Ok(None);
                        };
                        moves.push(WinningMove::in_component(part, *g, *i, leaves));
                    }
                }
            }
            continue;
        }
        let size = size.to_u64().unwrap_or(0);
        for m in rule.moves(size) {
            let mut after = BigUint::zero();
            let mut after_small = true;
            for &leaf in m.leaves.iter().filter(|&&leaf| leaf > 0) {
                let genus = genus_of(rule, leaf);
                after ^= BigUint::from(genus.normal);
                after_small &= genus.is_small();
            }
            if wins(&after, after_small) {
                count += 1u8;
                if moves.len() < options.max_moves {
                    let sizes = m.leaves.iter().map(|&leaf| BigUint::from(leaf)).collect();
                    let Some(leaves) = leaf_parts(part, rule, sizes) else {
                        return Ok(None);
                    };
                    moves.push(WinningMove::in_component(part, *g, *i, leaves));
                }
            }
        }
    }
    let outcome = if is_p {
        Outcome::PreviousPlayerWins
    } else {
        Outcome::NextPlayerWins
    };
    let truncated = count > BigUint::from(moves.len());
    let mut answer = misere_answer(
        position,
        outcome,
        moves,
        count,
        truncated,
        "misère genus (tame sum)",
    );
    let symbols: Vec<String> = rules
        .iter()
        .zip(&genera_of)
        .map(|((rule, largest), found)| {
            format!(
                "{rule} heaps 1..={largest}: {}",
                found[1..]
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        })
        .collect();
    answer.notes.push(format!(
        "every heap is tame (the genus of a nim position; nim heaps always are), so the sum plays as misère Nim on the Grundy values (Conway): {}",
        symbols.join("; ")
    ));
    Ok(Some(answer))
}

/// For each rule, the first heap found wild (its genus not a nim position's):
/// sums reaching it are not tried again (at most [`RULES_REMEMBERED`] entries).
static NOT_TAME: std::sync::Mutex<Vec<(crate::rules::HeapRule, u64)>> =
    std::sync::Mutex::new(Vec::new());

/// The genus constructions that failed within their work or order bound, by
/// rule and heaps asked: a fact of the rule, the same on every machine and
/// for every caller, so it is not tried again. A construction stopped by the
/// caller's deadline, or by a memory limit below the construction's own, is
/// not remembered, so that an answer depends on its own position only, not
/// on the positions solved before it. At most [`RULES_REMEMBERED`] entries.
static GENUS_FAILED: std::sync::Mutex<Vec<(crate::rules::HeapRule, u64)>> =
    std::sync::Mutex::new(Vec::new());

/// The genera of heaps `0..=largest` of `rule` when all are tame, found by
/// computing them to 4, 8, 16, ... heaps so that the first heap that is not
/// tame ends the work early.
fn tame_genera(
    rule: &crate::rules::HeapRule,
    largest: u64,
    limits: QuotientLimits,
) -> Result<Option<Vec<quotient::genus::Genus>>, SearchError> {
    use quotient::genus::genera;
    let known = |list: &std::sync::Mutex<Vec<(crate::rules::HeapRule, u64)>>,
                 holds: &dyn Fn(u64) -> bool| {
        list.lock()
            .map(|list| list.iter().any(|(r, h)| r == rule && holds(*h)))
            .unwrap_or(false)
    };
    let remember = |list: &std::sync::Mutex<Vec<(crate::rules::HeapRule, u64)>>, heap: u64| {
        if let Ok(mut list) = list.lock() {
            remember_bounded(&mut list, (rule.clone(), heap));
        }
    };
    if known(&NOT_TAME, &|wild| wild <= largest) {
        return Ok(None);
    }
    let mut reach = largest.min(4);
    loop {
        if known(&GENUS_FAILED, &|failed| failed == reach) {
            return Ok(None);
        }
        let found = match unless_stopped(|| genera(rule, reach, limits))? {
            Ok(found) => found,
            Err(error) => {
                if !failed_by_callers_limit(&error.error, limits) {
                    remember(&GENUS_FAILED, reach);
                }
                return Ok(None);
            }
        };
        if let Some(heap) = found.iter().position(|g| !g.is_nim_like()) {
            remember(&NOT_TAME, heap as u64);
            return Ok(None);
        }
        if reach == largest {
            return Ok(Some(found));
        }
        reach = (reach * 2).min(largest);
    }
}

/// The heaps a move leaves, as components of `part`'s game, written as its
/// own moves are: a single-heap game's emptied heap is its heap of 0.
fn leaf_parts(
    part: &Part,
    rule: &crate::rules::HeapRule,
    leaves: Vec<BigUint>,
) -> Option<Vec<Part>> {
    let mut sizes: Vec<BigUint> = leaves.into_iter().filter(|l| !l.is_zero()).collect();
    if sizes.is_empty() && rule.keeps_one_heap() {
        sizes.push(BigUint::zero());
    }
    sizes.into_iter().map(|size| part.heap_part(size)).collect()
}

/// The misère answer to `position` found by `method`: no nimber, every winning
/// move counted, no notes and no search.
fn misere_answer(
    position: &Position,
    outcome: Outcome,
    winning_moves: Vec<WinningMove>,
    winning_move_count: BigUint,
    truncated: bool,
    method: &str,
) -> Answer {
    Answer {
        position: PositionText::new(position),
        convention: Convention::Misere,
        play: "misere",
        outcome,
        nimber: None,
        winning_moves,
        winning_move_count,
        moves_counted: true,
        truncated,
        method: method.to_owned(),
        notes: Vec::new(),
        search: SearchCost::default(),
    }
}

/// What a component without a closed form is known by, from its family's own
/// search ([`searched_by_family`]).
enum ByFamily {
    Found(Known),
    Failed(SearchError),
    /// The family has no search of its own: the generic explorer values it.
    NoSearch,
    /// Not searched: a component before it in the sum failed.
    Skipped,
}

/// The components of `position` without a closed form (those marked in
/// `searched`), in order, each valued by its family's own search
/// when it has one: its pruned search, kept to find the moves to a nimber
/// afterwards (Cram), or its search of every option (Chomp, Wythoff,
/// geography, ...).
///
/// The searches are independent, so they run at once on the threads of the
/// current rayon pool, each within an equal share of the memory limit among
/// the components without a closed form: together they hold no more than the
/// limit, and the share does not depend on the number of threads (a failure
/// names the whole limit, which is what raises the share). Once one fails,
/// the searches of the components after it stop (or do not start); those
/// before it go on, so the first failure in the order of the sum is the one
/// reported, as when they run one after another. Each runs under the caller's
/// [`Cancel`] signal, so a deadline stops them all.
fn searched_by_family(
    position: &Position,
    searched: &[Vec<bool>],
    options: &SolveOptions,
) -> Vec<ByFamily> {
    let unknown: Vec<&Part> = position
        .groups
        .iter()
        .zip(searched)
        .flat_map(|(group, searched)| group.parts.iter().zip(searched))
        .filter_map(|(part, &searched)| searched.then_some(part))
        .collect();
    let shares = u64::try_from(unknown.len()).unwrap_or(u64::MAX).max(1);
    let budget = Budget {
        bytes: options.max_memory / shares,
        ..options.budget()
    };
    // Each search runs under its own share of the caller's signal, so that
    // the caller still stops them all and a failure stops those after it.
    let signal = cancel::current().unwrap_or_default();
    let signals: Vec<Cancel> = unknown.iter().map(|_| signal.child()).collect();
    let first_failed = AtomicUsize::new(usize::MAX);
    let search = |(index, part): (usize, &&Part)| {
        if index > first_failed.load(Ordering::Relaxed) {
            return ByFamily::Skipped;
        }
        let found = signals[index].run(|| match part.position_search(budget) {
            Some(mut search) => Some(
                search
                    .nimber()
                    .map(|nimber| Known::Searching(search, nimber)),
            ),
            None => part
                .nimbers_by_search(budget)
                .map(|found| found.map(Known::Searched)),
        });
        match found {
            Some(Ok(known)) => ByFamily::Found(known),
            Some(Err(error)) => {
                if first_failed.fetch_min(index, Ordering::Relaxed) > index {
                    for later in &signals[index + 1..] {
                        later.cancel();
                    }
                }
                // The limit the caller gave, not the share the search had.
                ByFamily::Failed(match error {
                    SearchError::MemoryLimit { .. } => SearchError::MemoryLimit {
                        limit: options.max_memory,
                    },
                    other => other,
                })
            }
            None => ByFamily::NoSearch,
        }
    };
    if unknown.len() > 1 {
        unknown.par_iter().enumerate().map(search).collect()
    } else {
        unknown.iter().enumerate().map(search).collect()
    }
}

fn solve_normal(position: &Position, options: &SolveOptions) -> Result<Answer, SearchError> {
    if let Some(answer) = solve_alone(position, options)? {
        return Ok(answer);
    }
    let mut methods = BTreeSet::new();
    let by_theory: Vec<Vec<Option<BigUint>>> = position
        .groups
        .iter()
        .map(|group| {
            group
                .parts
                .iter()
                .map(|part| {
                    let (nimber, method) = part.nimber_by_theory()?;
                    methods.insert(method);
                    Some(nimber)
                })
                .collect()
        })
        .collect();
    // A component whose nimber theory bounds from below, and whose search
    // would not fit the budget, is valued by its bound (`solve_with_floor`).
    let floors: Vec<Vec<Option<BigUint>>> = position
        .groups
        .iter()
        .zip(&by_theory)
        .map(|(group, theory)| {
            group
                .parts
                .iter()
                .zip(theory)
                .map(|(part, theory)| {
                    if theory.is_some() {
                        return None;
                    }
                    let (floor, method) = part.nimber_floor_by_theory(options.budget())?;
                    methods.insert(method);
                    Some(floor)
                })
                .collect()
        })
        .collect();
    let searched: Vec<Vec<bool>> = by_theory
        .iter()
        .zip(&floors)
        .map(|(theory, floors)| {
            theory
                .iter()
                .zip(floors)
                .map(|(theory, floor)| theory.is_none() && floor.is_none())
                .collect()
        })
        .collect();
    let mut by_family = searched_by_family(position, &searched, options).into_iter();
    let mut explorer = options.explorer();
    let mut known = Vec::with_capacity(position.groups.len());
    for ((group, theory), floors) in position.groups.iter().zip(by_theory).zip(floors) {
        let mut parts = Vec::with_capacity(group.parts.len());
        for ((part, theory), floor) in group.parts.iter().zip(theory).zip(floors) {
            parts.push(match (theory, floor) {
                (Some(nimber), _) => Known::Theory(nimber),
                (None, Some(floor)) => Known::AtLeast(floor),
                (None, None) => {
                    methods.insert("search");
                    match by_family.next() {
                        Some(ByFamily::Found(known)) => known,
                        Some(ByFamily::Failed(error)) => return Err(error),
                        Some(ByFamily::NoSearch) => Known::Node(explorer.explore(part)?),
                        Some(ByFamily::Skipped) | None => {
                            unreachable!("a component after the first that failed is never valued")
                        }
                    }
                }
            });
        }
        known.push(parts);
    }
    let game = GraphGame::new(&explorer);
    let mut solver = options.solver(&game, options.max_states);
    let mut nimbers = Vec::with_capacity(known.len());
    let mut total = BigUint::zero();
    // The component known only from below, if any: it counts as 0 in `total`,
    // which is then the nim-sum of the others.
    let mut floor: Option<Floor> = None;
    for (g, parts) in known.iter().enumerate() {
        let mut group_nimbers = Vec::with_capacity(parts.len());
        for (i, known) in parts.iter().enumerate() {
            let nimber = match known {
                Known::Theory(nimber) => nimber.clone(),
                Known::Node(id) => solver.nimber(&explorer.multiset([*id]))?.into(),
                Known::Searched(found) => found.nimber.clone(),
                Known::Searching(_, nimber) => nimber.clone(),
                Known::AtLeast(bound) => {
                    if let Some(first) = &floor {
                        return Err(floor_refusal(
                            position,
                            first,
                            "and so has another component of the sum: their nim-sum may be \
                             0 or not",
                        ));
                    }
                    floor = Some(Floor {
                        group: g,
                        part: i,
                        bound: bound.clone(),
                    });
                    BigUint::zero()
                }
            };
            total ^= &nimber;
            group_nimbers.push(nimber);
        }
        nimbers.push(group_nimbers);
    }
    let mut moves = Vec::new();
    let mut count = BigUint::zero();
    let mut uncounted = Vec::new();
    let mut listing = Listing::new(options);
    let mut notes = Vec::new();
    if let Some(floor) = &floor {
        if total >= floor.bound {
            return Err(floor_refusal(
                position,
                floor,
                &format!(
                    "and the rest of the sum has nim-sum {total}: whether they are equal \
                     decides the sum"
                ),
            ));
        }
        notes.push(format!(
            "{} has nimber at least {} by theory, its exact value unknown; the rest of the sum \
             has nim-sum {total}, below it, so the sum's nimber is not 0",
            floor.name(position),
            floor.bound
        ));
    }
    if let Some(floor) = floor.as_ref().filter(|_| options.winning_moves) {
        // The moves elsewhere reach a nimber that depends on the unknown
        // value: they are counted only when there are none.
        for (g, group) in position.groups.iter().enumerate() {
            for (i, part) in group.parts.iter().enumerate() {
                if (g, i) == (floor.group, floor.part) {
                    continue;
                }
                let values = option_nimbers(part, &known[g][i], &explorer, &mut solver, options)?;
                let possible = |y: &BigUint| (y ^ &nimbers[g][i] ^ &total) >= floor.bound;
                if values.is_none_or(|values| values.iter().any(possible)) {
                    uncounted.push(format!(
                        "the winning moves of {}({}) were not counted: they depend on the \
                         exact nimber of {}",
                        group.head,
                        arguments_of(part),
                        floor.name(position)
                    ));
                }
            }
        }
        let (g, i) = (floor.group, floor.part);
        let part = &position.groups[g].parts[i];
        let room = listing.room(part, options.max_moves);
        match moves_to_nimber(part, &total, room, options) {
            Ok((found, listed)) => {
                listing.listed(listed.len(), &found);
                count += found;
                moves.extend(
                    listed
                        .into_iter()
                        .map(|leaves| WinningMove::in_component(part, g, i, leaves)),
                );
            }
            Err(SearchError::CountLimit { refusal, .. }) => uncounted.push(format!(
                "the winning moves of {} were not counted: {}",
                floor.name(position),
                refusal.reason
            )),
            Err(other) => return Err(other),
        }
    } else if floor.is_some() || (!options.winning_moves && !total.is_zero()) {
        uncounted
            .push("the winning moves were not looked for (asked for the nimber alone)".to_owned());
    } else if !total.is_zero() {
        for (g, group) in position.groups.iter().enumerate() {
            for (i, part) in group.parts.iter().enumerate() {
                let target = &nimbers[g][i] ^ &total;
                let room = listing.room(part, options.max_moves.saturating_sub(moves.len()));
                let (found, listed) = match &mut known[g][i] {
                    Known::Node(id) => {
                        let mut found = 0u64;
                        let mut listed = Vec::new();
                        for (index, option) in explorer.options(*id).iter().enumerate() {
                            let value =
                                solver.nimber(&explorer.multiset(option.iter().copied()))?;
                            if BigUint::from(value) == target {
                                found += 1;
                                if listed.len() < room {
                                    listed.push(explorer.leaves(*id, index)?);
                                }
                            }
                        }
                        (BigUint::from(found), listed)
                    }
                    Known::Searched(found) => {
                        let winning = found.options.iter().filter(|(_, n)| *n == target);
                        let listed = winning.clone().take(room).map(|(l, _)| l.clone()).collect();
                        (BigUint::from(winning.count()), listed)
                    }
                    Known::Searching(search, _) => {
                        let found = search.moves_to_nimber(&target, room)?;
                        (found.count, found.listed)
                    }
                    // (A component known from below is answered above.)
                    Known::Theory(_) | Known::AtLeast(_) => {
                        match moves_to_nimber(part, &target, room, options) {
                            Ok(found) => found,
                            Err(SearchError::CountLimit { refusal, .. }) => {
                                let reason = refusal.reason;
                                // The outcome and nimber stand; only this
                                // component's moves go uncounted, and the answer
                                // says so.
                                uncounted.push(format!(
                                    "the winning moves of {}({}) were not counted: {reason}",
                                    group.head,
                                    arguments_of(part)
                                ));
                                continue;
                            }
                            Err(other) => return Err(other),
                        }
                    }
                };
                listing.listed(listed.len(), &found);
                count += found;
                for leaves in listed {
                    moves.push(WinningMove::in_component(part, g, i, leaves));
                }
            }
        }
    }
    let method = if methods.is_empty() {
        // No component: the player to move cannot move and loses.
        "empty sum: no move".to_owned()
    } else if methods.len() == 1 {
        methods.into_iter().next().unwrap_or("search").to_owned()
    } else {
        format!(
            "nim-sum of {}",
            methods.into_iter().collect::<Vec<_>>().join(", ")
        )
    };
    let truncated = count > BigUint::from(moves.len());
    let search = SearchCost::of(&explorer, &solver);
    Ok(Answer {
        position: PositionText::new(position),
        convention: Convention::Normal,
        play: "normal",
        outcome: if total.is_zero() && floor.is_none() {
            Outcome::PreviousPlayerWins
        } else {
            Outcome::NextPlayerWins
        },
        nimber: floor.is_none().then_some(total),
        winning_moves: moves,
        winning_move_count: count,
        moves_counted: uncounted.is_empty(),
        truncated,
        method,
        notes: notes
            .into_iter()
            .chain(uncounted)
            .chain(listing.note())
            .collect(),
        search,
    })
}

/// The component of a sum whose nimber theory knows only from below.
struct Floor {
    group: usize,
    part: usize,
    bound: BigUint,
}

impl Floor {
    /// The component as written: `fibonacci_nim(20)`.
    fn name(&self, position: &Position) -> String {
        let group = &position.groups[self.group];
        format!("{}({})", group.head, arguments_of(&group.parts[self.part]))
    }
}

/// Why a sum with a component known only from below has no answer: `why`
/// ends the sentence that starts with what is known of it.
fn floor_refusal(position: &Position, floor: &Floor, why: &str) -> SearchError {
    SearchError::TheoryLimit {
        refusal: crate::theory::limits::Refusal::new(
            format!(
                "the outcome is not known: {} has nimber at least {} by theory, its exact \
                 value unknown and too large to search within the state limit, {why}",
                floor.name(position),
                floor.bound
            ),
            &[crate::theory::limits::Limit::States],
        ),
    }
}

/// The nimber of every option of `part`, valued as `known` was, or `None`
/// when they cannot all be found within the limits (a family's pruned search
/// keeps no option values; a component with too many moves).
///
/// # Errors
/// [`SearchError::Cancelled`] when the valuing was stopped.
fn option_nimbers(
    part: &Part,
    known: &Known,
    explorer: &Explorer,
    solver: &mut Solver<'_, GraphGame<'_>>,
    options: &SolveOptions,
) -> Result<Option<Vec<BigUint>>, SearchError> {
    let stopped = |error: SearchError| match error {
        SearchError::Cancelled => Err(SearchError::Cancelled),
        _ => Ok(None),
    };
    match known {
        Known::Node(id) => {
            let mut values = Vec::new();
            for option in explorer.options(*id) {
                match solver.nimber(&explorer.multiset(option.iter().copied())) {
                    Ok(value) => values.push(BigUint::from(value)),
                    Err(error) => return stopped(error),
                }
            }
            Ok(Some(values))
        }
        Known::Searched(found) => Ok(Some(
            found
                .options
                .iter()
                .map(|(_, value)| value.clone())
                .collect(),
        )),
        Known::Searching(..) | Known::AtLeast(_) => Ok(None),
        Known::Theory(_) => {
            let moves = match part.moves(options.max_states) {
                Ok(moves) => moves,
                Err(error) => return stopped(error),
            };
            let mut values = Vec::with_capacity(moves.len());
            for to in moves {
                let mut value = BigUint::zero();
                for piece in &to {
                    value ^= match piece.nimber_by_theory() {
                        Some((nimber, _)) => nimber,
                        None => match nimber_by_search(piece, options.budget()) {
                            Ok(nimber) => nimber.into(),
                            Err(error) => return stopped(error),
                        },
                    };
                }
                values.push(value);
            }
            Ok(Some(values))
        }
    }
}

/// The share of the memory limit that the winning moves listed in an answer
/// may hold: a quarter, the rest being the searches'.
const LISTED_MOVES_SHARE: u64 = 4;

/// The memory the winning moves listed in an answer hold, kept within
/// [`LISTED_MOVES_SHARE`] of the memory limit: a move of a component holds a
/// whole new position of it, so a component of a million steps (staircase
/// Nim) costs tens of megabytes a move, and the moves listed stop before they
/// fill the memory (the count stays exact; a note says why fewer are listed).
struct Listing {
    bytes_left: u64,
    /// The bytes a move of the component asked about last holds, by estimate.
    move_bytes: u64,
    /// Whether a component listed fewer moves than asked for lack of memory.
    cut: bool,
    room_asked: usize,
}

impl Listing {
    fn new(options: &SolveOptions) -> Self {
        Self {
            bytes_left: options.max_memory / LISTED_MOVES_SHARE,
            move_bytes: 0,
            cut: false,
            room_asked: 0,
        }
    }

    /// How many of the `room` moves still wanted `part`'s moves may list.
    fn room(&mut self, part: &Part, room: usize) -> usize {
        self.room_asked = room;
        if room == 0 {
            return 0;
        }
        // A position's values take about 8 times its text (a 7-digit step, a
        // 32-byte big integer), and a move holds a vector of components.
        self.move_bytes = 8 * arguments_of(part).len() as u64 + 64;
        let affordable = self.bytes_left / self.move_bytes;
        room.min(usize::try_from(affordable).unwrap_or(usize::MAX))
    }

    /// Counts `listed` moves of the component asked about last, of `found`.
    fn listed(&mut self, listed: usize, found: &BigUint) {
        self.bytes_left = self
            .bytes_left
            .saturating_sub(listed as u64 * self.move_bytes);
        if listed < self.room_asked && *found > BigUint::from(listed) {
            self.cut = true;
        }
    }

    fn note(&self) -> Option<String> {
        self.cut.then(|| {
            "fewer winning moves are listed than --max-moves allows: each holds a whole \
             position this large, and the moves listed may hold at most a quarter of the \
             memory limit (the count is exact; --max-memory BYTES lists more)"
                .to_owned()
        })
    }
}

/// A component's arguments as printed.
fn arguments_of(part: &Part) -> String {
    let mut text = String::new();
    part.write_arguments(&mut text);
    text
}

/// The moves of a component whose nimber is known by theory to positions of
/// nimber `target`: by theory if the component has one, otherwise by
/// enumerating its moves and valuing each result, unless theory says they are
/// too many ([`SearchError::CountLimit`]).
fn moves_to_nimber(
    part: &Part,
    target: &BigUint,
    room: usize,
    options: &SolveOptions,
) -> Result<(BigUint, Vec<Vec<Part>>), SearchError> {
    if let Some(theory) = part.moves_to_nimber_by_theory(target, room) {
        return Ok((theory.count, theory.listed));
    }
    if let Some(refusal) = part.moves_to_nimber_refusal(target) {
        return Err(SearchError::CountLimit {
            refusal,
            nimber: None,
        });
    }
    if let Some(mut search) = part.position_search(options.budget()) {
        let found = search.moves_to_nimber(target, room)?;
        return Ok((found.count, found.listed));
    }
    let mut found = 0u64;
    let mut listed = Vec::new();
    for to in part.moves(options.max_states)? {
        let mut value = BigUint::zero();
        for piece in &to {
            value ^= match piece.nimber_by_theory() {
                Some((nimber, _)) => nimber,
                None => nimber_by_search(piece, options.budget())?.into(),
            };
        }
        if &value == target {
            found += 1;
            if listed.len() < room {
                listed.push(to);
            }
        }
    }
    Ok((found.into(), listed))
}

/// The largest mixed-radix numbering of a misère sum kept in dense arrays:
/// 8 slots (32 bytes) per position the search may store, so that a sum of
/// 7.9 million numbered positions is searched through arrays within the
/// default limit while the positions actually stored stay bounded by it; and
/// no more than a quarter of the memory budget (4 bytes a slot, in up to
/// three tables).
fn dense_slots(options: &SolveOptions) -> usize {
    let by_memory = usize::try_from(options.max_memory / 16).unwrap_or(usize::MAX);
    options.max_states.saturating_mul(8).min(by_memory)
}

fn solve_misere(position: &Position, options: &SolveOptions) -> Result<Answer, SearchError> {
    if let Some(answer) = solve_anti_sg(position, options) {
        return Ok(answer);
    }
    if let Some(answer) = solve_by_quotient(position, options)? {
        return Ok(answer);
    }
    if let Some(answer) = solve_by_genus(position, options)? {
        return Ok(answer);
    }
    misere_by_search(position, options)
}

/// A misère sum searched whole, as one game.
fn misere_by_search(position: &Position, options: &SolveOptions) -> Result<Answer, SearchError> {
    let (explorer, roots) = explored(position, options)?;
    let search = MisereSearch {
        position,
        options,
        explorer: &explorer,
        roots: &roots,
    };
    let finite = explorer.is_finite_from(&roots);
    if let Some((game, start)) = SlotGame::new(&explorer, &roots, dense_slots(options)) {
        let after = |slot, option| game.after(start, slot, option);
        if finite {
            let positions = game.dense_positions().unwrap_or(usize::MAX);
            return search_misere_on_threads(search, after, |moves| {
                parallel::misere_outcomes_of_moves(
                    &game,
                    &start,
                    moves,
                    options.budget(),
                    positions,
                )
            });
        }
        return search_misere(search, &game, &start, after);
    }
    let game = GraphGame::new(&explorer);
    let start = explorer.multiset(roots.iter().copied());
    let after = |slot, option| multiset_after(&explorer, &roots, slot, option);
    if finite {
        return search_misere_on_threads(search, after, |moves| {
            parallel::misere_outcomes_of_moves_hashed(&game, &start, moves, options.budget())
        });
    }
    search_misere(search, &game, &start, after)
}

/// The components of `position` explored, and their nodes in the order of
/// the sum (group by group).
fn explored(
    position: &Position,
    options: &SolveOptions,
) -> Result<(Explorer, Vec<u32>), SearchError> {
    let mut explorer = options.explorer();
    let mut roots = Vec::with_capacity(position.component_count());
    for group in &position.groups {
        for part in &group.parts {
            roots.push(explorer.explore(part)?);
        }
    }
    Ok((explorer, roots))
}

/// The components `roots` after the move to option `option` of component `slot`,
/// as a multiset of the explorer's ids.
fn multiset_after(explorer: &Explorer, roots: &[u32], slot: usize, option: usize) -> Multiset {
    let rest = roots
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != slot)
        .map(|(_, &id)| id);
    let leaves = explorer.options(roots[slot])[option].iter().copied();
    explorer.multiset(rest.chain(leaves))
}

/// A misère search that stores more than this fraction of its state limit
/// warns that the positions after its winning moves, solved on their own,
/// may not fit the limit.
const RESEARCH_WARNING_SHARE: usize = 20;

/// A misère sum searched as one game: the position, the options, and its
/// components explored (`roots`, numbered over all groups).
#[derive(Clone, Copy)]
struct MisereSearch<'a> {
    position: &'a Position,
    options: &'a SolveOptions,
    explorer: &'a Explorer,
    roots: &'a [u32],
}

/// Searches the sum as `game` from `start` and lists its winning moves:
/// `after(slot, option)` is the position after move `option` of component
/// `slot`, in the explorer's move order.
fn search_misere<G: ImpartialGame>(
    search: MisereSearch<'_>,
    game: &G,
    start: &G::Position,
    after: impl Fn(usize, usize) -> G::Position,
) -> Result<Answer, SearchError> {
    let MisereSearch {
        options,
        explorer,
        roots,
        ..
    } = search;
    let mut solver = options.solver(game, dense_slots(options));
    let outcome = solver.misere_outcome(start)?;
    let mut winning = Vec::new();
    if outcome == Outcome::NextPlayerWins {
        for (slot, &root) in roots.iter().enumerate() {
            for option in 0..explorer.options(root).len() {
                if solver.misere_outcome(&after(slot, option))? == Outcome::PreviousPlayerWins {
                    winning.push((slot, option));
                }
            }
        }
    }
    misere_search_answer(search, outcome, &winning, SearchCost::of(explorer, &solver))
}

/// [`search_misere`] for a sum of finite components: every move of the start
/// (`after(slot, option)`) searched at once on the threads of the pool by
/// `outcomes`, over one shared table ([`parallel`]). The answer is that of one
/// thread.
fn search_misere_on_threads<P>(
    search: MisereSearch<'_>,
    after: impl Fn(usize, usize) -> P,
    outcomes: impl FnOnce(&[P]) -> Result<parallel::MoveOutcomes, SearchError>,
) -> Result<Answer, SearchError> {
    let MisereSearch {
        explorer, roots, ..
    } = search;
    let mut moves = Vec::new();
    let mut positions = Vec::new();
    for (slot, &root) in roots.iter().enumerate() {
        for option in 0..explorer.options(root).len() {
            moves.push((slot, option));
            positions.push(after(slot, option));
        }
    }
    let found = outcomes(&positions)?;
    drop(positions);
    // A move to a position its mover loses wins; with no move at all, the
    // player to move wins under misère play.
    let winning: Vec<(usize, usize)> = moves
        .into_iter()
        .zip(&found.mover_wins)
        .filter(|&(_, &mover_wins)| !mover_wins)
        .map(|(slot_option, _)| slot_option)
        .collect();
    let outcome = if found.mover_wins.is_empty() || !winning.is_empty() {
        Outcome::NextPlayerWins
    } else {
        Outcome::PreviousPlayerWins
    };
    let cost = SearchCost {
        components_explored: explorer.len(),
        positions_expanded: found.positions_expanded,
        positions_stored: found.positions_stored,
        bytes_per_position: found.bytes_per_position,
    };
    misere_search_answer(search, outcome, &winning, cost)
}

/// The answer of a misère search: its outcome, its winning moves (component
/// slot and option, in order) and what it cost.
fn misere_search_answer(
    search: MisereSearch<'_>,
    outcome: Outcome,
    winning: &[(usize, usize)],
    cost: SearchCost,
) -> Result<Answer, SearchError> {
    let MisereSearch {
        position,
        options,
        explorer,
        roots,
    } = search;
    // The component of each slot: its group and its place there.
    let places: Vec<(usize, usize, &Part)> = position
        .groups
        .iter()
        .enumerate()
        .flat_map(|(g, group)| {
            group
                .parts
                .iter()
                .enumerate()
                .map(move |(i, part)| (g, i, part))
        })
        .collect();
    let mut moves = Vec::new();
    for &(slot, option) in winning.iter().take(options.max_moves) {
        let (g, i, part) = places[slot];
        let leaves = explorer.leaves(roots[slot], option)?;
        moves.push(WinningMove::in_component(part, g, i, leaves));
    }
    let count = winning.len() as u64;
    let truncated = count > moves.len() as u64;
    let mut notes = Vec::new();
    // A position after a winning move was decided here with the tables of the
    // whole search; searched on its own, in another order, it can need far
    // more positions (a misère search has no sum rule to cut it down).
    if count > 0 && cost.positions_stored > options.max_states / RESEARCH_WARNING_SHARE {
        // Not the count itself: on several threads it can differ a little.
        notes.push(format!(
            "the positions after the winning moves were decided within this search, which \
             stored more than one in {RESEARCH_WARNING_SHARE} of the {} positions allowed; \
             solved on its own, such a position is searched afresh and may need more (raise \
             --max-states N then)",
            options.max_states
        ));
    }
    Ok(Answer {
        notes,
        search: cost,
        ..misere_answer(
            position,
            outcome,
            moves,
            count.into(),
            truncated,
            "misère search",
        )
    })
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_memories_keep_the_latest_rules_only() {
        let mut list = Vec::new();
        for k in 0..3 * RULES_REMEMBERED {
            remember_bounded(&mut list, k);
        }
        assert_eq!(list.len(), RULES_REMEMBERED);
        assert_eq!(list.first(), Some(&(2 * RULES_REMEMBERED)));
        assert_eq!(list.last(), Some(&(3 * RULES_REMEMBERED - 1)));
    }
    use super::*;
    use crate::catalogue::build;
    use crate::lang::parse;

    /// The slot game (mixed-radix numbers, dense tables) and the graph game
    /// (sorted multisets, hash tables) must agree on every misère sum.
    #[test]
    fn both_misere_representations_agree() {
        let options = SolveOptions::default();
        for a in 0..7 {
            for b in 0..7 {
                for c in 0..5 {
                    let text = format!("misere(sub[1, 3, 4]({a}) + bash[2]({b}) + nim({c}, 2))");
                    let position = build(&parse(&text).unwrap()).unwrap();
                    let (explorer, roots) = explored(&position, &options).unwrap();
                    let (slots, start) =
                        SlotGame::new(&explorer, &roots, dense_slots(&options)).unwrap();
                    let search = MisereSearch {
                        position: &position,
                        options: &options,
                        explorer: &explorer,
                        roots: &roots,
                    };
                    let by_slots =
                        search_misere(search, &slots, &start, |s, o| slots.after(start, s, o))
                            .unwrap();
                    let graph = GraphGame::new(&explorer);
                    let by_graph = search_misere(
                        search,
                        &graph,
                        &explorer.multiset(roots.iter().copied()),
                        |slot, option| multiset_after(&explorer, &roots, slot, option),
                    )
                    .unwrap();
                    assert_eq!(by_slots.outcome, by_graph.outcome, "{text}");
                    assert_eq!(
                        by_slots.winning_move_count, by_graph.winning_move_count,
                        "{text}"
                    );
                    let targets = |answer: &Answer| -> Vec<String> {
                        answer
                            .winning_moves
                            .iter()
                            .map(|m| answer.target(m))
                            .collect()
                    };
                    assert_eq!(targets(&by_slots), targets(&by_graph), "{text}");
                }
            }
        }
    }

    /// A misère sum of finite components is searched on every thread
    /// ([`parallel`]): a byte a position when no component splits, a hash
    /// table of positions when some do (octal games). Its answer on 1, 2 and
    /// 7 threads is the solver's: outcome, winning moves and their count (and
    /// on one thread the positions stored).
    #[test]
    fn misere_searches_are_answered_alike_on_any_number_of_threads() {
        let options = SolveOptions::default();
        let summary = |found: &Answer| {
            let targets: Vec<String> = found
                .winning_moves
                .iter()
                .map(|m| found.target(m))
                .collect();
            (found.outcome, found.winning_move_count.clone(), targets)
        };
        // Checks the sum `text` against the solver on one thread, on the graph
        // game (sorted multisets) or on the slot game; whether the first
        // player wins.
        let answered_as_the_solver = |text: &str, on_graph: bool| {
            let position = build(&parse(text).unwrap()).unwrap();
            let (explorer, roots) = explored(&position, &options).unwrap();
            let search = MisereSearch {
                position: &position,
                options: &options,
                explorer: &explorer,
                roots: &roots,
            };
            let by_solver = if on_graph {
                let graph = GraphGame::new(&explorer);
                let start = explorer.multiset(roots.iter().copied());
                search_misere(search, &graph, &start, |s, o| {
                    multiset_after(&explorer, &roots, s, o)
                })
            } else {
                let (slots, start) =
                    SlotGame::new(&explorer, &roots, dense_slots(&options)).unwrap();
                search_misere(search, &slots, &start, |s, o| slots.after(start, s, o))
            }
            .unwrap();
            let answers = crate::testing::on_one_two_and_seven_threads(|| {
                let found = misere_by_search(&position, &options).unwrap();
                (summary(&found), found.search.positions_stored)
            });
            for (threads, found) in [1, 2, 7].into_iter().zip(answers) {
                assert_eq!(found.0, summary(&by_solver), "{text}: {threads} threads");
                if threads == 1 {
                    // Several threads may store a few more.
                    assert_eq!(found.1, by_solver.search.positions_stored, "{text}");
                }
            }
            by_solver.outcome == Outcome::NextPlayerWins
        };
        let sums: Vec<String> = (0..6)
            .flat_map(|a| {
                (0..6).flat_map(move |b| {
                    [
                        format!("misere(sub[1, 3, 4]({a}) + bash[2]({b}) + wythoff(3, 5))"),
                        // Small sums, where misère play differs from normal play.
                        format!("misere(sub[1, 3, 4]({a}) + bash[2]({b}) + nim({}))", a % 2),
                    ]
                })
            })
            .collect();
        // Every sum answered as the solver answers it, and both outcomes met.
        let all_answered_as_the_solver = |sums: &[String], on_graph: bool| {
            let wins = sums
                .iter()
                .filter(|text| answered_as_the_solver(text, on_graph))
                .count();
            assert!(wins > 0 && wins < sums.len(), "{wins} of {}", sums.len());
        };
        all_answered_as_the_solver(&sums, false);
        // Components that split: the hashed table, against the solver on the
        // graph game.
        let sums: Vec<String> = [1, 2, 7, 12]
            .into_iter()
            .flat_map(|a| {
                [0, 1, 5, 9, 10].into_iter().flat_map(move |b| {
                    [
                        format!("misere(octal[0.07]({a}) + octal[0.07]({b}) + wythoff(1, 2))"),
                        format!("misere(octal[0.07]({a}) + octal[0.137]({b}))"),
                    ]
                })
            })
            .collect();
        all_answered_as_the_solver(&sums, true);
    }

    /// A quotient built while solving counts its steps against the caller's
    /// state limit, and a construction cut by it is not remembered: a later
    /// call with the default limits answers by the quotient.
    #[test]
    fn a_quotient_cut_by_the_callers_state_limit_is_not_remembered() {
        // A rule no other test builds, so that no quotient of it is known.
        let position = build(&parse("misere(octal[0.751](10, 20, 30, 40))").unwrap()).unwrap();
        let few = SolveOptions {
            max_states: 1000,
            ..SolveOptions::default()
        };
        assert!(matches!(
            crate::sums::analysis::solve(&position, &few),
            Err(SearchError::StateLimit { .. })
        ));
        let answer = crate::sums::analysis::solve(&position, &SolveOptions::default()).unwrap();
        assert_eq!(answer.method, "misère quotient");
        // Once built, the quotient answers under the small limit too.
        assert_eq!(
            crate::sums::analysis::solve(&position, &few)
                .unwrap()
                .method,
            "misère quotient"
        );
    }

    /// On any number of threads a misère search stops at the state limit and
    /// at the memory limit (counted over all threads), at the caller's signal,
    /// and reports a loopy component as a cycle.
    #[test]
    fn misere_searches_stop_alike_on_any_number_of_threads() {
        // Components that never split: the search on every thread.
        let text = "misere(sub[1, 3, 4](60) + bash[2](50) + wythoff(5, 9) + nim(12))";
        let position = build(&parse(text).unwrap()).unwrap();
        for (options, expected) in [
            (
                SolveOptions {
                    max_states: 2_000,
                    ..SolveOptions::default()
                },
                SearchError::StateLimit { limit: 2_000 },
            ),
            (
                SolveOptions {
                    max_memory: 60_000,
                    ..SolveOptions::default()
                },
                SearchError::MemoryLimit { limit: 60_000 },
            ),
        ] {
            let found = crate::testing::on_one_two_and_seven_threads(|| {
                misere_by_search(&position, &options).map(|answer| answer.outcome)
            });
            for found in found {
                assert_eq!(found, Err(expected.clone()), "{text}");
            }
        }
        let stopped = crate::testing::on_one_two_and_seven_threads(|| {
            let signal = Cancel::new();
            signal.cancel();
            signal.run(|| misere_by_search(&position, &SolveOptions::default()).map(|a| a.outcome))
        });
        for found in stopped {
            assert_eq!(found, Err(SearchError::Cancelled), "{text}");
        }
        let loopy = "misere(script[\"fn moves(n) { [(n + 1) % 4] }\"](0) + nim(2, 3))";
        let position = build(&parse(loopy).unwrap()).unwrap();
        let found = crate::testing::on_one_two_and_seven_threads(|| {
            misere_by_search(&position, &SolveOptions::default()).map(|a| a.outcome)
        });
        for found in found {
            assert_eq!(found, Err(SearchError::Cycle), "{loopy}");
        }
    }

    /// The components of a sum searched by their families (Cram, Chomp,
    /// Wythoff, divisors, geography) are searched at once: the answer, its
    /// winning moves included, is that of one thread on 2 and 7, and its
    /// nimber is the nim-sum of the components' nimbers found alone.
    #[test]
    fn a_sums_searched_components_are_valued_alike_on_any_number_of_threads() {
        let parts = [
            "cram(3, 4)",
            "chomp(3, 4)",
            "wythoff(9, 14)",
            "divisors(12)",
            "geography(\"5 4; 1 2; 2 3; 3 4; 2 5\", 1)",
            "cram(\"..#/...\")",
            "nim(6)",
        ];
        let text = parts.join(" + ");
        let options = SolveOptions::default();
        let answers = crate::testing::on_one_two_and_seven_threads(|| {
            let found = crate::testing::answer_with(&text, &options);
            let moves: Vec<String> = crate::testing::descriptions(&found)
                .into_iter()
                .map(str::to_owned)
                .collect();
            (found.nimber, found.winning_move_count, moves, found.method)
        });
        let alone = parts.iter().fold(BigUint::zero(), |total, part| {
            let found = crate::testing::answer_with(part, &options);
            total ^ found.nimber.expect("a nimber")
        });
        assert_eq!(answers[0].0, Some(alone), "{text}");
        assert!(!answers[0].2.is_empty(), "{text}: no winning move");
        assert_eq!(answers[1], answers[0], "{text}: 2 threads");
        assert_eq!(answers[2], answers[0], "{text}: 7 threads");
    }

    /// When several searched components fail, the first in the sum is the one
    /// reported, whatever the number of threads; each search has an equal
    /// share of the memory limit, and a memory failure names the whole limit.
    #[test]
    fn the_first_searched_component_that_fails_is_reported() {
        let options = SolveOptions {
            max_states: 1_000_000,
            max_memory: 4096,
            ..SolveOptions::default()
        };
        // Six million positions: over the state limit.
        let too_many = "wythoff(1999, 2999)";
        // Under the state limit, over the memory limit.
        let too_large = "wythoff(899, 999)";
        for (text, expected) in [
            (
                format!("{too_many} + {too_large} + nim(3)"),
                SearchError::StateLimit { limit: 1_000_000 },
            ),
            (
                format!("nim(3) + {too_large} + {too_many}"),
                SearchError::MemoryLimit { limit: 4096 },
            ),
        ] {
            let position = build(&parse(&text).unwrap()).unwrap();
            let failures = crate::testing::on_one_two_and_seven_threads(|| {
                crate::sums::analysis::solve(&position, &options).map(|found| found.nimber)
            });
            for found in failures {
                assert_eq!(found, Err(expected.clone()), "{text}");
            }
        }
        // Each searched component has an equal share of the limit: this one
        // needs between 4 and 8 MB, so it fits alone in 8 MB, but not in a
        // sum with another searched component.
        let options = SolveOptions {
            max_memory: 8_000_000,
            ..SolveOptions::default()
        };
        let alone = build(&parse(&format!("{too_large} + nim(1)")).unwrap()).unwrap();
        assert!(crate::sums::analysis::solve(&alone, &options).is_ok());
        let shared = build(&parse(&format!("{too_large} + wythoff(1, 2)")).unwrap()).unwrap();
        assert_eq!(
            crate::sums::analysis::solve(&shared, &options).map(|found| found.nimber),
            Err(SearchError::MemoryLimit { limit: 8_000_000 })
        );
    }

    /// A family for the tests of the searches of a sum's components: its
    /// search of position 0 runs until it is stopped, that of position 1 fails
    /// (on several threads, once the search of a 0 has begun, or after ten
    /// seconds), and that of 2 finds nimber 2 at once.
    #[derive(Debug, PartialEq)]
    struct Probe;

    /// How many searches of a `Probe` 0 have begun (since the test last set
    /// it to 0).
    static ENDLESS_BEGUN: AtomicUsize = AtomicUsize::new(0);

    impl crate::family::Family for Probe {
        type Position = u8;

        fn write_position(&self, position: &u8, out: &mut String) {
            out.push_str(&position.to_string());
        }

        fn moves(&self, _position: &u8, _limit: usize) -> Result<Vec<Vec<u8>>, SearchError> {
            Ok(Vec::new())
        }

        fn describe_move(&self, _from: &u8, _to: &[u8]) -> String {
            String::new()
        }

        fn nimbers_by_search(
            &self,
            position: &u8,
            budget: Budget,
        ) -> Option<Result<SearchedNimbers<u8>, SearchError>> {
            let started = std::time::Instant::now();
            Some(match position {
                0 => {
                    ENDLESS_BEGUN.fetch_add(1, Ordering::SeqCst);
                    loop {
                        if let Err(error) = cancel::checkpoint() {
                            break Err(error);
                        }
                        std::thread::yield_now();
                    }
                }
                1 => {
                    while rayon::current_num_threads() > 1
                        && ENDLESS_BEGUN.load(Ordering::SeqCst) == 0
                        && started.elapsed().as_secs() < 10
                    {
                        std::thread::yield_now();
                    }
                    Err(SearchError::StateLimit {
                        limit: budget.states,
                    })
                }
                _ => Ok(SearchedNimbers {
                    nimber: BigUint::from(2u8),
                    options: Vec::new(),
                }),
            })
        }
    }

    fn probe_sum(positions: &[u8]) -> Position {
        let family = std::sync::Arc::new(Probe);
        Position {
            convention: Convention::Normal,
            compound: crate::sums::position::Compound::Sum,
            groups: vec![crate::sums::position::Group {
                head: "probe".into(),
                leading: None,
                parts: crate::family::parts(&family, positions.iter().copied()),
            }],
        }
    }

    /// A failure stops the searches of the components after it, and the
    /// caller's signal stops them all. The sums below hold a search that runs
    /// until it is stopped: on two threads it has begun when the component
    /// before it fails; on one it is not begun at all.
    #[test]
    fn a_failure_or_the_callers_signal_stops_every_search_after_it() {
        use std::sync::mpsc;
        use std::time::Duration;

        let (done, finished) = mpsc::channel();
        std::thread::spawn(move || {
            for threads in [1, 2, 7] {
                ENDLESS_BEGUN.store(0, Ordering::SeqCst);
                let found = crate::testing::on_pool(threads, || {
                    let options = SolveOptions::default();
                    solve_sum(&probe_sum(&[2, 1, 0, 2]), &options).map(|found| found.nimber)
                });
                done.send(("a failure", threads, found)).unwrap();
                let found = crate::testing::on_pool(threads, || {
                    let signal = Cancel::new();
                    signal.cancel();
                    let options = SolveOptions::default();
                    signal
                        .run(|| solve_sum(&probe_sum(&[0, 2, 0]), &options))
                        .map(|found| found.nimber)
                });
                done.send(("the caller's signal", threads, found)).unwrap();
            }
        });
        for _ in 0..6 {
            // The searches stop within milliseconds; a search not stopped
            // never ends.
            let (stopped_by, threads, found) = finished
                .recv_timeout(Duration::from_secs(60))
                .expect("a search went on after it was to stop");
            let expected = if stopped_by == "a failure" {
                SearchError::StateLimit {
                    limit: SolveOptions::default().max_states,
                }
            } else {
                SearchError::Cancelled
            };
            assert_eq!(found, Err(expected), "{stopped_by}, {threads} threads");
        }
        let options = SolveOptions::default();
        let found = solve_sum(&probe_sum(&[2, 2, 2]), &options).unwrap();
        assert_eq!(found.nimber, Some(BigUint::from(2u8)));
    }
}
