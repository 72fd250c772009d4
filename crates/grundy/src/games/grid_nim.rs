//! Grid Nim: heaps on an `n x m` grid whose counters move up or left.
//!
//! # Rules (seed note `000` §3.1.4)
//! Cell `(i, j)` (`1 <= i <= n`, `1 <= j <= m`) holds a heap. A move takes one or
//! more counters from one cell to the cell above, `(i - 1, j)`, or to the cell on
//! the left, `(i, j - 1)`, never off the grid; all counters end at `(1, 1)`.
//! Whoever cannot move loses.
//!
//! # Theorem
//! Colour the cells by the parity of `i + j`. The nimber is the nim-sum of the
//! heaps on cells with `i + j` odd (seed note `000`; the same proof as staircase
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
//! ```
//! use grundy::games::grid_nim;
//! use num_bigint::BigUint;
//!
//! // [[0, 1], [1, 0]]: the odd cells (1, 2) and (2, 1) hold 1 each: nimber 0.
//! let grid: Vec<Vec<BigUint>> = vec![vec![0u8.into(), 1u8.into()], vec![1u8.into(), 0u8.into()]];
//! assert_eq!(grid_nim::nimber(&grid), BigUint::from(0u8));
//! ```

use num_bigint::BigUint;
use num_traits::Zero;

use crate::game::ImpartialGame;

/// The nimber of a grid (`grid[row][column]`, row 0 and column 0 being the
/// seed's 1): the nim-sum of the cells with `row + column` odd.
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
    for (row, cells) in grid.iter().enumerate() {
        for (column, heap) in cells.iter().enumerate() {
            let neighbours = [
                (row > 0).then(|| (row - 1, column)),
                (column > 0).then(|| (row, column - 1)),
            ];
            for to in neighbours.into_iter().flatten() {
                if (row + column) % 2 == 1 {
                    let wanted = heap ^ &change;
                    if wanted < *heap {
                        moves.push(GridMove {
                            from: (row, column),
                            to,
                            counters: heap - wanted,
                        });
                    }
                } else {
                    let below = &grid[to.0][to.1];
                    let wanted = below ^ &change;
                    if wanted > *below && &wanted - below <= *heap {
                        moves.push(GridMove {
                            from: (row, column),
                            to,
                            counters: wanted - below,
                        });
                    }
                }
            }
        }
    }
    moves
}

/// The rules for the generic solver on a grid of `columns` columns, the cells
/// flattened row by row.
#[derive(Clone, Copy, Debug)]
pub struct GridNim {
    /// The number of columns.
    pub columns: usize,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Solver;

    #[test]
    fn nimbers_and_winning_moves_match_search() {
        for (rows, columns, max) in [(2, 2, 3), (2, 3, 2), (3, 2, 2), (1, 4, 3)] {
            let game = GridNim { columns };
            let mut solver = Solver::new(&game);
            let size = rows * columns;
            for code in 0..(max + 1u32).pow(size as u32) {
                let cells: Vec<u32> = (0..size)
                    .map(|i| code / (max + 1).pow(i as u32) % (max + 1))
                    .collect();
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
