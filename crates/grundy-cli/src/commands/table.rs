//! `grundy table EXPR VAR=LOW..HIGH [VAR=LOW..HIGH]`: the nimbers (or
//! outcomes) of a position over one or two varying integers, as an aligned
//! table, CSV or JSON, with the patterns found in it and, on request, a plot.
//!
//! The cells share one search ([`grundy::table::Tabulator`]): a table of
//! `script[@g.rhai](n)` for `n` up to 10^5 explores each position once.

#[cfg(feature = "plot")]
mod plot;
#[cfg(not(feature = "plot"))]
#[path = "table/no_plot.rs"]
mod plot;

use crate::progress::DelayedBar;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::{self, BufWriter, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use grundy::analysis::SolveOptions;
use grundy::catalogue::{BuildLimits, build_with};
use grundy::game::Outcome;
use grundy::lang::{Template, parse_with_limits};
use grundy::table::Tabulator;
use grundy::theory::cancel::{self, Cancel};
use num_bigint::{BigInt, BigUint};
use serde_json::{Value, json};

use crate::failure::{Door, Failure};
use crate::interrupt;
use crate::limits::{SearchLimits, Threads};

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
    #[arg(long, value_name = "N", default_value_t = 10_000_000)]
    max_cells: u64,
    #[command(flatten)]
    threads: Threads,
    #[command(flatten)]
    limits: SearchLimits,
    /// Run inside `grundy serve`, for one request: on the request's thread
    /// (no pool installed), stopped by its deadline (the library's
    /// cancellation), with no progress bar and no Ctrl-C handling of its own.
    #[arg(skip)]
    served: bool,
}

#[cfg(feature = "serve")]
impl Args {
    /// The arguments of `table --json EXPR RANGE [RANGE] [--outcome]` for a
    /// request of `grundy serve`, within `limits` and `max_cells`.
    pub fn served(
        expression: String,
        ranges: Vec<String>,
        outcome: bool,
        max_cells: u64,
        limits: SearchLimits,
    ) -> Self {
        Self {
            expression,
            ranges,
            outcome,
            format: Format::Json,
            json: true,
            plot: None,
            no_patterns: false,
            max_cells,
            threads: Threads { threads: None },
            limits,
            served: true,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Csv,
    Json,
}

/// One variable and its values.
#[derive(Debug)]
pub(crate) struct Axis {
    pub(crate) name: String,
    pub(crate) low: BigInt,
    pub(crate) count: u64,
}

impl Axis {
    pub(crate) fn value(&self, index: u64) -> BigInt {
        &self.low + index
    }
}

/// A cell of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Cell {
    Nimber(BigUint),
    Outcome(Outcome),
}

impl Cell {
    fn text(&self) -> String {
        match self {
            Self::Nimber(n) => n.to_string(),
            Self::Outcome(o) => o.letter().to_string(),
        }
    }

    fn json(&self) -> Value {
        match self {
            Self::Nimber(n) => u64::try_from(n)
                .ok()
                .filter(|&n| n < 1 << 53)
                .map_or_else(|| json!(n.to_string()), |n| json!(n)),
            Self::Outcome(o) => json!(o.letter().to_string()),
        }
    }

    /// Whether the player to move loses.
    #[cfg(feature = "plot")]
    pub(crate) fn is_p(&self) -> bool {
        match self {
            Self::Nimber(n) => *n == BigUint::default(),
            Self::Outcome(o) => !o.first_player_wins(),
        }
    }

    /// The nimber as a small number, for patterns and plots.
    pub(crate) fn small(&self) -> Option<u32> {
        match self {
            Self::Nimber(n) => u32::try_from(n).ok(),
            Self::Outcome(o) => Some(u32::from(o.first_player_wins())),
        }
    }
}

/// The computed table: cells in row-major order (the first variable's rows);
/// fewer than all when Ctrl-C stopped it.
#[derive(Debug)]
pub(crate) struct Table {
    pub(crate) axes: Vec<Axis>,
    pub(crate) cells: Vec<Cell>,
    pub(crate) outcome: bool,
}

impl Table {
    fn columns(&self) -> u64 {
        self.axes.get(1).map_or(1, |axis| axis.count)
    }

    fn complete(&self) -> bool {
        self.cells.len() as u64 == self.axes.iter().map(|a| a.count).product::<u64>()
    }

    fn measure(&self) -> &'static str {
        if self.outcome { "outcome" } else { "nimber" }
    }
}

/// Reads `n=0..1000`.
fn parse_range(text: &str) -> Result<Axis, Failure> {
    let bad = |why: &str| {
        Failure::input(format!(
            "error: `{text}` is not a variable's values: {why} (write e.g. `n=0..1000`)"
        ))
    };
    let (name, range) = text.split_once('=').ok_or_else(|| bad("no `=`"))?;
    let name = name.trim();
    if name.is_empty()
        || !name.starts_with(|c: char| c.is_ascii_lowercase())
        || !name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    {
        return Err(bad(
            "a variable's name is lower case letters, digits and `_`",
        ));
    }
    let (low, high) = range.split_once("..").ok_or_else(|| bad("no `..`"))?;
    let number = |s: &str| -> Result<BigInt, Failure> {
        s.trim()
            .parse::<BigInt>()
            .map_err(|_| bad(&format!("`{}` is not an integer", s.trim())))
    };
    let (low, high) = (number(low)?, number(high)?);
    if high < low {
        return Err(bad("the range is empty"));
    }
    let count = u64::try_from(&high - &low + 1u8).unwrap_or(u64::MAX);
    Ok(Axis {
        name: name.to_owned(),
        low,
        count,
    })
}

/// Runs the command.
///
/// # Errors
/// A [`Failure`] for bad input, a limit, or output that cannot be written.
pub fn run(args: &Args) -> Result<(), Failure> {
    args.threads.install();
    let (table, patterns, cells) = tabulate(args)?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let format = if args.json { Format::Json } else { args.format };
    match format {
        Format::Text => write_text(&table, &patterns, &mut out)?,
        Format::Csv => write_csv(&table, &mut out)?,
        Format::Json => {
            serde_json::to_writer(&mut out, &json_answer(args, &table, &patterns))
                .map_err(io::Error::from)?;
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
            "error: interrupted (Ctrl-C) after {} of {cells} cells; the table above holds them",
            table.cells.len()
        ));
        Err(Failure::Reported(interrupt::EXIT_CODE))
    }
}

/// The JSON answer of `args` (made by [`Args::served`]), as `grundy table
/// --json` prints it, computed on this thread under its cancellation signal.
///
/// # Errors
/// As [`run`].
#[cfg(feature = "serve")]
pub fn served_answer(args: &Args) -> Result<Value, Failure> {
    let (table, patterns, _) = tabulate(args)?;
    Ok(json_answer(args, &table, &patterns))
}

/// The table of `args`, the patterns found in it (none when asked for none,
/// or when it is incomplete) and its number of cells.
fn tabulate(args: &Args) -> Result<(Table, Vec<String>, u64), Failure> {
    let axes = args
        .ranges
        .iter()
        .map(|r| parse_range(r))
        .collect::<Result<Vec<_>, _>>()?;
    if axes.len() == 2 && axes[0].name == axes[1].name {
        return Err(Failure::input(format!(
            "error: the variable `{}` is given twice",
            axes[0].name
        )));
    }
    let cells = axes
        .iter()
        .try_fold(1u64, |n, axis| n.checked_mul(axis.count))
        .filter(|&n| n <= args.max_cells)
        .ok_or_else(|| {
            Failure::limit(format!(
                "error: the table has more than {} cells (the cell limit); raise it with --max-cells N",
                args.max_cells
            ))
        })?;
    if let Some(path) = &args.plot {
        plot::check(path)?;
    }
    let names: Vec<&str> = axes.iter().map(|a| a.name.as_str()).collect();
    let template = Template::new(&args.expression, &names)
        .map_err(|e| Failure::language(&e, &args.expression, Door::CommandLine))?;
    let table = compute(args, &template, axes, cells)?;
    let patterns = if args.no_patterns || !table.complete() {
        Vec::new()
    } else {
        patterns(&table)
    };
    Ok((table, patterns, cells))
}

/// Every cell, row by row, until done or Ctrl-C; the cells are shared among the
/// threads (`--threads`), each with its own graph of components and an equal share
/// of `--max-states` and `--max-memory`. The table and the first failing cell (in
/// row order) are those of one thread.
///
/// Each thread keeps one [`Tabulator`] for all its cells and takes the next cell
/// in row order as it becomes free ([`Cells::take`]), so that its graph grows a
/// little with each cell instead of being searched anew. The first thread (the
/// caller's) begins alone, the pool's left free for the searches' own parallel
/// work; they take cells too once the cells prove dear and independent
/// ([`Pace`]): a table whose cells share positions (a script's heaps, each
/// needing the smaller ones) would have every thread search the same graph. A
/// failure stops the cells after it at once: the threads computing one are
/// cancelled, and no later cell is started; the cells before it are finished,
/// and may fail first.
fn compute(
    args: &Args,
    template: &Template,
    axes: Vec<Axis>,
    cells: u64,
) -> Result<Table, Failure> {
    if !args.served {
        interrupt::keep_partial_results();
    }
    let threads = rayon::current_num_threads().max(1);
    let share = |total: usize| (total / threads).max(1);
    let options = SolveOptions {
        winning_moves: false,
        max_states: share(args.limits.max_states),
        max_memory: (args.limits.budget.max_memory / threads as u64).max(1),
        ..args.limits.solve_options(0)
    };
    let cancel = cancel::current();
    // Each thread's cells run under a signal of its own, made from the caller's.
    let base = cancel.clone().unwrap_or_default();
    let work = Cells {
        args,
        template,
        axes: &axes,
        columns: axes.get(1).map_or(1, |a| a.count),
        limits: args.limits.build(),
        cells,
        next: AtomicU64::new(0),
        first_failure: AtomicU64::new(u64::MAX),
        threads: (0..threads)
            .map(|_| (AtomicU64::new(0), base.child()))
            .collect(),
        done: AtomicU64::new(0),
        bar: Mutex::new(Bar::new(cells, args.served)),
    };
    let shares: Vec<Vec<(u64, Result<Cell, Failure>)>> = if threads == 1 {
        let mut tabulator = Tabulator::new(options);
        vec![cancel::run_under(cancel.as_ref(), || {
            work.take(0, &mut tabulator, |_| true)
        })]
    } else {
        let (work, options) = (&work, &options);
        let helpers = Mutex::new(Vec::new());
        let helpers_ref = &helpers;
        // The first thread is this one (as on one thread); the others are
        // the pool's, spawned when the cells prove worth sharing.
        let first = rayon::in_place_scope(|scope| {
            let mut tabulator = Tabulator::new(options.clone());
            let mut pace = Some(Pace::new());
            work.threads[0].1.run(|| {
                work.take(0, &mut tabulator, |tabulator| {
                    // Cells whose positions share components (in the graph)
                    // are left to this thread: each other thread would explore
                    // them all again, for no gain.
                    if tabulator.explored() > 0 {
                        pace = None;
                    }
                    if !pace.as_mut().is_some_and(Pace::worth_sharing) {
                        return true;
                    }
                    pace = None;
                    for thread in 1..threads {
                        scope.spawn(move |_| {
                            let mut tabulator = Tabulator::new(options.clone());
                            // A helper whose cells come to share positions
                            // leaves the rest to the others.
                            let taken = work.threads[thread].1.run(|| {
                                work.take(thread, &mut tabulator, |tabulator| {
                                    tabulator.explored() == 0
                                })
                            });
                            if let Ok(mut helpers) = helpers_ref.lock() {
                                helpers.push(taken);
                            }
                        });
                    }
                    true
                })
            })
        });
        let mut shares = helpers.into_inner().unwrap_or_default();
        shares.push(first);
        shares
    };
    drop(work);
    // The threads' cells merged in row order, up to the first failure, or the
    // first cell not done (Ctrl-C; a cell left out after a failure).
    let mut shares: Vec<_> = shares
        .into_iter()
        .map(|share| share.into_iter().peekable())
        .collect();
    let mut heads: BinaryHeap<Reverse<(u64, usize)>> = shares
        .iter_mut()
        .enumerate()
        .filter_map(|(thread, share)| share.peek().map(|&(index, _)| Reverse((index, thread))))
        .collect();
    let mut table = Table {
        axes,
        cells: Vec::new(),
        outcome: args.outcome,
    };
    while let Some(Reverse((index, thread))) = heads.pop() {
        let share = &mut shares[thread];
        match share.next() {
            Some((_, cell)) if index == table.cells.len() as u64 => table.cells.push(cell?),
            _ => break,
        }
        if let Some(&(next, _)) = share.peek() {
            heads.push(Reverse((next, thread)));
        }
    }
    Ok(table)
}

/// How much work the first thread does alone, and then measures each time,
/// before judging whether the other threads should take cells too: a table
/// shorter than this gains little from them, and the caches its cells share
/// (a misère quotient, Wythoff's dense table, kept by the library for all
/// threads) are built once, by the first thread, instead of by every thread at
/// the same time.
const PACE_WINDOW: Duration = Duration::from_millis(250);

/// The mean time of a cell from which the cells are worth sharing: below it,
/// taking turns at the table costs more than it gains (a heap rule's values by
/// theory, Wythoff's nimbers read from one kept table).
const DEAR_CELL: Duration = Duration::from_micros(100);

/// The first thread's judgement of whether the cells are worth sharing among
/// the threads, from its cells in windows of [`PACE_WINDOW`]: yes once a
/// window's cells took [`DEAR_CELL`] or more each (one reading of the clock a
/// cell). Not asked once the cells use the tabulator's graph.
#[derive(Debug)]
struct Pace {
    /// When the window began.
    since: Instant,
    /// The cells done in the window.
    cells: u32,
}

impl Pace {
    fn new() -> Self {
        Self {
            since: Instant::now(),
            cells: 0,
        }
    }

    /// Told after each cell of the first thread.
    fn worth_sharing(&mut self) -> bool {
        self.cells += 1;
        let work = self.since.elapsed();
        if work < PACE_WINDOW {
            return false;
        }
        let dear = work / self.cells >= DEAR_CELL;
        *self = Self::new();
        dear
    }
}

/// The cells of a table as the threads take them.
struct Cells<'a> {
    args: &'a Args,
    template: &'a Template,
    axes: &'a [Axis],
    columns: u64,
    limits: BuildLimits,
    cells: u64,
    /// The next cell to take, in row order.
    next: AtomicU64,
    /// The first cell (in row order) found to fail: no cell after it is started,
    /// and those running are cancelled.
    first_failure: AtomicU64,
    /// For each thread, the cell it is computing (or computed last) and the
    /// signal its cells run under.
    threads: Vec<(AtomicU64, Cancel)>,
    done: AtomicU64,
    bar: Mutex<Bar>,
}

impl Cells<'_> {
    /// The cells that thread `thread` takes, one after another, with one
    /// tabulator, until none is left, a cell before the next one failed, Ctrl-C,
    /// or `after` (told the tabulator after each cell) says to stop. A
    /// cell that fails after the first failure (cancelled, or failing by itself)
    /// is left out: it is never the one reported.
    fn take(
        &self,
        thread: usize,
        tabulator: &mut Tabulator,
        mut after: impl FnMut(&Tabulator) -> bool,
    ) -> Vec<(u64, Result<Cell, Failure>)> {
        let mut results = Vec::new();
        while !interrupt::requested() {
            let index = self.next.fetch_add(1, Ordering::SeqCst);
            if index >= self.cells {
                break;
            }
            // Published before the failure is read: a thread failing at a smaller
            // index either is seen here or sees this cell and cancels it.
            self.threads[thread].0.store(index, Ordering::SeqCst);
            if index > self.first_failure.load(Ordering::SeqCst) {
                break;
            }
            let cell = compute_cell(
                self.args,
                self.template,
                self.axes,
                self.columns,
                self.limits,
                tabulator,
                index,
            );
            if cell.is_err() {
                if index > self.first_failure.load(Ordering::SeqCst) {
                    break;
                }
                self.first_failure.fetch_min(index, Ordering::SeqCst);
                let first = self.first_failure.load(Ordering::SeqCst);
                for (running, signal) in &self.threads {
                    if running.load(Ordering::SeqCst) > first {
                        signal.cancel();
                    }
                }
            }
            let finished = self.done.fetch_add(1, Ordering::Relaxed) + 1;
            if let Ok(mut bar) = self.bar.lock() {
                bar.update(finished);
            }
            results.push((index, cell));
            if !after(tabulator) {
                break;
            }
        }
        results
    }
}

/// The cell of row-major index `index`.
fn compute_cell(
    args: &Args,
    template: &Template,
    axes: &[Axis],
    columns: u64,
    limits: BuildLimits,
    tabulator: &mut Tabulator,
    index: u64,
) -> Result<Cell, Failure> {
    let mut values = vec![axes[0].value(index / columns)];
    if let Some(axis) = axes.get(1) {
        values.push(axis.value(index % columns));
    }
    let source = template.instantiate(&values);
    let at = |what: String| format!("{what}\nin the cell {}", cell_name(axes, &values));
    let position = parse_with_limits(&source, args.limits.max_digits)
        .and_then(|sum| build_with(&sum, limits))
        .map_err(|e| relabel(Failure::language(&e, &source, Door::CommandLine), &at))?;
    if args.outcome {
        tabulator.outcome(&position).map(Cell::Outcome)
    } else {
        match tabulator.nimber(&position) {
            Ok(Some(nimber)) => Ok(Cell::Nimber(nimber)),
            Ok(None) => {
                return Err(Failure::input(format!(
                    "error: `{source}` has no nimber (misère play); tabulate who wins with --outcome"
                )));
            }
            Err(e) => Err(e),
        }
    }
    .map_err(|e| relabel(Failure::search(&e, Door::CommandLine), &at))
}

/// `x = 3, y = 5`.
fn cell_name(axes: &[Axis], values: &[BigInt]) -> String {
    axes.iter()
        .zip(values)
        .map(|(axis, value)| format!("{} = {value}", axis.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The same failure with the cell it happened in.
fn relabel(failure: Failure, at: &impl Fn(String) -> String) -> Failure {
    failure.reworded(at)
}

/// The patterns found ([`grundy::pattern`]), as sentences, each stating the
/// range it was checked on. Tables with a nimber beyond 32 bits or a variable
/// below 0 or beyond 64 bits are not searched.
fn patterns(table: &Table) -> Vec<String> {
    let Some(values) = table
        .cells
        .iter()
        .map(Cell::small)
        .collect::<Option<Vec<u32>>>()
    else {
        return Vec::new();
    };
    let Some(axes) = table
        .axes
        .iter()
        .map(|axis| {
            Some(grundy::pattern::Axis {
                name: &axis.name,
                first: u64::try_from(&axis.low).ok()?,
                count: axis.count,
            })
        })
        .collect::<Option<Vec<_>>>()
    else {
        return Vec::new();
    };
    grundy::pattern::table_patterns(&axes, &values)
}

fn write_text(table: &Table, patterns: &[String], out: &mut impl Write) -> io::Result<()> {
    let texts: Vec<String> = table.cells.iter().map(Cell::text).collect();
    match table.axes.as_slice() {
        [axis] => {
            let rows: Vec<String> = (0..texts.len() as u64)
                .map(|i| axis.value(i).to_string())
                .collect();
            let left = rows
                .iter()
                .map(String::len)
                .chain([axis.name.len()])
                .max()
                .unwrap_or(1);
            writeln!(out, "{:>left$}  {}", axis.name, table.measure())?;
            for (row, text) in rows.iter().zip(&texts) {
                writeln!(out, "{row:>left$}  {text}")?;
            }
        }
        [rows, columns] => {
            let column_names: Vec<String> = (0..columns.count)
                .map(|j| columns.value(j).to_string())
                .collect();
            let row_names: Vec<String> =
                (0..rows.count).map(|i| rows.value(i).to_string()).collect();
            let corner = format!("{}\\{}", rows.name, columns.name);
            let left = row_names
                .iter()
                .map(String::len)
                .chain([corner.len()])
                .max()
                .unwrap_or(1);
            let width = texts
                .iter()
                .chain(&column_names)
                .map(String::len)
                .max()
                .unwrap_or(1);
            write!(out, "{corner:>left$}")?;
            for name in &column_names {
                write!(out, " {name:>width$}")?;
            }
            writeln!(out)?;
            for (i, row) in texts.chunks(columns.count as usize).enumerate() {
                write!(out, "{:>left$}", row_names[i])?;
                for text in row {
                    write!(out, " {text:>width$}")?;
                }
                writeln!(out)?;
            }
        }
        _ => {}
    }
    if !patterns.is_empty() {
        writeln!(out)?;
        for pattern in patterns {
            writeln!(out, "pattern: {pattern}")?;
        }
    }
    Ok(())
}

fn write_csv(table: &Table, out: &mut impl Write) -> io::Result<()> {
    let columns = table.columns();
    let names: Vec<&str> = table.axes.iter().map(|a| a.name.as_str()).collect();
    writeln!(out, "{},{}", names.join(","), table.measure())?;
    for (index, cell) in table.cells.iter().enumerate() {
        let index = index as u64;
        let first = table.axes[0].value(index / columns);
        match table.axes.get(1) {
            Some(axis) => writeln!(
                out,
                "{first},{},{}",
                axis.value(index % columns),
                cell.text()
            )?,
            None => writeln!(out, "{first},{}", cell.text())?,
        }
    }
    Ok(())
}

/// The table as `table --json` prints it.
fn json_answer(args: &Args, table: &Table, patterns: &[String]) -> Value {
    let variables: Vec<Value> = table
        .axes
        .iter()
        .map(|axis| {
            let high = axis.value(axis.count - 1);
            json!({"name": axis.name, "from": big_json(&axis.low), "to": big_json(&high)})
        })
        .collect();
    let values: Vec<Value> = table.cells.iter().map(Cell::json).collect();
    let values = if table.axes.len() == 2 {
        Value::Array(
            values
                .chunks(table.columns() as usize)
                .map(|row| Value::Array(row.to_vec()))
                .collect(),
        )
    } else {
        Value::Array(values)
    };
    json!({
        "expression": args.expression,
        "variables": variables,
        "measure": table.measure(),
        "values": values,
        "complete": table.complete(),
        "patterns": patterns,
    })
}

fn big_json(n: &BigInt) -> Value {
    i64::try_from(n)
        .ok()
        .filter(|n| n.unsigned_abs() < 1 << 53)
        .map_or_else(|| json!(n.to_string()), |n| json!(n))
}

/// A progress bar on standard error, shown only on a terminal and once the
/// table has taken a second.
struct Bar {
    cells: u64,
    bar: DelayedBar,
}

impl Bar {
    /// The bar of a table of `cells`; none in a request of `grundy serve`.
    fn new(cells: u64, served: bool) -> Self {
        let mut bar = DelayedBar::new(
            "{bar:40} {pos}/{len} cells, {per_sec}, eta {eta} (Ctrl-C keeps the cells done)",
        );
        if served {
            bar.hide();
        }
        Self { cells, bar }
    }

    fn update(&mut self, done: u64) {
        if done.is_multiple_of(64) {
            self.bar.update(done, self.cells, "");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_read_or_refused_with_the_text() {
        let axis = parse_range("n=3..10").unwrap();
        assert_eq!((axis.name.as_str(), axis.count), ("n", 8));
        assert_eq!(axis.low, BigInt::from(3));
        let axis = parse_range(" x = -5 .. -5 ").unwrap();
        assert_eq!((axis.name.as_str(), axis.count), ("x", 1));
        let huge = parse_range("n=0..100000000000000000000000000").unwrap();
        assert_eq!(huge.count, u64::MAX);
        for bad in [
            "n", "n=3", "n=5..3", "=0..3", "N=0..3", "n=a..3", "n=0...3", "1n=0..3",
        ] {
            let Err(Failure::Input { message, .. }) = parse_range(bad) else {
                panic!("{bad} was read");
            };
            assert!(message.starts_with("error: `"), "{message}");
            assert!(message.contains(bad), "{message}");
        }
    }

    proptest::proptest! {
        /// Fuzz: any argument is a range or an `error:` naming it, never a panic.
        #[test]
        fn any_argument_is_a_range_or_an_error(text in "[a-z0-9=. _-]{0,24}") {
            match parse_range(&text) {
                Ok(axis) => proptest::prop_assert!(axis.count >= 1),
                Err(Failure::Input { message, .. }) => proptest::prop_assert!(message.starts_with("error: `")),
                Err(_) => proptest::prop_assert!(false, "not an input error"),
            }
        }
    }
}
