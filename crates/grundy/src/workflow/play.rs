//! What the playground shows of a position, and the engine's move.
//!
//! [`analyse`] answers a position as `grundy solve --json` does and adds what a
//! player needs to see: each component with its nimber (`parts`, `nim_sum`) and
//! the available moves with the value of the position each leads to (`moves`),
//! so that the page can colour each move win or lose. Every move is listed when
//! they fit `--max-options`; past it, the winning moves first (known from the
//! answer), then a sample of the others (each component's
//! [`first_moves`](crate::family::Component::first_moves): its rule's moves,
//! never one per heap size). `every(...)` and `rounds[k](...)` positions list
//! their moves whole. Above 10,000 bytes of position text a move in one
//! component is sent compact (`to: null`, `component_to`), and
//! [`play_compact`] plays such a move sent back. [`engine_move`] chooses a
//! move as a perfect player does: the quickest win, or the slowest loss (by
//! remoteness, when the sum's graph is small enough to search whole).
//!
//! Every solve here runs within the request's budget ([`RequestLimits`]): a state
//! limit, build limits, and a deadline checked by the search's progress hook
//! and between moves. What a request holds is bounded too: the move list (a
//! quarter of the memory limit), the remoteness search (the memory limit), and
//! no copy of a large position per move (under normal play the value after a
//! move follows from the components' nimbers).
//!
//! The web server (`grundy serve`) parses a request, calls these functions
//! and sends what they return as JSON; their failures name the server's
//! settings (`--max-states N`, `--request-time SECONDS`, ...).

mod engine;
mod games;
mod message;
mod moves;
mod request;
mod view;

use num_bigint::BigUint;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::catalogue::build_with;
use crate::family::Part;
use crate::lang::parse_with_limits;
use crate::sums::analysis::{Answer, SolveOptions, solve};
use crate::sums::position::{Compound, Group, Position, PositionText};
use crate::sums::report::WHOLE_TARGETS_UP_TO;
use crate::theory::game::Convention;
use crate::workflow::{Door, Failure};

pub use self::engine::{EngineReply, engine_move};
pub use self::games::{Games, games};
pub use self::message::{excerpt, message_of};
use self::moves::{MoveView, Moves, Nimbers, list_moves};
pub use self::request::{
    DEFAULT_MAX_OPTIONS, DEFAULT_REQUEST_TIME, RequestLimits, default_limits, time_up,
};
use self::view::{DrawingView, Integer};

/// The front end the playground's failures are said through: its server,
/// whose limits are its flags (`--max-states N`).
const DOOR: Door = Door::CommandLine;

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

/// `source` parsed, built and answered within `budget`, its winning moves
/// listed (up to `budget.max_options`).
fn solve_source(source: &str, budget: &RequestLimits) -> Result<Solved, Failure> {
    let position = build_source(source, budget)?;
    budget.check_time()?;
    // The winning moves come first in the list of moves: as many as it lists.
    let options = SolveOptions {
        max_moves: budget.max_options,
        ..budget.options(true)
    };
    let answer = solve(&position, &options).map_err(|e| Failure::search(&e, DOOR))?;
    Ok(Solved { position, answer })
}

/// `source` parsed and built within `budget` (files refused).
fn build_source(source: &str, budget: &RequestLimits) -> Result<Position, Failure> {
    refuse_files(source)?;
    let sum = parse_with_limits(source, budget.limits.digits)
        .map_err(|e| Failure::language(&e, source, DOOR))?;
    build_with(&sum, budget.build()).map_err(|e| Failure::language(&e, source, DOOR))
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
    budget: &RequestLimits,
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
    budget: &RequestLimits,
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

fn part_nimber(group: &Group, part: &Part, budget: &RequestLimits) -> Option<BigUint> {
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
    budget: &RequestLimits,
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
fn play_note(moves: &Moves, budget: &RequestLimits) -> Option<String> {
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
pub fn analyse(source: &str, budget: &RequestLimits) -> Result<Analysis, Failure> {
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

/// The `solve --json` object of `answer` (of `position`), as a JSON value.
fn answer_json(answer: &Answer, position: &Position) -> Value {
    serde_json::from_str(&crate::sums::report::answer_json(answer, position)).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests;
