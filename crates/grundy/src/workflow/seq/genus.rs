//! Conway's genus g^{γ0γ1...} of each heap (Winning Ways, chapter 13): g the
//! Grundy value, γk the misère Grundy value of the heap plus k heaps of 2,
//! read from a misère quotient.

use std::io::{self, Write};

use serde_json::{Value, json};

use super::Limits;
use crate::quotient::genus::Genus;
use crate::rules::HeapRule;
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

/// The genera of heaps `0..=heaps` of `rule`, read from a misère quotient
/// ([`crate::workflow::quotient`] builds it and words its failures).
pub(super) fn genera(
    rule: &HeapRule,
    rule_text: String,
    heaps: u64,
    limits: &Limits,
    door: Door,
) -> Result<Genera, Failure> {
    let genera = crate::workflow::quotient::genera(rule, &rule_text, heaps, limits, door)?;
    Ok(Genera {
        rule: rule_text,
        last_heap: heaps,
        genera,
    })
}
