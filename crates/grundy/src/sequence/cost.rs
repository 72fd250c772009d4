//! What computing a Grundy sequence will cost, estimated before computing it.
//!
//! Most rules cost linear memory (the values, and for splitting rules a mirrored copy of
//! them) and close to linear time. Three kinds cost more, and are what [`CostModel`]
//! is for:
//!
//! - **Codes leaving three heaps** (a hexadecimal digit with bit 8, e.g. `0.8`, `0.FF`):
//!   the engine keeps, for every heap `m`, the set of values of its two-heap splits as a
//!   bit set as wide as the values so far (`V(m)` bits), and computing heap `n` reads the
//!   sets of all smaller heaps. Memory `Σ V(m) / 8` bytes, time `Σ_n Σ_{m<n} V(m) / 64`
//!   word steps per move: quadratic and cubic when the values grow linearly, as they do
//!   for `0.8` (`n / 3`) and `0.FF` (`n`). A run of moves removing consecutive numbers of
//!   tokens (`0.FFFF...`) costs about two moves, whatever its length (module `runs`).
//! - **Rest Nim by its rules** (the plain method): the set of values of the partitions
//!   of every heap, `n / 8` bytes each, and about `n² / 4` steps per heap.
//! - **Splitting moves computed plainly** (the plain method, or Lasker's Nim by its
//!   rules): every split of every heap, `m / 2` steps per heap and splitting move.
//!
//! The sparse-space method is counted as linear: it is while the space stays sparse
//! (what the method is for); when no mask pays it falls back to the plain scan, which
//! this model does not foresee.
//!
//! Values beyond the ones computed are *predicted*, for they size most of the memory:
//! the values themselves (1, 2 or 4 bytes each) and the engine's tables indexed by value
//! (for a largest value below `2^b`, with `S = 2^b`: counts of each value, `4S` bytes,
//! for moves by an all-but set; a histogram of extended values and its Walsh-Hadamard
//! transform, `32S` bytes, for choosing the sparse-space masks; a row of option marks,
//! `S` bytes or 32 rows of them while they are short). Two kinds of growth:
//!
//! - **Linear**: closed forms (exact), all-but sets (arithmetic-periodic: G grows by a
//!   saltus every period), codes leaving three heaps, and the rules by the plain method
//!   that keep counts by value. The growth of the largest value over the second half of
//!   the computed prefix, continued linearly: accurate for these (`all_but[15]`: 513 at
//!   heap 1023, 50005 at heap 10^5).
//! - **Slow**: the other codes and subtraction sets, whose values stay bounded or grow
//!   far slower than the heaps. Continuing their early growth linearly would predict
//!   thousands of times too much; instead the values are taken to stay below
//!   [`SLOW_GROWTH`] times the largest of the computed prefix (1024 values are enough).
//!
//! The model counts what the engine holds at its peak, not the process around it (the
//! program itself, output buffers); a caller limiting a whole process adds that. Not
//! counted: the rare-heap lists of sparse space (a few thousand heaps for the codes it
//! suits), and the transient copies of the values when their storage widens from 1 to 2
//! or 2 to 4 bytes (it does so at heaps where the values first reach 256 or 65536,
//! while they are few).
//!
//! A step is one inner-loop iteration (a split looked at, or a 64-bit word of a value
//! set read); about 10^8 of them take a second (docs/BENCHMARKS.md, "Figures
//! behind the code's constants").

use super::engine::option_rows_bytes;
use super::runs::MoveRuns;
use super::storage::MIRROR_WINDOW;
use super::{GrundyValues, Method, closed_form_value};
use crate::rules::HeapRule;
use crate::rules::octal::{LEAVE_THREE, LEAVE_TWO};

/// An estimated cost, or a budget: bytes of memory at the peak, and steps of work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cost {
    /// Bytes of memory.
    pub bytes: u64,
    /// Inner-loop steps (see the module documentation).
    pub steps: u64,
}

impl Cost {
    /// Whether `self` stays within `budget` in both memory and work.
    #[must_use]
    pub const fn within(&self, budget: &Self) -> bool {
        self.bytes <= budget.bytes && self.steps <= budget.steps
    }
}

/// How a rule's values are computed, as far as cost goes.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// One formula per heap; `excess` is the largest value minus the heap (Lasker: 1).
    Formula { excess: u64 },
    /// The engine for rules given by a move table.
    Table {
        /// Numbers of tokens removed by moves leaving two heaps.
        two: u32,
        /// Numbers of tokens removed by moves leaving three heaps.
        three: u32,
        /// Their work per heap, counted in moves: fewer than `three` when runs of them
        /// are gathered through windows (the `runs` module).
        three_work: u32,
        /// Bytes per value of the windows of runs of moves (at most: two-heap moves
        /// use them while no mask is chosen).
        window_bytes: u32,
        /// Two-heap moves by sparse space (else plainly).
        sparse: bool,
        /// Moves leaving one heap by an all-but set: the engine counts the heaps of each
        /// value, and the values grow linearly.
        all_but: bool,
        /// Saltus relations are proven by tests reading the values as 32-bit numbers (a
        /// copy, when they are stored narrower): all-but sets and codes leaving three
        /// heaps.
        proofs_copy: bool,
    },
    /// Rest Nim by its rules.
    RestNim,
}

/// Estimates what computing the values of heaps `0..=N` of a rule costs.
///
/// ```
/// use grundy::rules::HeapRule;
/// use grundy::sequence::{CostModel, Method, grundy_values};
///
/// let rule = HeapRule::octal("0.8").unwrap(); // leaves three heaps; G(n) is about n / 3
/// let prefix = grundy_values(&rule, 1023);
/// let model = CostModel::new(&rule, Method::SparseSpace, &prefix);
/// let small = model.cost(2_000);
/// let large = model.cost(100_000);
/// assert!(large.bytes > 400 * small.bytes); // quadratic memory
/// assert!(large.steps > 50_000 * small.steps / 4); // cubic work
///
/// let kayles = HeapRule::kayles();
/// let model = CostModel::new(&kayles, Method::SparseSpace, &grundy_values(&kayles, 1023));
/// assert_eq!(model.cost(1_000_000).steps, 0); // nothing beyond linear
/// ```
#[derive(Debug, Clone)]
pub struct CostModel {
    kind: Kind,
    /// Where the bit length of the largest value so far changes, over the known values:
    /// `(first heap, bits)`, increasing.
    known_bits: Vec<(u64, u32)>,
    /// Heaps with known values: `0..known`.
    known: u64,
    /// The largest known value.
    known_max: u64,
    /// Predicted growth of the largest value per heap past the known ones.
    slope: f64,
}

/// How many times the largest value of the first heaps the values of slowly growing
/// rules are taken to stay below. Measured from the first 1024 values to 10^6 (10^5 for
/// the slower codes): `0.6` 33 to 302, Grundy's game 29 to 231 (256 by 10^7), `0.74` 83
/// to 427, `0.376` 70 to 162, `0.106` 19 to 27, `0.16` 14 to 23; only `0.04` (49 to
/// 805) and `0.76` (83 to 2140) pass it, staying within the same bytes per value.
pub(crate) const SLOW_GROWTH: u64 = 16;

/// Bits of the engine's value sets for values up to `max` (at least 1).
fn bits_for(max: u64) -> u32 {
    (64 - max.leading_zeros()).max(1)
}

/// 64-bit words of a value set for values below `1 << bits`, as the engine sizes it.
fn words(bits: u32) -> f64 {
    ((1u64 << bits.min(62)) >> 6) as f64 + 1.0
}

/// Bytes per stored value for values up to `max`.
const fn width(max: u64) -> u64 {
    if max < 1 << 8 {
        1
    } else if max < 1 << 16 {
        2
    } else {
        4
    }
}

impl CostModel {
    /// The model of `rule` computed by `method`, its values predicted from `known`
    /// (the values of the first heaps; a thousand are plenty).
    #[must_use]
    pub fn new(rule: &HeapRule, method: Method, known: &GrundyValues) -> Self {
        let kind = if method == Method::SparseSpace && closed_form_value(rule, 0).is_some() {
            Kind::Formula {
                excess: u64::from(matches!(rule, HeapRule::LaskersNim)),
            }
        } else {
            let sparse = method == Method::SparseSpace;
            match rule {
                HeapRule::TakeAndBreak(code) => {
                    let moves = |bit: u8| -> Vec<usize> {
                        (0..code.digits().len())
                            .filter(|&j| code.digit(j) & bit != 0)
                            .collect()
                    };
                    let (two_moves, three_moves) = (moves(LEAVE_TWO), moves(LEAVE_THREE));
                    let three = three_moves.len() as u32;
                    // The fast method gathers runs of moves through windows.
                    let (two_runs, three_runs) = if sparse {
                        (
                            MoveRuns::plan(&two_moves, 0),
                            MoveRuns::plan(&three_moves, 0),
                        )
                    } else {
                        (MoveRuns::single(&two_moves), MoveRuns::single(&three_moves))
                    };
                    Kind::Table {
                        two: two_moves.len() as u32,
                        three,
                        three_work: three_runs.work() as u32,
                        window_bytes: (two_runs.bytes(1) + three_runs.bytes(1)) as u32,
                        sparse,
                        all_but: false,
                        proofs_copy: three > 0,
                    }
                }
                HeapRule::GrundysGame => Kind::Table {
                    two: 1,
                    three: 0,
                    three_work: 0,
                    window_bytes: 0,
                    sparse,
                    all_but: false,
                    proofs_copy: false,
                },
                HeapRule::LaskersNim => Kind::Table {
                    two: 1,
                    three: 0,
                    three_work: 0,
                    window_bytes: 0,
                    sparse,
                    all_but: true,
                    proofs_copy: false,
                },
                HeapRule::RestNim => Kind::RestNim,
                HeapRule::Subtraction(_) => Kind::Table {
                    two: 0,
                    three: 0,
                    three_work: 0,
                    window_bytes: 0,
                    sparse,
                    all_but: false,
                    proofs_copy: false,
                },
                HeapRule::AllButSubtraction(_) => Kind::Table {
                    two: 0,
                    three: 0,
                    three_work: 0,
                    window_bytes: 0,
                    sparse,
                    all_but: true,
                    proofs_copy: true,
                },
            }
        };
        let mut known_bits = Vec::new();
        let mut running = 0u64;
        for (heap, value) in known.iter().enumerate() {
            running = running.max(u64::from(value));
            let bits = bits_for(running);
            if known_bits.last().is_none_or(|&(_, last)| last != bits) {
                known_bits.push((heap as u64, bits));
            }
        }
        let length = known.len();
        let slope = if length >= 64 {
            let half = length / 2;
            let first: u64 = known.iter().take(half).max().map_or(0, u64::from);
            (running.saturating_sub(first)) as f64 / (length - half) as f64
        } else {
            // Too few values to see a trend: assume the fastest common growth.
            1.0
        };
        Self {
            kind,
            known_bits,
            known: length as u64,
            known_max: running,
            slope,
        }
    }

    /// Whether the values are predicted to grow linearly (see the module documentation).
    const fn grows_linearly(&self) -> bool {
        matches!(
            self.kind,
            Kind::Formula { .. }
                | Kind::RestNim
                | Kind::Table { three: 1.., .. }
                | Kind::Table { all_but: true, .. }
        )
    }

    /// The predicted largest value among heaps `0..=heap` (for a known heap, the largest
    /// known value).
    fn largest_value(&self, heap: u64) -> u64 {
        match self.kind {
            Kind::Formula { excess } => heap.saturating_add(excess),
            _ if heap < self.known => self.known_max,
            _ if self.grows_linearly() => self.known_max.max((self.slope * heap as f64) as u64),
            _ => self.known_max.max(1).saturating_mul(SLOW_GROWTH),
        }
    }

    /// The runs of heaps `0..=last` over which the engine's value sets have a constant
    /// width: `(first, end (exclusive), bits)`.
    fn runs(&self, last: u64) -> Vec<(u64, u64, u32)> {
        let end = last.saturating_add(1);
        let mut starts: Vec<(u64, u32)> = self
            .known_bits
            .iter()
            .copied()
            .filter(|&(heap, _)| heap < end)
            .collect();
        if end > self.known {
            // Past the known values the predicted largest value grows with the heap:
            // each further bit starts where the prediction reaches the next power of two.
            let mut bits = bits_for(self.largest_value(self.known));
            starts.push((self.known, bits));
            while bits < 63 {
                let next = match self.kind {
                    Kind::Formula { excess } => (1u64 << bits).saturating_sub(excess),
                    _ if self.slope > 0.0 => ((1u64 << bits) as f64 / self.slope).ceil() as u64,
                    _ => u64::MAX,
                };
                if next >= end {
                    break;
                }
                bits += 1;
                starts.push((next.max(self.known), bits));
            }
        }
        let mut runs = Vec::with_capacity(starts.len());
        for (i, &(first, bits)) in starts.iter().enumerate() {
            let stop = starts.get(i + 1).map_or(end, |&(next, _)| next.min(end));
            if stop > first {
                runs.push((first, stop, bits));
            }
        }
        runs
    }

    /// The estimated cost of computing the values of heaps `0..=last_heap` from scratch:
    /// the engine's memory at its peak and its work beyond linear (see the module
    /// documentation).
    #[must_use]
    pub fn cost(&self, last_heap: usize) -> Cost {
        let last = last_heap as u64;
        let heaps = last as f64 + 1.0;
        let largest = self.largest_value(last);
        let value_width = width(largest) as f64;
        // Slots of the tables indexed by value (`1 << value_bits` in the engine).
        let slots = (1u64 << bits_for(largest).min(62)) as f64;
        // The values are reserved exactly, chunk by chunk.
        let mut bytes = heaps * value_width;
        let mut steps = 0.0f64;
        match self.kind {
            Kind::Formula { .. } => {}
            Kind::Table {
                two,
                three,
                three_work,
                window_bytes,
                sparse,
                all_but,
                proofs_copy,
            } => {
                if two > 0 || three > 0 || !all_but {
                    bytes += option_rows_bytes(bits_for(largest).min(40)) as f64;
                }
                if all_but {
                    bytes += 4.0 * slots + slots / 8.0; // counts and set of the values
                }
                if two > 0 && sparse {
                    // The extended-value histogram and its transform (8 bytes each for
                    // `2 slots`), and the mirrors of the last values (up to twice the
                    // window while rebuilt, at full width and as low bytes).
                    bytes += 32.0 * slots;
                    bytes += (4 * MIRROR_WINDOW) as f64 * (value_width + 1.0);
                }
                if two > 0 && !sparse {
                    steps += f64::from(two) * heaps * heaps / 4.0;
                }
                bytes += f64::from(window_bytes) * slots;
                if three > 0 {
                    let (set_words, read_words) = self.value_set_words(last);
                    bytes += 8.0 * set_words + 48.0 * heaps;
                    steps += f64::from(three_work) * read_words + heaps * heaps / 4.0;
                }
                if proofs_copy && value_width < 4.0 {
                    bytes += 4.0 * heaps;
                }
            }
            Kind::RestNim => {
                let (set_words, read_words) = self.value_set_words(last);
                bytes += 8.0 * set_words + 48.0 * heaps;
                steps += read_words + heaps * heaps * heaps / 12.0;
            }
        }
        Cost {
            bytes: bytes as u64,
            steps: steps as u64,
        }
    }

    /// For engines keeping a set of values per heap (three-heap splits, Rest Nim): the
    /// 64-bit words of all the sets of heaps `0..=last`, and the same weighted by how
    /// many later heaps read them (`Σ_n Σ_{m<n} words(m) = Σ_m words(m) (last - m)`).
    fn value_set_words(&self, last: u64) -> (f64, f64) {
        let (mut set_words, mut read_words) = (0.0f64, 0.0f64);
        for &(first, stop, bits) in &self.runs(last) {
            let count = (stop - first) as f64;
            let middle = (first as f64 + stop as f64 - 1.0) / 2.0;
            set_words += words(bits) * count;
            read_words += words(bits) * count * (last as f64 - middle).max(0.0);
        }
        (set_words, read_words)
    }

    /// The largest heap in `from..=to` whose range `0..=heap` stays within `budget`, or
    /// `None` when even `from` does not.
    #[must_use]
    pub fn largest_heap_within(&self, from: usize, to: usize, budget: &Cost) -> Option<usize> {
        if !self.cost(from).within(budget) {
            return None;
        }
        let (mut low, mut high) = (from, to.max(from));
        while low < high {
            let middle = low + (high - low).div_ceil(2);
            if self.cost(middle).within(budget) {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        Some(low)
    }

    /// What makes this rule cost more than linear time or memory, in words, if anything.
    #[must_use]
    pub const fn what_grows(&self) -> Option<&'static str> {
        match self.kind {
            Kind::Table { three: 1.., .. } => Some(
                "moves leave three heaps: the engine keeps the set of two-heap values of every \
                 heap, about heaps x values / 8 bytes, and reads them all for each heap",
            ),
            Kind::RestNim => Some(
                "Rest Nim by its rules keeps the set of partition values of every heap and reads \
                 them all for each heap",
            ),
            Kind::Table {
                two: 1..,
                sparse: false,
                ..
            } => Some("the plain method looks at every split of every heap"),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::grundy_values;

    fn model(rule: &HeapRule, method: Method) -> CostModel {
        let mut solver = crate::sequence::SequenceSolver::new(rule.clone(), method);
        solver.extend_to(1023);
        CostModel::new(rule, method, solver.values())
    }

    #[test]
    fn three_heap_sets_are_predicted_from_the_growth_of_the_values() {
        let rule = HeapRule::octal("0.8").unwrap();
        let model = model(&rule, Method::SparseSpace);
        // G(n) of 0.8 is about n / 3: at 30 000 the largest value is near 10 000, 14 bits.
        let values = grundy_values(&rule, 3000);
        let predicted = model.largest_value(3000);
        let actual = u64::from(values.max_value());
        assert!(
            predicted.abs_diff(actual) <= actual / 50,
            "{predicted} vs {actual}"
        );
        let runs = model.runs(30_000);
        assert_eq!(runs.last().map(|run| run.2), Some(14));
        assert_eq!(runs.first().map(|run| run.0), Some(0));
        for pair in runs.windows(2) {
            assert_eq!(pair[0].1, pair[1].0, "runs are contiguous: {runs:?}");
        }
        assert_eq!(runs.last().map(|run| run.1), Some(30_001));
        // The sets as the engine sizes them from the actual values, against the model's
        // bytes (sets, plus the values and small tables) predicted from 1024 values.
        let g = values.to_vec();
        let mut running = 0;
        let mut set_bytes = 0u64;
        for &value in &g {
            running = running.max(u64::from(value));
            set_bytes += 8 * (((1u64 << bits_for(running)) >> 6) + 1) + 48;
        }
        let cost = model.cost(3000);
        // Values below 1024 of 2 bytes, 32 option rows of 1024 + 64 marks, and a copy of
        // the values in 32 bits for the proofs of saltus relations.
        let others = 3001 * 2 + 32 * (1024 + 64) + 3001 * 4;
        assert!(
            cost.bytes.abs_diff(set_bytes + others) < set_bytes / 20,
            "{cost:?} vs {set_bytes} + {others}"
        );
    }

    #[test]
    fn linear_rules_cost_no_steps_and_linear_memory() {
        for rule in [
            HeapRule::kayles(),
            HeapRule::GrundysGame,
            HeapRule::subtraction([1, 3, 4]).unwrap(),
        ] {
            let model = model(&rule, Method::SparseSpace);
            let cost = model.cost(1_000_000_000);
            assert_eq!(cost.steps, 0, "{rule}");
            assert!(cost.bytes <= 4_000_010_000, "{rule}: {cost:?}");
            assert!(model.what_grows().is_none());
        }
    }

    #[test]
    fn closed_forms_cost_their_values_only() {
        let model = model(&HeapRule::LaskersNim, Method::SparseSpace);
        // Reserved exactly: one byte each while below 256, four beyond 65535.
        assert_eq!(model.cost(100).bytes, 101);
        assert_eq!(model.cost(1_000_000).bytes, 4 * 1_000_001);
        assert_eq!(model.cost(1_000_000).steps, 0);
        // By the rules (the reference), Lasker's splits are looked at one by one.
        let plain = model_of_plain(&HeapRule::LaskersNim);
        assert!(plain.cost(100_000).steps >= 100_000 * 100_000 / 4);
        let rest = model_of_plain(&HeapRule::RestNim);
        assert!(rest.cost(10_000).steps >= 10_000u64.pow(3) / 12);
        assert!(rest.what_grows().is_some());
    }

    fn model_of_plain(rule: &HeapRule) -> CostModel {
        let values: GrundyValues = (0..64u32)
            .map(|n| crate::sequence::closed_form_value(rule, u64::from(n)).unwrap() as u32)
            .collect();
        CostModel::new(rule, Method::PlainMex, &values)
    }

    #[test]
    fn the_largest_heap_within_a_budget_is_the_last_that_fits() {
        let rule = HeapRule::octal("0.FF").unwrap();
        let model = model(&rule, Method::SparseSpace);
        let budget = Cost {
            bytes: u64::MAX,
            steps: 1_000_000_000,
        };
        let heap = model.largest_heap_within(10, 1_000_000, &budget).unwrap();
        assert!(model.cost(heap).within(&budget));
        assert!(!model.cost(heap + 1).within(&budget));
        assert!(heap > 1000 && heap < 100_000, "{heap}");
        assert_eq!(model.largest_heap_within(10, 20, &budget), Some(20));
        let tiny = Cost {
            bytes: 10,
            steps: 0,
        };
        assert_eq!(model.largest_heap_within(10, 20, &tiny), None);
    }
}
