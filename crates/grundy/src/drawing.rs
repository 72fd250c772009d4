//! Pictures of positions: what a component looks like, as data a front end
//! (the web playground of `grundy serve`) draws without reading the position
//! language.
//!
//! A family gives the picture of a position by
//! [`Family::drawing`](crate::family::Family::drawing); a catalogue entry says
//! which kind of picture its positions have ([`DrawingKind`]), so that a front
//! end knows before it asks. Vertices, edges, coins and cells are numbered from
//! 0 here (the position language numbers vertices and edges from 1).

use num_bigint::BigUint;

/// The kind of picture the positions of a catalogue entry have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawingKind {
    /// Heaps of tokens ([`Drawing::Heaps`]).
    Heaps,
    /// A row of coins ([`Drawing::Coins`]).
    Coins,
    /// A graph with tokens, deleted vertices or cut edges ([`Drawing::Graph`]).
    Graph,
    /// A board of cells ([`Drawing::Board`]).
    Board,
    /// A queen on a quarter-infinite board ([`Drawing::Wythoff`]).
    Wythoff,
    /// A Chomp bar ([`Drawing::Chomp`]).
    Chomp,
    /// Numbers to pick from ([`Drawing::Numbers`]).
    Numbers,
    /// Heaps on the cells of a grid ([`Drawing::Grid`]).
    Grid,
    /// No picture: the position is shown as text only.
    None,
}

impl DrawingKind {
    /// The kind's name in lower case, as the playground's API gives it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Heaps => "heaps",
            Self::Coins => "coins",
            Self::Graph => "graph",
            Self::Board => "board",
            Self::Wythoff => "wythoff",
            Self::Chomp => "chomp",
            Self::Numbers => "numbers",
            Self::Grid => "grid",
            Self::None => "none",
        }
    }
}

/// The picture of one component.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Drawing {
    /// Heaps of tokens, in the order of the term's arguments (one heap for a
    /// heap game's component, the whole row for a staircase).
    Heaps(Vec<BigUint>),
    /// A row of coins, coin 0 leftmost: `true` for heads.
    Coins(Vec<bool>),
    /// A graph and what stands on it.
    Graph(GraphDrawing),
    /// A board of cells.
    Board(BoardDrawing),
    /// Wythoff's queen at column `x`, row `y` (the two piles).
    Wythoff {
        /// The first pile: the queen's column.
        x: BigUint,
        /// The second pile: the queen's row.
        y: BigUint,
    },
    /// A Chomp bar: the length of each row, the row of the poisoned square
    /// first.
    Chomp(Vec<u32>),
    /// The numbers left to pick from, in increasing order (the divisors
    /// game: picking one deletes it and its divisors).
    Numbers(Vec<u64>),
    /// Heaps on the cells of a grid, row 0 (the top) first, each row from
    /// the left (Grid Nim: counters move up or left).
    Grid(Vec<Vec<BigUint>>),
}

impl Drawing {
    /// The kind of this picture.
    #[must_use]
    pub const fn kind(&self) -> DrawingKind {
        match self {
            Self::Heaps(_) => DrawingKind::Heaps,
            Self::Coins(_) => DrawingKind::Coins,
            Self::Graph(_) => DrawingKind::Graph,
            Self::Board(_) => DrawingKind::Board,
            Self::Wythoff { .. } => DrawingKind::Wythoff,
            Self::Chomp(_) => DrawingKind::Chomp,
            Self::Numbers(_) => DrawingKind::Numbers,
            Self::Grid(_) => DrawingKind::Grid,
        }
    }
}

/// A graph with its tokens, deleted vertices and cut edges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GraphDrawing {
    /// The number of vertices, numbered `0..vertices`.
    pub vertices: u32,
    /// The edges in input order, each as its two ends; edge `k` is the
    /// position language's edge `k + 1`.
    pub edges: Vec<(u32, u32)>,
    /// Whether edges point from their first end to their second.
    pub directed: bool,
    /// The vertices holding a token (a walker's vertex, a dag's tokens).
    pub tokens: Vec<u32>,
    /// The vertices deleted (visited by a walker), sorted.
    pub deleted: Vec<u32>,
    /// The edges cut, sorted.
    pub cut: Vec<u32>,
    /// The edges not cut but no longer joined to the ground, sorted (Green
    /// Hackenbush: they are gone from play).
    pub hanging: Vec<u32>,
    /// The ground vertex (Green Hackenbush), if the game has one.
    pub ground: Option<u32>,
}

/// One cell of a [`BoardDrawing`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Square {
    /// An empty cell a move may use.
    Empty,
    /// A filled, blocked or visited cell.
    Filled,
    /// The cell a token stands on.
    Token,
}

/// A board of `rows` x `cols` cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardDrawing {
    /// The number of rows.
    pub rows: u32,
    /// The number of columns.
    pub cols: u32,
    /// The cells row by row, row 0 first: `rows * cols` of them.
    pub cells: Vec<Square>,
}
