//! The engine's move ([`engine_move`]): a perfect player's, by remoteness
//! when the sum's graph is small enough to search whole, otherwise by the
//! replies a move leaves the opponent.

use serde::Serialize;

use crate::sums::position::{Compound, Position};
use crate::sums::remoteness::remotenesses;
use crate::theory::limits::Budget;
use crate::workflow::Failure;

use super::moves::{Change, Listed, MoveView, Moves, list_moves};
use super::request::RequestLimits;
use super::{DOOR, Solved, nimbers_of, play_note, solve_source};

/// The most positions (and components) the engine's remoteness search stores; past
/// it the engine falls back on counting the opponent's replies.
const REMOTENESS_LIMIT: usize = 50_000;

/// The remoteness after each listed move (`grundy::sums::remoteness`), when the
/// sum is a plain normal-play sum, small enough to be printed whole in each
/// move, whose graph fits the limits (states, and the memory limit).
fn remoteness_after(solved: &Solved, moves: &Moves, budget: &RequestLimits) -> Option<Vec<u32>> {
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
    let limit = Budget {
        states: budget.limits.states.min(REMOTENESS_LIMIT),
        bytes: budget.limits.bytes,
    };
    remotenesses(&positions?, limit).ok().flatten()
}

/// Whether no component of `position` can move (a match of rounds: none of
/// its current round's).
fn is_terminal(position: &Position) -> Result<bool, Failure> {
    for part in position.groups.iter().flat_map(|group| &group.parts) {
        let first = part.first_moves(1).map_err(|e| Failure::search(&e, DOOR))?;
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
    /// The move, as in [`Analysis`](super::Analysis)'s moves; null only
    /// when the position is terminal.
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
/// playground lists ([`analyse`](super::analyse): the winning moves, then the
/// others or a sample).
/// `move` is null only when there is no move (the player to move has lost); a
/// position with moves none of which can be listed within the limits is a
/// limit's error.
pub fn engine_move(source: &str, budget: &RequestLimits) -> Result<EngineReply, Failure> {
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
