//! Plain disjunctive sums, under normal play by the Sprague-Grundy theorem and
//! under misère play by a search of the whole sum (see [`crate::sums::analysis`] for
//! the theorem and its sources). `every(...)` and `rounds[k](...)` are played
//! elsewhere ([`crate::sums::every_sg`], [`crate::sums::rounds`]).

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};

use num_bigint::BigUint;
use num_traits::Zero;
use rayon::prelude::*;

use crate::family::{Part, PositionSearch, SearchedNimbers};
use crate::sums::answer::{Answer, SearchCost, SolveOptions, WinningMove};
use crate::sums::explorer::Explorer;
use crate::sums::explorer::GraphGame;
use crate::sums::misere::solve_misere;
use crate::sums::position::{Position, PositionText};
use crate::theory::cancel::{self, Cancel};
use crate::theory::checkpoint::{CheckpointError, CheckpointFile};
use crate::theory::game::{Convention, Outcome};
use crate::theory::loopy::LoopyValue;
use crate::theory::solver::{Budget, SearchError, Solver};

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
/// As [`crate::sums::analysis::solve`].
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
        loopy_value: None,
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
    // The checkpoint names the whole position (one component: see
    // `analysis::solve`).
    let checkpoint = options
        .checkpoint
        .as_ref()
        .map(|checkpoint| checkpoint.of(PositionText::new(position).as_str()));
    let search = |(index, part): (usize, &&Part)| {
        if index > first_failed.load(Ordering::Relaxed) {
            return ByFamily::Skipped;
        }
        let found = signals[index].run(|| match part.position_search(budget) {
            Some(mut search) => Some(resumed(search.as_mut(), checkpoint.as_ref()).and_then(
                |()| {
                    search
                        .nimber()
                        .map(|nimber| Known::Searching(search, nimber))
                },
            )),
            None if checkpoint.is_some() => Some(Err(not_kept(part))),
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

/// Gives `search` the checkpoint, if there is one: what it saved is read.
///
/// # Errors
/// The checkpoint's, or [`CheckpointError::NotApplicable`] when the search
/// keeps none.
fn resumed(
    search: &mut dyn PositionSearch<Part>,
    checkpoint: Option<&CheckpointFile>,
) -> Result<(), SearchError> {
    let Some(file) = checkpoint else {
        return Ok(());
    };
    match search.keep_progress(file.clone()) {
        Some(kept) => kept,
        None => Err(SearchError::Checkpoint(CheckpointError::NotApplicable {
            reason: "this search keeps no checkpoint".to_owned(),
        })),
    }
}

/// The refusal of a checkpoint for `part`, whose family's search keeps none.
fn not_kept(part: &Part) -> SearchError {
    let mut name = String::new();
    part.write_arguments(&mut name);
    SearchError::Checkpoint(CheckpointError::NotApplicable {
        reason: format!(
            "a checkpoint (--checkpoint) keeps the progress of Cram's board search alone; \
             the component `{name}` is searched otherwise"
        ),
    })
}

fn solve_normal(position: &Position, options: &SolveOptions) -> Result<Answer, SearchError> {
    if let Some(answer) = solve_infinite(position, options)? {
        return Ok(answer);
    }
    if let Some(answer) = solve_alone(position, options)? {
        return Ok(answer);
    }
    // A component of a game that may go on for ever, of finite value here:
    // the answer gives the sum's value as the loopy value it is.
    let loopy = position
        .groups
        .iter()
        .flat_map(|group| &group.parts)
        .any(|part| part.loopy_value().is_some());
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
    if let Some(checkpoint) = &options.checkpoint {
        let kept: Vec<String> = known
            .iter()
            .flatten()
            .filter_map(|known| match known {
                Known::Searching(search, _) => search.progress_note(),
                _ => None,
            })
            .collect();
        if kept.is_empty() {
            notes.push(format!(
                "the checkpoint `{}` was neither read nor written: the answer needed no search",
                checkpoint.path.display()
            ));
        }
        notes.extend(kept);
    }
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
        loopy_value: (loopy && floor.is_none()).then(|| LoopyValue::Finite(total.clone())),
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

/// A sum with a component of infinite generalized Sprague-Grundy value
/// (a token on a cycle of `digraph`), by Smith's rule (see
/// [`crate::theory::loopy`]): two such components make a draw, `∞(∅)`; one,
/// of value `∞(K)`, beside the rest of nim-sum `x` makes `∞(K ⊕ x)`, a
/// first-player win exactly when `x ∈ K`, whose winning moves are the moves
/// of that component to a position of value `x` (every other move leaves the
/// sum infinite). `None` when no component is infinite.
///
/// # Errors
/// As [`solve_normal`] for the rest of the sum; [`SearchError::TheoryLimit`]
/// when the rest's nimber is not known exactly.
fn solve_infinite(
    position: &Position,
    options: &SolveOptions,
) -> Result<Option<Answer>, SearchError> {
    let mut infinite = Vec::new();
    for (g, group) in position.groups.iter().enumerate() {
        for (i, part) in group.parts.iter().enumerate() {
            if let Some((value @ LoopyValue::Infinite(_), method)) = part.loopy_value() {
                infinite.push((g, i, value, method));
            }
        }
    }
    let Some((g, i, value, method)) = infinite.first().cloned() else {
        return Ok(None);
    };
    let mut answer = Answer {
        position: PositionText::new(position),
        convention: Convention::Normal,
        play: "normal",
        outcome: Outcome::Draw,
        nimber: None,
        loopy_value: Some(LoopyValue::Infinite(Vec::new())),
        winning_moves: Vec::new(),
        winning_move_count: BigUint::zero(),
        moves_counted: true,
        truncated: false,
        method: format!(
            "{method}: two components of infinite value make a draw (Smith's sum rule)"
        ),
        notes: Vec::new(),
        search: SearchCost::default(),
    };
    if infinite.len() > 1 {
        return Ok(Some(answer));
    }
    // The rest of the sum: every other component, each of finite value.
    let mut rest = position.clone();
    rest.groups[g].parts.remove(i);
    let rest_answer = solve_normal(
        &rest,
        &SolveOptions {
            winning_moves: false,
            ..options.clone()
        },
    )?;
    let part = &position.groups[g].parts[i];
    let Some(x) = rest_answer.nimber else {
        return Err(SearchError::TheoryLimit {
            refusal: crate::theory::limits::Refusal::new(
                format!(
                    "the outcome is not known: {}({}) has an infinite value, and the nimber                      of the rest of the sum is not known exactly ({})",
                    position.groups[g].head,
                    arguments_of(part),
                    rest_answer.notes.join("; ")
                ),
                &[crate::theory::limits::Limit::States],
            ),
        });
    };
    let total = value.plus(&LoopyValue::Finite(x.clone()));
    answer.outcome = total.outcome();
    answer.loopy_value = Some(total);
    answer.search = rest_answer.search;
    answer.method = if rest.groups.iter().all(|group| group.parts.is_empty()) {
        method.to_owned()
    } else {
        format!(
            "Smith's sum rule, ∞(K) + x = ∞(K xor x): the infinite component by {method}, the \
             rest (nim-sum {x}) by {}",
            rest_answer.method
        )
    };
    if answer.outcome != Outcome::NextPlayerWins {
        return Ok(Some(answer));
    }
    if !options.winning_moves {
        answer.moves_counted = false;
        answer
            .notes
            .push("the winning moves were not looked for (asked for the nimber alone)".to_owned());
        return Ok(Some(answer));
    }
    let (count, listed) = moves_to_nimber(part, &x, options.max_moves, options)?;
    answer.truncated = count > BigUint::from(listed.len());
    answer.winning_move_count = count;
    answer.winning_moves = listed
        .into_iter()
        .map(|leaves| WinningMove::in_component(part, g, i, leaves))
        .collect();
    Ok(Some(answer))
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
pub(in crate::sums) fn dense_slots(options: &SolveOptions) -> usize {
    let by_memory = usize::try_from(options.max_memory / 16).unwrap_or(usize::MAX);
    options.max_states.saturating_mul(8).min(by_memory)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::build;
    use crate::lang::parse;

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
