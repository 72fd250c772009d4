//! What a computation may take, the same for every front end: the command
//! line's flags (`--max-states`, `--max-memory`, ...), the Python keyword
//! arguments (`max_states=`, ...) and the playground server's settings are
//! read into one [`Limits`].

use std::time::{Duration, Instant};

use super::{Door, Failure};
use crate::registry::BuildLimits;
use crate::sums::analysis::{DEFAULT_MAX_STATES, SolveOptions};
use crate::theory::limits::Limit;

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

    /// The limits of a Grundy sequence ([`super::seq`]): the memory and work
    /// of these, and `max_heap` as the furthest heap a run until its period
    /// is proven computes ([`Self::largest_heap`]); the rest are the
    /// defaults, with no time limit (the caller's signal stops the run).
    #[must_use]
    pub fn for_sequence(&self, max_heap: usize) -> Self {
        Self {
            bytes: self.bytes,
            work: self.work,
            largest_heap: max_heap as u64,
            ..Self::default()
        }
    }

    /// When the time limit passes, counted from now.
    pub fn deadline(&self) -> Option<Instant> {
        self.time
            .and_then(|limit| Instant::now().checked_add(limit))
    }

    /// The limits a front end's settings give, by name as `door` spells them
    /// (`max_memory=`, `--max-memory`): `seconds` is the time limit as given
    /// (beyond what a [`Duration`] holds, no limit). The settings that would
    /// allow nothing are refused rather than read as "no limit".
    ///
    /// # Errors
    /// [`Failure::Input`] for a time that is not a number of seconds (negative,
    /// not finite); [`Failure::Limit`] for a zero time or memory, naming the
    /// setting that raises it.
    pub fn with_settings(self, seconds: Option<f64>, door: Door) -> Result<Self, Failure> {
        let name = |limit| door.setting_name(limit);
        let given = |limit, value: &str| match door {
            Door::CommandLine => format!("--{} {value}", name(limit)),
            Door::Python => format!("{}={value}", name(limit)),
        };
        let refused = |limit, why: &str, example: &str| Failure::Limit {
            message: format!(
                "error: {} leaves no {why}; raise it with {}{example}",
                given(limit, "0"),
                door.setting(limit)
            ),
            raised_by: Some(limit),
        };
        if let Some(seconds) = seconds {
            if !seconds.is_finite() || seconds < 0.0 {
                return Err(Failure::input(format!(
                    "error: {} is not a number of seconds (e.g. 30 or 0.5)",
                    given(Limit::Time, &seconds.to_string())
                )));
            }
            if seconds == 0.0 {
                return Err(refused(Limit::Time, "time to compute", ""));
            }
        }
        if self.bytes == 0 {
            let example = format!(" (e.g. {})", given(Limit::Memory, "\"512M\""));
            return Err(refused(Limit::Memory, "memory to compute with", &example));
        }
        Ok(Self {
            time: seconds.and_then(|seconds| Duration::try_from_secs_f64(seconds).ok()),
            ..self
        })
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

    #[test]
    fn settings_that_allow_nothing_are_refused_by_name() {
        let limits = Limits::default();
        let read = limits.with_settings(Some(0.5), Door::Python).unwrap();
        assert_eq!(read.time, Some(Duration::from_millis(500)));
        assert_eq!(
            limits
                .with_settings(Some(1e300), Door::Python)
                .unwrap()
                .time,
            None
        );
        let Err(Failure::Input { message, .. }) = limits.with_settings(Some(-1.0), Door::Python)
        else {
            panic!("a negative time is bad input");
        };
        assert_eq!(
            message,
            "error: max_time=-1 is not a number of seconds (e.g. 30 or 0.5)"
        );
        let Err(Failure::Limit { message, raised_by }) =
            limits.with_settings(Some(0.0), Door::Python)
        else {
            panic!("no time is a limit");
        };
        assert_eq!(
            message,
            "error: max_time=0 leaves no time to compute; raise it with max_time=SECONDS"
        );
        assert_eq!(raised_by, Some(Limit::Time));
        let no_memory = Limits { bytes: 0, ..limits };
        let Err(Failure::Limit { message, raised_by }) =
            no_memory.with_settings(None, Door::Python)
        else {
            panic!("no memory is a limit");
        };
        assert_eq!(
            message,
            "error: max_memory=0 leaves no memory to compute with; raise it with max_memory=BYTES (e.g. max_memory=\"512M\")"
        );
        assert_eq!(raised_by, Some(Limit::Memory));
    }
}
