//! What computations keep for the computations after them (misère quotients
//! built, the values of heap rules, Wythoff's dense table, compiled scripts),
//! held by one context, [`Caches`], with a cap on the bytes it holds.
//!
//! A long-lived process (the playground's server, a Python session) answers
//! request after request, each with other rules: a memory kept per rule would
//! grow without bound. Every entry is counted in bytes (its caller's estimate
//! of what the value and its key hold, plus [`ENTRY_BYTES`]), and the context
//! holds at most its cap ([`Caches::cap`], [`DEFAULT_CACHE_BYTES`] unless
//! given). Under a computation's memory budget the entries held count
//! against it: they are kept to a [`BUDGET_SHARE`]th of the budget
//! ([`Caches::limit_under`]), evicting the least recently used first, and an
//! entry larger than that share is not kept at all. A cache only ever saves
//! work: an entry evicted, or never kept, is computed again, to the same
//! answer, so a cache never makes a search fail.
//!
//! The context a computation runs under travels with its cancellation signal
//! ([`super::cancel::Cancel::caching`]): every thread of its work sees it, and
//! a signal made inside the work without a context of its own runs with the
//! enclosing one. Work under no context uses the process's own
//! ([`Caches::process`], of [`DEFAULT_CACHE_BYTES`]). Each kind of entry is a
//! [`Shelf`], whose type names it and which also bounds how many entries of
//! its kind are kept.

use std::any::{Any, TypeId};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

/// The bytes a context holds at most when no cap is given (the process's own
/// context, and the default of [`Caches::new`] callers): 128 MiB, enough for
/// the largest entries each cache keeps (a misère quotient of 64 MiB, a dense
/// Wythoff table of 64 MiB).
pub const DEFAULT_CACHE_BYTES: u64 = 128 << 20;

/// Under a memory budget of `B` bytes, the entries held take at most `B`
/// divided by this: a quarter of what the computation may take.
pub const BUDGET_SHARE: u64 = 4;

/// The bytes counted for an entry beyond those of its key and value: the
/// entry's own record and the two allocations holding its key and value.
pub const ENTRY_BYTES: u64 = 96;

/// One kind of entry: the type names the shelf, its key and value types are
/// those of its entries.
pub trait Shelf: 'static {
    /// What an entry is found by; an entry kept with a key equal to one held
    /// replaces it.
    type Key: PartialEq + Send + Sync + 'static;
    /// What an entry holds: cheap to clone (an `Arc`, a number).
    type Value: Clone + Send + Sync + 'static;
    /// The most entries of this shelf held at once, the least recently used
    /// evicted first.
    const ENTRIES: usize;
}

/// A context of caches, shared by clones: see the [module](self).
#[derive(Clone)]
pub struct Caches(Arc<Inner>);

struct Inner {
    cap: u64,
    store: Mutex<Store>,
}

#[derive(Default)]
struct Store {
    entries: Vec<Entry>,
    /// The bytes of `entries`, as counted when each was kept.
    held: u64,
    /// Counts the uses, to order the entries by their last.
    clock: u64,
}

struct Entry {
    shelf: TypeId,
    key: Box<dyn Any + Send + Sync>,
    value: Box<dyn Any + Send + Sync>,
    bytes: u64,
    used: u64,
}

impl std::fmt::Debug for Caches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Caches")
            .field("cap", &self.cap())
            .field("held", &self.held_bytes())
            .finish_non_exhaustive()
    }
}

impl Default for Caches {
    /// An empty context of [`DEFAULT_CACHE_BYTES`].
    fn default() -> Self {
        Self::new(DEFAULT_CACHE_BYTES)
    }
}

impl Caches {
    /// An empty context holding at most `cap` bytes.
    #[must_use]
    pub fn new(cap: u64) -> Self {
        Self(Arc::new(Inner {
            cap,
            store: Mutex::default(),
        }))
    }

    /// An empty context for computations of at most `bytes` each (a server's
    /// memory limit of a request): its cap is [`DEFAULT_CACHE_BYTES`], or
    /// the [`BUDGET_SHARE`]th of `bytes` when smaller.
    #[must_use]
    pub fn for_budget(bytes: u64) -> Self {
        Self::new(DEFAULT_CACHE_BYTES.min(bytes / BUDGET_SHARE))
    }

    /// The process's own context, for work run under none: one per process,
    /// of [`DEFAULT_CACHE_BYTES`].
    #[must_use]
    pub fn process() -> &'static Self {
        static PROCESS: OnceLock<Caches> = OnceLock::new();
        PROCESS.get_or_init(Self::default)
    }

    /// The context of the work on this thread: its cancellation signal's
    /// ([`super::cancel::Cancel::caching`]), or the process's.
    #[must_use]
    pub fn current() -> Self {
        super::cancel::current_caches().unwrap_or_else(|| Self::process().clone())
    }

    /// The most bytes this context holds.
    #[must_use]
    pub fn cap(&self) -> u64 {
        self.0.cap
    }

    /// The bytes its entries hold now, as counted when each was kept.
    #[must_use]
    pub fn held_bytes(&self) -> u64 {
        self.store().held
    }

    /// How many entries it holds now.
    #[must_use]
    pub fn len(&self) -> usize {
        self.store().entries.len()
    }

    /// Whether it holds no entry.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        let mut store = self.store();
        store.entries.clear();
        store.held = 0;
    }

    /// The most bytes held while a computation of memory budget `budget`
    /// runs: the cap, or the [`BUDGET_SHARE`]th of the budget when smaller.
    #[must_use]
    pub fn limit_under(&self, budget: u64) -> u64 {
        self.cap().min(budget / BUDGET_SHARE)
    }

    /// The value of the first entry of shelf `S` that `wanted` accepts (now
    /// its most recently used), if any. The entries are first cut to the
    /// limit under `budget` ([`Caches::limit_under`]): a computation of a
    /// small budget does not run beside the entries a larger one kept.
    pub fn find<S: Shelf>(
        &self,
        budget: u64,
        mut wanted: impl FnMut(&S::Key, &S::Value) -> bool,
    ) -> Option<S::Value> {
        let mut store = self.store();
        store.evict_to(self.limit_under(budget), |_| true);
        store.clock += 1;
        let now = store.clock;
        let entry = store.entries.iter_mut().find(|entry| {
            entry.shelf == TypeId::of::<S>()
                && matches!(
                    (entry.key.downcast_ref::<S::Key>(), entry.value.downcast_ref::<S::Value>()),
                    (Some(key), Some(value)) if wanted(key, value)
                )
        })?;
        entry.used = now;
        entry.value.downcast_ref::<S::Value>().cloned()
    }

    /// Calls `visit` on every entry of shelf `S`, in no particular order,
    /// without counting it as a use.
    pub fn scan<S: Shelf>(&self, mut visit: impl FnMut(&S::Key, &S::Value)) {
        let store = self.store();
        for entry in &store.entries {
            if entry.shelf == TypeId::of::<S>()
                && let (Some(key), Some(value)) = (
                    entry.key.downcast_ref::<S::Key>(),
                    entry.value.downcast_ref::<S::Value>(),
                )
            {
                visit(key, value);
            }
        }
    }

    /// Keeps `value` under `key` on shelf `S`, `bytes` being what the key and
    /// value hold (their heap allocations and the value's tables); an entry
    /// of an equal key is replaced. Evicts the least recently used entries of
    /// the shelf past [`Shelf::ENTRIES`], then of any shelf until the entry
    /// fits the limit under `budget` ([`Caches::limit_under`]). An entry that
    /// alone passes that limit is not kept, and evicts nothing (an entry of
    /// an equal key stays). Whether it was kept.
    pub fn keep<S: Shelf>(&self, budget: u64, key: S::Key, value: S::Value, bytes: u64) -> bool {
        let size = bytes
            .saturating_add(ENTRY_BYTES)
            .saturating_add((size_of::<S::Key>() + size_of::<S::Value>()) as u64);
        let limit = self.limit_under(budget);
        if size > limit || S::ENTRIES == 0 {
            return false;
        }
        let mut store = self.store();
        let same = |entry: &Entry| {
            entry.shelf == TypeId::of::<S>() && entry.key.downcast_ref::<S::Key>() == Some(&key)
        };
        store.remove_where(same);
        let of_shelf = |entry: &Entry| entry.shelf == TypeId::of::<S>();
        while store.entries.iter().filter(|entry| of_shelf(entry)).count() >= S::ENTRIES {
            store.evict_least_recent(of_shelf);
        }
        store.evict_to(limit - size, |_| true);
        store.clock += 1;
        let used = store.clock;
        store.held += size;
        store.entries.push(Entry {
            shelf: TypeId::of::<S>(),
            key: Box::new(key),
            value: Box::new(value),
            bytes: size,
            used,
        });
        true
    }

    /// Forgets the entries of shelf `S` whose key `which` accepts.
    pub fn forget<S: Shelf>(&self, mut which: impl FnMut(&S::Key) -> bool) {
        self.store().remove_where(|entry| {
            entry.shelf == TypeId::of::<S>()
                && entry.key.downcast_ref::<S::Key>().is_some_and(&mut which)
        });
    }

    /// The store, even after a panic while it was held: its entries are
    /// whole at every step, and a lost cache only costs work.
    fn store(&self) -> MutexGuard<'_, Store> {
        self.0.store.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Store {
    /// Evicts the least recently used entries `among` accepts until at most
    /// `limit` bytes are held (or none of them is left).
    fn evict_to(&mut self, limit: u64, among: impl Fn(&Entry) -> bool) {
        while self.held > limit && self.evict_least_recent(&among) {}
    }

    /// Evicts the least recently used entry `among` accepts; whether there
    /// was one.
    fn evict_least_recent(&mut self, among: impl Fn(&Entry) -> bool) -> bool {
        let oldest = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, entry)| among(entry))
            .min_by_key(|(_, entry)| entry.used)
            .map(|(at, _)| at);
        match oldest {
            Some(at) => {
                let entry = self.entries.swap_remove(at);
                self.held -= entry.bytes;
                true
            }
            None => false,
        }
    }

    fn remove_where(&mut self, mut which: impl FnMut(&Entry) -> bool) {
        let mut freed = 0;
        self.entries.retain(|entry| {
            let remove = which(entry);
            if remove {
                freed += entry.bytes;
            }
            !remove
        });
        self.held -= freed;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::theory::cancel::Cancel;

    struct Numbers;
    impl Shelf for Numbers {
        type Key = u32;
        type Value = Arc<Vec<u8>>;
        const ENTRIES: usize = 4;
    }

    struct Flags;
    impl Shelf for Flags {
        type Key = (u32, u64);
        type Value = ();
        const ENTRIES: usize = 100;
    }

    fn size(bytes: u64) -> u64 {
        bytes + ENTRY_BYTES + (size_of::<u32>() + size_of::<Arc<Vec<u8>>>()) as u64
    }

    #[test]
    fn an_entry_is_found_by_its_shelf_and_key_and_replaced_by_an_equal_key() {
        let caches = Caches::new(1 << 20);
        assert!(caches.keep::<Numbers>(u64::MAX, 1, Arc::new(vec![1]), 1));
        assert!(caches.keep::<Flags>(u64::MAX, (1, 0), (), 0));
        assert_eq!(
            caches.find::<Numbers>(u64::MAX, |&k, _| k == 1).as_deref(),
            Some(&vec![1])
        );
        assert_eq!(caches.find::<Numbers>(u64::MAX, |&k, _| k == 2), None);
        assert!(caches.keep::<Numbers>(u64::MAX, 1, Arc::new(vec![2]), 1));
        assert_eq!(caches.len(), 2);
        assert_eq!(
            caches.find::<Numbers>(u64::MAX, |&k, _| k == 1).as_deref(),
            Some(&vec![2])
        );
        caches.forget::<Numbers>(|_| true);
        assert_eq!(caches.len(), 1);
        assert_eq!(caches.held_bytes(), ENTRY_BYTES + 16);
        caches.clear();
        assert!(caches.is_empty());
        assert_eq!(caches.held_bytes(), 0);
    }

    /// The least recently used go first, past a shelf's count or the bytes
    /// of the cap; an entry larger than the cap is not kept.
    #[test]
    fn the_least_recently_used_are_evicted_and_the_cap_holds() {
        let caches = Caches::new(3 * size(100));
        for key in 0..3 {
            assert!(caches.keep::<Numbers>(u64::MAX, key, Arc::default(), 100));
        }
        assert_eq!(caches.held_bytes(), 3 * size(100));
        // 0 used: 1 is now the least recent.
        assert!(caches.find::<Numbers>(u64::MAX, |&k, _| k == 0).is_some());
        assert!(caches.keep::<Numbers>(u64::MAX, 3, Arc::default(), 100));
        let mut held = Vec::new();
        caches.scan::<Numbers>(|&k, _| held.push(k));
        held.sort_unstable();
        assert_eq!(held, [0, 2, 3]);
        assert!(!caches.keep::<Numbers>(u64::MAX, 9, Arc::default(), 3 * size(100)));
        assert_eq!(caches.len(), 3, "an entry too large evicts nothing");
        // The shelf's count: four at most, however small.
        let roomy = Caches::new(1 << 20);
        for key in 0..10 {
            roomy.keep::<Numbers>(u64::MAX, key, Arc::default(), 0);
        }
        assert_eq!(roomy.len(), Numbers::ENTRIES);
    }

    /// Under a budget, the entries take at most its share: those held are
    /// cut at the next use, and an entry larger than the share is not kept.
    #[test]
    fn a_budget_bounds_what_is_held_beside_its_computation() {
        let caches = Caches::new(1 << 20);
        for key in 0..4 {
            caches.keep::<Numbers>(u64::MAX, key, Arc::default(), 1000);
        }
        let budget = 2 * BUDGET_SHARE * size(1000);
        assert_eq!(caches.limit_under(budget), 2 * size(1000));
        assert!(caches.find::<Numbers>(budget, |&k, _| k == 3).is_some());
        assert_eq!(caches.held_bytes(), 2 * size(1000));
        assert!(!caches.keep::<Numbers>(budget, 7, Arc::default(), 3 * size(1000)));
        assert!(caches.keep::<Numbers>(budget, 8, Arc::default(), 1000));
        assert_eq!(caches.held_bytes(), 2 * size(1000));
        assert!(caches.find::<Numbers>(u64::MAX, |&k, _| k == 8).is_some());
        assert_eq!(Caches::for_budget(128 << 20).cap(), 32 << 20);
        assert_eq!(Caches::for_budget(u64::MAX).cap(), DEFAULT_CACHE_BYTES);
    }

    /// The context travels with the signal, to nested signals and to the
    /// threads the work is handed to; without one, the process's.
    #[test]
    fn the_context_is_the_signals_on_every_thread_of_the_work() {
        let caches = Caches::new(1 << 20);
        let same = |a: &Caches, b: &Caches| Arc::ptr_eq(&a.0, &b.0);
        assert!(same(&Caches::current(), Caches::process()));
        Cancel::new().caching(&caches).run(|| {
            assert!(same(&Caches::current(), &caches));
            Cancel::new().run(|| assert!(same(&Caches::current(), &caches)));
            let handed = crate::theory::cancel::current();
            std::thread::scope(|scope| {
                scope.spawn(|| {
                    crate::theory::cancel::run_under(handed.as_ref(), || {
                        assert!(same(&Caches::current(), &caches));
                    });
                });
            });
            let other = Caches::new(0);
            Cancel::new()
                .caching(&other)
                .run(|| assert!(same(&Caches::current(), &other)));
        });
        assert!(same(&Caches::current(), Caches::process()));
    }
}
