//! The misère outcomes of every move of a position, searched on every thread of
//! the pool over one shared table.
//!
//! A misère sum has no sum rule: it is searched whole, as one game, and the
//! answer needs the outcome of every move from the start (its winning moves,
//! counted). Each thread takes the next move and searches it depth first, as
//! [`Solver`](super::Solver) does, storing each outcome it proves in a table
//! all threads read: one byte a position for games that number their
//! positions densely ([`ImpartialGame::dense_positions`]; a misère sum of
//! components that never split), else a hash table of positions that are
//! sorted lists of numbers (a sum whose components split: the explorer's ids
//! of its components), whose reads take no lock. The moves of a sum share most of the
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
//! The hash table is written under one lock (two writes a position: marked
//! busy, then decided) and read without one (a lookup for each move looked
//! at). Hash maps behind locks made two threads no faster than one: each
//! lookup moved a lock's cache line between the cores.

use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use arc_swap::{ArcSwap, Cache};
use rayon::prelude::*;
use rustc_hash::FxBuildHasher;
use smallvec::SmallVec;

use crate::theory::cancel::{self, checkpoint};
use crate::theory::game::ImpartialGame;
use crate::theory::limits::{Budget, SearchError};

/// The states of a position in the shared table (absent from a map: empty).
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

/// The states of positions, shared by the threads. Each thread reads and
/// writes through its own reader.
trait States<P>: Sync {
    /// What a thread holds to read and write the states.
    type Reader<'a>
    where
        Self: 'a;
    fn reader(&self) -> Self::Reader<'_>;
    /// The state of `position`.
    fn get(&self, reader: &mut Self::Reader<'_>, position: &P) -> u8;
    /// Marks `position` busy unless it is stored already; whether it was new,
    /// `None` when the table has no room left.
    fn mark_busy(&self, reader: &mut Self::Reader<'_>, position: &P) -> Option<bool>;
    /// Stores the outcome of `position`, marked busy before.
    fn decide(&self, reader: &mut Self::Reader<'_>, position: &P, won: bool);
    /// The bytes the table holds.
    fn bytes(&self) -> usize;
    /// Brings the table's entries of `positions` into the cache at once,
    /// before they are looked at one by one.
    fn warm(&self, _reader: &mut Self::Reader<'_>, _positions: &[P]) {}
}

/// A byte a position, for games that number their positions densely.
struct DenseStates<'g, G> {
    game: &'g G,
    slots: Box<[AtomicU8]>,
}

impl<G: ImpartialGame + Sync> States<G::Position> for DenseStates<'_, G> {
    type Reader<'a>
        = ()
    where
        Self: 'a;

    fn reader(&self) {}

    fn get(&self, (): &mut (), position: &G::Position) -> u8 {
        self.slots[self.game.position_index(position)].load(Ordering::Relaxed)
    }

    fn mark_busy(&self, (): &mut (), position: &G::Position) -> Option<bool> {
        Some(
            self.slots[self.game.position_index(position)]
                .compare_exchange(EMPTY, BUSY, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok(),
        )
    }

    fn decide(&self, (): &mut (), position: &G::Position, won: bool) {
        let value = if won { WON } else { LOST };
        self.slots[self.game.position_index(position)].store(value, Ordering::Relaxed);
    }

    fn bytes(&self) -> usize {
        self.slots.len()
    }
}

/// Positions that are sorted lists of numbers (a misère sum whose components
/// split: the explorer's ids of its components), in an open-addressing table
/// of one word a slot. A slot holds the position's state, a tag from its hash
/// and where its numbers are kept: in chunks of words that are only ever
/// appended to. Threads read the slots without a lock and write them under
/// one: a position is written whole (its numbers, then its slot, released)
/// before any reader can see it. When the slots grow they are copied to a
/// table twice as large, published for the readers; a reader still on the
/// old table may miss a position stored since, or see it busy when it is
/// decided, which costs it a search, never a wrong outcome.
struct HashedStates {
    slots: ArcSwap<Slots>,
    /// The chunks of numbers: each position is its length, then its numbers.
    chunks: Box<[OnceLock<Box<[AtomicU32]>>]>,
    writer: Mutex<Writer>,
    /// The bytes of every table of slots made so far and of the chunks'
    /// words written.
    bytes: AtomicUsize,
}

/// The slots of a [`HashedStates`], a power of two of them.
struct Slots(Box<[AtomicU64]>);

/// What only the holder of the writer's lock changes.
struct Writer {
    stored: usize,
    /// The chunk being filled, and the words used in it.
    chunk: usize,
    used: usize,
}

/// The words of the first chunk (few in tests, so that they fill), and of the
/// largest chunk, unless a position needs more.
const CHUNK_WORDS: usize = if cfg!(test) { 8 } else { 1 << 20 };
const MAX_CHUNK_WORDS: usize = 1 << 26;
/// How many chunks there may be: `2^38` words of positions at least.
const CHUNKS: usize = 1 << 12;
/// A slot: bits 0 and 1 the state, 2 to 15 a tag of the position's hash, 16
/// to 27 the chunk and 28 to 63 the word where the position starts in it.
const TAG_BITS: u32 = 14;
const TAG_MASK: u64 = ((1 << TAG_BITS) - 1) << 2;
const CHUNK_SHIFT: u32 = 16;
const WORD_SHIFT: u32 = 28;
/// The slots at first (few in tests, so that they grow).
const FIRST_SLOTS: usize = if cfg!(test) { 4 } else { 1 << 12 };

impl Slots {
    fn new(len: usize) -> Self {
        Self(bytemuck::zeroed_slice_box(len))
    }
}

fn hash_of(position: &[u32]) -> u64 {
    FxBuildHasher.hash_one(position)
}

/// The tag and state bits of a slot for a position of hash `hash`.
const fn tag(hash: u64) -> u64 {
    (hash >> (64 - TAG_BITS)) << 2
}

impl HashedStates {
    fn new() -> Self {
        Self {
            slots: ArcSwap::from_pointee(Slots::new(FIRST_SLOTS)),
            chunks: (0..CHUNKS).map(|_| OnceLock::new()).collect(),
            writer: Mutex::new(Writer {
                stored: 0,
                chunk: 0,
                used: 0,
            }),
            bytes: AtomicUsize::new(FIRST_SLOTS * 8),
        }
    }

    /// The words from where the position of `slot` starts (its length, then
    /// its numbers).
    fn kept(&self, slot: u64) -> Option<&[AtomicU32]> {
        let chunk = (slot >> CHUNK_SHIFT) as usize & (CHUNKS - 1);
        let at = (slot >> WORD_SHIFT) as usize;
        Some(&self.chunks[chunk].get()?[at..])
    }

    /// Whether the position kept at `slot` is `position`.
    fn holds(&self, slot: u64, position: &[u32]) -> bool {
        let Some(words) = self.kept(slot) else {
            return false;
        };
        words[0].load(Ordering::Relaxed) as usize == position.len()
            && position
                .iter()
                .zip(&words[1..])
                .all(|(&n, word)| word.load(Ordering::Relaxed) == n)
    }

    /// The index of `position`'s slot in `slots`, if it is there, or of the
    /// empty slot where it would go.
    fn find(&self, slots: &Slots, position: &[u32], hash: u64) -> (usize, Option<u64>) {
        let mask = slots.0.len() - 1;
        let tag = tag(hash);
        let mut i = hash as usize & mask;
        loop {
            let slot = slots.0[i].load(Ordering::Acquire);
            if slot == 0 {
                return (i, None);
            }
            if slot & TAG_MASK == tag && self.holds(slot, position) {
                return (i, Some(slot));
            }
            i = (i + 1) & mask;
        }
    }

    /// Keeps `position` in the chunks (under the writer's lock): where it
    /// starts, as slot bits; `None` when every chunk is full.
    fn keep(&self, writer: &mut Writer, position: &[u32]) -> Option<u64> {
        let words = position.len() + 1;
        let room = self.chunks[writer.chunk]
            .get()
            .map_or(0, |chunk| chunk.len());
        if writer.used + words > room {
            if room > 0 {
                writer.chunk += 1;
                if writer.chunk == CHUNKS {
                    writer.chunk -= 1;
                    return None;
                }
            }
            writer.used = 0;
            // Each chunk twice the one before, up to the largest; a position
            // larger than that has a chunk of its own size.
            let size = (CHUNK_WORDS << writer.chunk.min(30))
                .min(MAX_CHUNK_WORDS)
                .max(words);
            // Zeroed by the allocator: pages never written are never mapped.
            self.chunks[writer.chunk].get_or_init(|| bytemuck::zeroed_slice_box(size));
        }
        let chunk = self.chunks[writer.chunk].get()?;
        let at = writer.used;
        chunk[at].store(position.len() as u32, Ordering::Relaxed);
        for (word, &n) in chunk[at + 1..].iter().zip(position) {
            word.store(n, Ordering::Relaxed);
        }
        writer.used += words;
        self.bytes.fetch_add(words * 4, Ordering::Relaxed);
        Some((writer.chunk as u64) << CHUNK_SHIFT | (at as u64) << WORD_SHIFT)
    }

    /// Copies the slots to a table twice as large (under the writer's lock).
    fn grow(&self, slots: &Slots) {
        let larger = Slots::new(slots.0.len() * 2);
        let mask = larger.0.len() - 1;
        for slot in &slots.0 {
            let slot = slot.load(Ordering::Relaxed);
            if slot == 0 {
                continue;
            }
            let words = self.kept(slot).expect("a stored position's chunk");
            let len = words[0].load(Ordering::Relaxed) as usize;
            let position: SmallVec<[u32; 8]> = words[1..=len]
                .iter()
                .map(|word| word.load(Ordering::Relaxed))
                .collect();
            let mut i = hash_of(&position) as usize & mask;
            while larger.0[i].load(Ordering::Relaxed) != 0 {
                i = (i + 1) & mask;
            }
            larger.0[i].store(slot, Ordering::Relaxed);
        }
        // The old slots stay counted: they live until the readers leave them,
        // and both are held while the slots are copied.
        self.bytes.fetch_add(larger.0.len() * 8, Ordering::Relaxed);
        self.slots.store(Arc::new(larger));
    }
}

impl<P: AsRef<[u32]> + Sync> States<P> for HashedStates {
    /// The slots as this thread last saw them.
    type Reader<'a>
        = Cache<&'a ArcSwap<Slots>, Arc<Slots>>
    where
        Self: 'a;

    fn reader(&self) -> Self::Reader<'_> {
        Cache::new(&self.slots)
    }

    fn get(&self, reader: &mut Self::Reader<'_>, position: &P) -> u8 {
        let position = position.as_ref();
        let slots = reader.load();
        match self.find(slots, position, hash_of(position)) {
            (_, Some(slot)) => (slot & 3) as u8,
            (_, None) => EMPTY,
        }
    }

    fn mark_busy(&self, _: &mut Self::Reader<'_>, position: &P) -> Option<bool> {
        let position = position.as_ref();
        let hash = hash_of(position);
        let mut writer = lock(&self.writer);
        let slots = self.slots.load();
        let (i, None) = self.find(&slots, position, hash) else {
            return Some(false);
        };
        let place = self.keep(&mut writer, position)?;
        slots.0[i].store(place | tag(hash) | u64::from(BUSY), Ordering::Release);
        writer.stored += 1;
        if writer.stored * 2 > slots.0.len() {
            self.grow(&slots);
        }
        Some(true)
    }

    fn decide(&self, _: &mut Self::Reader<'_>, position: &P, won: bool) {
        let position = position.as_ref();
        let hash = hash_of(position);
        let value = u64::from(if won { WON } else { LOST });
        let _writer = lock(&self.writer);
        let slots = self.slots.load();
        if let (i, Some(slot)) = self.find(&slots, position, hash) {
            slots.0[i].store(slot & !3 | value, Ordering::Release);
        }
    }

    fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }

    fn warm(&self, reader: &mut Self::Reader<'_>, positions: &[P]) {
        let slots = reader.load();
        let mask = slots.0.len() - 1;
        // Independent loads, whose misses the processor overlaps: the slots
        // first, then the first word of each position they point to.
        let mut seen = 0u64;
        for position in positions {
            let i = hash_of(position.as_ref()) as usize & mask;
            seen ^= slots.0[i].load(Ordering::Relaxed);
        }
        for position in positions {
            let i = hash_of(position.as_ref()) as usize & mask;
            let slot = slots.0[i].load(Ordering::Relaxed);
            if let Some(words) = self.kept(slot).filter(|_| slot != 0) {
                seen ^= u64::from(words[0].load(Ordering::Relaxed));
            }
        }
        std::hint::black_box(seen);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The table all threads share: the states of positions, with what the
/// threads have counted.
struct SharedTable<T> {
    states: T,
    /// Positions stored (busy or decided).
    stored: AtomicUsize,
    /// Bytes of the moves listed and not yet decided, over all threads.
    pending: AtomicUsize,
    expanded: AtomicU64,
}

impl<T> SharedTable<T> {
    fn new(states: T) -> Self {
        Self {
            states,
            stored: AtomicUsize::new(0),
            pending: AtomicUsize::new(0),
            expanded: AtomicU64::new(0),
        }
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
    fn check<P>(&self, budget: Budget, own: &Counts) -> Result<(), SearchError>
    where
        T: States<P>,
    {
        checkpoint()?;
        if self.stored.load(Ordering::Relaxed) + own.stored >= budget.states {
            return Err(SearchError::StateLimit {
                limit: budget.states,
            });
        }
        let held = (self.states.bytes() + self.pending.load(Ordering::Relaxed))
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
/// counters: they are added every [`FLUSH_EVERY`] positions, or once the bytes
/// pending have changed by [`FLUSH_BYTES`], since a counter that every thread
/// changes at every position would bounce between the cores.
#[derive(Default)]
struct Counts {
    stored: usize,
    expanded: u64,
    /// The change in the bytes of moves waiting to be decided.
    pending: isize,
}

/// Positions a thread expands between two additions of its counts.
const FLUSH_EVERY: u64 = 256;
/// The change in a thread's bytes pending that is added at once: the other
/// threads check the memory limit against it (positions with thousands of
/// moves of a kilobyte each hold megabytes a position).
const FLUSH_BYTES: usize = 1 << 20;

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
    let states = DenseStates {
        game,
        // Zeroed by the allocator: pages never written are never mapped.
        slots: bytemuck::zeroed_slice_box(positions),
    };
    search_moves(game, start, moves, budget, &SharedTable::new(states))
}

/// [`misere_outcomes_of_moves`] for a game whose positions are sorted lists of
/// numbers, over a hash table of them.
///
/// # Errors
/// As [`misere_outcomes_of_moves`].
pub(crate) fn misere_outcomes_of_moves_hashed<G>(
    game: &G,
    start: &G::Position,
    moves: &[G::Position],
    budget: Budget,
) -> Result<MoveOutcomes, SearchError>
where
    G: ImpartialGame + Sync,
    G::Position: AsRef<[u32]> + Send + Sync,
{
    search_moves(
        game,
        start,
        moves,
        budget,
        &SharedTable::new(HashedStates::new()),
    )
}

fn search_moves<G, T>(
    game: &G,
    start: &G::Position,
    moves: &[G::Position],
    budget: Budget,
    table: &SharedTable<T>,
) -> Result<MoveOutcomes, SearchError>
where
    G: ImpartialGame + Sync,
    G::Position: Send + Sync,
    T: States<G::Position>,
{
    // The moves of the start are held throughout.
    let moves_bytes = std::mem::size_of_val(moves)
        + moves
            .iter()
            .map(|position| game.position_bytes(position))
            .sum::<usize>();
    table.pending.fetch_add(moves_bytes, Ordering::Relaxed);
    table.check(budget, &Counts::default())?;
    // A failure stops the other threads; the caller's signal stops them all.
    let signal = cancel::current().unwrap_or_default().child();
    let searched: Vec<Result<bool, SearchError>> = moves
        .par_iter()
        .with_max_len(1)
        .map(|position| {
            let found = signal.run(|| {
                ThreadSearch {
                    game,
                    table,
                    reader: table.states.reader(),
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
    let mut reader = table.states.reader();
    let new = table.states.mark_busy(&mut reader, start) == Some(true);
    table.states.decide(
        &mut reader,
        start,
        mover_wins.is_empty() || mover_wins.contains(&false),
    );
    let stored = table.stored.load(Ordering::Relaxed) + usize::from(new);
    Ok(MoveOutcomes {
        mover_wins,
        positions_expanded: table.expanded.load(Ordering::Relaxed),
        positions_stored: stored,
        bytes_per_position: table.states.bytes() as f64 / stored.max(1) as f64,
    })
}

/// One thread's search, from one move of the start.
struct ThreadSearch<'a, G: ImpartialGame, T: States<G::Position>> {
    game: &'a G,
    table: &'a SharedTable<T>,
    reader: T::Reader<'a>,
    budget: Budget,
    /// What this search added to the table's counts and not yet to its counters.
    counts: Counts,
}

impl<G: ImpartialGame, T: States<G::Position>> ThreadSearch<'_, G, T> {
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
        match self.table.states.get(&mut self.reader, position) {
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
                match self.table.states.get(&mut self.reader, child) {
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
            if self.counts.pending.unsigned_abs() >= FLUSH_BYTES {
                self.table.add(&mut self.counts);
            }
            self.table
                .states
                .decide(&mut self.reader, &frame.position, won);
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
        self.table.states.warm(&mut self.reader, listed);
        let children_bytes = std::mem::size_of_val(listed)
            + listed
                .iter()
                .map(|child| self.game.position_bytes(child))
                .sum::<usize>();
        *pending += children_bytes;
        match self.table.states.mark_busy(&mut self.reader, &position) {
            Some(new) => self.counts.stored += usize::from(new),
            None => {
                return Err(SearchError::MemoryLimit {
                    limit: self.budget.bytes,
                });
            }
        }
        self.counts.pending += children_bytes as isize;
        self.counts.expanded += 1;
        if self.counts.expanded >= FLUSH_EVERY || self.counts.pending.unsigned_abs() >= FLUSH_BYTES
        {
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

    /// The game's positions, each as a list of one number, for the hashed table.
    struct Listed<'g, G>(&'g G);

    impl<G: ImpartialGame<Position = u32>> ImpartialGame for Listed<'_, G> {
        type Position = SmallVec<[u32; 4]>;
        fn moves(&self, position: &Self::Position, moves: &mut Vec<Self::Position>) {
            let mut inner = Vec::new();
            self.0.moves(&position[0], &mut inner);
            moves.extend(inner.into_iter().map(|p| smallvec::smallvec![p]));
        }
    }

    /// Which table a test searches over.
    #[derive(Clone, Copy, Debug)]
    enum Storage {
        /// A byte a position, for positions below the bound.
        Dense(usize),
        /// The hashed table, each position a list of one number.
        Hashed,
    }

    /// [`misere_outcomes_of_moves`] or [`misere_outcomes_of_moves_hashed`], as
    /// `storage` says.
    fn outcomes<G: ImpartialGame<Position = u32> + Sync>(
        game: &G,
        start: u32,
        moves: &[u32],
        budget: Budget,
        storage: Storage,
    ) -> Result<MoveOutcomes, SearchError> {
        match storage {
            Storage::Dense(positions) => {
                misere_outcomes_of_moves(game, &start, moves, budget, positions)
            }
            Storage::Hashed => {
                let listed: Vec<SmallVec<[u32; 4]>> =
                    moves.iter().map(|&m| smallvec::smallvec![m]).collect();
                let start = smallvec::smallvec![start];
                misere_outcomes_of_moves_hashed(&Listed(game), &start, &listed, budget)
            }
        }
    }

    /// Both tables, the dense one for the positions of [`DenseNim`].
    const STORAGES: [Storage; 2] = [Storage::Dense(343), Storage::Hashed];

    /// The outcome of every move of every position of misère Nim on three
    /// heaps, on 1, 2 and 7 threads and with either table, is the solver's; on
    /// one thread the positions stored are the solver's too.
    #[test]
    fn every_move_is_valued_as_the_solver_values_it() {
        let budget = Budget::UNLIMITED;
        for start in 0..SIDE * SIDE * SIDE {
            let mut moves = Vec::new();
            DenseNim.moves(&start, &mut moves);
            let mut solver = Solver::new(&DenseNim);
            let expected = mover_wins_by_solver(&mut solver, &moves);
            solver.misere_outcome(&start).unwrap();
            for storage in STORAGES {
                let found = crate::testing::on_one_two_and_seven_threads(|| {
                    outcomes(&DenseNim, start, &moves, budget, storage).unwrap()
                });
                for (threads, found) in [1, 2, 7].into_iter().zip(found) {
                    let case = format!("{start}, {threads} threads, {storage:?}");
                    assert_eq!(found.mover_wins, expected, "{case}");
                    if threads == 1 {
                        assert_eq!(found.positions_stored, solver.stored_positions(), "{case}");
                    }
                }
            }
        }
    }

    /// Heaps that a move takes from or splits in two: positions are the sorted
    /// lists of heaps, of any length, as a misère sum that splits is searched.
    struct SplitNim;

    impl ImpartialGame for SplitNim {
        type Position = SmallVec<[u32; 4]>;
        fn moves(&self, position: &Self::Position, moves: &mut Vec<Self::Position>) {
            for (i, &heap) in position.iter().enumerate() {
                let mut rest = position.clone();
                rest.remove(i);
                let mut leave = |parts: &[u32]| {
                    let mut next = rest.clone();
                    next.extend(parts.iter().copied().filter(|&p| p > 0));
                    next.sort_unstable();
                    moves.push(next);
                };
                for smaller in 0..heap {
                    leave(&[smaller]);
                }
                for a in 1..=heap / 2 {
                    leave(&[a, heap - a]);
                }
            }
        }
    }

    /// Every position of up to three heaps below 6 of [`SplitNim`]: the
    /// outcome of each move over the hashed table, on 1, 2 and 7 threads, is
    /// the solver's, and on one thread the positions stored are too. The
    /// tests' table starts with four slots and chunks of eight words, so it
    /// grows and fills chunks many times.
    #[test]
    fn positions_of_any_length_are_valued_as_the_solver_values_them() {
        let mut starts: Vec<SmallVec<[u32; 4]>> = vec![SmallVec::new()];
        for a in 1..6 {
            starts.push(smallvec::smallvec![a]);
            for b in a..6 {
                starts.push(smallvec::smallvec![a, b]);
                for c in b..6 {
                    starts.push(smallvec::smallvec![a, b, c]);
                }
            }
        }
        for start in &starts {
            let mut moves = Vec::new();
            SplitNim.moves(start, &mut moves);
            let mut solver = Solver::new(&SplitNim);
            let expected = mover_wins_by_solver(&mut solver, &moves);
            solver.misere_outcome(start).unwrap();
            let found = crate::testing::on_one_two_and_seven_threads(|| {
                misere_outcomes_of_moves_hashed(&SplitNim, start, &moves, Budget::UNLIMITED)
                    .unwrap()
            });
            for (threads, found) in [1, 2, 7].into_iter().zip(found) {
                assert_eq!(found.mover_wins, expected, "{start:?}, {threads} threads");
                if threads == 1 {
                    assert_eq!(
                        found.positions_stored,
                        solver.stored_positions(),
                        "{start:?}"
                    );
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
        for storage in STORAGES {
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
                    outcomes(&DenseNim, start, &moves, states, storage).err(),
                    outcomes(&DenseNim, start, &moves, bytes, storage).err(),
                    signal.run(|| {
                        outcomes(&DenseNim, start, &moves, Budget::UNLIMITED, storage).err()
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
                    ),
                    "{storage:?}"
                );
            }
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
        /// position is the solver's, on 2 and 7 threads, and on 2 with the
        /// hashed table.
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
            let dense = Storage::Dense(game.0.len());
            for (threads, storage) in [(2, dense), (7, dense), (2, Storage::Hashed)] {
                let found = crate::testing::on_pool(threads, || {
                    outcomes(&game, start, &moves, Budget::UNLIMITED, storage).unwrap()
                });
                proptest::prop_assert_eq!(&found.mover_wins, &expected);
            }
        }
    }
}
