//! A workflow run on a thread of its own while the caller's thread watches
//! it: for a front end whose own thread must stay responsive (Python's,
//! which alone sees Ctrl-C, between bytecodes).
//!
//! The work runs under a [`Cancel`] (every search loop of the library checks
//! it), and the watching thread calls its `poll` every [`POLL_EVERY`]: a poll
//! that says stop raises the signal, and the work stops at its next
//! checkpoint (within milliseconds), handing back what it kept.
//!
//! A thread costs tens of microseconds to start, more than a small answer
//! takes, so the work first runs on the calling thread for [`QUICK`]; only
//! work that takes longer starts again on a thread of its own, watched. The
//! work must therefore be repeatable: it may run twice, the first run cut
//! short.

use std::io;
use std::ops::ControlFlow;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::Failure;
use crate::theory::cancel::{Cancel, Kept};
use crate::theory::limits::Limit;

/// How long work runs on the calling thread before it moves to a watched thread.
pub const QUICK: Duration = Duration::from_millis(20);
/// How often the watcher polls.
pub const POLL_EVERY: Duration = Duration::from_millis(20);
/// The stack of the thread that computes: as the command line's main thread
/// has, with room to spare for a front end's deep callbacks.
const STACK_BYTES: usize = 64 << 20;

/// What a workflow's result says of how it ended: cut short by the
/// cancellation signal it ran under (Ctrl-C, a deadline), rather than
/// finished or failed. A watcher runs cut work again, or reports the stop;
/// every front end reads it the same way.
pub trait CutShort {
    /// Whether the signal stopped the work before its end.
    fn cut_short(&self) -> bool;
}

/// A failure is a stop when it is the time limit's: the library says every
/// cancellation so ([`Failure::search`] of a cancelled search).
impl CutShort for Failure {
    fn cut_short(&self) -> bool {
        matches!(
            self,
            Self::Limit {
                raised_by: Some(Limit::Time),
                ..
            }
        )
    }
}

impl<T: CutShort> CutShort for Result<T, Failure> {
    fn cut_short(&self) -> bool {
        match self {
            Ok(done) => done.cut_short(),
            Err(failure) => failure.cut_short(),
        }
    }
}

/// How a watched computation ended.
#[derive(Debug)]
pub struct Watched<T, E = ()> {
    /// What the work returned (cut short when stopped or out of time).
    pub result: T,
    /// Why a poll said stop, when one did before the work was done.
    pub stopped: Option<E>,
    /// The time limit passed before the work was done.
    pub out_of_time: bool,
    /// The work ran on a watched thread (it took longer than [`QUICK`]); the
    /// calling thread was not polled otherwise.
    pub watched: bool,
}

/// Runs `work` until `deadline`, first on this thread, then, if it takes
/// longer than [`QUICK`], on a thread of its own while this one calls `poll`
/// every [`POLL_EVERY`] (and once before the thread starts): `Break` stops
/// the work, saying why. `cut` says whether a result was cut short by its signal (the
/// library returns its typed error, never a partial answer, so work that
/// finished is kept even when the deadline passed just after). What the
/// work's callbacks keep of their failures ([`crate::theory::cancel::keep`]) is handed to
/// this thread when it returns ([`crate::theory::cancel::take_kept`]).
///
/// # Errors
/// The error of starting the thread. A panic of the work is resumed here.
pub fn watch<T: Send, E>(
    deadline: Option<Instant>,
    cut: &dyn Fn(&T) -> bool,
    poll: &dyn Fn() -> ControlFlow<E>,
    work: &(dyn Fn() -> T + Sync),
) -> io::Result<Watched<T, E>> {
    let kept = Kept::new();
    let watched = watch_keeping(deadline, &kept, cut, poll, work);
    kept.hand_back();
    watched
}

/// [`watch`], the work keeping its failures in `kept`.
fn watch_keeping<T: Send, E>(
    deadline: Option<Instant>,
    kept: &Kept,
    cut: &dyn Fn(&T) -> bool,
    poll: &dyn Fn() -> ControlFlow<E>,
    work: &(dyn Fn() -> T + Sync),
) -> io::Result<Watched<T, E>> {
    let quick_end = Instant::now() + QUICK;
    let quick = Cancel::with_deadline(deadline.map_or(quick_end, |d| d.min(quick_end)));
    let result = quick.keeping(kept).run(work);
    let was_cut = cut(&result);
    if !was_cut || deadline.is_some_and(|d| Instant::now() >= d) {
        return Ok(Watched {
            result,
            stopped: None,
            out_of_time: was_cut,
            watched: false,
        });
    }
    // A stop asked during the quick run stops the work before it starts again.
    if let ControlFlow::Break(why) = poll() {
        return Ok(Watched {
            result,
            stopped: Some(why),
            out_of_time: false,
            watched: false,
        });
    }
    let cancel = deadline
        .map_or_else(Cancel::new, Cancel::with_deadline)
        .keeping(kept);
    std::thread::scope(|scope| {
        let (done, finished) = mpsc::channel::<()>();
        let worker_cancel = cancel.clone();
        let handle = std::thread::Builder::new()
            .name("grundy".to_owned())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, move || {
                let result = worker_cancel.run(work);
                let _ = done.send(());
                result
            })?;
        let mut stopped = None;
        while let Err(mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(POLL_EVERY) {
            if let ControlFlow::Break(why) = poll() {
                cancel.cancel();
                stopped = Some(why);
                break;
            }
        }
        match handle.join() {
            Ok(result) => Ok(Watched {
                out_of_time: stopped.is_none()
                    && (cut(&result) || deadline.is_some_and(|_| cancel.is_cancelled())),
                result,
                stopped,
                watched: true,
            }),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::theory::cancel::{self, stop_requested};

    /// Work that runs until it is stopped, or `for_long` has passed.
    fn until_stopped(for_long: Duration) -> bool {
        let end = Instant::now() + for_long;
        while Instant::now() < end {
            if stop_requested() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        false
    }

    #[test]
    fn what_the_work_keeps_is_handed_back() {
        let work = || {
            cancel::keep("failed");
            1
        };
        let ran = watch(None, &|_| false, &|| ControlFlow::<()>::Continue(()), &work).unwrap();
        assert_eq!(ran.result, 1);
        let kept = cancel::take_kept().and_then(|value| value.downcast::<&str>().ok());
        assert_eq!(kept.map(|value| *value), Some("failed"));
        let quiet = watch(None, &|_| false, &|| ControlFlow::<()>::Continue(()), &|| 2).unwrap();
        assert_eq!(quiet.result, 2);
        assert!(cancel::take_kept().is_none(), "nothing kept by quiet work");
    }

    #[test]
    fn quick_work_runs_here_unwatched() {
        let ran = watch(None, &|_| false, &|| ControlFlow::Break(()), &|| 7).unwrap();
        assert_eq!(
            (ran.result, ran.stopped, ran.out_of_time, ran.watched),
            (7, None, false, false)
        );
    }

    #[test]
    fn long_work_is_watched_and_stopped_by_a_poll() {
        let polls = AtomicUsize::new(0);
        let poll = || {
            if polls.fetch_add(1, Ordering::Relaxed) >= 3 {
                ControlFlow::Break("enough")
            } else {
                ControlFlow::Continue(())
            }
        };
        let work = || until_stopped(Duration::from_secs(30));
        let ran = watch(None, &|&cut| cut, &poll, &work).unwrap();
        assert!(ran.result && ran.watched && !ran.out_of_time);
        assert_eq!(ran.stopped, Some("enough"));
    }

    #[test]
    fn the_deadline_stops_long_work() {
        let deadline = Instant::now() + Duration::from_millis(100);
        let work = || until_stopped(Duration::from_secs(30));
        let ran = watch(
            Some(deadline),
            &|&cut| cut,
            &|| ControlFlow::<()>::Continue(()),
            &work,
        )
        .unwrap();
        assert!(ran.result && ran.out_of_time && ran.stopped.is_none());
        let finished = watch(
            None,
            &|&cut| cut,
            &|| ControlFlow::<()>::Continue(()),
            &|| until_stopped(Duration::from_millis(60)),
        );
        assert!(!finished.unwrap().out_of_time);
    }
}
