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
//! * **Reduction.** A cell whose every neighbour has a pendant cell (one
//!   with no other neighbour) other than itself can be removed: the game is
//!   unchanged (proof in the module `region`; Beling's star and bridge reductions).
//! * **Search.** The rest is Beling and Rogalski's pruned search (P. Beling,
//!   M. Rogalski, *On pruning search trees of impartial games*, Artificial
//!   Intelligence 283, 2020), as in Beling's igsolve: a region is asked only
//!   whether its nimber lies in a set, options are tried smallest first, and
//!   the whole board's regions by aspiration (is the nimber 0, 1, ...?); see
//!   the module `search`. Exact nimbers of canonical regions go to a
//!   transposition table of at most `--max-states` regions (module `table`). The search is kept
//!   after the nimber to find the moves to a given nimber (the winning moves)
//!   with what it learnt ([`Family::position_search`]). Published values
//!   (Uiterwijk and Barton; Beling): 4 x 5 = 2, 5 x 5 = 0, 5 x 6 = 2,
//!   4 x 7 = 3, 5 x 7 = 1, 5 x 8 = 1, 4 x 9 = 1, 5 x 9 = 1, 5 x 10 = 2,
//!   4 x 11 = 1.
//!
//! Boards of at most [`MOST_CELLS`] cells are supported (11 x 11, 8 x 15,
//! 4 x 30, 1 x 121); larger ones are refused when the term is read.

mod checkpoint;
mod region;
mod search;
mod transposition;

use std::sync::Arc;

use num_bigint::BigUint;

use self::region::{Shape, dominoes, low};
use self::search::{BoardSearch, Search};
use crate::drawing::{BoardDrawing, Drawing, Square};
use crate::family::{Family, MovesTo, PositionSearch, part};
use crate::lang::{LangError, Span, Term, ValueKind};
use crate::registry::{BuildContext, DrawingKind, EntryKind, GameEntry};
use crate::sums::position::Group;
use crate::theory::checkpoint::CheckpointFile;
use crate::theory::solver::{Budget, SearchError};

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
                                "row {}, column {}: `{}` is not a cell: `.` is empty, `#` \
                                 filled, `/` ends a row",
                                rows + 1,
                                j + 1,
                                ch.escape_debug()
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
        let w = self.cols();
        let (horizontal, vertical) = dominoes(self.empty, w);
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

/// Cram.
#[derive(Debug, PartialEq, Eq)]
pub struct Cram;

impl Cram {
    /// The nimber of `board`, by the search, storing at most `limit` regions.
    ///
    /// # Errors
    /// [`SearchError::StateLimit`] when the search needs more.
    pub fn nimber(board: &Board, limit: usize) -> Result<u32, SearchError> {
        BoardSearch::new(board.empty, board.cols(), Search::for_threads(limit))
            .nimber()
            .map(u32::from)
    }
}

impl Family for Cram {
    type Position = Board;

    fn drawing(&self, board: &Board) -> Option<Drawing> {
        let (rows, cols) = (board.rows(), board.cols());
        let cells = (0..rows)
            .flat_map(|i| (0..cols).map(move |j| (i, j)))
            .map(|(i, j)| {
                if board.is_empty(i, j) {
                    Square::Empty
                } else {
                    Square::Filled
                }
            })
            .collect();
        Some(Drawing::Board(BoardDrawing {
            rows: u32::try_from(rows).ok()?,
            cols: u32::try_from(cols).ok()?,
            cells,
        }))
    }

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
        Shape::crop(board.empty, board.cols())
            .canonical()
            .zero
            .then(|| (BigUint::default(), "symmetry strategy"))
    }

    fn position_search(
        &self,
        board: &Board,
        budget: Budget,
    ) -> Option<Box<dyn PositionSearch<Board>>> {
        // A stored board: its cells and its value in the transposition table.
        Some(Box::new(Searching {
            board: *board,
            search: BoardSearch::new(
                board.empty,
                board.cols(),
                Search::for_threads(budget.positions(checkpoint::BYTES_PER_REGION)),
            ),
            budget,
        }))
    }

    fn keeps_checkpoints(&self) -> bool {
        true
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
        let canonical = Shape::crop(board.empty, board.cols()).canonical();
        let (bits, w) = (canonical.image, canonical.w);
        let h = (127 - bits.leading_zeros() as usize) / w + 1;
        let canonical = Board {
            rows: h as u8,
            cols: w as u8,
            empty: bits,
        };
        (canonical != *board).then_some(canonical)
    }
}

/// A board's search, kept between the questions of `solve`.
#[derive(Debug)]
struct Searching {
    board: Board,
    search: BoardSearch,
    /// What the search may store, which a checkpoint read must fit.
    budget: Budget,
}

impl PositionSearch<Board> for Searching {
    fn nimber(&mut self) -> Result<BigUint, SearchError> {
        let found = self.search.nimber();
        self.search.saved(found).map(BigUint::from)
    }

    fn keep_progress(&mut self, file: CheckpointFile) -> Option<Result<(), SearchError>> {
        Some(self.search.keep_progress(file, self.budget))
    }

    fn progress_note(&self) -> Option<String> {
        self.search.progress_note()
    }

    fn moves_to_nimber(
        &mut self,
        target: &BigUint,
        max: usize,
    ) -> Result<MovesTo<Board>, SearchError> {
        let mut found = MovesTo::default();
        // Nimbers are at most half the cells: a larger target has no move.
        let Ok(target) = u8::try_from(target) else {
            return Ok(found);
        };
        if target >= 64 {
            return Ok(found);
        }
        let board = self.board;
        let mut count = 0usize;
        let searched = self.search.moves_to(target, |a, b| {
            count += 1;
            if found.listed.len() < max {
                found.listed.push(vec![board.without(a, b)]);
            }
        });
        self.search.saved(searched)?;
        found.count = count.into();
        Ok(found)
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
                // Point at the fault inside the quotes when the text has no escapes:
                // the whole character, which may take several bytes (`é`, `😀`).
                let span = if text.span.end - text.span.start == board.len() + 2 {
                    let width = board[offset..].chars().next().map_or(1, char::len_utf8);
                    let at = text.span.start + 1 + offset;
                    Span::new(at, at + width)
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
            from Beling and Rogalski's pruned search of regions (as in Beling's igsolve), \
            canonical under the 8 symmetries, in a table of at most --max-states regions.",
    syntax: "cram(r, c), cram(\"ROW/ROW/...\")",
    examples: &["cram(4, 5)", "cram(\"..#./....\")", "cram(3, 3) + nim(2)"],
    kind: EntryKind::Game(build),
    heap_rule: None,
    drawing: DrawingKind::Board,
    every_start: None,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Rules;
    use crate::testing::on_pool;
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

    /// A cell that is not ASCII (`é`, an emoji, a no-break space, a combining
    /// mark) is an error naming it, whose span covers the whole character:
    /// it used to end inside it, and rendering the error panicked.
    #[test]
    fn cells_outside_ascii_are_errors_at_character_boundaries() {
        for (source, cell, row, column, at) in [
            ("cram(\"é\")", "é", 1, 1, 6),
            ("cram(\"../😀.\")", "😀", 2, 1, 9),
            ("cram(\"\u{a0}..#/....\")", "\\u{a0}", 1, 1, 6),
            ("cram(\"..#../.e\u{301}..\")", "e", 2, 2, 13),
            ("cram(\"..#../..\u{301}..\")", "\\u{301}", 2, 3, 14),
        ] {
            let sum = crate::lang::parse(source).unwrap();
            let error = crate::catalogue::build(&sum).unwrap_err();
            assert_eq!(
                error.message,
                format!(
                    "row {row}, column {column}: `{cell}` is not a cell: `.` is empty, `#` \
                     filled, `/` ends a row"
                ),
                "{source}"
            );
            assert_eq!(error.span.start, at, "{source}");
            assert!(source.is_char_boundary(error.span.end), "{source}");
            assert!(error.span.end > error.span.start, "{source}");
            assert!(error.render(source).starts_with("error: row"), "{source}");
        }
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

    /// The old search, kept as the oracle: the full mex of every region, in a
    /// table keyed by the region's cells as they lie on the board (no
    /// symmetry, no reduction, no pruning).
    struct Oracle {
        table: rustc_hash::FxHashMap<u128, u8>,
        w: usize,
    }

    impl Oracle {
        fn new(w: usize) -> Self {
            Self {
                table: rustc_hash::FxHashMap::default(),
                w,
            }
        }

        fn value(&mut self, s: u128) -> u8 {
            let mut regions = Vec::new();
            region::each_region(s, self.w, |m| regions.push(m));
            regions.into_iter().fold(0, |g, m| g ^ self.region(m))
        }

        fn region(&mut self, m: u128) -> u8 {
            if let Some(&g) = self.table.get(&m) {
                return g;
            }
            let (horizontal, vertical) = dominoes(m, self.w);
            let mut seen = 0u128;
            for (mut each, step) in [(horizontal, 1), (vertical, self.w)] {
                while each != 0 {
                    let p = each.trailing_zeros() as usize;
                    each &= each - 1;
                    seen |= 1 << self.value(m & !(1 << p | 1 << (p + step)));
                }
            }
            let g = seen.trailing_ones() as u8;
            self.table.insert(m, g);
            g
        }
    }

    /// Every way of searching: with and without the symmetry shortcut and
    /// the pendant reduction.
    fn searches(limit: usize) -> Vec<Search> {
        let mut all = Vec::new();
        for symmetry in [true, false] {
            for reduction in [true, false] {
                let mut search = Search::new(limit);
                search.symmetry = symmetry;
                search.reduction = reduction;
                all.push(search);
            }
        }
        all
    }

    /// The nimber of `board` by `search`, and its moves to every nimber up
    /// to 4 (as bit masks of the two cells), keeping the search.
    fn searched(board: &Board, search: Search) -> (Search, u8, Vec<Vec<u128>>) {
        let mut by_search = BoardSearch::new(board.empty, board.cols(), search);
        let g = by_search.nimber().unwrap();
        let mut moves = Vec::new();
        for target in 0..5 {
            let mut to = Vec::new();
            by_search
                .moves_to(target, |a, b| to.push(1u128 << a | 1 << b))
                .unwrap();
            moves.push(to);
        }
        (by_search.into_search(), g, moves)
    }

    /// The moves of `board` to each nimber up to 4, by the oracle.
    fn oracle_moves(board: &Board, oracle: &mut Oracle) -> Vec<Vec<u128>> {
        let mut moves = vec![Vec::new(); 5];
        board.each_move(|a, b| {
            let g = oracle.value(board.empty & !(1 << a | 1 << b));
            if let Some(to) = moves.get_mut(usize::from(g)) {
                to.push(1u128 << a | 1 << b);
            }
        });
        moves
    }

    /// The search against the generic solver on every board with holes up to
    /// 3 x 4 (and 2 x 6, 4 x 3), in every way of searching, with the moves to
    /// each nimber checked against the oracle.
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
            let mut kept = searches(usize::MAX);
            let mut oracle = Oracle::new(cols);
            for board in every_board(rows, cols) {
                let expected = solver.nimber(&vec![board]).unwrap();
                assert_eq!(u32::from(oracle.value(board.empty)), expected, "{board}");
                let moves = oracle_moves(&board, &mut oracle);
                for search in std::mem::take(&mut kept) {
                    let (search, g, to) = searched(&board, search);
                    assert_eq!(u32::from(g), expected, "{board}");
                    assert_eq!(to, moves, "{board}");
                    kept.push(search);
                }
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

    /// A board of `rows x cols` whose cells are filled where `holes` has a bit.
    fn holed(rows: usize, cols: usize, holes: u128) -> Board {
        let mut board = Board::new(rows, cols).unwrap();
        board.empty &= !holes;
        board
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// The pruned search against the oracle (the full mex of every region)
        /// on boards up to 5 x 6 with random holes, fresh and with a table
        /// kept from the previous boards: the nimber and the moves to each
        /// nimber up to 4.
        #[test]
        fn the_pruned_search_equals_the_full_mex(
            rows in 1usize..=5,
            cols in 1usize..=6,
            holes in proptest::prelude::any::<u128>(),
            sparse in proptest::prelude::any::<u128>(),
        ) {
            // About one cell in four filled.
            let board = holed(rows, cols, holes & sparse);
            let mut oracle = Oracle::new(cols);
            let expected = oracle.value(board.empty);
            let moves = oracle_moves(&board, &mut oracle);
            for search in searches(usize::MAX) {
                let (_, g, to) = searched(&board, search);
                proptest::prop_assert_eq!(g, expected, "{}", board);
                proptest::prop_assert_eq!(&to, &moves, "{}", board);
            }
        }
    }

    /// Boards of 60 to 72 cells whose empty cells, an L of a side and an end
    /// of the board, span every row and column. A frame whose cells all lie
    /// below bit 63 was searched in 64-bit words even when the box of a
    /// region (13 x 5 = 65 cells) did not fit one: `cram(13, 5)` aborted, and
    /// an image could lose a cell.
    #[test]
    fn boxes_wider_than_a_word_are_searched_in_wide_words() {
        let mut checked = 0;
        for rows in 1usize..=72 {
            for cols in 1usize..=72 {
                if !(60..=72).contains(&(rows * cols)) {
                    continue;
                }
                for (row, col) in [(0, 0), (0, cols - 1), (rows - 1, 0), (rows - 1, cols - 1)] {
                    let mut board = Board::new(rows, cols).unwrap();
                    board.empty = 0;
                    for i in 0..rows {
                        for j in 0..cols {
                            if i == row || j == col {
                                board.empty |= 1 << (i * cols + j);
                            }
                        }
                    }
                    let mut oracle = Oracle::new(cols);
                    let expected = oracle.value(board.empty);
                    let moves = oracle_moves(&board, &mut oracle);
                    for search in searches(usize::MAX) {
                        let (_, g, to) = searched(&board, search);
                        assert_eq!(g, expected, "{board}");
                        assert_eq!(to, moves, "{board}");
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked >= 100, "{checked}");
    }

    /// A search whose table already holds regions of other boards answers as
    /// a fresh one (the table is shared by the sums' components).
    #[test]
    fn a_kept_table_answers_as_a_fresh_one() {
        let mut search = Search::new(usize::MAX);
        for text in ["..../..../....", "...../..#../.....", "..#../...../.#..."] {
            let board = Board::parse(text).unwrap();
            let mut oracle = Oracle::new(board.cols());
            let (kept, g, to) = searched(&board, search);
            assert_eq!(g, oracle.value(board.empty), "{board}");
            assert_eq!(to, oracle_moves(&board, &mut oracle), "{board}");
            search = kept;
        }
        assert!(search.stored() > 0);
    }

    /// What the searches proved their regions are not, on boards with holes
    /// up to 5 x 5: never a region's nimber (by the oracle); and the nimbers
    /// of small shapes kept apart from the table are the oracle's.
    #[test]
    fn excluded_nimbers_are_never_the_nimber() {
        let mut checked = 0;
        for (k, text) in [
            "...../...../...../.....",
            "..#.../....../...#../......",
            "...../..#../...../#..../....#",
            "....../.#..../....#./......",
        ]
        .into_iter()
        .enumerate()
        {
            let board = Board::parse(text).unwrap();
            let mut search = Search::new(usize::MAX);
            search.symmetry = k % 2 == 0;
            let (search, g, _) = searched(&board, search);
            assert_eq!(g, Oracle::new(board.cols()).value(board.empty), "{board}");
            for (image, w, excluded) in search.excluded_entries() {
                let nimber = Oracle::new(w).value(image);
                assert_eq!(excluded >> nimber & 1, 0, "{image:b} of width {w}");
                checked += 1;
            }
            // The small shapes' nimbers, kept by their cells as they lie.
            for (bits, w, g) in search.small_entries() {
                assert_eq!(Oracle::new(w).value(bits), g, "{bits:b} of width {w}");
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn options_are_valued_move_by_move() {
        let rules = Rules::new(Cram);
        let mut solver = Solver::new(&rules);
        for board in [
            Board::new(3, 4).unwrap(),
            Board::parse("..#./..../.#..").unwrap(),
            Board::new(3, 5).unwrap(),
        ] {
            let mut search = Cram.position_search(&board, Budget::UNLIMITED).unwrap();
            let nimber = search.nimber().unwrap();
            assert_eq!(nimber, BigUint::from(solver.nimber(&vec![board]).unwrap()));
            let moves = Cram.moves(&board, usize::MAX).unwrap();
            for target in 0..4u32 {
                let expected: Vec<&Vec<Board>> = moves
                    .iter()
                    .filter(|after| solver.nimber(after).unwrap() == target)
                    .collect();
                let found = search.moves_to_nimber(&target.into(), 2).unwrap();
                assert_eq!(
                    found.count,
                    BigUint::from(expected.len()),
                    "{board} to {target}"
                );
                let listed: Vec<&Vec<Board>> = found.listed.iter().collect();
                assert_eq!(listed, expected.into_iter().take(2).collect::<Vec<_>>());
            }
            let none = search.moves_to_nimber(&1000u32.into(), 2).unwrap();
            assert_eq!(none.count, BigUint::default());
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
        // Beling's published values; 5 x 7 takes under a second in release
        // with the pruned search, 5 x 8 a few, the larger boards far longer:
        // they are left to the benchmarks (scripts/bench-vs-igsolve.sh).
        let nimber = |r, c| Cram::nimber(&Board::new(r, c).unwrap(), usize::MAX).unwrap();
        assert_eq!(nimber(5, 6), 2);
        assert_eq!(nimber(4, 7), 3);
        assert_eq!(nimber(7, 5), 1);
    }

    /// The nimbers of Beling's table of rectangular boards (the README of
    /// `impartial-games`, 2025; its values for the boards below were first
    /// computed by Lemoine and Viennot's Glop), every one the search answers
    /// within a few seconds in the tests profile, both ways round: rows 4 to
    /// 6 up to 4 x 10, 5 x 8 and 6 x 6, and the even by even boards of the
    /// table (4 x 12, 4 x 14, 6 x 8 to 6 x 14), which the symmetry strategy
    /// answers. The larger ones are in docs/BENCHMARKS.md ("Cram: the
    /// published values").
    #[test]
    #[ignore = "a few seconds"]
    fn published_values_within_seconds() {
        let table = [
            (4, 4, 0),
            (4, 5, 2),
            (4, 6, 0),
            (4, 7, 3),
            (4, 8, 0),
            (4, 9, 1),
            (4, 10, 0),
            (4, 12, 0),
            (4, 14, 0),
            (5, 5, 0),
            (5, 6, 2),
            (5, 7, 1),
            (5, 8, 1),
            (6, 6, 0),
            (6, 8, 0),
            (6, 10, 0),
            (6, 12, 0),
            (6, 14, 0),
        ];
        on_pool(2, || {
            for (rows, cols, published) in table {
                for (r, c) in [(rows, cols), (cols, rows)] {
                    let Some(board) = Board::new(r, c) else {
                        // 11 x 12 and larger: more than 121 cells both ways.
                        continue;
                    };
                    assert_eq!(Cram::nimber(&board, usize::MAX), Ok(published), "{r} x {c}");
                }
            }
        });
    }

    /// With the threads of a pool sharing one table (more threads than this
    /// machine has cores too), every board with holes up to 3 x 4 has the
    /// oracle's nimber and moves to each nimber, and larger boards with holes
    /// the nimber and moves of one thread; the other threads did search.
    #[test]
    fn the_threads_of_a_pool_answer_as_one_thread() {
        let larger = [
            "......./......./......./.......",
            "..#.../....../...#../......",
            "...../..#../...../#..../....#",
            "......./......./.#...../.......",
            "...../...../...../...../...../.....",
        ];
        let alone: Vec<_> = larger
            .iter()
            .map(|text| {
                let board = Board::parse(text).unwrap();
                let (_, g, to) = searched(&board, Search::new(usize::MAX));
                (g, to)
            })
            .collect();
        for threads in [2, 7] {
            on_pool(threads, || {
                let mut helped = 0;
                for (rows, cols) in [(3, 4), (2, 6), (4, 3)] {
                    let mut oracle = Oracle::new(cols);
                    for board in every_board(rows, cols) {
                        let (_, g, to) = searched(&board, Search::for_threads(usize::MAX));
                        assert_eq!(g, oracle.value(board.empty), "{board}");
                        assert_eq!(to, oracle_moves(&board, &mut oracle), "{board}");
                    }
                }
                for (text, expected) in larger.iter().zip(&alone) {
                    let board = Board::parse(text).unwrap();
                    let mut search = BoardSearch::new(
                        board.empty,
                        board.cols(),
                        Search::for_threads(usize::MAX),
                    );
                    assert_eq!(search.nimber().unwrap(), expected.0, "{board}");
                    let (helpers, visits) = search.helpers();
                    assert_eq!(helpers, threads - 1);
                    helped += visits;
                    let (_, g, to) = searched(&board, Search::for_threads(usize::MAX));
                    assert_eq!((g, to), *expected, "{board}");
                }
                assert!(helped > 0, "the other threads searched nothing");
            });
        }
    }

    /// The state limit holds for the threads together, and a board within
    /// it still answers.
    #[test]
    fn the_threads_keep_the_state_limit_together() {
        on_pool(2, || {
            let board = Board::new(7, 5).unwrap();
            assert_eq!(
                Cram::nimber(&board, 2_000),
                Err(SearchError::StateLimit { limit: 2_000 })
            );
            let search = Search::for_threads(2_000);
            let mut search = BoardSearch::new(board.empty, board.cols(), search);
            assert!(search.nimber().is_err());
            assert!(search.into_search().stored() <= 2_000);
            assert_eq!(Cram::nimber(&Board::new(4, 5).unwrap(), 2_000), Ok(2));
        });
    }
}

#[cfg(test)]
mod limits {
    use super::*;

    /// `cram(7, 5)` with a limit of 20,000 regions stored searched 279,000
    /// regions (four seconds in a release build) before the table filled:
    /// the regions searched are bounded too now, at four per region stored
    /// (whichever limit comes first stops the search).
    #[test]
    fn the_state_limit_bounds_the_regions_searched() {
        let board = Board::new(7, 5).unwrap();
        let mut search = BoardSearch::new(board.empty, board.cols(), Search::new(2_000));
        assert_eq!(
            search.nimber(),
            Err(SearchError::StateLimit { limit: 2_000 })
        );
        let search = search.into_search();
        assert!(search.visits() <= 8_001, "{}", search.visits());
        assert!(search.stored() <= 2_000);
        // A board within the limit still answers.
        let board = Board::new(4, 5).unwrap();
        assert_eq!(Cram::nimber(&board, 2_000), Ok(2));
    }
}

#[cfg(test)]
mod checkpoints {
    use std::path::PathBuf;

    use super::*;
    use crate::testing::on_pool;
    use crate::theory::checkpoint::{Checkpoint, CheckpointError, Checksum};

    /// A scratch directory of its own for each test, and a file in it.
    fn scratch(test: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "grundy-cram-checkpoint-{}-{test}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("board.ckpt")
    }

    /// The oracle: the generic solver over every board.
    fn oracle(board: &Board) -> (u32, Vec<Vec<Vec<Board>>>) {
        let rules = crate::family::Rules::new(Cram);
        let mut solver = crate::theory::solver::Solver::new(&rules);
        let g = solver.nimber(&vec![*board]).unwrap();
        let mut to = vec![Vec::new(); 5];
        for after in Cram.moves(board, usize::MAX).unwrap() {
            let value = solver.nimber(&after).unwrap() as usize;
            if let Some(list) = to.get_mut(value) {
                list.push(after);
            }
        }
        (g, to)
    }

    /// A search of `board` within `states` positions, keeping its progress
    /// in `path`.
    fn resumed(board: &Board, path: &PathBuf, states: usize) -> Result<Searching, SearchError> {
        let budget = Budget::states(states);
        let mut search = Searching {
            board: *board,
            search: BoardSearch::new(
                board.empty,
                board.cols(),
                Search::for_threads(budget.positions(checkpoint::BYTES_PER_REGION)),
            ),
            budget,
        };
        search
            .keep_progress(Checkpoint::new(path).of(&board.to_string()))
            .unwrap()?;
        Ok(search)
    }

    /// Asks `ask` of a search of `board` stopped by a state limit that starts
    /// at `states` and doubles, each stop saved and resumed from, until it
    /// answers: the answer, how many runs, and the regions each run searched.
    /// `states` is left at the limit of the last run (a file is refused by a
    /// search that may store less than it holds).
    fn until_answered<T>(
        board: &Board,
        path: &PathBuf,
        states: &mut usize,
        ask: impl Fn(&mut Searching) -> Result<T, SearchError>,
    ) -> (T, usize, Vec<u64>) {
        let mut searched = Vec::new();
        loop {
            let mut search = resumed(board, path, *states).unwrap();
            let found = ask(&mut search);
            searched.push(search.search.searched());
            match found {
                Ok(answer) => return (answer, searched.len(), searched),
                Err(SearchError::StateLimit { .. }) => *states = states.saturating_mul(2),
                Err(other) => panic!("{board}: {other}"),
            }
        }
    }

    /// The nimber and the moves to each nimber up to 4 of `board`, asked of
    /// searches stopped and resumed from `path`.
    fn answered_in_pieces(
        board: &Board,
        path: &PathBuf,
        first: usize,
    ) -> (u32, Vec<Vec<Vec<Board>>>) {
        let mut states = first;
        let (g, ..) = until_answered(board, path, &mut states, |search| search.nimber());
        let mut to = Vec::new();
        for target in 0..5u32 {
            let (moves, ..) = until_answered(board, path, &mut states, |search| {
                search.nimber()?;
                search.moves_to_nimber(&target.into(), usize::MAX)
            });
            to.push(moves.listed);
        }
        (u32::try_from(&g).unwrap(), to)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(60))]

        /// Boards up to 5 x 6 with random holes, searched by runs each stopped
        /// at a state limit (from a random one, doubling) and resumed from the
        /// checkpoint the last one saved: the nimber and the moves to each
        /// nimber are the generic solver's, on one thread and on two.
        #[test]
        fn searches_stopped_and_resumed_answer_as_the_oracle(
            rows in 2usize..=5,
            cols in 2usize..=6,
            holes in proptest::prelude::any::<u128>(),
            sparse in proptest::prelude::any::<u128>(),
            first in 8usize..200,
            threads in 1usize..=2,
        ) {
            let mut board = Board::new(rows, cols).unwrap();
            board.empty &= !(holes & sparse & holes.rotate_left(7));
            let path = scratch(&format!("stopped-{threads}"));
            let found = on_pool(threads, || answered_in_pieces(&board, &path, first));
            proptest::prop_assert_eq!(found, oracle(&board), "{}", board);
        }
    }

    /// `cram(5, 6)`, stopped five times or more: the value of one run, and
    /// each resumed run searches fewer regions than a run from nothing; the
    /// runs together search about as many (what a stopped run had not yet
    /// stored is searched again).
    #[test]
    fn a_resumed_search_does_less_than_a_search_from_nothing() {
        let board = Board::new(5, 6).unwrap();
        let path = scratch("less");
        let mut unlimited = usize::MAX;
        let (cold, runs, _) = until_answered(&board, &path, &mut unlimited, |s| s.nimber());
        assert_eq!((u32::try_from(&cold).unwrap(), runs), (2, 1));
        let cold_searched = resumed(
            &Board::new(5, 6).unwrap(),
            &scratch("less-cold"),
            usize::MAX,
        )
        .map(|mut search| {
            search.nimber().unwrap();
            search.search.searched()
        })
        .unwrap();
        let path = scratch("less-pieces");
        let (g, runs, searched) = until_answered(&board, &path, &mut 300, |s| s.nimber());
        assert_eq!(u32::try_from(&g).unwrap(), 2);
        assert!(runs >= 5, "{runs} runs");
        for (run, &count) in searched.iter().enumerate().skip(1) {
            assert!(
                count < cold_searched,
                "run {run}: {count} of {cold_searched}"
            );
        }
        let total: u64 = searched.iter().sum();
        assert!(
            total < 2 * cold_searched,
            "{searched:?} against {cold_searched}"
        );
        // Answered, the file answers a new search at once.
        let mut again = resumed(&board, &path, usize::MAX).unwrap();
        assert_eq!(again.nimber(), Ok(2u32.into()));
        assert_eq!(again.search.searched(), 0);
        assert!(
            again
                .progress_note()
                .unwrap()
                .contains("0 regions searched in this run")
        );
    }

    /// The file of the search as written, with its checksum made again after
    /// `change` edits the bytes between the header (of `header` bytes) and
    /// the checksum.
    fn edited(path: &PathBuf, header: usize, change: impl FnOnce(&mut Vec<u8>)) {
        let mut bytes = std::fs::read(path).unwrap();
        bytes.truncate(bytes.len() - 8);
        let mut body = bytes.split_off(header);
        change(&mut body);
        bytes.extend_from_slice(&body);
        let mut sum = Checksum::default();
        sum.update(&bytes);
        bytes.extend_from_slice(&sum.finish().to_le_bytes());
        std::fs::write(path, bytes).unwrap();
    }

    fn refusal(found: Result<Searching, SearchError>) -> String {
        match found {
            Err(SearchError::Checkpoint(CheckpointError::Refused { reason, .. })) => reason,
            Err(other) => panic!("refused otherwise: {other}"),
            Ok(_) => panic!("read"),
        }
    }

    /// Files whose checksum holds but whose contents cannot be right are
    /// refused, naming what is wrong; one too large for the budget is
    /// refused naming the limit that bounds it.
    #[test]
    fn wrong_contents_and_too_many_regions_are_refused() {
        let board = Board::parse("...../...../..#../.....").unwrap();
        let path = scratch("wrong");
        let mut search = resumed(&board, &path, usize::MAX).unwrap();
        let g = search.nimber().unwrap();
        let stored = search.search.into_search().stored() as u64;
        let clean = std::fs::read(&path).unwrap();
        let text = board.to_string();
        let header = 8 + 4 + 2 + crate::theory::checkpoint::GRUNDY_VERSION.len() + 4 + text.len();
        // The body: width, board, counts, then the packed regions.
        let first = 1 + 16 + 16;
        type Damage = Box<dyn FnOnce(&mut Vec<u8>)>;
        let cases: [(&str, Damage); 5] = [
            ("another board", Box::new(|body| body[1] ^= 1)),
            ("out of range", Box::new(move |body| body[first + 7] = 0xff)),
            (
                "out of range",
                Box::new(move |body| body[first..first + 8].fill(0)),
            ),
            (
                "twice with two nimbers",
                Box::new(move |body| {
                    // The second region, as the first with another nimber.
                    let mut slot = [0u8; 8];
                    slot.copy_from_slice(&body[first..first + 8]);
                    let word = u64::from_le_bytes(slot);
                    // Nimber 0 made 1, any other made 0: both within every
                    // region's bound, whichever region the threads stored first.
                    let nimber_plus_one = word >> 58;
                    let other_plus_one = if nimber_plus_one == 1 { 2 } else { 1 };
                    let other = word & ((1 << 58) - 1) | other_plus_one << 58;
                    body[first + 8..first + 16].copy_from_slice(&other.to_le_bytes());
                }),
            ),
            (
                "more than its size can hold",
                // The top byte of the count of packed regions: 2^56 more
                // entries than it had, whatever the threads stored.
                Box::new(|body| body[17 + 7] = 0x01),
            ),
        ];
        for (why, change) in cases {
            std::fs::write(&path, &clean).unwrap();
            edited(&path, header, change);
            let reason = refusal(resumed(&board, &path, usize::MAX));
            assert!(reason.contains(why), "{why}: {reason}");
        }
        // Another board's file under this board's name and text.
        std::fs::write(&path, &clean).unwrap();
        let other = Board::parse("...../...../...#./.....").unwrap();
        let mut wrong = Searching {
            board: other,
            search: BoardSearch::new(other.empty, other.cols(), Search::for_threads(usize::MAX)),
            budget: Budget::UNLIMITED,
        };
        let Some(Err(SearchError::Checkpoint(CheckpointError::Refused { reason, .. }))) =
            wrong.keep_progress(Checkpoint::new(&path).of(&text))
        else {
            panic!("another board read");
        };
        assert!(reason.contains("another board"), "{reason}");
        // Too large: by the state limit, then by the memory limit.
        std::fs::write(&path, &clean).unwrap();
        let too_large = |budget: Budget| {
            let mut search = Searching {
                board,
                search: BoardSearch::new(board.empty, board.cols(), Search::for_threads(1)),
                budget,
            };
            search
                .keep_progress(Checkpoint::new(&path).of(&text))
                .unwrap()
        };
        assert_eq!(
            too_large(Budget::states(stored as usize - 1)),
            Err(SearchError::Checkpoint(CheckpointError::TooLarge {
                path: path.display().to_string(),
                positions: stored,
                limit: stored - 1,
                by_memory: false,
                bytes_each: 24,
            }))
        );
        let bytes = 24 * (stored - 1);
        assert!(matches!(
            too_large(Budget { states: usize::MAX, bytes }),
            Err(SearchError::Checkpoint(CheckpointError::TooLarge { by_memory: true, limit, .. })) if limit == bytes
        ));
        // The clean file still answers.
        let mut search = resumed(&board, &path, usize::MAX).unwrap();
        assert_eq!(search.nimber(), Ok(g));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// A body of random bytes, or a saved one with random bytes written
        /// over part of it, under a valid header and checksum: read or
        /// refused, never a panic, and a search resumed from what was read
        /// still answers (an entry that passes the checks may be false: the
        /// checksum is what guards against damage).
        #[test]
        fn random_bodies_are_read_or_refused_without_a_panic(
            noise in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
            at in 0usize..2000,
            whole in proptest::prelude::any::<bool>(),
        ) {
            let board = Board::parse("..../..../.#..").unwrap();
            let path = scratch(&format!("fuzz-{}", at % 3));
            let text = board.to_string();
            let mut search = resumed(&board, &path, usize::MAX).unwrap();
            search.nimber().unwrap();
            drop(search);
            let header = 8 + 4 + 2 + crate::theory::checkpoint::GRUNDY_VERSION.len() + 4 + text.len();
            edited(&path, header, |body| {
                if whole {
                    *body = noise.clone();
                } else {
                    let at = at.min(body.len());
                    let end = (at + noise.len()).min(body.len());
                    body[at..end].copy_from_slice(&noise[..end - at]);
                }
            });
            match resumed(&board, &path, usize::MAX) {
                Ok(mut search) => {
                    let _ = search.nimber();
                }
                Err(SearchError::Checkpoint(
                    CheckpointError::Refused { .. } | CheckpointError::TooLarge { .. },
                )) => {}
                Err(other) => proptest::prop_assert!(false, "{other}"),
            }
        }
    }
}
