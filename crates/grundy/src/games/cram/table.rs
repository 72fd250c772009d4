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

use rustc_hash::FxHashMap;

use crate::theory::solver::SearchError;

/// Images below `1 << NARROW` go to the packed table.
const NARROW: u32 = 54;
/// The image and width of a packed slot; the nimber plus one lies above.
const KEY_MASK: u64 = (1 << (NARROW + 4)) - 1;

/// Eight packed slots, one cache line: a key is looked for in its home
/// bucket and the following ones until a bucket with an empty slot.
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(64))]
struct Bucket([u64; 8]);

/// Exact nimbers of canonical regions.
#[derive(Debug)]
pub(super) struct Table {
    /// Buckets of packed slots, 0 for empty; the length is 0 or a power of two.
    slots: Vec<Bucket>,
    /// Filled packed slots.
    narrow: usize,
    wide: FxHashMap<u128, u8>,
    limit: usize,
    /// The cache of excluded nimbers: buckets of slots holding an image below
    /// `1 << EXCLUDED_IMAGE`, its width and the set of nimbers below
    /// [`EXCLUDED_NIMBERS`] the region does not have (0 for empty).
    excluded: Vec<Bucket>,
}

/// Images below `1 << EXCLUDED_IMAGE` have excluded nimbers cached.
const EXCLUDED_IMAGE: u32 = 48;
/// The image and width of a cached slot; the excluded set lies above.
const EXCLUDED_KEY: u64 = (1 << (EXCLUDED_IMAGE + 4)) - 1;
/// The nimbers whose exclusion is cached: `0..EXCLUDED_NIMBERS`.
pub(super) const EXCLUDED_NIMBERS: u32 = 64 - EXCLUDED_IMAGE - 4;

impl Table {
    pub(super) fn new(limit: usize) -> Self {
        Self {
            slots: Vec::new(),
            narrow: 0,
            wide: FxHashMap::default(),
            limit,
            excluded: Vec::new(),
        }
    }

    const fn excluded_key(image: u128, w: usize) -> Option<u64> {
        if image >> EXCLUDED_IMAGE == 0 {
            Some(image as u64 | (w as u64) << EXCLUDED_IMAGE)
        } else {
            None
        }
    }

    /// The bucket of the excluded-nimber cache for `key`.
    fn excluded_home(&self, key: u64) -> usize {
        let bits = self.excluded.len().trailing_zeros();
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }

    /// Nimbers below [`EXCLUDED_NIMBERS`] that the region with canonical
    /// `image` of width `w` is known not to have (as a set; maybe forgotten).
    pub(super) fn excluded(&self, image: u128, w: usize) -> u64 {
        let Some(key) = Self::excluded_key(image, w) else {
            return 0;
        };
        if self.excluded.is_empty() {
            return 0;
        }
        self.excluded[self.excluded_home(key)]
            .0
            .iter()
            .find(|&&slot| slot & EXCLUDED_KEY == key)
            .map_or(0, |&slot| slot >> (EXCLUDED_IMAGE + 4))
    }

    /// Remembers that the region with canonical `image` of width `w` has none
    /// of the nimbers `set` (those below [`EXCLUDED_NIMBERS`] are kept).
    pub(super) fn exclude(&mut self, image: u128, w: usize, set: u64) {
        let set = set & ((1 << EXCLUDED_NIMBERS) - 1);
        let Some(key) = Self::excluded_key(image, w) else {
            return;
        };
        if set == 0 || self.excluded.is_empty() {
            return;
        }
        let home = self.excluded_home(key);
        let bucket = &mut self.excluded[home].0;
        let at = bucket
            .iter()
            .position(|&slot| slot & EXCLUDED_KEY == key)
            .unwrap_or(bucket.len() - 1);
        let known = bucket[at] & !EXCLUDED_KEY;
        let known = if bucket[at] & EXCLUDED_KEY == key {
            known
        } else {
            0
        };
        bucket.copy_within(0..at, 1);
        bucket[0] = key | known | set << (EXCLUDED_IMAGE + 4);
    }

    /// The most regions stored.
    pub(super) const fn limit(&self) -> usize {
        self.limit
    }

    /// How many regions are stored.
    pub(super) fn len(&self) -> usize {
        self.narrow + self.wide.len()
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

    /// The first slot to probe for `key`.
    const fn home(&self, key: u64) -> usize {
        let bits = self.slots.len().trailing_zeros();
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }

    /// The nimber of the region with canonical `image` of width `w`, if stored.
    pub(super) fn get(&self, image: u128, w: usize) -> Option<u8> {
        let Some(key) = Self::packed(image, w) else {
            return self.wide.get(&Self::wide_key(image, w)).copied();
        };
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            for &slot in &self.slots[i].0 {
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
        let Some(key) = Self::packed(image, w) else {
            self.wide.insert(Self::wide_key(image, w), nimber);
            return Ok(());
        };
        // At most seven eighths full.
        if (self.narrow + 1) * 8 > self.slots.len() * 8 * 7 {
            self.grow();
        }
        self.place(key | u64::from(nimber + 1) << (NARROW + 4));
        self.narrow += 1;
        Ok(())
    }

    /// The excluded-nimber cache's entries: image, width, excluded set.
    #[cfg(test)]
    pub(super) fn excluded_entries(&self) -> Vec<(u128, usize, u64)> {
        let mut all = Vec::new();
        for bucket in &self.excluded {
            for &slot in bucket.0.iter().filter(|&&slot| slot != 0) {
                let image = u128::from(slot & ((1 << EXCLUDED_IMAGE) - 1));
                let w = (slot >> EXCLUDED_IMAGE & 15) as usize;
                all.push((image, w, slot >> (EXCLUDED_IMAGE + 4)));
            }
        }
        all
    }

    /// Puts `slot`, whose key is absent, in the first empty slot from its home.
    fn place(&mut self, slot: u64) {
        let mask = self.slots.len() - 1;
        let mut i = self.home(slot & KEY_MASK);
        loop {
            if let Some(free) = self.slots[i].0.iter_mut().find(|s| **s == 0) {
                *free = slot;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(1 << 7);
        // The cache starts again empty, a quarter of the new table.
        self.excluded = Vec::new();
        let old = std::mem::replace(&mut self.slots, vec![Bucket::default(); size]);
        for bucket in old {
            for slot in bucket.0.into_iter().filter(|&slot| slot != 0) {
                self.place(slot);
            }
        }
        self.excluded = vec![Bucket::default(); size / 4];
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
        assert!(kept <= table.excluded.len() * 8, "{kept}");
        assert_eq!(table.excluded_entries().len(), table.excluded.len() * 8);
        let mut small = Table::new(2);
        small.insert(1, 1, 0).unwrap();
        small.insert(2, 1, 0).unwrap();
        assert_eq!(
            small.insert(3, 1, 0),
            Err(SearchError::StateLimit { limit: 2 })
        );
    }
}
