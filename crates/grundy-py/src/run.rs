//! Running a computation with the GIL released, stoppable by Ctrl-C: the
//! library's watched run ([`grundy::workflow::watch`]), whose poll on the
//! calling thread takes the GIL to look for Ctrl-C. Python runs its signal
//! handlers on the main thread, between bytecodes, so a computation in Rust
//! never sees Ctrl-C by itself: a `KeyboardInterrupt` seen by the poll stops
//! the work, which hands back whatever it kept.

use std::ops::ControlFlow;
use std::time::Instant;

use grundy::workflow::watch::{CutShort, Watched, watch};
use grundy::workflow::{Door, Failure, Limits};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::errors::failure_error;

/// How a watched computation ended: `stopped` is the `KeyboardInterrupt` (or
/// the exception a signal handler or the caller's report raised) that stopped
/// it, if one did.
pub type Ran<T> = Watched<T, PyErr>;

/// Runs `work` with the GIL released, stoppable by Ctrl-C and by `deadline`
/// (the caller's time limit, if any), calling `on_poll` with the interpreter
/// each time the watcher looks for Ctrl-C (every 20 ms once the work has left
/// the calling thread): a progress report to the caller, on the thread that
/// called. An exception it raises stops the work as Ctrl-C does.
///
/// # Errors
/// A Python exception when the computing thread cannot be started or
/// panicked (a bug in grundy, reported as `PanicException` by PyO3).
pub fn watched<T, F>(
    py: Python<'_>,
    deadline: Option<Instant>,
    on_poll: &(dyn Fn(Python<'_>) -> PyResult<()> + Sync),
    work: F,
) -> PyResult<Ran<T>>
where
    T: CutShort + Send,
    F: Fn() -> T + Sync,
{
    let poll = || match Python::attach(|py| py.check_signals().and_then(|()| on_poll(py))) {
        Ok(()) => ControlFlow::Continue(()),
        Err(error) => ControlFlow::Break(error),
    };
    // The exceptions the game's callbacks raise are kept for this call alone,
    // whichever threads its work runs on, and handed back to this thread.
    let ran = py.detach(|| watch(deadline, &T::cut_short, &poll, &work));
    let mut ran = ran.map_err(|e| {
        PyRuntimeError::new_err(format!(
            "grundy could not start a thread to compute on: {e}"
        ))
    })?;
    if !ran.watched && ran.stopped.is_none() {
        ran.stopped = py.check_signals().err();
    }
    Ok(ran)
}

/// Runs the workflow `work` watched ([`watched`]) until the time limit of
/// `limits`, and gives what it answered.
///
/// # Errors
/// The interrupt, the time limit or the workflow's failure, as the exception
/// to raise.
pub fn answered<T, F>(py: Python<'_>, limits: &Limits, work: F) -> PyResult<T>
where
    T: Send,
    Result<T, Failure>: CutShort,
    F: Fn() -> Result<T, Failure> + Sync,
{
    let ran = watched(py, limits.deadline(), &|_| Ok(()), work)?;
    if let Some(interrupt) = ran.stopped {
        return Err(interrupt);
    }
    if ran.out_of_time {
        return Err(out_of_time(py, limits));
    }
    ran.result.map_err(|failure| failure_error(py, failure))
}

/// The time limit's `LimitError`, naming the seconds of `limits.time`.
pub fn out_of_time(py: Python<'_>, limits: &Limits) -> PyErr {
    failure_error(py, Failure::out_of_time(limits.time, Door::Python))
}
