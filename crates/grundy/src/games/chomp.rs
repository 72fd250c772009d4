//! Chomp: `chomp(r, c)` and `chomp([l1, ..., lr])`.
//!
//! # Rules (Gale 1974)
//! A bar of chocolate in rows of lengths `l1 >= l2 >= ... >= lr`; the square
//! in row 1, column 1 is poisoned. A move eats a square and every square above
//! and right of it (rows below it in our numbering, row 1 holding the poison:
//! every square in a row `>= i` and a column `>= j`). Eating the poison loses,
//! so it is never a move: a position with only the poison left is lost for the
//! player to move, and Chomp is a normal-play game on the other squares.
//!
//! # Theory
//! Every rectangle larger than `1 x 1` is a first-player win (Gale's
//! strategy-stealing argument: if eating the far corner lost, the reply that
//! wins after it would have been available at once), but no formula gives the
//! winning moves or the nimbers. They are found by search: every position
//! reachable from a bar of `r` rows and `c` columns is a Young diagram inside
//! the `r x c` box, and there are `C(r + c, r)` of them (2,704,156 for 12 x 12).
//! Each is numbered by the combinatorial number system (the row lengths `l_i`
//! become the strictly decreasing `l_i + r - 1 - i`), and one table of nimbers
//! indexed by that number is filled in lexicographic order of the row
//! lengths, each diagram after the diagrams its moves reach, the number of
//! each option found in O(1) from running sums (times in docs/BENCHMARKS.md,
//! "Figures behind the code's constants").

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;

use num_bigint::BigUint;

use crate::drawing::Drawing;
use crate::family::{Family, SearchedNimbers, part};
use crate::lang::{LangError, Term, ValueKind};
use crate::registry::{BuildContext, DrawingKind, EntryKind, GameEntry};
use crate::sums::position::Group;
use crate::theory::cancel::{checkpoint, run_under};
use crate::theory::solver::{Budget, SearchError};

/// The row lengths of a position, non-increasing, no empty rows; row 0 holds
/// the poison.
pub type Rows = Vec<u32>;

/// Chomp.
#[derive(Debug, PartialEq, Eq)]
pub struct Chomp;

/// Numbers the Young diagrams inside an `r x c` box by the combinatorial
/// number system: a diagram of row lengths `l_0 >= l_1 >= ...` is the set of
/// the strictly decreasing `l_k + r - 1 - k`, and its number is the sum of
/// `C(l_k + r - 1 - k, r - k)`. Each term grows with `l_k`, so a move (which
/// shortens rows) always leads to a smaller number.
struct Numbering {
    rows: usize,
    columns: usize,
    /// `term[k * (columns + 1) + l] = C(l + r - 1 - k, r - k)`: row `k`'s share
    /// of the number when it has length `l` (0 for an empty row).
    term: Vec<u64>,
    count: u64,
}

impl Numbering {
    fn new(rows: usize, columns: usize) -> Option<Self> {
        let n = rows + columns;
        // Pascal's triangle, one row at a time, up to C(n, rows).
        let mut binomial = vec![vec![0u64; rows + 1]; n + 1];
        for i in 0..=n {
            binomial[i][0] = 1;
            for k in 1..=rows.min(i) {
                binomial[i][k] = binomial[i - 1][k - 1].checked_add(binomial[i - 1][k])?;
            }
        }
        let mut term = vec![0u64; rows * (columns + 1)];
        for k in 0..rows {
            for l in 0..=columns {
                term[k * (columns + 1) + l] = binomial[l + rows - 1 - k][rows - k];
            }
        }
        Some(Self {
            rows,
            columns,
            term,
            count: binomial[n][rows],
        })
    }

    /// Row `k`'s share of the number at length `l`.
    fn term(&self, k: usize, l: u32) -> u64 {
        self.term[k * (self.columns + 1) + l as usize]
    }

    /// The number of a diagram (rows beyond its length are empty).
    fn rank(&self, diagram: &[u32]) -> usize {
        diagram
            .iter()
            .take(self.rows)
            .enumerate()
            .map(|(k, &l)| self.term(k, l))
            .sum::<u64>() as usize
    }
}

/// The moves of a diagram: eat `(i, j)`, every square at a row `>= i` and a
/// column `>= j`; never the poison `(0, 0)`.
fn each_move(rows: &[u32], mut visit: impl FnMut(usize, u32, &[u32])) {
    let mut after = rows.to_vec();
    for i in 0..rows.len() {
        for j in u32::from(i == 0)..rows[i] {
            after.clear();
            after.extend(rows[..i].iter().copied());
            after.extend(rows[i..].iter().map(|&l| l.min(j)).filter(|&l| l > 0));
            visit(i, j, &after);
        }
    }
}

/// The fewest diagrams a table is valued for on several threads: below it (a few
/// milliseconds on one thread) waking the other threads for each size costs more
/// than they save (`chomp(4, 5)`, 126 diagrams, took 1.3 times as long on two
/// threads as on one).
const PARALLEL_FROM_DIAGRAMS: u64 = 1 << 16;

impl Chomp {
    /// The nimber of every diagram inside `shape` (stored by its number in the
    /// box of `shape`), within `limit` diagrams.
    ///
    /// The diagrams are taken in increasing lexicographic order of their row
    /// lengths, which puts every diagram after the smaller ones its moves
    /// reach. The number of the diagram left by eating `(i, j)` comes in O(1)
    /// from running sums: with `m` the rows longer than `j` and
    /// `tail(k) = sum over rows >= k of term(row, l_row)`, it is
    /// `number - tail(i) + sum_{i <= k < m} term(k, j) + tail(m)`, so a
    /// diagram costs one step per move, no allocation.
    fn table(shape: &[u32], limit: usize) -> Result<(Numbering, Vec<u32>), SearchError> {
        let too_many = SearchError::StateLimit { limit };
        let box_rows = shape.len();
        let box_columns = shape.first().copied().unwrap_or(0) as usize;
        // The numbering's tables have (r + c + 1)(r + 1) + r (c + 1) entries:
        // bounded like the diagrams themselves before they are built.
        let table_size = (box_rows + box_columns + 1).saturating_mul(box_rows + 1);
        if table_size > limit.saturating_mul(4) {
            return Err(too_many);
        }
        let numbering = Numbering::new(box_rows, box_columns).ok_or(too_many.clone())?;
        // The moves too: each diagram has fewer than r * c, and they are
        // bounded at 200 a stored diagram (10 x 10 needs 100).
        let moves = numbering
            .count
            .saturating_mul((box_rows * box_columns) as u64);
        if numbering.count > limit as u64 || moves > (limit as u64).saturating_mul(200) {
            return Err(too_many);
        }
        if box_rows == 0 || box_columns == 0 {
            let nimbers = vec![0u32; numbering.count as usize];
            return Ok((numbering, nimbers));
        }
        if rayon::current_num_threads() > 1 && numbering.count >= PARALLEL_FROM_DIAGRAMS {
            let nimbers = Self::table_by_sizes(shape, &numbering)?;
            return Ok((numbering, nimbers));
        }
        let mut nimbers = vec![0u32; numbering.count as usize];
        // The current diagram.
        let mut rows = vec![0u32; box_rows];
        rows[0] = 1;
        let mut diagram = Diagram::new(box_rows);
        let mut visited = 0u32;
        loop {
            // A diagram takes tens of nanoseconds: the signal is looked at
            // every 64 of them.
            visited = visited.wrapping_add(1);
            if visited.is_multiple_of(64) {
                checkpoint()?;
            }
            let (number, nimber) = diagram.value(&numbering, &rows, |n| nimbers[n]);
            nimbers[number] = nimber;
            // The next diagram in lexicographic order: raise the last row that
            // can grow, empty the rows after it.
            let Some(k) = (0..box_rows).rev().find(|&k| {
                let bound = if k == 0 {
                    shape[0]
                } else {
                    shape[k].min(rows[k - 1])
                };
                rows[k] < bound
            }) else {
                break;
            };
            rows[k] += 1;
            for l in &mut rows[k + 1..] {
                *l = 0;
            }
        }
        Ok((numbering, nimbers))
    }

    /// [`Self::table`] on every thread of the current rayon pool: a move eats at
    /// least one square, so the options of a diagram of `s` squares all have fewer,
    /// and the diagrams of each size are valued at once, shared among the threads
    /// by their first two rows, after all smaller ones. The nimbers are those of one
    /// thread (each diagram's is the mex of its options, whoever computes it).
    fn table_by_sizes(shape: &[u32], numbering: &Numbering) -> Result<Vec<u32>, SearchError> {
        let nimbers: Vec<AtomicU32> = (0..numbering.count).map(|_| AtomicU32::new(0)).collect();
        let cancel = crate::theory::cancel::current();
        let squares: u32 = shape.iter().sum();
        let second = shape.get(1).copied().unwrap_or(0);
        for size in 1..=squares {
            // The first two rows of the diagrams of `size` squares.
            let starts: Vec<(u32, u32)> = (1..=shape[0].min(size))
                .flat_map(|first| {
                    (0..=second.min(first).min(size - first)).map(move |l| (first, l))
                })
                .collect();
            let value_all = |&(first, l): &(u32, u32)| {
                let mut rows = vec![0u32; shape.len()];
                rows[0] = first;
                let mut diagram = Diagram::new(shape.len());
                let mut visited = 0u32;
                let mut visit = |rows: &[u32]| -> Result<(), SearchError> {
                    visited = visited.wrapping_add(1);
                    if visited.is_multiple_of(64) {
                        checkpoint()?;
                    }
                    let (number, nimber) =
                        diagram.value(numbering, rows, |n| nimbers[n].load(Ordering::Relaxed));
                    nimbers[number].store(nimber, Ordering::Relaxed);
                    Ok(())
                };
                if shape.len() == 1 {
                    return if first == size { visit(&rows) } else { Ok(()) };
                }
                rows[1] = l;
                each_diagram(shape, &mut rows, 2, size - first - l, &mut visit)
            };
            starts
                .par_iter()
                .try_for_each(|start| run_under(cancel.as_ref(), || value_all(start)))?;
        }
        Ok(nimbers.into_iter().map(AtomicU32::into_inner).collect())
    }
}

/// Calls `visit` on every diagram inside `shape` whose rows before `k` are those of
/// `rows` and whose rows from `k` on hold `remaining` squares (rows from `k` on
/// are overwritten).
fn each_diagram(
    shape: &[u32],
    rows: &mut [u32],
    k: usize,
    remaining: u32,
    visit: &mut impl FnMut(&[u32]) -> Result<(), SearchError>,
) -> Result<(), SearchError> {
    if k == rows.len() {
        return if remaining == 0 { visit(rows) } else { Ok(()) };
    }
    let bound = shape[k].min(rows[k - 1]);
    let rows_left = (rows.len() - k) as u64;
    for l in 0..=bound.min(remaining) {
        // The rows after this one are at most `l` long.
        if u64::from(remaining - l) > u64::from(l) * (rows_left - 1) {
            continue;
        }
        rows[k] = l;
        each_diagram(shape, rows, k + 1, remaining - l, visit)?;
    }
    rows[k] = 0;
    Ok(())
}

/// The scratch space for valuing one diagram from the nimbers of its options.
struct Diagram {
    tail: Vec<u64>,
    seen: crate::theory::nimber::MexSet,
}

impl Diagram {
    fn new(rows: usize) -> Self {
        Self {
            tail: vec![0; rows + 1],
            seen: crate::theory::nimber::MexSet::new(),
        }
    }

    /// The number of the diagram `rows` (one length per row of the box, 0 for an
    /// empty row) and its nimber, the mex of its options' nimbers read by `nimber_of`.
    /// The number of the diagram left by eating `(i, j)` is found from running sums
    /// (see [`Chomp::table`]).
    fn value(
        &mut self,
        numbering: &Numbering,
        rows: &[u32],
        nimber_of: impl Fn(usize) -> u32,
    ) -> (usize, u32) {
        let tail = &mut self.tail;
        for k in (0..rows.len()).rev() {
            tail[k] = tail[k + 1] + numbering.term(k, rows[k]);
        }
        let number = tail[0];
        self.seen.clear();
        let mut longer = rows.iter().take_while(|&&l| l > 0).count();
        for j in 0..rows[0] {
            while longer > 0 && rows[longer - 1] <= j {
                longer -= 1;
            }
            let mut sum = tail[longer];
            let lowest = usize::from(j == 0);
            for i in (lowest..longer).rev() {
                sum += numbering.term(i, j);
                self.seen
                    .insert(nimber_of((number - tail[i] + sum) as usize));
            }
        }
        (number as usize, self.seen.mex())
    }
}

impl Family for Chomp {
    type Position = Rows;

    fn drawing(&self, rows: &Rows) -> Option<Drawing> {
        Some(Drawing::Chomp(rows.clone()))
    }

    fn write_position(&self, rows: &Rows, out: &mut String) {
        out.push('[');
        for (i, l) in rows.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&l.to_string());
        }
        out.push(']');
    }

    fn moves(&self, rows: &Rows, limit: usize) -> Result<Vec<Vec<Rows>>, SearchError> {
        let count: u64 = rows
            .iter()
            .map(|&l| u64::from(l))
            .sum::<u64>()
            .saturating_sub(1);
        if count > limit as u64 {
            return Err(SearchError::StateLimit { limit });
        }
        let mut moves = Vec::with_capacity(count as usize);
        each_move(rows, |_, _, after| moves.push(vec![after.to_vec()]));
        Ok(moves)
    }

    fn describe_move(&self, from: &Rows, to: &[Rows]) -> String {
        let Some(to) = to.first() else {
            return "a move".to_owned();
        };
        // The eaten square: the first row that got shorter, at its new length.
        for (i, &l) in from.iter().enumerate() {
            let after = to.get(i).copied().unwrap_or(0);
            if after < l {
                return format!("eat row {}, column {}", i + 1, after + 1);
            }
        }
        "a move".to_owned()
    }

    fn nimbers_by_search(
        &self,
        rows: &Rows,
        budget: Budget,
    ) -> Option<Result<SearchedNimbers<Rows>, SearchError>> {
        // A position: its nimber in a dense table, and its rank's share of the
        // numbering.
        let table = budget.search_positions(8, |limit| Self::table(rows, limit));
        Some(table.map(|(numbering, nimbers)| {
            let mut options = Vec::new();
            each_move(rows, |_, _, after| {
                options.push((
                    vec![after.to_vec()],
                    BigUint::from(nimbers[numbering.rank(after)]),
                ));
            });
            SearchedNimbers {
                nimber: nimbers[numbering.rank(rows)].into(),
                options,
            }
        }))
    }
}

fn build(term: &Term, _context: &BuildContext<'_>) -> Result<Group, LangError> {
    crate::lang::arguments::no_params(term)?;
    let small = |value: &ValueKind, span| match value {
        ValueKind::Integer(n) => u32::try_from(n)
            .ok()
            .filter(|&n| n <= 1 << 20)
            .ok_or_else(|| {
                LangError::new(format!("`{n}` is not a row length from 0 to 2^20"), span)
            }),
        _ => Err(LangError::new("a row length is an integer", span)),
    };
    let rows: Rows = match term.args.as_slice() {
        [r, c] => {
            let (r, c) = (small(&r.kind, r.span)?, small(&c.kind, c.span)?);
            if r == 0 || c == 0 {
                return Err(LangError::new(
                    "a bar has at least one row and one column (the poisoned square)",
                    term.span,
                ));
            }
            vec![c; r as usize]
        }
        [list] => {
            let ValueKind::List(items) = &list.kind else {
                return Err(LangError::new(
                    "`chomp` takes `r, c` or the row lengths `[l1, ..., lr]`",
                    list.span,
                ));
            };
            let mut rows = Vec::with_capacity(items.len());
            for item in items {
                let l = small(&item.kind, item.span)?;
                if rows.last().is_some_and(|&above| l > above) {
                    return Err(LangError::new(
                        format!(
                            "row lengths never increase: {l} comes after {}",
                            rows[rows.len() - 1]
                        ),
                        item.span,
                    ));
                }
                rows.push(l);
            }
            while rows.last() == Some(&0) {
                rows.pop();
            }
            if rows.is_empty() {
                return Err(LangError::new(
                    "the poisoned square (row 1, column 1) is always left: row 1 has length >= 1",
                    list.span,
                ));
            }
            rows
        }
        _ => {
            return Err(LangError::new(
                "`chomp` takes `r, c` or the row lengths `[l1, ..., lr]`",
                term.span,
            ));
        }
    };
    if rows.len() > 1 << 16 {
        return Err(LangError::new("at most 65536 rows", term.span));
    }
    Ok(Group::new("chomp", vec![part(&Arc::new(Chomp), rows)]))
}

/// The catalogue entry.
pub(crate) const ENTRY: GameEntry = GameEntry {
    name: "chomp",
    summary: "eat a square and all above and right of it; the poisoned corner loses",
    rules: "chomp(r, c) is an r x c bar; chomp([l1, ..., lr]) has rows of lengths l1 >= ... >= lr, \
            row 1 holding the poisoned square at column 1. A move eats a square and every square \
            in its row and the rows after it from its column on; eating the poison loses, so a \
            position with only the poison left is lost for the player to move. Every rectangle \
            but 1 x 1 is a first-player win (Gale's strategy stealing), but the winning moves and \
            the nimbers come from search: the C(r + c, r) diagrams inside the bar are numbered \
            by the combinatorial number system and valued in one table (2.7 million for 12 x \
            12), within --max-states.",
    syntax: "chomp(r, c), chomp([l1, ..., lr])",
    examples: &["chomp(3, 4)", "chomp([4, 2, 1])", "chomp(2, 3) + nim(1)"],
    kind: EntryKind::Game(build),
    heap_rule: None,
    drawing: DrawingKind::Chomp,
    every_start: None,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Rules;
    use crate::testing::on_pool;
    use crate::theory::solver::Solver;

    #[test]
    fn the_table_matches_search_on_every_diagram_in_a_4_x_5_box() {
        let rules = Rules::new(Chomp);
        let mut solver = Solver::new(&rules);
        let (numbering, nimbers) = Chomp::table(&[5, 5, 5, 5], usize::MAX).unwrap();
        assert_eq!(numbering.count, 126);
        let mut ranks = Vec::new();
        for a in 1..=5u32 {
            for b in 0..=a {
                for c in 0..=b {
                    for d in 0..=c {
                        let rows: Rows = [a, b, c, d].into_iter().filter(|&l| l > 0).collect();
                        let rank = numbering.rank(&rows);
                        ranks.push(rank);
                        assert_eq!(
                            nimbers[rank],
                            solver.nimber(&vec![rows.clone()]).unwrap(),
                            "{rows:?}"
                        );
                    }
                }
            }
        }
        ranks.sort_unstable();
        ranks.dedup();
        assert_eq!(ranks.len(), 126 - 1); // every diagram but the empty one
    }

    proptest::proptest! {
        /// Any shape (not only boxes): the table against the generic search,
        /// at the shape and after each of its moves.
        #[test]
        fn the_table_matches_search_inside_any_shape(
            mut shape in proptest::collection::vec(1u32..=6, 1..=5)
        ) {
            shape.sort_unstable_by(|a, b| b.cmp(a));
            let rules = Rules::new(Chomp);
            let mut solver = Solver::new(&rules);
            let (numbering, nimbers) = Chomp::table(&shape, usize::MAX).unwrap();
            proptest::prop_assert_eq!(
                nimbers[numbering.rank(&shape)],
                solver.nimber(&vec![shape.clone()]).unwrap()
            );
            let mut options = Vec::new();
            each_move(&shape, |_, _, after| options.push(after.to_vec()));
            for after in options {
                proptest::prop_assert_eq!(
                    nimbers[numbering.rank(&after)],
                    solver.nimber(&vec![after.clone()]).unwrap(),
                    "{:?} after {:?}", shape, after
                );
            }
        }
    }

    /// The table on one thread, by sizes on 2 and 7 (more threads than cores),
    /// whatever the number of diagrams (small tables are valued on one thread
    /// in `table`).
    fn tables_on_threads(shape: &[u32]) -> Vec<Vec<u32>> {
        let (numbering, one) = Chomp::table(shape, usize::MAX).unwrap();
        let mut all = vec![one];
        for threads in [2, 7] {
            all.push(on_pool(threads, || {
                Chomp::table_by_sizes(shape, &numbering).unwrap()
            }));
        }
        all
    }

    /// A table of enough diagrams is valued by sizes on several threads, and
    /// gives the table of one thread.
    #[test]
    fn a_large_table_on_two_threads_is_the_table_of_one() {
        let shape = [10; 10];
        let one = on_pool(1, || Chomp::table(&shape, usize::MAX).unwrap());
        assert!(one.0.count >= PARALLEL_FROM_DIAGRAMS);
        let two = on_pool(2, || Chomp::table(&shape, usize::MAX).unwrap().1);
        assert_eq!(one.1, two);
    }

    #[test]
    fn the_table_is_the_same_on_one_two_and_seven_threads() {
        for shape in [vec![8; 8], vec![11; 6], vec![9, 7, 7, 4, 2, 1], vec![12]] {
            let tables = tables_on_threads(&shape);
            assert!(
                tables[1] == tables[0] && tables[2] == tables[0],
                "{shape:?}"
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn the_table_by_sizes_equals_the_table_in_order(
            mut shape in proptest::collection::vec(1u32..=7, 1..=6)
        ) {
            shape.sort_unstable_by(|a, b| b.cmp(a));
            let tables = tables_on_threads(&shape);
            proptest::prop_assert!(tables[1] == tables[0] && tables[2] == tables[0]);
        }
    }

    #[test]
    fn rectangles_are_first_player_wins_and_the_square_rule_holds() {
        for r in 1..=6u32 {
            for c in 1..=6u32 {
                let rows = vec![c; r as usize];
                let found = Chomp
                    .nimbers_by_search(&rows, Budget::UNLIMITED)
                    .unwrap()
                    .unwrap();
                assert_eq!(
                    found.nimber == BigUint::default(),
                    r == 1 && c == 1,
                    "{r} x {c}"
                );
                if r == c && r > 1 {
                    // In a square, eating (2, 2) leaves two equal arms: a P-position.
                    assert!(found.options.iter().any(|(leaves, g)| {
                        leaves[0] == [vec![c], vec![1; r as usize - 1]].concat()
                            && *g == BigUint::default()
                    }));
                }
            }
        }
    }
}
