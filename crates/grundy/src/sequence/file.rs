//! Grundy sequences in files, and computations that survive interruption.
//!
//! Two formats:
//! - [`FileFormat::Text`] (the command-line contract's default): one decimal value per
//!   line, heap 0 first, each line ended by `\n`.
//! - [`FileFormat::Binary`]: the 12 bytes `GRUNDYSEQ1\n\0`, then each value as an
//!   unsigned LEB128 varint (one byte below 128, two below 16384).
//!
//! Both can be appended to, and a file cut short in the middle of a value (a run
//! interrupted while writing) is read up to its last complete value: the incomplete
//! tail is dropped and recomputed.

use std::fs::OpenOptions;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::ops::ControlFlow;
use std::path::Path;

use super::{GrundyValues, Method, Progress, ResumeError, SequenceSolver};
use crate::rules::HeapRule;

const BINARY_MAGIC: &[u8; 12] = b"GRUNDYSEQ1\n\0";

/// How values are written to a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FileFormat {
    /// One decimal value per line, heap 0 first.
    #[default]
    Text,
    /// A header and LEB128 varints.
    Binary,
}

/// Errors reading or writing values.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// An input/output error.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// A line of a text file is not a value.
    #[error("line {line}: {text:?} is not a Grundy value (expected a decimal integer)")]
    BadLine {
        /// 1-based line number.
        line: usize,
        /// The line's text.
        text: String,
    },
    /// A binary file lacks the header.
    #[error("not a binary Grundy sequence file (missing the GRUNDYSEQ1 header)")]
    BadHeader,
    /// A binary value is too large.
    #[error("value number {index} does not fit in 32 bits")]
    ValueTooLarge {
        /// 0-based index of the value.
        index: usize,
    },
    /// The file holds values of another rule.
    #[error(transparent)]
    Mismatch(#[from] ResumeError),
    /// The caller's progress callback stopped the computation; the values computed so
    /// far are in the file.
    #[error("computation stopped after {done} values; they are saved")]
    Interrupted {
        /// Values in the file.
        done: usize,
    },
}

/// Writes `values` in `format`.
pub fn write_values(
    values: &GrundyValues,
    format: FileFormat,
    writer: &mut dyn Write,
) -> io::Result<()> {
    let mut writer = BufWriter::new(writer);
    if format == FileFormat::Binary {
        writer.write_all(BINARY_MAGIC)?;
    }
    append(values.iter(), format, &mut writer)?;
    writer.flush()
}

fn append(
    values: impl Iterator<Item = u32>,
    format: FileFormat,
    writer: &mut dyn Write,
) -> io::Result<()> {
    let mut buffer = Vec::with_capacity(1 << 16);
    for v in values {
        match format {
            FileFormat::Text => {
                let mut digits = [0u8; 10];
                let mut i = digits.len();
                let mut x = v;
                loop {
                    i -= 1;
                    digits[i] = b'0' + (x % 10) as u8;
                    x /= 10;
                    if x == 0 {
                        break;
                    }
                }
                buffer.extend_from_slice(&digits[i..]);
                buffer.push(b'\n');
            }
            FileFormat::Binary => {
                let mut x = v;
                while x >= 0x80 {
                    buffer.push((x as u8) | 0x80);
                    x >>= 7;
                }
                buffer.push(x as u8);
            }
        }
        if buffer.len() >= (1 << 16) - 16 {
            writer.write_all(&buffer)?;
            buffer.clear();
        }
    }
    writer.write_all(&buffer)
}

/// Reads values written in `format`. An incomplete last value is ignored.
pub fn read_values(reader: &mut dyn Read, format: FileFormat) -> Result<GrundyValues, FileError> {
    Ok(read_with_length(reader, format)?.0)
}

/// The values and the number of bytes holding complete values.
fn read_with_length(
    reader: &mut dyn Read,
    format: FileFormat,
) -> Result<(GrundyValues, u64), FileError> {
    let mut reader = BufReader::new(reader);
    let mut values = GrundyValues::new();
    match format {
        FileFormat::Text => {
            let mut complete = 0u64;
            let mut line = Vec::new();
            let mut number = 0;
            loop {
                line.clear();
                let read = reader.read_until(b'\n', &mut line)?;
                if read == 0 || line.last() != Some(&b'\n') {
                    break;
                }
                number += 1;
                let text = String::from_utf8_lossy(&line);
                let text = text.trim_end_matches(['\n', '\r']);
                let value: u32 = text.parse().map_err(|_| FileError::BadLine {
                    line: number,
                    text: text.to_string(),
                })?;
                values.push(value);
                complete += read as u64;
            }
            Ok((values, complete))
        }
        FileFormat::Binary => {
            let mut header = [0u8; 12];
            if reader.read_exact(&mut header).is_err() || &header != BINARY_MAGIC {
                return Err(FileError::BadHeader);
            }
            let mut bytes = Vec::new();
            reader.read_to_end(&mut bytes)?;
            let (mut value, mut shift, mut complete) = (0u64, 0u32, 0usize);
            for (i, &byte) in bytes.iter().enumerate() {
                value |= u64::from(byte & 0x7F) << shift;
                if byte & 0x80 == 0 {
                    let value32 = u32::try_from(value).map_err(|_| FileError::ValueTooLarge {
                        index: values.len(),
                    })?;
                    values.push(value32);
                    complete = i + 1;
                    value = 0;
                    shift = 0;
                } else {
                    shift += 7;
                    if shift > 35 {
                        return Err(FileError::ValueTooLarge {
                            index: values.len(),
                        });
                    }
                }
            }
            Ok((values, (BINARY_MAGIC.len() + complete) as u64))
        }
    }
}

/// Computes the values of heaps `0..=last_heap` into the file at `path`, resuming from
/// the values already there.
///
/// An existing file is read (an incomplete last value is cut off), checked against the
/// rule ([`SequenceSolver::resume`]) and extended; new values are appended and flushed
/// every 65536 values, so an interrupted run loses at most the values since the last
/// flush. Returns the solver holding every value, for periodicity and more.
pub fn compute_into_file(
    rule: &HeapRule,
    method: Method,
    last_heap: usize,
    path: &Path,
    format: FileFormat,
    progress: &mut dyn FnMut(Progress) -> ControlFlow<()>,
) -> Result<SequenceSolver, FileError> {
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)?;
    let is_new = file.metadata()?.len() == 0;
    let mut solver = if is_new {
        if format == FileFormat::Binary {
            file.write_all(BINARY_MAGIC)?;
        }
        SequenceSolver::new(rule.clone(), method)
    } else {
        let (values, complete) = read_with_length(&mut file, format)?;
        file.set_len(complete)?;
        SequenceSolver::resume(rule.clone(), method, values)?
    };
    file.seek(SeekFrom::End(0))?;
    let mut file = BufWriter::new(file);
    let mut written = solver.values().len();
    let mut write_error = None;
    let result = solver.extend_with_callback(last_heap, &mut |values, report| {
        let saved =
            append(values.iter().skip(written), format, &mut file).and_then(|()| file.flush());
        written = values.len();
        if let Err(error) = saved {
            write_error = Some(error);
            return ControlFlow::Break(());
        }
        progress(report)
    });
    if let Some(error) = write_error {
        return Err(FileError::Io(error));
    }
    file.flush()?;
    match result {
        Ok(()) => Ok(solver),
        Err(stop) => Err(FileError::Interrupted { done: stop.done }),
    }
}
