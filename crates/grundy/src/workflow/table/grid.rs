//! The cells of a grid computed on the threads of the pool in force, each
//! thread with one [`Tabulator`] for all its cells.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use num_bigint::BigInt;

use super::{Cell, CellError, Computed, FailedCell, Grid, Measure, Progress};
use crate::sums::analysis::SolveOptions;
use crate::sums::position::Position;
use crate::sums::table::Tabulator;
use crate::theory::cancel::{self, Cancel};
use crate::theory::limits::SearchError;
use crate::workflow::Limits;

/// The position of a cell, given its index and its variables' values.
type Positions<'a, E> = dyn Fn(u64, &[BigInt]) -> Result<Position, E> + Sync + 'a;

/// How a cell ended.
enum Done<E> {
    /// With its answer.
    Cell(Cell),
    /// Failed.
    Failed(CellError<E>),
    /// Stopped by the signal its thread runs under.
    Cancelled,
}

impl Grid {
    /// Every cell, in row order, whose position `position` gives (from the
    /// cell's index and its variables' values), until done, a cell fails, or
    /// the signal in force on this thread is raised
    /// ([`crate::theory::cancel::current`]); `progress` is told after each cell.
    ///
    /// The cells are shared among the threads of the rayon pool in force
    /// (at most [`Limits::threads`]), each with its own graph of components
    /// and an equal share of [`Limits::states`] and [`Limits::bytes`]; the
    /// answer is the same whatever the threads. Each thread keeps one
    /// [`Tabulator`] for all its cells and takes the next cell in row order as
    /// it becomes free, so that its graph grows a little with each cell
    /// instead of being searched anew. The first thread (the caller's)
    /// begins alone, the pool's left free for the searches' own parallel
    /// work; the others take cells too once the cells prove dear and
    /// independent (`Pace`): a table whose cells share positions (a
    /// script's heaps, each needing the smaller ones) would have every
    /// thread search the same graph, and cheap cells gain less from threads
    /// than taking turns at the table costs. A failure stops the cells after
    /// it at once: the threads computing one are cancelled, and no later cell
    /// is started; the cells before it are finished, and may fail first.
    pub fn compute<E: Send>(
        &self,
        limits: &Limits,
        position: &Positions<'_, E>,
        progress: &dyn Progress,
    ) -> Computed<E> {
        let pool = rayon::current_num_threads().max(1);
        let threads = limits.threads.map_or(pool, |wanted| wanted.clamp(1, pool));
        let options = SolveOptions {
            winning_moves: false,
            max_states: (limits.states / threads).max(1),
            max_memory: (limits.bytes / threads as u64).max(1),
            ..limits.solve_options(0)
        };
        // Each thread's cells run under a signal of its own, made from the caller's.
        let base = cancel::current().unwrap_or_default();
        let work = Cells {
            grid: self,
            position,
            progress,
            next: AtomicU64::new(0),
            first_failure: AtomicU64::new(u64::MAX),
            threads: (0..threads)
                .map(|_| (AtomicU64::new(0), base.child()))
                .collect(),
            done: AtomicU64::new(0),
        };
        let shares = if threads == 1 {
            let mut tabulator = Tabulator::new(options);
            vec![work.take(0, &mut tabulator, |_| true)]
        } else {
            work.shared(threads, &options)
        };
        merge(self, shares)
    }
}

/// The threads' cells merged in row order, up to the first failure, the
/// first cell cancelled, or the first cell not done (the work was stopped; a
/// cell left out after a failure).
fn merge<E>(grid: &Grid, shares: Vec<Vec<(u64, Done<E>)>>) -> Computed<E> {
    let mut shares: Vec<_> = shares
        .into_iter()
        .map(|share| share.into_iter().peekable())
        .collect();
    let mut heads: BinaryHeap<Reverse<(u64, usize)>> = shares
        .iter_mut()
        .enumerate()
        .filter_map(|(thread, share)| share.peek().map(|&(index, _)| Reverse((index, thread))))
        .collect();
    let mut computed = Computed {
        cells: Vec::new(),
        failed: None,
        stopped: false,
    };
    while let Some(Reverse((index, thread))) = heads.pop() {
        let share = &mut shares[thread];
        match share.next() {
            Some((_, Done::Cell(cell))) if index == computed.cells.len() as u64 => {
                computed.cells.push(cell);
            }
            Some((_, Done::Failed(error))) if index == computed.cells.len() as u64 => {
                computed.failed = Some(FailedCell {
                    index,
                    values: grid.values(index),
                    error,
                });
                return computed;
            }
            _ => break,
        }
        if let Some(&(next, _)) = share.peek() {
            heads.push(Reverse((next, thread)));
        }
    }
    computed.stopped = (computed.cells.len() as u64) < grid.cells();
    computed
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

/// The cells of a grid as the threads take them.
struct Cells<'a, E> {
    grid: &'a Grid,
    position: &'a Positions<'a, E>,
    progress: &'a dyn Progress,
    /// The next cell to take, in row order.
    next: AtomicU64,
    /// The first cell (in row order) found to fail: no cell after it is started,
    /// and those running are cancelled.
    first_failure: AtomicU64,
    /// For each thread, the cell it is computing (or computed last) and the
    /// signal its cells run under.
    threads: Vec<(AtomicU64, Cancel)>,
    /// The cells done, by all threads.
    done: AtomicU64,
}

impl<E: Send> Cells<'_, E> {
    /// The cells taken by `threads` threads: this one first, alone, then the
    /// pool's, spawned when the cells prove worth sharing.
    fn shared(&self, threads: usize, options: &SolveOptions) -> Vec<Vec<(u64, Done<E>)>> {
        let helpers = Mutex::new(Vec::new());
        let helpers_ref = &helpers;
        let first = rayon::in_place_scope(|scope| {
            let mut tabulator = Tabulator::new(options.clone());
            let mut pace = Some(Pace::new());
            self.threads[0].1.run(|| {
                self.take(0, &mut tabulator, |tabulator| {
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
                            let taken = self.threads[thread].1.run(|| {
                                self.take(thread, &mut tabulator, |tabulator| {
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
    }

    /// The cells that thread `thread` takes, one after another, with one
    /// tabulator, until none is left, a cell before the next one failed, the
    /// signal is raised, or `after` (told the tabulator after each cell) says
    /// to stop. A cell that fails after the first failure (cancelled, or
    /// failing by itself) is left out: it is never the one reported.
    fn take(
        &self,
        thread: usize,
        tabulator: &mut Tabulator,
        mut after: impl FnMut(&Tabulator) -> bool,
    ) -> Vec<(u64, Done<E>)> {
        let mut results = Vec::new();
        let total = self.grid.cells();
        while !cancel::stop_requested() {
            let index = self.next.fetch_add(1, Ordering::SeqCst);
            if index >= total {
                break;
            }
            // Published before the failure is read: a thread failing at a smaller
            // index either is seen here or sees this cell and cancels it.
            self.threads[thread].0.store(index, Ordering::SeqCst);
            if index > self.first_failure.load(Ordering::SeqCst) {
                break;
            }
            let cell = self.cell(tabulator, index);
            let stop = match &cell {
                Done::Cell(_) => false,
                Done::Cancelled => true,
                Done::Failed(_) => {
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
                    false
                }
            };
            let finished = self.done.fetch_add(1, Ordering::Relaxed) + 1;
            self.progress.cells_done(finished, total);
            results.push((index, cell));
            if stop || !after(tabulator) {
                break;
            }
        }
        results
    }

    /// The cell of index `index`.
    fn cell(&self, tabulator: &mut Tabulator, index: u64) -> Done<E> {
        let values = self.grid.values(index);
        let position = match (self.position)(index, &values) {
            Ok(position) => position,
            // Its error may only say that the work was stopped.
            Err(_) if cancel::current().is_some_and(|signal| signal.is_cancelled()) => {
                return Done::Cancelled;
            }
            Err(error) => return Done::Failed(CellError::Position(error)),
        };
        let answer = match self.grid.measure() {
            Measure::Outcome => tabulator.outcome(&position).map(Cell::Outcome),
            Measure::Nimber => match tabulator.infinite_value(&position) {
                Ok(Some(value)) => Ok(Cell::Infinite(value)),
                Ok(None) => match tabulator.nimber(&position) {
                    Ok(Some(nimber)) => Ok(Cell::Nimber(nimber)),
                    Ok(None) => return Done::Failed(CellError::NoNimber(position)),
                    Err(error) => Err(error),
                },
                Err(error) => Err(error),
            },
        };
        match answer {
            Ok(cell) => Done::Cell(cell),
            Err(SearchError::Cancelled) => Done::Cancelled,
            Err(error) => Done::Failed(CellError::Search(error)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Axis;
    use super::*;
    use crate::catalogue::build;
    use crate::lang::parse;
    use crate::workflow::Door;

    fn grid() -> Grid {
        let axes = vec![
            Axis::parse("x=0..29").unwrap(),
            Axis::parse("y=0..29").unwrap(),
        ];
        Grid::new(axes, Measure::Nimber, 10_000, Door::CommandLine).unwrap()
    }

    fn position(_: u64, values: &[BigInt]) -> Result<Position, String> {
        let text = format!("wythoff({}, {}) + nim({})", values[0], values[1], values[0]);
        build(&parse(&text).map_err(|e| e.message)?).map_err(|e| e.message)
    }

    #[test]
    fn any_number_of_threads_gives_the_same_cells() {
        let one = Limits {
            threads: Some(1),
            ..Limits::default()
        };
        let alone = grid().compute(&one, &position, &());
        assert!(alone.failed.is_none() && !alone.stopped);
        assert_eq!(alone.cells.len(), 900);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let shared = pool.install(|| grid().compute(&Limits::default(), &position, &()));
        assert_eq!(shared.cells, alone.cells);
    }

    #[test]
    fn the_first_failing_cell_is_reported_after_the_cells_before_it() {
        let failing = |index: u64, values: &[BigInt]| {
            if index >= 417 {
                Err(format!("no cell {index}"))
            } else {
                position(index, values)
            }
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let computed = pool.install(|| grid().compute(&Limits::default(), &failing, &()));
        assert_eq!(computed.cells.len(), 417);
        let failed = computed.failed.unwrap();
        assert_eq!(failed.index, 417);
        assert_eq!(failed.values, vec![BigInt::from(13), BigInt::from(27)]);
        assert!(matches!(failed.error, CellError::Position(message) if message == "no cell 417"));
    }
}
