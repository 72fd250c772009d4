//! What a computation may take, the same for every front end: the command
//! line's flags (`--max-states`, `--max-memory`, ...), the Python keyword
//! arguments (`max_states=`, ...) and the playground server's settings are
//! read into one [`Limits`].

use std::time::{Duration, Instant};

use crate::registry::BuildLimits;
use crate::sums::analysis::{DEFAULT_MAX_STATES, SolveOptions};

/// What one answer, sequence or table may take. A limit reached stops the
/// work and says which setting raises it ([`super::Failure::Limit`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Positions a search may store.
    pub states: usize,
    /// Decimal digits an integer of the input may have.
    pub digits: usize,
    /// The largest heap whose values are computed without a proven period
    /// (for a sequence run until its period is proven, the furthest heap).
    pub largest_heap: u64,
    /// Bytes: every search and every table of values counts against it.
    pub bytes: u64,
    /// Estimated steps of work beyond linear (10^8 take about a second).
    pub work: u64,
    /// Wall-clock time, a last resort; `None` for no limit.
    pub time: Option<Duration>,
    /// Threads to compute on; `None` for one per core.
    pub threads: Option<usize>,
}

impl Default for Limits {
    /// The command line's defaults: 2·10^6 states, 10^5 digits, 4 GiB,
    /// heaps to 10^7, no time limit, one thread per core.
    fn default() -> Self {
        let build = BuildLimits::default();
        Self {
            states: DEFAULT_MAX_STATES,
            digits: crate::lang::DEFAULT_MAX_DIGITS,
            largest_heap: build.largest_heap,
            bytes: build.bytes,
            work: build.work,
            time: None,
            threads: None,
        }
    }
}

impl Limits {
    /// What building a position may take.
    pub const fn build(&self) -> BuildLimits {
        BuildLimits {
            work: self.work,
            bytes: self.bytes,
            largest_heap: self.largest_heap,
        }
    }

    /// The options of one answer listing at most `max_moves` winning moves.
    pub fn solve_options(&self, max_moves: usize) -> SolveOptions {
        SolveOptions {
            max_moves,
            max_states: self.states,
            max_memory: self.bytes,
            ..SolveOptions::default()
        }
    }

    /// When the time limit passes, counted from now.
    pub fn deadline(&self) -> Option<Instant> {
        self.time
            .and_then(|limit| Instant::now().checked_add(limit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_those_of_a_search_and_of_building() {
        let limits = Limits::default();
        assert_eq!(limits.build(), BuildLimits::default());
        let options = limits.solve_options(5);
        assert_eq!(options.max_states, SolveOptions::default().max_states);
        assert_eq!(options.max_memory, SolveOptions::default().max_memory);
        assert_eq!(options.max_moves, 5);
        assert_eq!(limits.deadline(), None);
    }
}
