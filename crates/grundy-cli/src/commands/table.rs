//! `grundy table EXPR VAR=LOW..HIGH [VAR=LOW..HIGH]`: the nimbers (or
//! outcomes) of a position over one or two varying integers, as an aligned
//! table, CSV or JSON, with the patterns found in it and, on request, a plot.
//!
//! The table is the library's ([`grundy::workflow::table`]); this command reads
//! its arguments, shows its progress, writes it and draws it.

#[cfg(feature = "plot")]
mod plot;
#[cfg(not(feature = "plot"))]
#[path = "table/no_plot.rs"]
mod plot;

use std::io::{self, BufWriter, Write};
use std::sync::Mutex;

use grundy::theory::cancel;
use grundy::theory::limits::SearchError;
use grundy::workflow::table::{self, Axis, Grid, Measure, Progress, Table};

use crate::failure::{Door, Failure};
use crate::interrupt;
use crate::limits::{SearchLimits, Threads};
use crate::progress::DelayedBar;

/// Arguments of `grundy table`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position, with one or two variables standing for integers, e.g.
    /// `wythoff(x, y)`, `bash[3](n)`, `script[@g.rhai](n) + nim(1)`.
    expression: String,
    /// The values of each variable: `n=0..1000`, `x=0..40 y=0..40` (both ends
    /// included). The first variable runs down the rows, the second across.
    #[arg(value_name = "VAR=LOW..HIGH", required = true, num_args = 1..=2)]
    ranges: Vec<String>,
    /// Tabulate who wins (`P`: the player to move loses, `N`: wins) instead of
    /// the nimbers; needed for positions without a nimber (misère play).
    #[arg(long)]
    outcome: bool,
    /// How the table is written.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write JSON (the same as --format json).
    #[arg(long)]
    json: bool,
    /// Also draw the table into FILE: `.svg` or `.png`. One variable: the
    /// values against it, P-positions marked; two: a heat map, P-positions black.
    #[arg(long, value_name = "FILE")]
    plot: Option<String>,
    /// Leave out the patterns found in the table.
    #[arg(long)]
    no_patterns: bool,
    /// The most cells a table may have.
    #[arg(long, value_name = "N", default_value_t = table::DEFAULT_MAX_CELLS)]
    max_cells: u64,
    #[command(flatten)]
    threads: Threads,
    #[command(flatten)]
    limits: SearchLimits,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Csv,
    Json,
}

/// Runs the command.
///
/// # Errors
/// A [`Failure`] for bad input, a limit, or output that cannot be written.
pub fn run(args: &Args) -> Result<(), Failure> {
    args.threads.install();
    let table = tabulate(args)?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let format = if args.json { Format::Json } else { args.format };
    match format {
        Format::Text => table.write_text(&mut out)?,
        Format::Csv => table.write_csv(&mut out)?,
        Format::Json => {
            serde_json::to_writer(&mut out, &table.json()).map_err(io::Error::from)?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    if let Some(path) = &args.plot {
        plot::draw(&table, &args.expression, path)?;
    }
    if table.complete() {
        Ok(())
    } else {
        crate::failure::print_error(&format!(
            "error: interrupted (Ctrl-C) after {} of {} cells; the table above holds them",
            table.cells.len(),
            table.grid.cells()
        ));
        Err(Failure::Reported(interrupt::EXIT_CODE))
    }
}

/// The table of `args`: complete, or stopped by Ctrl-C.
///
/// # Errors
/// The library's failure; a table stopped by the time limit (`--max-time`)
/// is the time limit's.
fn tabulate(args: &Args) -> Result<Table, Failure> {
    let axes = args
        .ranges
        .iter()
        .map(|range| Axis::parse(range))
        .collect::<Result<Vec<_>, _>>()?;
    let measure = if args.outcome {
        Measure::Outcome
    } else {
        Measure::Nimber
    };
    let grid = Grid::new(axes, measure, args.max_cells, Door::CommandLine)?;
    if let Some(path) = &args.plot {
        plot::check(path)?;
    }
    let limits = args.limits.workflow();
    let patterns = !args.no_patterns;
    // The first Ctrl-C stops the cells, as the time limit does.
    let signal = cancel::current().unwrap_or_default().child();
    interrupt::cancel_on_ctrl_c(&signal);
    let bar = Bar::new();
    let table = signal.run(|| {
        table::tabulate(
            &args.expression,
            grid,
            patterns,
            &limits,
            Door::CommandLine,
            &bar,
        )
    })?;
    if table.complete() || interrupt::requested() {
        Ok(table)
    } else {
        Err(Failure::search(&SearchError::Cancelled, Door::CommandLine))
    }
}

/// A progress bar on standard error, shown only on a terminal and once the
/// table has taken a second.
struct Bar(Mutex<DelayedBar>);

impl Bar {
    fn new() -> Self {
        Self(Mutex::new(DelayedBar::new(
            "{bar:40} {pos}/{len} cells, {per_sec}, eta {eta} (Ctrl-C keeps the cells done)",
        )))
    }
}

impl Progress for Bar {
    fn cells_done(&self, done: u64, total: u64) {
        if done.is_multiple_of(64)
            && let Ok(mut bar) = self.0.lock()
        {
            bar.update(done, total, "");
        }
    }
}
