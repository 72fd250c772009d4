//! A second thread that fills the option rows of the next block of heaps while the
//! engine computes the values of the current one.
//!
//! A heap's value needs the values of all heaps before it, so the heaps cannot be
//! shared among threads; the work of each block can. The rows of block
//! `s + BLOCK..s + 2·BLOCK` need only values below `s` for the pairs `(r, m - r)` of
//! every rare heap `r >= 2·BLOCK` (the other half `s + BLOCK + k - j - r` is below
//! `s`), and likewise for the prefix of common pairs `(a, m - a)`, `2·BLOCK <= a`
//! (see [`Block`]). So they are filled while the heaps `s..s + BLOCK` are valued: a
//! pipeline of two stages. Officers has 1,583 rare heaps and, searched one candidate
//! at a time, a prefix of 960 pairs a heap; the two stages then take about as long
//! each. The pairs of the rare heaps below `2·BLOCK` and of those found since, and
//! the common pairs below `2·BLOCK`, go in heap by heap, as when one thread prepares
//! a block.
//!
//! Without the prefix (the one-pass search), the helper also fills the block after
//! next, `s + 2·BLOCK..s + 3·BLOCK`, from the same values below `s`: its rows hold the
//! pairs of the rare heaps `r >= 3·BLOCK`, and the engine adds those of the rare heaps
//! from `2·BLOCK` to `3·BLOCK` heap by heap. The blocks' costs vary (the engine's
//! with the search, the helper's hardly), and with two blocks in hand neither stage
//! waits for the other at each block (the engine's thread does less work on
//! Officers; docs/BENCHMARKS.md, "Figures behind the code's constants").
//!
//! The rows only speed the search up: a block prepared ahead for another width of
//! values or other rare lists (the masks were chosen anew meanwhile) is thrown away and
//! the block is prepared as one thread would. So the values are those of one thread,
//! whatever the number of threads.
//!
//! The helper reads the values below its job's heap while the engine appends after
//! them, in the same vector, shared through [`super::append_only`]: the engine
//! publishes each value once recorded, and the helper reads only published values.

use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, sync_channel};

use super::append_only::{Appender, append_shared};
use super::{BLOCK, Block, BlockFilling, SparseClass, TableEngine};
use crate::sequence::storage::StoredValue;

/// Times a thread looks at an empty channel before it sleeps, spinning for the first
/// [`SPINS`] and yielding its core after: waking a sleeping thread costs microseconds,
/// and a block takes some tens of them, but a spinning thread must not keep the other
/// from a core they share (more threads than free cores).
const LOOKS: u32 = 256;
const SPINS: u32 = 64;

/// Blocks the helper may fill ahead of the engine's: with two, a block that takes the
/// engine less time than the helper's does not make the engine wait. Only without
/// the prefix of common pairs: the pairs `(a, m - a)` from `a = 2·BLOCK` on need the
/// values of the block before, so the helper fills one block ahead when the search
/// goes one candidate at a time.
const DEPTH: usize = 2;

/// A block to fill: the heaps from `start` on, from the values below `known`.
struct Job {
    block: Block,
    start: usize,
    known: usize,
    value_bits: u32,
    generation: u64,
    prefix_to: usize,
    classes: ClassUpdate,
}

/// What changed in the masks and rare lists since the last job.
enum ClassUpdate {
    /// New rare heaps at the end of each class's list.
    Extend([Vec<u32>; 2]),
    /// The masks were chosen anew.
    Replace(Box<[SparseClass; 2]>),
}

/// A filled block and the pairs marked in it.
struct Filled {
    block: Block,
    pairs: super::Filled,
}

/// The engine's end of the pipeline.
pub(crate) struct RowsAhead {
    jobs: SyncSender<Job>,
    filled: Receiver<Filled>,
    /// Jobs sent whose blocks are not yet received.
    in_flight: usize,
    /// How many jobs may be in flight (see [`DEPTH`]).
    depth: usize,
    /// Blocks to send with the next jobs (the rows of the last blocks used).
    spare: Vec<Block>,
    /// The first heap of the block the last job sent asked for.
    next_start: usize,
    /// The generation and the lengths of the rare lists the helper has.
    sent: Option<(u64, [usize; 2])>,
}

/// Receives from `channel`, spinning a while before sleeping; `None` once the other
/// end is gone.
fn receive<M>(channel: &Receiver<M>) -> Option<M> {
    for look in 0..LOOKS {
        match channel.try_recv() {
            Ok(message) => return Some(message),
            Err(TryRecvError::Disconnected) => return None,
            Err(TryRecvError::Empty) if look < SPINS => std::hint::spin_loop(),
            Err(TryRecvError::Empty) => std::thread::yield_now(),
        }
    }
    channel.recv().ok()
}

/// Whether a run from `done` to `end` values is worth a helper thread: more than one
/// thread is allowed (the current rayon pool's size), the engine's blocks hold much
/// work (at least `LEAST_ROW_WORK` rare pairs a heap, or the prefixes of the common
/// pairs), and the run is long enough to pay for starting a thread. With little work a
/// block (0.16: 52 rare heaps), passing blocks between threads costs more than it saves.
pub(crate) fn pays(engine: &TableEngine, done: usize, end: usize) -> bool {
    const LEAST_RUN: usize = 4096;
    const LEAST_ROW_WORK: usize = 256;
    let rare_pairs: usize = (0..2)
        .filter(|&p| engine.classes[p].mask.is_some())
        .map(|p| engine.classes[p].rare.len() * engine.table.leave_two[p].len())
        .sum();
    rayon::current_num_threads() > 1
        && (rare_pairs >= LEAST_ROW_WORK || engine.prefix_on)
        && done >= 4 * BLOCK
        && end.saturating_sub(done) >= LEAST_RUN
}

/// Runs `work` with a helper thread filling blocks ahead for `engine`, the values being
/// appended to `g` (whose room must hold every value `work` appends) through an
/// [`Appender`] that publishes each value to the helper once recorded.
pub(crate) fn with_helper<T: StoredValue, R>(
    engine: &mut TableEngine,
    g: &mut Vec<T>,
    work: impl FnOnce(&mut TableEngine, &mut Appender<'_, T>, &mut RowsAhead) -> R,
) -> R {
    append_shared(g, |g, values| {
        let leave_two = engine.table.leave_two.clone();
        let unequal_split = engine.table.unequal_split;
        let isa = engine.isa;
        let (jobs, job_inbox) = sync_channel::<Job>(DEPTH);
        let (filled_outbox, filled) = sync_channel::<Filled>(DEPTH);
        std::thread::scope(|scope| {
            scope.spawn(move || {
                let mut classes: [SparseClass; 2] = Default::default();
                while let Some(mut job) = receive(&job_inbox) {
                    match job.classes {
                        ClassUpdate::Replace(new) => classes = *new,
                        ClassUpdate::Extend(new) => {
                            for (class, heaps) in classes.iter_mut().zip(new) {
                                class.rare.extend(heaps);
                            }
                        }
                    }
                    let g = values.below(job.known);
                    let filling = BlockFilling {
                        leave_two: &leave_two,
                        unequal_split,
                        classes: &classes,
                        value_bits: job.value_bits,
                        generation: job.generation,
                        isa,
                        prefix_to: job.prefix_to,
                    };
                    let pairs =
                        filling.fill(&mut job.block, g, job.start, BLOCK + job.start - job.known);
                    let done = Filled {
                        block: job.block,
                        pairs,
                    };
                    if filled_outbox.send(done).is_err() {
                        return;
                    }
                }
            });
            let mut ahead = RowsAhead {
                jobs,
                filled,
                in_flight: 0,
                depth: if engine.search == super::SearchMode::Candidates {
                    1
                } else {
                    DEPTH
                },
                spare: (0..DEPTH).map(|_| Block::default()).collect(),
                next_start: 0,
                sent: None,
            };
            let result = work(engine, g, &mut ahead);
            // Dropping the engine's end stops the helper; the scope waits for it.
            drop(ahead);
            result
        })
    })
}

impl RowsAhead {
    /// Makes the engine's block hold heap `g.len()`, the first heap of a block: the
    /// block filled ahead when it was filled for this heap and the engine's current
    /// value width and rare lists, else one filled now. Then sends the helper the next
    /// blocks to fill, up to [`DEPTH`] ahead.
    pub(super) fn next_block<T: StoredValue>(&mut self, engine: &mut TableEngine, g: &[T]) {
        let n = g.len();
        // The blocks come back in the order sent. One filled for other heaps, or for
        // other rare lists or another width of values, is of no use, and those sent
        // after it were sent in the same state: they are all taken back, and the jobs
        // start again from heap `n`.
        let wanted = Some((engine.value_bits, engine.generation));
        while self.in_flight > 0 {
            self.in_flight -= 1;
            let Some(mut filled) = receive(&self.filled) else {
                self.in_flight = 0;
                break;
            };
            let usable = filled.block.start == n && filled.block.prepared_for == wanted;
            if usable {
                std::mem::swap(&mut engine.block, &mut filled.block);
                engine.stats.register_pairs += filled.pairs.register_pairs;
                engine.stats.scanned_pairs += filled.pairs.prefix_pairs;
                engine.stats.blocks_filled_ahead += 1;
            }
            self.spare.push(filled.block);
            if usable {
                break;
            }
        }
        if !engine.block.holds(n, engine.value_bits, engine.generation) {
            engine.prepare_block(g);
        }
        if engine.block.len != BLOCK {
            return;
        }
        if self.in_flight == 0 {
            self.next_start = n;
        }
        while self.in_flight < self.depth {
            let Some(block) = self.spare.pop() else {
                return;
            };
            self.next_start += BLOCK;
            self.send(engine, block, n);
        }
    }

    /// Sends the helper `block` to fill for the heaps from `self.next_start`, from the
    /// values below `n`.
    fn send(&mut self, engine: &mut TableEngine, block: Block, n: usize) {
        let classes = match self.sent {
            Some((generation, lengths)) if generation == engine.generation => {
                ClassUpdate::Extend(std::array::from_fn(|p| {
                    engine.classes[p].rare[lengths[p]..].to_vec()
                }))
            }
            _ => ClassUpdate::Replace(Box::new(std::array::from_fn(|p| SparseClass {
                mask: engine.classes[p].mask,
                common_parity: engine.classes[p].common_parity,
                rare: engine.classes[p].rare.clone(),
                ..SparseClass::default()
            }))),
        };
        self.sent = Some((
            engine.generation,
            std::array::from_fn(|p| engine.classes[p].rare.len()),
        ));
        let start = self.next_start;
        let job = Job {
            block,
            start,
            known: n,
            value_bits: engine.value_bits,
            generation: engine.generation,
            prefix_to: engine.prefix_to(start),
            classes,
        };
        if self.jobs.send(job).is_ok() {
            self.in_flight += 1;
        }
    }
}
