//! The options of a heap other than pairs of rare heaps: moves leaving no or one
//! heap, moves leaving three heaps, the pairs of classes without a mask, and runs
//! of moves. The middle stage of valuing a heap.

use super::*;
/// Values of heaps hidden by an all-but set at heap `g.len()`: values `G(n - e)` that
/// no allowed move leaves (every heap of that value is `n - e` for an excluded `e`).
pub(super) fn hidden_values<'a, T: StoredValue>(
    g: &'a [T],
    excluded: &'a [usize],
    value_counts: &'a [u32],
) -> impl Iterator<Item = u32> + 'a {
    let n = g.len();
    let hidden_heaps = move || {
        excluded
            .iter()
            .filter(move |&&e| e < n)
            .map(move |&e| g[n - e].get())
    };
    hidden_heaps().filter(move |&value| {
        let hidden = hidden_heaps().filter(|&other| other == value).count();
        value_counts[value as usize] as usize == hidden
    })
}

// The phases of `TableEngine::step` below are `#[inline(always)]`, and so is `step`
// itself: compiled as one body with the loop of `run`, as before they were split out,
// they run as fast as that body did; as separate functions the loop over the values of
// three-heap splits lost 10-15% (registers spilled in its inner loop) and rules without
// splits 8% (sequence_bench 0.9 4000 and 0.3033 10000000, interleaved runs).

/// Inserts into `options` the options of heap `n = g.len()` that leave no heap or one
/// heap. For an all-but set (`present`, `value_counts`: the values of heaps `1..n` and
/// how often each occurs) every heap below `n` is left but the few `n - e`.
#[inline(always)]
pub(super) fn insert_non_splitting_options<T: StoredValue>(
    table: &MoveTable,
    present: &[u64],
    value_counts: &[u32],
    g: &[T],
    options: &mut Marks,
) {
    let n = g.len();
    if table.leave_none.contains(n) {
        options.insert(0);
    }
    match &table.leave_one {
        Tokens::Listed(list) => {
            for &j in list {
                if j >= n {
                    break;
                }
                options.insert(g[n - j].get());
            }
        }
        Tokens::AllExcept(excluded) => {
            for (w, &word) in present.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    options.insert((w as u32) * 64 + bits.trailing_zeros());
                    bits &= bits - 1;
                }
            }
            for value in hidden_values(g, excluded, value_counts) {
                options.remove(value);
            }
            // A hidden value 0 is still reached by taking the whole heap.
            if table.leave_none.contains(n) {
                options.insert(0);
            }
        }
    }
}

/// Inserts into `options` the options of heap `n = g.len()` that leave three heaps:
/// for a move removing `j`, a first heap `a` and the two-heap splits of the rest
/// `n - j - a`, whose values `two_heap_values` keeps, give `G(a) xor v` for each such
/// value `v`.
#[inline(always)]
pub(super) fn insert_three_heap_options<T: StoredValue>(
    leave_three: &[usize],
    two_heap_values: &[Vec<u64>],
    words_read: &mut u64,
    g: &[T],
    options: &mut Marks,
) {
    let n = g.len();
    for &j in leave_three {
        if j + 3 > n {
            break;
        }
        let rest = n - j;
        for (a, first) in g.iter().enumerate().take(rest - 1).skip(1) {
            let first = first.get();
            *words_read += two_heap_values[rest - a].len() as u64;
            for (w, &word) in two_heap_values[rest - a].iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let t = (w as u32) * 64 + bits.trailing_zeros();
                    bits &= bits - 1;
                    options.insert(t ^ first);
                }
            }
        }
    }
}

/// Inserts into `options` the options of the two-heap moves of heap `n = g.len()` that
/// no search needs to find: for a class with a mask, the pairs with a rare heap that
/// preparing the block did not put in the rows (`covered[parity][i]`: the rare heaps
/// `rare[lo..hi]` of the `i`-th move that it did); for a class without one, every pair
/// of its moves in no run (`single_two`).
#[inline(always)]
pub(super) fn insert_unsearched_pairs<T: StoredValue>(
    table: &MoveTable,
    classes: &[SparseClass; 2],
    single_two: &[Vec<usize>; 2],
    covered: &CoveredRare,
    stats: &mut EngineStats,
    g: &[T],
    options: &mut Marks,
) {
    let n = g.len();
    let unequal = table.unequal_split;
    for (parity, class) in classes.iter().enumerate() {
        // A class without a mask looks at every pair of its moves in no run (those in
        // runs are in the windows).
        let moves = if class.mask.is_some() {
            &table.leave_two[parity]
        } else {
            &single_two[parity]
        };
        for (index, &j) in moves.iter().enumerate() {
            if j + 2 > n {
                break;
            }
            let m = n - j;
            if class.mask.is_some() {
                let below = &g[..m];
                // Usually every rare heap is below `m` (no search needed).
                let count = if class.rare.last().is_none_or(|&r| (r as usize) < m) {
                    class.rare.len()
                } else {
                    class.rare.partition_point(|&r| (r as usize) < m)
                };
                let (lo, hi) = covered[parity].get(index).copied().unwrap_or((0, 0));
                debug_assert!(lo == hi || hi <= count);
                let first = &class.rare[..lo.min(count)];
                let last = &class.rare[hi.min(count)..count];
                for &r in first.iter().chain(last) {
                    let r = r as usize;
                    let other = m - r;
                    if unequal && other == r {
                        continue;
                    }
                    options.insert((below[r] ^ below[other]).get());
                }
                stats.rare_pairs += count as u64;
            } else {
                let half = if unequal { (m - 1) / 2 } else { m / 2 };
                for a in 1..=half {
                    options.insert((g[a] ^ g[m - a]).get());
                }
                stats.scanned_pairs += half as u64;
            }
        }
    }
}

/// Inserts into `options` the options of heap `n = g.len()` that the windows of runs of
/// moves hold (see the `runs` module). When no class has a mask the value is the mex
/// of `options` once they are in, and the windows are read only up to the first 64
/// values with one missing (the mex is among them); otherwise every value is read.
#[inline(always)]
pub(super) fn insert_run_options(
    runs: [&MoveRuns; 2],
    classes: &[SparseClass; 2],
    n: usize,
    values: usize,
    options: &mut Marks,
) {
    if !runs.iter().any(|runs| runs.any()) {
        return;
    }
    let stamp = options.stamp;
    if classes.iter().any(|class| class.mask.is_some()) {
        for runs in runs {
            runs.mark(n, options.marks, stamp, 0..values);
        }
        options.reread_low();
        return;
    }
    const CHUNK: usize = 64;
    for start in (0..values).step_by(CHUNK) {
        let chunk = start..(start + CHUNK).min(values);
        for runs in runs {
            runs.mark(n, options.marks, stamp, chunk.clone());
        }
        let stamps = u64::from(stamp) * 0x0101_0101_0101_0101;
        let missing =
            options.marks[chunk]
                .chunks(8)
                .any(|eight| match <[u8; 8]>::try_from(eight) {
                    Ok(word) => u64::from_le_bytes(word) != stamps,
                    Err(_) => eight.iter().any(|&mark| mark != stamp),
                });
        if missing {
            break;
        }
    }
    options.reread_low();
}
