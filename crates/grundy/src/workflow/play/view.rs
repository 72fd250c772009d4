//! What the playground's page is sent to draw a position: the pictures of
//! components ([`DrawingView`], from [`crate::drawing::Drawing`]) and, for
//! each move, the thing drawn that plays it when clicked ([`Target`]), found by
//! comparing the component's picture with the pictures of what the move leaves.
//! Vertices, edges, coins and cells are numbered from 0, as in the library.

use crate::drawing::{BoardDrawing, Drawing, GraphDrawing, Square};
use crate::family::Part;
use num_bigint::BigUint;
use serde::Serialize;

/// An integer as JSON: a number below 2^53, a decimal string above (as
/// `solve --json`), so that JavaScript reads it exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Integer {
    /// A number JavaScript holds exactly.
    Small(u64),
    /// A larger number, in decimal.
    Large(String),
}

impl From<&BigUint> for Integer {
    fn from(value: &BigUint) -> Self {
        match u64::try_from(value) {
            Ok(small) if small < (1 << 53) => Self::Small(small),
            _ => Self::Large(value.to_string()),
        }
    }
}

/// The picture of one component, as the page reads it: `{"kind": "heaps",
/// ...}`.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DrawingView {
    /// Heaps of tokens, in argument order.
    Heaps {
        /// The size of each heap.
        heaps: Vec<Integer>,
    },
    /// A row of coins, coin 0 leftmost.
    Coins {
        /// Whether each coin shows heads.
        heads: Vec<bool>,
    },
    /// A graph and what stands on it (see [`GraphDrawing`]).
    Graph {
        /// The number of vertices.
        vertices: u32,
        /// Each edge's two ends, in input order.
        edges: Vec<[u32; 2]>,
        /// Whether edges point from their first end to their second.
        directed: bool,
        /// The vertices holding a token.
        tokens: Vec<u32>,
        /// The deleted vertices.
        deleted: Vec<u32>,
        /// The edges cut.
        cut: Vec<u32>,
        /// The edges no longer joined to the ground.
        hanging: Vec<u32>,
        /// The ground vertex, if the game has one.
        ground: Option<u32>,
    },
    /// A board of cells, row 0 first.
    Board {
        /// The number of rows.
        rows: u32,
        /// The number of columns.
        cols: u32,
        /// Each cell: `"empty"`, `"filled"` or `"token"`.
        cells: Vec<&'static str>,
    },
    /// Wythoff's queen at column `x`, row `y`.
    Wythoff {
        /// The queen's column.
        x: Integer,
        /// The queen's row.
        y: Integer,
    },
    /// A Chomp bar: each row's length, the poisoned square's row first.
    Chomp {
        /// The rows' lengths.
        rows: Vec<u32>,
    },
    /// The numbers left to pick from, in increasing order.
    Numbers {
        /// The numbers.
        numbers: Vec<Integer>,
    },
    /// Heaps on a grid's cells, the top row first.
    Grid {
        /// Each row's heaps, from the left.
        rows: Vec<Vec<Integer>>,
    },
}

impl From<&Drawing> for DrawingView {
    fn from(drawing: &Drawing) -> Self {
        match drawing {
            Drawing::Heaps(heaps) => Self::Heaps {
                heaps: heaps.iter().map(Integer::from).collect(),
            },
            Drawing::Coins(heads) => Self::Coins {
                heads: heads.clone(),
            },
            Drawing::Graph(graph) => graph_view(graph),
            Drawing::Board(board) => board_view(board),
            Drawing::Wythoff { x, y } => Self::Wythoff {
                x: x.into(),
                y: y.into(),
            },
            Drawing::Chomp(rows) => Self::Chomp { rows: rows.clone() },
            Drawing::Numbers(numbers) => Self::Numbers {
                numbers: numbers
                    .iter()
                    .map(|&x| Integer::from(&BigUint::from(x)))
                    .collect(),
            },
            Drawing::Grid(rows) => Self::Grid {
                rows: rows
                    .iter()
                    .map(|row| row.iter().map(Integer::from).collect())
                    .collect(),
            },
        }
    }
}

fn graph_view(graph: &GraphDrawing) -> DrawingView {
    DrawingView::Graph {
        vertices: graph.vertices,
        edges: graph.edges.iter().map(|&(u, v)| [u, v]).collect(),
        directed: graph.directed,
        tokens: graph.tokens.clone(),
        deleted: graph.deleted.clone(),
        cut: graph.cut.clone(),
        hanging: graph.hanging.clone(),
        ground: graph.ground,
    }
}

fn board_view(board: &BoardDrawing) -> DrawingView {
    DrawingView::Board {
        rows: board.rows,
        cols: board.cols,
        cells: board
            .cells
            .iter()
            .map(|cell| match cell {
                Square::Empty => "empty",
                Square::Filled => "filled",
                Square::Token => "token",
            })
            .collect(),
    }
}

/// The thing drawn that a move plays when clicked: `{"kind": "heap", "heap":
/// 0, "level": 2}` (a heap left with `level` tokens), `coin` (one coin
/// turned alone), `vertex` (where the token goes), `edge` (the edge cut),
/// `square` (Wythoff's queen's new square, or the Chomp square eaten with all
/// above and right of it), `cell` (a board's token's cell), `split` (a heap
/// split into several: Kayles, Grundy's game, Lasker's Nim), `heaps` (several
/// heaps of one picture changed at once: staircase, Moore's Nim), `domino`
/// (Cram's two cells filled).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Target {
    /// Heap `heap` left with `level` tokens.
    Heap {
        /// Which heap of the picture.
        heap: usize,
        /// The tokens it keeps.
        level: Integer,
    },
    /// Coin `coin` turned, alone.
    Coin {
        /// Which coin.
        coin: usize,
    },
    /// The token moved to `vertex`.
    Vertex {
        /// Where the token goes.
        vertex: u32,
    },
    /// Edge `edge` cut.
    Edge {
        /// The edge cut.
        edge: u32,
    },
    /// Wythoff's queen moved to column `x`, row `y`; in Chomp, the square
    /// of column `x`, row `y` eaten.
    Square {
        /// The new column.
        x: Integer,
        /// The new row.
        y: Integer,
    },
    /// A board's token moved to cell `cell` (row by row).
    Cell {
        /// The cell, `row * cols + column`.
        cell: usize,
    },
    /// Several coins turned together (a single one is a [`Target::Coin`]).
    Coins {
        /// The coins turned, from the left.
        coins: Vec<usize>,
    },
    /// The number picked (with its divisors).
    Number {
        /// The number.
        number: Integer,
    },
    /// Counters moved from one cell of a grid to a neighbour, each cell
    /// `[row, column]`.
    Transfer {
        /// The cell the counters leave.
        from: [usize; 2],
        /// The cell they go to.
        to: [usize; 2],
        /// How many move.
        counters: Integer,
    },
    /// Heap `heap` of a picture replaced by the heaps `into` (two or more):
    /// a row of Kayles pins split, a heap of Grundy's game divided.
    Split {
        /// Which heap of the picture.
        heap: usize,
        /// The heaps it leaves, in order.
        into: Vec<Integer>,
    },
    /// Several heaps of one picture changed at once (staircase's coins
    /// moved down a step, Moore's Nim's tokens taken from several heaps).
    Heaps {
        /// Each heap changed, with the tokens it has after the move.
        heaps: Vec<HeapLevel>,
    },
    /// A domino placed on two empty cells of a board (Cram), row by row.
    Domino {
        /// The two cells filled, `row * cols + column`, the smaller first.
        cells: [usize; 2],
    },
}

/// A heap of a picture and the tokens it has after a move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HeapLevel {
    /// Which heap of the picture.
    pub heap: usize,
    /// Its size after the move.
    pub level: Integer,
}

/// What a click on the picture `before` of a component must do to play the
/// move that leaves `leaves` (components of the same family), if a single
/// thing drawn stands for that move.
pub fn target(before: &Drawing, leaves: &[Part]) -> Option<Target> {
    let after: Option<Vec<Drawing>> = leaves.iter().map(|part| part.drawing()).collect();
    let after = after?;
    match (before, after.as_slice()) {
        (Drawing::Heaps(heaps), []) if heaps.len() == 1 => Some(Target::Heap {
            heap: 0,
            level: Integer::Small(0),
        }),
        (Drawing::Heaps(heaps), [Drawing::Heaps(left)]) if left.len() == heaps.len() => {
            heaps_changed(heaps, left)
        }
        (Drawing::Heaps(heaps), after) if heaps.len() == 1 => split(after),
        (Drawing::Coins(heads), []) => coins_turned(heads, &vec![false; heads.len()]),
        (Drawing::Coins(heads), [Drawing::Coins(left)]) if left.len() == heads.len() => {
            coins_turned(heads, left)
        }
        (Drawing::Numbers(numbers), []) => number_picked(numbers, &[]),
        (Drawing::Numbers(numbers), [Drawing::Numbers(left)]) => number_picked(numbers, left),
        (Drawing::Grid(rows), [Drawing::Grid(left)]) => transfer(rows, left),
        (Drawing::Wythoff { .. }, []) => Some(Target::Square {
            x: Integer::Small(0),
            y: Integer::Small(0),
        }),
        (Drawing::Wythoff { .. }, [Drawing::Wythoff { x, y }]) => Some(Target::Square {
            x: x.into(),
            y: y.into(),
        }),
        (Drawing::Graph(graph), [Drawing::Graph(left)]) => {
            if let [vertex] = left.tokens.as_slice()
                && left.tokens != graph.tokens
            {
                return Some(Target::Vertex { vertex: *vertex });
            }
            left.cut
                .iter()
                .find(|edge| graph.cut.binary_search(edge).is_err())
                .map(|&edge| Target::Edge { edge })
        }
        (Drawing::Chomp(rows), [Drawing::Chomp(left)]) => {
            // The square eaten: the lowest row that got shorter, where it now ends.
            let kept = |row: usize| left.get(row).copied().unwrap_or(0);
            let row = (0..rows.len()).find(|&row| kept(row) < rows[row])?;
            Some(Target::Square {
                x: Integer::Small(kept(row).into()),
                y: Integer::Small(row as u64),
            })
        }
        (Drawing::Board(board), [Drawing::Board(left)]) => {
            if let Some(token) = left.cells.iter().position(|&cell| cell == Square::Token) {
                return (board.cells.get(token) != Some(&Square::Token))
                    .then_some(Target::Cell { cell: token });
            }
            domino(board, left)
        }
        _ => None,
    }
}

/// The heaps a move changes in a picture of several heaps (the same number
/// after): one heap made smaller is a [`Target::Heap`], several changed a
/// [`Target::Heaps`].
fn heaps_changed(heaps: &[BigUint], left: &[BigUint]) -> Option<Target> {
    let changed: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] != left[i]).collect();
    match changed.as_slice() {
        [] => None,
        &[heap] => (left[heap] < heaps[heap]).then(|| Target::Heap {
            heap,
            level: (&left[heap]).into(),
        }),
        _ => Some(Target::Heaps {
            heaps: changed
                .iter()
                .map(|&heap| HeapLevel {
                    heap,
                    level: (&left[heap]).into(),
                })
                .collect(),
        }),
    }
}

/// A heap drawn alone that a move turns into two heaps or more, each drawn
/// as heaps: the sizes it leaves.
fn split(after: &[Drawing]) -> Option<Target> {
    let mut into = Vec::new();
    for drawing in after {
        let Drawing::Heaps(heaps) = drawing else {
            return None;
        };
        into.extend(heaps.iter().map(Integer::from));
    }
    (into.len() >= 2).then_some(Target::Split { heap: 0, into })
}

/// The domino a move places on a board of the same size: exactly two cells,
/// empty before and filled after, side by side.
fn domino(board: &BoardDrawing, left: &BoardDrawing) -> Option<Target> {
    if (board.rows, board.cols) != (left.rows, left.cols) || board.cells.len() != left.cells.len() {
        return None;
    }
    let filled: Vec<usize> = (0..board.cells.len())
        .filter(|&i| board.cells[i] == Square::Empty && left.cells[i] == Square::Filled)
        .collect();
    let &[a, b] = filled.as_slice() else {
        return None;
    };
    let cols = board.cols as usize;
    let beside = (b == a + 1 && a / cols == b / cols) || b == a + cols;
    beside.then_some(Target::Domino { cells: [a, b] })
}

/// The coins a move turns, from the row `heads` to the row `left`: one coin
/// or several.
fn coins_turned(heads: &[bool], left: &[bool]) -> Option<Target> {
    let turned: Vec<usize> = (0..heads.len()).filter(|&i| heads[i] != left[i]).collect();
    match turned.as_slice() {
        [] => None,
        &[coin] => Some(Target::Coin { coin }),
        _ => Some(Target::Coins { coins: turned }),
    }
}

/// The number a move of the divisors game picks, from the numbers `before`
/// to those `left` (both increasing): the largest one deleted, since the
/// others deleted divide it.
fn number_picked(before: &[u64], left: &[u64]) -> Option<Target> {
    let picked = before
        .iter()
        .rev()
        .find(|number| left.binary_search(number).is_err())?;
    Some(Target::Number {
        number: Integer::from(&BigUint::from(*picked)),
    })
}

/// The counters a move carries from one cell of a grid to another: the one
/// cell that lost counters and the one that gained as many.
fn transfer(rows: &[Vec<BigUint>], left: &[Vec<BigUint>]) -> Option<Target> {
    if rows.len() != left.len() || rows.iter().zip(left).any(|(a, b)| a.len() != b.len()) {
        return None;
    }
    let (mut from, mut to) = (None, None);
    for (row, (before, after)) in rows.iter().zip(left).enumerate() {
        for (column, (a, b)) in before.iter().zip(after).enumerate() {
            if a > b && from.replace(([row, column], a - b)).is_some() {
                return None;
            }
            if a < b && to.replace(([row, column], b - a)).is_some() {
                return None;
            }
        }
    }
    let ((from, lost), (to, gained)) = (from?, to?);
    (lost == gained).then(|| Target::Transfer {
        from,
        to,
        counters: (&lost).into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_beyond_two_to_the_53_are_strings() {
        let big = BigUint::from(1u64 << 53);
        assert_eq!(
            Integer::from(&big),
            Integer::Large("9007199254740992".into())
        );
        assert_eq!(Integer::from(&BigUint::from(7u32)), Integer::Small(7));
    }

    #[test]
    fn several_coins_turned_are_one_target() {
        let row = [true, false, true, true];
        assert_eq!(
            coins_turned(&row, &[true, true, true, false]),
            Some(Target::Coins { coins: vec![1, 3] })
        );
        assert_eq!(
            coins_turned(&row, &[true, false, true, false]),
            Some(Target::Coin { coin: 3 })
        );
    }

    #[test]
    fn a_grid_move_is_the_cells_counters_leave_and_reach() {
        let grid = |rows: [[u32; 2]; 2]| -> Vec<Vec<BigUint>> {
            rows.iter()
                .map(|row| row.iter().map(|&h| BigUint::from(h)).collect())
                .collect()
        };
        assert_eq!(
            transfer(&grid([[0, 1], [5, 3]]), &grid([[0, 1], [7, 1]])),
            Some(Target::Transfer {
                from: [1, 1],
                to: [1, 0],
                counters: Integer::Small(2)
            })
        );
        assert_eq!(
            transfer(&grid([[0, 1], [5, 3]]), &grid([[0, 1], [5, 3]])),
            None
        );
    }

    #[test]
    fn the_number_picked_is_the_largest_deleted() {
        assert_eq!(
            number_picked(&[2, 3, 4, 6], &[4]),
            Some(Target::Number {
                number: Integer::Small(6)
            })
        );
        assert_eq!(
            number_picked(&[2, 3], &[]),
            Some(Target::Number {
                number: Integer::Small(3)
            })
        );
    }

    #[test]
    fn several_heaps_changed_a_split_and_a_domino_are_targets() {
        let heaps =
            |sizes: &[u32]| -> Vec<BigUint> { sizes.iter().map(|&h| BigUint::from(h)).collect() };
        assert_eq!(
            heaps_changed(&heaps(&[0, 5, 1]), &heaps(&[2, 3, 1])),
            Some(Target::Heaps {
                heaps: vec![
                    HeapLevel {
                        heap: 0,
                        level: Integer::Small(2)
                    },
                    HeapLevel {
                        heap: 1,
                        level: Integer::Small(3)
                    }
                ]
            })
        );
        assert_eq!(
            heaps_changed(&heaps(&[4, 5]), &heaps(&[4, 2])),
            Some(Target::Heap {
                heap: 1,
                level: Integer::Small(2)
            })
        );
        assert_eq!(heaps_changed(&heaps(&[4, 5]), &heaps(&[4, 6])), None);
        assert_eq!(
            split(&[Drawing::Heaps(heaps(&[1])), Drawing::Heaps(heaps(&[2]))]),
            Some(Target::Split {
                heap: 0,
                into: vec![Integer::Small(1), Integer::Small(2)]
            })
        );
        assert_eq!(split(&[Drawing::Heaps(heaps(&[3]))]), None);
        let board = |cells: &str| BoardDrawing {
            rows: 2,
            cols: 2,
            cells: cells
                .chars()
                .map(|c| {
                    if c == '#' {
                        Square::Filled
                    } else {
                        Square::Empty
                    }
                })
                .collect(),
        };
        assert_eq!(
            domino(&board("...."), &board("#.#.")),
            Some(Target::Domino { cells: [0, 2] })
        );
        assert_eq!(
            domino(&board("...."), &board("##..")),
            Some(Target::Domino { cells: [0, 1] })
        );
        assert_eq!(domino(&board("...."), &board(".##.")), None);
    }
}
