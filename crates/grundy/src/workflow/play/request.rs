//! What one request of the playground may spend ([`RequestLimits`]), and the
//! server's defaults for it.

use std::time::{Duration, Instant};

use crate::registry::BuildLimits;
use crate::sums::analysis::SolveOptions;
use crate::theory::cancel::Cancel;
use crate::theory::solver::SearchError;
use crate::workflow::{Failure, Limits};

use super::{DOOR, message_of};

/// The most moves of a position listed with their values, by default
/// (`grundy serve --max-options`).
pub const DEFAULT_MAX_OPTIONS: usize = 300;

/// The longest a request may compute, by default (`grundy serve
/// --request-time`).
pub const DEFAULT_REQUEST_TIME: Duration = Duration::from_secs(10);

/// The limits of one request by default (`grundy serve`'s flags), smaller
/// than the command line's, as a request shares the machine with others:
/// 200,000 states, 1,000 digits, 10^8 steps of work and 128 MiB.
pub fn default_limits() -> Limits {
    Limits {
        states: 200_000,
        digits: 1000,
        work: 100_000_000,
        bytes: 128 << 20,
        ..Limits::default()
    }
}

/// The failure of a request that ran out of its `time`.
pub fn time_up(time: Duration) -> Failure {
    Failure::limit(format!(
        "error: the request took longer than {} s (the time limit); the server's --request-time SECONDS raises it",
        time.as_secs_f64()
    ))
}

/// What one request may spend.
#[derive(Debug, Clone, Copy)]
pub struct RequestLimits {
    /// What the request's searches and its position may take: the states
    /// of a search (`--max-states`), the digits of an integer
    /// (`--max-digits`), the work, memory and largest heap of heap values
    /// (`--max-work`, `--max-memory`, `--max-heap`). Its `time` and
    /// `threads` are not read: the request's time is [`RequestLimits::time`].
    pub limits: Limits,
    /// The most moves listed with their values (`--max-options`).
    pub max_options: usize,
    /// When this attempt at the request stops (its slice of the quick lane,
    /// or the request's deadline on a worker); the searches stop there by
    /// the cancellation signal the attempt runs under.
    pub deadline: Instant,
    /// When the request must be answered.
    pub request_deadline: Instant,
    /// The time allowed, for messages (`--request-time`).
    pub time: Duration,
}

impl RequestLimits {
    /// What building a position may take.
    pub(super) const fn build(&self) -> BuildLimits {
        self.limits.build()
    }

    /// Fails with the time limit once the attempt's deadline has passed.
    pub(super) fn check_time(&self) -> Result<(), Failure> {
        if Instant::now() > self.deadline {
            Err(time_up(self.time))
        } else {
            Ok(())
        }
    }

    /// Solve options within the budget (the deadline is the cancellation
    /// signal's, which the attempt runs under).
    pub(super) fn options(&self, winning_moves: bool) -> SolveOptions {
        SolveOptions {
            max_states: self.limits.states,
            max_memory: self.limits.bytes,
            winning_moves,
            ..Default::default()
        }
    }

    /// When valuing the listed moves one by one stops: half the request's
    /// time before its deadline, so that a position with many moves, each
    /// searched, is still answered (the moves not valued say so); or the
    /// attempt's end, if sooner.
    fn valuing_deadline(&self) -> Instant {
        (self.request_deadline - self.time / 2).min(self.deadline)
    }

    /// `search` run under the valuing deadline: its answer, or why there is
    /// none (a limit, or the time for valuing moves run out).
    pub(super) fn value<T>(
        &self,
        search: impl FnOnce(&SolveOptions) -> Result<T, SearchError>,
    ) -> Result<T, String> {
        let deadline = self.valuing_deadline();
        let out_of_time = || {
            format!(
                "not valued: valuing the moves one by one takes at most half the time limit ({} s; --request-time SECONDS raises it)",
                self.time.as_secs_f64() / 2.0
            )
        };
        if Instant::now() > deadline {
            return Err(out_of_time());
        }
        let options = self.options(false);
        match Cancel::with_deadline(deadline).run(|| search(&options)) {
            Ok(answer) => Ok(answer),
            Err(SearchError::Cancelled) => Err(out_of_time()),
            Err(error) => Err(message_of(Failure::search(&error, DOOR))),
        }
    }
}
