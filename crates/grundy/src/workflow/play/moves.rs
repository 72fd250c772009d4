//! The moves the playground lists for a position, each with the value of the
//! position it leads to ([`list_moves`]), and how the page reads each
//! ([`MoveView`]).

use num_bigint::BigUint;
use serde::Serialize;

use crate::family::Part;
use crate::sums::analysis::solve;
use crate::sums::answer::WinningMove;
use crate::sums::position::{Compound, Group, Position, PositionText};
use crate::theory::game::Convention;
// Above this many bytes of position text, each move in one component is sent
// compact (`to: null`, `component_to`), as `solve --json` sends its winning
// moves (docs/CONTRACT.md, "Compact winning moves").
use crate::sums::report::WHOLE_TARGETS_UP_TO;
use crate::sums::rounds::match_position;
use crate::sums::table::Tabulator;
use crate::workflow::Failure;

use super::request::RequestLimits;
use super::view::{Integer, Target, target};
use super::{DOOR, Solved};

/// How a listed move changes the position.
pub(super) enum Change {
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
pub(super) struct Listed {
    pub(super) change: Change,
    description: String,
    /// The answer after the move (whether the player then to move does not
    /// lose: wins, or draws a game that may go on for ever; and the nimber);
    /// `Err` when it could not be found in budget.
    pub(super) after: Result<(bool, Option<BigUint>), String>,
    /// Moves the opponent has after it (the engine's measure of length when
    /// remoteness is out of reach).
    pub(super) replies: usize,
    /// What a click on the component's picture plays this move, if anything.
    target: Option<Target>,
}

impl Listed {
    /// A winning move of the whole position (of `every(...)` or
    /// `rounds[k](...)`): it leaves the opponent a lost position, with no
    /// replies counted and no click target.
    fn winning_whole(description: String, to: String, term: usize, component: usize) -> Self {
        Self {
            description,
            after: Ok((false, None)),
            replies: 0,
            target: None,
            change: Change::Whole {
                to,
                term,
                component,
            },
        }
    }

    /// Whether the move wins: it leaves the opponent a lost position.
    pub(super) fn wins(&self) -> Option<bool> {
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
    pub(super) fn view(&self, moves: &Moves) -> MoveView {
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
pub(super) struct Moves {
    pub(super) listed: Vec<Listed>,
    /// Whether every move of the position is listed.
    pub(super) complete: bool,
    /// Why the list stopped short of the limit of moves, if it did.
    pub(super) stopped: Option<String>,
    /// The position's text, for the `to` of each move.
    text: PositionText,
    /// The position's terms, for each move's `component_to`.
    groups: Vec<Group>,
    /// Whether each move's `to` is left out (`component_to` says it).
    pub(super) compact: bool,
}

/// The moves of a position are listed with their values up to this many bytes
/// of the request's memory limit (the rest is the searches').
const MOVE_LIST_SHARE: u64 = 4;

/// The list of moves being built: at most `budget.max_options`, the bytes
/// they hold counted.
struct MoveList<'b> {
    budget: &'b RequestLimits,
    listed: Vec<Listed>,
    bytes: u64,
    complete: bool,
    stopped: Option<String>,
}

impl<'b> MoveList<'b> {
    const fn new(budget: &'b RequestLimits) -> Self {
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
        self.budget.limits.bytes / MOVE_LIST_SHARE
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
pub(super) type Nimbers = Vec<Vec<Option<BigUint>>>;

/// The moves of `solved` with their values: the winning moves the solver
/// found first, then the others up to `budget.max_options` (all of them, or
/// a sample of each component's: [`crate::family::Component::first_moves`]).
pub(super) fn list_moves(
    solved: &Solved,
    nimbers: &Nimbers,
    budget: &RequestLimits,
) -> Result<Moves, Failure> {
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
                .map_err(|e| Failure::search(&e, DOOR))?;
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
                                .map(|answer| (!answer.outcome.second_player_wins(), None))
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
                .map_err(|e| Failure::search(&e, DOOR))?;
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
        list.push(Listed::winning_whole(
            m.description.clone(),
            solved.answer.target(m),
            m.group,
            m.part,
        ));
    }
    if solved.answer.truncated || !solved.answer.moves_counted {
        list.complete = false;
    }
    for (g, group) in position.groups.iter().enumerate() {
        for (i, part) in group.parts.iter().enumerate() {
            budget.check_time()?;
            let first = part
                .first_moves(list.room() + whole_winning.len())
                .map_err(|e| Failure::search(&e, DOOR))?;
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
        list.push(Listed::winning_whole(
            m.description.clone(),
            to.clone(),
            0,
            0,
        ));
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
                .map_err(|e| Failure::search(&e, DOOR))?;
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
fn whole_value(
    after: &Position,
    budget: &RequestLimits,
) -> Result<(bool, Option<BigUint>), String> {
    budget.value(|options| {
        // A move to a draw is no win: only a position the player to move
        // loses (P) counts as won for the mover.
        solve(after, options).map(|answer| (!answer.outcome.second_player_wins(), answer.nimber))
    })
}

/// The nimber of a component a move leaves, by theory or by a search of it
/// alone under the valuing deadline, in `tabulator`'s graph (shared by the
/// moves of a position: their components have the same futures).
fn leaf_nimber(
    group: &Group,
    leaf: &Part,
    budget: &RequestLimits,
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
