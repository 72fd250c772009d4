//! The misère outcomes of every move of a position, searched on every thread of
//! the pool over one shared table.
//!
//! A misère sum has no sum rule: it is searched whole, as one game, and the
//! answer needs the outcome of every move from the start (its winning moves,
//! counted). Each thread takes the next move and searches it depth first, as
//! [`Solver`](super::Solver) does, storing each outcome it proves in a table
//! all threads read: one byte a position, for games that number their
//! positions densely ([`ImpartialGame::dense_positions`]; a misère sum of
//! components that never split). The moves of a sum share most of the
//! positions below them, so two threads would often search the same position
//! at once: a position being searched is marked busy in the table, and a
//! thread meeting a busy position tries the position's other moves first,
//! coming back to it only when none of them decides (and then searches it
//! too). This is the idea of Weill's ABDADA (J.-C. Weill, *The ABDADA
//! distributed minimax search algorithm*, ICCA Journal 19, 1996) for an
//! outcome search.
//!
//! Outcomes are facts, so the answers are those of one thread whatever the
//! number of threads. Only the work done can differ: on one thread the
//! positions stored are the solver's, while a thread that passes over a busy
//! position may search other moves that one thread would not have needed. The
//! game must be finite (no position reached from itself): the caller checks it
//! first, since a busy position is not told from one on the thread's own path.
//!
//! Sums whose positions are hashed (components that split) stay with the
//! solver: a shared hash map behind locks made two threads no faster than one.

use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::theory::cancel::{self, checkpoint};
use crate::theory::game::ImpartialGame;
use crate::theory::limits::{Budget, SearchError};

/// The states of a position in the shared table.
const EMPTY: u8 = 0;
const BUSY: u8 = 1;
/// Won or lost for the player to move.
const WON: u8 = 2;
const LOST: u8 = 3;

/// What the search found, and what it cost.
#[derive(Debug)]
pub(crate) struct MoveOutcomes {
    /// For each move, in the order given: whether the player to move after it
    /// wins (so the move loses).
    pub(crate) mover_wins: Vec<bool>,
    /// Positions whose moves were listed, over all threads.
    pub(crate) positions_expanded: u64,
    /// Positions the table holds.
    pub(crate) positions_stored: usize,
    /// The bytes the table holds per stored position.
    pub(crate) bytes_per_position: f64,
}

/// The table all threads share: a byte a position, [`EMPTY`], [`BUSY`], [`WON`]
/// or [`LOST`], with what the threads have counted.
struct SharedTable {
    slots: Box<[AtomicU8]>,
    /// Positions stored (busy or decided).
    stored: AtomicUsize,
    /// Bytes of the moves listed and not yet decided, over all threads.
    pending: AtomicUsize,
    expanded: AtomicU64,
}

impl SharedTable {
    fn get<G: ImpartialGame>(&self, game: &G, position: &G::Position) -> u8 {
        self.slots[game.position_index(position)].load(Ordering::Relaxed)
    }

    /// Marks `position` busy unless it is stored already; whether it was new.
    fn mark_busy<G: ImpartialGame>(&self, game: &G, position: &G::Position) -> bool {
        self.slots[game.position_index(position)]
            .compare_exchange(EMPTY, BUSY, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    }

    /// Stores the outcome of `position`, marked busy before.
    fn decide<G: ImpartialGame>(&self, game: &G, position: &G::Position, won: bool) {
        let value = if won { WON } else { LOST };
        self.slots[game.position_index(position)].store(value, Ordering::Relaxed);
    }

    fn add(&self, counts: &mut Counts) {
        self.stored.fetch_add(counts.stored, Ordering::Relaxed);
        self.expanded.fetch_add(counts.expanded, Ordering::Relaxed);
        if counts.pending >= 0 {
            self.pending
                .fetch_add(counts.pending.unsigned_abs(), Ordering::Relaxed);
        } else {
            self.pending
                .fetch_sub(counts.pending.unsigned_abs(), Ordering::Relaxed);
        }
        *counts = Counts::default();
    }

    /// Whether the table, with what `own` has not yet added to it, is within
    /// `budget`.
    fn check(&self, budget: Budget, own: &Counts) -> Result<(), SearchError> {
        checkpoint()?;
        if self.stored.load(Ordering::Relaxed) + own.stored >= budget.states {
            return Err(SearchError::StateLimit {
                limit: budget.states,
            });
        }
        let held = (self.slots.len() + self.pending.load(Ordering::Relaxed))
            .saturating_add_signed(own.pending);
        if held as u64 > budget.bytes {
            return Err(SearchError::MemoryLimit {
                limit: budget.bytes,
            });
        }
        Ok(())
    }
}

/// What a thread added to the table's counts and not yet to its shared
/// counters: they are added every [`FLUSH_EVERY`] positions, since a counter
/// that every thread changes at every position would bounce between the cores.
#[derive(Default)]
struct Counts {
    stored: usize,
    expanded: u64,
    /// The change in the bytes of moves waiting to be decided.
    pending: isize,
}

/// Positions a thread expands between two additions of its counts.
const FLUSH_EVERY: u64 = 256;

/// One position being searched by a thread.
struct Frame<P> {
    position: P,
    /// Its moves are `children[first..end]`.
    first: usize,
    end: usize,
    next: usize,
    /// A move was passed over because another thread was searching it.
    passed_busy: bool,
    /// The moves are being looked at again, busy ones searched too.
    second_look: bool,
    children_bytes: usize,
}

/// For each of `moves` from `start` (each a position), whether the player to
/// move there wins under misère play (the player who cannot move wins), searched
/// on every thread of the current pool within `budget`, over a table of one byte
/// for each of the game's `positions` (numbered by
/// [`ImpartialGame::position_index`]). The game must be finite from `start` (see
/// the module's documentation).
///
/// # Errors
/// The first error of the moves in their order: [`SearchError::StateLimit`],
/// [`SearchError::MemoryLimit`] (both counted over all threads), a game's own
/// error, or [`SearchError::Cancelled`] when the caller's signal stops the
/// search.
pub(crate) fn misere_outcomes_of_moves<G>(
    game: &G,
    start: &G::Position,
    moves: &[G::Position],
    budget: Budget,
    positions: usize,
) -> Result<MoveOutcomes, SearchError>
where
    G: ImpartialGame + Sync,
    G::Position: Send + Sync,
{
    if positions as u64 > budget.bytes {
        return Err(SearchError::MemoryLimit {
            limit: budget.bytes,
        });
    }
    let table = SharedTable {
        // Zeroed by the allocator: pages never written are never mapped.
        slots: bytemuck::zeroed_slice_box(positions),
        stored: AtomicUsize::new(0),
        pending: AtomicUsize::new(0),
        expanded: AtomicU64::new(0),
    };
    // A failure stops the other threads; the caller's signal stops them all.
    let signal = cancel::current().unwrap_or_default().child();
    let searched: Vec<Result<bool, SearchError>> = moves
        .par_iter()
        .with_max_len(1)
        .map(|position| {
            let found = signal.run(|| {
                ThreadSearch {
                    game,
                    table: &table,
                    budget,
                    counts: Counts::default(),
                }
                .mover_wins(position)
            });
            if found.is_err() {
                signal.cancel();
            }
            found
        })
        .collect();
    let mut mover_wins = Vec::with_capacity(moves.len());
    let mut stopped = None;
    for found in searched {
        match found {
            Ok(wins) => mover_wins.push(wins),
            // Stopped by another move's failure, or by the caller.
            Err(SearchError::Cancelled) => stopped = Some(SearchError::Cancelled),
            Err(error) => return Err(error),
        }
    }
    if let Some(error) = stopped {
        return Err(error);
    }
    // Stored as one thread stores it: won when some move loses (or none is left).
    let new = table.mark_busy(game, start);
    table.decide(
        game,
        start,
        mover_wins.is_empty() || mover_wins.contains(&false),
    );
    let stored = table.stored.load(Ordering::Relaxed) + usize::from(new);
    Ok(MoveOutcomes {
        mover_wins,
        positions_expanded: table.expanded.load(Ordering::Relaxed),
        positions_stored: stored,
        bytes_per_position: positions as f64 / stored.max(1) as f64,
    })
}

/// One thread's search, from one move of the start.
struct ThreadSearch<'a, G: ImpartialGame> {
    game: &'a G,
    table: &'a SharedTable,
    budget: Budget,
    /// What this search added to the table's counts and not yet to its counters.
    counts: Counts,
}

impl<G: ImpartialGame> ThreadSearch<'_, G> {
    /// Whether the player to move at `position` wins under misère play. The
    /// moves it leaves waiting (when it fails) are no longer counted after it.
    fn mover_wins(mut self, position: &G::Position) -> Result<bool, SearchError> {
        let mut pending = 0;
        let found = self.searched(position, &mut pending);
        self.counts.pending -= pending as isize;
        self.table.add(&mut self.counts);
        found
    }

    fn searched(
        &mut self,
        position: &G::Position,
        pending: &mut usize,
    ) -> Result<bool, SearchError> {
        match self.table.get(self.game, position) {
            WON => return Ok(true),
            LOST => return Ok(false),
            _ => {}
        }
        let mut children: Vec<G::Position> = Vec::new();
        let mut stack: Vec<Frame<G::Position>> = Vec::new();
        self.push(position.clone(), &mut stack, &mut children, pending)?;
        loop {
            let frame = stack.last_mut().expect("the stack holds a frame");
            let mut descend = None;
            let mut won = false;
            while frame.next < frame.end {
                let child = &children[frame.next];
                match self.table.get(self.game, child) {
                    // A move to a position lost for its mover wins.
                    LOST => {
                        won = true;
                        break;
                    }
                    WON => frame.next += 1,
                    // Another thread searches it: the other moves first.
                    BUSY if !frame.second_look => {
                        frame.passed_busy = true;
                        frame.next += 1;
                    }
                    _ => {
                        descend = Some(child.clone());
                        break;
                    }
                }
            }
            if let Some(child) = descend {
                self.push(child, &mut stack, &mut children, pending)?;
                continue;
            }
            if !won && frame.passed_busy && !frame.second_look {
                frame.second_look = true;
                frame.next = frame.first;
                continue;
            }
            let frame = stack.pop().expect("the stack holds a frame");
            // No move at all: under misère play the player to move wins.
            let won = won || frame.first == frame.end;
            children.truncate(frame.first);
            *pending -= frame.children_bytes;
            self.counts.pending -= frame.children_bytes as isize;
            self.table.decide(self.game, &frame.position, won);
            if stack.is_empty() {
                return Ok(won);
            }
        }
    }

    fn push(
        &mut self,
        position: G::Position,
        stack: &mut Vec<Frame<G::Position>>,
        children: &mut Vec<G::Position>,
        pending: &mut usize,
    ) -> Result<(), SearchError> {
        self.table.check(self.budget, &self.counts)?;
        let first = children.len();
        self.game.try_moves(&position, children)?;
        let listed = &children[first..];
        let children_bytes = std::mem::size_of_val(listed)
            + listed
                .iter()
                .map(|child| self.game.position_bytes(child))
                .sum::<usize>();
        *pending += children_bytes;
        self.counts.stored += usize::from(self.table.mark_busy(self.game, &position));
        self.counts.pending += children_bytes as isize;
        self.counts.expanded += 1;
        if self.counts.expanded >= FLUSH_EVERY {
            self.table.add(&mut self.counts);
        }
        stack.push(Frame {
            position,
            first,
            end: children.len(),
            next: first,
            passed_busy: false,
            second_look: false,
            children_bytes,
        });
        // A position with more moves than the budget holds stops here.
        self.table.check(self.budget, &self.counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::theory::game::Outcome;
    use crate::theory::solver::Solver;

    /// Whether the player to move after each of `moves` wins under misère
    /// play, by the solver.
    fn mover_wins_by_solver<G: ImpartialGame>(
        solver: &mut Solver<'_, G>,
        moves: &[G::Position],
    ) -> Vec<bool> {
        moves
            .iter()
            .map(|m| solver.misere_outcome(m).unwrap() == Outcome::NextPlayerWins)
            .collect()
    }

    /// Nim on three heaps below `SIDE`, each position numbered in base `SIDE`.
    struct DenseNim;
    const SIDE: u32 = 7;

    impl ImpartialGame for DenseNim {
        type Position = u32;
        fn moves(&self, position: &u32, moves: &mut Vec<u32>) {
            let mut place = 1;
            for _ in 0..3 {
                let heap = position / place % SIDE;
                for smaller in 0..heap {
                    moves.push(position - (heap - smaller) * place);
                }
                place *= SIDE;
            }
        }
        fn dense_positions(&self) -> Option<usize> {
            Some((SIDE * SIDE * SIDE) as usize)
        }
        fn position_index(&self, position: &u32) -> usize {
            *position as usize
        }
    }

    /// The outcome of every move of every position of misère Nim on three
    /// heaps, on 1, 2 and 7 threads, is the solver's; on one thread the
    /// positions stored are the solver's too.
    #[test]
    fn every_move_is_valued_as_the_solver_values_it() {
        let budget = Budget::UNLIMITED;
        for start in 0..SIDE * SIDE * SIDE {
            let mut moves = Vec::new();
            DenseNim.moves(&start, &mut moves);
            let mut solver = Solver::new(&DenseNim);
            let expected = mover_wins_by_solver(&mut solver, &moves);
            solver.misere_outcome(&start).unwrap();
            let found = crate::testing::on_one_two_and_seven_threads(|| {
                misere_outcomes_of_moves(&DenseNim, &start, &moves, budget, 343).unwrap()
            });
            for (threads, found) in [1, 2, 7].into_iter().zip(found) {
                assert_eq!(found.mover_wins, expected, "{start}, {threads} threads");
                if threads == 1 {
                    assert_eq!(found.positions_stored, solver.stored_positions(), "{start}");
                }
            }
        }
    }

    /// The state limit counts the positions of all threads; a limit too small
    /// for the table itself is the memory limit; the caller's signal stops
    /// every thread.
    #[test]
    fn limits_and_the_callers_signal_stop_the_search() {
        let start = SIDE * SIDE * SIDE - 1;
        let mut moves = Vec::new();
        DenseNim.moves(&start, &mut moves);
        let found = crate::testing::on_one_two_and_seven_threads(|| {
            let states = Budget {
                states: 50,
                bytes: u64::MAX,
            };
            let bytes = Budget {
                states: usize::MAX,
                bytes: 300,
            };
            let signal = crate::theory::cancel::Cancel::new();
            signal.cancel();
            (
                misere_outcomes_of_moves(&DenseNim, &start, &moves, states, 343).err(),
                misere_outcomes_of_moves(&DenseNim, &start, &moves, bytes, 343).err(),
                signal.run(|| {
                    misere_outcomes_of_moves(&DenseNim, &start, &moves, Budget::UNLIMITED, 343)
                        .err()
                }),
            )
        });
        for found in found {
            assert_eq!(
                found,
                (
                    Some(SearchError::StateLimit { limit: 50 }),
                    Some(SearchError::MemoryLimit { limit: 300 }),
                    Some(SearchError::Cancelled),
                )
            );
        }
    }

    /// A finite game on positions `0..n`: position `p` moves to the positions
    /// listed for it, all below `p`.
    struct RandomDag(Vec<Vec<u32>>);

    impl ImpartialGame for RandomDag {
        type Position = u32;
        fn moves(&self, position: &u32, moves: &mut Vec<u32>) {
            moves.extend(&self.0[*position as usize]);
        }
        fn dense_positions(&self) -> Option<usize> {
            Some(self.0.len())
        }
        fn position_index(&self, position: &u32) -> usize {
            *position as usize
        }
    }

    proptest::proptest! {
        /// On random finite games, the outcome of every move of the last
        /// position is the solver's, on 2 and 7 threads.
        #[test]
        fn random_games_are_valued_as_the_solver_values_them(
            choices in proptest::collection::vec(
                proptest::collection::vec(proptest::num::u32::ANY, 0..6),
                1..300,
            )
        ) {
            // Each listed choice picks a position below its own.
            let game = RandomDag(
                choices
                    .iter()
                    .enumerate()
                    .map(|(p, picks)| {
                        if p == 0 {
                            Vec::new()
                        } else {
                            picks.iter().map(|pick| pick % p as u32).collect()
                        }
                    })
                    .collect(),
            );
            let start = (game.0.len() - 1) as u32;
            let mut moves = Vec::new();
            game.moves(&start, &mut moves);
            let expected = mover_wins_by_solver(&mut Solver::new(&game), &moves);
            for threads in [2, 7] {
                let found = crate::testing::on_pool(threads, || {
                    misere_outcomes_of_moves(&game, &start, &moves, Budget::UNLIMITED, game.0.len())
                        .unwrap()
                });
                proptest::prop_assert_eq!(&found.mover_wins, &expected);
            }
        }
    }
}
