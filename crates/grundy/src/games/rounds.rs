//! The k-round game: the same game played `k` times, the loser of each round
//! starting the next; only the last round counts (seed note `002`).
//!
//! # Theorem
//! Let `W` say that the first player can force a win of one round (normal play:
//! the position is an N-position) and `L` that the first player can force a
//! *loss* of one round, against an opponent who tries to stop him: that is
//! misère play (the player who cannot move has lost the round, which is what he
//! wants), so `L` is the misère outcome. Player A starts round 1. Then:
//!
//! * not `W`: B wins the match (B wins every round, so A starts every round);
//! * `W` and `L`: A wins (he loses rounds `1..k-1` on purpose, starts round `k`, wins it);
//! * `W` and not `L`: A wins iff `k` is odd.
//!
//! Proof: the starter of the last round wins the match iff `W`. Going back one
//! round, if starting the next round is good, both players want to lose this
//! one (misère play), and its starter gets what he wants iff `L`; if starting
//! the next round is bad, both want to win this one (normal play), and its
//! starter gets it iff `W`. With `W` and not `L`, "the starter of round `j`
//! wins the match" therefore alternates from round `k` down, which gives the
//! parity rule. Seed note `002` says the same ("先手能必胜, 也能故意输掉"), with
//! `dp[S][0]` its name for `L`; the tests check the rule against a direct search
//! of the whole match.
//!
//! ```
//! use grundy::games::rounds::{analyze, Player};
//! use grundy::game::ImpartialGame;
//! use num_bigint::BigUint;
//!
//! /// Take 1 or 2 from a heap.
//! struct TakeOneOrTwo;
//! impl ImpartialGame for TakeOneOrTwo {
//!     type Position = u32;
//!     fn moves(&self, heap: &u32, moves: &mut Vec<u32>) {
//!         moves.extend((1..=2).filter(|&take| take <= *heap).map(|take| heap - take));
//!     }
//! }
//!
//! // A heap of 5: the first player wins a round (5 is not a multiple of 3), and
//! // can lose one too (misère, 5 is not 1 more than a multiple of 3).
//! let analysis = analyze(&TakeOneOrTwo, &5, 1_000).unwrap();
//! assert!(analysis.can_force_win && analysis.can_force_loss);
//! assert_eq!(analysis.match_winner(&BigUint::from(10u8)).unwrap(), Player::First);
//! // A heap of 4 can be won but not lost on purpose: parity decides.
//! let analysis = analyze(&TakeOneOrTwo, &4, 1_000).unwrap();
//! assert!(analysis.can_force_win && !analysis.can_force_loss);
//! assert_eq!(analysis.match_winner(&BigUint::from(10u8)).unwrap(), Player::Second);
//! ```

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::Zero;

use crate::game::{ImpartialGame, Outcome};
use crate::solver::{SearchError, Solver};

/// What the first player of one round can force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoundsAnalysis {
    /// The first player can win a round (normal play outcome N).
    pub can_force_win: bool,
    /// The first player can lose a round whatever the opponent does (misère
    /// play outcome N).
    pub can_force_loss: bool,
}

/// A player of the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The player who starts the first round.
    First,
    /// The other player.
    Second,
}

/// Why the match has no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RoundsError {
    /// A match needs at least one round.
    #[error("the number of rounds must be at least 1")]
    NoRounds,
    /// The search stopped.
    #[error(transparent)]
    Search(#[from] SearchError),
}

/// What the first player of one round of `position` can force, by search.
///
/// # Errors
/// As [`Solver::nimber`], with `state_limit` stored positions.
pub fn analyze<G: ImpartialGame>(
    game: &G,
    position: &G::Position,
    state_limit: usize,
) -> Result<RoundsAnalysis, SearchError> {
    let mut solver = Solver::new(game).with_state_limit(state_limit);
    Ok(RoundsAnalysis {
        can_force_win: solver.outcome(position)? == Outcome::NextPlayerWins,
        can_force_loss: solver.misere_outcome(position)? == Outcome::NextPlayerWins,
    })
}

impl RoundsAnalysis {
    /// Who wins a match of `rounds` rounds.
    ///
    /// # Errors
    /// [`RoundsError::NoRounds`] for 0 rounds.
    pub fn match_winner(&self, rounds: &BigUint) -> Result<Player, RoundsError> {
        if rounds.is_zero() {
            return Err(RoundsError::NoRounds);
        }
        let first_wins = self.can_force_win && (self.can_force_loss || rounds.is_odd());
        Ok(if first_wins {
            Player::First
        } else {
            Player::Second
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustc_hash::FxHashMap;

    struct Subtraction(Vec<u32>);
    impl ImpartialGame for Subtraction {
        type Position = u32;
        fn moves(&self, heap: &u32, moves: &mut Vec<u32>) {
            moves.extend(self.0.iter().filter(|&&s| s <= *heap).map(|s| heap - s));
        }
    }

    /// Whether the player to move, in a round with `rounds` rounds left
    /// (this one included) at `position` of a match that restarts at `start`,
    /// wins the match: a direct search of the whole match.
    fn wins_match(
        game: &Subtraction,
        start: u32,
        rounds: u32,
        position: u32,
        memo: &mut FxHashMap<(u32, u32), bool>,
    ) -> bool {
        if let Some(&known) = memo.get(&(rounds, position)) {
            return known;
        }
        let mut options = Vec::new();
        game.moves(&position, &mut options);
        let wins = if options.is_empty() {
            // The player to move has lost this round; he starts the next one.
            rounds > 1 && wins_match(game, start, rounds - 1, start, memo)
        } else {
            options
                .iter()
                .any(|&option| !wins_match(game, start, rounds, option, memo))
        };
        memo.insert((rounds, position), wins);
        wins
    }

    #[test]
    fn the_rule_matches_a_search_of_the_whole_match() {
        let mut seen = [false; 3];
        for rule in [
            vec![1, 2],
            vec![1, 3, 4],
            vec![2, 3],
            vec![1, 4],
            vec![2, 5],
            vec![3, 4, 7],
        ] {
            let game = Subtraction(rule.clone());
            for start in 0..30 {
                let analysis = analyze(&game, &start, 10_000).unwrap();
                seen[usize::from(analysis.can_force_win)
                    + usize::from(analysis.can_force_win && analysis.can_force_loss)] = true;
                for rounds in 1..8u32 {
                    let mut memo = FxHashMap::default();
                    let expected = if wins_match(&game, start, rounds, start, &mut memo) {
                        Player::First
                    } else {
                        Player::Second
                    };
                    let found = analysis.match_winner(&BigUint::from(rounds)).unwrap();
                    assert_eq!(
                        found, expected,
                        "{rule:?} from {start}, {rounds} rounds: {analysis:?}"
                    );
                }
            }
        }
        // All three cases of the theorem occurred.
        assert_eq!(seen, [true; 3]);
    }

    #[test]
    fn zero_rounds_is_an_error_and_huge_counts_use_parity() {
        let analysis = RoundsAnalysis {
            can_force_win: true,
            can_force_loss: false,
        };
        assert_eq!(
            analysis.match_winner(&BigUint::zero()),
            Err(RoundsError::NoRounds)
        );
        let huge: BigUint = "1".repeat(300).parse().unwrap();
        assert_eq!(analysis.match_winner(&huge).unwrap(), Player::First);
        assert_eq!(
            analysis.match_winner(&(huge + 1u32)).unwrap(),
            Player::Second
        );
    }
}
