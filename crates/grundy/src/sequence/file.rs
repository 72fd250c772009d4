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
//!
//! [`compute_into_file`] and [`save_to_file`] keep a check file beside the values
//! (`FILE.check`, see [`check_file_path`]): sums of the blocks of values written, so
//! that a resumed run trusts exactly the values grundy wrote and recomputes the others.

use std::fs::OpenOptions;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::ops::ControlFlow;
use std::path::Path;

use super::check::{CheckWriter, check_file_path, ensure_replaceable, unchecked_heaps};
use super::{
    GrundyValues, Kernel, Method, OutOfMemory, Progress, ResumeError, ResumeStop, SequenceSolver,
    StopCause,
};
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
    #[error("line {line}: {text:?} is not a Grundy value (expected a decimal integer below 2^32)")]
    BadLine {
        /// 1-based line number.
        line: usize,
        /// The line's text (its first 40 characters).
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
    /// A value of the file is not the rule's value of its heap, given the values before
    /// it (which are right). In a text file heap `h` is line `h + 1`.
    #[error(transparent)]
    WrongValue(#[from] ResumeError),
    /// The check file beside the values (see [`check_file_path`]) vouches for values of
    /// another rule.
    #[error("{}: the values were computed for {rule}", path.display())]
    OtherRule {
        /// The check file.
        path: std::path::PathBuf,
        /// The rule it names.
        rule: String,
    },
    /// Where the check file should be stands a file that is not one; it is left alone.
    #[error("{} is not a grundy check file (the values' check file goes there): move it away", path.display())]
    NotACheckFile {
        /// Where the check file goes.
        path: std::path::PathBuf,
    },
    /// Memory for the engine's tables was refused by the system; the values computed
    /// before (`done` of them) are in the file.
    #[error("out of memory after {done} values (they are saved): {error}")]
    OutOfMemory {
        /// Values in the file.
        done: usize,
        /// The allocation refused.
        error: OutOfMemory,
    },
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
                    text: text.chars().take(40).collect(),
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

/// Checks the values read from the file at `path` against its check file
/// (`FILE.check`), as [`SequenceFile::open`] does before resuming: a check file
/// of another rule, or a file there that is not a check file, is an error.
///
/// # Errors
/// [`FileError::OtherRule`], [`FileError::NotACheckFile`], a malformed check
/// file, or an input/output error.
pub fn check_rule_of_file(
    rule: &HeapRule,
    values: &GrundyValues,
    path: &Path,
) -> Result<(), FileError> {
    unchecked_heaps(&check_file_path(path), rule, values).map(|_| ())
}

/// Writes `values` (the values of `rule`, all right) to the file at `path` in `format`,
/// replacing it, with their check file (see [`check_file_path`]): a later
/// [`compute_into_file`] resumes from them without recomputing them.
///
/// # Errors
/// [`FileError::NotACheckFile`] when a file that is not a check file stands where the
/// check file goes, and input/output errors.
pub fn save_to_file(
    rule: &HeapRule,
    values: &GrundyValues,
    path: &Path,
    format: FileFormat,
) -> Result<(), FileError> {
    let check = check_file_path(path);
    ensure_replaceable(&check)?;
    let mut file = std::fs::File::create(path)?;
    write_values(values, format, &mut file)?;
    CheckWriter::create(&check, rule, values)?;
    Ok(())
}

/// Computes the values of heaps `0..=last_heap` into the file at `path`, resuming from
/// the values already there: [`SequenceFile::open`], then [`SequenceFile::extend_to`].
/// Returns the solver holding every value, for periodicity and more; it holds more than
/// asked when the file did. `progress` is told of the check of the file's values
/// (`total` the values in the file) and then of the computation; it may stop either.
///
/// # Errors
/// As [`SequenceFile::open`] and [`SequenceFile::extend_to`].
pub fn compute_into_file(
    rule: &HeapRule,
    method: Method,
    last_heap: usize,
    path: &Path,
    format: FileFormat,
    progress: &mut dyn FnMut(Progress) -> ControlFlow<()>,
) -> Result<SequenceSolver, FileError> {
    let mut file = SequenceFile::open(rule, method, Kernel::auto(), path, format, progress)?;
    file.extend_to(last_heap, progress)?;
    Ok(file.into_solver())
}

/// A sequence file being computed into: the values it held, every one checked, and the
/// solver continuing from them.
///
/// Opening reads and checks the file (an incomplete last value is cut off); the caller
/// then knows how many values are left to compute before [`Self::extend_to`] computes
/// them. New values are appended and flushed every 65536 values, each block's sum to the
/// check file after it, so an interrupted run loses at most the values since the last
/// flush.
#[derive(Debug)]
pub struct SequenceFile {
    solver: SequenceSolver,
    file: BufWriter<std::fs::File>,
    check: CheckWriter,
    format: FileFormat,
}

impl SequenceFile {
    /// Opens (or creates) the sequence file at `path` for the values of `rule`, and
    /// checks every value in it: cheaply where its check file (`FILE.check`, see
    /// [`check_file_path`]) vouches for it, otherwise by recomputing it from the values
    /// before it (as costly as computing it: a file written by another program, or by a
    /// grundy before check files). `progress` is told of that check every 65536 values
    /// (`total` the values in the file), and may stop it.
    ///
    /// # Errors
    /// [`FileError::WrongValue`] for the first value of the file that is not the rule's
    /// (the file is left as it was), [`FileError::OtherRule`] for a check file of
    /// another rule, a malformed file ([`FileError::BadLine`], [`FileError::BadHeader`],
    /// [`FileError::ValueTooLarge`], [`FileError::NotACheckFile`]),
    /// [`FileError::Interrupted`] when `progress` stopped the check, and input/output
    /// errors.
    pub fn open(
        rule: &HeapRule,
        method: Method,
        kernel: Kernel,
        path: &Path,
        format: FileFormat,
        progress: &mut dyn FnMut(Progress) -> ControlFlow<()>,
    ) -> Result<Self, FileError> {
        let check_path = check_file_path(path);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        let is_new = file.metadata()?.len() == 0;
        let solver = if is_new {
            // A check file left beside an empty file vouches for nothing; it is
            // replaced (unless it is not a check file).
            ensure_replaceable(&check_path)?;
            if format == FileFormat::Binary {
                file.write_all(BINARY_MAGIC)?;
            }
            SequenceSolver::new(rule.clone(), method).with_kernel(kernel)
        } else {
            let (values, complete) = read_with_length(&mut file, format)?;
            let recompute = unchecked_heaps(&check_path, rule, &values)?;
            let in_file = values.len();
            let solver = SequenceSolver::resume_checking(
                rule.clone(),
                method,
                kernel,
                values,
                &recompute,
                progress,
            )
            .map_err(|stop| match stop {
                ResumeStop::Wrong(error) => FileError::WrongValue(error),
                // Nothing was cut or written: the file is as it was.
                ResumeStop::Interrupted => FileError::Interrupted { done: in_file },
                ResumeStop::OutOfMemory(error) => FileError::OutOfMemory {
                    done: in_file,
                    error,
                },
            })?;
            // Cut only once the values are known to be right: a wrong file stays as it
            // was.
            file.set_len(complete)?;
            solver
        };
        let check = CheckWriter::create(&check_path, rule, solver.values())?;
        file.seek(SeekFrom::End(0))?;
        Ok(Self {
            solver,
            file: BufWriter::new(file),
            check,
            format,
        })
    }

    /// The values in the file: those it held (checked), and those computed since.
    pub fn values(&self) -> &GrundyValues {
        self.solver.values()
    }

    /// Computes the values up to heap `last_heap` into the file (nothing when it holds
    /// them already), calling `progress` every 65536 values; the callback may stop the
    /// computation, which keeps every value computed so far in the file.
    ///
    /// # Errors
    /// [`FileError::Interrupted`] when `progress` stopped it, and input/output errors.
    pub fn extend_to(
        &mut self,
        last_heap: usize,
        progress: &mut dyn FnMut(Progress) -> ControlFlow<()>,
    ) -> Result<(), FileError> {
        let Self {
            solver,
            file,
            check,
            format,
        } = self;
        let mut written = solver.values().len();
        let mut write_error = None;
        let result = solver.extend_with_callback(last_heap, &mut |values, report| {
            let saved = append(values.iter().skip(written), *format, file)
                .and_then(|()| file.flush())
                .and_then(|()| check.append(values));
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
        result.map_err(|stop| match stop.cause {
            StopCause::OutOfMemory(error) => FileError::OutOfMemory {
                done: stop.done,
                error,
            },
            _ => FileError::Interrupted { done: stop.done },
        })
    }

    /// The solver holding every value, for periodicity and more.
    pub fn into_solver(self) -> SequenceSolver {
        self.solver
    }
}
