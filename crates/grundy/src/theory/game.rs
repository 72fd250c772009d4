//! What an impartial game is, as far as the solvers are concerned.
//!
//! A game is a set of rules; a position is a state of play. Both players have the
//! same moves from every position (that is what makes the game *impartial*), and
//! under normal play the player who cannot move loses. Every finite impartial game
//! is, by the Sprague-Grundy theorem, equivalent to a single Nim heap: its
//! *nimber* (Grundy value). See Berlekamp, Conway and Guy, *Winning Ways*, ch. 4,
//! for a full proof of the theorem for sums.

use std::hash::Hash;

/// The rules of an impartial game.
///
/// Implement [`moves`](ImpartialGame::moves) and the generic
/// [`Solver`](crate::theory::solver::Solver) computes nimbers, outcomes and winning moves;
/// implement [`components`](ImpartialGame::components) too and the solver splits
/// sums by the Sprague-Grundy theorem instead of searching their product.
///
/// ```
/// use grundy::theory::game::ImpartialGame;
/// use grundy::theory::solver::Solver;
///
/// /// Take 1 or 2 tokens from a single heap.
/// struct TakeOneOrTwo;
/// impl ImpartialGame for TakeOneOrTwo {
///     type Position = u32;
///     fn moves(&self, heap: &u32, moves: &mut Vec<u32>) {
///         moves.extend((1..=2).filter(|&take| take <= *heap).map(|take| heap - take));
///     }
/// }
///
/// let mut solver = Solver::new(&TakeOneOrTwo);
/// assert_eq!(solver.nimber(&7).unwrap(), 1); // 7 mod 3
/// ```
pub trait ImpartialGame {
    /// A position of the game. Equal positions must have equal futures.
    type Position: Clone + Eq + Hash;

    /// Appends the position each legal move leads to, one entry per move: two
    /// different moves that reach the same position appear twice, so that
    /// counting winning moves counts moves as a player makes them.
    fn moves(&self, position: &Self::Position, moves: &mut Vec<Self::Position>);

    /// As [`moves`](ImpartialGame::moves), for games whose moves cannot always
    /// be enumerated (a position too large for its rules): the solver calls
    /// this and stops with the error.
    ///
    /// # Errors
    /// Whatever the game finds it cannot enumerate.
    fn try_moves(
        &self,
        position: &Self::Position,
        moves: &mut Vec<Self::Position>,
    ) -> Result<(), crate::theory::limits::SearchError> {
        self.moves(position, moves);
        Ok(())
    }

    /// Splits `position` into two or more independent components whose
    /// disjunctive sum it is, or `None` when it does not split.
    ///
    /// Splitting is optional: it only lets the solver use the Sprague-Grundy
    /// theorem (the nimber of a sum is the nim-sum of its parts' nimbers) instead
    /// of searching the product of the parts. Misère search never splits.
    fn components(&self, _position: &Self::Position) -> Option<Vec<Self::Position>> {
        None
    }

    /// A bound on a dense numbering of the positions, if the game has one:
    /// [`position_index`](ImpartialGame::position_index) then maps every
    /// position the solver can meet to a distinct index below it, and the
    /// solver keeps its tables in arrays of that length instead of hash maps
    /// (used when the bound is within the solver's state limit).
    fn dense_positions(&self) -> Option<usize> {
        None
    }

    /// The bytes `position` owns outside its own value (a vector's buffer),
    /// for the solver's memory budget ([`Solver::with_memory_limit`]). The
    /// default, 0, suits positions that own nothing; a game whose positions
    /// hold buffers should say how large they are, or the budget undercounts.
    ///
    /// [`Solver::with_memory_limit`]: crate::theory::solver::Solver::with_memory_limit
    fn position_bytes(&self, _position: &Self::Position) -> usize {
        0
    }

    /// The index of `position` in the dense numbering; only called when
    /// [`dense_positions`](ImpartialGame::dense_positions) gives a bound.
    fn position_index(&self, _position: &Self::Position) -> usize {
        0
    }
}

/// Who wins a position with perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The player to move (the *next* player) wins: an N-position.
    NextPlayerWins,
    /// The player who just moved (the *previous* player) wins: a P-position.
    PreviousPlayerWins,
    /// Neither player can force a win: with best play the game goes on for
    /// ever (a D-position, in games whose positions may repeat; see
    /// [`crate::theory::loopy`]).
    Draw,
}

impl Outcome {
    /// The standard letter: `N` for a first-player win, `P` for a first-player
    /// loss, `D` for a draw.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Self::NextPlayerWins => 'N',
            Self::PreviousPlayerWins => 'P',
            Self::Draw => 'D',
        }
    }

    /// Whether the player to move loses: a P-position (not a draw).
    #[must_use]
    pub const fn second_player_wins(self) -> bool {
        matches!(self, Self::PreviousPlayerWins)
    }

    /// Whether the player to move wins.
    #[must_use]
    pub const fn first_player_wins(self) -> bool {
        matches!(self, Self::NextPlayerWins)
    }

    /// The outcome in words, for people.
    #[must_use]
    pub const fn in_words(self) -> &'static str {
        match self {
            Self::NextPlayerWins => "first player wins",
            Self::PreviousPlayerWins => "second player wins",
            Self::Draw => "draw (neither player can force a win)",
        }
    }

    /// The outcome of a position whose nimber is `nimber`, under normal play.
    #[must_use]
    pub const fn from_nimber(nimber: u64) -> Self {
        if nimber == 0 {
            Self::PreviousPlayerWins
        } else {
            Self::NextPlayerWins
        }
    }
}

/// The play convention: who wins when no move is left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Convention {
    /// The player who cannot move loses.
    Normal,
    /// The player who cannot move wins (whoever makes the last move loses).
    Misere,
}

impl Convention {
    /// `normal` or `misere`, as in the command-line contract.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Normal => "normal",
            Self::Misere => "misere",
        }
    }
}
