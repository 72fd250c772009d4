//! A [`Watcher`] whose reports another thread reads: for a front end that
//! runs the sequence on a thread of its own and polls it from its own
//! ([`crate::workflow::watch`]: Python's progress bar and its warning of a
//! long run).

use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::Watcher;
use crate::sequence::{Method, Progress};
use crate::workflow::Failure;

/// What a run told: the values done and wanted, and a long run's estimated
/// time, kept once (the run after a quick attempt may say it again).
#[derive(Debug, Default)]
pub struct Tally {
    done: AtomicUsize,
    total: AtomicUsize,
    /// The values done when [`Tally::news`] last told them.
    told: AtomicUsize,
    estimate: Mutex<Option<String>>,
    estimated: AtomicBool,
}

impl Tally {
    /// The values done and wanted so far (`(0, 0)` before the first report).
    pub fn progress(&self) -> (usize, usize) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }

    /// The values done and wanted, when values are wanted and more are done
    /// than when it last told them: for a front end that reports progress
    /// only as it changes.
    pub fn news(&self) -> Option<(usize, usize)> {
        let (done, total) = self.progress();
        (total > 0 && self.told.swap(done, Ordering::Relaxed) != done).then_some((done, total))
    }

    /// The estimate the run said (`about 5 min for the values of ...`), once.
    pub fn take_estimate(&self) -> Option<String> {
        self.estimate.lock().ok().and_then(|mut slot| slot.take())
    }
}

impl Watcher for &Tally {
    fn progress(&mut self, report: Progress) -> ControlFlow<()> {
        self.done.store(report.done, Ordering::Relaxed);
        self.total.store(report.total, Ordering::Relaxed);
        ControlFlow::Continue(())
    }

    fn wants_estimate(&self) -> bool {
        true
    }

    fn estimate(&mut self, said: &str) {
        if !self.estimated.swap(true, Ordering::Relaxed)
            && let Ok(mut slot) = self.estimate.lock()
        {
            *slot = Some(said.to_owned());
        }
    }
}

/// The method named as the Python package's `method=` takes it: `"fast"`
/// (closed forms, sparse space; `"sparse"` too) or `"plain"` (the mex of
/// every option).
///
/// # Errors
/// [`Failure::Input`] for another name.
pub fn method_named(name: &str) -> Result<Method, Failure> {
    match name {
        "fast" | "sparse" => Ok(Method::SparseSpace),
        "plain" => Ok(Method::PlainMex),
        other => Err(Failure::input(format!(
            "error: method={other:?}: the methods are \"fast\" (closed forms, sparse space) and \"plain\" (the mex of every option)"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workflow::seq::{Request, run};
    use crate::workflow::{Door, Limits};

    #[test]
    fn a_tally_keeps_the_progress_and_the_estimate_once() {
        let tally = Tally::default();
        let mut watcher = &tally;
        let request = Request::new("grundy_game", 20_000);
        run(&request, &Limits::default(), Door::Python, &mut watcher).unwrap();
        let (done, total) = tally.progress();
        assert!(done > 0 && done <= total, "{done} of {total}");
        assert_eq!(tally.news(), Some((done, total)));
        assert_eq!(tally.news(), None, "told once");
        watcher.estimate("about 5 min");
        watcher.estimate("about 6 min");
        assert_eq!(tally.take_estimate().as_deref(), Some("about 5 min"));
        assert_eq!(tally.take_estimate(), None);
    }

    #[test]
    fn methods_are_named() {
        assert_eq!(method_named("fast").unwrap(), Method::SparseSpace);
        assert_eq!(method_named("plain").unwrap(), Method::PlainMex);
        assert!(
            method_named("quick")
                .unwrap_err()
                .message()
                .contains("\"plain\"")
        );
    }
}
