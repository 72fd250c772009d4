//! Conway's genus g^{γ0γ1...} of each heap (Winning Ways, chapter 13): g the
//! Grundy value, γk the misère Grundy value of the heap plus k heaps of 2,
//! read from a misère quotient.

use std::io::{self, Write};

use serde_json::{Value, json};

use super::{Limits, words};
use crate::quotient::genus::Genus;
use crate::quotient::{MAX_HEAP, QuotientError, QuotientLimits};
use crate::rules::HeapRule;
use crate::theory::limits::{Limit, SearchError};
use crate::workflow::{Door, Failure};

/// The genus of each heap `0..=last_heap` of a rule.
#[derive(Clone, Debug)]
pub struct Genera {
    /// The rule, written as the library writes it.
    pub rule: String,
    /// The last heap.
    pub last_heap: u64,
    /// The genus of each heap, from heap 0.
    pub genera: Vec<Genus>,
}

impl Genera {
    /// The JSON object: `rule`, `n` (the last heap) and `genus`, the list of
    /// symbols (`"1^{031}"`).
    pub fn json(&self) -> Value {
        let symbols: Vec<String> = self.genera.iter().map(ToString::to_string).collect();
        json!({"rule": self.rule, "n": self.last_heap, "genus": symbols})
    }

    /// Writes [`Self::json`] on one line.
    ///
    /// # Errors
    /// Errors writing to `out`.
    pub fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        serde_json::to_writer(&mut *out, &self.json()).map_err(io::Error::from)?;
        writeln!(out)
    }

    /// Writes `heap genus`, one heap a line.
    ///
    /// # Errors
    /// Errors writing to `out`.
    pub fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        for (heap, genus) in self.genera.iter().enumerate() {
            writeln!(out, "{heap} {genus}")?;
        }
        Ok(())
    }
}

/// The genera of heaps `0..=heaps` of `rule`, read from the misère quotient
/// of its heaps with nim heaps, built with the default bounds but for the
/// memory.
pub(super) fn genera(
    rule: &HeapRule,
    rule_text: String,
    heaps: u64,
    limits: &Limits,
    door: Door,
) -> Result<Genera, Failure> {
    if heaps > MAX_HEAP {
        return Err(Failure::limit(format!(
            "error: genera are computed for heaps up to {MAX_HEAP}, not {heaps}; {}",
            words(door).nothing_raises
        )));
    }
    let bounds = QuotientLimits {
        max_bytes: limits.bytes,
        ..QuotientLimits::default()
    };
    match crate::quotient::genus::genera(rule, heaps, bounds) {
        Ok(genera) => Ok(Genera {
            rule: rule_text,
            last_heap: heaps,
            genera,
        }),
        Err(error) => Err(out_of_reach(
            &error,
            bounds.max_order,
            heaps,
            &rule_text,
            door,
        )),
    }
}

/// The failure of genera out of reach.
fn out_of_reach(
    error: &QuotientError,
    max_order: usize,
    heaps: u64,
    rule_text: &str,
    door: Door,
) -> Failure {
    let (reason, raised_by) = match &error.error {
        SearchError::MemoryLimit { limit } => (
            format!(
                "the misère quotient they are read from reached the memory limit of {limit} bytes; \
                 raise it with {}",
                door.setting(Limit::Memory)
            ),
            Some(Limit::Memory),
        ),
        SearchError::StateLimit { .. } => (
            format!(
                "no misère quotient of at most {max_order} elements was found for the heaps with \
                 nim heaps, which they are read from (it may be larger, infinite, or beyond what \
                 recalibration finds); {}",
                match door {
                    Door::CommandLine => "no flag of `seq` raises this",
                    Door::Python => "nothing raises this",
                }
            ),
            None,
        ),
        SearchError::Cancelled => (
            format!(
                "it was stopped ({} or Ctrl-C)",
                super::setting(door, Limit::Time)
            ),
            Some(Limit::Time),
        ),
        other => (other.to_string(), None),
    };
    Failure::Limit {
        message: format!(
            "error: the genera of {rule_text} up to heap {heaps} are out of reach: {reason}"
        ),
        raised_by,
    }
}
