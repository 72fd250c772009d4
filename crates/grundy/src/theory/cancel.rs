//! Cooperative cancellation: a computation that must stop at a deadline, or
//! when its caller gives up on it, stops by itself and frees its thread.
//!
//! A caller runs the work under a [`Cancel`] ([`Cancel::run`]); every search
//! loop of the library (the generic explorer and solver, the sum, misère,
//! Every-SG and remoteness searches, the Cram, Chomp and divisors searches, the
//! sequence engine, and the scripts' interpreter between operations) calls
//! [`checkpoint`] as it goes, which answers [`SearchError::Cancelled`] once the
//! signal is raised or the deadline has passed. The error travels up like any
//! other limit of a search: nothing is cached from a cancelled search.
//!
//! The signal is thread-scoped: work run under [`Cancel::run`] on this thread
//! sees it, and work handed to another thread must be run under a clone of it
//! there. Without a signal, [`checkpoint`] costs a thread-local read.
//!
//! The signal also carries the context whose caches the work keeps what it
//! computed in ([`Cancel::caching`], [`super::caches`]), so that every thread
//! of a computation uses the same.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::caches::Caches;
use super::limits::SearchError;

/// How many checkpoints pass between two readings of the clock: a search
/// calls [`checkpoint`] once per position or so, and reading the clock costs
/// about 20 nanoseconds, a nanosecond or so per checkpoint this way. The
/// coarsest loops that check (a level of an Every-SG count, a block of heap
/// values) take about a millisecond a step.
const CLOCK_EVERY: u32 = 16;

/// A request to stop, shared by the computation and whoever may stop it:
/// raised by [`Cancel::cancel`], or by its deadline passing.
#[derive(Clone, Debug, Default)]
pub struct Cancel {
    raised: Arc<AtomicBool>,
    /// The flags of the signals this one was made from ([`Cancel::child`]):
    /// raising any of them stops its work too.
    parents: Vec<Arc<AtomicBool>>,
    deadline: Option<Instant>,
    /// Where the work keeps what its caller needs of a failure ([`keep`]).
    kept: Option<Kept>,
    /// The context whose caches the work uses ([`Cancel::caching`]).
    caches: Option<Caches>,
}

/// What a computation keeps of its first failure for its caller, beyond the
/// error it returns: the Python exception a game's callback raised, say,
/// which the caller gives as the cause of the error it raises. One per
/// computation, shared by every thread of its work (through [`Cancel`]), so
/// that computations running at once never see each other's.
#[derive(Clone, Default)]
pub struct Kept(Arc<Mutex<Option<Box<dyn Any + Send>>>>);

impl Kept {
    /// An empty keeping place.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// What was kept, if anything, leaving the place empty.
    #[must_use]
    pub fn take(&self) -> Option<Box<dyn Any + Send>> {
        self.0.lock().ok().and_then(|mut kept| kept.take())
    }

    /// Hands what was kept, or nothing, to this thread ([`take_kept`]), in
    /// place of what it held: the computation it called has ended.
    pub fn hand_back(&self) {
        KEPT_HERE.set(self.take());
    }

    fn keep_first(&self, value: Box<dyn Any + Send>) {
        if let Ok(mut kept) = self.0.lock()
            && kept.is_none()
        {
            *kept = Some(value);
        }
    }
}

impl std::fmt::Debug for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kept").finish_non_exhaustive()
    }
}

/// Keeps `value` in the keeping place of the computation running on this
/// thread ([`Cancel::keeping`]), unless it holds something already (the
/// first failure stops the work; later ones follow from it). Work under no
/// such place keeps it for this thread instead, in place of what was kept
/// there before ([`take_kept`]).
pub fn keep<T: Any + Send>(value: T) {
    let kept = CURRENT.with(|current| current.borrow().as_ref().and_then(|c| c.kept.clone()));
    match kept {
        Some(kept) => kept.keep_first(Box::new(value)),
        None => KEPT_HERE.set(Some(Box::new(value))),
    }
}

/// What was kept for this thread ([`keep`] outside a computation, or a
/// computation's keeping place handed back, [`Kept::hand_back`]), leaving
/// nothing.
#[must_use]
pub fn take_kept() -> Option<Box<dyn Any + Send>> {
    KEPT_HERE.take()
}

impl Cancel {
    /// A signal raised only by [`Cancel::cancel`].
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// A signal also raised once `deadline` has passed.
    #[must_use]
    pub fn with_deadline(deadline: Instant) -> Self {
        Self {
            raised: Arc::default(),
            parents: Vec::new(),
            deadline: Some(deadline),
            kept: None,
            caches: None,
        }
    }

    /// The same signal, its work keeping what its caller needs of a failure
    /// in `kept` ([`keep`]); signals made from it keep there too.
    #[must_use]
    pub fn keeping(self, kept: &Kept) -> Self {
        Self {
            kept: Some(kept.clone()),
            ..self
        }
    }

    /// The same signal, its work keeping what it computes for later work in
    /// the caches of `caches` (and finding there what earlier work kept):
    /// a long-lived process runs every computation under its one context.
    /// Signals made from it, and signals without a context of their own run
    /// inside its work ([`Cancel::run`]), use the same.
    #[must_use]
    pub fn caching(self, caches: &Caches) -> Self {
        Self {
            caches: Some(caches.clone()),
            ..self
        }
    }

    /// A signal raised by [`Cancel::cancel`] on it, or whenever this one is
    /// raised (or its deadline passes): for a share of the work that may be
    /// stopped alone, its caller still able to stop everything.
    #[must_use]
    pub fn child(&self) -> Self {
        let mut parents = self.parents.clone();
        parents.push(Arc::clone(&self.raised));
        Self {
            raised: Arc::default(),
            parents,
            deadline: self.deadline,
            kept: self.kept.clone(),
            caches: self.caches.clone(),
        }
    }

    /// A [`Cancel::child`] that also stops at `deadline`, or at this
    /// signal's own deadline if that comes first: for a share of the work with
    /// a time limit of its own.
    #[must_use]
    pub fn child_until(&self, deadline: Instant) -> Self {
        let child = self.child();
        Self {
            deadline: Some(self.deadline.map_or(deadline, |own| own.min(deadline))),
            ..child
        }
    }

    /// The deadline of this signal, if it has one.
    #[must_use]
    pub const fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Asks the computation running under this signal (or any clone of it) to stop.
    pub fn cancel(&self) {
        self.raised.store(true, Ordering::Relaxed);
    }

    /// Whether the computation was asked to stop or its deadline has passed.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.is_raised() || self.deadline_passed()
    }

    /// Whether this signal or one it was made from was raised.
    fn is_raised(&self) -> bool {
        self.raised.load(Ordering::Relaxed)
            || self
                .parents
                .iter()
                .any(|parent| parent.load(Ordering::Relaxed))
    }

    fn deadline_passed(&self) -> bool {
        let passed = self
            .deadline
            .is_some_and(|deadline| Instant::now() >= deadline);
        if passed {
            self.cancel();
        }
        passed
    }

    /// Runs `work` on this thread under this signal: its [`checkpoint`]s stop
    /// it once the signal is raised. A signal without a context of caches
    /// ([`Cancel::caching`]) runs with that of the signal in force, if any.
    /// The signal in force before is restored afterwards, even if `work`
    /// panics.
    pub fn run<T>(&self, work: impl FnOnce() -> T) -> T {
        struct Restore(Option<Cancel>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let previous = self.0.take();
                CURRENT.with(|current| *current.borrow_mut() = previous);
            }
        }
        let mut signal = self.clone();
        if signal.caches.is_none() {
            signal.caches = current_caches();
        }
        let previous = CURRENT.with(|current| current.replace(Some(signal)));
        let _restore = Restore(previous);
        work()
    }
}

/// The signal the work on this thread runs under, if any: work handed to other
/// threads (rayon) runs under it there with [`Cancel::run`].
#[must_use]
pub fn current() -> Option<Cancel> {
    CURRENT.with(|current| current.borrow().clone())
}

/// The context of caches of the signal the work on this thread runs under,
/// if it has one (see [`Caches::current`]).
pub(super) fn current_caches() -> Option<Caches> {
    CURRENT.with(|current| current.borrow().as_ref().and_then(|c| c.caches.clone()))
}

/// Runs `work` on this thread under `signal` (one from [`current`] on the thread
/// that handed the work over), or under no signal when there is none: what a task
/// given to a pool thread does first.
pub fn run_under<T>(signal: Option<&Cancel>, work: impl FnOnce() -> T) -> T {
    signal.cloned().unwrap_or_default().run(work)
}

thread_local! {
    /// The signal the work on this thread runs under, if any.
    static CURRENT: RefCell<Option<Cancel>> = const { RefCell::new(None) };
    /// Checkpoints passed since the clock was last read.
    static TICKS: Cell<u32> = const { Cell::new(0) };
    /// What was kept for this thread ([`take_kept`]).
    static KEPT_HERE: Cell<Option<Box<dyn Any + Send>>> = const { Cell::new(None) };
}

/// `Err(SearchError::Cancelled)` when the work on this thread runs under a
/// [`Cancel`] that is raised (or whose deadline has passed, read every
/// `CLOCK_EVERY` calls); `Ok` otherwise. Cheap enough to call per position.
///
/// # Errors
/// [`SearchError::Cancelled`] once the computation is to stop.
#[inline]
pub fn checkpoint() -> Result<(), SearchError> {
    if stop_requested() {
        Err(SearchError::Cancelled)
    } else {
        Ok(())
    }
}

/// Whether the work on this thread is to stop (see [`checkpoint`]), for loops
/// whose errors are not a [`SearchError`].
pub fn stop_requested() -> bool {
    CURRENT.with(|current| {
        let current = current.borrow();
        let Some(signal) = current.as_ref() else {
            return false;
        };
        if signal.is_raised() {
            return true;
        }
        let ticks = TICKS.get().wrapping_add(1);
        TICKS.set(ticks);
        ticks.is_multiple_of(CLOCK_EVERY) && signal.deadline_passed()
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn taken() -> Option<&'static str> {
        take_kept().and_then(|value| value.downcast::<&str>().ok().map(|value| *value))
    }

    /// Two computations at once each keep their own first failure, on every
    /// thread of their work; work under no keeping place keeps its value for
    /// its thread, the last one.
    #[test]
    fn each_computation_keeps_its_own_first_failure() {
        keep("before");
        keep("nowhere");
        assert_eq!(taken(), Some("nowhere"));
        assert_eq!(taken(), None);
        let places = [Kept::new(), Kept::new()];
        std::thread::scope(|scope| {
            for (number, kept) in places.iter().enumerate() {
                let signal = Cancel::new().keeping(kept);
                scope.spawn(move || {
                    signal.run(|| {
                        let handed = current();
                        std::thread::scope(|inner| {
                            inner.spawn(|| run_under(handed.as_ref(), || keep(number)));
                        });
                        keep(number + 10);
                    });
                });
            }
        });
        for (number, kept) in places.iter().enumerate() {
            let first = kept.take().and_then(|value| value.downcast::<usize>().ok());
            // The inner thread's failure came first: it ended before the other.
            assert_eq!(first.map(|value| *value), Some(number), "place {number}");
            assert!(kept.take().is_none(), "taken once");
        }
        assert_eq!(taken(), None, "nothing kept outside the computations");
        places[0].keep_first(Box::new("handed"));
        places[0].hand_back();
        assert_eq!(taken(), Some("handed"));
    }

    #[test]
    fn without_a_signal_nothing_stops() {
        for _ in 0..10 * CLOCK_EVERY {
            assert_eq!(checkpoint(), Ok(()));
        }
    }

    #[test]
    fn a_raised_signal_stops_at_the_next_checkpoint_and_only_under_it() {
        let signal = Cancel::new();
        signal.run(|| {
            assert_eq!(checkpoint(), Ok(()));
            signal.cancel();
            assert_eq!(checkpoint(), Err(SearchError::Cancelled));
        });
        // Outside `run`, the work is not under the signal.
        assert_eq!(checkpoint(), Ok(()));
    }

    #[test]
    fn a_passed_deadline_stops_within_a_batch_of_checkpoints() {
        let signal = Cancel::with_deadline(Instant::now() - Duration::from_millis(1));
        assert!(signal.is_cancelled());
        let fresh = Cancel::with_deadline(Instant::now() + Duration::from_millis(20));
        let stopped_after = fresh.run(|| {
            let start = Instant::now();
            while checkpoint().is_ok() {
                assert!(start.elapsed() < Duration::from_secs(5), "never stopped");
            }
            start.elapsed()
        });
        assert!(
            stopped_after >= Duration::from_millis(19),
            "{stopped_after:?}"
        );
    }

    #[test]
    fn signals_nest_and_are_restored_after_a_panic() {
        let outer = Cancel::new();
        outer.cancel();
        outer.run(|| {
            let inner = Cancel::new();
            let caught = std::panic::catch_unwind(|| inner.run(|| panic!("inside")));
            assert!(caught.is_err());
            // The outer signal is in force again.
            assert_eq!(checkpoint(), Err(SearchError::Cancelled));
        });
    }

    #[test]
    fn a_child_stops_with_its_parent_and_alone() {
        let parent = Cancel::new();
        let (first, second) = (parent.child(), parent.child());
        let grandchild = first.child();
        first.cancel();
        assert!(first.is_cancelled() && grandchild.is_cancelled());
        assert!(!parent.is_cancelled() && !second.is_cancelled());
        second.run(|| assert_eq!(checkpoint(), Ok(())));
        parent.cancel();
        assert!(second.is_cancelled());
        second.run(|| assert_eq!(checkpoint(), Err(SearchError::Cancelled)));
        let timed = Cancel::with_deadline(Instant::now() - Duration::from_millis(1));
        assert!(timed.child().is_cancelled());
    }

    #[test]
    fn a_clone_raises_the_same_signal_from_another_thread() {
        let signal = Cancel::new();
        let remote = signal.clone();
        std::thread::spawn(move || remote.cancel()).join().unwrap();
        assert!(signal.is_cancelled());
        signal.run(|| assert!(checkpoint().is_err()));
    }
}
