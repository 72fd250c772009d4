//! Patterns in tables of nimbers: periods, P-positions as residue classes, recurrences
//! and complementary pairs, found in the values of a computed range.
//!
//! Everything here is *seen*, never proven: each finding holds on the range it was
//! checked on and says so ("on n <= 1000", "checked, not proven"). Proofs of
//! periodicity for heap rules live in [`crate::sequence`]; this module looks at any
//! table, whatever game it came from.
//!
//! # One varying integer ([`find_in_sequence`])
//!
//! - **Period.** `G(n + p) = G(n) + s` for every `n >= n0` in range: a *pure* period
//!   when `s = 0`, an *arithmetic* one (saltus `s > 0`) otherwise. For each `p` in
//!   increasing order the saltus is read from the last values and the relation followed
//!   back from the end to the least `n0` from which it holds, as
//!   [`crate::sequence::find_periodicity`] does (here every `p` at once, in time
//!   linear in the values: the Z-function of the differences read from the end gives
//!   each `n0`); a pure period is looked for first, an arithmetic one only when no pure
//!   period is claimed. **Claim rule:** the values from
//!   `n0` to the end hold the period at least three times (`N + 1 - n0 >= 3p`) and
//!   number at least seven and a quarter of the range, so that a few equal values at
//!   the end are not taken for a period of 1 (an outcome table of Fibonacci Nim to
//!   1000 ends in 13 N-positions). The least such `p` is reported, with its least `n0`. (That
//!   function needs a heap rule, whose theorems decide its claims, and its own claim
//!   rule asks the periodic part to be as long as the preperiod plus a period: 166
//!   values for Kayles where three periods past the preperiod are 107; its core is
//!   private to `sequence`, hence the few lines here.)
//! - **P-positions as residue classes.** The same detection on the indicator of value
//!   0 (pure periods only), the least period `q` (from `m`) whose periodic part holds a
//!   P-position: the P-positions are the classes `n = r (mod q)` that hold a
//!   P-position at `m..m + q`, and the positions before `m` that differ from the classes
//!   are listed as exceptions ("and also n = 1", "except n = 7").
//! - **P-positions by a recurrence**, when they are not residue classes:
//!   `p(k) = c1 p(k-1) + ... + cd p(k-d) + c` with `d <= 3`, coefficients `|ci| <= 3`
//!   (`cd != 0`) and any integer constant `c`, from the `j`-th P-position on (`j <= 2`
//!   leading terms may stand apart, like 0 before Fibonacci Nim's 1, 2, 3, 5, 8, ...).
//!   **Claim rule:** it holds for every later P-position in range, at least five
//!   times, and the term it predicts next lies past the range (so it predicts no
//!   P-position the table lacks). The least order, then the fewest leading terms apart,
//!   then no constant, then the smallest coefficients win.
//! - Otherwise the P-positions are listed as seen (at most 50) or counted: no pattern.
//!
//! # Two varying integers ([`find_in_grid`])
//!
//! - **Symmetry** `G(x, y) = G(y, x)` on the square both ranges share.
//! - **Nim-sum:** `G(x, y) = x xor y` on every cell.
//! - **P-positions on a line** `y - x = c`, `x = c` or `y = c`: exactly the cells of
//!   the line in range, at least three of them.
//! - **P-positions as complementary pairs** `(a_k, b_k)` and `(b_k, a_k)`, where
//!   `a_k = mex {a_i, b_i : i < k}` and `b_k = a_k + s·k` for a step `s >= 1`
//!   (Wythoff's game: `s = 1`; `wythoff[d]`: `s = d + 1`). **Claim rule:** the
//!   P-positions in range are exactly the cells these pairs give, for exactly one step
//!   `s <= 32`, and at least five pairs `k >= 1` are seen (looked for when no
//!   coordinate exceeds 2^20, since the pairs are generated from 0). The ratio `a_k / k` of the
//!   last pair seen estimates the constant `α` of a Beatty sequence `a_k = ⌊k α⌋`
//!   (the golden ratio for Wythoff), with the interval of `α` that every pair seen
//!   allows, `max a_k / k <= α < min (a_k + 1) / k`: an estimate, assuming that form.
//! - **Rows and columns** (one variable fixed) periodic in the other, by the rule of
//!   [`find_in_sequence`], with the least common multiple of the pure periods when
//!   every row (column) has one.

mod periods;

use periods::PeriodSearch;
use std::fmt;
use std::ops::RangeInclusive;

/// The fewest values past the preperiod from which a period is claimed, whatever the
/// period (see the module documentation).
const MIN_PERIODIC_VALUES: usize = 7;

/// The most P-positions listed when they follow no pattern.
const LISTED: usize = 50;

/// The most P-positions of a table listed when they follow no pattern.
const LISTED_CELLS: usize = 12;

/// How many times a recurrence must be seen to hold.
const MIN_RECURRENCE_CHECKS: usize = 5;

/// The largest absolute value of a recurrence coefficient tried.
const MAX_COEFFICIENT: i64 = 3;

/// The largest step of complementary pairs tried.
const MAX_PAIR_STEP: u64 = 32;

/// The largest coordinate for which complementary pairs are looked for (they are
/// generated from 0).
const MAX_PAIR_ENTRY: u64 = 1 << 20;

/// The fewest complementary pairs (`k >= 1`) seen for a claim.
const MIN_PAIRS: usize = 5;

/// A period seen in a sequence: `G(n + period) = G(n) + saltus` for every `n >= from`
/// in the range checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Period {
    /// The least `n` from which the relation holds (the end of the preperiod).
    pub from: u64,
    /// The least period.
    pub period: u64,
    /// The saltus: 0 for a pure period.
    pub saltus: u32,
}

/// P-positions as residue classes: from `from` on, `n` is a P-position iff
/// `n mod modulus` is one of `residues`; before `from`, `also` lists the P-positions
/// outside the classes and `except` the positions in the classes that are not
/// P-positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResidueClasses {
    /// The modulus (the least period of the P-positions).
    pub modulus: u64,
    /// The residues, increasing, at least one.
    pub residues: Vec<u64>,
    /// The least `n` from which the classes hold exactly.
    pub from: u64,
    /// P-positions before `from` outside the classes.
    pub also: Vec<u64>,
    /// Positions before `from` in the classes that are not P-positions.
    pub except: Vec<u64>,
}

/// P-positions `p(0) < p(1) < ...` following
/// `p(k) = c1 p(k-1) + ... + cd p(k-d) + constant` for every `k >= start + d`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recurrence {
    /// `c1, ..., cd`.
    pub coefficients: Vec<i64>,
    /// The constant term.
    pub constant: i64,
    /// The index of the first term of the recurrence (0 to 2); the terms before it
    /// stand apart.
    pub start: usize,
    /// Every P-position in range, increasing.
    pub positions: Vec<u64>,
    /// The next term the recurrence gives, past the range.
    pub next: i128,
}

/// What the P-positions (value 0) of a sequence look like.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SequencePPositions {
    /// Residue classes, with exceptions before their start.
    Residues(ResidueClasses),
    /// A linear recurrence.
    Recurrence(Recurrence),
    /// No pattern; every P-position in range, at most 50 of them (maybe none).
    Seen(Vec<u64>),
    /// No pattern; too many to list.
    Many {
        /// How many P-positions there are in range.
        count: usize,
        /// The first few.
        first: Vec<u64>,
    },
}

/// What [`find_in_sequence`] saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SequenceFindings {
    /// The first `n`.
    pub first: u64,
    /// The last `n`, `None` when no values were given.
    pub last: Option<u64>,
    /// The least period (pure if any, otherwise arithmetic), if one is claimed.
    pub period: Option<Period>,
    /// The P-positions.
    pub p_positions: SequencePPositions,
}

/// Complementary pairs: see [`GridPPositions::Pairs`].
#[derive(Debug, Clone, PartialEq)]
pub struct PairPattern {
    /// The step `s` in `b_k - a_k = s·k`.
    pub step: u64,
    /// The pairs `(a_k, b_k)`, `k = 0, 1, ..., K`, up to the last of which a cell lies
    /// in range.
    pub pairs: Vec<(u64, u64)>,
    /// How many of them have a cell in range (all of them when the ranges start at 0).
    pub seen: usize,
    /// `(K, a_K)` for the last pair seen.
    pub last_seen: (u64, u64),
    /// `a_K / K` for the last pair seen: an estimate of the Beatty constant.
    pub ratio: f64,
    /// `(max a_k / k, min (a_k + 1) / k)` over the pairs seen, `k >= 1`: the interval
    /// in which a Beatty constant `α` with `a_k = ⌊k α⌋` would lie.
    pub beatty_bounds: (f64, f64),
}

/// A line of cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// `y - x = c`.
    Diagonal(i128),
    /// `x = c`.
    Column(u64),
    /// `y = c`.
    Row(u64),
}

/// What the P-positions (value 0) of a table look like.
#[derive(Debug, Clone, PartialEq)]
pub enum GridPPositions {
    /// Exactly the cells of a line.
    Line(Line),
    /// Exactly the pairs `(a_k, b_k)` and `(b_k, a_k)`, `a_k` the mex of the earlier
    /// `a`s and `b`s and `b_k = a_k + step·k`.
    Pairs(PairPattern),
    /// No pattern: how many, and the first few in order of `x` then `y`.
    Unstructured {
        /// How many P-positions there are in range.
        count: usize,
        /// The first few.
        first: Vec<(u64, u64)>,
    },
}

/// The periods of the rows (or columns) of a table: for each fixed value of one
/// variable, the period in the other, if one is claimed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinePeriods {
    /// `(fixed value, period)`, in order.
    pub periods: Vec<(u64, Option<Period>)>,
}

impl LinePeriods {
    /// The least common multiple of the pure periods when every line has one (and it
    /// fits), else `None`.
    pub fn common_pure_period(&self) -> Option<u64> {
        if self.periods.is_empty() {
            return None;
        }
        self.periods.iter().try_fold(1u64, |lcm, (_, period)| {
            let period = period.as_ref().filter(|p| p.saltus == 0)?;
            let g = gcd(lcm, period.period);
            (lcm / g).checked_mul(period.period)
        })
    }

    /// How many lines have a period.
    pub fn periodic(&self) -> usize {
        self.periods.iter().filter(|(_, p)| p.is_some()).count()
    }
}

/// What [`find_in_grid`] saw.
#[derive(Debug, Clone, PartialEq)]
pub struct GridFindings {
    /// The values of `x`.
    pub xs: RangeInclusive<u64>,
    /// The values of `y`.
    pub ys: RangeInclusive<u64>,
    /// Whether `G(x, y) = G(y, x)` on the square both ranges share; `None` when they
    /// share fewer than two values.
    pub symmetric: Option<bool>,
    /// Whether `G(x, y) = x xor y` on every cell (`false` for an empty table).
    pub nim_sum: bool,
    /// The P-positions; `None` when there are none in range.
    pub p_positions: Option<GridPPositions>,
    /// For each `x`, the period in `y`.
    pub rows: LinePeriods,
    /// For each `y`, the period in `x`.
    pub columns: LinePeriods,
}

/// Looks for patterns in the values `values[i]` of `n = first + i`.
///
/// ```
/// use grundy::pattern::{find_in_sequence, SequencePPositions};
///
/// // Bash with m = 3: G(n) = n mod 4.
/// let values: Vec<u32> = (0..100).map(|n| n % 4).collect();
/// let found = find_in_sequence(0, &values);
/// assert_eq!(found.period.as_ref().map(|p| (p.from, p.period)), Some((0, 4)));
/// let SequencePPositions::Residues(classes) = &found.p_positions else { panic!() };
/// assert_eq!((classes.modulus, classes.residues.as_slice()), (4, &[0][..]));
/// assert!(found.to_string().contains("P-positions for n <= 99 are exactly n = 0 (mod 4)"));
/// ```
pub fn find_in_sequence(first: u64, values: &[u32]) -> SequenceFindings {
    let last = (!values.is_empty()).then(|| first.saturating_add(values.len() as u64 - 1));
    SequenceFindings {
        first,
        last,
        period: period_of(first, values),
        p_positions: sequence_p_positions(first, values),
    }
}

/// A variable of a table: its name, its first value and how many values it takes
/// (consecutive integers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Axis<'a> {
    /// The variable's name, as the sentences say it (`n`, `x`).
    pub name: &'a str,
    /// Its first value.
    pub first: u64,
    /// How many values it takes: `first..first + count`.
    pub count: u64,
}

/// The patterns found in a table of one variable ([`find_in_sequence`]) or two
/// ([`find_in_grid`], the first variable down the rows), as sentences, one a line,
/// each stating the range it was checked on: the `patterns` of `grundy table
/// --json`, shared by every front end that shows them. `values` are the cells row
/// by row; a table of another shape, or whose cells are not all there, or whose
/// last value of a variable passes 2^64, has none.
///
/// ```
/// use grundy::pattern::{Axis, table_patterns};
///
/// let values: Vec<u32> = (0..40).map(|n| n % 3).collect();
/// let lines = table_patterns(&[Axis { name: "n", first: 0, count: 40 }], &values);
/// assert!(lines.iter().any(|line| line.contains("n = 0 (mod 3)")));
/// ```
#[must_use]
pub fn table_patterns(axes: &[Axis<'_>], values: &[u32]) -> Vec<String> {
    let cells = axes
        .iter()
        .try_fold(1u64, |cells, axis| cells.checked_mul(axis.count));
    let fits = axes
        .iter()
        .all(|axis| axis.count > 0 && axis.first.checked_add(axis.count - 1).is_some());
    if !fits || cells != Some(values.len() as u64) {
        return Vec::new();
    }
    let found = match axes {
        [axis] => find_in_sequence(axis.first, values).named(axis.name),
        [rows, columns] => {
            let width = columns.count;
            find_in_grid(
                rows.first..=rows.first + (rows.count - 1),
                columns.first..=columns.first + (width - 1),
                |x, y| values[((x - rows.first) * width + (y - columns.first)) as usize],
            )
            .named(rows.name, columns.name)
        }
        _ => String::new(),
    };
    found.lines().map(str::to_owned).collect()
}

/// Looks for patterns in the table of `value(x, y)` for `x` in `xs` and `y` in `ys`.
///
/// ```
/// use grundy::pattern::find_in_grid;
///
/// let found = find_in_grid(0..=15, 0..=15, |x, y| (x ^ y) as u32);
/// assert!(found.nim_sum);
/// assert_eq!(found.symmetric, Some(true));
/// assert!(found.to_string().contains("P-positions for 0 <= x <= 15, 0 <= y <= 15 are exactly the cells with x = y"));
/// ```
pub fn find_in_grid(
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

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Whether a relation seen from index `from` in `len` values with this period is
/// claimed (see the module documentation).
fn claimed(len: usize, from: usize, period: usize) -> bool {
    let seen = len - from;
    seen >= 3 * period && seen >= MIN_PERIODIC_VALUES && seen >= len.div_ceil(4)
}

/// The least period of `values`, whose first index is `first`: pure if any, else
/// arithmetic.
fn period_of(first: u64, values: &[u32]) -> Option<Period> {
    let search = PeriodSearch::new(values);
    search
        .least(false)
        .or_else(|| search.least(true))
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
    let last_p_position = indicator.iter().rposition(|&flag| flag == 1)?;
    let (from, period, _) =
        PeriodSearch::new(&indicator).least_where(false, |from, _| last_p_position >= from)?;
    let modulus = period as u64;
    let mut residues: Vec<u64> = (from..from + period)
        .filter(|&i| indicator[i] == 1)
        .map(|i| first.saturating_add(i as u64) % modulus)
        .collect();
    if residues.is_empty() {
        return None;
    }
    residues.sort_unstable();
    // Positions past 2^64 - 1 are all said as 2^64 - 1: one residue, once.
    residues.dedup();
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

/// `n <= N` or `a <= n <= N`.
fn range_text(name: &str, first: u64, last: u64) -> String {
    if first == 0 {
        format!("{name} <= {last}")
    } else {
        format!("{first} <= {name} <= {last}")
    }
}

/// Numbers separated by commas.
fn list(numbers: &[u64]) -> String {
    numbers
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for Period {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_named(f, "n")
    }
}

impl Period {
    /// The statement, the variable called `v`.
    fn write_named(&self, f: &mut impl fmt::Write, v: &str) -> fmt::Result {
        let (p, n0, s) = (self.period, self.from, self.saltus);
        if s == 0 {
            write!(
                f,
                "periodic with period {p} from {v} = {n0} on: G({v} + {p}) = G({v})"
            )
        } else {
            write!(
                f,
                "arithmetic-periodic with period {p} and saltus {s} from {v} = {n0} on: \
                 G({v} + {p}) = G({v}) + {s}"
            )
        }
    }
}

impl fmt::Display for SequenceFindings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_named(f, "n")
    }
}

impl SequenceFindings {
    /// What was found, stated with the variable called `name` (`n` in
    /// [`Display`](fmt::Display)): `grundy table 'bash[3](k)' k=0..100` speaks
    /// of `k`.
    #[must_use]
    pub fn named(&self, name: &str) -> String {
        let mut out = String::new();
        let _ = self.write_named(&mut out, name);
        out
    }

    fn write_named(&self, f: &mut impl fmt::Write, v: &str) -> fmt::Result {
        let Some(last) = self.last else {
            return writeln!(f, "No values: no pattern found.");
        };
        let range = range_text(v, self.first, last);
        match &self.period {
            Some(period) => writeln!(
                f,
                "Values for {range}: {} (checked on {}, not proven).",
                Named(period, v),
                range_text_full(v, period.from, last)
            )?,
            None => writeln!(
                f,
                "Values for {range}: no pattern found (no period, pure or arithmetic, seen \
                 at least three times up to {v} = {last})."
            )?,
        }
        match &self.p_positions {
            SequencePPositions::Residues(classes) => {
                let residues = list(&classes.residues);
                let m = classes.modulus;
                let exceptions = classes.also.len() + classes.except.len();
                let classes_text = if m == 1 {
                    format!("every {v}")
                } else {
                    format!("{v} = {residues} (mod {m})")
                };
                if exceptions <= 10 {
                    write!(f, "P-positions for {range} are exactly {classes_text}")?;
                    if !classes.also.is_empty() {
                        write!(f, ", and also {v} = {}", list(&classes.also))?;
                    }
                    if !classes.except.is_empty() {
                        write!(f, ", except {v} = {}", list(&classes.except))?;
                    }
                    writeln!(f, " (checked, not proven).")
                } else {
                    writeln!(
                        f,
                        "P-positions for {} are exactly {classes_text} (checked, not \
                         proven); before {v} = {} they differ from these classes at {} \
                         positions.",
                        range_text(v, classes.from, last),
                        classes.from,
                        exceptions
                    )
                }
            }
            SequencePPositions::Recurrence(r) => {
                let mut terms = Vec::new();
                for (i, c) in r.coefficients.iter().enumerate() {
                    let term = format!("p(k-{})", i + 1);
                    match (*c, terms.is_empty()) {
                        (0, _) => {}
                        (1, true) => terms.push(term),
                        (-1, true) => terms.push(format!("-{term}")),
                        (1, false) => terms.push(format!("+ {term}")),
                        (-1, false) => terms.push(format!("- {term}")),
                        (c, true) => terms.push(format!("{c} {term}")),
                        (c, false) if c < 0 => terms.push(format!("- {} {term}", -c)),
                        (c, false) => terms.push(format!("+ {c} {term}")),
                    }
                }
                match r.constant {
                    0 => {}
                    c if c < 0 => terms.push(format!("- {}", -c)),
                    c => terms.push(format!("+ {c}")),
                }
                let d = r.coefficients.len();
                let shown: Vec<u64> = r.positions.iter().take(12).copied().collect();
                let more = if r.positions.len() > shown.len() {
                    ", ..."
                } else {
                    ""
                };
                writeln!(
                    f,
                    "P-positions for {range} are p(0), p(1), ... = {}{more}: p(k) = {} for \
                     every k >= {} (checked on all {} P-positions, and the next it gives, \
                     {}, lies past {v} = {last}; not proven).",
                    list(&shown),
                    terms.join(" "),
                    r.start + d,
                    r.positions.len(),
                    r.next
                )
            }
            SequencePPositions::Seen(positions) if positions.is_empty() => {
                writeln!(f, "No P-positions (value 0) for {range}.")
            }
            SequencePPositions::Seen(positions) if self.period.is_some() => {
                writeln!(
                    f,
                    "P-positions for {range}: only {v} = {}.",
                    list(positions)
                )
            }
            SequencePPositions::Seen(positions) => writeln!(
                f,
                "P-positions for {range}: only {v} = {} (no pattern found; this is what \
                 was seen).",
                list(positions)
            ),
            SequencePPositions::Many { count, first } => writeln!(
                f,
                "P-positions for {range}: {count} of them, beginning {v} = {}, ... (no \
                 pattern found).",
                list(first)
            ),
        }
    }
}

/// A period stated with its variable's name.
struct Named<'a>(&'a Period, &'a str);

impl fmt::Display for Named<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write_named(f, self.1)
    }
}

impl fmt::Display for GridFindings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_named(f, "x", "y")
    }
}

impl GridFindings {
    /// What was found, stated with the variables called `x` and `y` (as in
    /// [`Display`](fmt::Display)) or as given.
    #[must_use]
    pub fn named(&self, x: &str, y: &str) -> String {
        let mut out = String::new();
        let _ = self.write_named(&mut out, x, y);
        out
    }

    fn write_named(&self, f: &mut impl fmt::Write, x: &str, y: &str) -> fmt::Result {
        if self.xs.is_empty() || self.ys.is_empty() {
            return writeln!(f, "No values: no pattern found.");
        }
        let (x0, x1, y0, y1) = (
            *self.xs.start(),
            *self.xs.end(),
            *self.ys.start(),
            *self.ys.end(),
        );
        let range = format!(
            "{}, {}",
            range_text_full(x, x0, x1),
            range_text_full(y, y0, y1)
        );
        let mut found = false;
        if self.nim_sum {
            found = true;
            writeln!(
                f,
                "G({x}, {y}) = {x} xor {y} (the nim-sum) for every {range} (checked, not proven)."
            )?;
        }
        match self.symmetric {
            Some(true) if !self.nim_sum => {
                found = true;
                let (a, b) = (x0.max(y0), x1.min(y1));
                writeln!(
                    f,
                    "The table is symmetric: G({x}, {y}) = G({y}, {x}) for {a} <= {x}, {y} <= {b} \
                     (checked, not proven)."
                )?;
            }
            Some(false) => writeln!(f, "The table is not symmetric.")?,
            _ => {}
        }
        match &self.p_positions {
            None => writeln!(f, "No P-positions (value 0) for {range}.")?,
            Some(GridPPositions::Line(line)) => {
                found = true;
                let cells = match line {
                    Line::Diagonal(0) => format!("{x} = {y}"),
                    Line::Diagonal(c) if *c > 0 => format!("{y} = {x} + {c}"),
                    Line::Diagonal(c) => format!("{x} = {y} + {}", -c),
                    Line::Column(c) => format!("{x} = {c}"),
                    Line::Row(c) => format!("{y} = {c}"),
                };
                writeln!(
                    f,
                    "P-positions for {range} are exactly the cells with {cells} (checked, \
                     not proven)."
                )?;
            }
            Some(GridPPositions::Pairs(pattern)) => {
                found = true;
                let s = pattern.step;
                let shown: Vec<String> = pattern
                    .pairs
                    .iter()
                    .take(8)
                    .map(|(a, b)| format!("({a}, {b})"))
                    .collect();
                let more = if pattern.pairs.len() > shown.len() {
                    ", ..."
                } else {
                    ""
                };
                let step = if s == 1 {
                    "k".to_owned()
                } else {
                    format!("{s}k")
                };
                writeln!(
                    f,
                    "P-positions for {range} are exactly the pairs (a_k, b_k) and (b_k, a_k) \
                     for k = 0, 1, 2, ...: {}{more}, where a_k is the smallest number not \
                     among the earlier a's and b's and b_k = a_k + {step} (checked on {} \
                     pairs, not proven).",
                    shown.join(", "),
                    pattern.seen
                )?;
                let (k, a) = pattern.last_seen;
                let (low, high) = pattern.beatty_bounds;
                writeln!(
                    f,
                    "Estimate: a_k / k = {a}/{k} = {:.4} at the last pair seen; if a_k = \
                     floor(k·α) for a constant α, the pairs seen put α between {low:.4} and \
                     {high:.4} (an estimate, not proven).",
                    pattern.ratio
                )?;
            }
            Some(GridPPositions::Unstructured { count, first }) => {
                let shown: Vec<String> = first.iter().map(|(x, y)| format!("({x}, {y})")).collect();
                let more = if *count > first.len() { ", ..." } else { "" };
                writeln!(
                    f,
                    "P-positions for {range}: {count} of them, {}{more} (no pattern found).",
                    shown.join(", ")
                )?;
            }
        }
        for (lines, fixed, free, kind) in
            [(&self.rows, x, y, "row"), (&self.columns, y, x, "column")]
        {
            let periodic = lines.periodic();
            if periodic == 0 || self.nim_sum && periodic < lines.periods.len() {
                continue;
            }
            if kind == "column" && self.symmetric == Some(true) && self.xs == self.ys {
                writeln!(
                    f,
                    "By the symmetry, the columns are periodic as the rows are."
                )?;
                continue;
            }
            found = true;
            let all = periodic == lines.periods.len();
            if all && let Some(common) = lines.common_pure_period() {
                let from = lines
                    .periods
                    .iter()
                    .filter_map(|(_, p)| p.as_ref().map(|p| p.from))
                    .max()
                    .unwrap_or(0);
                writeln!(
                    f,
                    "Every {kind} (fixed {fixed}) is periodic in {free}, all with period \
                     {common} from {free} = {from} on (checked, not proven)."
                )?;
            } else {
                let shown: Vec<String> = lines
                    .periods
                    .iter()
                    .filter_map(|(at, p)| p.as_ref().map(|p| (at, p)))
                    .take(6)
                    .map(|(at, p)| {
                        if p.saltus == 0 {
                            format!(
                                "{fixed} = {at}: period {} from {free} = {}",
                                p.period, p.from
                            )
                        } else {
                            format!(
                                "{fixed} = {at}: period {} saltus {} from {free} = {}",
                                p.period, p.saltus, p.from
                            )
                        }
                    })
                    .collect();
                let more = if periodic > shown.len() { "; ..." } else { "" };
                writeln!(
                    f,
                    "{periodic} of the {} {kind}s are periodic in {free} ({}{more}) \
                     (checked, not proven).",
                    lines.periods.len(),
                    shown.join("; ")
                )?;
            }
        }
        if !found {
            writeln!(f, "No pattern found for {range}.")?;
        }
        Ok(())
    }
}

/// `a <= name <= b`, always with both ends.
fn range_text_full(name: &str, first: u64, last: u64) -> String {
    format!("{first} <= {name} <= {last}")
}

#[cfg(test)]
mod oracle;
#[cfg(test)]
mod tests;
