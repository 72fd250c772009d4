//! The k-round game: the same game played `k` times, the loser of each round
//! starting the next; only the last round counts.
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
//! parity rule. Contest solutions state the same ("the first player can win, and can also
//! lose on purpose"), with `dp[S][0]` for `L`; the tests check the rule against a direct search
//! of the whole match.
//!
//! # In the catalogue: `rounds[k](START)` and `rounds[k](START, CURRENT)`
//! A match position is the round being played (`CURRENT`, the start when
//! omitted), the rounds left including it (`k`), and the position every later
//! round starts from (`START`). Who wins from there follows the same backward
//! reasoning: with one round left, the round is played to win (normal play);
//! otherwise, if the starter of the next round wins the match (by the rule
//! above, from `START` with `k - 1` rounds), both players want to lose this
//! round and it is played misère, else it is played normal. So the player to
//! move wins the match iff he wins `CURRENT` under that convention, and his
//! winning moves are exactly that convention's winning moves in `CURRENT`
//! (never both kinds: which one keeps the match won depends on `k` alone). A
//! move that ends a round (no component can move) with rounds left leads to
//! `rounds[k-1](START)`, the loser of the round to move.
//!
//! ```
//! use grundy::sums::rounds::{analyze, Player};
//! use grundy::theory::game::ImpartialGame;
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
use num_traits::{One, Zero};

use crate::family::Part;
use crate::sums::answer::{
    Answer, SolveOptions, WinningMove, keep_whole_moves_within_budget, whole_moves_note,
    whole_moves_within_budget,
};
use crate::sums::disjunctive::solve_sum;
use crate::sums::position::{Compound, Group, Position, PositionText};
use crate::theory::game::{Convention, ImpartialGame, Outcome};
use crate::theory::solver::{SearchError, Solver};

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

/// Whether no component of `groups` can move.
fn is_over(groups: &[Group]) -> bool {
    let terminal = |part: &Part| matches!(part.moves(1), Ok(moves) if moves.is_empty());
    groups.iter().all(|group| group.parts.iter().all(terminal))
}

/// The match position with `rounds` rounds left, the current round at
/// `current`: a round that is over (with rounds left) hands over to the next,
/// which its loser, the player to move, starts at `start`.
#[must_use]
pub fn match_position(rounds: BigUint, start: Vec<Group>, current: Vec<Group>) -> Position {
    let (rounds, current) = if rounds > BigUint::one() && is_over(&current) {
        (rounds - 1u32, start.clone())
    } else {
        (rounds, current)
    };
    Position {
        convention: Convention::Normal,
        compound: Compound::Rounds { rounds, start },
        groups: current,
    }
}

/// Answers a match position: see the [module documentation](self).
///
/// # Errors
/// As [`crate::sums::analysis::solve`] on the start (normal and misère) and on the current round.
pub(crate) fn solve_rounds(
    position: &Position,
    rounds: &BigUint,
    start: &[Group],
    options: &SolveOptions,
) -> Result<Answer, SearchError> {
    let quick = SolveOptions {
        max_moves: 0,
        ..options.clone()
    };
    let analysis = RoundsAnalysis {
        can_force_win: solve_sum(&Position::sum(Convention::Normal, start.to_vec()), &quick)?
            .outcome
            .first_player_wins(),
        can_force_loss: solve_sum(&Position::sum(Convention::Misere, start.to_vec()), &quick)?
            .outcome
            .first_player_wins(),
    };
    let later = rounds - 1u32;
    let play_to_lose =
        !later.is_zero() && analysis.match_winner(&later).ok() == Some(Player::First);
    let convention = if play_to_lose {
        Convention::Misere
    } else {
        Convention::Normal
    };
    let current = Position::sum(convention, position.groups.clone());
    let answer = solve_sum(&current, options)?;
    let text = PositionText::new(position);
    let listed = whole_moves_within_budget(answer.winning_moves.len(), text.as_str().len());
    let winning_moves: Vec<WinningMove> = answer
        .winning_moves
        .iter()
        .take(listed)
        .map(|m| {
            let after = match_position(
                rounds.clone(),
                start.to_vec(),
                current.groups_after(m.group, m.part, &m.leaves),
            );
            WinningMove {
                whole: Some(PositionText::new(&after).as_str().to_owned()),
                ..m.clone()
            }
        })
        .collect();
    let (aim, how) = if play_to_lose {
        ("to lose", "misère")
    } else {
        ("to win", "normal")
    };
    let mut winning_moves = winning_moves;
    keep_whole_moves_within_budget(&mut winning_moves);
    let cut = winning_moves.len() < answer.winning_moves.len();
    let truncated = answer.truncated || cut;
    let mut notes = answer.notes.clone();
    if cut {
        notes.push(whole_moves_note(winning_moves.len()));
    }
    Ok(Answer {
        position: text,
        convention: Convention::Normal,
        play: "rounds",
        outcome: answer.outcome,
        nimber: None,
        loopy_value: None,
        winning_moves,
        winning_move_count: answer.winning_move_count,
        moves_counted: answer.moves_counted,
        truncated,
        method: format!(
            "k-round rule: the starter {} a round and {} one on purpose; \
             this round is played {aim} ({how} play): {}",
            if analysis.can_force_win {
                "can win"
            } else {
                "cannot win"
            },
            if analysis.can_force_loss {
                "can lose"
            } else {
                "cannot lose"
            },
            answer.method
        ),
        notes,
        search: answer.search,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sums::analysis::solve;
    use crate::testing::{Subtraction, answer_listing_every_move as answer};
    use rustc_hash::FxHashMap;

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

    /// `sub[1, 3, 4](x) + nim(y)`, searched directly.
    struct SubPlusNim;
    impl ImpartialGame for SubPlusNim {
        type Position = (u32, u32);
        fn moves(&self, &(x, y): &(u32, u32), moves: &mut Vec<(u32, u32)>) {
            moves.extend([1, 3, 4].iter().filter(|&&s| s <= x).map(|s| (x - s, y)));
            moves.extend((0..y).map(|left| (x, left)));
        }
    }

    /// Whether the player to move wins the match: `rounds` rounds left, the
    /// current round at `current`, later rounds restarting at `start`.
    fn wins_whole_match(
        start: (u32, u32),
        rounds: u32,
        current: (u32, u32),
        memo: &mut FxHashMap<(u32, (u32, u32)), bool>,
    ) -> bool {
        if let Some(&known) = memo.get(&(rounds, current)) {
            return known;
        }
        let mut options = Vec::new();
        SubPlusNim.moves(&current, &mut options);
        let wins = if options.is_empty() {
            rounds > 1 && wins_whole_match(start, rounds - 1, start, memo)
        } else {
            options
                .iter()
                .any(|&option| !wins_whole_match(start, rounds, option, memo))
        };
        memo.insert((rounds, current), wins);
        wins
    }

    /// Every match position `rounds[k](START, CURRENT)` of small sums, k up to
    /// 6, against a search of the whole match: who wins, how many winning
    /// moves, and that each listed move leads to a match position the
    /// opponent loses (read back from its text).
    #[test]
    fn match_positions_are_answered_as_a_search_of_the_whole_match() {
        let mut cases = [0usize; 2];
        for a in 0..8u32 {
            for b in 0..3u32 {
                let start = format!("sub[1, 3, 4]({a}) + nim({b})");
                for k in 1..=6u32 {
                    let mut memo = FxHashMap::default();
                    for x in 0..=a {
                        for y in 0..=b {
                            let text = if (x, y) == (a, b) {
                                format!("rounds[{k}]({start})")
                            } else {
                                format!("rounds[{k}]({start}, sub[1, 3, 4]({x}) + nim({y}))")
                            };
                            let position =
                                crate::catalogue::build(&crate::lang::parse(&text).unwrap())
                                    .unwrap();
                            let found = solve(
                                &position,
                                &SolveOptions {
                                    max_moves: usize::MAX,
                                    ..SolveOptions::default()
                                },
                            )
                            .unwrap();
                            // A round that is over hands over to the next, which
                            // the player to move starts: the same match position.
                            let mut options = Vec::new();
                            SubPlusNim.moves(&(x, y), &mut options);
                            let (k, current) = if options.is_empty() && k > 1 {
                                (k - 1, (a, b))
                            } else {
                                (k, (x, y))
                            };
                            let wins = wins_whole_match((a, b), k, current, &mut memo);
                            assert_eq!(found.outcome.first_player_wins(), wins, "{text}");
                            cases[usize::from(wins)] += 1;
                            options.clear();
                            SubPlusNim.moves(&current, &mut options);
                            let expected = options
                                .iter()
                                .filter(|&&o| !wins_whole_match((a, b), k, o, &mut memo))
                                .count();
                            assert_eq!(found.winning_move_count, BigUint::from(expected), "{text}");
                            assert_eq!(found.winning_moves.len(), expected, "{text}");
                            crate::testing::answers_after_winning_moves(&found, &text);
                        }
                    }
                }
            }
        }
        assert!(cases[0] > 100 && cases[1] > 100, "{cases:?}");
    }

    #[test]
    fn known_matches_and_huge_round_counts() {
        // bash[2](4): the first player wins a round (4 is not a multiple of 3)
        // but cannot lose one on purpose (misère, 4 = 3 + 1 is lost), so he
        // wins the match iff k is odd; with k even he must lose round 1, and
        // cannot.
        let two = answer("rounds[2](bash[2](4))");
        assert_eq!(two.outcome, Outcome::PreviousPlayerWins);
        assert_eq!(two.play, "rounds");
        assert_eq!(two.nimber, None);
        let three = answer("rounds[3](bash[2](4))");
        assert_eq!(three.outcome, Outcome::NextPlayerWins);
        let targets: Vec<String> = three
            .winning_moves
            .iter()
            .map(|m| three.target(m))
            .collect();
        // Round 1 is played to win (the starter of round 2 loses a 2-round match).
        assert_eq!(targets, ["rounds[3](bash[2](4), bash[2](3))"]);
        // Ending a round hands the next one to its loser, the player to move.
        let ended = answer("rounds[3](bash[2](4), bash[2](0))");
        assert_eq!(ended.position.as_str(), "rounds[2](bash[2](4))");
        assert_eq!(ended.outcome, Outcome::PreviousPlayerWins);
        let last = answer("rounds[1](bash[2](4), bash[2](2))");
        assert_eq!(
            last.target(&last.winning_moves[0]),
            "rounds[1](bash[2](4), bash[2](0))"
        );
        // Huge k: parity decides, as for 4 and 5 rounds.
        let huge = "1".repeat(40);
        for (big, small) in [(format!("{huge}0"), 4), (format!("{huge}1"), 5)] {
            let big = answer(&format!("rounds[{big}](bash[2](4) + nim(2))"));
            let small = answer(&format!("rounds[{small}](bash[2](4) + nim(2))"));
            assert_eq!(big.outcome, small.outcome);
            assert_eq!(big.winning_move_count, small.winning_move_count);
        }
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
