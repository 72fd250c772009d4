//! When a request computes: every request first gets a short slice of time in
//! the quick lane, and only what that slice cannot finish waits for a worker.
//!
//! A cheap request (`nim(1, 2)`, a move in a small game) ends within its slice,
//! so it never queues behind expensive ones: those hold a quick permit for one
//! slice at most, then move to the workers (`--workers`), which run each to its
//! deadline. Each attempt runs under a [`grundy::theory::cancel::Cancel`] whose deadline is the attempt's
//! end: the library's searches check it as they go and return, so a worker is
//! free again within milliseconds of its deadline. The time spent waiting for a
//! permit counts against the request's time; a request that cannot start before
//! its deadline is answered 503 with `Retry-After`. So is one whose worker comes
//! with less than a slice of its time left: it is known to need more than a
//! slice, so it could only hold the worker to its deadline in vain (and, were it
//! let start, requests sent together would each take the worker in turn for the
//! last milliseconds of their time).
//!
//! This is a two-level feedback queue (Corbató's multilevel scheduling, 1962):
//! the cost of a request is learnt by running it, not guessed from its text.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The time a request may compute in the quick lane before it waits for a worker.
pub const QUICK_SLICE: Duration = Duration::from_millis(100);

/// The requests computing in the quick lane at once.
pub const QUICK_LANE: usize = 2;

/// How an attempt ended.
pub enum Attempt<T> {
    /// It finished: the answer (which may be an error of the request's own).
    Answered(T),
    /// It was stopped at the end of its time.
    OutOfTime,
}

/// Why a request got no answer of its own.
pub enum Unanswered {
    /// No permit came before the deadline: the server is busy (503).
    Busy,
    /// The request used all its time (422, the time limit).
    OutOfTime,
}

/// The quick lane and the workers.
#[derive(Debug)]
pub struct Lanes {
    quick: Arc<Semaphore>,
    workers: Arc<Semaphore>,
    worker_count: usize,
}

/// How busy the lanes are (`GET /api/status`).
#[derive(Debug, serde::Serialize)]
pub struct LaneStatus {
    /// The workers (`--workers`).
    pub workers: usize,
    /// The workers computing now (a computation holds its worker until it returns).
    pub workers_busy: usize,
    /// The quick lane's size.
    pub quick_lane: usize,
    /// The requests computing in the quick lane now.
    pub quick_busy: usize,
}

impl Lanes {
    /// A quick lane of [`QUICK_LANE`] permits and `workers` workers.
    pub fn new(workers: usize) -> Self {
        Self {
            quick: Arc::new(Semaphore::new(QUICK_LANE)),
            workers: Arc::new(Semaphore::new(workers)),
            worker_count: workers,
        }
    }

    /// Runs `attempt` (given its permit and the instant it must stop at) in the
    /// quick lane for [`QUICK_SLICE`], then, if it ran out of time before the
    /// request's `deadline`, again on a worker until the deadline.
    pub async fn run<T, F>(
        &self,
        deadline: Instant,
        attempt: impl Fn(OwnedSemaphorePermit, Instant) -> F,
    ) -> Result<T, Unanswered>
    where
        F: Future<Output = Attempt<T>>,
    {
        let permit = acquire(&self.quick, deadline).await?;
        let stop = (Instant::now() + QUICK_SLICE).min(deadline);
        if let Attempt::Answered(answer) = attempt(permit, stop).await {
            return Ok(answer);
        }
        if stop >= deadline {
            return Err(Unanswered::OutOfTime);
        }
        // The quick attempt ran a whole slice without an answer: a worker that
        // comes later than a slice before the deadline is of no use.
        let latest_start = deadline.checked_sub(QUICK_SLICE).unwrap_or(deadline);
        let permit = acquire(&self.workers, latest_start).await?;
        match attempt(permit, deadline).await {
            Attempt::Answered(answer) => Ok(answer),
            Attempt::OutOfTime => Err(Unanswered::OutOfTime),
        }
    }

    /// How busy the lanes are now.
    pub fn status(&self) -> LaneStatus {
        LaneStatus {
            workers: self.worker_count,
            workers_busy: self.worker_count - self.workers.available_permits(),
            quick_lane: QUICK_LANE,
            quick_busy: QUICK_LANE - self.quick.available_permits(),
        }
    }

    /// The permits free in each lane: quick, workers.
    #[cfg(test)]
    fn free(&self) -> (usize, usize) {
        (
            self.quick.available_permits(),
            self.workers.available_permits(),
        )
    }
}

/// A permit of `lane`, if one comes before `deadline` (one that comes as the
/// deadline passes is busy too).
async fn acquire(
    lane: &Arc<Semaphore>,
    deadline: Instant,
) -> Result<OwnedSemaphorePermit, Unanswered> {
    let wait = deadline.saturating_duration_since(Instant::now());
    match tokio::time::timeout(wait, Arc::clone(lane).acquire_owned()).await {
        Ok(Ok(permit)) if Instant::now() < deadline => Ok(permit),
        Ok(_) | Err(_) => Err(Unanswered::Busy),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
    }

    #[test]
    fn a_quick_request_is_answered_in_the_quick_lane() {
        let lanes = Lanes::new(1);
        let deadline = Instant::now() + Duration::from_secs(5);
        let answer = runtime().block_on(lanes.run(deadline, |_, stop| async move {
            assert!(stop <= Instant::now() + QUICK_SLICE);
            Attempt::Answered(7)
        }));
        assert!(matches!(answer, Ok(7)));
        assert_eq!(lanes.free(), (QUICK_LANE, 1));
    }

    #[test]
    fn a_slow_request_moves_to_a_worker_until_its_deadline() {
        let lanes = Lanes::new(1);
        let deadline = Instant::now() + Duration::from_secs(5);
        let stops = std::sync::Mutex::new(Vec::new());
        let answer = runtime().block_on(lanes.run(deadline, |_, stop| {
            stops.lock().unwrap().push(stop);
            async move {
                if stop < deadline {
                    Attempt::OutOfTime
                } else {
                    Attempt::Answered("done")
                }
            }
        }));
        assert!(matches!(answer, Ok("done")));
        assert_eq!(stops.lock().unwrap().as_slice()[1], deadline);
    }

    #[test]
    fn a_request_out_of_time_in_both_lanes_is_out_of_time() {
        let lanes = Lanes::new(1);
        let deadline = Instant::now() + Duration::from_secs(5);
        let answer =
            runtime().block_on(lanes.run(deadline, |_, _| async { Attempt::<()>::OutOfTime }));
        assert!(matches!(answer, Err(Unanswered::OutOfTime)));
    }

    #[test]
    fn a_request_that_cannot_get_a_permit_before_its_deadline_is_busy() {
        let lanes = Lanes::new(1);
        let runtime = runtime();
        // Every quick permit is taken.
        let held: Vec<_> = (0..QUICK_LANE)
            .map(|_| {
                runtime
                    .block_on(Arc::clone(&lanes.quick).acquire_owned())
                    .unwrap()
            })
            .collect();
        let deadline = Instant::now() + Duration::from_millis(50);
        let started = Instant::now();
        let answer = runtime.block_on(lanes.run(deadline, |_, _| async { Attempt::Answered(()) }));
        assert!(matches!(answer, Err(Unanswered::Busy)));
        assert!(started.elapsed() < Duration::from_secs(2));
        drop(held);
    }

    #[test]
    fn a_worker_that_comes_with_less_than_a_slice_left_is_busy() {
        let lanes = Lanes::new(1);
        let runtime = runtime();
        let worker = runtime
            .block_on(Arc::clone(&lanes.workers).acquire_owned())
            .unwrap();
        // The worker is freed with half a slice of the request's time left.
        let deadline = Instant::now() + QUICK_SLICE * 2;
        let free_at = deadline - QUICK_SLICE / 2;
        let attempts = std::sync::atomic::AtomicUsize::new(0);
        let answer = runtime.block_on(async {
            let holder = async move {
                tokio::time::sleep_until(free_at.into()).await;
                drop(worker);
            };
            let request = lanes.run(deadline, |_, _| {
                attempts.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                async { Attempt::<()>::OutOfTime }
            });
            tokio::join!(holder, request).1
        });
        assert!(matches!(answer, Err(Unanswered::Busy)));
        // The quick attempt only: the worker was never taken.
        assert_eq!(attempts.load(std::sync::atomic::Ordering::Relaxed), 1);
        assert!(Instant::now() < deadline, "waited to the deadline");
        assert_eq!(lanes.free(), (QUICK_LANE, 1));
    }
}
