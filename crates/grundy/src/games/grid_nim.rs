//! Grid Nim: heaps on an `n x m` grid whose counters move up or left.
//!
//! # Rules
//! Cell `(i, j)` (`1 <= i <= n`, `1 <= j <= m`) holds a heap. A move takes one or
//! more counters from one cell to the cell above, `(i - 1, j)`, or to the cell on
//! the left, `(i, j - 1)`, never off the grid; all counters end at `(1, 1)`.
//! Whoever cannot move loses.
//!
//! # Theorem
//! Colour the cells by the parity of `i + j`. The nimber is the nim-sum of the
//! heaps on cells with `i + j` odd (the same proof as staircase
//! Nim, [`super::staircase`]): every move goes between the two colours, a move
//! from an odd cell lowers an odd heap (reaching every smaller nim-sum), a move
//! from an even cell raises one, so the nim-sum always changes.
//!
//! # Winning moves
//! To reach nim-sum `t` from `s`: lower an odd cell `a` to `a xor s xor t` (up or
//! left, two distinct moves when both neighbours exist), or move `(b xor s xor
//! t) - b` counters from an even cell onto an odd neighbour `b` when that is
//! positive and at most the even cell's heap.
//!
//! # In the catalogue: `grid_nim([a11, ..., a1m], ..., [an1, ..., anm])`
//! One argument per row, top row first, each a list of the row's heaps from
//! the left; the whole grid is one component. Moves are counted as a player
//! makes them: from a cell with both neighbours, sending counters up and
//! sending them left are two moves.
//!
//! ```
//! use grundy::games::grid_nim;
//! use num_bigint::BigUint;
//!
//! // [[0, 1], [1, 0]]: the odd cells (1, 2) and (2, 1) hold 1 each: nimber 0.
//! let grid: Vec<Vec<BigUint>> = vec![vec![0u8.into(), 1u8.into()], vec![1u8.into(), 0u8.into()]];
//! assert_eq!(grid_nim::nimber(&grid), BigUint::from(0u8));
//! ```

use std::sync::Arc;

use num_bigint::{BigUint, Sign};
use num_traits::{One, Zero};

use crate::drawing::Drawing;
use crate::family::{Family, MovesTo, part};
use crate::lang::arguments::no_params;
use crate::lang::{LangError, Term, ValueKind};
use crate::registry::{BuildContext, DrawingKind, EntryKind, GameEntry};
use crate::sums::position::Group;
use crate::theory::solver::SearchError;

/// The nimber of a grid (`grid[row][column]`, row 0 and column 0 being
/// row 1 and column 1 of the rules): the nim-sum of the cells with `row + column` odd.
#[must_use]
pub fn nimber(grid: &[Vec<BigUint>]) -> BigUint {
    let mut sum = BigUint::zero();
    for (row, cells) in grid.iter().enumerate() {
        for (column, heap) in cells.iter().enumerate() {
            if (row + column) % 2 == 1 {
                sum ^= heap;
            }
        }
    }
    sum
}

/// A grid move: `counters` counters from `from` to the neighbouring cell `to`
/// (above or on the left), as `(row, column)` counted from 0.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GridMove {
    /// The cell the counters leave.
    pub from: (usize, usize),
    /// The cell they reach.
    pub to: (usize, usize),
    /// How many move.
    pub counters: BigUint,
}

impl GridMove {
    /// The grid after the move.
    #[must_use]
    pub fn apply(&self, grid: &[Vec<BigUint>]) -> Vec<Vec<BigUint>> {
        let mut after = grid.to_vec();
        after[self.from.0][self.from.1] -= &self.counters;
        after[self.to.0][self.to.1] += &self.counters;
        after
    }
}

/// Every move to a grid of nimber `target` (with `target = 0`: the winning moves).
#[must_use]
pub fn moves_to_nimber(grid: &[Vec<BigUint>], target: &BigUint) -> Vec<GridMove> {
    let change = nimber(grid) ^ target;
    let mut moves = Vec::new();
    if change.is_zero() {
        return moves;
    }
    for (from, heap, to) in cells_and_neighbours(grid) {
        if (from.0 + from.1) % 2 == 1 {
            let wanted = heap ^ &change;
            if wanted < *heap {
                moves.push(GridMove {
                    from,
                    to,
                    counters: heap - wanted,
                });
            }
        } else {
            let below = &grid[to.0][to.1];
            let wanted = below ^ &change;
            if wanted > *below && &wanted - below <= *heap {
                moves.push(GridMove {
                    from,
                    to,
                    counters: wanted - below,
                });
            }
        }
    }
    moves
}

/// Each cell `(row, column)` with its heap and each neighbour counters may move
/// to from it: the cell above, then the cell on the left.
fn cells_and_neighbours(
    grid: &[Vec<BigUint>],
) -> impl Iterator<Item = ((usize, usize), &BigUint, (usize, usize))> {
    grid.iter().enumerate().flat_map(|(row, cells)| {
        cells.iter().enumerate().flat_map(move |(column, heap)| {
            let neighbours = [
                (row > 0).then(|| (row - 1, column)),
                (column > 0).then(|| (row, column - 1)),
            ];
            neighbours
                .into_iter()
                .flatten()
                .map(move |to| ((row, column), heap, to))
        })
    })
}

impl GridMove {
    /// The move in words, cells numbered from 1 as (row, column): "move 2
    /// counters from cell (2, 1) up to cell (1, 1)".
    #[must_use]
    pub fn describe(&self) -> String {
        let noun = if self.counters.is_one() {
            "counter"
        } else {
            "counters"
        };
        let direction = if self.to.0 < self.from.0 {
            "up"
        } else {
            "left"
        };
        format!(
            "move {} {noun} from cell ({}, {}) {direction} to cell ({}, {})",
            self.counters,
            self.from.0 + 1,
            self.from.1 + 1,
            self.to.0 + 1,
            self.to.1 + 1
        )
    }
}

/// Grid Nim as a game family: `grid_nim([1, 2], [3, 4])`, the grid one list
/// per row; the nimber is the nim-sum of the odd cells at any size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Grid;

/// A grid position: `grid[row][column]`.
pub type Cells = Vec<Vec<BigUint>>;

impl Family for Grid {
    type Position = Cells;

    fn drawing(&self, grid: &Cells) -> Option<Drawing> {
        Some(Drawing::Grid(grid.clone()))
    }

    fn write_position(&self, grid: &Cells, out: &mut String) {
        for (i, row) in grid.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push('[');
            let cells: Vec<String> = row.iter().map(BigUint::to_string).collect();
            out.push_str(&cells.join(", "));
            out.push(']');
        }
    }

    fn nimber_by_theory(&self, grid: &Cells) -> Option<(BigUint, &'static str)> {
        Some((nimber(grid), "grid nim: nim-sum of the odd cells"))
    }

    fn moves(&self, grid: &Cells, limit: usize) -> Result<Vec<Vec<Cells>>, SearchError> {
        let mut total = BigUint::zero();
        for (row, cells) in grid.iter().enumerate() {
            for (column, heap) in cells.iter().enumerate() {
                total += heap * (usize::from(row > 0) + usize::from(column > 0));
            }
        }
        if total > BigUint::from(limit) {
            return Err(SearchError::StateLimit { limit });
        }
        let mut moves = Vec::new();
        for (from, heap, to) in cells_and_neighbours(grid) {
            let mut counters = BigUint::one();
            while counters <= *heap {
                let grid_move = GridMove {
                    from,
                    to,
                    counters: counters.clone(),
                };
                moves.push(vec![grid_move.apply(grid)]);
                counters += 1u32;
            }
        }
        Ok(moves)
    }

    fn moves_to_nimber_by_theory(
        &self,
        grid: &Cells,
        target: &BigUint,
        max: usize,
    ) -> Option<MovesTo<Cells>> {
        let moves = moves_to_nimber(grid, target);
        Some(MovesTo {
            count: BigUint::from(moves.len()),
            listed: moves
                .iter()
                .take(max)
                .map(|m| vec![m.apply(grid)])
                .collect(),
        })
    }

    fn describe_move(&self, grid: &Cells, to: &[Cells]) -> String {
        let Some(after) = to.first() else {
            return "a move".to_owned();
        };
        let mut from = None;
        let mut onto = None;
        for (row, (before, after)) in grid.iter().zip(after).enumerate() {
            for (column, (before, after)) in before.iter().zip(after).enumerate() {
                if after < before {
                    from = Some(((row, column), before - after));
                } else if after > before {
                    onto = Some((row, column));
                }
            }
        }
        match (from, onto) {
            (Some((from, counters)), Some(to)) => GridMove { from, to, counters }.describe(),
            _ => "move".to_owned(),
        }
    }
}

fn build(term: &Term, _context: &BuildContext<'_>) -> Result<Group, LangError> {
    const HELP: &str = "one list per row, top row first: `grid_nim([0, 1], [2, 3])`";
    no_params(term)?;
    if term.args.is_empty() {
        return Err(LangError::new("`grid_nim` needs at least one row", term.span).with_help(HELP));
    }
    let mut grid: Vec<Vec<BigUint>> = Vec::with_capacity(term.args.len());
    for arg in &term.args {
        let ValueKind::List(items) = &arg.kind else {
            return Err(LangError::new(
                format!("each argument of `grid_nim` is a row `[a, b, ...]`, found `{arg}`"),
                arg.span,
            )
            .with_help(HELP));
        };
        let mut row = Vec::with_capacity(items.len());
        for item in items {
            match &item.kind {
                ValueKind::Integer(n) if n.sign() != Sign::Minus => {
                    row.push(n.magnitude().clone());
                }
                ValueKind::Integer(n) => {
                    return Err(LangError::new(
                        format!("a heap cannot be negative: {n}"),
                        item.span,
                    ));
                }
                _ => {
                    return Err(LangError::new(
                        format!(
                            "a cell holds a heap size (a non-negative integer), found `{item}`"
                        ),
                        item.span,
                    ));
                }
            }
        }
        if row.is_empty() {
            return Err(LangError::new("a row needs at least one cell", arg.span));
        }
        if let Some(first) = grid.first()
            && first.len() != row.len()
        {
            return Err(LangError::new(
                format!(
                    "every row needs the same number of cells: this one has {}, the first {}",
                    row.len(),
                    first.len()
                ),
                arg.span,
            ));
        }
        grid.push(row);
    }
    Ok(Group::new("grid_nim", vec![part(&Arc::new(Grid), grid)]))
}

/// The catalogue entry.
pub(crate) const ENTRY: GameEntry = GameEntry {
    name: "grid_nim",
    summary: "heaps on a grid; a move takes counters from one cell to the cell above or on the left",
    rules: "grid_nim([a11, ..., a1m], ..., [an1, ..., anm]): an n x m grid of heaps, one list per \
            row, top row first. A move takes one or more counters from one cell (i, j) to the cell \
            above, (i - 1, j), or to the cell on the left, (i, j - 1), never off the grid; all \
            counters end at (1, 1), and whoever cannot move loses. Theorem (the \
            argument of staircase Nim): colour the cells by the parity of i + j; the nimber \
            is the nim-sum of the heaps on the cells with i + j odd. Winning moves lower an odd \
            cell (up and left are two moves when both exist) or move counters from an even cell \
            onto an odd neighbour; heaps of any size.",
    syntax: "grid_nim([a11, ..., a1m], ..., [an1, ..., anm])",
    examples: &[
        "grid_nim([0, 1], [2, 3])",
        "grid_nim([1, 2, 3], [4, 5, 6], [7, 8, 9])",
        "grid_nim([0, 100000000000000000000], [7, 0]) + nim(3)",
        "misere(grid_nim([1, 1], [1, 0]))",
    ],
    kind: EntryKind::Game(build),
    heap_rule: None,
    drawing: DrawingKind::Grid,
    every_start: None,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::build as build_position;
    use crate::lang::parse;
    use crate::sums::analysis::{SolveOptions, solve};
    use crate::testing::all_vectors;
    use crate::theory::game::Convention;
    use crate::theory::game::ImpartialGame;
    use crate::theory::solver::Solver;

    /// An independent statement of the rules, for the generic solver on a grid of `columns` columns, the cells
    /// flattened row by row.
    struct GridNim {
        columns: usize,
    }

    impl ImpartialGame for GridNim {
        type Position = Vec<u32>;

        fn moves(&self, cells: &Vec<u32>, moves: &mut Vec<Vec<u32>>) {
            for (index, &heap) in cells.iter().enumerate() {
                let (row, column) = (index / self.columns, index % self.columns);
                let neighbours = [
                    (row > 0).then(|| index - self.columns),
                    (column > 0).then(|| index - 1),
                ];
                for to in neighbours.into_iter().flatten() {
                    for moved in 1..=heap {
                        let mut next = cells.clone();
                        next[index] -= moved;
                        next[to] += moved;
                        moves.push(next);
                    }
                }
            }
        }
    }

    fn text_of(cells: &[u32], columns: usize) -> String {
        let rows: Vec<String> = cells
            .chunks(columns)
            .map(|row| {
                let row: Vec<String> = row.iter().map(u32::to_string).collect();
                format!("[{}]", row.join(", "))
            })
            .collect();
        format!("grid_nim({})", rows.join(", "))
    }

    /// The whole CLI path (parse, build, solve, print) against the oracle
    /// [`GridNim`] searched by the generic solver: nimber, outcome, the exact
    /// count and the position after each winning move, under both conventions.
    #[test]
    fn the_catalogue_answers_as_the_oracle_does() {
        let options = SolveOptions {
            max_moves: usize::MAX,
            ..SolveOptions::default()
        };
        for (rows, columns, max) in [(2, 2, 2), (2, 3, 1), (3, 2, 1), (1, 3, 3), (3, 1, 2)] {
            let game = GridNim { columns };
            let mut solver = Solver::new(&game);
            for cells in all_vectors(rows * columns, max) {
                let text = text_of(&cells, columns);
                for convention in [Convention::Normal, Convention::Misere] {
                    let source = match convention {
                        Convention::Normal => text.clone(),
                        Convention::Misere => format!("misere({text})"),
                    };
                    let position = build_position(&parse(&source).unwrap()).unwrap();
                    assert_eq!(position.to_string(), source, "printing round-trips");
                    let found = solve(&position, &options).unwrap();
                    assert_eq!(
                        found.outcome,
                        solver.outcome_under(convention, &cells).unwrap(),
                        "{source}"
                    );
                    if convention == Convention::Normal {
                        assert_eq!(
                            found.nimber,
                            Some(BigUint::from(solver.nimber(&cells).unwrap())),
                            "{source}"
                        );
                    }
                    let winning = solver.winning_moves_under(convention, &cells).unwrap();
                    let expected: Vec<String> = winning
                        .iter()
                        .map(|after| match convention {
                            Convention::Normal => text_of(after, columns),
                            Convention::Misere => format!("misere({})", text_of(after, columns)),
                        })
                        .collect();
                    assert_eq!(found.winning_move_count, BigUint::from(expected.len()));
                    crate::testing::assert_targets(&found, expected, &source);
                }
            }
        }
    }

    #[test]
    fn moves_are_described_as_a_player_makes_them() {
        use crate::testing::{answer, descriptions};
        let found = answer("grid_nim([0, 1], [2, 3])");
        assert_eq!(found.nimber, Some(BigUint::from(3u8)));
        let described: Vec<(&str, String)> = found
            .winning_moves
            .iter()
            .map(|m| (m.description.as_str(), found.target(m)))
            .collect();
        assert_eq!(
            described,
            [
                (
                    "move 1 counter from cell (2, 1) up to cell (1, 1)",
                    "grid_nim([1, 1], [1, 3])".to_owned()
                ),
                (
                    "move 1 counter from cell (2, 2) up to cell (1, 2)",
                    "grid_nim([0, 2], [2, 2])".to_owned()
                ),
            ]
        );
        // From an odd cell with both neighbours, up and left are two moves.
        let found = answer("grid_nim([0, 0, 0], [0, 0, 5])");
        assert_eq!(
            descriptions(&found),
            [
                "move 5 counters from cell (2, 3) up to cell (1, 3)",
                "move 5 counters from cell (2, 3) left to cell (2, 2)",
            ]
        );
        // Nimber 5 xor 4 = 1: lower the 5 to 4, or raise the 4 to 5 with one
        // counter from the even cell (2, 2).
        let found = answer("grid_nim([0, 5], [4, 3])");
        assert_eq!(
            descriptions(&found),
            [
                "move 1 counter from cell (1, 2) left to cell (1, 1)",
                "move 1 counter from cell (2, 2) left to cell (2, 1)",
            ]
        );
    }

    #[test]
    fn malformed_grids_are_refused_where_they_are_wrong() {
        for (source, message, column) in [
            ("grid_nim()", "`grid_nim` needs at least one row", 0),
            (
                "grid_nim(3)",
                "each argument of `grid_nim` is a row `[a, b, ...]`, found `3`",
                9,
            ),
            (
                "grid_nim([1, 2], [3])",
                "every row needs the same number of cells: this one has 1, the first 2",
                17,
            ),
            ("grid_nim([])", "a row needs at least one cell", 9),
            ("grid_nim([1, -2])", "a heap cannot be negative: -2", 13),
        ] {
            let error = build_position(&parse(source).unwrap()).unwrap_err();
            assert_eq!(error.message, message, "{source}");
            assert_eq!(error.span.start, column, "{source}");
        }
    }

    #[test]
    fn nimbers_and_winning_moves_match_search() {
        for (rows, columns, max) in [(2, 2, 3), (2, 3, 2), (3, 2, 2), (1, 4, 3)] {
            let game = GridNim { columns };
            let mut solver = Solver::new(&game);
            for cells in all_vectors(rows * columns, max) {
                let grid: Vec<Vec<BigUint>> = cells
                    .chunks(columns)
                    .map(|r| r.iter().map(|&c| c.into()).collect())
                    .collect();
                assert_eq!(
                    nimber(&grid),
                    BigUint::from(solver.nimber(&cells).unwrap()),
                    "{cells:?}"
                );
                let mut expected = solver.winning_moves(&cells).unwrap();
                let mut found: Vec<Vec<u32>> = moves_to_nimber(&grid, &BigUint::zero())
                    .iter()
                    .map(|m| {
                        m.apply(&grid)
                            .concat()
                            .iter()
                            .map(|c| u32::try_from(c).unwrap())
                            .collect()
                    })
                    .collect();
                expected.sort();
                found.sort();
                assert_eq!(found, expected, "{cells:?}");
            }
        }
    }
}
