//! The transposition table: the exact nimbers of canonical regions, at most
//! `limit` of them.
//!
//! A region whose canonical image fits in 54 bits (every region of a board of
//! at most 54 cells) takes one `u64` slot of an open-addressing table: image,
//! width (at most 11, four bits) and nimber plus one (at most 61, six bits;
//! a nimber is at most half the cells, see the module `search`). Larger images go
//! to a hash map. Nothing is ever evicted: when `limit` regions are stored the
//! search stops with [`SearchError::StateLimit`].
//!
//! Beside the nimbers, a smaller cache keeps what searches that did not find
//! a nimber proved: nimbers that a region does *not* have (module `search`).
//! It is a quarter of the packed table's size, grows with it, and forgets:
//! a region's entry goes to the front of its bucket of eight, the last one
//! falls out. Forgetting loses pruning, never correctness.
//!
//! The threads of one search share a [`Store`]: they read the packed slots
//! without a lock (each slot is one atomic word, written once with its whole
//! entry, so a reader sees the entry or nothing), and write under one lock.
//! When the slots grow, the new ones are published for the readers; a reader
//! still on the old ones may miss an entry made since, which costs a search,
//! never a wrong nimber. Every entry of the excluded-nimber cache, whatever
//! its place in its bucket, holds a set proved for its region, so a reader
//! that sees a bucket being reordered is still right.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use arc_swap::{ArcSwap, Cache};
use rustc_hash::FxHashMap;

use crate::theory::solver::SearchError;

/// Images below `1 << NARROW` go to the packed table.
const NARROW: u32 = 54;
/// The image and width of a packed slot; the nimber plus one lies above.
const KEY_MASK: u64 = (1 << (NARROW + 4)) - 1;

/// Eight packed slots, one cache line: a key is looked for in its home
/// bucket and the following ones until a bucket with an empty slot.
#[derive(Debug, Default)]
#[repr(align(64))]
struct Bucket([AtomicU64; 8]);

impl Bucket {
    fn slot(&self, k: usize) -> u64 {
        self.0[k].load(Ordering::Relaxed)
    }

    fn set(&self, k: usize, slot: u64) {
        self.0[k].store(slot, Ordering::Relaxed);
    }
}

/// The packed slots and the excluded-nimber cache: what a shared table's
/// threads read without a lock. Only the holder of the table writes them.
#[derive(Debug, Default)]
pub(super) struct Slots {
    /// Buckets of packed slots, 0 for empty; the length is 0 or a power of two.
    nimbers: Box<[Bucket]>,
    /// The cache of excluded nimbers: buckets of slots holding an image below
    /// `1 << EXCLUDED_IMAGE`, its width and the set of nimbers below
    /// [`EXCLUDED_NIMBERS`] the region does not have (0 for empty).
    excluded: Box<[Bucket]>,
}

/// The bucket of `key` among `len` (a power of two).
const fn home(len: usize, key: u64) -> usize {
    let bits = len.trailing_zeros();
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
}

impl Slots {
    fn get(&self, key: u64) -> Option<u8> {
        if self.nimbers.is_empty() {
            return None;
        }
        let mask = self.nimbers.len() - 1;
        let mut i = home(self.nimbers.len(), key);
        loop {
            for k in 0..8 {
                let slot = self.nimbers[i].slot(k);
                if slot == 0 {
                    return None;
                }
                if slot & KEY_MASK == key {
                    return Some((slot >> (NARROW + 4)) as u8 - 1);
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Puts `slot`, whose key is absent, in the first empty slot from its home.
    fn place(&self, slot: u64) {
        let mask = self.nimbers.len() - 1;
        let mut i = home(self.nimbers.len(), slot & KEY_MASK);
        loop {
            if let Some(k) = (0..8).find(|&k| self.nimbers[i].slot(k) == 0) {
                self.nimbers[i].set(k, slot);
                return;
            }
            i = (i + 1) & mask;
        }
    }

    fn excluded(&self, key: u64) -> u64 {
        if self.excluded.is_empty() {
            return 0;
        }
        let bucket = &self.excluded[home(self.excluded.len(), key)];
        (0..8)
            .map(|k| bucket.slot(k))
            .find(|&slot| slot & EXCLUDED_KEY == key)
            .map_or(0, |slot| slot >> (EXCLUDED_IMAGE + 4))
    }

    fn exclude(&self, key: u64, set: u64) {
        if self.excluded.is_empty() {
            return;
        }
        let bucket = &self.excluded[home(self.excluded.len(), key)];
        let at = (0..8)
            .position(|k| bucket.slot(k) & EXCLUDED_KEY == key)
            .unwrap_or(7);
        let known = if bucket.slot(at) & EXCLUDED_KEY == key {
            bucket.slot(at) & !EXCLUDED_KEY
        } else {
            0
        };
        for k in (0..at).rev() {
            bucket.set(k + 1, bucket.slot(k));
        }
        bucket.set(0, key | known | set << (EXCLUDED_IMAGE + 4));
    }
}

/// Exact nimbers of canonical regions.
#[derive(Debug)]
pub(super) struct Table {
    /// Replaced, never written in place by anyone else, when it grows.
    slots: Arc<Slots>,
    /// Filled packed slots.
    narrow: usize,
    wide: FxHashMap<u128, u8>,
    limit: usize,
}

/// Images below `1 << EXCLUDED_IMAGE` have excluded nimbers cached.
const EXCLUDED_IMAGE: u32 = 48;
/// The image and width of a cached slot; the excluded set lies above.
const EXCLUDED_KEY: u64 = (1 << (EXCLUDED_IMAGE + 4)) - 1;
/// The nimbers whose exclusion is cached: `0..EXCLUDED_NIMBERS`.
pub(super) const EXCLUDED_NIMBERS: u32 = 64 - EXCLUDED_IMAGE - 4;

const fn excluded_key(image: u128, w: usize) -> Option<u64> {
    if image >> EXCLUDED_IMAGE == 0 {
        Some(image as u64 | (w as u64) << EXCLUDED_IMAGE)
    } else {
        None
    }
}

const fn packed(image: u128, w: usize) -> Option<u64> {
    if image >> NARROW == 0 {
        Some(image as u64 | (w as u64) << NARROW)
    } else {
        None
    }
}

const fn wide_key(image: u128, w: usize) -> u128 {
    image | (w as u128) << 121
}

/// A packed slot's image, width and nimber (`None` for the nimber of an
/// empty slot, or of one whose nimber field is out of range).
pub(super) const fn unpack(slot: u64) -> (u128, usize, Option<u8>) {
    let image = (slot & ((1 << NARROW) - 1)) as u128;
    let w = (slot >> NARROW & 15) as usize;
    let g = (slot >> (NARROW + 4)) as u8;
    (image, w, g.checked_sub(1))
}

/// A slot of the excluded-nimber cache's image, width and excluded set.
pub(super) const fn unpack_excluded(slot: u64) -> (u128, usize, u64) {
    let image = (slot & ((1 << EXCLUDED_IMAGE) - 1)) as u128;
    let w = (slot >> EXCLUDED_IMAGE & 15) as usize;
    (image, w, slot >> (EXCLUDED_IMAGE + 4))
}

impl Table {
    pub(super) fn new(limit: usize) -> Self {
        Self {
            slots: Arc::default(),
            narrow: 0,
            wide: FxHashMap::default(),
            limit,
        }
    }

    /// Nimbers below [`EXCLUDED_NIMBERS`] that the region with canonical
    /// `image` of width `w` is known not to have (as a set; maybe forgotten).
    pub(super) fn excluded(&self, image: u128, w: usize) -> u64 {
        excluded_key(image, w).map_or(0, |key| self.slots.excluded(key))
    }

    /// Remembers that the region with canonical `image` of width `w` has none
    /// of the nimbers `set` (those below [`EXCLUDED_NIMBERS`] are kept).
    pub(super) fn exclude(&mut self, image: u128, w: usize, set: u64) {
        let set = set & ((1 << EXCLUDED_NIMBERS) - 1);
        if let Some(key) = excluded_key(image, w).filter(|_| set != 0) {
            self.slots.exclude(key, set);
        }
    }

    /// The most regions stored.
    pub(super) const fn limit(&self) -> usize {
        self.limit
    }

    /// How many regions are stored.
    pub(super) fn len(&self) -> usize {
        self.narrow + self.wide.len()
    }

    /// The nimber of the region with canonical `image` of width `w`, if stored.
    pub(super) fn get(&self, image: u128, w: usize) -> Option<u8> {
        match packed(image, w) {
            Some(key) => self.slots.get(key),
            None => self.wide.get(&wide_key(image, w)).copied(),
        }
    }

    /// Stores `nimber` for the region with canonical `image` of width `w`.
    ///
    /// # Errors
    /// [`SearchError::StateLimit`] when `limit` regions are stored already.
    pub(super) fn insert(&mut self, image: u128, w: usize, nimber: u8) -> Result<(), SearchError> {
        debug_assert!(w < 16 && nimber < 63);
        if self.get(image, w).is_some() {
            return Ok(());
        }
        if self.len() >= self.limit {
            return Err(SearchError::StateLimit { limit: self.limit });
        }
        let Some(key) = packed(image, w) else {
            self.wide.insert(wide_key(image, w), nimber);
            return Ok(());
        };
        // At most seven eighths full.
        if (self.narrow + 1) * 8 > self.slots.nimbers.len() * 8 * 7 {
            self.grow();
        }
        self.slots
            .place(key | u64::from(nimber + 1) << (NARROW + 4));
        self.narrow += 1;
        Ok(())
    }

    /// The excluded-nimber cache's entries: image, width, excluded set.
    #[cfg(test)]
    pub(super) fn excluded_entries(&self) -> Vec<(u128, usize, u64)> {
        let mut all = Vec::new();
        for bucket in &self.slots.excluded {
            for slot in (0..8).map(|k| bucket.slot(k)).filter(|&slot| slot != 0) {
                let image = u128::from(slot & ((1 << EXCLUDED_IMAGE) - 1));
                let w = (slot >> EXCLUDED_IMAGE & 15) as usize;
                all.push((image, w, slot >> (EXCLUDED_IMAGE + 4)));
            }
        }
        all
    }

    /// Every stored region's packed slot (image, width and nimber plus one,
    /// as [`unpack`] reads it), in no order.
    pub(super) fn each_packed(&self, mut visit: impl FnMut(u64)) {
        for bucket in &self.slots.nimbers {
            for slot in (0..8).map(|k| bucket.slot(k)).filter(|&slot| slot != 0) {
                visit(slot);
            }
        }
    }

    /// How many regions are stored in packed slots, and how many apart.
    pub(super) fn counts(&self) -> (usize, usize) {
        (self.narrow, self.wide.len())
    }

    /// The regions stored apart (their images too wide for a slot): image,
    /// width, nimber.
    pub(super) fn each_wide(&self, mut visit: impl FnMut(u128, usize, u8)) {
        for (&key, &nimber) in &self.wide {
            visit(key & ((1 << 121) - 1), (key >> 121) as usize, nimber);
        }
    }

    /// Every slot of the excluded-nimber cache (image, width and set, as
    /// [`unpack_excluded`] reads it), in no order.
    pub(super) fn each_excluded(&self, mut visit: impl FnMut(u64)) {
        for bucket in &self.slots.excluded {
            for slot in (0..8).map(|k| bucket.slot(k)).filter(|&slot| slot != 0) {
                visit(slot);
            }
        }
    }

    /// Grows the slots at once to hold `more` packed regions beyond those
    /// stored, rather than doubling step by step while they come.
    pub(super) fn reserve(&mut self, more: usize) {
        let wanted = self.narrow.saturating_add(more);
        while wanted.saturating_mul(8) > self.slots.nimbers.len() * 8 * 7 {
            self.grow();
        }
    }

    /// New slots twice as many; the cache starts again empty, a quarter of
    /// the new table.
    fn grow(&mut self) {
        // The old cache goes first, unless readers still hold it.
        if let Some(slots) = Arc::get_mut(&mut self.slots) {
            slots.excluded = Box::default();
        }
        let size = (self.slots.nimbers.len() * 2).max(1 << 7);
        let grown = Slots {
            nimbers: (0..size).map(|_| Bucket::default()).collect(),
            excluded: Box::default(),
        };
        for bucket in &self.slots.nimbers {
            for slot in (0..8).map(|k| bucket.slot(k)).filter(|&slot| slot != 0) {
                grown.place(slot);
            }
        }
        // The old slots go (unless readers hold them) before the new cache
        // comes, which no reader sees yet.
        self.slots = Arc::new(grown);
        if let Some(slots) = Arc::get_mut(&mut self.slots) {
            slots.excluded = (0..size / 4).map(|_| Bucket::default()).collect();
        }
    }
}

/// The table of one thread, or a table the threads of one search share.
#[derive(Debug)]
pub(super) enum Store {
    Own(Table),
    Shared {
        shared: Arc<Shared>,
        /// This thread's view of the slots, refreshed when they are replaced.
        view: Cache<Arc<ArcSwap<Slots>>, Arc<Slots>>,
    },
}

/// A table shared by threads, with what they count together.
#[derive(Debug)]
pub(super) struct Shared {
    /// The table's current slots, for the readers.
    slots: Arc<ArcSwap<Slots>>,
    /// The table, for the writers (and the few wide images).
    table: Mutex<Table>,
    /// The table's limit, read without its lock.
    limit: usize,
    /// Regions searched by all threads (each adds its count in steps).
    pub(super) visits: AtomicU64,
    /// Raised when the other threads' work is no longer needed: their
    /// searches stop at their next check, as if cancelled.
    pub(super) stop: AtomicBool,
}

impl Shared {
    pub(super) fn table(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The most regions stored.
    pub(super) const fn limit(&self) -> usize {
        self.limit
    }
}

impl Store {
    /// A table of at most `limit` regions, shared by threads when `shared`.
    pub(super) fn new(limit: usize, shared: bool) -> Self {
        let table = Table::new(limit);
        if !shared {
            return Self::Own(table);
        }
        let shared = Arc::new(Shared {
            slots: Arc::new(ArcSwap::new(Arc::clone(&table.slots))),
            table: Mutex::new(table),
            limit,
            visits: AtomicU64::new(0),
            stop: AtomicBool::new(false),
        });
        Self::joining(shared)
    }

    fn joining(shared: Arc<Shared>) -> Self {
        let view = Cache::new(Arc::clone(&shared.slots));
        Self::Shared { shared, view }
    }

    /// Another handle on a shared table, for another thread (`None` for a
    /// thread's own table).
    pub(super) fn share(&self) -> Option<Self> {
        match self {
            Self::Own(_) => None,
            Self::Shared { shared, .. } => Some(Self::joining(Arc::clone(shared))),
        }
    }

    /// The table the threads share, if they do.
    pub(super) fn shared(&self) -> Option<&Arc<Shared>> {
        match self {
            Self::Own(_) => None,
            Self::Shared { shared, .. } => Some(shared),
        }
    }

    #[inline]
    pub(super) fn get(&mut self, image: u128, w: usize) -> Option<u8> {
        match self {
            Self::Own(table) => table.get(image, w),
            Self::Shared { shared, view } => match packed(image, w) {
                Some(key) => view.load().get(key),
                None => shared.table().get(image, w),
            },
        }
    }

    pub(super) fn excluded(&mut self, image: u128, w: usize) -> u64 {
        match self {
            Self::Own(table) => table.excluded(image, w),
            Self::Shared { view, .. } => {
                excluded_key(image, w).map_or(0, |key| view.load().excluded(key))
            }
        }
    }

    pub(super) fn exclude(&mut self, image: u128, w: usize, set: u64) {
        match self {
            Self::Own(table) => table.exclude(image, w, set),
            Self::Shared { shared, .. } => shared.table().exclude(image, w, set),
        }
    }

    /// As [`Table::insert`]; new slots of a shared table are published.
    pub(super) fn insert(&mut self, image: u128, w: usize, nimber: u8) -> Result<(), SearchError> {
        match self {
            Self::Own(table) => table.insert(image, w, nimber),
            Self::Shared { shared, .. } => {
                let mut table = shared.table();
                let before = Arc::as_ptr(&table.slots);
                let inserted = table.insert(image, w, nimber);
                if Arc::as_ptr(&table.slots) != before {
                    shared.slots.store(Arc::clone(&table.slots));
                }
                inserted
            }
        }
    }

    pub(super) fn limit(&self) -> usize {
        match self {
            Self::Own(table) => table.limit(),
            Self::Shared { shared, .. } => shared.limit(),
        }
    }

    /// Runs `work` on the table (under its lock when it is shared; new slots
    /// are then published for the readers).
    pub(super) fn with_table<T>(&mut self, work: impl FnOnce(&mut Table) -> T) -> T {
        match self {
            Self::Own(table) => work(table),
            Self::Shared { shared, .. } => {
                let mut table = shared.table();
                let before = Arc::as_ptr(&table.slots);
                let done = work(&mut table);
                if Arc::as_ptr(&table.slots) != before {
                    shared.slots.store(Arc::clone(&table.slots));
                }
                done
            }
        }
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Self::Own(table) => table.len(),
            Self::Shared { shared, .. } => shared.table().len(),
        }
    }

    #[cfg(test)]
    pub(super) fn excluded_entries(&self) -> Vec<(u128, usize, u64)> {
        match self {
            Self::Own(table) => table.excluded_entries(),
            Self::Shared { shared, .. } => shared.table().excluded_entries(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_packed_and_wide_keys_and_keeps_its_limit() {
        let mut table = Table::new(3000);
        for k in 0..2000u128 {
            table
                .insert(k * 7919, (k % 11) as usize + 1, (k % 61) as u8)
                .unwrap();
        }
        table.insert(1 << 100, 3, 5).unwrap();
        assert_eq!(table.len(), 2001);
        for k in 0..2000u128 {
            assert_eq!(
                table.get(k * 7919, (k % 11) as usize + 1),
                Some((k % 61) as u8)
            );
            assert_eq!(table.get(k * 7919, (k % 11) as usize + 2), None);
        }
        assert_eq!(table.get(1 << 100, 3), Some(5));
        assert_eq!(table.get(1 << 100, 4), None);
        // Excluded nimbers: merged per region, kept apart by width, none for
        // wide images; at most eight regions a bucket, the oldest forgotten.
        assert_eq!(table.excluded(7919, 2), 0);
        table.exclude(7919, 2, 0b101);
        table.exclude(7919, 2, 0b10);
        table.exclude(7919, 2, 1 << 40);
        assert_eq!(table.excluded(7919, 2), 0b111);
        assert_eq!(table.excluded(7919, 3), 0);
        table.exclude(1 << 100, 3, 1);
        assert_eq!(table.excluded(1 << 100, 3), 0);
        for k in 0..100_000u128 {
            table.exclude(k, 1, 1);
        }
        let kept = (0..100_000u128)
            .filter(|&k| table.excluded(k, 1) == 1)
            .count();
        assert!(kept <= table.slots.excluded.len() * 8, "{kept}");
        assert_eq!(
            table.excluded_entries().len(),
            table.slots.excluded.len() * 8
        );
        let mut small = Table::new(2);
        small.insert(1, 1, 0).unwrap();
        small.insert(2, 1, 0).unwrap();
        assert_eq!(
            small.insert(3, 1, 0),
            Err(SearchError::StateLimit { limit: 2 })
        );
    }
}
