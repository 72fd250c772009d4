//! The findings of the pattern finder computed from their definitions, for the
//! tests only: every search here is the plain one, written apart from the finder's
//! (each period tried with a walk over the values; residue classes by the least
//! modulus whose breaks all come before the claimed start; recurrences by trying
//! every coefficient vector; lines by trying every line of the table; complementary
//! pairs by taking each least unused number), slow on large tables but simple
//! enough to read as the definition. The property tests check that the finder gives
//! exactly the same findings on random and planted tables.

use super::{
    GridFindings, GridPPositions, LISTED, LISTED_CELLS, Line, LinePeriods, MAX_COEFFICIENT,
    MAX_PAIR_ENTRY, MAX_PAIR_STEP, MIN_PAIRS, MIN_PERIODIC_VALUES, MIN_RECURRENCE_CHECKS,
    PairPattern, Period, Recurrence, ResidueClasses, SequenceFindings, SequencePPositions,
};
use std::collections::BTreeSet;
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
        if claimed(len, from, period) {
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

/// The P-positions as residue classes, by their definition: the least modulus
/// `m` for which the indicator of the P-positions repeats with period `m` from some
/// `from` on (claimed as a period is) with a P-position at or after `from`; the
/// residues are those of the P-positions of its first period.
fn residue_classes(first: u64, values: &[u32]) -> Option<ResidueClasses> {
    let is_p = |i: usize| values[i] == 0;
    let len = values.len();
    let last_p_position = (0..len).rev().find(|&i| is_p(i))?;
    let (from, modulus) = (1..=len / 3).find_map(|m| {
        // The least `from` with no break of the period at or after it.
        let from = (0..len - m)
            .filter(|&n| is_p(n) != is_p(n + m))
            .max()
            .map_or(0, |n| n + 1);
        (claimed(len, from, m) && last_p_position >= from).then_some((from, m))
    })?;
    let n_of = |i: usize| first.saturating_add(i as u64);
    // One period holds every residue (the indicator repeats from `from` on).
    let residues: BTreeSet<u64> = (from..from + modulus)
        .filter(|&i| is_p(i))
        .map(|i| n_of(i) % modulus as u64)
        .collect();
    let in_class = |i: usize| residues.contains(&(n_of(i) % modulus as u64));
    Some(ResidueClasses {
        modulus: modulus as u64,
        residues: residues.iter().copied().collect(),
        from: n_of(from),
        also: (0..from)
            .filter(|&i| is_p(i) && !in_class(i))
            .map(n_of)
            .collect(),
        except: (0..from)
            .filter(|&i| !is_p(i) && in_class(i))
            .map(n_of)
            .collect(),
    })
}

/// A linear recurrence of the P-positions `p` (increasing, all at most `last`), by
/// trying every coefficient vector: the fewest terms `d`, then the earliest start,
/// then among the recurrences that hold on every term from `start + d` on and
/// predict a next term past `last`: one without a constant first, then the smallest
/// sum of absolute coefficients, then the least vector.
fn recurrence(p: &[u64], last: u64) -> Option<Recurrence> {
    let p: Vec<i128> = p.iter().map(|&x| i128::from(x)).collect();
    let range = -MAX_COEFFICIENT..=MAX_COEFFICIENT;
    for d in 1..=3usize {
        // Every vector of `d` coefficients, the last non-zero.
        let mut vectors: Vec<Vec<i64>> = vec![Vec::new()];
        for _ in 0..d {
            vectors = vectors
                .into_iter()
                .flat_map(|v| {
                    range.clone().map(move |c| {
                        let mut longer = v.clone();
                        longer.push(c);
                        longer
                    })
                })
                .collect();
        }
        vectors.retain(|c| c[d - 1] != 0);
        for start in 0..=2usize {
            if p.len() < start + d + MIN_RECURRENCE_CHECKS {
                continue;
            }
            let linear = |c: &[i64], k: usize| -> i128 {
                c.iter()
                    .enumerate()
                    .map(|(i, &ci)| i128::from(ci) * p[k - 1 - i])
                    .sum()
            };
            let best = vectors
                .iter()
                .filter_map(|c| {
                    let constant = p[start + d] - linear(c, start + d);
                    let holds = (start + d..p.len()).all(|k| p[k] == linear(c, k) + constant);
                    let next = linear(c, p.len()) + constant;
                    (holds && next > i128::from(last)).then_some((c, constant, next))
                })
                .min_by_key(|(c, constant, _)| {
                    let size: i64 = c.iter().map(|x| x.abs()).sum();
                    (*constant != 0, size, (*c).clone())
                });
            if let Some((coefficients, constant, next)) = best {
                return Some(Recurrence {
                    coefficients: coefficients.clone(),
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

/// The P-positions of a table, by trying every line of the table (diagonals, then
/// columns, then rows) and every step of complementary pairs; `None` when there are
/// none.
fn grid_p_positions(
    xs: &RangeInclusive<u64>,
    ys: &RangeInclusive<u64>,
    zeros: &[(u64, u64)],
) -> Option<GridPPositions> {
    if zeros.is_empty() {
        return None;
    }
    let zero_set: BTreeSet<(u64, u64)> = zeros.iter().copied().collect();
    let cells: Vec<(u64, u64)> = xs
        .clone()
        .flat_map(|x| ys.clone().map(move |y| (x, y)))
        .collect();
    let diagonals = cells
        .iter()
        .map(|&(x, y)| Line::Diagonal(i128::from(y) - i128::from(x)));
    let columns = xs.clone().map(Line::Column);
    let rows = ys.clone().map(Line::Row);
    let mut lines: Vec<Line> = Vec::new();
    for line in diagonals.chain(columns).chain(rows) {
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    for line in lines {
        let on_line: BTreeSet<(u64, u64)> = cells
            .iter()
            .copied()
            .filter(|&(x, y)| match line {
                Line::Diagonal(c) => i128::from(y) - i128::from(x) == c,
                Line::Column(c) => x == c,
                Line::Row(c) => y == c,
            })
            .collect();
        if on_line.len() >= 3 && on_line == zero_set {
            return Some(GridPPositions::Line(line));
        }
    }
    let inside = |(a, b): (u64, u64)| xs.contains(&a) && ys.contains(&b);
    let max = (*xs.end()).max(*ys.end());
    let steps = if max <= MAX_PAIR_ENTRY {
        MAX_PAIR_STEP
    } else {
        0
    };
    let matching: Vec<(u64, Vec<(u64, u64)>)> = (1..=steps)
        .map(|step| (step, complementary_pairs(step, max)))
        .filter(|(_, pairs)| {
            let predicted: BTreeSet<(u64, u64)> = pairs
                .iter()
                .flat_map(|&(a, b)| [(a, b), (b, a)])
                .filter(|&cell| inside(cell))
                .collect();
            predicted == zero_set
        })
        .collect();
    if let [(step, pairs)] = matching.as_slice() {
        let seen = |&(a, b): &(u64, u64)| inside((a, b)) || inside((b, a));
        if let Some(pattern) = pair_pattern(*step, pairs, seen) {
            return Some(GridPPositions::Pairs(pattern));
        }
    }
    Some(GridPPositions::Unstructured {
        count: zeros.len(),
        first: zeros.iter().take(LISTED_CELLS).copied().collect(),
    })
}

/// The pairs `(a_k, b_k)` with `a_k <= max`, by their definition: `a_k` the least
/// number that is no earlier `a` or `b`, `b_k = a_k + step·k`.
fn complementary_pairs(step: u64, max: u64) -> Vec<(u64, u64)> {
    let mut used = BTreeSet::new();
    let mut pairs = Vec::new();
    for k in 0u64.. {
        let a = (0..).find(|n| !used.contains(n)).unwrap_or(u64::MAX);
        if a > max {
            break;
        }
        let b = a + k * step;
        used.insert(a);
        used.insert(b);
        pairs.push((a, b));
    }
    pairs
}

/// The pattern of `pairs`, of which those for which `seen` holds have a cell in
/// range, if at least [`MIN_PAIRS`] with `k >= 1` are seen.
fn pair_pattern(
    step: u64,
    pairs: &[(u64, u64)],
    seen: impl Fn(&(u64, u64)) -> bool,
) -> Option<PairPattern> {
    let seen_from_1: Vec<(u64, u64)> = (1..pairs.len())
        .filter(|&k| seen(&pairs[k]))
        .map(|k| (k as u64, pairs[k].0))
        .collect();
    if seen_from_1.len() < MIN_PAIRS {
        return None;
    }
    let (last_k, last_a) = *seen_from_1.last()?;
    let mut lower = f64::MIN;
    let mut upper = f64::MAX;
    for &(k, a) in &seen_from_1 {
        lower = lower.max(a as f64 / k as f64);
        upper = upper.min((a + 1) as f64 / k as f64);
    }
    Some(PairPattern {
        step,
        pairs: pairs[..=last_k as usize].to_vec(),
        seen: seen_from_1.len() + usize::from(seen(&(0, 0))),
        last_seen: (last_k, last_a),
        ratio: last_a as f64 / last_k as f64,
        beatty_bounds: (lower, upper),
    })
}
