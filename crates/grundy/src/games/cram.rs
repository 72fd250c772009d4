//! Cram: `cram(r, c)` and `cram("..#./....")`.
//!
//! # Rules (Gardner 1974; Berlekamp, Conway and Guy, *Winning Ways*, ch. 22)
//! A board of `r` rows and `c` columns, each cell empty (`.`) or filled
//! (`#`). A move places a domino on two empty cells side by side, horizontally
//! or vertically, filling them. Whoever cannot move loses (normal play).
//!
//! # Theory
//! * **Regions.** A move touches one connected region of empty cells (cells
//!   joined by sides), so a board is the sum of its regions and its nimber is
//!   the xor of theirs (Sprague-Grundy). A region's game depends only on its
//!   shape up to translation and the eight symmetries of the square (the
//!   moves correspond one to one), so a region is cropped to its bounding box
//!   and stored under the least of its eight images.
//! * **Symmetry strategy.** If the empty cells are invariant under an
//!   involution `s` of the board (a point reflection, a mirror, a diagonal of a
//!   square) that fixes no empty cell and swaps no two adjacent empty cells,
//!   the position is a second-player win (nimber 0): the reply to a domino `D`
//!   is `s(D)`, which is empty (the board is symmetric) and disjoint from `D`
//!   (a common cell `x` would put `x` and `s(x)` both in `D`, so `x` is fixed or
//!   `D = {x, s(x)}` is a swapped adjacent pair). For the point reflection of
//!   an empty `r x c` board both conditions hold exactly when `r` and `c` are
//!   even: **every even-by-even board is 0** (Gardner; *Winning Ways* ch. 22).
//!   When one side is odd and the other even, the first player fills the two
//!   central cells and then mirrors: such boards are first-player wins
//!   (nimber not 0), but their nimber is known only by search. The same test is
//!   applied to every region met in the search.
//! * **Search.** The rest is a depth-first search with a transposition table
//!   of region nimbers, bounded by `--max-states`, as in Beling's igsolve
//!   (P. Beling, M. Rogalski, *On pruning search trees of impartial games*,
//!   Artificial Intelligence 283, 2020): regions as keys, canonical under
//!   symmetry, cells counted by bit operations. Published values (Uiterwijk
//!   and Barton; Beling): 4 x 5 = 2, 5 x 5 = 0, 5 x 6 = 2, 4 x 7 = 3, 5 x 7 = 1,
//!   5 x 8 = 1, 4 x 9 = 1, 5 x 9 = 1, 5 x 10 = 2, 4 x 11 = 1.
//!
//! Boards of at most [`MOST_CELLS`] cells are supported (11 x 11, 8 x 15,
//! 4 x 30, 1 x 121); larger ones are refused when the term is read.

use std::sync::Arc;

use num_bigint::BigUint;
use rustc_hash::FxHashMap;

use crate::family::{Family, SearchedNimbers, part};
use crate::lang::{LangError, Span, Term, ValueKind};
use crate::sums::entry::{BuildContext, EntryKind, GameEntry};
use crate::sums::position::Group;
use crate::theory::solver::SearchError;

/// The most cells a board may have: a cropped region of `h x w <= 121` cells
/// and its width fit in one 128-bit key.
pub const MOST_CELLS: usize = 121;

/// A Cram board: bit `i * cols + j` of `empty` is set when the cell in row
/// `i`, column `j` (from 0) is empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: u8,
    cols: u8,
    empty: u128,
}

/// Bits `0..n` set (`n < 128`).
const fn low(n: usize) -> u128 {
    (1u128 << n) - 1
}

impl Board {
    /// The empty `rows x cols` board, if it has from 1 to [`MOST_CELLS`] cells.
    #[must_use]
    pub fn new(rows: usize, cols: usize) -> Option<Self> {
        (rows >= 1 && cols >= 1 && rows.checked_mul(cols)? <= MOST_CELLS).then(|| Self {
            rows: rows as u8,
            cols: cols as u8,
            empty: low(rows * cols),
        })
    }

    /// Reads `..#./....`: rows separated by `/`, `.` empty, `#` filled.
    ///
    /// # Errors
    /// The byte offset of the fault and what is wrong.
    pub fn parse(text: &str) -> Result<Self, (usize, String)> {
        let mut rows = 0usize;
        let mut cols = None;
        let mut empty = 0u128;
        let mut start = 0usize;
        for line in text.split('/') {
            let width = line.chars().count();
            if width == 0 {
                return Err((start, "a row has no cells (`/` twice, or at an end)".into()));
            }
            match cols {
                None => cols = Some(width),
                Some(c) if c != width => {
                    return Err((
                        start,
                        format!("row {} has {width} cells, row 1 has {c}", rows + 1),
                    ));
                }
                Some(_) => {}
            }
            if (rows + 1) * width > MOST_CELLS {
                return Err((
                    start,
                    format!("a board has at most {MOST_CELLS} cells (11 x 11)"),
                ));
            }
            for (j, (offset, ch)) in line.char_indices().enumerate() {
                match ch {
                    '.' => empty |= 1 << (rows * width + j),
                    '#' => {}
                    _ => {
                        return Err((
                            start + offset,
                            format!(
                                "`{ch}` is not a cell: `.` is empty, `#` filled, `/` ends a row"
                            ),
                        ));
                    }
                }
            }
            rows += 1;
            start += line.len() + 1;
        }
        let cols = cols.unwrap_or(0);
        Ok(Self {
            rows: rows as u8,
            cols: cols as u8,
            empty,
        })
    }

    /// The number of rows.
    #[must_use]
    pub const fn rows(&self) -> usize {
        self.rows as usize
    }

    /// The number of columns.
    #[must_use]
    pub const fn cols(&self) -> usize {
        self.cols as usize
    }

    /// Whether the cell in row `i`, column `j` (from 0) is empty.
    #[must_use]
    pub const fn is_empty(&self, i: usize, j: usize) -> bool {
        self.empty >> (i * self.cols as usize + j) & 1 == 1
    }

    /// Every move: the two cells (bit indices) a domino fills, row by row,
    /// each cell's horizontal domino before its vertical one.
    fn each_move(&self, mut visit: impl FnMut(usize, usize)) {
        let (w, e) = (self.cols(), self.empty);
        let masks = Masks::of(w);
        let horizontal = e & (e >> 1) & !masks.last_col;
        let vertical = e & (e >> w);
        let mut both = horizontal | vertical;
        while both != 0 {
            let p = both.trailing_zeros() as usize;
            both &= both - 1;
            if horizontal >> p & 1 == 1 {
                visit(p, p + 1);
            }
            if vertical >> p & 1 == 1 {
                visit(p, p + w);
            }
        }
    }

    const fn without(&self, a: usize, b: usize) -> Self {
        Self {
            rows: self.rows,
            cols: self.cols,
            empty: self.empty & !(1 << a | 1 << b),
        }
    }
}

impl std::fmt::Display for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for i in 0..self.rows() {
            if i > 0 {
                f.write_str("/")?;
            }
            for j in 0..self.cols() {
                f.write_str(if self.is_empty(i, j) { "." } else { "#" })?;
            }
        }
        Ok(())
    }
}

/// The column masks of a frame of stride `w`, over all 128 bits.
#[derive(Clone, Copy)]
struct Masks {
    first_col: u128,
    last_col: u128,
}

impl Masks {
    fn of(w: usize) -> Self {
        let mut first_col = 0u128;
        let mut i = 0;
        while i < 128 {
            first_col |= 1 << i;
            i += w;
        }
        Self {
            first_col,
            last_col: first_col << (w - 1),
        }
    }
}

/// The cells of `s` next to a cell of `m`, in a frame of stride `w`.
const fn spread(m: u128, w: usize, masks: &Masks) -> u128 {
    ((m & !masks.last_col) << 1) | ((m & !masks.first_col) >> 1) | (m << w) | (m >> w)
}

/// A set of cells cropped to its bounding box: `h` rows of stride `w`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    bits: u128,
    h: usize,
    w: usize,
}

impl Shape {
    /// Crops the non-empty set `m` of a frame of stride `w`.
    fn crop(m: u128, w: usize) -> Self {
        let r0 = m.trailing_zeros() as usize / w;
        let r1 = (127 - m.leading_zeros() as usize) / w;
        let row = low(w);
        let mut columns = 0u128;
        for i in r0..=r1 {
            columns |= (m >> (i * w)) & row;
        }
        let c0 = columns.trailing_zeros() as usize;
        let c1 = 127 - columns.leading_zeros() as usize;
        let w2 = c1 - c0 + 1;
        let row2 = low(w2);
        let mut bits = 0u128;
        for i in r0..=r1 {
            bits |= ((m >> (i * w + c0)) & row2) << ((i - r0) * w2);
        }
        Self {
            bits,
            h: r1 - r0 + 1,
            w: w2,
        }
    }

    /// The eight images under the symmetries of the square: identity, mirror
    /// left-right, mirror top-bottom, half turn (all `h x w`), then the
    /// transpose and its three compositions (all `w x h`), the last being the
    /// anti-diagonal mirror.
    fn images(&self) -> [u128; 8] {
        let (h, w) = (self.h, self.w);
        let mut t = [0u128; 8];
        t[0] = self.bits;
        for i in 0..h {
            let mut row = (self.bits >> (i * w)) & low(w);
            let ri = h - 1 - i;
            while row != 0 {
                let j = row.trailing_zeros() as usize;
                row &= row - 1;
                let rj = w - 1 - j;
                t[1] |= 1 << (i * w + rj);
                t[2] |= 1 << (ri * w + j);
                t[3] |= 1 << (ri * w + rj);
                t[4] |= 1 << (j * h + i);
                t[5] |= 1 << (j * h + ri);
                t[6] |= 1 << (rj * h + i);
                t[7] |= 1 << (rj * h + ri);
            }
        }
        t
    }

    /// The cell `(i, j)` as a one-bit mask.
    const fn cell(&self, i: usize, j: usize) -> u128 {
        1 << (i * self.w + j)
    }

    /// Whether the symmetry strategy proves this set of empty cells a
    /// second-player win: it is invariant under an involution of its box that
    /// fixes none of its cells and swaps no two adjacent ones of them.
    fn zero_by_symmetry(&self, t: &[u128; 8]) -> bool {
        let (s, h, w) = (self.bits, self.h, self.w);
        let has = |m: u128| s & m == m;
        // Point reflection (half turn).
        if t[3] == s {
            let holds = match (h % 2, w % 2) {
                (0, 0) => true,
                (1, 1) => !has(self.cell(h / 2, w / 2)),
                (1, 0) => !has(self.cell(h / 2, w / 2 - 1) | self.cell(h / 2, w / 2)),
                _ => !has(self.cell(h / 2 - 1, w / 2) | self.cell(h / 2, w / 2)),
            };
            if holds {
                return true;
            }
        }
        // Mirror left-right: the middle column, or the pairs across the axis.
        if t[1] == s {
            let holds = (0..h).all(|i| {
                if w % 2 == 1 {
                    !has(self.cell(i, w / 2))
                } else {
                    !has(self.cell(i, w / 2 - 1) | self.cell(i, w / 2))
                }
            });
            if holds {
                return true;
            }
        }
        // Mirror top-bottom.
        if t[2] == s {
            let holds = (0..w).all(|j| {
                if h % 2 == 1 {
                    !has(self.cell(h / 2, j))
                } else {
                    !has(self.cell(h / 2 - 1, j) | self.cell(h / 2, j))
                }
            });
            if holds {
                return true;
            }
        }
        // The diagonals of a square box fix their cells and swap no adjacent pair.
        if h == w {
            if t[4] == s && (0..h).all(|i| !has(self.cell(i, i))) {
                return true;
            }
            if t[7] == s && (0..h).all(|i| !has(self.cell(i, w - 1 - i))) {
                return true;
            }
        }
        false
    }

    /// The least of the eight images, with its width, packed in one key:
    /// the image in bits `0..121` and its width above.
    fn key(&self, t: &[u128; 8]) -> u128 {
        let mut best = (self.w, t[0]);
        for (k, &image) in t.iter().enumerate().skip(1) {
            let width = if k < 4 { self.w } else { self.h };
            best = best.min((width, image));
        }
        best.1 | (best.0 as u128) << MOST_CELLS
    }
}

/// The search: region nimbers in a transposition table of at most `limit`
/// regions.
struct Search {
    table: FxHashMap<[u64; 2], u8>,
    masks: Vec<Masks>,
    limit: usize,
    /// Whether regions met may be answered by the symmetry strategy.
    symmetry: bool,
}

impl Search {
    fn new(limit: usize) -> Self {
        Self {
            table: FxHashMap::default(),
            masks: (0..=MOST_CELLS).map(|w| Masks::of(w.max(1))).collect(),
            limit,
            symmetry: true,
        }
    }

    /// The nimber of the empty cells `s` of a frame of stride `w`: the xor of
    /// its regions' nimbers.
    fn value(&mut self, s: u128, w: usize) -> Result<u8, SearchError> {
        let masks = self.masks[w];
        // Cells with no empty neighbour take no part in any move.
        let mut rest = s & spread(s, w, &masks);
        let mut nimber = 0u8;
        while rest != 0 {
            let mut region = rest & rest.wrapping_neg();
            loop {
                let grown = (region | spread(region, w, &masks)) & rest;
                if grown == region {
                    break;
                }
                region = grown;
            }
            rest &= !region;
            nimber ^= self.region(region, w)?;
        }
        Ok(nimber)
    }

    /// The nimber of a connected region of at least two cells.
    fn region(&mut self, region: u128, w: usize) -> Result<u8, SearchError> {
        let cells = region.count_ones();
        if cells <= 3 {
            // A domino, a line of three or an L: every move leaves at most one cell.
            return Ok(1);
        }
        let shape = Shape::crop(region, w);
        let images = shape.images();
        if self.symmetry && shape.zero_by_symmetry(&images) {
            return Ok(0);
        }
        let key = shape.key(&images);
        let key = [key as u64, (key >> 64) as u64];
        if let Some(&g) = self.table.get(&key) {
            return Ok(g);
        }
        let (s, w) = (shape.bits, shape.w);
        let masks = self.masks[w];
        let horizontal = s & (s >> 1) & !masks.last_col;
        let vertical = s & (s >> w);
        let mut seen = [0u128; 2];
        let mut each = |this: &mut Self, mut dominoes: u128, step: usize| {
            while dominoes != 0 {
                let p = dominoes.trailing_zeros() as usize;
                dominoes &= dominoes - 1;
                let g = this.value(s & !(1 << p | 1 << (p + step)), w)?;
                seen[usize::from(g >> 7)] |= 1 << (g & 127);
            }
            Ok::<(), SearchError>(())
        };
        each(self, horizontal, 1)?;
        each(self, vertical, w)?;
        let mex = if seen[0] == u128::MAX {
            128 + seen[1].trailing_ones()
        } else {
            seen[0].trailing_ones()
        };
        let mex = mex as u8;
        if self.table.len() >= self.limit {
            return Err(SearchError::StateLimit { limit: self.limit });
        }
        self.table.insert(key, mex);
        Ok(mex)
    }

    fn board(&mut self, board: &Board) -> Result<u8, SearchError> {
        self.value(board.empty, board.cols())
    }
}

/// Cram.
#[derive(Debug, PartialEq, Eq)]
pub struct Cram;

impl Cram {
    /// The nimber of `board`, by the search, storing at most `limit` regions.
    ///
    /// # Errors
    /// [`SearchError::StateLimit`] when the search needs more.
    pub fn nimber(board: &Board, limit: usize) -> Result<u32, SearchError> {
        Search::new(limit).board(board).map(u32::from)
    }
}

impl Family for Cram {
    type Position = Board;

    fn write_position(&self, board: &Board, out: &mut String) {
        out.push('"');
        out.push_str(&board.to_string());
        out.push('"');
    }

    fn moves(&self, board: &Board, _limit: usize) -> Result<Vec<Vec<Board>>, SearchError> {
        // At most 2 x 121 moves: always within any limit that matters.
        let mut moves = Vec::new();
        board.each_move(|a, b| moves.push(vec![board.without(a, b)]));
        Ok(moves)
    }

    fn describe_move(&self, from: &Board, to: &[Board]) -> String {
        let Some(to) = to.first() else {
            return "a move".to_owned();
        };
        let mut filled = from.empty & !to.empty;
        let w = from.cols();
        let mut cells = Vec::new();
        while filled != 0 {
            let p = filled.trailing_zeros() as usize;
            filled &= filled - 1;
            cells.push(format!("({},{})", p / w + 1, p % w + 1));
        }
        if cells.len() == 2 {
            format!("place a domino on {}-{}", cells[0], cells[1])
        } else {
            "a move".to_owned()
        }
    }

    fn nimber_by_theory(&self, board: &Board) -> Option<(BigUint, &'static str)> {
        if board.empty == 0 {
            return Some((BigUint::default(), "symmetry strategy"));
        }
        let shape = Shape::crop(board.empty, board.cols());
        shape
            .zero_by_symmetry(&shape.images())
            .then(|| (BigUint::default(), "symmetry strategy"))
    }

    fn nimbers_by_search(
        &self,
        board: &Board,
        limit: usize,
    ) -> Option<Result<SearchedNimbers<Board>, SearchError>> {
        let mut search = Search::new(limit);
        Some((|| {
            let nimber = search.board(board)?;
            let mut moves = Vec::new();
            board.each_move(|a, b| moves.push(board.without(a, b)));
            let mut options = Vec::with_capacity(moves.len());
            for after in moves {
                let g = search.board(&after)?;
                options.push((vec![after], BigUint::from(g)));
            }
            Ok(SearchedNimbers {
                nimber: nimber.into(),
                options,
            })
        })())
    }

    fn canonical_form(&self, board: &Board) -> Option<Board> {
        // The empty cells cropped, under the least of their eight images.
        if board.empty == 0 {
            return (board.rows != 1 || board.cols != 1).then_some(Board {
                rows: 1,
                cols: 1,
                empty: 0,
            });
        }
        let shape = Shape::crop(board.empty, board.cols());
        let key = shape.key(&shape.images());
        let w = (key >> MOST_CELLS) as usize;
        let bits = key & low(MOST_CELLS);
        let h = (127 - bits.leading_zeros() as usize) / w + 1;
        let canonical = Board {
            rows: h as u8,
            cols: w as u8,
            empty: bits,
        };
        (canonical != *board).then_some(canonical)
    }
}

fn build(term: &Term, _context: &BuildContext<'_>) -> Result<Group, LangError> {
    crate::lang::arguments::no_params(term)?;
    let usage = "`cram` takes `r, c` or a board `\"..#./....\"`";
    let board = match term.args.as_slice() {
        [r, c] => {
            let side = |value: &crate::lang::Value| match &value.kind {
                ValueKind::Integer(n) => usize::try_from(n)
                    .ok()
                    .filter(|&n| (1..=MOST_CELLS).contains(&n))
                    .ok_or_else(|| {
                        LangError::new(
                            format!("`{n}` is not a side from 1 to {MOST_CELLS}"),
                            value.span,
                        )
                    }),
                _ => Err(LangError::new("a side is an integer", value.span)),
            };
            let (rows, cols) = (side(r)?, side(c)?);
            Board::new(rows, cols).ok_or_else(|| {
                LangError::new(
                    format!(
                        "a board has at most {MOST_CELLS} cells (11 x 11), not {rows} x {cols}"
                    ),
                    term.span,
                )
            })?
        }
        [text] => {
            let ValueKind::Text(board) = &text.kind else {
                return Err(LangError::new(usage, text.span));
            };
            Board::parse(board).map_err(|(offset, message)| {
                // Point at the fault inside the quotes when the text has no escapes.
                let span = if text.span.end - text.span.start == board.len() + 2 {
                    let at = text.span.start + 1 + offset;
                    Span::new(at, at + 1)
                } else {
                    text.span
                };
                LangError::new(message, span)
            })?
        }
        _ => return Err(LangError::new(usage, term.span)),
    };
    Ok(Group::new("cram", vec![part(&Arc::new(Cram), board)]))
}

/// The catalogue entry.
pub(crate) const ENTRY: GameEntry = GameEntry {
    name: "cram",
    summary: "place a domino on two empty adjacent cells; whoever cannot move loses",
    rules: "cram(r, c) is the empty r x c board; cram(\"..#./....\") a board given row by row, \
            rows separated by /, . an empty cell, # a filled one (at most 121 cells). A move \
            places a domino on two empty cells side by side, horizontally or vertically; whoever \
            cannot move loses. A board is the sum of its regions of empty cells. Boards symmetric \
            under a point reflection or mirror that fixes no empty cell and swaps no two adjacent \
            ones are 0 by the symmetry strategy (every even x even board); odd x even boards are \
            first-player wins by the same strategy after a central move. Other nimbers come \
            from a search of regions, canonical under the 8 symmetries, in a table of at most \
            --max-states regions (as in Beling's igsolve).",
    syntax: "cram(r, c), cram(\"ROW/ROW/...\")",
    examples: &["cram(4, 5)", "cram(\"..#./....\")", "cram(3, 3) + nim(2)"],
    kind: EntryKind::Game(build),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Rules;
    use crate::theory::solver::Solver;

    /// Every board of `rows x cols` with every pattern of filled cells.
    fn every_board(rows: usize, cols: usize) -> impl Iterator<Item = Board> {
        (0u128..1 << (rows * cols)).map(move |empty| Board {
            rows: rows as u8,
            cols: cols as u8,
            empty,
        })
    }

    #[test]
    fn parses_and_prints_boards() {
        let board = Board::parse("..#./....").unwrap();
        assert_eq!((board.rows(), board.cols()), (2, 4));
        assert!(!board.is_empty(0, 2));
        assert!(board.is_empty(1, 3));
        assert_eq!(board.to_string(), "..#./....");
        assert_eq!(Board::new(2, 3).unwrap().to_string(), ".../...");
        assert!(
            Board::parse("../...")
                .unwrap_err()
                .1
                .contains("row 2 has 3")
        );
        assert_eq!(Board::parse("..x").unwrap_err().0, 2);
        assert!(Board::parse("").is_err());
        assert!(Board::parse("../").is_err());
        assert!(Board::parse(&[".........."; 13].join("/")).is_err());
        assert!(Board::parse(&["..........."; 11].join("/")).is_ok());
        assert!(Board::new(11, 12).is_none());
        assert!(Board::new(0, 3).is_none());
    }

    #[test]
    fn moves_and_their_descriptions() {
        let board = Board::parse("..#/...").unwrap();
        let moves = Cram.moves(&board, usize::MAX).unwrap();
        // (1,1)-(1,2), (1,1)-(2,1), (1,2)-(2,2), (2,1)-(2,2), (2,2)-(2,3)
        assert_eq!(moves.len(), 5);
        assert_eq!(
            Cram.describe_move(&board, &moves[0]),
            "place a domino on (1,1)-(1,2)"
        );
        assert_eq!(
            Cram.describe_move(&board, &moves[1]),
            "place a domino on (1,1)-(2,1)"
        );
        assert_eq!(moves[0][0].to_string(), "###/...");
    }

    /// The search against the generic solver on every board with holes up to
    /// 3 x 4 (and 2 x 6, 4 x 3), with and without the symmetry shortcut.
    #[test]
    fn the_search_matches_brute_force_on_every_small_board() {
        let rules = Rules::new(Cram);
        let mut solver = Solver::new(&rules);
        for (rows, cols) in [
            (1, 1),
            (1, 5),
            (1, 8),
            (2, 2),
            (2, 3),
            (2, 5),
            (3, 3),
            (2, 6),
            (3, 4),
            (4, 3),
        ] {
            let mut plain = Search::new(usize::MAX);
            plain.symmetry = false;
            let mut fast = Search::new(usize::MAX);
            for board in every_board(rows, cols) {
                let expected = solver.nimber(&vec![board]).unwrap();
                assert_eq!(u32::from(plain.board(&board).unwrap()), expected, "{board}");
                assert_eq!(u32::from(fast.board(&board).unwrap()), expected, "{board}");
                if let Some((g, _)) = Cram.nimber_by_theory(&board) {
                    assert_eq!(g, BigUint::from(expected), "{board}");
                }
                if let Some(canonical) = Cram.canonical_form(&board) {
                    assert_eq!(
                        solver.nimber(&vec![canonical]).unwrap(),
                        expected,
                        "{board} as {canonical}"
                    );
                }
            }
        }
    }

    #[test]
    fn options_are_valued_move_by_move() {
        let rules = Rules::new(Cram);
        let mut solver = Solver::new(&rules);
        for board in [
            Board::new(3, 4).unwrap(),
            Board::parse("..#./..../.#..").unwrap(),
        ] {
            let found = Cram.nimbers_by_search(&board, usize::MAX).unwrap().unwrap();
            assert_eq!(
                found.nimber,
                BigUint::from(solver.nimber(&vec![board]).unwrap())
            );
            let moves = Cram.moves(&board, usize::MAX).unwrap();
            assert_eq!(found.options.len(), moves.len());
            for ((leaves, g), after) in found.options.iter().zip(&moves) {
                assert_eq!(leaves, after);
                assert_eq!(*g, BigUint::from(solver.nimber(after).unwrap()));
            }
        }
    }

    #[test]
    fn even_by_even_boards_are_zero_and_odd_by_even_first_player_wins() {
        let rules = Rules::new(Cram);
        let mut solver = Solver::new(&rules);
        for rows in 1..=4 {
            for cols in 1..=4 {
                let board = Board::new(rows, cols).unwrap();
                let g = solver.nimber(&vec![board]).unwrap();
                if rows % 2 == 0 && cols % 2 == 0 {
                    assert_eq!(g, 0, "{rows} x {cols}");
                    assert!(Cram.nimber_by_theory(&board).is_some());
                }
                if (rows + cols) % 2 == 1 {
                    assert_ne!(g, 0, "{rows} x {cols}");
                }
            }
        }
        assert!(
            Cram.nimber_by_theory(&Board::new(10, 12).unwrap())
                .is_some()
        );
        assert!(Cram.nimber_by_theory(&Board::new(4, 5).unwrap()).is_none());
    }

    #[test]
    fn the_state_limit_is_kept() {
        assert_eq!(
            Cram::nimber(&Board::new(4, 5).unwrap(), 10),
            Err(SearchError::StateLimit { limit: 10 })
        );
    }

    #[test]
    fn published_values_of_small_boards() {
        let nimber = |r, c| Cram::nimber(&Board::new(r, c).unwrap(), usize::MAX).unwrap();
        assert_eq!(nimber(4, 5), 2);
        assert_eq!(nimber(5, 5), 0);
        assert_eq!(nimber(5, 4), 2);
        assert_eq!(nimber(4, 4), 0);
    }

    #[test]
    #[ignore = "a few seconds in release"]
    fn published_values_of_larger_boards() {
        // Beling's published values; 5 x 7 (1) takes about a minute and the
        // larger boards far longer with this search, so they are not run here
        // (see docs/BENCHMARKS.md, "Cram and Chomp against igsolve").
        let nimber = |r, c| Cram::nimber(&Board::new(r, c).unwrap(), usize::MAX).unwrap();
        assert_eq!(nimber(5, 6), 2);
        assert_eq!(nimber(4, 7), 3);
    }
}
