//! Running a computation with the GIL released, stoppable by Ctrl-C.
//!
//! Python runs its signal handlers on the main thread, between bytecodes, so a
//! computation in Rust never sees Ctrl-C by itself. The work therefore runs
//! under a [`Cancel`] (every search loop of the library checks it), and whoever
//! holds the interpreter's main thread polls `check_signals` every
//! [`POLL_EVERY`]: a `KeyboardInterrupt` raises the cancel signal, the search
//! stops at its next checkpoint (within milliseconds), and the interrupt is
//! handed back with whatever the work kept.
//!
//! A thread costs tens of microseconds to start, more than a small answer takes,
//! so the work first runs on the calling thread for [`QUICK`] (a signal is
//! noticed after it at the latest); only work that takes longer starts again on
//! a thread of its own, watched. The work must therefore be repeatable: it may
//! run twice, the first run cut short.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use grundy::theory::cancel::{Cancel, Kept};
use pyo3::prelude::*;

/// How long work runs on the calling thread before it moves to a watched thread.
const QUICK: Duration = Duration::from_millis(20);
/// How often the watcher looks for Ctrl-C.
const POLL_EVERY: Duration = Duration::from_millis(20);
/// The stack of the thread that computes: as the command line's main thread
/// has, with room to spare for deep Python callbacks.
const STACK_BYTES: usize = 64 << 20;

/// What a computation says of itself: whether it stopped because its cancel
/// signal was raised (the work is then cut short, not failed).
pub trait Stoppable {
    /// Whether the work stopped because it was cancelled.
    fn was_cancelled(&self) -> bool;
}

/// How a watched computation ended.
#[derive(Debug)]
pub struct Ran<T> {
    /// What the work returned (cut short when interrupted or out of time).
    pub result: T,
    /// The `KeyboardInterrupt` (or other exception a signal handler raised)
    /// that stopped it, if one did.
    pub interrupt: Option<PyErr>,
    /// The caller's time limit passed before the work was done.
    pub out_of_time: bool,
}

/// Runs `work` with the GIL released, stoppable by Ctrl-C and by `deadline`
/// (the caller's time limit, if any).
///
/// # Errors
/// A Python exception when the computing thread cannot be started or
/// panicked (a bug in grundy, reported as `PanicException` by PyO3).
pub fn watched<T, F>(py: Python<'_>, deadline: Option<Instant>, work: F) -> PyResult<Ran<T>>
where
    T: Stoppable + Send,
    F: Fn() -> T + Sync,
{
    watched_reporting(py, deadline, &|_| Ok(()), work)
}

/// As [`watched`], calling `on_poll` with the interpreter each time the
/// watcher looks for Ctrl-C (every [`POLL_EVERY`] once the work has left the
/// calling thread): a progress report to the caller, on the thread that
/// called. An exception it raises stops the work as Ctrl-C does.
///
/// # Errors
/// As [`watched`].
pub fn watched_reporting<T, F>(
    py: Python<'_>,
    deadline: Option<Instant>,
    on_poll: &(dyn Fn(Python<'_>) -> PyResult<()> + Sync),
    work: F,
) -> PyResult<Ran<T>>
where
    T: Stoppable + Send,
    F: Fn() -> T + Sync,
{
    // The exceptions the game's callbacks raise are kept for this call alone,
    // whichever threads its work runs on.
    let kept = Kept::new();
    let ran = computed(py, deadline, on_poll, &kept, work);
    let error = kept.take().and_then(|error| error.downcast::<PyErr>().ok());
    crate::errors::set_callback_error(error.map(|error| *error));
    ran
}

/// [`watched_reporting`], the callbacks' exceptions kept in `kept`.
fn computed<T, F>(
    py: Python<'_>,
    deadline: Option<Instant>,
    on_poll: &(dyn Fn(Python<'_>) -> PyResult<()> + Sync),
    kept: &Kept,
    work: F,
) -> PyResult<Ran<T>>
where
    T: Stoppable + Send,
    F: Fn() -> T + Sync,
{
    let quick_end = Instant::now() + QUICK;
    let quick =
        Cancel::with_deadline(deadline.map_or(quick_end, |d| d.min(quick_end))).keeping(kept);
    let result = py.detach(|| quick.run(&work));
    // A search cut short says so: the library returns its typed error
    // (`SearchError::Cancelled`, a `LangError` marked cancelled, a sequence
    // stopped by `StopCause::Cancelled`), never a partial answer, so work that
    // finished is kept even when the quick run's deadline passed just after.
    let cut = result.was_cancelled();
    let timed_out = deadline.is_some_and(|d| Instant::now() >= d);
    if !cut || timed_out {
        return Ok(Ran {
            result,
            interrupt: py.check_signals().err(),
            out_of_time: cut,
        });
    }
    // A signal that came during the quick run stops the work before it starts again.
    if let Err(interrupt) = py.check_signals() {
        return Ok(Ran {
            result,
            interrupt: Some(interrupt),
            out_of_time: false,
        });
    }
    let cancel = deadline
        .map_or_else(Cancel::new, Cancel::with_deadline)
        .keeping(kept);
    std::thread::scope(|scope| {
        let (done, finished) = mpsc::channel::<()>();
        let worker_cancel = cancel.clone();
        let cancel_after = cancel.clone();
        let work = &work;
        let handle = std::thread::Builder::new()
            .name("grundy".to_owned())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, move || {
                let result = worker_cancel.run(work);
                let _ = done.send(());
                result
            })
            .map_err(|e| {
                pyo3::exceptions::PyRuntimeError::new_err(format!(
                    "grundy could not start a thread to compute on: {e}"
                ))
            })?;
        let interrupt = py.detach(move || {
            loop {
                match finished.recv_timeout(POLL_EVERY) {
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        let polled = Python::attach(|py| {
                            py.check_signals()?;
                            on_poll(py)
                        });
                        if let Err(interrupt) = polled {
                            cancel.cancel();
                            return Some(interrupt);
                        }
                    }
                    _ => return None,
                }
            }
        });
        let joined = py.detach(move || handle.join());
        match joined {
            Ok(result) => Ok(Ran {
                out_of_time: interrupt.is_none()
                    && (result.was_cancelled()
                        || deadline.is_some_and(|_| cancel_after.is_cancelled())),
                result,
                interrupt,
            }),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}
