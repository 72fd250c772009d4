//! The pattern finder as it was before its searches were made near-linear, kept for
//! the tests only: every search here is the plain one (each period tried with a walk
//! over the values, each claim checked by a scan), slow on large tables but simple
//! enough to read as the definition. The property tests check that the finder gives
//! exactly the same findings on random and planted tables.

use super::{
    GridFindings, GridPPositions, LISTED, LISTED_CELLS, Line, LinePeriods, MAX_COEFFICIENT,
    MAX_PAIR_ENTRY, MAX_PAIR_STEP, MIN_PAIRS, MIN_PERIODIC_VALUES, MIN_RECURRENCE_CHECKS,
    PairPattern, Period, Recurrence, ResidueClasses, SequenceFindings, SequencePPositions,
};
use std::ops::RangeInclusive;

/// What [`super::find_in_sequence`] finds, by the plain searches.
pub(super) fn find_in_sequence(first: u64, values: &[u32]) -> SequenceFindings {
    let last = (!values.is_empty()).then(|| first.saturating_add(values.len() as u64 - 1));
    let period = least_period(values, false)
        .or_else(|| least_period(values, true))
        .map(|(from, period, saltus)| Period {
            from: first.saturating_add(from as u64),
            period: period as u64,
            saltus,
        });
    SequenceFindings {
        first,
        last,
        period,
        p_positions: sequence_p_positions(first, values),
    }
}

/// What [`super::find_in_grid`] finds, by the plain searches.
pub(super) fn find_in_grid(
    xs: RangeInclusive<u64>,
    ys: RangeInclusive<u64>,
    value: impl Fn(u64, u64) -> u32,
) -> GridFindings {
    let width = count(&ys);
    let table: Vec<Vec<u32>> = xs
        .clone()
        .map(|x| ys.clone().map(|y| value(x, y)).collect())
        .collect();
    let (x0, y0) = (*xs.start(), *ys.start());
    let at = |x: u64, y: u64| table[(x - x0) as usize][(y - y0) as usize];
    let cells = || {
        xs.clone()
            .flat_map(|x| ys.clone().map(move |y| (x, y)))
            .collect::<Vec<_>>()
    };

    let shared = x0.max(y0)..=(*xs.end()).min(*ys.end());
    let symmetric = (count(&shared) >= 2).then(|| {
        shared
            .clone()
            .all(|x| shared.clone().all(|y| at(x, y) == at(y, x)))
    });
    let nim_sum = !table.is_empty()
        && width > 0
        && cells()
            .into_iter()
            .all(|(x, y)| u64::from(at(x, y)) == x ^ y);

    let zeros: Vec<(u64, u64)> = cells()
        .into_iter()
        .filter(|&(x, y)| at(x, y) == 0)
        .collect();
    let p_positions = grid_p_positions(&xs, &ys, &zeros);

    let rows = LinePeriods {
        periods: xs
            .clone()
            .zip(&table)
            .map(|(x, row)| (x, period_of(y0, row)))
            .collect(),
    };
    let columns = LinePeriods {
        periods: ys
            .clone()
            .enumerate()
            .map(|(j, y)| {
                let column: Vec<u32> = table.iter().map(|row| row[j]).collect();
                (y, period_of(x0, &column))
            })
            .collect(),
    };
    GridFindings {
        xs,
        ys,
        symmetric,
        nim_sum,
        p_positions,
        rows,
        columns,
    }
}

/// The number of values in a range.
fn count(range: &RangeInclusive<u64>) -> usize {
    if range.is_empty() {
        0
    } else {
        (range.end() - range.start()) as usize + 1
    }
}
/// Whether a relation seen from index `from` in `len` values with this period is
/// claimed (see the module documentation).
fn claimed(len: usize, from: usize, period: usize) -> bool {
    let seen = len - from;
    seen >= 3 * period && seen >= MIN_PERIODIC_VALUES && seen >= len.div_ceil(4)
}

/// The least period of `g` by the claim rule, pure (`arithmetic` false) or with a
/// positive saltus, and its least start: `(from, period, saltus)` in indices.
fn least_period(g: &[u32], arithmetic: bool) -> Option<(usize, usize, u32)> {
    least_period_where(g, arithmetic, |_, _| true)
}

/// [`least_period`] among the relations `(from, period)` that `accept` takes.
fn least_period_where(
    g: &[u32],
    arithmetic: bool,
    accept: impl Fn(usize, usize) -> bool,
) -> Option<(usize, usize, u32)> {
    let len = g.len();
    let last = len.checked_sub(1)?;
    for period in 1..=len / 3 {
        let Some(saltus) = g[last].checked_sub(g[last - period]) else {
            continue;
        };
        if (saltus != 0) != arithmetic {
            continue;
        }
        let mut from = last - period;
        while from > 0 && g[from - 1].checked_add(saltus) == Some(g[from - 1 + period]) {
            from -= 1;
        }
        // The relation holds for every index from `from` on, so the periodic part is
        // `from..len`: `len - from` values, the first `period` of them its base.
        if claimed(len, from, period) && accept(from, period) {
            return Some((from, period, saltus));
        }
    }
    None
}

/// The period of one row or column whose first index is `first`.
fn period_of(first: u64, values: &[u32]) -> Option<Period> {
    least_period(values, false)
        .or_else(|| least_period(values, true))
        .map(|(from, period, saltus)| Period {
            from: first.saturating_add(from as u64),
            period: period as u64,
            saltus,
        })
}

/// The P-positions of a sequence: residue classes, a recurrence, or a list.
fn sequence_p_positions(first: u64, values: &[u32]) -> SequencePPositions {
    let positions: Vec<u64> = values
        .iter()
        .enumerate()
        .filter(|(_, v)| **v == 0)
        .map(|(i, _)| first.saturating_add(i as u64))
        .collect();
    if let Some(classes) = residue_classes(first, values) {
        return SequencePPositions::Residues(classes);
    }
    let last = first.saturating_add((values.len() as u64).saturating_sub(1));
    if let Some(recurrence) = recurrence(&positions, last) {
        return SequencePPositions::Recurrence(recurrence);
    }
    if positions.len() <= LISTED {
        SequencePPositions::Seen(positions)
    } else {
        SequencePPositions::Many {
            count: positions.len(),
            first: positions[..LISTED].to_vec(),
        }
    }
}

/// The P-positions as residue classes, if their indicator has a pure period with at
/// least one P-position in its periodic part.
fn residue_classes(first: u64, values: &[u32]) -> Option<ResidueClasses> {
    let indicator: Vec<u32> = values.iter().map(|&v| u32::from(v == 0)).collect();
    // A run of non-zero values at the end is a period 1 holding no P-position; the
    // classes are the least period whose periodic part holds one.
    let (from, period, _) =
        least_period_where(&indicator, false, |from, _| indicator[from..].contains(&1))?;
    let modulus = period as u64;
    let mut residues: Vec<u64> = (from..from + period)
        .filter(|&i| indicator[i] == 1)
        .map(|i| first.saturating_add(i as u64) % modulus)
        .collect();
    if residues.is_empty() {
        return None;
    }
    residues.sort_unstable();
    let in_class = |n: u64| residues.binary_search(&(n % modulus)).is_ok();
    let (mut also, mut except) = (Vec::new(), Vec::new());
    for (i, &flag) in indicator[..from].iter().enumerate() {
        let n = first.saturating_add(i as u64);
        match (flag == 1, in_class(n)) {
            (true, false) => also.push(n),
            (false, true) => except.push(n),
            _ => {}
        }
    }
    Some(ResidueClasses {
        modulus,
        residues,
        from: first.saturating_add(from as u64),
        also,
        except,
    })
}

/// Every coefficient vector of length `d` with entries in `-MAX..=MAX` and a non-zero
/// last entry, smallest sum of absolute values first.
fn coefficient_vectors(d: usize) -> Vec<Vec<i64>> {
    let side = (2 * MAX_COEFFICIENT + 1) as usize;
    let mut all: Vec<Vec<i64>> = (0..side.pow(d as u32))
        .map(|mut code| {
            (0..d)
                .map(|_| {
                    let c = (code % side) as i64 - MAX_COEFFICIENT;
                    code /= side;
                    c
                })
                .collect::<Vec<i64>>()
        })
        .filter(|c| c[d - 1] != 0)
        .collect();
    all.sort_by_key(|c| (c.iter().map(|x| x.abs()).sum::<i64>(), c.clone()));
    all
}

/// A linear recurrence of the P-positions `p` (increasing), all at most `last`, by the
/// claim rule of the module documentation.
fn recurrence(p: &[u64], last: u64) -> Option<Recurrence> {
    let p: Vec<i128> = p.iter().map(|&x| i128::from(x)).collect();
    for d in 1..=3usize {
        for start in 0..=2usize {
            // Equations k = start + d .. p.len().
            if p.len() < start + d + MIN_RECURRENCE_CHECKS {
                continue;
            }
            let mut best: Option<(Vec<i64>, i128)> = None;
            for c in coefficient_vectors(d) {
                let linear = |k: usize| -> i128 {
                    (0..d)
                        .map(|i| i128::from(c[i]) * p[k - 1 - i])
                        .sum::<i128>()
                };
                let k0 = start + d;
                let constant = p[k0] - linear(k0);
                if !(k0..p.len()).all(|k| p[k] == linear(k) + constant) {
                    continue;
                }
                let next = linear(p.len()) + constant;
                if next <= i128::from(last) {
                    continue;
                }
                let better = match &best {
                    None => true,
                    Some((_, b)) => constant == 0 && *b != 0,
                };
                if better {
                    best = Some((c, constant));
                }
            }
            if let Some((coefficients, constant)) = best {
                let next = (0..d)
                    .map(|i| i128::from(coefficients[i]) * p[p.len() - 1 - i])
                    .sum::<i128>()
                    + constant;
                return Some(Recurrence {
                    coefficients,
                    constant: i64::try_from(constant).ok()?,
                    start,
                    positions: p.iter().map(|&x| x as u64).collect(),
                    next,
                });
            }
        }
    }
    None
}

/// The P-positions of a table: a line, complementary pairs, or a list; `None` when
/// there are none.
fn grid_p_positions(
    xs: &RangeInclusive<u64>,
    ys: &RangeInclusive<u64>,
    zeros: &[(u64, u64)],
) -> Option<GridPPositions> {
    let &(x, y) = zeros.first()?;
    let inside = |cell: (u64, u64)| xs.contains(&cell.0) && ys.contains(&cell.1);
    let lines = [
        Line::Diagonal(i128::from(y) - i128::from(x)),
        Line::Column(x),
        Line::Row(y),
    ];
    for line in lines {
        let on_line = |(x, y): (u64, u64)| match line {
            Line::Diagonal(c) => i128::from(y) - i128::from(x) == c,
            Line::Column(c) => x == c,
            Line::Row(c) => y == c,
        };
        let cells = xs
            .clone()
            .flat_map(|x| ys.clone().map(move |y| (x, y)))
            .filter(|&cell| on_line(cell))
            .count();
        if cells >= 3 && cells == zeros.len() && zeros.iter().all(|&cell| on_line(cell)) {
            return Some(GridPPositions::Line(line));
        }
    }
    let max = (*xs.end()).max(*ys.end());
    let largest_step = if max <= MAX_PAIR_ENTRY {
        MAX_PAIR_STEP
    } else {
        0
    };
    let mut matches = (1..=largest_step).filter_map(|step| {
        let pairs = complementary_pairs(step, max);
        let mut predicted: Vec<(u64, u64)> = pairs
            .iter()
            .flat_map(|&(a, b)| [(a, b), (b, a)])
            .filter(|&cell| inside(cell))
            .collect();
        predicted.sort_unstable();
        predicted.dedup();
        (predicted == zeros).then_some((step, pairs))
    });
    if let Some((step, pairs)) = matches.next()
        && matches.next().is_none()
        && let Some(pattern) = pair_pattern(step, pairs, |&(a, b)| inside((a, b)) || inside((b, a)))
    {
        return Some(GridPPositions::Pairs(pattern));
    }
    Some(GridPPositions::Unstructured {
        count: zeros.len(),
        first: zeros.iter().take(LISTED_CELLS).copied().collect(),
    })
}

/// The pairs `(a_k, b_k)` with `a_k <= max`: `a_k` the mex of the earlier `a`s and `b`s,
/// `b_k = a_k + step·k`.
fn complementary_pairs(step: u64, max: u64) -> Vec<(u64, u64)> {
    // Every b_k exceeds every earlier entry, so marks up to `max` suffice.
    let mut used = vec![false; max as usize + 1];
    let mut pairs = Vec::new();
    let mut mex = 0u64;
    for k in 0u64.. {
        while mex <= max && used[mex as usize] {
            mex += 1;
        }
        if mex > max {
            break;
        }
        let b = mex + k * step;
        used[mex as usize] = true;
        if b <= max {
            used[b as usize] = true;
        }
        pairs.push((mex, b));
    }
    pairs
}

/// The pattern of the pairs `(a_k, b_k)`, `k = 0, 1, ...`, of which those for which
/// `seen` holds have a cell in range, if at least [`MIN_PAIRS`] with `k >= 1` are seen.
fn pair_pattern(
    step: u64,
    mut pairs: Vec<(u64, u64)>,
    seen: impl Fn(&(u64, u64)) -> bool,
) -> Option<PairPattern> {
    let indexed: Vec<(u64, u64)> = pairs
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, pair)| seen(pair))
        .map(|(k, &(a, _))| (k as u64, a))
        .collect();
    if indexed.len() < MIN_PAIRS {
        return None;
    }
    let &(last_k, last_a) = indexed.last()?;
    pairs.truncate(last_k as usize + 1);
    let lower = indexed
        .iter()
        .map(|&(k, a)| a as f64 / k as f64)
        .fold(f64::MIN, f64::max);
    let upper = indexed
        .iter()
        .map(|&(k, a)| (a + 1) as f64 / k as f64)
        .fold(f64::MAX, f64::min);
    Some(PairPattern {
        step,
        pairs,
        seen: indexed.len() + usize::from(seen(&(0, 0))),
        last_seen: (last_k, last_a),
        ratio: last_a as f64 / last_k as f64,
        beatty_bounds: (lower, upper),
    })
}
