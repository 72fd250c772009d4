//! A board search's checkpoint (`solve --checkpoint FILE`): what the search
//! has proved so far, saved as it goes and read back before a search of the
//! same board.
//!
//! The search's work lives in what it proved: the exact nimbers of canonical
//! regions (the transposition table), nimbers that regions do *not* have
//! (the excluded-nimber cache), and what each class of options of the
//! board's own regions is known to be or not to be (the root's facts, which
//! carry the aspiration's progress: which nimbers the board has been shown
//! to reach). Each is a theorem about Cram, true whatever the search does
//! next, so a snapshot taken at any moment, loaded into a fresh search,
//! leaves it with the answer of an uninterrupted one and less to do. The
//! small shapes' nimbers are not kept: they are found again at once.
//!
//! # The body (after the header of [`crate::theory::checkpoint`])
//! | bytes | what |
//! |---|---|
//! | 1 + 16 | the board: its width, its empty cells (bit `i * w + j`) |
//! | 8 + 8 | how many regions are stored packed, and apart |
//! | 8 each | a packed region: image (bits 0 to 53), width (54 to 57), nimber plus one (58 to 63) |
//! | 18 each | a region apart: image (16 bytes), width, nimber |
//! | 8, then 8 each | the excluded-nimber cache: image (bits 0 to 47), width (48 to 51), the set of nimbers 0 to 11 it is not (52 to 63) |
//! | 8, then 17 each | the root's facts: region, class (4 bytes each), kind (0: its nimber is the value; 1: it is none of the set of nimbers the value holds), value (8 bytes) |
//! | 8 | the regions searched by every run that wrote the file |
//!
//! Each entry is checked as it is read: a width from 1 to 11, an image of at
//! least four cells and a nimber at most half of them, a region stored
//! twice with two nimbers, a class of a root region the board does not have.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError, TryLockError};
use std::time::{Duration, Instant};

use super::transposition::{Table, unpack, unpack_excluded};
use crate::theory::checkpoint::{CheckpointError, CheckpointFile, Reader, Writer};
use crate::theory::solver::{Budget, SearchError};

/// The bytes each stored region counts against the memory limit (the
/// search's table limit is `Budget::positions(BYTES_PER_REGION)`).
pub(super) const BYTES_PER_REGION: usize = 24;

/// A save puts the next one off by at least this many times its duration.
const SAVE_SHARE: u32 = 20;

/// What is known of one class of options of a root region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fact {
    /// Its nimber.
    Exact(u8),
    /// Nimbers it does not have (nimbers below 64, as a set).
    Not(u64),
}

/// A search's checkpoint: its file, when it saves, and what the root knows.
#[derive(Debug)]
pub(super) struct Progress {
    file: CheckpointFile,
    /// The board's empty cells and width, written in the body.
    board: (u128, usize),
    started: Instant,
    /// When the next save is due, in milliseconds after `started`.
    due: AtomicU64,
    /// Held while a save is written: one at a time.
    turn: Mutex<()>,
    /// The root's facts: by root region and class of options.
    facts: Mutex<BTreeMap<(u32, u32), Fact>>,
    /// Regions whose nimbers were read from the file.
    loaded: usize,
    /// Regions searched by the runs that wrote the file before.
    searched_before: u64,
    /// Saves written by this run.
    saves: AtomicU64,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Progress {
    /// The checkpoint `file` of the board of empty cells `empty` in rows of
    /// `w`, of `roots` regions, loaded into `table` if the file exists, else
    /// created at once (so that a path that cannot be written is said before
    /// the search). `budget` is the search's, whose limit the table was made
    /// with.
    ///
    /// # Errors
    /// [`SearchError::Checkpoint`]: the file cannot be read or written, is
    /// refused, or holds more regions than the budget lets the table store.
    pub(super) fn open(
        file: CheckpointFile,
        (empty, w): (u128, usize),
        roots: usize,
        table: &mut Table,
        budget: Budget,
    ) -> Result<Self, SearchError> {
        let mut progress = Self {
            file,
            board: (empty, w),
            started: Instant::now(),
            due: AtomicU64::new(0),
            turn: Mutex::new(()),
            facts: Mutex::new(BTreeMap::new()),
            loaded: 0,
            searched_before: 0,
            saves: AtomicU64::new(0),
        };
        match Reader::open(&progress.file).map_err(SearchError::Checkpoint)? {
            Some(input) => progress
                .load(input, roots, table, budget)
                .map_err(SearchError::Checkpoint)?,
            None => progress.write(table, 0)?,
        }
        progress.put_off(Duration::ZERO);
        Ok(progress)
    }

    fn load(
        &mut self,
        mut input: Reader,
        roots: usize,
        table: &mut Table,
        budget: Budget,
    ) -> Result<(), CheckpointError> {
        let w = usize::from(input.u8()?);
        let empty = input.u128()?;
        if (empty, w) != self.board {
            return Err(input.damaged("it holds another board than its header names"));
        }
        let narrow = input.count(8)?;
        let wide = input.count(18)?;
        if narrow
            .saturating_mul(8)
            .saturating_add(wide.saturating_mul(18))
            > input.left()
        {
            return Err(input.damaged("it counts more regions than its size can hold"));
        }
        let positions = narrow + wide;
        let limit = budget.positions(BYTES_PER_REGION);
        if positions > limit as u64 {
            let by_memory = limit < budget.states;
            return Err(CheckpointError::TooLarge {
                path: self.file.checkpoint.path.display().to_string(),
                positions,
                limit: if by_memory {
                    budget.bytes
                } else {
                    budget.states as u64
                },
                by_memory,
                bytes_each: BYTES_PER_REGION as u64,
            });
        }
        table.reserve(narrow as usize);
        for _ in 0..narrow {
            let slot = input.u64()?;
            let (image, w, nimber) = unpack(slot);
            store(&input, table, image, w, nimber)?;
        }
        for _ in 0..wide {
            let image = input.u128()?;
            let w = usize::from(input.u8()?);
            let nimber = input.u8()?;
            store(&input, table, image, w, Some(nimber))?;
        }
        for _ in 0..input.count(8)? {
            let (image, w, set) = unpack_excluded(input.u64()?);
            if !region_fits(image, w) || set == 0 {
                return Err(input.damaged("an excluded-nimber entry is out of range"));
            }
            table.exclude(image, w, set);
        }
        let mut facts = BTreeMap::new();
        for _ in 0..input.count(17)? {
            let region = input.u32()?;
            let class = input.u32()?;
            let fact = match (input.u8()?, input.u64()?) {
                (0, g) if g < 64 => Fact::Exact(g as u8),
                (1, set) => Fact::Not(set),
                _ => return Err(input.damaged("a fact of the board's options is out of range")),
            };
            if region as usize >= roots {
                return Err(input.damaged("a fact names a region the board does not have"));
            }
            facts.insert((region, class), fact);
        }
        self.searched_before = input.u64()?;
        input.finish()?;
        self.facts = Mutex::new(facts);
        self.loaded = positions as usize;
        Ok(())
    }

    /// Whether the next save is due.
    pub(super) fn is_due(&self) -> bool {
        self.started.elapsed().as_millis() as u64 >= self.due.load(Ordering::Relaxed)
    }

    fn put_off(&self, took: Duration) {
        let wait = self.file.checkpoint.every.max(took * SAVE_SHARE);
        let due = self.started.elapsed() + wait;
        self.due.store(
            due.as_millis().try_into().unwrap_or(u64::MAX),
            Ordering::Relaxed,
        );
    }

    /// Waits for the turn to save (`wait`), or takes it if free: `None` when
    /// another thread is saving.
    pub(super) fn turn(&self, wait: bool) -> Option<MutexGuard<'_, ()>> {
        if wait {
            return Some(lock(&self.turn));
        }
        match self.turn.try_lock() {
            Ok(guard) => Some(guard),
            Err(TryLockError::Poisoned(poisoned)) => Some(poisoned.into_inner()),
            Err(TryLockError::WouldBlock) => None,
        }
    }

    /// Saves `table` and the root's facts, with `searched` regions searched
    /// by this run; the caller holds the [`turn`](Self::turn).
    ///
    /// # Errors
    /// [`SearchError::Checkpoint`] when the file cannot be written (the
    /// previous one then stays).
    pub(super) fn write(&self, table: &Table, searched: u64) -> Result<(), SearchError> {
        self.write_file(table, searched)
            .map_err(SearchError::Checkpoint)
    }

    fn write_file(&self, table: &Table, searched: u64) -> Result<(), CheckpointError> {
        let started = Instant::now();
        let mut out = Writer::create(&self.file)?;
        let (empty, w) = self.board;
        out.u8(w as u8)?;
        out.u128(empty)?;
        let (narrow, wide) = table.counts();
        out.u64(narrow as u64)?;
        out.u64(wide as u64)?;
        let mut failed = None;
        table.each_packed(|slot| {
            if failed.is_none() {
                failed = out.u64(slot).err();
            }
        });
        table.each_wide(|image, w, nimber| {
            if failed.is_none() {
                failed = out
                    .u128(image)
                    .and_then(|()| out.u8(w as u8))
                    .and_then(|()| out.u8(nimber))
                    .err();
            }
        });
        let mut excluded = 0u64;
        table.each_excluded(|_| excluded += 1);
        out.u64(excluded)?;
        table.each_excluded(|slot| {
            if failed.is_none() {
                failed = out.u64(slot).err();
            }
        });
        if let Some(error) = failed {
            return Err(error);
        }
        let facts = lock(&self.facts).clone();
        out.u64(facts.len() as u64)?;
        for (&(region, class), &fact) in &facts {
            out.u32(region)?;
            out.u32(class)?;
            let (kind, value) = match fact {
                Fact::Exact(g) => (0, u64::from(g)),
                Fact::Not(set) => (1, set),
            };
            out.u8(kind)?;
            out.u64(value)?;
        }
        out.u64(self.searched_before.saturating_add(searched))?;
        out.finish()?;
        self.saves.fetch_add(1, Ordering::Relaxed);
        self.put_off(started.elapsed());
        Ok(())
    }

    /// Records what is known of class `class` of root region `region`.
    pub(super) fn record(&self, region: usize, class: usize, fact: Fact) {
        let (Ok(region), Ok(class)) = (u32::try_from(region), u32::try_from(class)) else {
            return;
        };
        lock(&self.facts).insert((region, class), fact);
    }

    /// What is known of the classes of root region `region`: class and fact.
    pub(super) fn facts_of(&self, region: usize) -> Vec<(usize, Fact)> {
        let Ok(region) = u32::try_from(region) else {
            return Vec::new();
        };
        lock(&self.facts)
            .range((region, 0)..=(region, u32::MAX))
            .map(|(&(_, class), &fact)| (class as usize, fact))
            .collect()
    }

    /// The answer's note: what the file gave, and what this run did.
    pub(super) fn note(&self, stored: usize, searched: u64) -> String {
        let path = self.file.checkpoint.path.display();
        let start = if self.loaded == 0 && self.searched_before == 0 {
            "started empty".to_owned()
        } else {
            format!("gave {} regions' nimbers at the start", self.loaded)
        };
        format!(
            "checkpoint `{path}`: {start}, {stored} at the end; {searched} regions searched in this run, {} in all runs",
            self.searched_before.saturating_add(searched)
        )
    }
}

/// The image of a region of `w` columns: at least four cells (smaller
/// regions are never stored) within 121 bits.
const fn region_fits(image: u128, w: usize) -> bool {
    w >= 1 && w <= 11 && image >> 121 == 0 && image.count_ones() >= 4
}

/// Stores a region read from the file, checking it.
fn store(
    input: &Reader,
    table: &mut Table,
    image: u128,
    w: usize,
    nimber: Option<u8>,
) -> Result<(), CheckpointError> {
    let Some(g) =
        nimber.filter(|&g| region_fits(image, w) && u32::from(g) <= image.count_ones() / 2)
    else {
        return Err(input.damaged("a region's entry is out of range"));
    };
    match table.get(image, w) {
        Some(known) if known != g => {
            Err(input.damaged("a region is stored twice with two nimbers"))
        }
        Some(_) => Ok(()),
        // The regions were counted against the table's limit before.
        None => table
            .insert(image, w, g)
            .map_err(|_| input.damaged("it holds more regions than it counts")),
    }
}
