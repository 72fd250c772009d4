//! Grundy sequences of heap games: the values `G(0), G(1), ..., G(N)`, their period and
//! preperiod, proofs of periodicity, and values of arbitrarily large heaps.
//!
//! ```
//! use grundy::rules::HeapRule;
//! use grundy::sequence::{find_periodicity, grundy_values};
//!
//! let dawson = HeapRule::dawsons_kayles();
//! let values = grundy_values(&dawson, 200);
//! assert_eq!(&values.to_vec()[..7], &[0, 0, 1, 1, 2, 0, 3]);
//! let periodicity = find_periodicity(&dawson, &values).unwrap();
//! assert_eq!((periodicity.period, periodicity.preperiod), (34, 53));
//! assert!(periodicity.proven()); // by the Guy-Smith theorem
//! ```
//!
//! Two methods compute the values ([`Method`]): the plain mex over every option, and the
//! fast one: the proven closed form for Nim, Lasker's Nim and Rest Nim (one formula per
//! heap), otherwise the sparse-space method (module `engine`), which gives the same values
//! faster for take-and-break games whose values fall into a sparse space.
//!
//! Some rules cost more than linear time or memory (a hexadecimal code leaving three
//! heaps keeps a set of two-heap values for every heap); [`CostModel`] estimates the cost
//! of a range before it is computed, so that callers can refuse what would not fit.

mod arithmetic;
mod automaton;
pub(crate) mod bounded;
mod check;
mod cost;
mod engine;
pub(crate) mod estimate;
mod file;
mod periodicity;
mod runs;
mod simd;
mod storage;

use crate::theory::cancel::stop_requested;
use std::ops::{ControlFlow, Range};

use crate::rules::HeapRule;

pub use check::check_file_path;
pub use cost::{Cost, CostModel};
pub use engine::EngineStats;
pub use file::{
    FileError, FileFormat, SequenceFile, check_rule_of_file, compute_into_file, read_values,
    save_to_file, write_values,
};
pub use periodicity::{
    Periodicity, Proof, ValueError, certification_length, closed_form_value, find_periodicity,
    find_unproven_periodicity, until_proven,
};
pub use simd::{Kernel, KernelError};
pub use storage::GrundyValues;

use engine::Engine;
use engine::append_only::Appender;
use storage::{Store, StoredValue};

/// How the values are computed. Both give the same values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// The mex of every option of every heap: the reference.
    PlainMex,
    /// The fast method: a proven closed form where the rule has one (Nim, Lasker's Nim,
    /// Rest Nim; see [`closed_form_value`]), otherwise sparse space for the moves that
    /// leave two heaps and plain mex for the rest.
    #[default]
    SparseSpace,
}

/// Progress of a computation, reported to the caller's callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Values computed so far (heaps `0..done`).
    pub done: usize,
    /// Values wanted in all.
    pub total: usize,
}

/// The computation stopped before the last heap asked for: the caller's progress
/// callback stopped it, or it could not go on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("computation stopped after {done} values: {cause}")]
pub struct Interrupted {
    /// Values computed before stopping; they are kept, and right.
    pub done: usize,
    /// Why it stopped.
    pub cause: StopCause,
}

/// Why a computation stopped early (see [`Interrupted`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum StopCause {
    /// The progress callback returned `ControlFlow::Break(())`.
    #[error("the progress callback stopped it")]
    Callback,
    /// The work on this thread was cancelled ([`crate::theory::cancel`]).
    #[error("it was cancelled, or ran out of time")]
    Cancelled,
    /// The next value does not fit in 32 bits, the width values are stored in.
    #[error("the next value does not fit in 32 bits")]
    ValueTooLarge,
    /// Memory for the values or the engine's tables could not be allocated. The
    /// solver is as it was before the heap that needed it: it may be extended again.
    #[error(transparent)]
    OutOfMemory(#[from] OutOfMemory),
}

/// An allocation the computation needed was refused (by the system, or by a limit on
/// the process's memory such as `ulimit -v`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("an allocation of {bytes} bytes failed")]
pub struct OutOfMemory {
    /// The size of the allocation refused, in bytes.
    pub bytes: usize,
}

impl OutOfMemory {
    /// The failure to allocate room for `count` values of type `T`.
    pub(crate) fn of<T>(count: usize) -> Self {
        Self {
            bytes: count.saturating_mul(std::mem::size_of::<T>()),
        }
    }
}

/// How many values are computed between two progress reports.
const PROGRESS_CHUNK: usize = 1 << 16;

/// Computes the Grundy sequence of a heap rule incrementally.
///
/// ```
/// use grundy::rules::HeapRule;
/// use grundy::sequence::{Method, SequenceSolver};
///
/// let mut solver = SequenceSolver::new(HeapRule::kayles(), Method::SparseSpace);
/// solver.extend_to(10);
/// assert_eq!(solver.values().to_vec(), [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2]);
/// solver.extend_to(100); // continues where it stopped
/// assert_eq!(solver.values().len(), 101);
/// ```
#[derive(Debug, Clone)]
pub struct SequenceSolver {
    rule: HeapRule,
    values: GrundyValues,
    engine: Engine,
    /// The values come from the rule's closed form, not from the engine.
    by_formula: bool,
    /// The instructions the engine computes with.
    kernel: Kernel,
}

impl SequenceSolver {
    /// A solver with no value computed yet, computing with the fastest kernel this
    /// machine runs ([`Kernel::auto`]; see [`Self::with_kernel`]).
    pub fn new(rule: HeapRule, method: Method) -> Self {
        let kernel = Kernel::auto();
        let engine = Engine::new(&rule, method == Method::SparseSpace, kernel.isa());
        let by_formula = method == Method::SparseSpace && closed_form_value(&rule, 0).is_some();
        Self {
            rule,
            values: GrundyValues::new(),
            engine,
            by_formula,
            kernel,
        }
    }

    /// The same solver computing from now on with `kernel` (plain Rust, or the vector
    /// instructions it names): the values are the same whatever the kernel; only the
    /// speed differs.
    #[must_use]
    pub fn with_kernel(mut self, kernel: Kernel) -> Self {
        self.engine.set_isa(kernel.isa());
        self.kernel = kernel;
        self
    }

    /// The kernel the engine computes with.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// Whether the values come from a proven closed form rather than the engine.
    pub fn uses_closed_form(&self) -> bool {
        self.by_formula
    }

    /// A solver continuing from values computed earlier (e.g. read from a file), every
    /// one of them checked: each value is recomputed from the values before it and
    /// compared, in the same pass that rebuilds the engine's state. That costs as much
    /// as computing the values again; [`compute_into_file`] checks the values of its
    /// files by their check file instead, and recomputes only what it does not cover.
    ///
    /// # Errors
    /// A [`ResumeError`] naming the first heap whose stored value is not the rule's.
    pub fn resume(
        rule: HeapRule,
        method: Method,
        values: GrundyValues,
    ) -> Result<Self, ResumeError> {
        let everything = [Range {
            start: 0,
            end: values.len(),
        }];
        let mut never_stop = |_: Progress| ControlFlow::Continue(());
        let kernel = Kernel::auto();
        match Self::resume_checking(rule, method, kernel, values, &everything, &mut never_stop) {
            Ok(solver) => Ok(solver),
            Err(ResumeStop::Wrong(error)) => Err(error),
            Err(ResumeStop::Interrupted) => unreachable!("the callback never stops"),
            Err(ResumeStop::OutOfMemory(error)) => {
                // `resume` has no way to report it: it aborts, as every allocation
                // failure does outside the engine. (`SequenceFile::open`, which the
                // command line uses, reports it.)
                let layout = std::alloc::Layout::array::<u8>(error.bytes)
                    .unwrap_or_else(|_| std::alloc::Layout::new::<u8>());
                std::alloc::handle_alloc_error(layout)
            }
        }
    }

    /// A solver continuing from `values`, of which those of the heaps in `recompute`
    /// (sorted, disjoint ranges) are recomputed from the values before them and
    /// compared; the others are trusted (a check file vouches for them). `progress` is
    /// called every 65536 heaps, and may stop the check.
    ///
    /// A value the closed form gives is always compared: that costs next to nothing.
    pub(crate) fn resume_checking(
        rule: HeapRule,
        method: Method,
        kernel: Kernel,
        values: GrundyValues,
        recompute: &[Range<usize>],
        progress: &mut dyn FnMut(Progress) -> ControlFlow<()>,
    ) -> Result<Self, ResumeStop> {
        let mut solver = Self::new(rule, method).with_kernel(kernel);
        if solver.by_formula {
            for (heap, stored) in values.iter().enumerate() {
                let computed = closed_form_value(&solver.rule, heap as u64)
                    .and_then(|value| u32::try_from(value).ok());
                if computed != Some(stored) {
                    return Err(ResumeStop::Wrong(ResumeError {
                        heap,
                        stored,
                        computed,
                    }));
                }
            }
            solver.values = values;
            return Ok(solver);
        }
        // Rest Nim's engine builds its state only while it computes (it records nothing):
        // every value is recomputed, and so checked.
        let everything;
        let recompute = if matches!(solver.engine, Engine::RestNim(_)) {
            everything = [Range {
                start: 0,
                end: values.len(),
            }];
            &everything[..]
        } else {
            recompute
        };
        let engine = &mut solver.engine;
        match &values.store {
            Store::Narrow(g) => replay_checking(engine, g, recompute, progress),
            Store::Medium(g) => replay_checking(engine, g, recompute, progress),
            Store::Wide(g) => replay_checking(engine, g, recompute, progress),
        }?;
        solver.values = values;
        Ok(solver)
    }

    /// The same solver with the common pairs searched by `mode` (tests compare them).
    #[cfg(test)]
    pub(crate) fn with_search(mut self, mode: engine::SearchMode) -> Self {
        self.engine.set_search(mode);
        self
    }

    /// Bytes held by the engine's mirror of the values (tests of the memory bound).
    #[cfg(test)]
    pub(crate) fn engine_mirror_bytes(&self) -> usize {
        self.engine.mirror_bytes()
    }

    /// The same solver with a mirror of only `window` values (tests of the searches
    /// that reach past it).
    #[cfg(test)]
    pub(crate) fn with_mirror_window(mut self, window: usize) -> Self {
        self.engine.set_mirror_window(window);
        self
    }

    /// The rule whose values are computed.
    pub fn rule(&self) -> &HeapRule {
        &self.rule
    }

    /// The values computed so far.
    pub fn values(&self) -> &GrundyValues {
        &self.values
    }

    /// The values computed so far, consuming the solver.
    pub fn into_values(self) -> GrundyValues {
        self.values
    }

    /// Counters of the engine's work (rare heaps, masks, searches).
    pub fn stats(&self) -> EngineStats {
        self.engine.stats()
    }

    /// Computes the values of every heap up to `last_heap`, or as far as memory allows
    /// (see [`Self::extend_to_with_progress`] to learn why it stopped short).
    pub fn extend_to(&mut self, last_heap: usize) {
        let mut never_stop = |_: Progress| ControlFlow::Continue(());
        // The callback never breaks, so the computation cannot be interrupted.
        let _ = self.extend_to_with_progress(last_heap, &mut never_stop);
    }

    /// Computes the values of every heap up to `last_heap`, calling `progress` every
    /// 65536 values and at the end; the callback may stop the computation by returning
    /// `ControlFlow::Break(())`, which keeps every value computed so far.
    ///
    /// # Errors
    /// [`Interrupted`], with every value computed so far kept, when the callback stops
    /// the computation, when memory for the values or the engine's tables cannot be
    /// allocated ([`StopCause::OutOfMemory`]: the allocations are fallible, so running
    /// out of memory is an error, not an abort), or when a value does not fit in the 32
    /// bits values are stored in (a closed form, from heap 4294967295 on).
    pub fn extend_to_with_progress(
        &mut self,
        last_heap: usize,
        progress: &mut dyn FnMut(Progress) -> ControlFlow<()>,
    ) -> Result<(), Interrupted> {
        self.extend_with_callback(last_heap, &mut |_, report| progress(report))
    }

    /// Like [`Self::extend_to_with_progress`], the callback also seeing the values.
    pub(crate) fn extend_with_callback(
        &mut self,
        last_heap: usize,
        callback: &mut dyn FnMut(&GrundyValues, Progress) -> ControlFlow<()>,
    ) -> Result<(), Interrupted> {
        let total = last_heap.saturating_add(1);
        if self.values.len() >= total {
            return Ok(());
        }
        let stopped = |done, cause| Err(Interrupted { done, cause });
        while self.values.len() < total {
            let chunk_end = total.min(self.values.len() + PROGRESS_CHUNK);
            // Grow chunk by chunk: a huge `last_heap` fails when memory runs out, not
            // up front, and the values computed so far are kept.
            let done = self.values.len();
            if let Err(error) = reserve_values(&mut self.values, chunk_end - done) {
                return stopped(done, error.into());
            }
            if self.by_formula {
                for heap in self.values.len()..chunk_end {
                    let value = closed_form_value(&self.rule, heap as u64)
                        .and_then(|value| u32::try_from(value).ok());
                    let Some(value) = value else {
                        return stopped(heap, StopCause::ValueTooLarge);
                    };
                    if let Err(error) = push_widening(&mut self.values, value, chunk_end - heap) {
                        return stopped(heap, error.into());
                    }
                }
            }
            while self.values.len() < chunk_end {
                let end = match &mut self.values.store {
                    Store::Narrow(v) => run(&mut self.engine, v, chunk_end),
                    Store::Medium(v) => run(&mut self.engine, v, chunk_end),
                    Store::Wide(v) => run(&mut self.engine, v, chunk_end),
                };
                self.values.note_max(end.max);
                match end.stop {
                    RunStop::Done => {}
                    RunStop::OutOfMemory(error) => {
                        return stopped(self.values.len(), error.into());
                    }
                    RunStop::Cancelled => {
                        return stopped(self.values.len(), StopCause::Cancelled);
                    }
                    RunStop::TooWide(value) => {
                        let heap = self.values.len();
                        if let Err(error) = push_widening(&mut self.values, value, chunk_end - heap)
                        {
                            return stopped(heap, error.into());
                        }
                        let recorded = match &self.values.store {
                            Store::Narrow(v) => self.engine.record(v),
                            Store::Medium(v) => self.engine.record(v),
                            Store::Wide(v) => self.engine.record(v),
                        };
                        if let Err(error) = recorded {
                            self.values.truncate(heap);
                            return stopped(heap, error.into());
                        }
                    }
                }
            }
            let done = self.values.len();
            if callback(&self.values, Progress { done, total }).is_break() && done < total {
                return stopped(done, StopCause::Callback);
            }
        }
        Ok(())
    }
}

/// Makes room for `additional` more values, or says which allocation failed.
fn reserve_values(values: &mut GrundyValues, additional: usize) -> Result<(), OutOfMemory> {
    fn reserve<C>(cells: &mut Vec<C>, additional: usize) -> Result<(), OutOfMemory> {
        cells
            .try_reserve_exact(additional)
            .map_err(|_| OutOfMemory::of::<C>(cells.len().saturating_add(additional)))
    }
    match &mut values.store {
        Store::Narrow(v) => reserve(v, additional),
        Store::Medium(v) => reserve(v, additional),
        Store::Wide(v) => reserve(v, additional),
    }
}

/// Appends `value`, first widening the storage (fallibly) when it does not fit, with
/// room for `room` values in all from this one on.
///
/// (`GrundyValues::push` widens by itself, but infallibly and with no room to spare,
/// so that the next push doubles the new storage.)
fn push_widening(values: &mut GrundyValues, value: u32, room: usize) -> Result<(), OutOfMemory> {
    fn widened<C>(
        old: impl ExactSizeIterator<Item = C>,
        room: usize,
    ) -> Result<Vec<C>, OutOfMemory> {
        let capacity = old.len().saturating_add(room.max(1));
        let mut cells = Vec::new();
        cells
            .try_reserve_exact(capacity)
            .map_err(|_| OutOfMemory::of::<C>(capacity))?;
        cells.extend(old);
        Ok(cells)
    }
    let store = match &values.store {
        Store::Narrow(v) if value > u32::from(u16::MAX) => {
            Some(Store::Wide(widened(v.iter().map(|&x| u32::from(x)), room)?))
        }
        Store::Narrow(v) if value > u32::from(u8::MAX) => Some(Store::Medium(widened(
            v.iter().map(|&x| u16::from(x)),
            room,
        )?)),
        Store::Medium(v) if value > u32::from(u16::MAX) => {
            Some(Store::Wide(widened(v.iter().map(|&x| u32::from(x)), room)?))
        }
        _ => None,
    };
    if let Some(store) = store {
        values.store = store;
    }
    values.push(value);
    Ok(())
}

/// How a [`run`] ended.
struct RunEnd {
    /// Why it stopped.
    stop: RunStop,
    /// The largest value stored by the run.
    max: u32,
}

enum RunStop {
    /// Every value asked for is stored.
    Done,
    /// A value too large for the current storage, not yet stored.
    TooWide(u32),
    /// The engine could not record the next value (which is not stored).
    OutOfMemory(OutOfMemory),
    /// The work was cancelled ([`crate::theory::cancel`]); every value is stored.
    Cancelled,
}

/// Computes values into `g` until it holds `end` values or a value does not fit; `g`
/// has room for them. With a second thread filling the engine's blocks ahead where that
/// pays (see [`engine::with_helper`]): the values are the same.
fn run<T: StoredValue>(engine: &mut Engine, g: &mut Vec<T>, end: usize) -> RunEnd {
    if g.capacity() >= end
        && let Some(table) = engine.helped(g.len(), end)
    {
        return engine::with_helper(table, g, |table, g, ahead| {
            run_with(
                g,
                end,
                &mut (table, ahead),
                |(table, ahead), g| table.step_ahead(g, ahead),
                |(table, _), g| table.record(g),
            )
        });
    }
    run_with(g, end, engine, |engine, g| engine.step(g), Engine::record)
}

/// Where a [`run`] appends its values: a vector, or one shared with the
/// engine's helper thread ([`Appender`]), which sees each value once it is
/// recorded (`commit`).
trait Appending<T> {
    fn values(&self) -> &[T];
    fn push(&mut self, value: T);
    fn pop(&mut self);
    fn commit(&mut self) {}
}

impl<T> Appending<T> for Vec<T> {
    fn values(&self) -> &[T] {
        self
    }

    fn push(&mut self, value: T) {
        Self::push(self, value);
    }

    fn pop(&mut self) {
        Self::pop(self);
    }
}

impl<T: Copy> Appending<T> for Appender<'_, T> {
    fn values(&self) -> &[T] {
        self.as_slice()
    }

    fn push(&mut self, value: T) {
        Self::push(self, value);
    }

    fn pop(&mut self) {
        Self::pop(self);
    }

    fn commit(&mut self) {
        self.publish();
    }
}

/// [`run`] by the given steps of `engine`: `step` computes the value of heap `g.len()`,
/// `record` takes it in once appended.
#[inline(always)]
fn run_with<T: StoredValue, E>(
    g: &mut impl Appending<T>,
    end: usize,
    engine: &mut E,
    step: impl Fn(&mut E, &[T]) -> u32,
    record: impl Fn(&mut E, &[T]) -> Result<(), OutOfMemory>,
) -> RunEnd {
    let limit = if std::mem::size_of::<T>() >= 4 {
        u32::MAX
    } else {
        (1u32 << (8 * std::mem::size_of::<T>())) - 1
    };
    /// Heaps computed between two looks at the cancellation signal: a heap
    /// costs from nanoseconds to, for rules without sparse space at heaps of
    /// 10^5 and more, a millisecond.
    const CANCEL_EVERY: usize = 8;
    let mut max = 0;
    while g.values().len() < end {
        if g.values().len().is_multiple_of(CANCEL_EVERY) && stop_requested() {
            return RunEnd {
                stop: RunStop::Cancelled,
                max,
            };
        }
        let value = step(engine, g.values());
        if value > limit {
            return RunEnd {
                stop: RunStop::TooWide(value),
                max,
            };
        }
        g.push(T::narrow(value));
        if let Err(error) = record(engine, g.values()) {
            g.pop();
            return RunEnd {
                stop: RunStop::OutOfMemory(error),
                max,
            };
        }
        g.commit();
        max = max.max(value);
    }
    RunEnd {
        stop: RunStop::Done,
        max,
    }
}

/// Rebuilds the engine's state from the values `g`, as if it had computed them: the
/// values of the heaps in `recompute` are computed from the values before them and
/// compared first (before the engine takes them in, so that a huge wrong value never
/// sizes its tables).
fn replay_checking<T: StoredValue>(
    engine: &mut Engine,
    g: &[T],
    recompute: &[Range<usize>],
    progress: &mut dyn FnMut(Progress) -> ControlFlow<()>,
) -> Result<(), ResumeStop> {
    let mut ranges = recompute.iter().peekable();
    for heap in 0..g.len() {
        while ranges.next_if(|range| range.end <= heap).is_some() {}
        if ranges.peek().is_some_and(|range| range.contains(&heap)) {
            let computed = engine.step(&g[..heap]);
            let stored = g[heap].get();
            if computed != stored {
                return Err(ResumeStop::Wrong(ResumeError {
                    heap,
                    stored,
                    computed: Some(computed),
                }));
            }
        }
        engine
            .record(&g[..=heap])
            .map_err(ResumeStop::OutOfMemory)?;
        if (heap + 1) % PROGRESS_CHUNK == 0 {
            let report = Progress {
                done: heap + 1,
                total: g.len(),
            };
            if progress(report).is_break() {
                return Err(ResumeStop::Interrupted);
            }
        }
    }
    Ok(())
}

/// Why resuming from stored values stopped.
#[derive(Debug)]
pub(crate) enum ResumeStop {
    /// A stored value is not the rule's.
    Wrong(ResumeError),
    /// The progress callback stopped the check.
    Interrupted,
    /// The engine's tables for the stored values could not be allocated.
    OutOfMemory(OutOfMemory),
}

/// A stored value is not the rule's value of its heap, given the values before it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("heap {heap} is stored as {stored}, but the rule gives {}", match computed {
    Some(value) => format!("{value} (from the values before it)"),
    None => "no value that fits in 32 bits".to_owned(),
})]
pub struct ResumeError {
    /// The first heap whose value is wrong.
    pub heap: usize,
    /// The value stored.
    pub stored: u32,
    /// The value the rule gives, from the stored values before it (`None` when it does
    /// not fit in 32 bits).
    pub computed: Option<u32>,
}

/// The values of heaps `0..=last_heap` by the default method.
pub fn grundy_values(rule: &HeapRule, last_heap: usize) -> GrundyValues {
    let mut solver = SequenceSolver::new(rule.clone(), Method::default());
    solver.extend_to(last_heap);
    solver.into_values()
}

#[cfg(test)]
mod tests;
