//! The check file beside a sequence file: `FILE.check` vouches for the values of `FILE`,
//! so that a resumed run can trust them without recomputing them.
//!
//! Recomputing a value to check it costs as much as computing it (the mex of its options
//! must be found either way; docs/BENCHMARKS.md, "Figures behind the code's
//! constants"), which would make resuming pointless. Instead, as values are
//! appended to `FILE`, a sum of each block of them is appended to `FILE.check`; a resumed
//! run recomputes only the values no sum vouches for (a file written by hand or by
//! another program, a block whose sum differs, the tail written after the last sum), and
//! a value that differs from the rule's stops the run. The sums catch a value changed,
//! inserted or removed after grundy wrote it; they are not a proof against a forger, who
//! could rewrite the sums too.
//!
//! The format (ASCII text, lines ended by `\n`):
//!
//! ```text
//! grundy-check 1
//! rule octal[0.6]
//! 65536 7a40552628e392c6
//! 131072 03ee4a3663b84f4c
//! ```
//!
//! a header line, the rule (as [`HeapRule`]'s `Display` writes it, so that `kayles` and
//! `octal[0.77]` are one rule), then one line per block: the number of values `FILE`
//! holds at the end of the block, and the block's sum ([`block_sum`]) in 16 hexadecimal
//! digits. A block starts where the one before it ends (the first at heap 0). A last line
//! without its line break (an interrupted write) is ignored.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

use super::storage::{Store, StoredValue};
use super::{FileError, GrundyValues};
use crate::rules::HeapRule;

/// The first line of a check file (its version).
const HEADER: &str = "grundy-check 1";
/// Values per block when the check file is written anew.
const BLOCK: usize = 1 << 16;

/// Where the check file of the sequence file `path` is: beside it, named as it with
/// `.check` added (`values.txt` → `values.txt.check`).
pub fn check_file_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".check");
    PathBuf::from(name)
}

/// The sum of the values `values` of the heaps from `start` on.
///
/// Each step `h ← rotl((h xor v) · K, 31)` is a bijection of `h` for a given value `v`,
/// and an injection of `v` for a given `h`: a single value changed always changes the
/// sum. The block's first heap seeds it, so that a block moved elsewhere does not match.
fn block_sum<T: StoredValue>(start: usize, values: &[T]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut sum = 0x243F_6A88_85A3_08D3 ^ (start as u64).wrapping_mul(K);
    for value in values {
        sum = ((sum ^ u64::from(value.get())).wrapping_mul(K)).rotate_left(31);
    }
    sum
}

/// The sum of the values of the heaps in `range` (within `values`).
fn sum_of(values: &GrundyValues, range: Range<usize>) -> u64 {
    let start = range.start;
    match &values.store {
        Store::Narrow(g) => block_sum(start, &g[range]),
        Store::Medium(g) => block_sum(start, &g[range]),
        Store::Wide(g) => block_sum(start, &g[range]),
    }
}

/// The rule as a check file names it.
fn rule_line(rule: &HeapRule) -> String {
    format!("rule {rule}")
}

/// The ranges of heaps of `values` that the check file at `path` does not vouch for,
/// sorted: everything when there is no check file.
///
/// # Errors
/// [`FileError::NotACheckFile`] when the file there is not a check file (it is left
/// alone), [`FileError::OtherRule`] when it was written for another rule, and
/// input/output errors.
pub(crate) fn unchecked_heaps(
    path: &Path,
    rule: &HeapRule,
    values: &GrundyValues,
) -> Result<Vec<Range<usize>>, FileError> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(every_heap(values)),
        Err(error) => return Err(error.into()),
    };
    let mut reader = BufReader::new(file);
    let mut line = Vec::new();
    // The next line without its line break; `None` at the end, or for a last line
    // without its line break (an interrupted write).
    let mut next_line = |line: &mut Vec<u8>| -> io::Result<bool> {
        line.clear();
        reader.read_until(b'\n', line)?;
        Ok(line.pop() == Some(b'\n'))
    };
    if !next_line(&mut line)? {
        // An empty file, or a header cut short: a check file whose header was never
        // written whole (anything else is not ours, and is left alone).
        return if HEADER.as_bytes().starts_with(&line) {
            Ok(every_heap(values))
        } else {
            Err(FileError::NotACheckFile {
                path: path.to_owned(),
            })
        };
    }
    if line != HEADER.as_bytes() {
        return Err(FileError::NotACheckFile {
            path: path.to_owned(),
        });
    }
    let expected_rule = rule_line(rule);
    if !next_line(&mut line)? {
        // No rule line yet (an interrupted write): no block is vouched for.
        return Ok(every_heap(values));
    }
    if line != expected_rule.as_bytes() {
        return Err(FileError::OtherRule {
            path: path.to_owned(),
            rule: String::from_utf8_lossy(line.strip_prefix(b"rule ").unwrap_or(&line))
                .chars()
                .take(200)
                .collect(),
        });
    }
    let mut unchecked: Vec<Range<usize>> = Vec::new();
    let mut add = |range: Range<usize>| match unchecked.last_mut() {
        Some(last) if last.end == range.start => last.end = range.end,
        _ => unchecked.push(range),
    };
    let mut start = 0;
    while next_line(&mut line)? {
        let Some((end, sum)) = parse_block(&line) else {
            // A damaged line: the values from here on are recomputed.
            break;
        };
        if end <= start || end > values.len() {
            // Sums of values the file no longer holds (cut short), or a damaged line.
            break;
        }
        if sum_of(values, start..end) != sum {
            add(start..end);
        }
        start = end;
    }
    add(start..values.len());
    unchecked.retain(|range| !range.is_empty());
    Ok(unchecked)
}

/// Whether a check file may be written at `path`: nothing is there, or a check file
/// (of any rule), or the beginning of one.
///
/// # Errors
/// [`FileError::NotACheckFile`] for any other file (it is left alone), and
/// input/output errors.
pub(crate) fn ensure_replaceable(path: &Path) -> Result<(), FileError> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(error) => return Err(error.into()),
    };
    let mut first = Vec::new();
    file.take(HEADER.len() as u64 + 1).read_to_end(&mut first)?;
    let ours = match first.split_last() {
        Some((b'\n', header)) => header == HEADER.as_bytes(),
        _ => HEADER.as_bytes().starts_with(&first),
    };
    if ours {
        Ok(())
    } else {
        Err(FileError::NotACheckFile {
            path: path.to_owned(),
        })
    }
}

/// The ranges of heaps to recompute when nothing vouches for `values`: all of them.
fn every_heap(values: &GrundyValues) -> Vec<Range<usize>> {
    vec![Range {
        start: 0,
        end: values.len(),
    }]
}

/// A block line: `END SUM`.
fn parse_block(line: &[u8]) -> Option<(usize, u64)> {
    let text = std::str::from_utf8(line).ok()?;
    let (end, sum) = text.split_once(' ')?;
    if end.is_empty() || !end.bytes().all(|b| b.is_ascii_digit()) || sum.len() != 16 {
        return None;
    }
    Some((end.parse().ok()?, u64::from_str_radix(sum, 16).ok()?))
}

/// The check file of a sequence file being written: sums appended as values are.
#[derive(Debug)]
pub(crate) struct CheckWriter {
    file: BufWriter<File>,
    /// Values vouched for so far (heaps `0..covered`).
    covered: usize,
}

impl CheckWriter {
    /// Writes the check file at `path` anew for `values` (all of them right), replacing
    /// the one there: written beside it and renamed over it, so that an interruption
    /// leaves the old one or the new one whole.
    pub(crate) fn create(path: &Path, rule: &HeapRule, values: &GrundyValues) -> io::Result<Self> {
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(".new");
        let temporary = PathBuf::from(temporary);
        {
            let mut out = BufWriter::new(File::create(&temporary)?);
            writeln!(out, "{HEADER}")?;
            writeln!(out, "{}", rule_line(rule))?;
            let mut start = 0;
            while start < values.len() {
                let end = values.len().min(start + BLOCK);
                writeln!(out, "{end} {:016x}", sum_of(values, start..end))?;
                start = end;
            }
            out.into_inner().map_err(io::IntoInnerError::into_error)?;
        }
        std::fs::rename(&temporary, path)?;
        let file = OpenOptions::new().append(true).open(path)?;
        Ok(Self {
            file: BufWriter::new(file),
            covered: values.len(),
        })
    }

    /// Adds the sum of the values appended since the last call (heaps `covered..`), and
    /// flushes it. Call it once those values are flushed to the sequence file.
    pub(crate) fn append(&mut self, values: &GrundyValues) -> io::Result<()> {
        let end = values.len();
        if end > self.covered {
            writeln!(
                self.file,
                "{end} {:016x}",
                sum_of(values, self.covered..end)
            )?;
            self.covered = end;
        }
        self.file.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_changed_value_changes_the_sum() {
        let values: Vec<u32> = (0..1000).map(|n| n % 7).collect();
        let sum = block_sum(0, &values);
        for heap in [0, 1, 500, 999] {
            for changed in [0, 1, 6, 9999, u32::MAX] {
                if changed == values[heap] {
                    continue;
                }
                let mut other = values.clone();
                other[heap] = changed;
                assert_ne!(block_sum(0, &other), sum, "heap {heap} set to {changed}");
            }
        }
        assert_ne!(
            block_sum(1, &values),
            sum,
            "the block's start seeds the sum"
        );
        assert_ne!(block_sum(0, &values[..999]), sum);
    }

    #[test]
    fn block_lines_are_read_strictly() {
        assert_eq!(parse_block(b"65536 00000000000000ff"), Some((65536, 255)));
        for bad in [
            &b"65536 ff"[..],
            b"-1 00000000000000ff",
            b"+1 00000000000000ff",
            b"65536  0000000000000ff",
            b"",
            b"\xff\xfe",
        ] {
            assert_eq!(parse_block(bad), None, "{bad:?}");
        }
    }
}
