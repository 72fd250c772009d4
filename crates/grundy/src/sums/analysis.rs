//! Answering a position: who wins, its nimber, and every winning move.
//!
//! Under normal play the answer follows the Sprague-Grundy theorem: the nimber
//! of a sum is the nim-sum `X` of its components' nimbers, the first player wins
//! iff `X ≠ 0`, and the winning moves are exactly the moves of a component of
//! nimber `g` to a position of nimber `g ⊕ X` (Bouton 1901 for Nim; Winning
//! Ways ch. 4 in general). Each component answers by theory where it has one,
//! otherwise by search of its explored graph.
//!
//! Under misère play the theorem fails, so the whole sum is searched as one game.
//!
//! ```
//! use grundy::sums::analysis::{solve, SolveOptions};
//! use grundy::catalogue::build;
//! use grundy::lang::parse;
//!
//! let position = build(&parse("nim(3, 5, 7)").unwrap()).unwrap();
//! let answer = solve(&position, &SolveOptions::default()).unwrap();
//! assert!(answer.outcome.first_player_wins());
//! assert_eq!(answer.nimber, Some(1u32.into()));
//! assert_eq!(answer.target(&answer.winning_moves[2]), "nim(3, 5, 6)");
//! assert_eq!(answer.winning_moves[2].description, "take 1 from the heap of 7");
//! assert_eq!(answer.winning_move_count, 3u32.into()); // 3 → 2, 5 → 4, 7 → 6
//! ```

use crate::sums::position::{Compound, Position, PositionText};
use crate::theory::checkpoint::{Checkpoint, CheckpointError};
use crate::theory::game::Convention;
use crate::theory::solver::SearchError;

pub use crate::sums::answer::{
    Answer, DEFAULT_MAX_MEMORY, DEFAULT_MAX_STATES, SearchCost, SolveOptions, WinningMove,
};
pub use crate::sums::explorer::{ProgressHook, SearchProgress};

/// Answers `position`.
///
/// # Errors
/// [`SearchError::StateLimit`] when a search needs more positions than
/// `options.max_states`; [`SearchError::CountLimit`] when the winning moves of
/// a component are beyond counting (a Rest Nim heap above 1024 tokens);
/// [`SearchError::Cycle`] for a loopy game.
pub fn solve(position: &Position, options: &SolveOptions) -> Result<Answer, SearchError> {
    if let Some(checkpoint) = &options.checkpoint {
        check_checkpoint(position, checkpoint)?;
    }
    match &position.compound {
        Compound::Sum => {}
        Compound::Every => return crate::sums::every_sg::solve_every(position, options),
        Compound::Rounds { rounds, start } => {
            return crate::sums::rounds::solve_rounds(position, rounds, start, options);
        }
    }
    crate::sums::disjunctive::solve_sum(position, options)
}

/// Whether `position` can keep its search's progress in `checkpoint`: one
/// component under normal play whose family's search keeps checkpoints
/// (Cram's board search); and, if the file exists, whether it is a
/// checkpoint of this position by this grundy (so that a wrong file is
/// refused even when the answer needs no search).
///
/// # Errors
/// [`SearchError::Checkpoint`] saying why not.
fn check_checkpoint(position: &Position, checkpoint: &Checkpoint) -> Result<(), SearchError> {
    let text = PositionText::new(position);
    let refuse = |why: String| {
        Err(SearchError::Checkpoint(CheckpointError::NotApplicable {
            reason: format!(
                "a checkpoint (--checkpoint) keeps the progress of one Cram board searched alone \
                 under normal play (`cram(r, c)` or `cram(\"..#./....\")`), and {why}"
            ),
        }))
    };
    if !matches!(position.compound, Compound::Sum) || position.convention != Convention::Normal {
        return refuse(format!(
            "`{}` is not played under normal play",
            text.as_str()
        ));
    }
    let parts: Vec<_> = position.groups.iter().flat_map(|g| &g.parts).collect();
    match parts.as_slice() {
        [part] if part.keeps_checkpoints() => {}
        [_] => {
            return refuse(format!(
                "`{}` is answered otherwise (its game keeps no checkpoint)",
                text.as_str()
            ));
        }
        parts => {
            return refuse(format!(
                "`{}` is a sum of {} components: ask for each board alone",
                text.as_str(),
                parts.len()
            ));
        }
    }
    checkpoint
        .of(text.as_str())
        .check()
        .map_err(SearchError::Checkpoint)
}
