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

use crate::sums::position::{Compound, Position};
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
    match &position.compound {
        Compound::Sum => {}
        Compound::Every => return crate::sums::every_sg::solve_every(position, options),
        Compound::Rounds { rounds, start } => {
            return crate::sums::rounds::solve_rounds(position, rounds, start, options);
        }
    }
    crate::sums::disjunctive::solve_sum(position, options)
}
