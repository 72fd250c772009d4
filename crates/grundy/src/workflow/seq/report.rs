//! What a run answers, written out: one JSON object (the contract's format:
//! `grundy seq --json`, `/api/seq`) or the text for a reader.

use std::io::{self, Write};

use serde_json::{Value, json};

use super::{Answer, Sequence};
use crate::sequence::Periodicity;

/// Values in a row of the text: ten, so that a heap's column is its last digit.
const VALUES_PER_ROW: usize = 10;

impl Sequence {
    /// Whether a theorem proves the period found.
    pub fn proven(&self) -> bool {
        self.periodicity.as_ref().is_some_and(Periodicity::proven)
    }

    /// The values shown: those of heaps `0..=last_heap`.
    fn shown(&self) -> impl Iterator<Item = u32> + '_ {
        self.values.iter().take(self.last_heap + 1)
    }

    /// The period, preperiod and saltus as JSON (`null`, `null`, `0` when
    /// none was found), and the proof's words.
    fn period_json(&self) -> (Value, Value, Value, String) {
        let (period, preperiod, saltus) = self
            .periodicity
            .as_ref()
            .map_or((json!(null), json!(null), json!(0)), |p| {
                (json!(p.period), json!(p.preperiod), json!(p.saltus))
            });
        let proof = self
            .periodicity
            .as_ref()
            .map_or_else(|| "none".to_owned(), |p| p.proof.describe());
        (period, preperiod, saltus, proof)
    }

    /// Writes the JSON object, on one line: `rule`, `values` (or `out`, the
    /// file they were written to), `period`, `preperiod`, `saltus`,
    /// `proven`, `computed` (the values computed) and `proof`.
    ///
    /// # Errors
    /// Errors writing to `out`.
    pub fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        write!(out, "{{\"rule\":{}", json!(self.rule))?;
        match &self.out {
            Some(path) => write!(out, ",\"out\":{}", json!(path.display().to_string()))?,
            None => {
                out.write_all(b",\"values\":[")?;
                for (heap, value) in self.shown().enumerate() {
                    if heap > 0 {
                        out.write_all(b",")?;
                    }
                    write!(out, "{value}")?;
                }
                out.write_all(b"]")?;
            }
        }
        let (period, preperiod, saltus, proof) = self.period_json();
        writeln!(
            out,
            ",\"period\":{period},\"preperiod\":{preperiod},\"saltus\":{saltus},\"proven\":{},\"computed\":{},\"proof\":{}}}",
            self.proven(),
            self.values.len(),
            json!(proof)
        )
    }

    /// The JSON object of [`Self::write_json`], as a value.
    pub fn json(&self) -> Value {
        let (period, preperiod, saltus, proof) = self.period_json();
        let mut object = serde_json::Map::new();
        object.insert("rule".to_owned(), json!(self.rule));
        match &self.out {
            Some(path) => object.insert("out".to_owned(), json!(path.display().to_string())),
            None => object.insert("values".to_owned(), self.shown().collect::<Vec<_>>().into()),
        };
        for (key, value) in [
            ("period", period),
            ("preperiod", preperiod),
            ("saltus", saltus),
            ("proven", json!(self.proven())),
            ("computed", json!(self.values.len())),
            ("proof", json!(proof)),
        ] {
            object.insert(key.to_owned(), value);
        }
        Value::Object(object)
    }

    /// Writes the text for a reader: the values of heaps `0..=last_heap` in
    /// rows of ten, each labelled with its first heap and the values aligned
    /// in columns (or the file they were written to), then the period.
    ///
    /// ```text
    /// kayles: values of heaps 0..=19 (the row `n: ...` lists G(n), G(n+1), ..., G(n+9))
    ///  0: 0 1 2 3 1 4 3 2 1 4
    /// 10: 2 6 4 1 2 7 1 4 3 2
    /// period 12 from heap 71
    /// proven: ...
    /// ```
    ///
    /// # Errors
    /// Errors writing to `out`.
    pub fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        let (rule, last_heap) = (&self.rule, self.last_heap);
        match &self.out {
            Some(path) => writeln!(
                out,
                "{rule}: values of heaps 0..={last_heap} written to {}",
                path.display()
            )?,
            None => {
                writeln!(
                    out,
                    "{rule}: values of heaps 0..={last_heap} (the row `n: ...` lists G(n), G(n+1), ..., G(n+{}))",
                    VALUES_PER_ROW - 1
                )?;
                self.write_rows(out)?;
            }
        }
        match &self.periodicity {
            Some(p) => {
                let saltus = if p.saltus == 0 {
                    String::new()
                } else {
                    format!(", saltus {}", p.saltus)
                };
                writeln!(out, "period {} from heap {}{saltus}", p.period, p.preperiod)?;
                let status = if p.proven() { "proven" } else { "NOT proven" };
                writeln!(out, "{status}: {}", p.proof.describe())
            }
            None => writeln!(
                out,
                "no period found in the {} values computed",
                self.values.len()
            ),
        }
    }

    /// Writes the values shown in rows of [`VALUES_PER_ROW`].
    fn write_rows(&self, out: &mut dyn Write) -> io::Result<()> {
        let last_heap = self.last_heap;
        let digits = |n: u64| n.checked_ilog10().unwrap_or(0) as usize + 1;
        let value_width = digits(self.shown().max().map_or(0, u64::from));
        let label_width = digits((last_heap - last_heap % VALUES_PER_ROW) as u64);
        for (heap, value) in self.shown().enumerate() {
            if heap % VALUES_PER_ROW == 0 {
                write!(out, "{heap:>label_width$}:")?;
            }
            write!(out, " {value:>value_width$}")?;
            if heap % VALUES_PER_ROW == VALUES_PER_ROW - 1 || heap == last_heap {
                writeln!(out)?;
            }
        }
        Ok(())
    }
}

impl Answer {
    /// Writes the answer as one line of JSON.
    ///
    /// # Errors
    /// Errors writing to `out`.
    pub fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        match self {
            Self::Values(sequence) => sequence.write_json(out),
            Self::Genera(genera) => genera.write_json(out),
        }
    }

    /// Writes the answer for a reader.
    ///
    /// # Errors
    /// Errors writing to `out`.
    pub fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        match self {
            Self::Values(sequence) => sequence.write_text(out),
            Self::Genera(genera) => genera.write_text(out),
        }
    }

    /// The answer's JSON object.
    pub fn json(&self) -> Value {
        match self {
            Self::Values(sequence) => sequence.json(),
            Self::Genera(genera) => genera.json(),
        }
    }
}
