//! The limits of a computation, given as keyword arguments with the command
//! line's names (`max_states=`, `max_memory=`, ...; `grundy solve --help`),
//! and read into the library's types as the command line reads its flags.

use std::time::{Duration, Instant};

use grundy::registry::BuildLimits;
use grundy::sums::analysis::SolveOptions;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// What one answer, table or sequence may take.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// `max_states`: positions a search may store.
    pub max_states: usize,
    /// `max_digits`: decimal digits of an integer of the input.
    pub max_digits: usize,
    /// `max_heap`: the largest heap whose values are computed without a proven
    /// period (for `seq`, the furthest heap `until_proven` computes).
    pub max_heap: u64,
    /// `max_memory`: bytes.
    pub max_memory: u64,
    /// `max_work`: steps of work beyond linear.
    pub max_work: u64,
    /// `max_time`: seconds, a last resort; `None` for no limit.
    pub max_time: Option<f64>,
}

impl Limits {
    /// What building a position may take.
    pub const fn build(&self) -> BuildLimits {
        BuildLimits {
            work: self.max_work,
            bytes: self.max_memory,
            largest_heap: self.max_heap,
        }
    }

    /// The options of one answer listing at most `max_moves` winning moves.
    pub fn solve_options(&self, max_moves: usize) -> SolveOptions {
        SolveOptions {
            max_moves,
            max_states: self.max_states,
            max_memory: self.max_memory,
            ..SolveOptions::default()
        }
    }

    /// When the time limit passes, counted from now.
    pub fn deadline(&self) -> Option<Instant> {
        self.max_time
            .and_then(|seconds| Duration::try_from_secs_f64(seconds).ok())
            .map(|limit| Instant::now() + limit)
    }

    /// Checks the limits that cannot be zero or negative.
    ///
    /// # Errors
    /// `ValueError` for a time limit that is not a number of seconds; a
    /// `LimitError` for a zero memory or time limit, as the command line.
    pub fn check(&self, py: Python<'_>) -> PyResult<()> {
        if let Some(seconds) = self.max_time {
            if !seconds.is_finite() || seconds < 0.0 {
                return Err(PyValueError::new_err(format!(
                    "max_time={seconds} is not a number of seconds (e.g. 30 or 0.5)"
                )));
            }
            if seconds == 0.0 {
                return Err(crate::errors::limit_error(
                    py,
                    "max_time=0 leaves no time to compute; raise it with max_time=SECONDS",
                    Some("max_time"),
                ));
            }
        }
        if self.max_memory == 0 {
            return Err(crate::errors::limit_error(
                py,
                "max_memory=0 leaves no memory to compute with; raise it with max_memory=BYTES (e.g. max_memory=\"512M\")",
                Some("max_memory"),
            ));
        }
        Ok(())
    }
}

/// Reads a number of bytes: an int, or a str as the command line's
/// `--max-memory` takes it (`"512M"`, `"4G"`: powers of 1024).
///
/// # Errors
/// `ValueError` for anything else.
pub fn bytes(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    if let Ok(number) = value.extract::<u64>() {
        return Ok(number);
    }
    let Ok(text) = value.extract::<String>() else {
        return Err(PyValueError::new_err(format!(
            "max_memory={} is not a size: give bytes (an int) or e.g. \"512M\", \"4G\"",
            value.repr()?
        )));
    };
    grundy::theory::limits::parse_bytes(&text).map_err(PyValueError::new_err)
}
