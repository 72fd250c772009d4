//! `grundy seq [--json] RULE -n N`: the Grundy values of heaps 0..=N of a heap
//! game, with the period found and whether a theorem proves it.

use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use grundy::games::heap::take_and_break::parse_rule;
use grundy::sequence::{
    FileFormat, GrundyValues, Method, Periodicity, Progress, Proof, SequenceSolver,
    compute_into_file, find_periodicity, until_proven,
};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::failure::Failure;

/// How far past N the period is looked for without --until-proven.
const DEFAULT_PERIOD_REACH: usize = 1 << 14;

/// Arguments of `grundy seq`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The heap game, without heaps: `kayles`, `octal[0.137]`, `sub[1, 3, 4]`, `grundy_game`, ...
    rule: String,
    /// The last heap: values of heaps 0..=N.
    #[arg(short = 'n', value_name = "N")]
    last_heap: usize,
    /// Print one JSON object (the contract's format).
    #[arg(long)]
    json: bool,
    /// Write the values to FILE instead (one per line, heap 0 first); an
    /// interrupted run resumes from the file.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// The file format for --out.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Keep computing past N until a theorem proves the period (up to --max-heap).
    #[arg(long)]
    until_proven: bool,
    /// The furthest heap --until-proven may compute.
    #[arg(long, value_name = "N", default_value_t = 1_000_000_000)]
    max_heap: usize,
    /// The algorithm: sparse space (fast) or plain mex (the reference).
    #[arg(long, value_enum, default_value_t = MethodArg::Sparse)]
    method: MethodArg,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Format {
    Text,
    Binary,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum MethodArg {
    Sparse,
    Plain,
}

/// A progress bar on standard error, shown only once a run has lasted a second.
struct Bar {
    started: Instant,
    bar: Option<ProgressBar>,
}

impl Bar {
    fn new() -> Self {
        Self {
            started: Instant::now(),
            bar: None,
        }
    }

    fn update(&mut self, progress: Progress) -> ControlFlow<()> {
        if self.bar.is_none() && self.started.elapsed() > Duration::from_secs(1) {
            let bar = ProgressBar::new(progress.total as u64);
            bar.set_style(
                ProgressStyle::with_template("{bar:40} {pos}/{len} values, {per_sec}, eta {eta}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_length(progress.total as u64);
            bar.set_position(progress.done as u64);
        }
        ControlFlow::Continue(())
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Runs the command.
///
/// # Errors
/// A [`Failure`] for a bad rule, a file that cannot be used, or output that
/// cannot be written.
pub fn run(args: &Args) -> Result<(), Failure> {
    let (rule, rule_text) =
        parse_rule(&args.rule).map_err(|e| Failure::language(&e, &args.rule))?;
    let method = match args.method {
        MethodArg::Sparse => Method::SparseSpace,
        MethodArg::Plain => Method::PlainMex,
    };
    let mut bar = Bar::new();
    let mut progress = |report: Progress| bar.update(report);
    let mut solver = match &args.out {
        Some(path) => {
            let format = match args.format {
                Format::Text => FileFormat::Text,
                Format::Binary => FileFormat::Binary,
            };
            compute_into_file(&rule, method, args.last_heap, path, format, &mut progress)
                .map_err(|e| Failure::Input(format!("error: `{}`: {e}", path.display())))?
        }
        None => {
            let mut solver = SequenceSolver::new(rule.clone(), method);
            // The progress callback never stops the run, so it cannot be interrupted.
            let _ = solver.extend_to_with_progress(args.last_heap, &mut progress);
            solver
        }
    };
    // The period is looked for past N (the values printed stay 0..=N): a little
    // way by default, as far as --max-heap with --until-proven. Interruption is
    // impossible: the callback always continues.
    let reach = if args.until_proven {
        args.max_heap
    } else {
        DEFAULT_PERIOD_REACH
    };
    let periodicity = until_proven(&mut solver, reach.max(args.last_heap), &mut progress)
        .ok()
        .flatten()
        .or_else(|| find_periodicity(&rule, solver.values()));
    drop(bar);
    let values = solver.values();
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    if args.json {
        write_json(
            &mut out,
            &rule_text,
            values,
            args.last_heap,
            periodicity.as_ref(),
            args.out.as_ref(),
        )?;
    } else {
        write_human(
            &mut out,
            &rule_text,
            values,
            args.last_heap,
            periodicity.as_ref(),
            args.out.as_ref(),
        )?;
    }
    out.flush()?;
    Ok(())
}

fn write_json(
    out: &mut impl Write,
    rule: &str,
    values: &GrundyValues,
    last_heap: usize,
    periodicity: Option<&Periodicity>,
    file: Option<&PathBuf>,
) -> io::Result<()> {
    write!(out, "{{\"rule\":{}", json!(rule))?;
    match file {
        Some(path) => write!(out, ",\"out\":{}", json!(path.display().to_string()))?,
        None => {
            out.write_all(b",\"values\":[")?;
            for (heap, value) in values.iter().take(last_heap + 1).enumerate() {
                if heap > 0 {
                    out.write_all(b",")?;
                }
                write!(out, "{value}")?;
            }
            out.write_all(b"]")?;
        }
    }
    let (period, preperiod, saltus) = periodicity
        .map_or((json!(null), json!(null), json!(0)), |p| {
            (json!(p.period), json!(p.preperiod), json!(p.saltus))
        });
    let proven = periodicity.is_some_and(Periodicity::proven);
    writeln!(
        out,
        ",\"period\":{period},\"preperiod\":{preperiod},\"saltus\":{saltus},\"proven\":{proven},\"computed\":{},\"proof\":{}}}",
        values.len(),
        json!(periodicity.map_or_else(|| "none".to_owned(), proof_text))
    )
}

fn proof_text(periodicity: &Periodicity) -> String {
    match periodicity.proof {
        Proof::Unproven => "seen in the computed values only, not proven".to_owned(),
        Proof::GuySmith { checked } => {
            format!("Guy-Smith periodicity theorem, checked on heaps 0..{checked}")
        }
        Proof::SubtractionWindow { checked } => {
            format!(
                "a repeated window of max(S) values (subtraction game), checked on heaps 0..{checked}"
            )
        }
        Proof::LevelTest { checked } => format!(
            "arithmetic periodicity by grundy's level test (saltus a power of two), checked on heaps 0..{checked}"
        ),
        Proof::WindowTest { checked } => format!(
            "arithmetic periodicity by grundy's window test (all-but subtraction), checked on heaps 0..{checked}"
        ),
        Proof::ClosedForm { theorem } => theorem.to_owned(),
    }
}

fn write_human(
    out: &mut impl Write,
    rule: &str,
    values: &GrundyValues,
    last_heap: usize,
    periodicity: Option<&Periodicity>,
    file: Option<&PathBuf>,
) -> io::Result<()> {
    match file {
        Some(path) => writeln!(
            out,
            "{rule}: values of heaps 0..={last_heap} written to {}",
            path.display()
        )?,
        None => {
            writeln!(out, "{rule}: values of heaps 0..={last_heap}")?;
            for (heap, value) in values.iter().take(last_heap + 1).enumerate() {
                let separator = if heap % 20 == 19 { "\n" } else { " " };
                write!(out, "{value}{separator}")?;
            }
            writeln!(out)?;
        }
    }
    match periodicity {
        Some(p) => {
            let saltus = if p.saltus == 0 {
                String::new()
            } else {
                format!(", saltus {}", p.saltus)
            };
            writeln!(out, "period {} from heap {}{saltus}", p.period, p.preperiod)?;
            let status = if p.proven() { "proven" } else { "NOT proven" };
            writeln!(out, "{status}: {}", proof_text(p))
        }
        None => writeln!(
            out,
            "no period found in the {} values computed",
            values.len()
        ),
    }
}
