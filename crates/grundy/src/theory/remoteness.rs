//! Remoteness: how long a game lasts when the winner hurries and the loser delays.
//!
//! The remoteness of Steinhaus and C. A. B. Smith (Berlekamp, Conway and Guy,
//! *Winning Ways*, chapter 9, where it decides conjunctive compounds), under normal
//! play: a terminal position has remoteness 0; otherwise, if some option has an
//! even remoteness, the position's is 1 more than the least even one (the winner takes
//! the quickest win); if not, 1 more than the largest (the loser takes the slowest
//! loss). A position is a P-position exactly when its remoteness is even. A perfect
//! player moves to an option of least even remoteness when it can, and otherwise to an
//! option of greatest remoteness: the opponent must keep finding winning moves longest.
//!
//! Remoteness is not additive over sums (unlike nimbers), so a sum is searched whole.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::theory::cancel::checkpoint;
use crate::theory::game::ImpartialGame;
use crate::theory::solver::SearchError;

/// The remotenesses of a game's positions, searched on demand and remembered.
#[derive(Debug)]
pub struct Remoteness<'g, G: ImpartialGame> {
    game: &'g G,
    known: FxHashMap<G::Position, u32>,
    limit: usize,
    /// The most bytes the search may hold: its table and the options of the
    /// positions on its path (each a position, and what it owns).
    byte_limit: u64,
    /// The bytes the table's entries hold.
    known_bytes: usize,
    /// The bytes the frames on the path hold.
    path_bytes: usize,
}

/// A position whose options are being valued.
struct Frame<P> {
    position: P,
    options: Vec<P>,
    next: usize,
    /// The bytes `options` hold, counted in the search's path bytes.
    bytes: usize,
}

impl<'g, G: ImpartialGame> Remoteness<'g, G> {
    /// A search of `game` that stores at most `limit` positions.
    pub fn new(game: &'g G, limit: usize) -> Self {
        Self {
            game,
            known: FxHashMap::default(),
            limit,
            byte_limit: u64::MAX,
            known_bytes: 0,
            path_bytes: 0,
        }
    }

    /// Sets the most bytes the search may hold: the positions it remembers and
    /// the options of those on its path, each counted with what it owns
    /// ([`ImpartialGame::position_bytes`]); past it the search stops with
    /// [`SearchError::MemoryLimit`]. A sum of many components holds a long
    /// position per option, so the state limit alone does not bound it.
    #[must_use]
    pub const fn with_memory_limit(mut self, bytes: u64) -> Self {
        self.byte_limit = bytes;
        self
    }

    /// The bytes the search holds, as its memory limit counts them.
    #[must_use]
    pub const fn held_bytes(&self) -> usize {
        self.known_bytes + self.path_bytes
    }

    fn check_memory(&self) -> Result<(), SearchError> {
        if self.held_bytes() as u64 > self.byte_limit {
            Err(SearchError::MemoryLimit {
                limit: self.byte_limit,
            })
        } else {
            Ok(())
        }
    }

    /// The bytes `position` takes in a vector or a table entry.
    fn bytes_of(&self, position: &G::Position) -> usize {
        std::mem::size_of::<G::Position>() + self.game.position_bytes(position)
    }

    /// The remoteness of `position` under normal play.
    ///
    /// # Errors
    /// [`SearchError::StateLimit`] past `limit` stored positions,
    /// [`SearchError::Cycle`] when a position can be reached from itself, and what the
    /// game's [`try_moves`](ImpartialGame::try_moves) reports.
    pub fn of(&mut self, position: &G::Position) -> Result<u32, SearchError> {
        if let Some(&known) = self.known.get(position) {
            return Ok(known);
        }
        let mut on_path: FxHashSet<G::Position> = FxHashSet::default();
        self.path_bytes = 0;
        let mut stack = vec![self.frame(position.clone())?];
        on_path.insert(position.clone());
        loop {
            let frame = stack
                .last_mut()
                .expect("the stack holds the frame being valued");
            if let Some(option) = frame.options.get(frame.next) {
                frame.next += 1;
                if self.known.contains_key(option) {
                    continue;
                }
                if !on_path.insert(option.clone()) {
                    return Err(SearchError::Cycle);
                }
                let option = option.clone();
                stack.push(self.frame(option)?);
                continue;
            }
            let frame = stack.pop().expect("the frame just looked at");
            self.path_bytes -= frame.bytes;
            let value = self.value(&frame.options);
            on_path.remove(&frame.position);
            self.remember(frame.position, value)?;
            if stack.is_empty() {
                return Ok(value);
            }
        }
    }

    fn frame(&mut self, position: G::Position) -> Result<Frame<G::Position>, SearchError> {
        checkpoint()?;
        let mut options = Vec::new();
        self.game.try_moves(&position, &mut options)?;
        // The position itself is counted twice (on the path and in its
        // frame), as it is held.
        let bytes = 2 * self.bytes_of(&position)
            + options
                .iter()
                .map(|option| self.bytes_of(option))
                .sum::<usize>();
        self.path_bytes += bytes;
        self.check_memory()?;
        Ok(Frame {
            position,
            options,
            next: 0,
            bytes,
        })
    }

    /// Steinhaus's rule, the options' remotenesses being known.
    fn value(&self, options: &[G::Position]) -> u32 {
        let remoteness = |option: &G::Position| self.known[option];
        let quickest_win = options.iter().map(remoteness).filter(|r| r % 2 == 0).min();
        match quickest_win {
            Some(r) => r + 1,
            None => options.iter().map(remoteness).max().map_or(0, |r| r + 1),
        }
    }

    fn remember(&mut self, position: G::Position, value: u32) -> Result<(), SearchError> {
        if self.known.len() >= self.limit {
            return Err(SearchError::StateLimit { limit: self.limit });
        }
        // A table entry: the key, its value, and the table's control byte.
        self.known_bytes += self.bytes_of(&position) + std::mem::size_of::<u32>() + 1;
        self.check_memory()?;
        self.known.insert(position, value);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::theory::solver::Solver;
    use proptest::prelude::*;

    /// Heaps; a move takes 1 to `max_take` tokens from one heap (`max_take` 0: any
    /// number, Nim).
    struct Heaps {
        max_take: u8,
    }

    impl ImpartialGame for Heaps {
        type Position = Vec<u8>;

        fn moves(&self, heaps: &Vec<u8>, moves: &mut Vec<Vec<u8>>) {
            for (i, &heap) in heaps.iter().enumerate() {
                let most = if self.max_take == 0 {
                    heap
                } else {
                    heap.min(self.max_take)
                };
                for take in 1..=most {
                    let mut next = heaps.clone();
                    next[i] -= take;
                    moves.push(next);
                }
            }
        }
    }

    /// Remoteness by the definition, without memory: the oracle.
    fn by_definition(game: &Heaps, position: &Vec<u8>) -> u32 {
        let mut options = Vec::new();
        game.moves(position, &mut options);
        let values: Vec<u32> = options.iter().map(|o| by_definition(game, o)).collect();
        match values.iter().copied().filter(|r| r % 2 == 0).min() {
            Some(r) => r + 1,
            None => values.iter().max().map_or(0, |r| r + 1),
        }
    }

    #[test]
    fn known_values() {
        let nim = Heaps { max_take: 0 };
        let mut search = Remoteness::new(&nim, 1 << 16);
        // One heap: take it all.
        assert_eq!(search.of(&vec![5]).unwrap(), 1);
        assert_eq!(search.of(&vec![0]).unwrap(), 0);
        // Two equal heaps: the loser takes one token, the winner mirrors, ...
        assert_eq!(search.of(&vec![1, 1]).unwrap(), 2);
        assert_eq!(search.of(&vec![3, 3]).unwrap(), 6);
        // Taking one token at a time: the game lasts as many moves as there are tokens.
        let ones = Heaps { max_take: 1 };
        let mut search = Remoteness::new(&ones, 1 << 16);
        for n in 0..20 {
            assert_eq!(search.of(&vec![n]).unwrap(), u32::from(n));
        }
    }

    #[test]
    fn a_full_table_is_refused() {
        let nim = Heaps { max_take: 0 };
        let mut search = Remoteness::new(&nim, 10);
        assert!(matches!(
            search.of(&vec![4, 4, 4]),
            Err(SearchError::StateLimit { limit: 10 })
        ));
    }

    #[test]
    fn the_memory_limit_bounds_the_positions_held() {
        let nim = Heaps { max_take: 0 };
        let heaps = vec![3u8; 12];
        let mut search = Remoteness::new(&nim, usize::MAX).with_memory_limit(4096);
        assert!(matches!(
            search.of(&heaps),
            Err(SearchError::MemoryLimit { limit: 4096 })
        ));
        // What it held when it stopped is about the limit.
        assert!(search.held_bytes() < 8192, "{}", search.held_bytes());
        let mut roomy = Remoteness::new(&nim, 1 << 16).with_memory_limit(1 << 30);
        assert_eq!(roomy.of(&vec![3, 3]).unwrap(), 6);
    }

    proptest! {
        /// Against the definition, and even exactly on the P-positions the generic
        /// solver finds.
        #[test]
        fn agrees_with_the_definition_and_the_outcome(
            heaps in proptest::collection::vec(0u8..5, 1..4),
            max_take in 0u8..4,
        ) {
            let game = Heaps { max_take };
            let mut search = Remoteness::new(&game, 1 << 16);
            let remoteness = search.of(&heaps).unwrap();
            prop_assert_eq!(remoteness, by_definition(&game, &heaps));
            let nimber = Solver::new(&game).nimber(&heaps).unwrap();
            prop_assert_eq!(remoteness.is_multiple_of(2), nimber == 0);
        }
    }
}
