//! `grundy seq [--json] RULE -n N`: the Grundy values of heaps 0..=N of a heap
//! game, with the period found and whether a theorem proves it.
//!
//! Before computing, the cost of the range is estimated ([`CostModel`], from the
//! values of the first 1024 heaps, plus the process itself): the values asked for must
//! fit the memory and work limits (`--max-memory`, `--max-work`) or the command stops
//! with exit 3. Memory the system refuses all the same is exit 3 too, naming
//! `--max-memory`; a limit of 0 is refused.
//! The search for a period past N (to heap 16384 by default) is cut short where
//! the limits would be passed; `--until-proven` stops with exit 3 if it is cut
//! short before a proof.

use crate::progress::DelayedBar;
use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use grundy::catalogue::parse_rule;
use grundy::games::heap::HeapRule;
#[cfg(feature = "script")]
use grundy::games::script::Script;
use grundy::sequence::bounded::{LARGEST_HEAP, periodic_bytes, proven_shortcut};
use grundy::sequence::estimate::{SettingNames, announcement};
use grundy::sequence::{
    Cost, CostModel, FileError, FileFormat, GrundyValues, Interrupted, Method, Periodicity,
    Progress, ResumeError, SequenceFile, SequenceSolver, StopCause, check_file_path,
    check_rule_of_file, read_values, save_to_file, until_proven,
};
#[cfg(feature = "script")]
use grundy::sequence::{find_unproven_periodicity, write_values};
use serde_json::json;

use crate::failure::{Door, Failure, print_error};
use crate::limits::{ComputeLimits, Threads};

/// The furthest heap the period is looked for without --until-proven (when N is
/// smaller).
const DEFAULT_PERIOD_REACH: usize = 1 << 14;
/// Values computed first, as the period search would.
const FIRST_HEAPS: usize = 1 << 8;
/// Values computed first to predict the cost of the rest (see [`CostModel`]).
const PREDICTION_HEAPS: usize = 1 << 10;
/// Memory the process holds besides the computation, added to the model's estimate
/// before it is compared with --max-memory: the program and its libraries and the
/// 1 MiB output buffer. `grundy seq nim -n 0` peaks at 4.0 MB resident (release build,
/// Linux x86-64); a megabyte or two more for output written and the progress bar.
const PROCESS_BYTES: u64 = 6 << 20;

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
    #[arg(long, value_name = "N", default_value_t = 1_000_000_000, value_parser = parse_heap, allow_negative_numbers = true)]
    max_heap: usize,
    /// The algorithm: fast (a proven closed form for nim, lasker and rest_nim,
    /// otherwise sparse space; `sparse` is another name for it) or plain (the mex of
    /// every option: the reference).
    #[arg(long, value_enum, default_value_t = MethodArg::Fast)]
    method: MethodArg,
    #[command(flatten)]
    threads: Threads,
    #[command(flatten)]
    budget: ComputeLimits,
    /// Run inside `grundy serve`, for one request: on the request's thread
    /// (no pool installed), stopped by its deadline (the library's
    /// cancellation), with no progress bar, no note and no Ctrl-C handling
    /// of its own.
    #[arg(skip)]
    served: bool,
}

#[cfg(feature = "serve")]
impl Args {
    /// The arguments of `seq --json RULE -n N` for a request of `grundy
    /// serve`, within `budget` (see [`Args::served`]).
    pub fn served(rule: String, last_heap: usize, budget: ComputeLimits) -> Self {
        Self {
            rule,
            last_heap,
            json: true,
            genus: false,
            out: None,
            format: Format::Text,
            until_proven: false,
            max_heap: 1_000_000_000,
            method: MethodArg::Fast,
            threads: Threads { threads: None },
            budget,
            served: true,
        }
    }
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

/// Bytes for people: `1.5 GiB`.
fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// The estimated cost of computing the values of heaps `0..=heap`, with the memory of
/// the process around the computation.
fn estimate(model: &CostModel, heap: usize) -> Cost {
    let cost = model.cost(heap);
    Cost {
        bytes: cost.bytes.saturating_add(PROCESS_BYTES),
        steps: cost.steps,
    }
}

/// The largest heap in `from..=to` whose values are estimated to stay within `limits`
/// (see [`estimate`]), or `None` when even `from` does not.
fn largest_heap_within(model: &CostModel, from: usize, to: usize, limits: &Cost) -> Option<usize> {
    let budget = Cost {
        bytes: limits.bytes.checked_sub(PROCESS_BYTES)?,
        steps: limits.steps,
    };
    model.largest_heap_within(from, to, &budget)
}

/// Which limit the range `0..=heap` passes, and the flag that raises it.
fn over_limits(model: &CostModel, heap: usize, limits: &Cost) -> String {
    let cost = estimate(model, heap);
    let why = model
        .what_grows()
        .map_or_else(String::new, |what| format!(" ({what})"));
    if cost.bytes > limits.bytes {
        over_memory_limit(cost.bytes, limits.bytes, &why)
    } else {
        format!(
            "need about {} steps of work by estimate{why}, more than the work limit of {} steps; raise it with --max-work STEPS",
            cost.steps, limits.steps
        )
    }
}

/// Why the values in `path` cannot be used, said of its line (text) or value number.
fn file_failure(error: &FileError, path: &Path, format: Format, rule: &str) -> Failure {
    if let FileError::OutOfMemory { .. } = error {
        return Failure::limit(format!(
            "error: `{}`: {error}; the system gives less memory than the estimate: lower --max-memory BYTES to the memory free, so that such ranges are refused before they start",
            path.display()
        ));
    }
    if let FileError::Io(error) = error
        && is_write_failure(error)
    {
        return Failure::unwritten(path, error);
    }
    let FileError::WrongValue(wrong) = error else {
        return Failure::input(format!("error: `{}`: {error}", path.display()));
    };
    let heap = wrong.heap;
    let expected = wrong.computed.map_or_else(
        || "too large for 32 bits".to_owned(),
        |value| value.to_string(),
    );
    let stored = wrong.stored;
    Failure::input(match format {
        Format::Text => format!(
            "error: `{}` line {}: {stored} is not the value of heap {heap} of {rule}, which is {expected} (from the lines before it, which are right); cut the file to its first {heap} lines, or remove it, and run again",
            path.display(),
            heap + 1,
        ),
        Format::Binary => format!(
            "error: `{}`: value number {} is {stored}, not the value of heap {heap} of {rule}, which is {expected} (from the values before it, which are right); remove the file and run again",
            path.display(),
            heap + 1,
        ),
    })
}

/// Whether `error` is a failure to write what was asked rather than a wrong FILE: a
/// full disk or quota, a file too large, an input/output error (exit 4, as for
/// standard output).
fn is_write_failure(error: &io::Error) -> bool {
    // EIO, EFBIG, ENOSPC and EDQUOT on Linux and the BSDs alike, but for EDQUOT.
    const WRITE_ERRORS: [i32; 4] = [5, 27, 28, 122];
    matches!(
        error.kind(),
        io::ErrorKind::StorageFull | io::ErrorKind::FileTooLarge | io::ErrorKind::QuotaExceeded
    ) || error
        .raw_os_error()
        .is_some_and(|code| WRITE_ERRORS.contains(&code))
}

/// The advisory lock on a `--out FILE` held for the whole run (`flock` on FILE itself),
/// so that two runs writing the same FILE at once cannot mix their values: the second
/// is refused with exit 2, naming the rule of the run holding it (from `FILE.check`).
/// A FILE this run created and left empty (the run failed before writing it) is removed.
struct OutLock {
    file: std::fs::File,
    path: PathBuf,
    created: bool,
}

impl OutLock {
    /// Takes the lock on `path`, creating the file when it is missing.
    fn take(path: &Path) -> Result<Self, Failure> {
        let cannot = |error: io::Error| {
            Failure::input(format!(
                "error: `{}`: cannot open it: {error}",
                path.display()
            ))
        };
        // A run that failed may remove a FILE it created between another run's open and
        // its lock: the lock taken is checked to be on the file the path names.
        for _ in 0..3 {
            let (file, created) = match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
            {
                Ok(file) => (file, true),
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => (
                    std::fs::OpenOptions::new()
                        .write(true)
                        .open(path)
                        .map_err(cannot)?,
                    false,
                ),
                Err(error) => return Err(cannot(error)),
            };
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => return Err(Self::held(path)),
                // A file system without locks (some network ones): written unlocked, as
                // before locks.
                Err(std::fs::TryLockError::Error(error))
                    if error.kind() == io::ErrorKind::Unsupported => {}
                Err(std::fs::TryLockError::Error(error)) => {
                    return Err(Failure::input(format!(
                        "error: `{}`: cannot lock it against other runs writing it: {error}",
                        path.display()
                    )));
                }
            }
            if Self::still_named(&file, path) {
                return Ok(Self {
                    file,
                    path: path.to_owned(),
                    created,
                });
            }
        }
        Err(Self::held(path))
    }

    /// Whether `file` is still the file at `path` (not removed or replaced since it
    /// was opened).
    fn still_named(file: &std::fs::File, path: &Path) -> bool {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            match (file.metadata(), std::fs::metadata(path)) {
                (Ok(held), Ok(named)) => held.dev() == named.dev() && held.ino() == named.ino(),
                _ => false,
            }
        }
        #[cfg(not(unix))]
        {
            let _ = (file, path);
            true
        }
    }

    /// The error for a FILE another run holds: its rule is the one its check file
    /// names, once that run has written it (waited for a moment).
    fn held(path: &Path) -> Failure {
        let check = check_file_path(path);
        let started = Instant::now();
        let rule = loop {
            let rule = std::fs::read(&check).ok().and_then(|text| {
                let text = String::from_utf8_lossy(&text).into_owned();
                let mut lines = text.lines();
                (lines.next() == Some("grundy-check 1"))
                    .then(|| lines.next())
                    .flatten()
                    .and_then(|line| line.strip_prefix("rule "))
                    .map(|rule| rule.chars().take(200).collect::<String>())
            });
            if rule.is_some() || started.elapsed() > Duration::from_secs(1) {
                break rule;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let whose = rule.map_or_else(
            || "another grundy seq".to_owned(),
            |rule| {
                format!(
                    "another grundy seq, of {rule} (as `{}` says)",
                    check.display()
                )
            },
        );
        Failure::input(format!(
            "error: `{}` is being written by {whose}: it holds the file's lock\nhelp: wait for that run to end (a rerun of the same rule then resumes from its values), or write to another --out FILE",
            path.display()
        ))
    }
}

impl Drop for OutLock {
    fn drop(&mut self) {
        if self.created && self.file.metadata().is_ok_and(|meta| meta.len() == 0) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Opens the --out file, its values checked (see [`SequenceFile::open`]), saying on
/// standard error when they are checked by recomputing them, and when they are more
/// than asked.
fn open_out_file(
    args: &Args,
    path: &Path,
    rule: &HeapRule,
    method: Method,
    rule_text: &str,
    progress: &mut dyn FnMut(Progress) -> ControlFlow<()>,
) -> Result<SequenceFile, Failure> {
    let check = check_file_path(path);
    if std::fs::metadata(path).is_ok_and(|file| file.len() > 0) && !check.exists() {
        print_error(&format!(
            "note: `{}` has no check file (`{}`): each of its values is checked by recomputing it, as long as computing it",
            path.display(),
            check.display()
        ));
    }
    let file = SequenceFile::open(rule, method, path, args.format.into(), progress)
        .map_err(|error| file_failure(&error, path, args.format, rule_text))?;
    note_more_values(path, file.values().len(), args.last_heap);
    Ok(file)
}

/// Says on standard error that the file at `path` holds `held` values, when that is
/// more than the heaps `0..=last_heap` asked.
fn note_more_values(path: &Path, held: usize, last_heap: usize) {
    let asked = last_heap.saturating_add(1);
    if held > asked {
        print_error(&format!(
            "note: `{}` already holds {held} values (heaps 0..={}), more than the {asked} asked; all were checked and are kept",
            path.display(),
            held - 1,
        ));
    }
}

/// The values in the --out file, if there is one (none when it is missing or empty).
fn read_out_file(path: &Path, format: Format, rule: &str) -> Result<GrundyValues, Failure> {
    match std::fs::File::open(path) {
        Ok(mut file) if file.metadata().is_ok_and(|meta| meta.len() > 0) => {
            read_values(&mut file, format.into())
                .map_err(|error| file_failure(&error, path, format, rule))
        }
        Ok(_) => Ok(GrundyValues::new()),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(GrundyValues::new()),
        Err(error) => Err(Failure::input(format!(
            "error: `{}`: {error}",
            path.display()
        ))),
    }
}

/// Says on standard error how long computing the heaps `held..=last` will take, and
/// with --until-proven how long the heaps up to `reach` it may go on to, when that is
/// more than a few seconds ([`announcement`]).
fn announce_time(
    args: &Args,
    rule: &str,
    model: &CostModel,
    probe: &mut SequenceSolver,
    held: usize,
    reach: usize,
) {
    let names = SettingNames {
        work: "--max-work STEPS",
        heap: "--max-heap N",
    };
    // Without --until-proven, `reach` is the little way past N the period is looked
    // for, computed anyway.
    let (last, until_proven_to) = if args.until_proven {
        (args.last_heap.min(reach), Some(reach))
    } else {
        (reach, None)
    };
    let Some(said) = announcement(rule, model, probe, held, last, until_proven_to, names) else {
        return;
    };
    let resumes = if args.out.is_some() {
        "; an interrupted run resumes from its --out file"
    } else {
        "; with --out FILE an interrupted run resumes where it stopped"
    };
    print_error(&format!("note: estimated time: {said}{resumes}"));
}

/// "need about 1.5 GiB (...) of memory by estimate, more than the memory limit ...;
/// raise it with --max-memory BYTES (e.g. ...)"; `why` follows the estimate.
fn over_memory_limit(bytes: u64, limit: u64, why: &str) -> String {
    let suggestion = if bytes < 1 << 30 {
        format!("{}M", bytes.div_ceil(1 << 20))
    } else {
        format!("{}G", bytes.div_ceil(1 << 30))
    };
    format!(
        "need about {} ({bytes} bytes) of memory by estimate{why}, more than the memory limit of {limit} bytes; raise it with --max-memory BYTES (e.g. --max-memory {suggestion})",
        human_bytes(bytes),
    )
}

/// The failure of a computation that stopped before the values it needed: memory refused
/// by the system, or a value beyond 32 bits.
fn stopped(rule: &str, stop: Interrupted, estimated: u64, limits: &Cost) -> Failure {
    match stop.cause {
        StopCause::OutOfMemory(error) => Failure::limit(format!(
            "error: out of memory after the values of {rule} up to heap {}: {error}. The estimate, {} ({estimated} bytes), is within the memory limit of {} bytes, but the system gives less; lower --max-memory BYTES to the memory free, so that such ranges are refused before they start",
            stop.done.saturating_sub(1),
            human_bytes(estimated),
            limits.bytes,
        )),
        StopCause::Cancelled => Failure::limit(format!(
            "error: the values of {rule} stop at heap {}: the computation was cancelled (the time limit)",
            stop.done.saturating_sub(1)
        )),
        StopCause::ValueTooLarge | StopCause::Callback => Failure::limit(format!(
            "error: the values of {rule} stop at heap {}: larger values do not fit in 32 bits",
            stop.done.saturating_sub(1)
        )),
    }
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Format {
    Text,
    Binary,
}

impl From<Format> for FileFormat {
    fn from(format: Format) -> Self {
        match format {
            Format::Text => Self::Text,
            Format::Binary => Self::Binary,
        }
    }
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

/// The progress of the values on a terminal, and Ctrl-C's stop between reports.
struct Bar {
    /// Values asked for (heaps `0..=N`): a run past them is --until-proven's.
    asked: usize,
    bar: DelayedBar,
}

impl Bar {
    /// The bar of `args`: none in a request of `grundy serve`.
    fn new(args: &Args, asked: usize) -> Self {
        let mut bar = DelayedBar::new("{bar:40} {pos}/{len} values, {per_sec}, eta {eta}{msg}");
        if args.served {
            bar.hide();
        }
        Self { asked, bar }
    }

    fn update(&mut self, progress: Progress) -> ControlFlow<()> {
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
}

/// Runs the command.
///
/// # Errors
/// A [`Failure`] for a bad rule, a file that cannot be used, or output that
/// cannot be written.
pub fn run(args: &Args) -> Result<(), Failure> {
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    let ran = run_to(args, &mut out);
    out.flush()?;
    ran
}

/// The JSON answer of `args` (made by [`Args::served`]), as `grundy seq
/// --json` prints it, computed on this thread under its cancellation signal.
///
/// # Errors
/// As [`run`].
#[cfg(feature = "serve")]
pub fn served_answer(args: &Args) -> Result<serde_json::Value, Failure> {
    let mut answer = Vec::new();
    run_to(args, &mut answer)?;
    serde_json::from_slice(&answer).map_err(|e| {
        Failure::limit(format!(
            "error: internal error: the answer is not JSON: {e}"
        ))
    })
}

/// Runs the command, its answer written to `out`.
fn run_to(args: &Args, out: &mut dyn Write) -> Result<(), Failure> {
    if !args.served {
        args.threads.install();
        // Ctrl-C stops the values between two progress reports; what is computed is kept.
        crate::interrupt::keep_partial_results();
    }
    #[cfg(feature = "script")]
    if let Some(script) = grundy::games::script::sequence_rule(&args.rule, args.budget.max_work) {
        let (script, rule_text) =
            script.map_err(|e| Failure::language(&e, &args.rule, Door::CommandLine))?;
        return run_script(args, &script, &rule_text, out);
    }
    #[cfg(not(feature = "script"))]
    if args.rule.trim_start().starts_with("script[") {
        return Err(Failure::input(grundy::workflow::WITHOUT_SCRIPT));
    }
    let (rule, rule_text) =
        parse_rule(&args.rule).map_err(|e| Failure::language(&e, &args.rule, Door::CommandLine))?;
    if args.genus {
        return run_genus(args, &rule, &rule_text, out);
    }
    let method = match args.method {
        MethodArg::Fast => Method::SparseSpace,
        MethodArg::Plain => Method::PlainMex,
    };
    if args.last_heap > LARGEST_HEAP {
        let asked = if args.last_heap == usize::MAX {
            format!("{} or more", usize::MAX)
        } else {
            args.last_heap.to_string()
        };
        return Err(Failure::limit(format!(
            "error: values are stored in 32 bits, so heaps up to {LARGEST_HEAP} are computed, not {asked}; no flag raises this: ask for at most -n {LARGEST_HEAP}"
        )));
    }
    // A zero limit allows nothing: refused, rather than read as "no limit".
    if args.budget.max_memory == 0 {
        return Err(Failure::limit(
            "error: --max-memory 0 leaves no memory to compute with; raise it with --max-memory BYTES (e.g. --max-memory 512M)".to_owned(),
        ));
    }
    if args.max_heap == 0 {
        return Err(Failure::limit(
            "error: --max-heap 0 allows no heap to be computed; raise it with --max-heap N (at least N, the last heap asked for)".to_owned(),
        ));
    }
    let limits = Cost {
        bytes: args.budget.max_memory,
        steps: args.budget.max_work,
    };
    // The period is looked for past N (the values printed stay 0..=N): a little
    // way by default, as far as --max-heap with --until-proven.
    let wanted = if args.until_proven {
        args.max_heap
    } else {
        DEFAULT_PERIOD_REACH
    }
    .clamp(args.last_heap, LARGEST_HEAP.max(args.last_heap));
    // The first values predict what the rest costs: 256 (as many as the period
    // search starts with) tell which kind of rule it is, and 1024 how fast the values
    // grow. Rules costing more than linear keep computing from the 1024; the others
    // start again from 256, so that the period search starts where it always did.
    let mut probe = SequenceSolver::new(rule.clone(), method);
    probe.extend_to(wanted.min(FIRST_HEAPS - 1));
    let mut prediction = probe.clone();
    prediction.extend_to(wanted.min(PREDICTION_HEAPS - 1));
    let model = CostModel::new(&rule, method, prediction.values());
    if model.what_grows().is_some() {
        probe = prediction;
    }
    // Once the first values prove a period, every value follows from it: any N is
    // answered at once, for rules costing more than linear time (codes leaving three
    // heaps) and for purely periodic ones whose sparse space stays large (Dawson's
    // Kayles, 0.07). Values growing with a saltus (Nim) keep the engine, whose
    // allocations are fallible: memory the system refuses is exit 3, not an abort.
    if let Some(periodicity) = proven_shortcut(&rule, method, &model, probe.values()) {
        // A file's values are checked against the period, and kept when more than asked.
        let _lock = args.out.as_deref().map(OutLock::take).transpose()?;
        let held = match &args.out {
            Some(path) => {
                let held = read_out_file(path, args.format, &rule_text)?;
                check_rule_of_file(&rule, &held, path)
                    .map_err(|e| file_failure(&e, path, args.format, &rule_text))?;
                held
            }
            None => GrundyValues::new(),
        };
        let last_heap = args.last_heap.max(held.len().saturating_sub(1));
        let bytes =
            periodic_bytes(&periodicity, probe.values(), last_heap).saturating_add(PROCESS_BYTES);
        if bytes > limits.bytes {
            return Err(Failure::limit(format!(
                "error: the values of {rule_text} up to heap {last_heap} {}",
                over_memory_limit(bytes, limits.bytes, " (they follow from a proven period)")
            )));
        }
        let values = periodicity.values_up_to(probe.values(), last_heap).ok_or_else(|| {
            Failure::limit(format!(
                "error: the values of {rule_text} up to heap {last_heap} do not fit in 32 bits; no flag raises this"
            ))
        })?;
        if let Some(path) = &args.out {
            if let Some((heap, (stored, computed))) = held
                .iter()
                .zip(values.iter())
                .enumerate()
                .find(|(_, (stored, computed))| stored != computed)
            {
                let wrong = ResumeError {
                    heap,
                    stored,
                    computed: Some(computed),
                };
                return Err(file_failure(
                    &FileError::WrongValue(wrong),
                    path,
                    args.format,
                    &rule_text,
                ));
            }
            note_more_values(path, held.len(), args.last_heap);
            // Every value is known and right: the file is written whole (no resuming).
            save_to_file(&rule, &values, path, args.format.into())
                .map_err(|e| file_failure(&e, path, args.format, &rule_text))?;
        }
        return write_answer(args, &rule_text, &values, Some(&periodicity), out);
    }
    let Some(reach) = largest_heap_within(&model, args.last_heap, wanted, &limits) else {
        return Err(Failure::limit(format!(
            "error: the values of {rule_text} up to heap {} {}",
            args.last_heap,
            over_limits(&model, args.last_heap, &limits)
        )));
    };
    let _lock = args.out.as_deref().map(OutLock::take).transpose()?;
    let mut bar = Bar::new(args, args.last_heap.saturating_add(1));
    let mut progress = |report: Progress| bar.update(report);
    let file = match &args.out {
        Some(path) => Some(open_out_file(
            args,
            path,
            &rule,
            method,
            &rule_text,
            &mut progress,
        )?),
        None => None,
    };
    let held = file.as_ref().map_or(0, |file| file.values().len());
    // --until-proven goes past N only as far as no period is proven, which is not known
    // in advance: the estimate names the heaps asked and the whole range it may compute.
    if !args.served {
        announce_time(args, &rule_text, &model, &mut probe, held, reach);
    }
    let mut solver = match (file, &args.out) {
        (Some(mut file), Some(path)) => {
            match file.extend_to(args.last_heap, &mut progress) {
                Err(FileError::Interrupted { done }) if crate::interrupt::requested() => {
                    return Err(interrupted(&rule_text, done, path));
                }
                other => {
                    other.map_err(|error| file_failure(&error, path, args.format, &rule_text))?;
                }
            }
            file.into_solver()
        }
        _ => {
            let mut solver = probe;
            // The progress callback stops the run only for Ctrl-C; memory or 32 bits may.
            if let Err(stop) = solver.extend_to_with_progress(args.last_heap, &mut progress) {
                if crate::interrupt::requested() {
                    return write_partial(args, &rule_text, solver.values(), out);
                }
                let estimated = estimate(&model, args.last_heap).bytes;
                return Err(stopped(&rule_text, stop, estimated, &limits));
            }
            solver
        }
    };
    if solver.values().len() <= args.last_heap {
        return Err(Failure::limit(format!(
            "error: the values of {rule_text} stop at heap {}: larger values do not fit in 32 bits",
            solver.values().len().saturating_sub(1)
        )));
    }
    // `until_proven` ends with the detection on every value computed, proven or not.
    // Past N, values beyond 32 bits end the search (the values asked for are known);
    // running out of memory is a limit.
    let periodicity = match until_proven(&mut solver, reach, &mut progress) {
        Ok(found) => found,
        Err(
            stop @ Interrupted {
                cause: StopCause::OutOfMemory(_),
                ..
            },
        ) => {
            let estimated = estimate(&model, reach).bytes;
            return Err(stopped(&rule_text, stop, estimated, &limits));
        }
        Err(_) if crate::interrupt::requested() && args.out.is_none() => {
            drop(bar);
            return write_partial(args, &rule_text, solver.values(), out);
        }
        Err(_) => None,
    };
    drop(bar);
    if args.until_proven && reach < wanted && !periodicity.as_ref().is_some_and(Periodicity::proven)
    {
        return Err(Failure::limit(format!(
            "error: --until-proven found no proven period of {rule_text} up to heap {reach}, the furthest the limits allow: the values up to heap {} {} (or lower --max-heap to accept an unproven period)",
            reach + 1,
            over_limits(&model, reach + 1, &limits)
        )));
    }
    write_answer(args, &rule_text, solver.values(), periodicity.as_ref(), out)
}

/// `seq` of a scripted game (`script[@g.rhai]`): the values of `0..=N` by mex over the
/// script's moves ([`Script::sequence`]), one by one, with a progress bar on a
/// terminal. No theorem covers a script, so a period found is reported unproven; the
/// flags of heap rules' engine (`--method`, `--until-proven`, resuming `--out`) do not
/// apply: `--out` writes the values whole, without a check file.
#[cfg(feature = "script")]
fn run_script(
    args: &Args,
    script: &Script,
    rule_text: &str,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if args.until_proven {
        return Err(Failure::input(format!(
            "error: --until-proven needs a theorem to prove a period, and none covers a script: drop it to see the period of the values of {rule_text} up to N"
        )));
    }
    let mut bar = Bar::new(args, args.last_heap.saturating_add(1));
    let values = script
        .sequence(args.last_heap, &mut |report| bar.update(report))
        .map_err(|error| Failure::search(&error, Door::CommandLine))?
        .ok_or_else(|| {
            print_error(&format!(
                "error: interrupted (Ctrl-C) before the values of {rule_text} were all computed"
            ));
            Failure::Reported(crate::interrupt::EXIT_CODE)
        })?;
    drop(bar);
    let periodicity = find_unproven_periodicity(&values);
    if let Some(path) = &args.out {
        let _lock = OutLock::take(path)?;
        let failed = |error: io::Error| {
            if is_write_failure(&error) {
                Failure::unwritten(path, &error)
            } else {
                Failure::input(format!("error: `{}`: {error}", path.display()))
            }
        };
        // A check file beside FILE vouches for values no longer there: it goes.
        let check = check_file_path(path);
        if std::fs::read(&check).is_ok_and(|text| text.starts_with(b"grundy-check")) {
            std::fs::remove_file(&check).map_err(failed)?;
        }
        let mut file = std::fs::File::create(path).map_err(failed)?;
        write_values(&values, args.format.into(), &mut file).map_err(failed)?;
    }
    write_answer(args, rule_text, &values, periodicity.as_ref(), out)
}

/// Ctrl-C during `seq --out FILE`: FILE holds every value computed, and its check
/// file their sums, so a rerun resumes from there.
fn interrupted(rule_text: &str, done: usize, path: &Path) -> Failure {
    print_error(&format!(
        "error: interrupted (Ctrl-C) after the values of {rule_text} up to heap {}: `{}` holds them, and running the command again resumes from there",
        done.saturating_sub(1),
        path.display()
    ));
    Failure::Reported(crate::interrupt::EXIT_CODE)
}

/// Ctrl-C during `seq` without a file: the values computed so far are written as the
/// answer (heaps `0..=K`, no period looked for), and the run ends with exit 130.
fn write_partial(
    args: &Args,
    rule_text: &str,
    values: &GrundyValues,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let last_heap = values.len().saturating_sub(1);
    if !values.is_empty() {
        Report {
            rule: rule_text,
            values,
            last_heap,
            periodicity: None,
            file: None,
        }
        .print(args.json, out)?;
    }
    print_error(&format!(
        "error: interrupted (Ctrl-C): the values of {rule_text} up to heap {last_heap} are above, of the {} asked",
        args.last_heap.saturating_add(1)
    ));
    Err(Failure::Reported(crate::interrupt::EXIT_CODE))
}

/// Prints the answer: the values of heaps `0..=N` (or where they were written) and the
/// period.
fn write_answer(
    args: &Args,
    rule_text: &str,
    values: &GrundyValues,
    periodicity: Option<&Periodicity>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    Report {
        rule: rule_text,
        values,
        last_heap: args.last_heap,
        periodicity,
        file: args.out.as_ref(),
    }
    .print(args.json, out)?;
    Ok(())
}

/// What `seq` prints: the rule, its values up to `last_heap` (or the file they were
/// written to) and the period found.
#[derive(Clone, Copy)]
struct Report<'a> {
    rule: &'a str,
    values: &'a GrundyValues,
    last_heap: usize,
    periodicity: Option<&'a Periodicity>,
    file: Option<&'a PathBuf>,
}

impl Report<'_> {
    /// Writes the report to `out` (standard output, buffered), as JSON or
    /// for a reader, and flushes it: a partial report comes before the error
    /// that follows it.
    fn print(self, json: bool, mut out: &mut dyn Write) -> io::Result<()> {
        if json {
            write_json(&mut out, self)?;
        } else {
            write_human(&mut out, self)?;
        }
        out.flush()
    }
}

fn write_json(out: &mut impl Write, report: Report<'_>) -> io::Result<()> {
    write!(out, "{{\"rule\":{}", json!(report.rule))?;
    match report.file {
        Some(path) => write!(out, ",\"out\":{}", json!(path.display().to_string()))?,
        None => {
            out.write_all(b",\"values\":[")?;
            for (heap, value) in report.values.iter().take(report.last_heap + 1).enumerate() {
                if heap > 0 {
                    out.write_all(b",")?;
                }
                write!(out, "{value}")?;
            }
            out.write_all(b"]")?;
        }
    }
    let (period, preperiod, saltus) = report
        .periodicity
        .map_or((json!(null), json!(null), json!(0)), |p| {
            (json!(p.period), json!(p.preperiod), json!(p.saltus))
        });
    let proven = report.periodicity.is_some_and(Periodicity::proven);
    writeln!(
        out,
        ",\"period\":{period},\"preperiod\":{preperiod},\"saltus\":{saltus},\"proven\":{proven},\"computed\":{},\"proof\":{}}}",
        report.values.len(),
        json!(
            report
                .periodicity
                .map_or_else(|| "none".to_owned(), |p| p.proof.describe())
        )
    )
}

/// Values in a row of the human form: ten, so that a heap's column is its last digit.
const VALUES_PER_ROW: usize = 10;

/// Writes the values of heaps `0..=last_heap` in rows of [`VALUES_PER_ROW`], each
/// labelled with its first heap, and the values aligned in columns:
///
/// ```text
///  0:  0  1  2  3  1  4  3  2  1  4
/// 10:  2  6  4  1  2  7  1  4  3  2
/// ```
fn write_rows(out: &mut impl Write, values: &GrundyValues, last_heap: usize) -> io::Result<()> {
    let digits = |n: u64| n.checked_ilog10().unwrap_or(0) as usize + 1;
    let shown = || values.iter().take(last_heap + 1);
    let value_width = digits(shown().max().map_or(0, u64::from));
    let label_width = digits((last_heap - last_heap % VALUES_PER_ROW) as u64);
    for (heap, value) in shown().enumerate() {
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

fn write_human(out: &mut impl Write, report: Report<'_>) -> io::Result<()> {
    let (rule, last_heap) = (report.rule, report.last_heap);
    match report.file {
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
            write_rows(out, report.values, last_heap)?;
        }
    }
    match report.periodicity {
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
            report.values.len()
        ),
    }
}

/// The exit-3 message of genera out of reach: the genus is read from the misère
/// quotient of the rule's heaps with nim heaps, which `seq` builds with the
/// default bounds (its flags raise only the memory).
fn genus_limit_message(
    error: &grundy::quotient::QuotientError,
    max_order: usize,
    heaps: u64,
    rule_text: &str,
) -> String {
    use grundy::theory::limits::SearchError;
    let reason = match &error.error {
        SearchError::MemoryLimit { limit } => format!(
            "the misère quotient they are read from reached the memory limit of {limit} bytes; \
             raise it with --max-memory BYTES"
        ),
        SearchError::StateLimit { .. } => format!(
            "no misère quotient of at most {max_order} elements was found for the heaps with \
             nim heaps, which they are read from (it may be larger, infinite, or beyond what \
             recalibration finds); no flag of `seq` raises this"
        ),
        SearchError::Cancelled => "it was stopped (--max-time or Ctrl-C)".to_owned(),
        other => other.to_string(),
    };
    format!("error: the genera of {rule_text} up to heap {heaps} are out of reach: {reason}")
}

/// `grundy seq --genus`: the genus of heaps `0..=N`, one per line (or a JSON
/// object with the list of symbols).
fn run_genus(
    args: &Args,
    rule: &HeapRule,
    rule_text: &str,
    mut out: &mut dyn Write,
) -> Result<(), Failure> {
    let heaps = args.last_heap as u64;
    if heaps > grundy::quotient::MAX_HEAP {
        return Err(Failure::limit(format!(
            "error: genera are computed for heaps up to {}, not {heaps}; no flag raises this",
            grundy::quotient::MAX_HEAP
        )));
    }
    let limits = grundy::quotient::QuotientLimits {
        max_bytes: args.budget.max_memory,
        ..grundy::quotient::QuotientLimits::default()
    };
    let genera = grundy::quotient::genus::genera(rule, heaps, limits)
        .map_err(|e| Failure::limit(genus_limit_message(&e, limits.max_order, heaps, rule_text)))?;
    if args.json {
        let symbols: Vec<String> = genera.iter().map(ToString::to_string).collect();
        serde_json::to_writer(
            &mut out,
            &json!({"rule": rule_text, "n": heaps, "genus": symbols}),
        )
        .map_err(io::Error::from)?;
        writeln!(out)?;
    } else {
        for (heap, genus) in genera.iter().enumerate() {
            writeln!(out, "{heap} {genus}")?;
        }
    }
    out.flush()?;
    Ok(())
}
