//! `grundy seq [--json] RULE -n N`: the Grundy values of heaps 0..=N of a heap
//! game, with the period found and whether a theorem proves it.
//!
//! The workflow is the library's ([`grundy::workflow::seq`]): the cost of the
//! range estimated before computing (exit 3 naming `--max-memory` or
//! `--max-work` when it passes them), the `--out` file resumed and checked,
//! the period looked for and proven. This command reads its flags, draws the
//! progress bar, and prints what the workflow returns.

use crate::progress::DelayedBar;
use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;

use grundy::sequence::{FileFormat, Kernel, Method, Progress};
use grundy::workflow::Limits;
use grundy::workflow::seq::{self, Answer, Finish, Request, Sequence, Watcher};

use crate::failure::{Door, Failure, print_error};
use crate::limits::{ComputeLimits, Threads};

/// Memory the process holds besides the computation, added to the model's estimate
/// before it is compared with --max-memory: the program and its libraries and the
/// 1 MiB output buffer. `grundy seq nim -n 0` peaks at 4.0 MB resident (release build,
/// Linux x86-64); a megabyte or two more for output written and the progress bar.
pub const PROCESS_BYTES: u64 = 6 << 20;

/// Arguments of `grundy seq`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The heap game, without heaps: `kayles`, `octal[0.137]`, `sub[1, 3, 4]`, `grundy_game`, ...
    rule: String,
    /// The last heap: values of heaps 0..=N.
    #[arg(short = 'n', value_name = "N", value_parser = parse_heap, allow_negative_numbers = true)]
    last_heap: usize,
    /// Print one JSON object (the contract's format).
    #[arg(long)]
    json: bool,
    /// Print Conway's genus g^{γ0γ1...} of each heap instead (Winning Ways,
    /// chapter 13): g the Grundy value, γk the misère Grundy value of the heap
    /// plus k heaps of 2, read from a misère quotient.
    #[arg(long)]
    genus: bool,
    /// Write the values to FILE instead (one per line, heap 0 first); an
    /// interrupted run resumes from the file. Every value already in FILE is checked
    /// first: against FILE.check, the sums of the blocks of values grundy wrote (kept
    /// beside FILE), and by recomputing it where no sum vouches for it (as long as
    /// computing it). A wrong value is exit 2 naming its line; a FILE holding more
    /// values than asked is kept whole.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// The file format for --out.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Keep computing past N until a theorem proves the period: the range doubles (or
    /// grows to what the proof of a period seen needs) up to --max-heap, within
    /// --max-memory and --max-work (exit 3 naming the flag when they stop it first).
    #[arg(long)]
    until_proven: bool,
    /// The furthest heap --until-proven may compute.
    #[arg(long, value_name = "N", default_value_t = seq::UNTIL_PROVEN_REACH, value_parser = parse_heap, allow_negative_numbers = true)]
    max_heap: usize,
    /// The algorithm: fast (a proven closed form for nim, lasker and rest_nim,
    /// otherwise sparse space; `sparse` is another name for it) or plain (the mex of
    /// every option: the reference).
    #[arg(long, value_enum, default_value_t = MethodArg::Fast)]
    method: MethodArg,
    /// The instructions computing the values: auto (the fastest this machine runs),
    /// scalar (plain Rust, the reference), avx2 or avx512 (x86-64). The values are the
    /// same with every kernel; one this machine cannot run is refused (exit 2).
    #[arg(long, value_name = "KERNEL", default_value = "auto", value_parser = parse_kernel, hide_short_help = true)]
    kernel: Kernel,
    #[command(flatten)]
    threads: Threads,
    #[command(flatten)]
    budget: ComputeLimits,
}

/// Reads a heap size (`-n N`, `--max-heap N`): a non-negative decimal integer of any
/// length. One past `usize` is read as `usize::MAX`, so that every number too large
/// to compute is the same limit (exit 3), whatever its size; only text that is not
/// such a number is bad input (exit 2).
fn parse_heap(text: &str) -> Result<usize, String> {
    let digits = text.trim();
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(digits.parse().unwrap_or(usize::MAX));
    }
    // clap's message quotes the value already: `invalid value '-5' for '-n <N>': ...`.
    Err("a heap is a non-negative integer (0, 1, 2, ...), e.g. -n 100".to_owned())
}

/// Reads a kernel's name (`--kernel`): one of `Kernel::NAMES` this machine runs.
fn parse_kernel(text: &str) -> Result<Kernel, String> {
    Kernel::named(text).map_err(|error| error.to_string())
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Format {
    Text,
    Binary,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum MethodArg {
    // Method::SparseSpace; `sparse` was its name before the help called it `fast`.
    // (Plain comments: a doc comment would become the value's help and change the
    // layout of the whole --help.)
    #[value(alias = "sparse")]
    Fast,
    // Method::PlainMex.
    Plain,
}

impl Args {
    /// The workflow's request and limits.
    fn request(&self) -> (Request, Limits) {
        let request = Request {
            genus: self.genus,
            method: match self.method {
                MethodArg::Fast => Method::SparseSpace,
                MethodArg::Plain => Method::PlainMex,
            },
            kernel: self.kernel,
            until_proven: self.until_proven,
            out: self.out.clone(),
            format: match self.format {
                Format::Text => FileFormat::Text,
                Format::Binary => FileFormat::Binary,
            },
            process_bytes: PROCESS_BYTES,
            ..Request::new(self.rule.clone(), self.last_heap)
        };
        (request, limits(&self.budget, self.max_heap))
    }
}

/// The workflow's limits: `budget`, and `max_heap` for --until-proven.
pub fn limits(budget: &ComputeLimits, max_heap: usize) -> Limits {
    Limits {
        bytes: budget.max_memory,
        work: budget.max_work,
        largest_heap: max_heap as u64,
        ..Limits::default()
    }
}

/// The progress of the values on a terminal, Ctrl-C's stop between reports, and
/// the notes of the run on standard error.
struct Bar {
    /// Values asked for (heaps `0..=N`): a run past them is --until-proven's.
    asked: usize,
    /// Whether the values go to an --out file, which an interrupted run resumes from.
    to_file: bool,
    bar: DelayedBar,
}

impl Watcher for Bar {
    fn progress(&mut self, progress: Progress) -> ControlFlow<()> {
        // --until-proven grows the range step by step (doubling, or to what a
        // period seen needs); the bar shows the current step.
        let message = if progress.total > self.asked {
            " (looking for a proven period)"
        } else {
            ""
        };
        self.bar
            .update(progress.done as u64, progress.total as u64, message);
        if crate::interrupt::requested() {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    fn wants_estimate(&self) -> bool {
        true
    }

    fn estimate(&mut self, said: &str) {
        let resumes = if self.to_file {
            "; an interrupted run resumes from its --out file"
        } else {
            "; with --out FILE an interrupted run resumes where it stopped"
        };
        print_error(&format!("note: estimated time: {said}{resumes}"));
    }

    fn note(&mut self, note: &str) {
        print_error(&format!("note: {note}"));
    }
}

/// Runs the command.
///
/// # Errors
/// A [`Failure`] for a bad rule, a file that cannot be used, a limit reached, or
/// output that cannot be written.
pub fn run(args: &Args) -> Result<(), Failure> {
    args.threads.install();
    // Ctrl-C stops the values between two progress reports; what is computed is kept.
    crate::interrupt::keep_partial_results();
    let (request, limits) = args.request();
    let mut bar = Bar {
        asked: args.last_heap.saturating_add(1),
        to_file: args.out.is_some(),
        bar: DelayedBar::new("{bar:40} {pos}/{len} values, {per_sec}, eta {eta}{msg}"),
    };
    let answer = seq::run(&request, &limits, Door::CommandLine, &mut bar);
    drop(bar);
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    let ran = answer.and_then(|answer| print(args, &answer, &mut out));
    out.flush()?;
    ran
}

/// Prints the answer, and for a run stopped by Ctrl-C what it kept (exit 130).
fn print(args: &Args, answer: &Answer, out: &mut dyn Write) -> Result<(), Failure> {
    let Answer::Values(sequence) = answer else {
        write(args, answer, out)?;
        return Ok(());
    };
    let Sequence { rule, values, .. } = sequence;
    let interrupted = match sequence.finish {
        Finish::Complete => {
            write(args, answer, out)?;
            return Ok(());
        }
        // The values computed so far are the answer (heaps `0..=K`, no period
        // looked for).
        Finish::Partial => {
            if !values.is_empty() {
                write(args, answer, out)?;
            }
            format!(
                "error: interrupted (Ctrl-C): the values of {rule} up to heap {} are above, of the {} asked",
                sequence.last_heap,
                args.last_heap.saturating_add(1)
            )
        }
        // The file holds every value computed, and its check file their sums.
        Finish::Saved { held } => format!(
            "error: interrupted (Ctrl-C) after the values of {rule} up to heap {}: `{}` holds them, and running the command again resumes from there",
            held.saturating_sub(1),
            sequence.out.clone().unwrap_or_default().display()
        ),
        Finish::Dropped => {
            format!("error: interrupted (Ctrl-C) before the values of {rule} were all computed")
        }
    };
    print_error(&interrupted);
    Err(Failure::Reported(crate::interrupt::EXIT_CODE))
}

/// Writes `answer` to `out` (standard output, buffered), as JSON or for a
/// reader, and flushes it: a partial answer comes before the error that
/// follows it.
fn write(args: &Args, answer: &Answer, out: &mut dyn Write) -> io::Result<()> {
    if args.json {
        answer.write_json(out)?;
    } else {
        answer.write_text(out)?;
    }
    out.flush()
}
