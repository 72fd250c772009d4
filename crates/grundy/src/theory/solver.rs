//! The generic solver: nimbers, outcomes and winning moves of any
//! [`ImpartialGame`] by memoized search.
//!
//! This solver is the oracle that every closed form in grundy is tested against,
//! so it is deliberately simple in what it assumes: only the game's moves.
//!
//! * Nimbers are computed by the recursive definition `G(p) = mex { G(q) : p → q }`
//!   (Sprague 1935, Grundy 1939), memoized in a transposition table.
//! * A position that [splits](ImpartialGame::components) into components has the
//!   nim-sum of their nimbers (the Sprague-Grundy theorem; Winning Ways ch. 4,
//!   Sprague 1935, Grundy 1939), so sums are never searched as products.
//! * The search is iterative with an explicit stack: a chain of a million
//!   positions cannot overflow the call stack.
//! * [`Solver::outcome`] stops at the first move to a P-position when only the
//!   winner is asked, and [`Solver::misere_outcome`] searches misère play
//!   directly (no decomposition: the Sprague-Grundy theorem does not hold there).
//! * Every search counts the positions it stores and stops with
//!   [`SearchError::StateLimit`] at the budget set by [`Solver::with_state_limit`].
//!
//! ```
//! use grundy::theory::game::{ImpartialGame, Outcome};
//! use grundy::theory::solver::Solver;
//!
//! /// Nim on a vector of heaps, split into single heaps.
//! struct Nim;
//! impl ImpartialGame for Nim {
//!     type Position = Vec<u32>;
//!     fn moves(&self, heaps: &Vec<u32>, moves: &mut Vec<Vec<u32>>) {
//!         for (i, &heap) in heaps.iter().enumerate() {
//!             for smaller in 0..heap {
//!                 let mut next = heaps.clone();
//!                 next[i] = smaller;
//!                 moves.push(next);
//!             }
//!         }
//!     }
//!     fn components(&self, heaps: &Vec<u32>) -> Option<Vec<Vec<u32>>> {
//!         (heaps.len() > 1).then(|| heaps.iter().map(|&h| vec![h]).collect())
//!     }
//! }
//!
//! let mut solver = Solver::new(&Nim);
//! assert_eq!(solver.nimber(&vec![3, 5, 7]).unwrap(), 1);
//! assert_eq!(solver.outcome(&vec![1, 2, 3]).unwrap(), Outcome::PreviousPlayerWins);
//! // Misère Nim: with only heaps of size 1, the player to move wins iff their number is even.
//! assert_eq!(solver.misere_outcome(&vec![1, 1]).unwrap(), Outcome::NextPlayerWins);
//! assert_eq!(solver.winning_moves(&vec![3, 5, 7]).unwrap(), vec![vec![2, 5, 7], vec![3, 4, 7], vec![3, 5, 6]]);
//! ```

pub(crate) mod parallel;
mod transposition;

use crate::theory::cancel::checkpoint;
use crate::theory::game::{Convention, ImpartialGame, Outcome};
pub(crate) use crate::theory::limits::{Budget, DEFAULT_STATE_LIMIT, Limit, Refusal, SearchError};
use transposition::Table;

/// Marks a position whose search is in progress, so that a cycle is detected
/// instead of looping forever. No real nimber reaches it: a position would need
/// four billion moves.
const IN_PROGRESS: u32 = u32::MAX;

/// Outcome table entries: a position is stored as in progress, then as won or
/// lost for the player to move.
const WON: u32 = 1;
const LOST: u32 = 0;

/// Counters of the work a solver has done.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Statistics {
    /// Positions whose moves were generated (each at most once per table).
    pub positions_expanded: u64,
    /// Moves generated, over all expanded positions.
    pub moves_generated: u64,
}

/// A memoizing solver for one game. Tables persist between queries, so asking
/// about many positions of the same game shares the work.
#[derive(Debug)]
pub struct Solver<'g, G: ImpartialGame> {
    game: &'g G,
    nimbers: Table<G::Position>,
    normal_outcomes: Table<G::Position>,
    misere_outcomes: Table<G::Position>,
    state_limit: usize,
    /// The most bytes the tables, their keys' buffers and the moves waiting
    /// on the search stack may hold.
    byte_limit: u64,
    /// Bytes owned by the stored keys ([`ImpartialGame::position_bytes`]).
    key_bytes: usize,
    /// Bytes of the moves generated and not yet resolved, on the search stack.
    pending_bytes: usize,
    statistics: Statistics,
}

/// Which of the solver's tables a value goes to.
#[derive(Clone, Copy)]
enum Which {
    Nimbers,
    Outcomes(Convention),
}

/// One position being expanded by the iterative nimber search.
struct NimberFrame<P> {
    position: P,
    /// Whether the children are components (combine by nim-sum) or moves (mex).
    is_sum: bool,
    /// The children are `children[first..end]`.
    first: usize,
    end: usize,
    /// The index of the next child to resolve.
    next: usize,
    /// The values of resolved children are `values[first_value..]`.
    first_value: usize,
    /// The bytes its children hold, counted in the solver's pending bytes.
    children_bytes: usize,
}

/// One position being expanded by the iterative outcome search.
struct OutcomeFrame<P> {
    position: P,
    first: usize,
    end: usize,
    next: usize,
    /// The bytes its children hold, counted in the solver's pending bytes.
    children_bytes: usize,
}

impl<'g, G: ImpartialGame> Solver<'g, G> {
    /// A solver for `game` with the [default state limit](DEFAULT_STATE_LIMIT).
    #[must_use]
    pub fn new(game: &'g G) -> Self {
        Self {
            game,
            nimbers: Table::for_game(game, DEFAULT_STATE_LIMIT),
            normal_outcomes: Table::for_game(game, DEFAULT_STATE_LIMIT),
            misere_outcomes: Table::for_game(game, DEFAULT_STATE_LIMIT),
            state_limit: DEFAULT_STATE_LIMIT,
            byte_limit: u64::MAX,
            key_bytes: 0,
            pending_bytes: 0,
            statistics: Statistics::default(),
        }
    }

    /// Sets the most positions the solver may store over all its tables.
    #[must_use]
    pub fn with_state_limit(self, limit: usize) -> Self {
        self.with_limits(limit, limit)
    }

    /// Sets the most positions the solver may store, and the largest dense
    /// numbering ([`ImpartialGame::dense_positions`]) it keeps in arrays: a slot
    /// costs 4 bytes where a hashed position costs 12 to 35, so a game may
    /// number more positions than the search is allowed to store.
    #[must_use]
    pub fn with_limits(mut self, states: usize, dense_slots: usize) -> Self {
        self.state_limit = states;
        self.nimbers = Table::for_game(self.game, dense_slots);
        self.normal_outcomes = Table::for_game(self.game, dense_slots);
        self.misere_outcomes = Table::for_game(self.game, dense_slots);
        self
    }

    /// Sets the most bytes the solver may hold: its tables (over their
    /// allocated capacity), the buffers of the positions stored in them, and
    /// the moves generated and waiting on the search stack. Checked each time a
    /// position is expanded; past it a search stops with
    /// [`SearchError::MemoryLimit`]. No limit by default.
    #[must_use]
    pub const fn with_memory_limit(mut self, bytes: u64) -> Self {
        self.byte_limit = bytes;
        self
    }

    /// Sets both limits of `budget`; dense tables are kept for numberings of
    /// at most `dense_slots` positions (see [`Solver::with_limits`]).
    #[must_use]
    pub fn with_budget(self, budget: Budget, dense_slots: usize) -> Self {
        self.with_limits(budget.states, dense_slots)
            .with_memory_limit(budget.bytes)
    }

    /// The bytes the solver holds, as its memory limit counts them.
    #[must_use]
    pub fn held_bytes(&self) -> usize {
        self.nimbers.bytes()
            + self.normal_outcomes.bytes()
            + self.misere_outcomes.bytes()
            + self.key_bytes
            + self.pending_bytes
    }

    /// The game this solver searches.
    #[must_use]
    pub const fn game(&self) -> &'g G {
        self.game
    }

    /// The work done so far.
    #[must_use]
    pub const fn statistics(&self) -> Statistics {
        self.statistics
    }

    /// How many positions the tables hold.
    #[must_use]
    pub fn stored_positions(&self) -> usize {
        self.nimbers.len() + self.normal_outcomes.len() + self.misere_outcomes.len()
    }

    /// The bytes the tables hold per stored position: keys, values and the hash
    /// tables' control bytes over their allocated capacity, or the slots of dense
    /// tables.
    #[must_use]
    pub fn bytes_per_stored_position(&self) -> f64 {
        let bytes =
            self.nimbers.bytes() + self.normal_outcomes.bytes() + self.misere_outcomes.bytes();
        bytes as f64 / self.stored_positions().max(1) as f64
    }

    fn check_budget(&self) -> Result<(), SearchError> {
        checkpoint()?;
        if self.stored_positions() >= self.state_limit {
            Err(SearchError::StateLimit {
                limit: self.state_limit,
            })
        } else if self.held_bytes() as u64 > self.byte_limit {
            Err(SearchError::MemoryLimit {
                limit: self.byte_limit,
            })
        } else {
            Ok(())
        }
    }

    /// The bytes `children` hold: each value, and what it owns.
    fn bytes_of(&self, children: &[G::Position]) -> usize {
        std::mem::size_of_val(children)
            + children
                .iter()
                .map(|child| self.game.position_bytes(child))
                .sum::<usize>()
    }

    /// Stores `value` for a position in `table`, counting the bytes it owns
    /// when it is new there.
    fn store(&mut self, which: Which, position: G::Position, value: u32) {
        let owned = self.game.position_bytes(&position);
        let game = self.game;
        let table = match which {
            Which::Nimbers => &mut self.nimbers,
            Which::Outcomes(Convention::Normal) => &mut self.normal_outcomes,
            Which::Outcomes(Convention::Misere) => &mut self.misere_outcomes,
        };
        if table.insert(game, position, value) {
            self.key_bytes += owned;
        }
    }

    /// The nimber (Grundy value) of `position` under normal play.
    ///
    /// # Errors
    /// [`SearchError::StateLimit`] when the table is full, [`SearchError::Cycle`]
    /// when the game is loopy.
    pub fn nimber(&mut self, position: &G::Position) -> Result<u32, SearchError> {
        // Whatever happens below, the moves it leaves pending are gone after it.
        let pending = self.pending_bytes;
        let found = self.nimber_searched(position);
        self.pending_bytes = pending;
        found
    }

    fn nimber_searched(&mut self, position: &G::Position) -> Result<u32, SearchError> {
        if let Some(value) = self.nimbers.get(self.game, position) {
            return if value == IN_PROGRESS {
                Err(SearchError::Cycle)
            } else {
                Ok(value)
            };
        }
        let mut children: Vec<G::Position> = Vec::new();
        let mut values: Vec<u32> = Vec::new();
        let mut stack: Vec<NimberFrame<G::Position>> = Vec::new();
        let mut mex = crate::theory::nimber::MexSet::default();
        self.push_nimber_frame(position.clone(), &mut stack, &mut children, &values)?;
        loop {
            let frame = stack
                .last_mut()
                .expect("the stack holds the frame being resolved");
            let mut descend = None;
            while frame.next < frame.end {
                let child = &children[frame.next];
                match self.nimbers.get(self.game, child) {
                    Some(IN_PROGRESS) => return Err(SearchError::Cycle),
                    Some(value) => {
                        values.push(value);
                        frame.next += 1;
                    }
                    None => {
                        descend = Some(child.clone());
                        break;
                    }
                }
            }
            if let Some(child) = descend {
                self.push_nimber_frame(child, &mut stack, &mut children, &values)?;
                continue;
            }
            let frame = stack
                .pop()
                .expect("the stack holds the frame being resolved");
            let resolved = &values[frame.first_value..];
            let value = if frame.is_sum {
                resolved.iter().fold(0, |sum, &v| sum ^ v)
            } else {
                mex.clear();
                for &v in resolved {
                    mex.insert(v);
                }
                mex.mex()
            };
            values.truncate(frame.first_value);
            children.truncate(frame.first);
            self.pending_bytes -= frame.children_bytes;
            self.store(Which::Nimbers, frame.position, value);
            match stack.last_mut() {
                Some(parent) => {
                    values.push(value);
                    parent.next += 1;
                }
                None => return Ok(value),
            }
        }
    }

    fn push_nimber_frame(
        &mut self,
        position: G::Position,
        stack: &mut Vec<NimberFrame<G::Position>>,
        children: &mut Vec<G::Position>,
        values: &[u32],
    ) -> Result<(), SearchError> {
        self.check_budget()?;
        let first = children.len();
        let is_sum = match self.game.components(&position) {
            Some(parts) if parts.len() > 1 => {
                children.extend(parts);
                true
            }
            _ => {
                self.game.try_moves(&position, children)?;
                self.statistics.positions_expanded += 1;
                self.statistics.moves_generated += (children.len() - first) as u64;
                false
            }
        };
        let children_bytes = self.bytes_of(&children[first..]);
        self.pending_bytes += children_bytes;
        self.store(Which::Nimbers, position.clone(), IN_PROGRESS);
        stack.push(NimberFrame {
            position,
            is_sum,
            first,
            end: children.len(),
            next: first,
            first_value: values.len(),
            children_bytes,
        });
        // A position with more moves than the budget holds stops here, before
        // its moves are searched.
        self.check_budget()
    }

    /// Who wins `position` under normal play. Stops searching a position at its
    /// first move to a P-position; a position that splits into components is
    /// answered from their nimbers.
    ///
    /// # Errors
    /// As [`Solver::nimber`].
    pub fn outcome(&mut self, position: &G::Position) -> Result<Outcome, SearchError> {
        self.outcome_under(Convention::Normal, position)
    }

    /// Who wins `position` under misère play (the player who cannot move wins),
    /// by direct search of the position as one game.
    ///
    /// # Errors
    /// As [`Solver::nimber`].
    pub fn misere_outcome(&mut self, position: &G::Position) -> Result<Outcome, SearchError> {
        self.outcome_under(Convention::Misere, position)
    }

    /// Who wins `position` under `convention`.
    ///
    /// # Errors
    /// As [`Solver::nimber`].
    pub fn outcome_under(
        &mut self,
        convention: Convention,
        position: &G::Position,
    ) -> Result<Outcome, SearchError> {
        let pending = self.pending_bytes;
        let found = self.outcome_searched(convention, position);
        self.pending_bytes = pending;
        found
    }

    fn outcome_searched(
        &mut self,
        convention: Convention,
        position: &G::Position,
    ) -> Result<Outcome, SearchError> {
        if let Some(known) = self.known_outcome(convention, position)? {
            return Ok(known);
        }
        let mut children: Vec<G::Position> = Vec::new();
        let mut stack: Vec<OutcomeFrame<G::Position>> = Vec::new();
        self.push_outcome_frame(convention, position.clone(), &mut stack, &mut children)?;
        loop {
            let frame = stack
                .last_mut()
                .expect("the stack holds the frame being resolved");
            let mut descend = None;
            let mut won = false;
            while frame.next < frame.end {
                let child = &children[frame.next];
                match self.known_outcome(convention, child)? {
                    Some(Outcome::PreviousPlayerWins) => {
                        won = true;
                        break;
                    }
                    Some(Outcome::NextPlayerWins) => frame.next += 1,
                    // This search stores no draws: it stops at a cycle.
                    Some(Outcome::Draw) => return Err(SearchError::Cycle),
                    None => {
                        descend = Some(child.clone());
                        break;
                    }
                }
            }
            if let Some(child) = descend {
                self.push_outcome_frame(convention, child, &mut stack, &mut children)?;
                continue;
            }
            let frame = stack
                .pop()
                .expect("the stack holds the frame being resolved");
            // No move at all: the mover loses under normal play, wins under misère.
            let won = won || (frame.first == frame.end && convention == Convention::Misere);
            children.truncate(frame.first);
            self.pending_bytes -= frame.children_bytes;
            self.store(
                Which::Outcomes(convention),
                frame.position,
                if won { WON } else { LOST },
            );
            if stack.is_empty() {
                return Ok(if won {
                    Outcome::NextPlayerWins
                } else {
                    Outcome::PreviousPlayerWins
                });
            }
        }
    }

    fn outcome_table(&mut self, convention: Convention) -> &mut Table<G::Position> {
        match convention {
            Convention::Normal => &mut self.normal_outcomes,
            Convention::Misere => &mut self.misere_outcomes,
        }
    }

    /// The outcome if a table already knows it, or if it follows from nimbers
    /// (normal play of a position that splits).
    fn known_outcome(
        &mut self,
        convention: Convention,
        position: &G::Position,
    ) -> Result<Option<Outcome>, SearchError> {
        if convention == Convention::Normal {
            match self.nimbers.get(self.game, position) {
                Some(IN_PROGRESS) => return Err(SearchError::Cycle),
                Some(value) => return Ok(Some(Outcome::from_nimber(value.into()))),
                None => {}
            }
        }
        let game = self.game;
        match self.outcome_table(convention).get(game, position) {
            Some(IN_PROGRESS) => Err(SearchError::Cycle),
            Some(WON) => Ok(Some(Outcome::NextPlayerWins)),
            Some(_) => Ok(Some(Outcome::PreviousPlayerWins)),
            None => {
                if convention == Convention::Normal
                    && self
                        .game
                        .components(position)
                        .is_some_and(|parts| parts.len() > 1)
                {
                    let value = self.nimber(position)?;
                    return Ok(Some(Outcome::from_nimber(value.into())));
                }
                Ok(None)
            }
        }
    }

    fn push_outcome_frame(
        &mut self,
        convention: Convention,
        position: G::Position,
        stack: &mut Vec<OutcomeFrame<G::Position>>,
        children: &mut Vec<G::Position>,
    ) -> Result<(), SearchError> {
        self.check_budget()?;
        let first = children.len();
        self.game.try_moves(&position, children)?;
        self.statistics.positions_expanded += 1;
        self.statistics.moves_generated += (children.len() - first) as u64;
        let children_bytes = self.bytes_of(&children[first..]);
        self.pending_bytes += children_bytes;
        self.store(Which::Outcomes(convention), position.clone(), IN_PROGRESS);
        stack.push(OutcomeFrame {
            position,
            first,
            end: children.len(),
            next: first,
            children_bytes,
        });
        self.check_budget()
    }

    /// Every winning move from `position` under normal play: the positions of
    /// the moves that reach a P-position, one entry per move, in the order the
    /// game lists its moves. Empty for a P-position.
    ///
    /// # Errors
    /// As [`Solver::nimber`].
    pub fn winning_moves(
        &mut self,
        position: &G::Position,
    ) -> Result<Vec<G::Position>, SearchError> {
        self.winning_moves_under(Convention::Normal, position)
    }

    /// Every winning move from `position` under `convention`.
    ///
    /// # Errors
    /// As [`Solver::nimber`].
    pub fn winning_moves_under(
        &mut self,
        convention: Convention,
        position: &G::Position,
    ) -> Result<Vec<G::Position>, SearchError> {
        let mut moves = Vec::new();
        self.game.try_moves(position, &mut moves)?;
        let mut winning = Vec::new();
        for next in moves {
            if self.outcome_under(convention, &next)? == Outcome::PreviousPlayerWins {
                winning.push(next);
            }
        }
        Ok(winning)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A subtraction game on one heap, written without any theory.
    struct Subtraction(&'static [u32]);
    impl ImpartialGame for Subtraction {
        type Position = u32;
        fn moves(&self, heap: &u32, moves: &mut Vec<u32>) {
            moves.extend(self.0.iter().filter(|&&s| s <= *heap).map(|s| heap - s));
        }
    }

    /// Nim on a sorted vector of heaps, splitting into single heaps.
    struct Nim {
        split: bool,
    }
    impl ImpartialGame for Nim {
        type Position = Vec<u32>;
        fn moves(&self, heaps: &Vec<u32>, moves: &mut Vec<Vec<u32>>) {
            for (i, &heap) in heaps.iter().enumerate() {
                for smaller in 0..heap {
                    let mut next = heaps.clone();
                    next[i] = smaller;
                    moves.push(next);
                }
            }
        }
        fn components(&self, heaps: &Vec<u32>) -> Option<Vec<Vec<u32>>> {
            (self.split && heaps.len() > 1).then(|| heaps.iter().map(|&h| vec![h]).collect())
        }
    }

    /// A game with a cycle: 0 -> 1 -> 0.
    struct Loop;
    impl ImpartialGame for Loop {
        type Position = u8;
        fn moves(&self, position: &u8, moves: &mut Vec<u8>) {
            moves.push(1 - position);
        }
    }

    #[test]
    fn subtraction_1_3_4_has_period_7() {
        // Winning Ways: S = {1, 3, 4} has nimbers 0 1 0 1 2 3 2, period 7.
        let game = Subtraction(&[1, 3, 4]);
        let mut solver = Solver::new(&game);
        let values: Vec<u32> = (0..14).map(|n| solver.nimber(&n).unwrap()).collect();
        assert_eq!(values, [0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]);
    }

    #[test]
    fn a_chain_of_a_million_positions_does_not_overflow_the_stack() {
        let game = Subtraction(&[1]);
        let mut solver = Solver::new(&game);
        assert_eq!(solver.nimber(&1_000_001).unwrap(), 1);
        assert_eq!(
            solver.outcome(&2_000_000).unwrap(),
            Outcome::PreviousPlayerWins
        );
        assert_eq!(
            solver.misere_outcome(&1_000_000).unwrap(),
            Outcome::NextPlayerWins
        );
    }

    #[test]
    fn splitting_and_searching_the_product_agree() {
        let mut split = Solver::new(&Nim { split: true });
        let product_game = Nim { split: false };
        let mut product = Solver::new(&product_game);
        for a in 0..5 {
            for b in 0..5 {
                for c in 0..4 {
                    let position = vec![a, b, c];
                    let value = split.nimber(&position).unwrap();
                    assert_eq!(value, a ^ b ^ c);
                    assert_eq!(product.nimber(&position).unwrap(), value);
                    assert_eq!(
                        product.outcome(&position).unwrap(),
                        Outcome::from_nimber(value.into())
                    );
                }
            }
        }
    }

    #[test]
    fn misere_nim_follows_bouton() {
        // Bouton: misère Nim is won by the mover iff the nim-sum is nonzero, except
        // when every heap is 0 or 1, where the mover wins iff the nim-sum is zero.
        let game = Nim { split: true };
        let mut solver = Solver::new(&game);
        for a in 0..5 {
            for b in 0..5 {
                for c in 0..5 {
                    let sum = a ^ b ^ c;
                    let small = a <= 1 && b <= 1 && c <= 1;
                    let wins = if small { sum == 0 } else { sum != 0 };
                    let expected = if wins {
                        Outcome::NextPlayerWins
                    } else {
                        Outcome::PreviousPlayerWins
                    };
                    assert_eq!(solver.misere_outcome(&vec![a, b, c]).unwrap(), expected);
                }
            }
        }
    }

    #[test]
    fn winning_moves_count_moves_not_positions() {
        let game = Nim { split: true };
        let mut solver = Solver::new(&game);
        // Emptying any of the three heaps of 1 is a winning move: three moves.
        assert_eq!(solver.winning_moves(&vec![1, 1, 1]).unwrap().len(), 3);
        assert!(solver.winning_moves(&vec![1, 2, 3]).unwrap().is_empty());
    }

    #[test]
    fn the_state_limit_stops_the_search() {
        let game = Subtraction(&[1, 2]);
        let mut solver = Solver::new(&game).with_state_limit(100);
        assert_eq!(
            solver.nimber(&1000),
            Err(SearchError::StateLimit { limit: 100 })
        );
        let mut solver = Solver::new(&game).with_state_limit(100);
        assert_eq!(
            solver.misere_outcome(&1000),
            Err(SearchError::StateLimit { limit: 100 })
        );
    }

    /// Nim on a vector of heaps whose buffers the memory budget counts.
    struct CountedNim;
    impl ImpartialGame for CountedNim {
        type Position = Vec<u32>;
        fn moves(&self, heaps: &Vec<u32>, moves: &mut Vec<Vec<u32>>) {
            Nim { split: false }.moves(heaps, moves);
        }
        fn position_bytes(&self, heaps: &Vec<u32>) -> usize {
            heaps.capacity() * std::mem::size_of::<u32>()
        }
    }

    #[test]
    fn the_memory_limit_stops_the_search_and_counts_what_positions_own() {
        // Misère Nim on 12 heaps of 3: 4^12 positions, each a vector; the
        // state limit alone would let it store them all.
        let heaps = vec![3; 12];
        let mut solver = Solver::new(&CountedNim).with_memory_limit(1 << 20);
        assert_eq!(
            solver.misere_outcome(&heaps),
            Err(SearchError::MemoryLimit { limit: 1 << 20 })
        );
        // What it held when it stopped is about the limit: the check comes at
        // every expansion.
        assert!(solver.held_bytes() < 2 << 20, "{}", solver.held_bytes());
        // The buffers count: the same search that fits when only the tables
        // are counted does not when the positions' vectors are.
        let small = vec![2; 6];
        let mut plain = Solver::new(&Nim { split: false });
        plain.misere_outcome(&small).unwrap();
        let tables_only = plain.held_bytes();
        let mut counted = Solver::new(&CountedNim);
        counted.misere_outcome(&small).unwrap();
        assert!(counted.held_bytes() > tables_only);
        let limit = u64::try_from(tables_only).unwrap() + 64;
        let mut bounded = Solver::new(&CountedNim).with_memory_limit(limit);
        assert_eq!(
            bounded.misere_outcome(&small),
            Err(SearchError::MemoryLimit { limit })
        );
        // Within its limit the answer is the unbounded one, and a solver that
        // stopped answers again once asked of a smaller position.
        let mut roomy = Solver::new(&CountedNim).with_memory_limit(1 << 30);
        assert_eq!(
            roomy.misere_outcome(&small),
            Solver::new(&CountedNim).misere_outcome(&small)
        );
        assert_eq!(solver.pending_bytes, 0);
    }

    #[test]
    fn a_budget_turns_positions_into_bytes() {
        let budget = Budget {
            states: 1000,
            bytes: 4000,
        };
        assert_eq!(budget.positions(8), 500);
        assert_eq!(budget.positions(2), 1000);
        assert_eq!(budget.positions(0), 1000);
        assert_eq!(
            budget.search_positions(8, |limit| -> Result<(), _> {
                Err(SearchError::StateLimit { limit })
            }),
            Err(SearchError::MemoryLimit { limit: 4000 })
        );
        assert_eq!(
            budget.search_positions(2, |limit| -> Result<(), _> {
                Err(SearchError::StateLimit { limit })
            }),
            Err(SearchError::StateLimit { limit: 1000 })
        );
        assert_eq!(budget.check_bytes(4000), Ok(()));
        assert_eq!(
            budget.check_bytes(4001),
            Err(SearchError::MemoryLimit { limit: 4000 })
        );
    }

    /// Three subtraction heaps numbered densely in base 32.
    struct DenseHeaps {
        dense: bool,
    }
    impl ImpartialGame for DenseHeaps {
        type Position = [u8; 3];
        fn moves(&self, heaps: &[u8; 3], moves: &mut Vec<[u8; 3]>) {
            for i in 0..3 {
                for take in [1, 3, 4] {
                    if take <= heaps[i] {
                        let mut next = *heaps;
                        next[i] -= take;
                        moves.push(next);
                    }
                }
            }
        }
        fn dense_positions(&self) -> Option<usize> {
            self.dense.then_some(32 * 32 * 32)
        }
        fn position_index(&self, heaps: &[u8; 3]) -> usize {
            heaps
                .iter()
                .fold(0, |index, &h| index * 32 + usize::from(h))
        }
    }

    #[test]
    fn dense_and_hash_tables_agree() {
        let dense_game = DenseHeaps { dense: true };
        let hash_game = DenseHeaps { dense: false };
        let mut dense = Solver::new(&dense_game);
        let mut hash = Solver::new(&hash_game);
        for a in 0..20 {
            for b in 0..20 {
                let position = [a, b, 7];
                assert_eq!(
                    dense.nimber(&position).unwrap(),
                    hash.nimber(&position).unwrap()
                );
                assert_eq!(
                    dense.misere_outcome(&position).unwrap(),
                    hash.misere_outcome(&position).unwrap()
                );
                assert_eq!(
                    dense.outcome(&position).unwrap(),
                    hash.outcome(&position).unwrap()
                );
            }
        }
        assert_eq!(dense.stored_positions(), hash.stored_positions());
        // Dense tables of 32^3 slots of 4 bytes: the nimber and the misère
        // tables; the normal outcomes were all answered from the nimbers.
        assert_eq!(
            dense.bytes_per_stored_position(),
            (2 * 32 * 32 * 32 * 4) as f64 / dense.stored_positions() as f64
        );
    }

    #[test]
    fn a_cycle_is_reported() {
        let mut solver = Solver::new(&Loop);
        assert_eq!(solver.nimber(&0), Err(SearchError::Cycle));
        assert_eq!(solver.outcome(&0), Err(SearchError::Cycle));
    }
}
