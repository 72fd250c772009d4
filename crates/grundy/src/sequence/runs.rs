//! Runs of moves: the options of many moves gathered at once, when they remove
//! consecutive numbers of tokens.
//!
//! A long code such as `0.777...7` (`k` sevens) has `k` moves leaving two heaps, removing
//! `1, 2, ..., k` tokens. Gathering their options move by move costs about `m / 2`
//! pairs each, `k·n / 2` for heap `n`: the time grew with the digits. But the moves
//! removing `j` in `lo..=hi` from heap `n` split the heaps `m` in `n - hi..=n - lo`, a
//! window sliding by one heap as `n` grows. Call `S(m)` the values of the splits of `m`
//! (`G(a) xor G(m - a)`). Value `v` is an option of one of these moves exactly when
//! some `m` of the window has `v` in `S(m)`; keeping `last[v]`, the largest `m` taken in
//! so far with `v` in `S(m)`, and taking in `S(n - lo)` when heap `n` comes, that is
//! `last[v] >= n - hi`. Each `S(m)` is computed once per run, whatever the run's length:
//! a run costs about what one move costs, and the values are the same.
//!
//! With stride 2 (the moves removing `lo, lo + 2, ..., hi`: the moves of one parity,
//! which the sparse-space engine treats as a class of their own) the window holds every
//! other heap, of the parity of `n - lo`: one `last` table per parity of `m`.
//!
//! Moves leaving three heaps are gathered the same way, `S(m)` replaced by the values
//! `G(a) xor s` (`s` in `S(r - a)`) of the three-heap splits of the rest `r`.

use super::OutOfMemory;

/// Runs shorter than this are not worth a window: each run costs about two moves (its
/// values taken in, then read), and its tables' memory.
const SHORTEST_RUN: usize = 4;

/// At most this many runs get a window (the longest ones): each keeps one or two
/// tables of 4 bytes per value.
const MOST_RUNS: usize = 16;

/// One run of moves removing `lo, lo + stride, ..., hi` tokens, and its window.
#[derive(Debug, Clone)]
struct Run {
    lo: usize,
    hi: usize,
    stride: usize,
    /// `last[m % stride][v]`: the largest `m` taken in with `v` among its values (0:
    /// none; every `m` taken in is at least 1).
    last: Vec<Vec<u32>>,
    /// The next `m` to take in.
    next: usize,
}

/// The moves of one kind (leaving two heaps, or three), split into the runs gathered
/// through windows and the moves computed one by one.
#[derive(Debug, Clone, Default)]
pub(super) struct MoveRuns {
    runs: Vec<Run>,
    /// The moves in no run, in increasing order.
    single: Vec<usize>,
}

/// The maximal runs of stride `stride` in `moves` (sorted, distinct): `(lo, hi)`.
fn progressions(moves: &[usize], stride: usize) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    for class in 0..stride {
        let mut current: Option<(usize, usize)> = None;
        for &j in moves.iter().filter(|&&j| j % stride == class) {
            current = match current {
                Some((lo, hi)) if j == hi + stride => Some((lo, j)),
                Some(run) => {
                    runs.push(run);
                    Some((j, j))
                }
                None => Some((j, j)),
            };
        }
        runs.extend(current);
    }
    runs
}

impl MoveRuns {
    /// Every move computed one by one (no window).
    pub(super) fn single(moves: &[usize]) -> Self {
        Self {
            runs: Vec::new(),
            single: moves.to_vec(),
        }
    }

    /// The runs worth a window among `moves` (sorted, distinct), by stride 1 or 2,
    /// whichever leaves less work; their windows start at heap `first_heap` (the next
    /// heap to compute) and are empty until [`Self::make_room`].
    pub(super) fn plan(moves: &[usize], first_heap: usize) -> Self {
        let split = |stride: usize| {
            let mut runs: Vec<(usize, usize)> = progressions(moves, stride)
                .into_iter()
                .filter(|&(lo, hi)| (hi - lo) / stride + 1 >= SHORTEST_RUN)
                .collect();
            runs.sort_by_key(|&(lo, hi)| std::cmp::Reverse((hi - lo) / stride));
            runs.truncate(MOST_RUNS);
            runs.sort_unstable();
            let in_run = |j: usize| {
                runs.iter()
                    .any(|&(lo, hi)| (lo..=hi).contains(&j) && (j - lo).is_multiple_of(stride))
            };
            let single: Vec<usize> = moves.iter().copied().filter(|&j| !in_run(j)).collect();
            let work = single.len() + 2 * runs.len();
            (work, runs, single, stride)
        };
        let (by_one, by_two) = (split(1), split(2));
        let (_, runs, single, stride) = if by_two.0 < by_one.0 { by_two } else { by_one };
        Self {
            runs: runs
                .into_iter()
                .map(|(lo, hi)| Run {
                    lo,
                    hi,
                    stride,
                    last: vec![Vec::new(); stride],
                    // Windows of later heaps start at `first_heap - hi` or after.
                    next: first_heap.saturating_sub(hi).max(1),
                })
                .collect(),
            single,
        }
    }

    /// The moves computed one by one.
    pub(super) fn single_moves(&self) -> &[usize] {
        &self.single
    }

    /// Whether some moves are gathered through windows.
    pub(super) fn any(&self) -> bool {
        !self.runs.is_empty()
    }

    /// Whether `other` has the same runs (its windows would hold the same values).
    pub(super) fn same_runs(&self, other: &Self) -> bool {
        self.runs.len() == other.runs.len()
            && self
                .runs
                .iter()
                .zip(&other.runs)
                .all(|(a, b)| (a.lo, a.hi, a.stride) == (b.lo, b.hi, b.stride))
    }

    /// The work of these moves per heap, counted in moves: one per single move, two
    /// per run (for the cost model).
    pub(super) fn work(&self) -> usize {
        self.single.len() + 2 * self.runs.len()
    }

    /// Bytes of the windows for values below `values`.
    pub(super) fn bytes(&self, values: usize) -> usize {
        self.runs.iter().map(|run| run.stride).sum::<usize>() * values * 4
    }

    /// Makes room in the windows for values below `values`, changing nothing else.
    pub(super) fn reserve(&mut self, values: usize) -> Result<(), OutOfMemory> {
        for table in self.runs.iter_mut().flat_map(|run| &mut run.last) {
            table
                .try_reserve_exact(values.saturating_sub(table.len()))
                .map_err(|_| OutOfMemory::of::<u32>(values))?;
        }
        Ok(())
    }

    /// Sizes the windows for values below `values`, within the room reserved.
    pub(super) fn resize(&mut self, values: usize) {
        for table in self.runs.iter_mut().flat_map(|run| &mut run.last) {
            table.resize(values, 0);
        }
    }

    /// Gives the windows room for values below `values`; when memory is refused, every
    /// move is computed one by one instead (the same values, more slowly).
    pub(super) fn make_room(mut self, values: usize) -> Self {
        if self.reserve(values).is_err() {
            let mut moves = self.single;
            for run in &self.runs {
                moves.extend((run.lo..=run.hi).step_by(run.stride));
            }
            moves.sort_unstable();
            return Self::single(&moves);
        }
        self.resize(values);
        self
    }

    /// Takes in the values of every `m` up to `next_heap - lo` for each run, so that
    /// the windows answer for heap `next_heap`: `take_in(m, last)` sets `last[v] = m` for
    /// every value `v` of `m` (`S(m)`, or the three-heap values of the rest `m`), and
    /// returns the work it did (added up in the answer).
    pub(super) fn advance(
        &mut self,
        next_heap: usize,
        mut take_in: impl FnMut(usize, &mut [u32]) -> u64,
    ) -> u64 {
        let mut taken = 0;
        for run in &mut self.runs {
            let Some(newest) = next_heap.checked_sub(run.lo) else {
                continue;
            };
            while run.next <= newest {
                let m = run.next;
                taken += take_in(m, &mut run.last[m % run.stride]);
                run.next += 1;
            }
        }
        taken
    }

    /// Marks in `marks` (`marks[v] = stamp`) the options of heap `n` from the windows,
    /// for the values in `values`.
    pub(super) fn mark(
        &self,
        n: usize,
        marks: &mut [u8],
        stamp: u8,
        values: std::ops::Range<usize>,
    ) {
        for run in &self.runs {
            let Some(newest) = n.checked_sub(run.lo) else {
                continue;
            };
            let table = &run.last[newest % run.stride];
            let end = values.end.min(table.len()).min(marks.len());
            if values.start >= end {
                continue;
            }
            // `m` from `n - hi` on, and never 0 (the empty entries).
            let oldest = n.saturating_sub(run.hi).max(1) as u32;
            // A select rather than a branch: the compiler makes it vector compares.
            for (mark, &last) in marks[values.start..end]
                .iter_mut()
                .zip(&table[values.start..end])
            {
                *mark = if last >= oldest { stamp } else { *mark };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(plan: &MoveRuns) -> Vec<(usize, usize, usize)> {
        plan.runs.iter().map(|r| (r.lo, r.hi, r.stride)).collect()
    }

    #[test]
    fn plans_take_the_long_runs_by_the_cheaper_stride() {
        let sevens: Vec<usize> = (1..=200).collect();
        let plan = MoveRuns::plan(&sevens, 0);
        assert_eq!(runs(&plan), [(1, 200, 1)]);
        assert!(plan.single_moves().is_empty());
        assert_eq!(plan.work(), 2);
        // One parity only (a class of the sparse-space engine, or 0.0707...07).
        let odd: Vec<usize> = (1..=99).step_by(2).collect();
        let plan = MoveRuns::plan(&odd, 0);
        assert_eq!(runs(&plan), [(1, 99, 2)]);
        // Short runs stay single; a gap splits a run.
        let moves = [1, 2, 3, 5, 6, 7, 8, 9, 20];
        let plan = MoveRuns::plan(&moves, 0);
        assert_eq!(runs(&plan), [(5, 9, 1)]);
        assert_eq!(plan.single_moves(), [1, 2, 3, 20]);
        assert_eq!(MoveRuns::plan(&[1, 2], 0).single_moves(), [1, 2]);
        // At most MOST_RUNS windows, the longest.
        let many: Vec<usize> = (0..40)
            .flat_map(|r| (0..4 + r % 3).map(move |i| 10 * r + i))
            .collect();
        let plan = MoveRuns::plan(&many, 0);
        assert_eq!(plan.runs.len(), MOST_RUNS);
        // The 13 runs of 6 moves, and 3 of the runs of 5.
        let covered: usize = plan.runs.iter().map(|r| r.hi - r.lo + 1).sum();
        assert_eq!(covered, 13 * 6 + 3 * 5);
        assert_eq!(plan.single_moves().len() + covered, many.len());
    }

    /// The windows give, for every heap, exactly the values of the moves of their runs,
    /// taken one by one (here with arbitrary sets of values per `m`).
    #[test]
    fn windows_hold_the_values_of_their_moves() {
        let values_of = |m: usize| -> Vec<u32> {
            (0..5u32)
                .map(|i| ((m as u32).wrapping_mul(2_654_435_761) >> (i * 5)) % 40)
                .collect()
        };
        let moves: Vec<usize> = (3..=11).chain((14..=30).step_by(2)).chain([40]).collect();
        for stride_moves in [moves.clone(), (1..=31).step_by(2).collect()] {
            let mut plan = MoveRuns::plan(&stride_moves, 0).make_room(64);
            assert!(plan.any());
            for n in 0..300 {
                plan.advance(n, |m, last| {
                    for v in values_of(m) {
                        last[v as usize] = m as u32;
                    }
                    5
                });
                let mut marks = vec![0u8; 64];
                plan.mark(n, &mut marks, 1, 0..64);
                for &j in plan.single_moves() {
                    if j < n {
                        for v in values_of(n - j) {
                            marks[v as usize] = 1;
                        }
                    }
                }
                let mut expected = vec![0u8; 64];
                for &j in &stride_moves {
                    if j < n {
                        for v in values_of(n - j) {
                            expected[v as usize] = 1;
                        }
                    }
                }
                assert_eq!(marks, expected, "heap {n}");
            }
        }
    }
}
