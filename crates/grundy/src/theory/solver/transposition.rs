//! Transposition tables: where the solver remembers what it has found.
//!
//! A hash map works for any position; a game that numbers its positions densely
//! ([`ImpartialGame::dense_positions`]) gets a plain array instead: one load per
//! lookup, no hashing, no key comparison, and 4 bytes per slot.

use std::hash::Hash;
use std::mem;

use rustc_hash::FxHashMap;

use crate::theory::game::ImpartialGame;

/// An empty slot of a dense table. No nimber reaches it (a position would need
/// four billion moves) and the outcome marks are 0 and 1.
const EMPTY: u32 = u32::MAX - 1;

/// A table from positions to small values.
#[derive(Debug)]
pub(super) enum Table<P> {
    Hash(FxHashMap<P, u32>),
    Dense {
        /// Allocated at the first insertion, so unused tables cost nothing.
        slots: Vec<u32>,
        bound: usize,
        stored: usize,
    },
}

impl<P: Clone + Eq + Hash> Table<P> {
    /// A dense table when the game numbers its positions within `limit`, a hash
    /// map otherwise.
    pub(super) fn for_game<G: ImpartialGame<Position = P>>(game: &G, limit: usize) -> Self {
        match game.dense_positions() {
            Some(bound) if bound <= limit => Self::Dense {
                slots: Vec::new(),
                bound,
                stored: 0,
            },
            _ => Self::Hash(FxHashMap::default()),
        }
    }

    pub(super) fn get<G: ImpartialGame<Position = P>>(
        &self,
        game: &G,
        position: &P,
    ) -> Option<u32> {
        match self {
            Self::Hash(map) => map.get(position).copied(),
            Self::Dense { slots, .. } => slots
                .get(game.position_index(position))
                .copied()
                .filter(|&value| value != EMPTY),
        }
    }

    /// Stores `value` for `position`; whether the position was new to the table.
    pub(super) fn insert<G: ImpartialGame<Position = P>>(
        &mut self,
        game: &G,
        position: P,
        value: u32,
    ) -> bool {
        match self {
            Self::Hash(map) => map.insert(position, value).is_none(),
            Self::Dense {
                slots,
                bound,
                stored,
            } => {
                if slots.is_empty() {
                    *slots = vec![EMPTY; *bound];
                }
                let slot = &mut slots[game.position_index(&position)];
                let new = *slot == EMPTY;
                if new {
                    *stored += 1;
                }
                *slot = value;
                new
            }
        }
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Self::Hash(map) => map.len(),
            Self::Dense { stored, .. } => *stored,
        }
    }

    /// The bytes the table holds: for a hash map its capacity in entries and
    /// control bytes, for a dense table its slots.
    pub(super) fn bytes(&self) -> usize {
        match self {
            Self::Hash(map) => map.capacity() * (mem::size_of::<(P, u32)>() + 1),
            Self::Dense { slots, .. } => slots.len() * mem::size_of::<u32>(),
        }
    }
}
