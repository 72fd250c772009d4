//! What the playground shows of a position, and the engine's move.
//!
//! [`analyse`] answers a position as `grundy solve --json` does and adds what a
//! player needs to see: each component with its nimber (`parts`, `nim_sum`) and
//! the available moves with the value of the position each leads to (`moves`),
//! so that the page can colour each move win or lose. Every move is listed when
//! they fit `--max-options`; past it, the winning moves first (known from the
//! answer), then a sample of the others (each component's
//! [`first_moves`](grundy::family::Component::first_moves): its rule's moves,
//! never one per heap size). `every(...)` and `rounds[k](...)` positions list
//! their moves whole. Above 10,000 bytes of position text a move in one
//! component is sent compact (`to: null`, `component_to`), and
//! [`play_compact`] plays such a move sent back. [`engine_move`] chooses a
//! move as a perfect player does: the quickest win, or the slowest loss (by
//! remoteness, when the sum's graph is small enough to search whole).
//!
//! Every solve here runs within the server's budget ([`Budget`]): a state
//! limit, build limits, and a deadline checked by the search's progress hook
//! and between moves. What a request holds is bounded too: the move list (a
//! quarter of the memory limit), the remoteness search (the memory limit), and
//! no copy of a large position per move (under normal play the value after a
//! move follows from the components' nimbers).

use std::time::{Duration, Instant};

use grundy::analysis::{Answer, SolveOptions, solve};
use grundy::cancel::Cancel;
use grundy::catalogue::{BuildLimits, build_with};
use grundy::family::Part;
use grundy::game::Convention;
use grundy::lang::parse_with_limits;
use grundy::solver::SearchError;
use grundy::sums::answer::WinningMove;
use grundy::sums::position::{Compound, Group, Position, PositionText};
use grundy::sums::remoteness::remotenesses;
// Above this many bytes of position text, each move in one component is sent
// compact (`to: null`, `component_to`), as `solve --json` sends its winning
// moves (docs/CONTRACT.md, "Compact winning moves").
use grundy::sums::report::WHOLE_TARGETS_UP_TO;
use grundy::sums::rounds::match_position;
use grundy::table::Tabulator;
use grundy::theory::limits::Budget as SearchBudget;
use num_bigint::BigUint;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::view::{DrawingView, Integer, Target, target};
use crate::commands::solve::answer_json;
use crate::failure::{Door, Failure};

/// What one request may spend.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// The most positions a search may store (`--max-states`).
    pub max_states: usize,
    /// The most decimal digits of an integer (`--max-digits`).
    pub max_digits: usize,
    /// The work and memory allowed for heap values (`--max-work`, `--max-memory`).
    pub build: BuildLimits,
    /// The most moves listed with their values (`--max-options`).
    pub max_options: usize,
    /// When this attempt at the request stops (its slice of the quick lane,
    /// or the request's deadline on a worker); the searches stop there by
    /// the cancellation signal the attempt runs under.
    pub deadline: Instant,
    /// When the request must be answered.
    pub request_deadline: Instant,
    /// The time allowed, for messages (`--request-time`).
    pub time: Duration,
}

impl Budget {
    /// The failure of a request that ran out of time.
    pub fn time_up(&self) -> Failure {
        Failure::limit(format!(
            "error: the request took longer than {} s (the time limit); the server's --request-time SECONDS raises it",
            self.time.as_secs_f64()
        ))
    }

    fn check_time(&self) -> Result<(), Failure> {
        if Instant::now() > self.deadline {
            Err(self.time_up())
        } else {
            Ok(())
        }
    }

    /// Solve options within the budget (the deadline is the cancellation
    /// signal's, which the attempt runs under).
    fn options(&self, winning_moves: bool) -> SolveOptions {
        SolveOptions {
            max_states: self.max_states,
            max_memory: self.build.bytes,
            winning_moves,
            ..Default::default()
        }
    }

    /// When valuing the listed moves one by one stops: half the request's
    /// time before its deadline, so that a position with many moves, each
    /// searched, is still answered (the moves not valued say so); or the
    /// attempt's end, if sooner.
    fn valuing_deadline(&self) -> Instant {
        (self.request_deadline - self.time / 2).min(self.deadline)
    }

    /// `search` run under the valuing deadline: its answer, or why there is
    /// none (a limit, or the time for valuing moves run out).
    fn value<T>(
        &self,
        search: impl FnOnce(&SolveOptions) -> Result<T, grundy::solver::SearchError>,
    ) -> Result<T, String> {
        let deadline = self.valuing_deadline();
        let out_of_time = || {
            format!(
                "not valued: valuing the moves one by one takes at most half the time limit ({} s; --request-time SECONDS raises it)",
                self.time.as_secs_f64() / 2.0
            )
        };
        if Instant::now() > deadline {
            return Err(out_of_time());
        }
        let options = self.options(false);
        match Cancel::with_deadline(deadline).run(|| search(&options)) {
            Ok(answer) => Ok(answer),
            Err(SearchError::Cancelled) => Err(out_of_time()),
            Err(error) => Err(message_of(Failure::search(&error, Door::CommandLine))),
        }
    }
}

/// Positions naming files (`@PATH`, `script[@g.rhai]`) are refused: the server
/// must not read its own files for whoever asks.
pub fn refuse_files(source: &str) -> Result<(), Failure> {
    if source.contains('@') {
        return Err(Failure::input(
            "error: positions read from files (`@PATH`) are not accepted by the web server; \
             write the position out in full"
                .to_owned(),
        ));
    }
    Ok(())
}

/// A position parsed, built and answered.
struct Solved {
    position: Position,
    answer: Answer,
}

fn solve_source(source: &str, budget: &Budget) -> Result<Solved, Failure> {
    let position = build_source(source, budget)?;
    budget.check_time()?;
    // The winning moves come first in the list of moves: as many as it lists.
    let options = SolveOptions {
        max_moves: budget.max_options,
        ..budget.options(true)
    };
    let answer = solve(&position, &options).map_err(|e| Failure::search(&e, Door::CommandLine))?;
    Ok(Solved { position, answer })
}

fn build_source(source: &str, budget: &Budget) -> Result<Position, Failure> {
    refuse_files(source)?;
    let sum = parse_with_limits(source, budget.max_digits)
        .map_err(|e| Failure::language(&e, source, Door::CommandLine))?;
    build_with(&sum, budget.build).map_err(|e| Failure::language(&e, source, Door::CommandLine))
}

/// A move sent in the compact form (`to: null`): component `component` of
/// term `term` becomes the components of `component_to`, a term of the same
/// game with the same parameters (`nim(6)`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompactMove {
    /// The index of the term (group) moved in.
    pub term: usize,
    /// The index of the component within the term.
    pub component: usize,
    /// What the component becomes, as a term of its game.
    pub component_to: String,
}

/// The canonical text of `source` after `played`: the page plays a compact
/// move by sending it with the position it was listed for, and is answered as
/// if it had sent the position after it. The move is not checked against the
/// rules: the answer is that of the position so formed, as for any position
/// sent whole.
///
/// # Errors
/// [`Failure::Input`] (400) when the term or component does not exist, the
/// position is not a sum, or `component_to` is not a term of the same game
/// with the same parameters.
pub fn play_compact(
    source: &str,
    played: &CompactMove,
    budget: &Budget,
) -> Result<String, Failure> {
    let mut position = build_source(source, budget)?;
    let bad = |message: String| Failure::input(format!("error: bad `move`: {message}"));
    if position.compound != Compound::Sum {
        return Err(bad(
            "a compact move is played in a sum (or misere(...) of one), not in every(...) or rounds[k](...): send the whole position".to_owned(),
        ));
    }
    let terms = position.groups.len();
    let group = position.groups.get_mut(played.term).ok_or_else(|| {
        bad(format!(
            "there is no term {} (the position has {terms}, numbered from 0)",
            played.term
        ))
    })?;
    let components = group.parts.len();
    if played.component >= components {
        return Err(bad(format!(
            "term {} has no component {} (it has {components}, numbered from 0)",
            played.term, played.component
        )));
    }
    let into = build_source(&played.component_to, budget)?;
    let same_game = |g: &Group| g.head == group.head && g.leading == group.leading;
    let leaves = match into.groups.as_slice() {
        [only]
            if into.compound == Compound::Sum
                && into.convention == Convention::Normal
                && same_game(only) =>
        {
            only.parts.clone()
        }
        _ => {
            return Err(bad(format!(
                "`component_to` must be one term of the game of term {} with the same parameters (`{}`), not `{}`",
                played.term,
                group.term_with(&[]),
                played.component_to
            )));
        }
    };
    group
        .parts
        .splice(played.component..=played.component, leaves);
    Ok(PositionText::new(&position).as_str().to_owned())
}

/// How a listed move changes the position.
enum Change {
    /// Component `part` of group `group` becomes `leaves`.
    Component {
        group: usize,
        part: usize,
        leaves: Vec<Part>,
    },
    /// The whole position after it (moves of `every(...)`, which move every
    /// component, and of `rounds[k](...)`, printed around the round).
    Whole {
        to: String,
        term: usize,
        component: usize,
    },
}

/// One listed move and the value of the position it leads to.
struct Listed {
    change: Change,
    description: String,
    /// The answer after the move (whether the player then to move wins, and
    /// the nimber); `Err` when it could not be found in budget.
    after: Result<(bool, Option<BigUint>), String>,
    /// Moves the opponent has after it (the engine's measure of length when
    /// remoteness is out of reach).
    replies: usize,
    /// What a click on the component's picture plays this move, if anything.
    target: Option<Target>,
}

impl Listed {
    /// Whether the move wins: it leaves the opponent a lost position.
    fn wins(&self) -> Option<bool> {
        self.after.as_ref().ok().map(|(next_wins, _)| !next_wins)
    }

    /// The bytes the move holds, as the move list's memory limit counts them.
    fn bytes(&self) -> usize {
        let change = match &self.change {
            Change::Component { leaves, .. } => leaves.iter().map(part_bytes).sum(),
            Change::Whole { to, .. } => to.len(),
        };
        std::mem::size_of::<Self>() + change + self.description.len()
    }

    /// The move as the page reads it: `to` whole, or null with `component_to`
    /// when the position's text is longer than [`WHOLE_TARGETS_UP_TO`].
    fn view(&self, moves: &Moves) -> MoveView {
        let (outcome, nimber, error) = match &self.after {
            Ok((next_wins, nimber)) => (
                Some(if *next_wins { "N" } else { "P" }),
                nimber.as_ref().map(Integer::from),
                None,
            ),
            Err(message) => (None, None, Some(message.clone())),
        };
        let (to, component_to, term, component) = match &self.change {
            Change::Component {
                group,
                part,
                leaves,
            } => {
                let to = (!moves.compact).then(|| moves.text.replacing(*group, *part, leaves));
                let component_to = moves.groups[*group].term_with(leaves);
                (to, Some(component_to), *group, *part)
            }
            Change::Whole {
                to,
                term,
                component,
            } => (Some(to.clone()), None, *term, *component),
        };
        MoveView {
            to,
            component_to,
            description: self.description.clone(),
            term,
            component,
            outcome,
            nimber,
            wins: self.wins(),
            error,
            target: self.target.clone(),
        }
    }
}

/// What a component in a list of moves is counted as holding beyond its
/// arguments (its `Arc` and a small position).
const PART_BYTES: usize = 64;

/// The bytes a component left by a move is counted as holding: [`PART_BYTES`],
/// what its family says it holds, and twice its text (a position holds about
/// as many bytes as its canonical text, and the move's `component_to` repeats
/// that text): a move of a staircase of a million steps copies all of them.
fn part_bytes(part: &Part) -> usize {
    let mut text = String::new();
    part.write_arguments(&mut text);
    PART_BYTES + part.held_bytes() + 2 * text.len()
}

/// One move as the page reads it: where it leads, its value, and what a click
/// on the drawing plays it.
#[derive(Clone, Debug, Serialize)]
pub struct MoveView {
    /// The whole position after the move; null for a move in one component
    /// of a position whose text is longer than 10,000 bytes (`component_to`
    /// then says what the component becomes).
    to: Option<String>,
    /// The term the moved component becomes (`nim(4)`); absent for moves of
    /// `every(...)` and `rounds[k](...)`, whose `to` is always whole.
    #[serde(skip_serializing_if = "Option::is_none")]
    component_to: Option<String>,
    /// The move for people: "take 2 from the heap of 7".
    #[serde(rename = "move")]
    description: String,
    /// The index of the term (group) the move is made in.
    term: usize,
    /// The index of the component within its term.
    component: usize,
    /// Who wins after the move: `"N"` (the player then to move) or `"P"`;
    /// null when it could not be found within the budget.
    outcome: Option<&'static str>,
    /// The nimber after the move, where known.
    nimber: Option<Integer>,
    /// Whether the move wins, where known.
    wins: Option<bool>,
    /// Why the value after the move is not known.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    /// What a click on the component's drawing plays this move, if a single
    /// thing drawn stands for it.
    target: Option<Target>,
}

/// The moves listed for a position, and how to print them.
struct Moves {
    listed: Vec<Listed>,
    /// Whether every move of the position is listed.
    complete: bool,
    /// Why the list stopped short of the limit of moves, if it did.
    stopped: Option<String>,
    /// The position's text, for the `to` of each move.
    text: PositionText,
    /// The position's terms, for each move's `component_to`.
    groups: Vec<Group>,
    /// Whether each move's `to` is left out (`component_to` says it).
    compact: bool,
}

/// The moves of a position are listed with their values up to this many bytes
/// of the request's memory limit (the rest is the searches').
const MOVE_LIST_SHARE: u64 = 4;

/// The list of moves being built: at most `budget.max_options`, the bytes
/// they hold counted.
struct MoveList<'b> {
    budget: &'b Budget,
    listed: Vec<Listed>,
    bytes: u64,
    complete: bool,
    stopped: Option<String>,
}

impl<'b> MoveList<'b> {
    const fn new(budget: &'b Budget) -> Self {
        Self {
            budget,
            listed: Vec::new(),
            bytes: 0,
            complete: true,
            stopped: None,
        }
    }

    /// How many more moves may be listed.
    fn room(&self) -> usize {
        if self.stopped.is_some() {
            0
        } else {
            self.budget.max_options.saturating_sub(self.listed.len())
        }
    }

    /// The bytes the moves listed may hold: a quarter of the memory limit.
    const fn limit(&self) -> u64 {
        self.budget.build.bytes / MOVE_LIST_SHARE
    }

    /// How many more moves of `part` may be made (each copies what it moves)
    /// before the moves listed would hold more than [`MoveList::limit`]: the
    /// bound given to the component's move generator, so that the moves are
    /// counted before they are made, not after.
    fn room_for_moves_of(&self, part: &Part) -> usize {
        let left = self.limit().saturating_sub(self.bytes);
        usize::try_from(left / part_bytes(part) as u64).unwrap_or(usize::MAX)
    }

    /// Stops the list: the next move would pass the memory share.
    fn stop_for_memory(&mut self) {
        self.complete = false;
        self.stopped = Some(format!(
            "the moves listed would hold more than {} bytes (a quarter of the memory limit)",
            self.limit()
        ));
    }

    /// Lists `listed`, unless the bytes held would pass the memory share.
    fn push(&mut self, listed: Listed) {
        let bytes = listed.bytes() as u64;
        if self.bytes + bytes > self.limit() {
            self.stop_for_memory();
            return;
        }
        self.bytes += bytes;
        self.listed.push(listed);
    }
}

/// Each component's nimber alone under normal play, where known, by term.
type Nimbers = Vec<Vec<Option<BigUint>>>;

/// The moves of `solved` with their values: the winning moves the solver
/// found first, then the others up to `budget.max_options` (all of them, or
/// a sample of each component's: [`grundy::family::Component::first_moves`]).
fn list_moves(solved: &Solved, nimbers: &Nimbers, budget: &Budget) -> Result<Moves, Failure> {
    let position = &solved.position;
    let mut list = MoveList::new(budget);
    match position.compound {
        Compound::Sum => list_sum_moves(solved, nimbers, &mut list)?,
        Compound::Rounds { .. } => list_round_moves(solved, &mut list)?,
        Compound::Every => list_every_moves(solved, &mut list)?,
    }
    let text = solved.answer.position.clone();
    let compact = position.compound == Compound::Sum && text.as_str().len() > WHOLE_TARGETS_UP_TO;
    Ok(Moves {
        complete: list.complete,
        stopped: list.stopped,
        listed: list.listed,
        text,
        groups: position.groups.clone(),
        compact,
    })
}

/// How many moves a component has, up to `max` (`max` when it has more),
/// making at most as many as fit in `bytes` (each copies what it moves): the
/// count stops there, a lower bound.
fn move_count(part: &Part, max: usize, bytes: u64) -> usize {
    let fit = usize::try_from(bytes / part_bytes(part) as u64).unwrap_or(usize::MAX);
    let max = max.min(fit);
    part.moves(max).map_or(max, |moves| moves.len().min(max))
}

/// A move in one component: `(group, part, leaves)`.
type ComponentMove = (usize, usize, Vec<Part>);

/// Every move of a sum in the order of its components, when there are at most
/// `budget.max_options`; `None` otherwise.
/// The moves are counted against the move list's share of memory as they are
/// made: `None` as well when they would hold more.
fn all_moves(position: &Position, list: &MoveList) -> Result<Option<Vec<ComponentMove>>, Failure> {
    let budget = list.budget;
    let mut all = Vec::new();
    let mut bytes = 0u64;
    for (g, group) in position.groups.iter().enumerate() {
        for (i, part) in group.parts.iter().enumerate() {
            budget.check_time()?;
            let per_move = part_bytes(part) as u64;
            let fit = list.limit().saturating_sub(bytes) / per_move;
            let room = budget
                .max_options
                .saturating_sub(all.len())
                .min(usize::try_from(fit).unwrap_or(usize::MAX));
            let first = part
                .first_moves(room)
                .map_err(|e| Failure::search(&e, Door::CommandLine))?;
            if !first.complete {
                return Ok(None);
            }
            bytes += per_move * first.moves.len() as u64;
            all.extend(first.moves.into_iter().map(|leaves| (g, i, leaves)));
        }
    }
    Ok(Some(all))
}

/// The moves of a sum: all of them in the order of its components when they
/// fit the limit; otherwise the winning moves first, then each component's
/// moves (a sample of a component with too many) up to the limit, each once.
fn list_sum_moves(solved: &Solved, nimbers: &Nimbers, list: &mut MoveList) -> Result<(), Failure> {
    let position = &solved.position;
    let budget = list.budget;
    let normal = position.convention == Convention::Normal;
    let nim_sum = nimbers
        .iter()
        .flatten()
        .try_fold(BigUint::default(), |sum, nimber| {
            Some(sum ^ nimber.as_ref()?)
        });
    // The moves of each component, counted once: the moves after a move are
    // these but for the component moved, replaced by what it leaves.
    let max = budget.max_options;
    let counts: Vec<Vec<usize>> = position
        .groups
        .iter()
        .map(|group| {
            group
                .parts
                .iter()
                .map(|part| {
                    budget.check_time()?;
                    Ok(move_count(part, max, list.limit()))
                })
                .collect::<Result<_, Failure>>()
        })
        .collect::<Result<_, Failure>>()?;
    let total: usize = counts.iter().flatten().sum();
    let share = list.limit();
    let replies = |g: usize, i: usize, leaves: &[Part]| {
        total - counts[g][i]
            + leaves
                .iter()
                .map(|leaf| move_count(leaf, max, share))
                .sum::<usize>()
    };
    // The components moves leave, searched in one shared graph.
    let mut tabulator = Tabulator::new(budget.options(false));
    let mut value = |g: usize, i: usize, leaves: &[Part]| {
        // Under normal play the nimber after a move follows from the
        // components': the position is not copied and searched again.
        if normal && let (Some(sum), Some(old)) = (&nim_sum, &nimbers[g][i]) {
            let group = &position.groups[g];
            let mut new = BigUint::default();
            for leaf in leaves {
                match leaf_nimber(group, leaf, budget, &mut tabulator) {
                    Ok(nimber) => new ^= nimber,
                    // The nimber is out of reach, but the outcome may follow
                    // from the family's theory (Wythoff, Fibonacci Nim, Moore's
                    // Nim): when the rest of the sum is 0, the position after
                    // the move has the outcome of the one component it leaves.
                    Err(message) => {
                        let rest_is_zero = (sum ^ old) == BigUint::default();
                        return match (rest_is_zero, leaves) {
                            (true, [only]) => only
                                .outcome_by_theory(0)
                                .map(|answer| (answer.outcome.first_player_wins(), None))
                                .ok_or(message),
                            _ => Err(message),
                        };
                    }
                }
            }
            let after = sum ^ old ^ new;
            return Ok((after != BigUint::default(), Some(after)));
        }
        let after = Position {
            convention: position.convention,
            compound: Compound::Sum,
            groups: position.groups_after(g, i, leaves),
        };
        whole_value(&after, budget)
    };
    // The winning moves, known from the answer: the position after each is lost.
    let winning: Vec<&WinningMove> = solved
        .answer
        .winning_moves
        .iter()
        .filter(|m| m.whole.is_none())
        .collect();
    let is_winning = |g: usize, i: usize, leaves: &[Part]| {
        winning.iter().any(|m| {
            m.group == g
                && m.part == i
                && m.leaves.len() == leaves.len()
                && m.leaves
                    .iter()
                    .zip(leaves)
                    .all(|(a, b)| a.same_as(b.as_ref()))
        })
    };
    let lost_after = || Ok((false, normal.then(BigUint::default)));
    // Every move, in the order of the components, when they fit the limit.
    if let Some(all) = all_moves(position, list)? {
        for (g, i, leaves) in all {
            budget.check_time()?;
            let part = &position.groups[g].parts[i];
            list.push(Listed {
                description: part.describe_move(&leaves),
                after: if is_winning(g, i, &leaves) {
                    lost_after()
                } else {
                    value(g, i, &leaves)
                },
                replies: replies(g, i, &leaves),
                target: part.drawing().and_then(|before| target(&before, &leaves)),
                change: Change::Component {
                    group: g,
                    part: i,
                    leaves,
                },
            });
        }
        return Ok(());
    }
    // Too many: the winning moves first, then a sample of the others.
    list.complete = false;
    let first_winning: Vec<&WinningMove> = winning.iter().copied().take(list.room()).collect();
    for m in first_winning {
        budget.check_time()?;
        let part = &position.groups[m.group].parts[m.part];
        list.push(Listed {
            description: m.description.clone(),
            after: lost_after(),
            replies: replies(m.group, m.part, &m.leaves),
            target: part.drawing().and_then(|before| target(&before, &m.leaves)),
            change: Change::Component {
                group: m.group,
                part: m.part,
                leaves: m.leaves.clone(),
            },
        });
    }
    for (g, group) in position.groups.iter().enumerate() {
        for (i, part) in group.parts.iter().enumerate() {
            budget.check_time()?;
            let room = list.room();
            if room == 0 {
                return Ok(());
            }
            let fit = list.room_for_moves_of(part);
            if fit == 0 {
                list.stop_for_memory();
                return Ok(());
            }
            // Room for the winning moves of the component too, skipped below.
            let first = part
                .first_moves((room + winning.len()).min(fit))
                .map_err(|e| Failure::search(&e, Door::CommandLine))?;
            let drawing = part.drawing();
            for leaves in first.moves {
                if is_winning(g, i, &leaves) {
                    continue;
                }
                if list.room() == 0 {
                    return Ok(());
                }
                budget.check_time()?;
                list.push(Listed {
                    description: part.describe_move(&leaves),
                    after: value(g, i, &leaves),
                    replies: replies(g, i, &leaves),
                    target: drawing.as_ref().and_then(|before| target(before, &leaves)),
                    change: Change::Component {
                        group: g,
                        part: i,
                        leaves,
                    },
                });
            }
        }
    }
    Ok(())
}

/// The moves of the current round of a match (`rounds[k](...)`), each with
/// the whole match position after it.
fn list_round_moves(solved: &Solved, list: &mut MoveList) -> Result<(), Failure> {
    let position = &solved.position;
    let Compound::Rounds { rounds, start } = &position.compound else {
        return Ok(());
    };
    let budget = list.budget;
    let whole_winning: Vec<&WinningMove> = solved.answer.winning_moves.iter().collect();
    for m in whole_winning.iter().take(list.room()) {
        list.push(Listed {
            description: m.description.clone(),
            after: Ok((false, None)),
            replies: 0,
            target: None,
            change: Change::Whole {
                to: solved.answer.target(m),
                term: m.group,
                component: m.part,
            },
        });
    }
    if solved.answer.truncated || !solved.answer.moves_counted {
        list.complete = false;
    }
    for (g, group) in position.groups.iter().enumerate() {
        for (i, part) in group.parts.iter().enumerate() {
            budget.check_time()?;
            let first = part
                .first_moves(list.room() + whole_winning.len())
                .map_err(|e| Failure::search(&e, Door::CommandLine))?;
            if !first.complete {
                list.complete = false;
            }
            for leaves in first.moves {
                let after = match_position(
                    rounds.clone(),
                    start.clone(),
                    position.groups_after(g, i, &leaves),
                );
                let to = PositionText::new(&after).as_str().to_owned();
                if whole_winning.iter().any(|m| solved.answer.target(m) == to) {
                    continue;
                }
                if list.room() == 0 {
                    list.complete = false;
                    break;
                }
                budget.check_time()?;
                list.push(Listed {
                    description: part.describe_move(&leaves),
                    after: whole_value(&after, budget),
                    replies: 0,
                    target: None,
                    change: Change::Whole {
                        to,
                        term: g,
                        component: i,
                    },
                });
            }
        }
    }
    Ok(())
}

/// The moves of `every(...)`: each moves every component that can move. The
/// winning moves first, then the others in order (the first component's
/// moves varying slowest), up to the limit.
fn list_every_moves(solved: &Solved, list: &mut MoveList) -> Result<(), Failure> {
    let position = &solved.position;
    let budget = list.budget;
    let winning: Vec<String> = solved
        .answer
        .winning_moves
        .iter()
        .map(|m| solved.answer.target(m))
        .collect();
    for (m, to) in solved.answer.winning_moves.iter().zip(&winning) {
        if list.room() == 0 {
            break;
        }
        list.push(Listed {
            description: m.description.clone(),
            after: Ok((false, None)),
            replies: 0,
            target: None,
            change: Change::Whole {
                to: to.clone(),
                term: 0,
                component: 0,
            },
        });
    }
    if solved.answer.truncated || !solved.answer.moves_counted {
        list.complete = false;
    }
    // Each component's moves (a sample of a large one); the moves of the
    // whole are their combinations.
    let mut choices: Vec<(usize, usize, Vec<Vec<Part>>)> = Vec::new();
    for (g, group) in position.groups.iter().enumerate() {
        for (i, part) in group.parts.iter().enumerate() {
            budget.check_time()?;
            let first = part
                .first_moves(budget.max_options)
                .map_err(|e| Failure::search(&e, Door::CommandLine))?;
            if !first.complete {
                list.complete = false;
            }
            if !first.moves.is_empty() {
                choices.push((g, i, first.moves));
            } else if !first.complete {
                // A component that can move but lists no move: no move of the
                // whole can be written.
                return Ok(());
            }
        }
    }
    if choices.is_empty() {
        return Ok(());
    }
    let mut choice = vec![0usize; choices.len()];
    loop {
        budget.check_time()?;
        let mut groups: Vec<Group> = position.groups.clone();
        let mut descriptions = Vec::with_capacity(choices.len());
        // From the last component back, so that indices stay valid.
        for (c, (g, i, moves)) in choices.iter().enumerate().rev() {
            let leaves = &moves[choice[c]];
            descriptions.push(position.groups[*g].parts[*i].describe_move(leaves));
            groups[*g].parts.splice(*i..=*i, leaves.iter().cloned());
        }
        descriptions.reverse();
        let after = Position {
            convention: position.convention,
            compound: Compound::Every,
            groups,
        };
        let to = PositionText::new(&after).as_str().to_owned();
        if !winning.contains(&to) {
            if list.room() == 0 {
                list.complete = false;
                return Ok(());
            }
            list.push(Listed {
                description: descriptions.join("; "),
                after: whole_value(&after, budget),
                replies: 0,
                target: None,
                change: Change::Whole {
                    to,
                    term: 0,
                    component: 0,
                },
            });
        }
        // The next combination: the last component's moves vary fastest.
        let mut c = choices.len();
        loop {
            if c == 0 {
                return Ok(());
            }
            c -= 1;
            choice[c] += 1;
            if choice[c] < choices[c].2.len() {
                break;
            }
            choice[c] = 0;
        }
    }
}

/// The value of a whole position after a move, by a search within budget.
fn whole_value(after: &Position, budget: &Budget) -> Result<(bool, Option<BigUint>), String> {
    budget.value(|options| {
        solve(after, options).map(|answer| (answer.outcome.first_player_wins(), answer.nimber))
    })
}

/// The nimber of a component a move leaves, by theory or by a search of it
/// alone under the valuing deadline, in `tabulator`'s graph (shared by the
/// moves of a position: their components have the same futures).
fn leaf_nimber(
    group: &Group,
    leaf: &Part,
    budget: &Budget,
    tabulator: &mut Tabulator,
) -> Result<BigUint, String> {
    if let Some((nimber, _)) = leaf.nimber_by_theory() {
        return Ok(nimber);
    }
    let alone = Position::sum(
        Convention::Normal,
        vec![group.with_parts(vec![leaf.clone()])],
    );
    // The search runs under the valuing deadline; one stopped by it leaves the
    // tabulator unused, as every later move is past it.
    budget
        .value(|_| tabulator.nimber(&alone))?
        .ok_or_else(|| "the nimber after the move is unknown".to_owned())
}

/// A failure's message without its `error: ` prefix.
pub fn message_of(failure: Failure) -> String {
    let text = failure.message();
    text.strip_prefix("error: ").unwrap_or(&text).to_owned()
}

/// One component of the sum: its term, where it stands, its nimber alone
/// under normal play and its picture.
#[derive(Debug, Serialize)]
pub struct PartView {
    /// The component as a term of its own: `nim(5)`.
    term: String,
    /// The index of its term (group) in the sum.
    group: usize,
    /// Its index within the term.
    component: usize,
    /// Its nimber under normal play, where known.
    nimber: Option<Integer>,
    /// Its picture, if its family draws it.
    drawing: Option<DrawingView>,
}

/// The most components the answer shows (`parts`): a page draws no more, and
/// a sum of a million heaps would repeat each one in a body of 100 MB. All of
/// them are still valued (their nimbers value the moves).
const PARTS_SHOWN: usize = 1000;

/// A component whose text is longer than this (a staircase of a million steps)
/// is shown without a drawing: no page draws it, and its drawing would be as
/// long as its text again.
const DRAWN_UP_TO: usize = WHOLE_TARGETS_UP_TO;

/// Each component alone with its nimber under normal play (also by term, for
/// valuing moves), and the nim-sum of them all when every one is known; the
/// first [`PARTS_SHOWN`] of them as the answer shows them.
fn parts(
    position: &Position,
    budget: &Budget,
) -> Result<(Vec<PartView>, Nimbers, Option<BigUint>), Failure> {
    let mut parts = Vec::new();
    let mut nimbers = Vec::with_capacity(position.groups.len());
    let mut nim_sum = Some(BigUint::default());
    for (g, group) in position.groups.iter().enumerate() {
        let mut of_group = Vec::with_capacity(group.parts.len());
        for (i, part) in group.parts.iter().enumerate() {
            budget.check_time()?;
            let nimber = part_nimber(group, part, budget);
            nim_sum = match (nim_sum, &nimber) {
                (Some(sum), Some(nimber)) => Some(sum ^ nimber),
                _ => None,
            };
            if parts.len() < PARTS_SHOWN {
                let term = group.term_with(std::slice::from_ref(part));
                let drawing = if term.len() > DRAWN_UP_TO {
                    None
                } else {
                    part.drawing().as_ref().map(DrawingView::from)
                };
                parts.push(PartView {
                    term,
                    group: g,
                    component: i,
                    nimber: nimber.as_ref().map(Integer::from),
                    drawing,
                });
            }
            of_group.push(nimber);
        }
        nimbers.push(of_group);
    }
    Ok((parts, nimbers, nim_sum))
}

fn part_nimber(group: &Group, part: &Part, budget: &Budget) -> Option<BigUint> {
    if let Some((nimber, _)) = part.nimber_by_theory() {
        return Some(nimber);
    }
    let alone = Position::sum(
        Convention::Normal,
        vec![group.with_parts(vec![part.clone()])],
    );
    solve(&alone, &budget.options(false)).ok()?.nimber
}

/// The components' nimbers of a plain sum, or none for `every(...)` and
/// `rounds[k](...)`, whose moves are valued by search.
fn nimbers_of(
    solved: &Solved,
    budget: &Budget,
) -> Result<(Vec<PartView>, Nimbers, Option<BigUint>), Failure> {
    if solved.position.compound == Compound::Sum {
        parts(&solved.position, budget)
    } else {
        Ok((Vec::new(), Vec::new(), None))
    }
}

/// The playground's answer: the `solve --json` object with `parts` (each
/// component, its nimber and its drawing), `nim_sum`, `moves` (the winning
/// moves first, then the others, with the outcome and nimber after each,
/// whether it wins and what a click on the drawing plays it),
/// `moves_complete` and `play_note`.
#[derive(Debug, Serialize)]
pub struct Analysis {
    /// The `solve --json` object, its fields first.
    #[serde(flatten)]
    answer: Value,
    /// Each component alone (plain sums only), the first [`PARTS_SHOWN`].
    parts: Vec<PartView>,
    /// Whether `parts` shows every component.
    parts_complete: bool,
    /// The nim-sum of the parts' nimbers, when all are known.
    nim_sum: Option<Integer>,
    /// The moves listed, with their values: the winning moves first.
    moves: Vec<MoveView>,
    /// Whether every move is listed.
    moves_complete: bool,
    /// Why moves are missing, when they are.
    #[serde(skip_serializing_if = "Option::is_none")]
    play_note: Option<String>,
}

/// Why not every move is listed, for `play_note`.
fn play_note(moves: &Moves, budget: &Budget) -> Option<String> {
    if moves.complete {
        return None;
    }
    let why = moves.stopped.clone().unwrap_or_else(|| {
        format!(
            "the position has more moves than the server lists (at most {}; --max-options raises it)",
            budget.max_options
        )
    });
    Some(format!(
        "not every move is listed: {why}; the winning moves come first, then a sample of the others"
    ))
}

/// Answers `source` for the playground: see [`Analysis`].
pub fn analyse(source: &str, budget: &Budget) -> Result<Analysis, Failure> {
    let solved = solve_source(source, budget)?;
    let answer = answer_json(&solved.answer, &solved.position);
    let (parts, nimbers, nim_sum) = nimbers_of(&solved, budget)?;
    let moves = list_moves(&solved, &nimbers, budget)?;
    let shown = nimbers.iter().map(Vec::len).sum::<usize>() <= PARTS_SHOWN;
    Ok(Analysis {
        answer,
        parts,
        parts_complete: shown,
        nim_sum: nim_sum.as_ref().map(Integer::from),
        moves: moves.listed.iter().map(|m| m.view(&moves)).collect(),
        moves_complete: moves.complete,
        play_note: play_note(&moves, budget),
    })
}

/// The most positions (and components) the engine's remoteness search stores; past
/// it the engine falls back on counting the opponent's replies.
const REMOTENESS_LIMIT: usize = 50_000;

/// The remoteness after each listed move (`grundy::sums::remoteness`), when the
/// sum is a plain normal-play sum, small enough to be printed whole in each
/// move, whose graph fits the limits (states, and the memory limit).
fn remoteness_after(solved: &Solved, moves: &Moves, budget: &Budget) -> Option<Vec<u32>> {
    let position = &solved.position;
    if moves.compact || position.compound != Compound::Sum {
        return None;
    }
    let positions: Option<Vec<Position>> = moves
        .listed
        .iter()
        .map(|m| match &m.change {
            Change::Component {
                group,
                part,
                leaves,
            } => Some(Position {
                convention: position.convention,
                compound: Compound::Sum,
                groups: position.groups_after(*group, *part, leaves),
            }),
            Change::Whole { .. } => None,
        })
        .collect();
    let limit = SearchBudget {
        states: budget.max_states.min(REMOTENESS_LIMIT),
        bytes: budget.build.bytes,
    };
    remotenesses(&positions?, limit).ok().flatten()
}

/// Whether no component of `position` can move (a match of rounds: none of
/// its current round's).
fn is_terminal(position: &Position) -> Result<bool, Failure> {
    for part in position.groups.iter().flat_map(|group| &group.parts) {
        let first = part
            .first_moves(1)
            .map_err(|e| Failure::search(&e, Door::CommandLine))?;
        if !first.moves.is_empty() {
            return Ok(false);
        }
        if !first.complete {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The engine's answer: its move and why.
#[derive(Debug, Serialize)]
pub struct EngineReply {
    /// The position the engine moves from.
    position: String,
    /// Who wins it: `"N"` or `"P"`.
    outcome: String,
    /// The move, as in [`Analysis`]'s moves; null only when the position is
    /// terminal.
    #[serde(rename = "move")]
    chosen: Option<MoveView>,
    /// `"winning"`, `"prolonging"`, or why there is no move.
    reason: &'static str,
    /// How many moves the game lasts after the engine's move under perfect
    /// play, when the remoteness was found.
    remoteness: Option<u32>,
    /// How the move was chosen: `"remoteness"` or `"replies"`.
    by: &'static str,
}

/// The engine's move from `source`:
/// `{"position", "outcome", "move", "reason", "remoteness", "by"}`.
///
/// A perfect player's move when the sum's graph is small enough to search whole
/// (normal play; `by`: `"remoteness"`): the winning move that wins quickest, or in a
/// lost position the move that makes the loss slowest, so that the opponent must keep
/// finding winning moves as long as possible (Steinhaus's and Smith's remoteness,
/// Winning Ways ch. 9). `remoteness` is then how many moves the game lasts after the
/// engine's move under such play. Otherwise (`by`: `"replies"`): the first winning
/// move, or the move that leaves the opponent the most moves of their own (ties: the
/// largest nimber after it, then the first listed). The moves are those the
/// playground lists ([`analyse`]: the winning moves, then the others or a sample).
/// `move` is null only when there is no move (the player to move has lost); a
/// position with moves none of which can be listed within the limits is a
/// limit's error.
pub fn engine_move(source: &str, budget: &Budget) -> Result<EngineReply, Failure> {
    let solved = solve_source(source, budget)?;
    let answer = &solved.answer;
    let outcome = answer.outcome.letter().to_string();
    let (_, nimbers, _) = nimbers_of(&solved, budget)?;
    let moves = list_moves(&solved, &nimbers, budget)?;
    budget.check_time()?;
    let remoteness = remoteness_after(&solved, &moves, budget);
    let by = if remoteness.is_some() {
        "remoteness"
    } else {
        "replies"
    };
    let remoteness_of = |index: usize| remoteness.as_ref().map(|r| r[index]);
    // The quickest win: a winning move (the solver's word) to the least remoteness,
    // which is even (a P-position) exactly when the move wins.
    let winning = moves
        .listed
        .iter()
        .enumerate()
        .filter(|(_, m)| m.wins() == Some(true))
        .min_by_key(|&(index, _)| remoteness_of(index));
    let (chosen, reason) = if let Some((index, winning)) = winning {
        (Some((index, winning)), "winning")
    } else {
        let nimber = |m: &Listed| m.after.as_ref().ok().and_then(|(_, n)| n.clone());
        let longest = moves
            .listed
            .iter()
            .enumerate()
            .max_by(|&(ia, a), &(ib, b)| {
                remoteness_of(ia)
                    .cmp(&remoteness_of(ib))
                    .then_with(|| a.replies.cmp(&b.replies))
                    .then_with(|| nimber(a).cmp(&nimber(b)))
                    .then_with(|| ib.cmp(&ia))
            });
        match longest {
            Some(chosen) => (Some(chosen), "prolonging"),
            None if moves.complete || is_terminal(&solved.position)? => (
                None,
                if answer.outcome.first_player_wins() {
                    "no move: the game is over, and under misère play the player to move has won"
                } else {
                    "no move: the player to move has lost"
                },
            ),
            None => {
                return Err(Failure::limit(format!(
                    "error: the position has moves, but none could be listed within the server's limits ({})",
                    play_note(&moves, budget).unwrap_or_default()
                )));
            }
        }
    };
    Ok(EngineReply {
        position: answer.position.as_str().to_owned(),
        outcome,
        remoteness: chosen.and_then(|(index, _)| remoteness_of(index)),
        chosen: chosen.map(|(_, m)| m.view(&moves)),
        reason,
        by,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The playground's answer as the page reads it.
    fn analysed(source: &str, budget: &Budget) -> Value {
        serde_json::to_value(analyse(source, budget).unwrap()).unwrap()
    }

    /// The engine's answer as the page reads it.
    fn engine_answer(source: &str, budget: &Budget) -> Value {
        serde_json::to_value(engine_move(source, budget).unwrap()).unwrap()
    }

    fn budget() -> Budget {
        Budget {
            max_states: 100_000,
            max_digits: 100,
            build: BuildLimits::default(),
            max_options: 50,
            deadline: Instant::now() + Duration::from_secs(60),
            request_deadline: Instant::now() + Duration::from_secs(60),
            time: Duration::from_secs(60),
        }
    }

    #[test]
    fn files_are_refused_and_messages_lose_their_prefix() {
        assert!(refuse_files("nim(3, 5)").is_ok());
        let refused = refuse_files("nim(@heaps.txt)").unwrap_err();
        assert!(message_of(refused).starts_with("positions read from files"));
    }

    #[test]
    fn every_move_is_valued_and_the_engine_prolongs_a_lost_game() {
        let answer = analysed("nim(1, 2) + bash[2](3)", &budget());
        // G(1) ^ G(2) ^ G_bash2(3) = 1 ^ 2 ^ 0.
        assert_eq!(answer["nim_sum"], 3);
        assert_eq!(answer["moves"].as_array().unwrap().len(), 1 + 2 + 2);
        let engine = engine_answer("nim(1, 2) + bash[2](3)", &budget());
        assert_eq!(engine["reason"], "winning");
        assert_eq!(engine["move"]["to"], "nim(1, 1) + bash[2](3)");
        // Lost: the move leaving the most moves takes one token from the heap of 2.
        let engine = engine_answer("nim(2, 2)", &budget());
        assert_eq!(engine["reason"], "prolonging");
        assert_eq!(engine["move"]["to"], "nim(1, 2)");
    }

    /// The remoteness of a position in the playground's text.
    fn remoteness(source: &str) -> u32 {
        let position = build_with(
            &parse_with_limits(source, 100).unwrap(),
            BuildLimits::default(),
        );
        remotenesses(&[position.unwrap()], SearchBudget::states(100_000))
            .unwrap()
            .unwrap()[0]
    }

    #[test]
    fn the_engine_wins_quickest_and_loses_slowest() {
        for source in [
            "nim(3, 5, 6, 7)",
            "nim(2, 3) + kayles(5)",
            "wythoff(4, 9)",
            "sub[1, 2](5) + nim(1, 4)",
            "nim(2, 2)",
            "nim(1, 2, 3) + kayles(4)",
            "wythoff(3, 5) + nim(1, 1)",
        ] {
            let engine = engine_answer(source, &budget());
            assert_eq!(engine["by"], "remoteness", "{source}");
            let analysis = analysed(source, &budget());
            let moves = analysis["moves"].as_array().unwrap();
            let after: Vec<(u32, bool)> = moves
                .iter()
                .map(|m| (remoteness(m["to"].as_str().unwrap()), m["wins"] == true))
                .collect();
            let chosen = remoteness(engine["move"]["to"].as_str().unwrap());
            assert_eq!(engine["remoteness"], chosen, "{source}");
            if analysis["outcome"] == "N" {
                // The quickest win: the least remoteness among the winning moves,
                // and winning moves are exactly those to an even remoteness.
                assert_eq!(engine["reason"], "winning");
                let quickest = after
                    .iter()
                    .filter(|(_, wins)| *wins)
                    .map(|(r, _)| *r)
                    .min();
                assert_eq!(Some(chosen), quickest, "{source}");
                assert!(
                    after.iter().all(|&(r, wins)| wins == (r % 2 == 0)),
                    "{source}"
                );
            } else {
                assert_eq!(engine["reason"], "prolonging");
                let slowest = after.iter().map(|(r, _)| *r).max();
                assert_eq!(Some(chosen), slowest, "{source}");
            }
        }
    }

    #[test]
    fn past_the_remoteness_limit_the_engine_counts_replies() {
        let mut small = budget();
        small.max_states = 20;
        let engine = engine_answer("nim(6, 6, 6)", &small);
        assert_eq!(engine["by"], "replies");
        assert_eq!(engine["remoteness"], Value::Null);
        assert_eq!(engine["reason"], "winning");
    }

    #[test]
    fn parts_are_drawn_and_moves_say_what_a_click_plays() {
        let answer = analysed("nim(3) + wythoff(1, 2) + turtles(\"ht\")", &budget());
        let parts = answer["parts"].as_array().unwrap();
        assert_eq!(
            parts[0]["drawing"],
            serde_json::json!({"kind": "heaps", "heaps": [3]})
        );
        assert_eq!(
            parts[1]["drawing"],
            serde_json::json!({"kind": "wythoff", "x": 1, "y": 2})
        );
        assert_eq!(
            parts[2]["drawing"],
            serde_json::json!({"kind": "coins", "heads": [true, false]})
        );
        let target = |to: &str| {
            answer["moves"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["to"] == to)
                .map(|m| m["target"].clone())
                .unwrap_or_else(|| panic!("no move to {to}"))
        };
        assert_eq!(
            target("nim(1) + wythoff(1, 2) + turtles(\"ht\")"),
            serde_json::json!({"kind": "heap", "heap": 0, "level": 1})
        );
        assert_eq!(
            target("nim(3) + wythoff(0, 1) + turtles(\"ht\")"),
            serde_json::json!({"kind": "square", "x": 0, "y": 1})
        );
        assert_eq!(
            target("nim(3) + wythoff(1, 2) + turtles(\"tt\")"),
            serde_json::json!({"kind": "coin", "coin": 0})
        );
        // A split is the heap split and the heaps it leaves (the page lists
        // it under the heap's button).
        let split = analysed("kayles(3)", &budget());
        let split = split["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["to"] == "kayles(1, 1)")
            .unwrap()
            .clone();
        assert_eq!(
            split["target"],
            serde_json::json!({"kind": "split", "heap": 0, "into": [1, 1]})
        );
        // Games without a drawing have none.
        let words = analysed("prefix_game([\"ab\"])", &budget());
        assert_eq!(words["parts"][0]["drawing"], Value::Null);
    }

    /// The budget of one request under `grundy serve`'s default limits.
    fn server_budget() -> Budget {
        #[derive(clap::Parser)]
        struct Serve {
            #[command(flatten)]
            args: super::super::Args,
        }
        let serve = <Serve as clap::Parser>::parse_from(["serve"]);
        let args = serve.args;
        Budget {
            max_states: args.limits.max_states,
            max_digits: args.limits.max_digits,
            build: args.limits.build(),
            max_options: args.max_options,
            deadline: Instant::now() + args.request_time,
            request_deadline: Instant::now() + args.request_time,
            time: args.request_time,
        }
    }

    /// The position after `chosen`, a move as the page reads it: its `to`, or
    /// its compact form played on `source`.
    fn after(source: &str, chosen: &Value) -> String {
        if let Some(to) = chosen["to"].as_str() {
            return to.to_owned();
        }
        let played = CompactMove {
            term: chosen["term"].as_u64().unwrap() as usize,
            component: chosen["component"].as_u64().unwrap() as usize,
            component_to: chosen["component_to"].as_str().unwrap().to_owned(),
        };
        play_compact(source, &played, &server_budget()).unwrap()
    }

    /// Plays `example` for three plies as the page does, under the server's
    /// default limits: a refusal must be a limit's (422), never "no move".
    fn play_three_plies(example: &str) {
        let mut source = example.to_owned();
        // The answer as the page reads it; `None` for a limit's refusal,
        // which must not be "no move".
        fn read<T: Serialize>(answer: Result<T, Failure>, at: &str) -> Option<Value> {
            match answer {
                Ok(answer) => Some(serde_json::to_value(answer).unwrap()),
                Err(Failure::Limit { message, .. }) => {
                    assert!(!message.contains("no move"), "{at}: {message}");
                    None
                }
                Err(failure) => panic!("{at}: {}", message_of(failure)),
            }
        }
        for ply in 0..3 {
            let at = format!("{example}, ply {ply}: {source:.200}");
            let Some(analysis) = read(analyse(&source, &server_budget()), &at) else {
                return;
            };
            let moves = analysis["moves"].as_array().unwrap();
            let Some(engine) = read(engine_move(&source, &server_budget()), &at) else {
                return;
            };
            if engine["move"].is_null() {
                // Only a terminal position: lost (won under misère play), with
                // no move listed.
                let lost = if analysis["convention"] == "misere" {
                    "N"
                } else {
                    "P"
                };
                assert_eq!(analysis["outcome"], lost, "{at}");
                assert!(moves.is_empty(), "{at}: {moves:?}");
                assert_eq!(analysis["moves_complete"], true, "{at}");
                return;
            }
            assert!(!moves.is_empty(), "{at}: the engine moves, none is listed");
            let winning: Vec<&Value> = moves.iter().filter(|m| m["wins"] == true).collect();
            if analysis["outcome"] == "N" {
                assert!(!winning.is_empty(), "{at}: N, but no listed move wins");
                assert_eq!(engine["reason"], "winning", "{at}");
            }
            if let Some(first) = winning.first() {
                let to = after(&source, first);
                let reply = analyse(&to, &server_budget()).unwrap();
                let reply = serde_json::to_value(reply).unwrap();
                assert_eq!(reply["outcome"], "P", "{at}: a winning move to {to:.200}");
            }
            source = after(&source, &engine["move"]);
        }
    }

    #[test]
    fn every_picker_example_is_played_for_three_plies() {
        let examples = grundy::catalogue::entries()
            .iter()
            .flat_map(|entry| entry.examples.iter())
            .filter(|example| !example.contains('@'));
        for example in examples {
            let started = Instant::now();
            play_three_plies(example);
            // Each request is bounded by the server's time limit (10 s).
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "{example}: {:?}",
                started.elapsed()
            );
        }
    }

    #[test]
    fn heaps_larger_than_the_move_limit_list_their_moves() {
        // The rule's moves, not the heap's sizes: two, two, and 299 splits.
        for (source, count) in [
            ("bash[2](301)", 2),
            ("sub[2, 5](301)", 2),
            ("grundy_game(600)", 299),
            ("sub[1..99 step 2](1000)", 50),
        ] {
            let answer = analysed(source, &server_budget());
            assert_eq!(answer["moves"].as_array().unwrap().len(), count, "{source}");
            assert_eq!(answer["moves_complete"], true, "{source}");
        }
        // A heap of 10^40 lists a sample, its winning move first.
        let answer = analysed(
            "nim(10000000000000000000000000000000000000000, 1)",
            &server_budget(),
        );
        let moves = answer["moves"].as_array().unwrap();
        assert_eq!(moves[0]["wins"], true);
        assert_eq!(moves[0]["to"], "nim(1, 1)");
        assert_eq!(moves.len(), 300);
        assert_eq!(answer["moves_complete"], false);
        assert!(
            answer["play_note"]
                .as_str()
                .unwrap()
                .contains("winning moves come first")
        );
    }

    #[test]
    fn compound_positions_list_their_moves_whole() {
        for source in [
            "every(nim(1, 2) + bash[2](5))",
            "rounds[2](bash[2](4))",
            "rounds[4](nim(2, 3), nim(1, 3))",
        ] {
            let answer = analysed(source, &budget());
            let moves = answer["moves"].as_array().unwrap();
            assert!(!moves.is_empty(), "{source}");
            for m in moves {
                let to = m["to"].as_str().unwrap();
                let after = analysed(to, &budget());
                assert_eq!(m["outcome"], after["outcome"], "{source} -> {to}");
            }
            let engine = engine_answer(source, &budget());
            assert!(!engine["move"].is_null(), "{source}");
        }
        // every(...) moves each component that can move: 1 * 2 * 2 moves.
        let every = analysed("every(nim(1, 2) + bash[2](5))", &budget());
        assert_eq!(every["moves"].as_array().unwrap().len(), 4);
        assert_eq!(every["moves_complete"], true);
    }

    #[test]
    fn large_positions_send_moves_compact_and_play_them() {
        let heaps = vec!["1"; 4001].join(", ");
        let source = format!("nim({heaps}) + bash[2](5)");
        let answer = analysed(&source, &budget());
        let moves = answer["moves"].as_array().unwrap();
        assert!(
            moves.iter().all(|m| m["to"].is_null()),
            "compact above 10,000 bytes"
        );
        // The winning move first: the bash heap of 5 (nimber 2) to 4 (nimber 1),
        // as the 4001 heaps of 1 have nim-sum 1.
        let first = &moves[0];
        assert_eq!(first["wins"], true);
        assert_eq!(first["component_to"], "bash[2](4)");
        let to = after(&source, first);
        assert_eq!(to, format!("nim({heaps}) + bash[2](4)"));
        // Played, it is answered as the position sent whole.
        let whole = analysed(&to, &budget());
        assert_eq!(whole["outcome"], "P");
        // A move into another game, or out of range, is refused.
        for (term, component, into) in [
            (1, 0, "nim(3)"),
            (0, 0, "bash[3](1)"),
            (2, 0, "nim(0)"),
            (0, 4001, "nim(0)"),
        ] {
            let played = CompactMove {
                term,
                component,
                component_to: into.to_owned(),
            };
            assert!(matches!(
                play_compact(&source, &played, &budget()),
                Err(Failure::input(_))
            ));
        }
    }

    #[test]
    fn a_passed_deadline_is_the_time_limit() {
        let mut late = budget();
        late.deadline = Instant::now() - Duration::from_secs(1);
        let failure = analyse("nim(3, 5, 7)", &late).unwrap_err();
        assert!(message_of(failure).contains("(the time limit)"));
    }
}
