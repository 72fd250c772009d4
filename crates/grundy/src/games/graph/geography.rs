//! Undirected vertex geography, decided by maximum matchings.
//!
//! # Rules
//! `geography(GRAPH, s)`: a token stands on vertex `s` of an undirected graph.
//! A move slides it along an edge to a vertex not yet deleted, and the vertex
//! it left is deleted. Whoever cannot move loses. `geography(GRAPH)`: the
//! player to move first chooses the start `s` (that is his move, to
//! `geography(GRAPH, s)`); then the other player makes the first slide.
//!
//! A loop is never a move: the token would come back to the vertex it leaves,
//! which is deleted as it leaves. Repeated edges between two vertices are one
//! move: a move is named by the vertex it reaches. The positions after a move
//! are written `geography(GRAPH, s, [d1, ..., dk])`: the token on `s`, the
//! vertices `d1, ..., dk` deleted (the list is left out when empty).
//!
//! `geography_board("..#/...", r, c)` is the same game on a board: cells `.`
//! free or `#` blocked, rows separated by `/`, the token on row `r`, column `c`
//! (from 1, top left), moves to the orthogonal neighbours. The cells left are
//! written as `#` in the positions after a move; `geography_board("..#/...")`
//! lets the first player choose the start cell.
//!
//! # Theorem (Fraenkel, Scheinerman and Ullman, *Theoretical Computer Science* 112, 1993)
//! Let `G'` be the graph of the vertices not deleted and `s` the token's
//! vertex. The player to move wins iff `s` is covered by every maximum
//! matching of `G'`, that is iff `s ∉ D(G')`, the Gallai-Edmonds set of the
//! vertices some maximum matching misses.
//!
//! *Proof.* If every maximum matching covers `s`, take one, `M`, and move to
//! the mate `t` of `s`: `M - st` is a maximum matching of `G' - s` (its
//! matching number dropped by one) that misses `t`, so the opponent stands on
//! a vertex some maximum matching misses. If some maximum matching `M` misses
//! `s`, then `ν(G' - s) = ν(G')`, and every move to a neighbour `t` leaves the
//! opponent on a vertex covered by every maximum matching of `G' - s` (one
//! missing `t` would extend by `st` beyond `ν(G')`). Both kinds of position
//! persist, and a vertex without a move is missed by every matching. ∎
//!
//! So the winning moves from `(G', s)` are the neighbours `t` of `s` with `t ∈
//! D(G' - s)`; and `geography(G)` is lost for the player to move iff `G` has a
//! perfect matching (`D(G)` empty), its winning moves being the starts `s ∈
//! D(G)`. One maximum matching and one alternating search give `D` for every
//! vertex at once (the `matching` module), so a lone geography is answered
//! instantly at any size (`O(E sqrt V)` on bipartite graphs such as boards).
//! Note 000 writes P and N the other way round; here N is a win for the player
//! to move, as everywhere in grundy.
//!
//! # Nimbers
//! No theorem gives the nimber of an N-position (a P-position's is 0). It is
//! searched, in sums with other games or under misère play, only when the
//! token's part of the graph (its connected component among the vertices not
//! deleted) has at most [`SEARCH_VERTICES`] vertices and at most
//! [`SEARCH_DELETED`] vertices are deleted: the game is exponential, and
//! beyond these the search is refused at once with the reason instead of
//! filling the state limit.

use std::sync::Arc;

use num_bigint::BigUint;
use rustc_hash::{FxHashMap, FxHashSet};

use super::matching::{self, NONE};
use super::{
    Csr, Graph, GraphInput, arguments_span, graph_argument, vertex_argument, vertex_list_argument,
    write_vertex_list,
};
use crate::drawing::{BoardDrawing, Drawing, GraphDrawing, Square};
use crate::family::{Family, MovesTo, OutcomeAnswer, SearchedNimbers, part};
use crate::lang::arguments::no_params;
use crate::lang::{LangError, Term, Value, ValueKind};
use crate::registry::{BuildContext, DrawingKind, EntryKind, EveryStart, GameEntry};
use crate::sums::position::Group;
use crate::theory::game::Outcome;
use crate::theory::solver::{Budget, Limit, Refusal, SearchError};

/// The most vertices the token's component may have for a position to be
/// searched (its nimber, misère play, sums).
pub const SEARCH_VERTICES: usize = 256;

/// The most deleted vertices a position may list to be searched.
pub const SEARCH_DELETED: usize = 1024;

/// The method named in answers by the matching theorem.
const METHOD: &str = "maximum matching (gallai-edmonds)";

/// Undirected vertex geography on one graph (or board).
#[derive(Debug)]
pub struct Geography {
    source: Source,
    adjacency: Csr,
}

/// The most cells of a board that is drawn.
const MOST_DRAWN_CELLS: u32 = 10_000;

/// Where the graph comes from, which decides how positions are written.
#[derive(Debug)]
enum Source {
    /// A `GRAPH` argument, written back as given.
    Graph(GraphInput),
    /// A board of `rows` x `cols` cells, vertex `r * cols + c`; blocked cells
    /// are deleted vertices.
    Board { rows: u32, cols: u32 },
}

impl PartialEq for Geography {
    fn eq(&self, other: &Self) -> bool {
        match (&self.source, &other.source) {
            (Source::Graph(a), Source::Graph(b)) => {
                a.text == b.text && (Arc::ptr_eq(&a.graph, &b.graph) || a.graph == b.graph)
            }
            (Source::Board { rows, cols }, Source::Board { rows: r, cols: c }) => {
                rows == r && cols == c
            }
            _ => false,
        }
    }
}

/// A position: the token's vertex (none while the start is still to be
/// chosen) and the deleted vertices, numbered from 0.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    token: Option<u32>,
    /// Sorted, distinct, never the token's vertex.
    deleted: Arc<[u32]>,
}

impl Position {
    /// The token's vertex, or `None` before the start is chosen.
    #[must_use]
    pub const fn token(&self) -> Option<u32> {
        self.token
    }

    /// The deleted vertices, sorted.
    #[must_use]
    pub fn deleted(&self) -> &[u32] {
        &self.deleted
    }

    fn is_deleted(&self, v: u32) -> bool {
        self.deleted.binary_search(&v).is_ok()
    }
}

/// The sorted `deleted` with `v` added.
fn with_deleted(deleted: &[u32], v: u32) -> Arc<[u32]> {
    let at = deleted.partition_point(|&d| d < v);
    let mut all = Vec::with_capacity(deleted.len() + 1);
    all.extend_from_slice(&deleted[..at]);
    all.push(v);
    all.extend_from_slice(&deleted[at..]);
    all.into()
}

impl Geography {
    /// Geography on `graph`, whose argument is written `text` (`@PATH` or the
    /// quoted string) in positions.
    #[must_use]
    pub fn on_graph(graph: Graph, text: impl Into<Arc<str>>) -> Self {
        Self::from_input(GraphInput {
            graph: Arc::new(graph),
            text: text.into(),
        })
    }

    pub(crate) fn from_input(input: GraphInput) -> Self {
        let adjacency = input.graph.incident_edges();
        Self {
            source: Source::Graph(input),
            adjacency,
        }
    }

    /// Geography on a board of `rows` x `cols` cells (vertex `r * cols + c`,
    /// from 0), each joined to its orthogonal neighbours; blocked cells are
    /// the deleted vertices of its positions.
    ///
    /// # Panics
    /// When the board has no cell or more than `u32::MAX` cells.
    #[must_use]
    pub fn on_board(rows: u32, cols: u32) -> Self {
        let cells = u32::try_from(u64::from(rows) * u64::from(cols))
            .ok()
            .filter(|&cells| cells > 0)
            .expect("a board has between 1 and u32::MAX cells");
        let mut edges = Vec::with_capacity(2 * cells as usize);
        for r in 0..rows {
            for c in 0..cols {
                let v = r * cols + c;
                if c + 1 < cols {
                    edges.push((v, v + 1));
                }
                if r + 1 < rows {
                    edges.push((v, v + cols));
                }
            }
        }
        Self {
            source: Source::Board { rows, cols },
            adjacency: Graph::new(cells, edges).incident_edges(),
        }
    }

    /// The number of vertices (cells of a board).
    #[must_use]
    pub fn vertex_count(&self) -> usize {
        self.adjacency.vertex_count()
    }

    /// The position with the token on `token` (or the start still to choose,
    /// `None`) and `deleted` deleted; vertices from 0.
    ///
    /// # Panics
    /// When a vertex is out of range or the token's vertex is deleted.
    #[must_use]
    pub fn position(&self, token: Option<u32>, deleted: &[u32]) -> Position {
        let n = self.vertex_count();
        let mut deleted = deleted.to_vec();
        deleted.sort_unstable();
        deleted.dedup();
        assert!(
            deleted.iter().chain(&token).all(|&v| (v as usize) < n),
            "a vertex is out of range"
        );
        assert!(
            token.is_none_or(|t| deleted.binary_search(&t).is_err()),
            "the token's vertex is deleted"
        );
        Position {
            token,
            deleted: deleted.into(),
        }
    }

    fn alive_mask(&self, deleted: &[u32]) -> Vec<bool> {
        let mut alive = vec![true; self.vertex_count()];
        for &d in deleted {
            alive[d as usize] = false;
        }
        alive
    }

    /// The vertices of the component of `s` among the vertices not deleted.
    fn component_mask(&self, s: u32, deleted: &[u32]) -> Vec<bool> {
        let alive = self.alive_mask(deleted);
        let mut inside = vec![false; self.vertex_count()];
        inside[s as usize] = true;
        let mut stack = vec![s];
        while let Some(u) = stack.pop() {
            for &v in self.adjacency.neighbours(u) {
                if alive[v as usize] && !inside[v as usize] {
                    inside[v as usize] = true;
                    stack.push(v);
                }
            }
        }
        inside
    }

    /// The vertices the search of `position` ranges over, sorted: the token's
    /// component, or every vertex not deleted before the start is chosen;
    /// `None` when they are more than `bound`.
    fn search_universe(&self, position: &Position, bound: usize) -> Option<Vec<u32>> {
        let n = self.vertex_count();
        let alive_count = n - position.deleted.len();
        let Some(s) = position.token else {
            return (alive_count <= bound)
                .then(|| (0..n as u32).filter(|&v| !position.is_deleted(v)).collect());
        };
        let mut seen = FxHashSet::default();
        seen.insert(s);
        let mut stack = vec![s];
        while let Some(u) = stack.pop() {
            for &v in self.adjacency.neighbours(u) {
                if !position.is_deleted(v) && seen.insert(v) {
                    if seen.len() > bound {
                        return None;
                    }
                    stack.push(v);
                }
            }
        }
        let mut universe: Vec<u32> = seen.into_iter().collect();
        universe.sort_unstable();
        Some(universe)
    }

    /// The distinct neighbours of `s` among the `alive` ones, sorted, loops
    /// left out.
    fn targets(&self, s: u32, alive: impl Fn(u32) -> bool) -> Vec<u32> {
        let mut targets: Vec<u32> = self
            .adjacency
            .neighbours(s)
            .iter()
            .copied()
            .filter(|&t| t != s && alive(t))
            .collect();
        targets.sort_unstable();
        targets.dedup();
        targets
    }

    /// Who wins `position`, by the matching theorem.
    #[must_use]
    pub fn outcome(&self, position: &Position) -> Outcome {
        self.winning_moves(position, 0).0
    }

    /// The outcome and the winning moves of `position` by the matching
    /// theorem: their exact number and the first `max`, as the positions they
    /// lead to.
    #[must_use]
    pub fn winning_moves(&self, position: &Position, max: usize) -> (Outcome, MovesTo<Position>) {
        let mut moves = MovesTo::default();
        let mut count = 0u64;
        match position.token {
            None => {
                let alive = self.alive_mask(&position.deleted);
                let missed = matching::missable(&self.adjacency, &alive);
                for v in (0..self.vertex_count() as u32).filter(|&v| missed[v as usize]) {
                    count += 1;
                    if moves.listed.len() < max {
                        moves.listed.push(vec![Position {
                            token: Some(v),
                            deleted: Arc::clone(&position.deleted),
                        }]);
                    }
                }
            }
            Some(s) => {
                let mut alive = self.component_mask(s, &position.deleted);
                let mut mate = matching::maximum_matching(&self.adjacency, &alive);
                let missed = matching::missable_with(&self.adjacency, &alive, &mut mate);
                if !missed[s as usize] {
                    // `s` is matched by every maximum matching; without it the
                    // matching less its edge at `s` is maximum.
                    let m = mate[s as usize];
                    debug_assert_ne!(m, NONE);
                    alive[s as usize] = false;
                    mate[s as usize] = NONE;
                    mate[m as usize] = NONE;
                    let after = matching::missable_with(&self.adjacency, &alive, &mut mate);
                    let deleted = with_deleted(&position.deleted, s);
                    for t in self.targets(s, |t| after[t as usize]) {
                        count += 1;
                        if moves.listed.len() < max {
                            moves.listed.push(vec![Position {
                                token: Some(t),
                                deleted: Arc::clone(&deleted),
                            }]);
                        }
                    }
                    debug_assert!(count > 0, "the mate of s wins");
                }
            }
        }
        moves.count = BigUint::from(count);
        let outcome = if count > 0 {
            Outcome::NextPlayerWins
        } else {
            Outcome::PreviousPlayerWins
        };
        (outcome, moves)
    }

    /// Every start at once: for each vertex `v`, the outcome of the token on
    /// `v` with `deleted` deleted (`None` for a deleted vertex). One matching
    /// and one search: `v` is a P-position iff `v ∈ D`.
    #[must_use]
    pub fn start_outcomes(&self, deleted: &[u32]) -> Vec<Option<Outcome>> {
        let alive = self.alive_mask(deleted);
        let missed = matching::missable(&self.adjacency, &alive);
        (0..self.vertex_count())
            .map(|v| {
                alive[v].then_some(if missed[v] {
                    Outcome::PreviousPlayerWins
                } else {
                    Outcome::NextPlayerWins
                })
            })
            .collect()
    }

    /// The size of a maximum matching of the vertices not `deleted`.
    #[must_use]
    pub fn matching_number(&self, deleted: &[u32]) -> usize {
        let alive = self.alive_mask(deleted);
        matching::matching_size(&matching::maximum_matching(&self.adjacency, &alive))
    }

    fn too_large_to_search(&self) -> SearchError {
        SearchError::TheoryLimit {
            refusal: Refusal::new(
                format!(
                    "geography is searched (for a nimber, in a sum, under misère play) only when \
                     the token's component has at most {SEARCH_VERTICES} vertices and at most \
                     {SEARCH_DELETED} vertices are deleted"
                ),
                &[],
            ),
        }
    }

    /// The nimber of `position` and of each of its moves, by a search over
    /// bit sets of its component.
    fn search(
        &self,
        position: &Position,
        limit: usize,
    ) -> Result<SearchedNimbers<Position>, SearchError> {
        let universe = self
            .search_universe(position, SEARCH_VERTICES)
            .ok_or_else(|| self.too_large_to_search())?;
        match universe.len() {
            0..=64 => self.search_in::<1>(position, &universe, limit),
            65..=128 => self.search_in::<2>(position, &universe, limit),
            _ => self.search_in::<4>(position, &universe, limit),
        }
    }

    fn search_in<const W: usize>(
        &self,
        position: &Position,
        universe: &[u32],
        limit: usize,
    ) -> Result<SearchedNimbers<Position>, SearchError> {
        let local = |v: u32| universe.binary_search(&v).ok();
        let mut adjacency = vec![[0u64; W]; universe.len()];
        for (i, &g) in universe.iter().enumerate() {
            for &h in self.adjacency.neighbours(g) {
                if h != g
                    && let Some(j) = local(h)
                {
                    set(&mut adjacency[i], j);
                }
            }
        }
        let mut search = BitSearch {
            adjacency,
            memo: FxHashMap::default(),
            limit,
        };
        let mut all = [0u64; W];
        for i in 0..universe.len() {
            set(&mut all, i);
        }
        let (options, deleted): (Vec<usize>, Arc<[u32]>) = match position.token {
            None => ((0..universe.len()).collect(), Arc::clone(&position.deleted)),
            Some(s) => {
                let s = local(s).unwrap_or(0);
                clear(&mut all, s);
                (
                    ones(&adjacency_of(&search.adjacency, s, &all)),
                    with_deleted(&position.deleted, universe[s]),
                )
            }
        };
        let mut seen = [0u64; 4];
        let mut found = Vec::with_capacity(options.len());
        for t in options {
            let nimber = search.nimber(t, all)?;
            set(&mut seen, usize::from(nimber));
            found.push((
                vec![Position {
                    token: Some(universe[t]),
                    deleted: Arc::clone(&deleted),
                }],
                BigUint::from(nimber),
            ));
        }
        Ok(SearchedNimbers {
            nimber: BigUint::from(mex(&seen)),
            options: found,
        })
    }
}

fn set<const W: usize>(mask: &mut [u64; W], i: usize) {
    mask[i / 64] |= 1 << (i % 64);
}

fn clear<const W: usize>(mask: &mut [u64; W], i: usize) {
    mask[i / 64] &= !(1 << (i % 64));
}

fn is_empty<const W: usize>(mask: &[u64; W]) -> bool {
    mask.iter().all(|&word| word == 0)
}

/// The set bits of `mask`, in increasing order.
fn ones<const W: usize>(mask: &[u64; W]) -> Vec<usize> {
    let mut bits = Vec::new();
    for (w, &word) in mask.iter().enumerate() {
        let mut word = word;
        while word != 0 {
            bits.push(w * 64 + word.trailing_zeros() as usize);
            word &= word - 1;
        }
    }
    bits
}

/// The neighbours of `v` within `alive`.
fn adjacency_of<const W: usize>(adjacency: &[[u64; W]], v: usize, alive: &[u64; W]) -> [u64; W] {
    std::array::from_fn(|w| adjacency[v][w] & alive[w])
}

/// The least value not in the set `seen` of values below 256.
fn mex(seen: &[u64; 4]) -> usize {
    seen.iter()
        .enumerate()
        .find(|(_, word)| **word != u64::MAX)
        .map_or(256, |(w, word)| w * 64 + word.trailing_ones() as usize)
}

/// The nimber of a state of the search: at most 255, since the token has at
/// most 255 neighbours in a component of at most 256 vertices.
fn small_mex(seen: &[u64; 4]) -> u8 {
    u8::try_from(mex(seen)).unwrap_or(u8::MAX)
}

/// The memoized nimber search on a component of at most `64 W` vertices. A
/// state is the token's vertex and the vertices of its component that are not
/// deleted (the rest of the graph cannot matter any more).
struct BitSearch<const W: usize> {
    adjacency: Vec<[u64; W]>,
    memo: FxHashMap<(u16, [u64; W]), u8>,
    limit: usize,
}

/// A state being valued: its key, the moves left to try, the nimbers seen.
struct Frame<const W: usize> {
    key: (u16, [u64; W]),
    todo: [u64; W],
    seen: [u64; 4],
}

impl<const W: usize> BitSearch<W> {
    /// The component of `v` within `alive`.
    fn component(&self, v: usize, alive: &[u64; W]) -> [u64; W] {
        let mut inside = [0u64; W];
        set(&mut inside, v);
        let mut frontier = inside;
        while !is_empty(&frontier) {
            let mut next = [0u64; W];
            for (word, &bits) in frontier.iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    let u = word * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    for (out, &adjacent) in next.iter_mut().zip(&self.adjacency[u]) {
                        *out |= adjacent;
                    }
                }
            }
            for ((out, &a), inner) in next.iter_mut().zip(alive).zip(inside.iter_mut()) {
                *out &= a & !*inner;
                *inner |= *out;
            }
            frontier = next;
        }
        inside
    }

    /// The state of the token on `v` (alive) with `alive` not deleted: its
    /// key, and its moves.
    fn state(&self, v: usize, alive: &[u64; W]) -> ((u16, [u64; W]), [u64; W]) {
        let inside = self.component(v, alive);
        let mut todo = adjacency_of(&self.adjacency, v, &inside);
        clear(&mut todo, v);
        ((v as u16, inside), todo)
    }

    /// The nimber of the token on `v` with the vertices of `alive` not
    /// deleted, by an iterative depth-first search.
    fn nimber(&mut self, v: usize, alive: [u64; W]) -> Result<u8, SearchError> {
        let (key, todo) = self.state(v, &alive);
        if is_empty(&todo) {
            return Ok(0);
        }
        if let Some(&known) = self.memo.get(&key) {
            return Ok(known);
        }
        let mut stack = vec![Frame {
            key,
            todo,
            seen: [0; 4],
        }];
        loop {
            let Some(top) = stack.last_mut() else {
                unreachable!("the stack is popped only when its value is returned");
            };
            let next = top
                .todo
                .iter()
                .position(|&word| word != 0)
                .map(|w| w * 64 + top.todo[w].trailing_zeros() as usize);
            if let Some(t) = next {
                clear(&mut top.todo, t);
                let mut rest = top.key.1;
                clear(&mut rest, usize::from(top.key.0));
                let (key, todo) = self.state(t, &rest);
                let known = if is_empty(&todo) {
                    Some(0)
                } else {
                    self.memo.get(&key).copied()
                };
                match known {
                    Some(value) => {
                        let top = stack.last_mut().unwrap_or_else(|| unreachable!());
                        set(&mut top.seen, usize::from(value));
                    }
                    None => {
                        if self.memo.len() + stack.len() >= self.limit {
                            return Err(SearchError::StateLimit { limit: self.limit });
                        }
                        stack.push(Frame {
                            key,
                            todo,
                            seen: [0; 4],
                        });
                    }
                }
            } else {
                let value = small_mex(&top.seen);
                let key = top.key;
                stack.pop();
                self.memo.insert(key, value);
                match stack.last_mut() {
                    Some(parent) => set(&mut parent.seen, usize::from(value)),
                    None => return Ok(value),
                }
            }
        }
    }
}

impl Family for Geography {
    type Position = Position;

    /// A graph given as text is drawn as a graph, a board as its cells (none
    /// for a graph or board too large to show).
    fn drawing(&self, position: &Position) -> Option<Drawing> {
        match &self.source {
            Source::Graph(input) => Some(Drawing::Graph(GraphDrawing {
                tokens: position.token.into_iter().collect(),
                deleted: position.deleted.to_vec(),
                ..super::graph_drawing(&input.graph)?
            })),
            Source::Board { rows, cols } => {
                if rows.saturating_mul(*cols) > MOST_DRAWN_CELLS {
                    return None;
                }
                let cells = (0..rows * cols)
                    .map(|v| {
                        if position.token == Some(v) {
                            Square::Token
                        } else if position.is_deleted(v) {
                            Square::Filled
                        } else {
                            Square::Empty
                        }
                    })
                    .collect();
                Some(Drawing::Board(BoardDrawing {
                    rows: *rows,
                    cols: *cols,
                    cells,
                }))
            }
        }
    }

    fn write_position(&self, position: &Position, out: &mut String) {
        match &self.source {
            Source::Graph(input) => {
                out.push_str(&input.text);
                if let Some(s) = position.token {
                    out.push_str(&format!(", {}", s + 1));
                    if !position.deleted.is_empty() {
                        out.push_str(", ");
                        write_vertex_list(out, &position.deleted);
                    }
                }
            }
            Source::Board { rows, cols } => {
                out.push('"');
                for r in 0..*rows {
                    if r > 0 {
                        out.push('/');
                    }
                    for c in 0..*cols {
                        let blocked = position.is_deleted(r * cols + c);
                        out.push(if blocked { '#' } else { '.' });
                    }
                }
                out.push('"');
                if let Some(s) = position.token {
                    out.push_str(&format!(", {}, {}", s / cols + 1, s % cols + 1));
                }
            }
        }
    }

    fn moves(&self, position: &Position, limit: usize) -> Result<Vec<Vec<Position>>, SearchError> {
        let Some(s) = position.token else {
            let alive = self.vertex_count() - position.deleted.len();
            if alive > limit {
                return Err(SearchError::StateLimit { limit });
            }
            return Ok((0..self.vertex_count() as u32)
                .filter(|&v| !position.is_deleted(v))
                .map(|v| {
                    vec![Position {
                        token: Some(v),
                        deleted: Arc::clone(&position.deleted),
                    }]
                })
                .collect());
        };
        if position.deleted.len() > SEARCH_DELETED
            || self.search_universe(position, SEARCH_VERTICES).is_none()
        {
            return Err(self.too_large_to_search());
        }
        let targets = self.targets(s, |t| !position.is_deleted(t));
        if targets.len() > limit {
            return Err(SearchError::StateLimit { limit });
        }
        let deleted = with_deleted(&position.deleted, s);
        Ok(targets
            .into_iter()
            .map(|t| {
                vec![Position {
                    token: Some(t),
                    deleted: Arc::clone(&deleted),
                }]
            })
            .collect())
    }

    fn describe_move(&self, from: &Position, to: &[Position]) -> String {
        let Some(target) = to.first().and_then(|to| to.token) else {
            return "a move".to_owned();
        };
        let name = |v: u32| match &self.source {
            Source::Graph(_) => format!("{}", v + 1),
            Source::Board { cols, .. } => format!("({}, {})", v / cols + 1, v % cols + 1),
        };
        let what = match &self.source {
            Source::Graph(_) => "vertex ",
            Source::Board { .. } => "cell ",
        };
        match from.token {
            None => format!("start at {what}{}", name(target)),
            Some(s) => format!("move the token from {} to {}", name(s), name(target)),
        }
    }

    fn outcome_by_theory(
        &self,
        position: &Position,
        max: usize,
    ) -> Option<OutcomeAnswer<Position>> {
        let (outcome, winning) = self.winning_moves(position, max);
        Some(OutcomeAnswer {
            outcome,
            winning,
            method: METHOD,
        })
    }

    fn nimbers_by_search(
        &self,
        position: &Position,
        budget: Budget,
    ) -> Option<Result<SearchedNimbers<Position>, SearchError>> {
        // A stored position: a bit set of the vertices left and the token, and
        // its value, in a hash table.
        Some(budget.search_positions(64, |limit| self.search(position, limit)))
    }
}

/// The text of a geography term's help.
const HELP: &str = "`geography(GRAPH)`, `geography(GRAPH, s)` or `geography(GRAPH, s, [d1, ..., \
                    dk])`, GRAPH being `@PATH` or a string such as \"3 2; 1 2; 2 3\"";

/// Every start of `geography(GRAPH)`: who wins from a token on each vertex.
fn every_start(term: &Term, context: &BuildContext<'_>) -> Result<EveryStart, LangError> {
    let game = Geography::from_input(super::graph_argument(term, 0, context)?);
    Ok(EveryStart {
        game: "geography",
        graph: super::graph_text(term),
        outcomes: game
            .start_outcomes(&[])
            .into_iter()
            .map(|outcome| outcome.unwrap_or(Outcome::PreviousPlayerWins))
            .collect(),
        nimbers: None,
        loopy: None,
        method: "maximum matchings (Gallai-Edmonds decomposition)",
    })
}

fn build(term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
    no_params(term)?;
    if term.args.len() > 3 {
        return Err(LangError::new(
            format!(
                "`geography` takes at most three arguments (the graph, the token's vertex and \
                 the deleted vertices), found {}",
                term.args.len()
            ),
            arguments_span(term),
        )
        .with_help(HELP));
    }
    let input = graph_argument(term, 0, context).map_err(|error| {
        if error.help.is_none() {
            error.with_help(HELP)
        } else {
            error
        }
    })?;
    let n = input.graph.vertex_count();
    let family = Geography::from_input(input);
    let position = match term.args.get(1) {
        None => family.position(None, &[]),
        Some(value) => {
            let s = vertex_argument(term, value, n)?;
            let deleted = match term.args.get(2) {
                None => Vec::new(),
                Some(list) => {
                    let deleted = vertex_list_argument(term, list, n, "deleted vertices")?;
                    if deleted.binary_search(&s).is_ok() {
                        return Err(LangError::new(
                            format!("vertex {} holds the token, so it is not deleted", s + 1),
                            element_span(list, s),
                        ));
                    }
                    deleted
                }
            };
            family.position(Some(s), &deleted)
        }
    };
    Ok(Group::new(
        "geography",
        vec![part(&Arc::new(family), position)],
    ))
}

/// The span of the element of `list` naming the 0-based vertex `v`, or of the
/// list.
fn element_span(list: &Value, v: u32) -> crate::lang::Span {
    if let ValueKind::List(items) = &list.kind {
        for item in items {
            if let ValueKind::Integer(n) = &item.kind
                && *n == (u64::from(v) + 1).into()
            {
                return item.span;
            }
        }
    }
    list.span
}

/// Bytes a board of `cells` takes to build and answer, roughly: the
/// adjacency (four neighbours), the edge list and the matching's arrays.
const fn board_bytes(cells: u64) -> u64 {
    cells.saturating_mul(4 * 8 + 2 * 8 + 48)
}

/// Reads a board: rows of `.` (free) and `#` (blocked) separated by `/`.
/// Returns its rows, columns and blocked cells.
fn parse_board(text: &str) -> Result<(u32, u32, Vec<u32>), String> {
    let rows: Vec<&str> = text.split('/').collect();
    let cols = rows[0].chars().count();
    let mut blocked = Vec::new();
    let mut cell = 0u32;
    for (r, row) in rows.iter().enumerate() {
        if row.is_empty() {
            return Err(format!("row {} of the board is empty", r + 1));
        }
        let length = row.chars().count();
        if length != cols {
            return Err(format!(
                "every row needs the same number of cells: row {} has {length}, row 1 has {cols}",
                r + 1
            ));
        }
        for (c, ch) in row.chars().enumerate() {
            match ch {
                '.' => {}
                '#' => blocked.push(cell),
                other => {
                    return Err(format!(
                        "row {}, column {}: `{other}` is not a cell (`.` free, `#` blocked)",
                        r + 1,
                        c + 1
                    ));
                }
            }
            cell = cell
                .checked_add(1)
                .ok_or_else(|| "the board has too many cells".to_owned())?;
        }
    }
    let rows = u32::try_from(rows.len()).map_err(|_| "the board has too many rows".to_owned())?;
    let cols = u32::try_from(cols).map_err(|_| "the board has too many columns".to_owned())?;
    Ok((rows, cols, blocked))
}

/// The text of a board term's help.
const BOARD_HELP: &str = "`geography_board(\"..#/...\")` or `geography_board(\"..#/...\", r, c)`: \
                          rows separated by `/`, `.` free, `#` blocked, the token on row r, \
                          column c";

fn build_board(term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
    no_params(term)?;
    if !matches!(term.args.len(), 1 | 3) {
        return Err(LangError::new(
            format!(
                "`geography_board` takes a board, then optionally the token's row and column; \
                 found {} arguments",
                term.args.len()
            ),
            arguments_span(term),
        )
        .with_help(BOARD_HELP));
    }
    let board = &term.args[0];
    let ValueKind::Text(text) = &board.kind else {
        return Err(LangError::new(
            format!("`geography_board` takes the board as a quoted string, found `{board}`"),
            board.span,
        )
        .with_help(BOARD_HELP));
    };
    let (rows, cols, blocked) =
        parse_board(text).map_err(|message| LangError::new(message, board.span))?;
    let cells = u64::from(rows) * u64::from(cols);
    if board_bytes(cells) > context.limits.bytes {
        return Err(LangError::new(
            format!(
                "the board needs about {} MiB, more than the memory limit of {} MiB",
                board_bytes(cells) >> 20,
                context.limits.bytes >> 20
            ),
            board.span,
        )
        .as_limit(Limit::Memory));
    }
    let family = Geography::on_board(rows, cols);
    let token = match &term.args[1..] {
        [row, col] => {
            // Rows and columns are read as the vertices of a path would be.
            let named = |what: &'static str| {
                move |mut error: LangError| {
                    error.message = error.message.replacen("vertex", what, 1);
                    error
                }
            };
            let r = vertex_argument(term, row, rows as usize).map_err(named("row"))?;
            let c = vertex_argument(term, col, cols as usize).map_err(named("column"))?;
            let cell = r * cols + c;
            if blocked.binary_search(&cell).is_ok() {
                return Err(LangError::new(
                    format!(
                        "the cell at row {}, column {} is blocked (`#`): the token stands on a \
                         free cell",
                        r + 1,
                        c + 1
                    ),
                    crate::lang::Span::new(row.span.start, col.span.end),
                ));
            }
            Some(cell)
        }
        _ => None,
    };
    let position = family.position(token, &blocked);
    Ok(Group::new(
        "geography_board",
        vec![part(&Arc::new(family), position)],
    ))
}

/// The catalogue entry of `geography`.
pub(crate) const ENTRY: GameEntry = GameEntry {
    name: "geography",
    summary: "slide a token along the edges of a graph, deleting the vertex it leaves",
    rules: "geography(GRAPH, s): a token stands on vertex s of an undirected graph; a move \
            slides it along an edge to a vertex not yet deleted, and the vertex it left is \
            deleted; whoever cannot move loses. geography(GRAPH): the first player chooses the \
            start s (his move, to geography(GRAPH, s)), then the other slides first. GRAPH is \
            @PATH or a string \"n m; u v; ...\". A loop is never a move; repeated edges to one \
            vertex are one move. Positions after a move are written geography(GRAPH, s, [d1, \
            ..., dk]): the token on s, the vertices d1, ..., dk deleted. Theorem (Fraenkel, \
            Scheinerman and Ullman 1993): the player to move wins iff s is covered by every maximum matching \
            of the graph left; geography(GRAPH) is lost for the player to move iff GRAPH has a \
            perfect matching. Outcome and winning moves come from one maximum matching \
            (Karp-Sipser greedy, Edmonds' blossoms, Hopcroft-Karp on bipartite graphs) and one \
            alternating search (the Gallai-Edmonds set of vertices some maximum matching \
            misses), at any size. No theorem gives the nimber of an N-position: it is searched only when the token's \
            component has at most 256 vertices (and at most 1024 vertices are deleted).",
    syntax: "geography(GRAPH) | geography(GRAPH, s) | geography(GRAPH, s, [d1, ..., dk])",
    examples: &[
        "geography(\"3 2; 1 2; 2 3\", 1)",
        "geography(\"3 2; 1 2; 2 3\", 2)",
        "geography(\"5 5; 1 2; 2 3; 3 4; 4 5; 5 1\")",
        "geography(\"4 4; 1 2; 2 3; 3 4; 4 1\", 3, [1])",
        "geography(\"4 3; 1 2; 1 3; 1 4\") + nim(2)",
    ],
    kind: EntryKind::Game(build),
    heap_rule: None,
    drawing: DrawingKind::Graph,
    every_start: Some(every_start),
};

/// The catalogue entry of `geography_board`.
pub(crate) const BOARD_ENTRY: GameEntry = GameEntry {
    name: "geography_board",
    summary: "geography on a board of free and blocked cells",
    rules: "geography_board(\"..#/...\", r, c): geography on a board, rows separated by `/`, \
            `.` a free cell, `#` a blocked one; the token stands on row r, column c (from 1, top \
            left) and moves to an orthogonally adjacent free cell, the cell it left becoming \
            blocked (positions after a move write it `#`); whoever cannot move loses. \
            geography_board(\"..#/...\"): the first player chooses the start cell, then the other \
            moves first. The outcome and winning moves come from maximum matchings of the free \
            cells, a bipartite graph (the player to move wins iff every maximum matching covers \
            the token's cell), at any size; the nimber of an N-position is searched only for at \
            most 256 cells reachable.",
    syntax: "geography_board(\"ROWS\") | geography_board(\"ROWS\", r, c)",
    examples: &[
        "geography_board(\"..#/...\", 1, 1)",
        "geography_board(\"..#/...\")",
        "geography_board(\"...../.#.#./.....\", 2, 3)",
    ],
    kind: EntryKind::Game(build_board),
    heap_rule: None,
    drawing: DrawingKind::Board,
    every_start: None,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::build as build_position;
    use crate::family::Rules;
    use crate::lang::parse;
    use crate::sums::analysis::{Answer, SolveOptions, solve};
    use crate::testing::{Xorshift as Rng, answer};
    use crate::theory::solver::Solver;
    use proptest::prelude::*;
    use std::collections::{BTreeSet, HashSet};

    /// The contract's text of a graph: `"n m; u v; ..."`, vertices from 1.
    fn graph_text(n: u32, edges: &[(u32, u32)]) -> String {
        format!("\"{}\"", crate::testing::graph_text(n, edges))
    }

    fn family(n: u32, edges: &[(u32, u32)]) -> Geography {
        Geography::on_graph(Graph::new(n, edges.to_vec()), graph_text(n, edges))
    }

    /// A random small graph: trees, cycles, dense or sparse, with loops and
    /// repeated edges now and then.
    fn random_graph(rng: &mut Rng, max_n: u64) -> (u32, Vec<(u32, u32)>) {
        let n = 1 + rng.below(max_n) as u32;
        let mut edges = Vec::new();
        match rng.below(4) {
            0 => edges.extend((1..n).map(|v| (rng.below(u64::from(v)) as u32, v))),
            1 => edges.extend((0..n).map(|v| (v, (v + 1) % n))),
            _ => {}
        }
        for _ in 0..rng.below(2 * u64::from(n) + 1) {
            let u = rng.below(u64::from(n)) as u32;
            let v = rng.below(u64::from(n)) as u32;
            if u != v || rng.below(4) == 0 {
                edges.push((u, v));
            }
        }
        if let Some(&edge) = edges.first()
            && rng.below(3) == 0
        {
            edges.push(edge);
        }
        (n, edges)
    }

    fn sorted(moves: Vec<Vec<Position>>) -> Vec<Position> {
        let mut positions: Vec<Position> = moves.into_iter().map(|mut m| m.remove(0)).collect();
        positions.sort_by(|a, b| (a.token, &a.deleted[..]).cmp(&(b.token, &b.deleted[..])));
        positions
    }

    /// Every position reachable from `start`.
    fn reachable(game: &Geography, start: &Position) -> Vec<Position> {
        let mut seen = HashSet::new();
        let mut stack = vec![start.clone()];
        seen.insert(start.clone());
        while let Some(position) = stack.pop() {
            for mut next in game.moves(&position, usize::MAX).unwrap() {
                let next = next.remove(0);
                if seen.insert(next.clone()) {
                    stack.push(next);
                }
            }
        }
        seen.into_iter().collect()
    }

    /// The theorem's answers, the family's own nimber search and the moves
    /// the generic solver searches agree on `positions`.
    fn check_positions(game: Geography, positions: &[Position]) {
        let rules = Rules::new(game);
        let mut solver = Solver::new(&rules);
        let game = rules.family();
        for position in positions {
            let whole = vec![position.clone()];
            let outcome = solver.outcome(&whole).unwrap();
            let expected = sorted(solver.winning_moves(&whole).unwrap());
            let answer = game.outcome_by_theory(position, usize::MAX).unwrap();
            assert_eq!(answer.outcome, outcome, "{position:?}");
            assert_eq!(answer.winning.count, BigUint::from(expected.len()));
            assert_eq!(sorted(answer.winning.listed), expected, "{position:?}");
            // Listing stops at the limit; counting does not.
            let one = game.outcome_by_theory(position, 1).unwrap();
            assert_eq!(one.winning.count, BigUint::from(expected.len()));
            assert_eq!(one.winning.listed.len(), expected.len().min(1));
            // The nimber search.
            let searched = game
                .nimbers_by_search(position, Budget::UNLIMITED)
                .unwrap()
                .unwrap();
            assert_eq!(searched.nimber, solver.nimber(&whole).unwrap().into());
            let moves = game.moves(position, usize::MAX).unwrap();
            assert_eq!(searched.options.len(), moves.len());
            for ((leaves, nimber), to) in searched.options.iter().zip(&moves) {
                assert_eq!(leaves, to);
                assert_eq!(*nimber, solver.nimber(leaves).unwrap().into());
            }
        }
    }

    #[test]
    fn theory_and_search_agree_with_the_moves_on_every_small_position() {
        let mut rng = Rng::new(7);
        for _ in 0..1500 {
            let (n, edges) = random_graph(&mut rng, 8);
            let game = family(n, &edges);
            let start = game.position(None, &[]);
            let positions = reachable(&game, &start);
            check_positions(game, &positions);
        }
    }

    #[test]
    fn positions_with_vertices_deleted_at_random_agree_too() {
        let mut rng = Rng::new(8);
        for _ in 0..1500 {
            let (n, edges) = random_graph(&mut rng, 10);
            let game = family(n, &edges);
            let s = rng.below(u64::from(n)) as u32;
            let deleted: Vec<u32> = (0..n).filter(|&v| v != s && rng.below(4) == 0).collect();
            let position = game.position(Some(s), &deleted);
            let positions = reachable(&game, &position);
            check_positions(game, &positions);
        }
    }

    #[test]
    fn loops_are_no_moves_and_repeated_edges_one_move() {
        let game = family(3, &[(0, 0), (0, 1), (1, 0), (0, 1), (1, 2), (2, 2)]);
        let at = |s, deleted: &[u32]| game.position(Some(s), deleted);
        let moves = game.moves(&at(0, &[]), 10).unwrap();
        assert_eq!(moves, vec![vec![at(1, &[0])]]);
        assert_eq!(
            game.moves(&at(2, &[1]), 10).unwrap(),
            Vec::<Vec<Position>>::new()
        );
        assert_eq!(game.outcome(&at(0, &[])), Outcome::PreviousPlayerWins);
        assert_eq!(game.outcome(&at(1, &[])), Outcome::NextPlayerWins);
        // 1 - 2 - 3: the middle is in every maximum matching.
        let (outcome, winning) = game.winning_moves(&at(1, &[]), 10);
        assert_eq!(outcome, Outcome::NextPlayerWins);
        assert_eq!(winning.count, 2u8.into());
        assert!(matches!(
            game.moves(&at(0, &[]), 0),
            Err(SearchError::StateLimit { limit: 0 })
        ));
    }

    /// The answer to `text`, whose winning moves all lead to P-positions
    /// written so that they parse back.
    fn answer_checked(text: &str) -> Answer {
        let found = answer(text);
        for (target, back) in crate::testing::answers_after_winning_moves(&found, text) {
            assert_eq!(back.position.as_str(), target);
        }
        found
    }

    #[test]
    fn the_catalogue_answers_and_writes_positions_that_parse_back() {
        let found = answer_checked("geography(\"3 2; 1 2; 2 3\", 2)");
        assert!(found.outcome.first_player_wins());
        assert_eq!(found.method, METHOD);
        assert_eq!(found.nimber, Some(1u8.into()));
        let targets: Vec<String> = found
            .winning_moves
            .iter()
            .map(|m| found.target(m))
            .collect();
        assert_eq!(
            targets,
            [
                "geography(\"3 2; 1 2; 2 3\", 1, [2])",
                "geography(\"3 2; 1 2; 2 3\", 3, [2])"
            ]
        );
        assert_eq!(
            found.winning_moves[1].description,
            "move the token from 2 to 3"
        );
        let found = answer_checked("geography(\"5 5; 1 2; 2 3; 3 4; 4 5; 5 1\")");
        assert_eq!(found.winning_move_count, 5u8.into());
        assert_eq!(found.winning_moves[0].description, "start at vertex 1");
        assert_eq!(
            found.target(&found.winning_moves[0]),
            "geography(\"5 5; 1 2; 2 3; 3 4; 4 5; 5 1\", 1)"
        );
        // An even cycle has a perfect matching: the chooser loses.
        let found = answer_checked("geography(\"4 4; 1 2; 2 3; 3 4; 4 1\")");
        assert_eq!(found.outcome, Outcome::PreviousPlayerWins);
        assert_eq!(found.nimber, Some(0u8.into()));
        // Deleted vertices, and the list's canonical order.
        let found = answer_checked("geography(\"4 4; 1 2; 2 3; 3 4; 4 1\", 3, [4, 1])");
        assert_eq!(
            found.position.as_str(),
            "geography(\"4 4; 1 2; 2 3; 3 4; 4 1\", 3, [1, 4])"
        );
        assert_eq!(found.outcome, Outcome::NextPlayerWins);
        assert_eq!(
            found.target(&found.winning_moves[0]),
            "geography(\"4 4; 1 2; 2 3; 3 4; 4 1\", 2, [1, 3, 4])"
        );
        // In a sum, by the family's nimber search.
        let found = answer_checked("geography(\"4 3; 1 2; 1 3; 1 4\") + nim(2)");
        assert_eq!(found.method, "nim-sum of nim-sum, search");
        for entry in [ENTRY, BOARD_ENTRY] {
            for example in entry.examples {
                answer_checked(example);
            }
        }
    }

    #[test]
    fn sums_and_misere_play_agree_with_search() {
        let mut rng = Rng::new(9);
        for _ in 0..150 {
            let (n, edges) = random_graph(&mut rng, 6);
            let text = graph_text(n, &edges);
            let game = family(n, &edges);
            let rules = Rules::new(game);
            let mut solver = Solver::new(&rules);
            let s = rng.below(u64::from(n)) as u32;
            let p = rules.family().position(Some(s), &[]);
            let choose = rules.family().position(None, &[]);
            let both = vec![p.clone(), choose.clone()];
            let sum = format!("geography({text}, {}) + geography({text})", s + 1);
            let found = answer(&sum);
            assert_eq!(found.outcome, solver.outcome(&both).unwrap(), "{sum}");
            assert_eq!(
                found.winning_move_count,
                BigUint::from(solver.winning_moves(&both).unwrap().len())
            );
            let misere = answer(&format!("misere({sum})"));
            assert_eq!(
                misere.outcome,
                solver.misere_outcome(&both).unwrap(),
                "{sum}"
            );
        }
    }

    #[test]
    fn boards_play_as_their_grid_graphs() {
        let mut rng = Rng::new(10);
        for _ in 0..300 {
            let rows = 1 + rng.below(3) as u32;
            let cols = 1 + rng.below(4) as u32;
            let blocked: Vec<u32> = (0..rows * cols).filter(|_| rng.below(4) == 0).collect();
            let game = Geography::on_board(rows, cols);
            let start = game.position(None, &blocked);
            let positions = reachable(&game, &start);
            check_positions(game, &positions);
        }
        let found = answer_checked("geography_board(\"..#/...\", 1, 1)");
        assert_eq!(
            found.position.as_str(),
            "geography_board(\"..#/...\", 1, 1)"
        );
        // The same board as a graph, cells numbered row by row.
        let graph = answer("geography(\"5 5; 1 2; 1 3; 2 4; 3 4; 4 5\", 1)");
        assert_eq!(found.outcome, graph.outcome);
        assert_eq!(found.nimber, graph.nimber);
        assert_eq!(found.winning_move_count, graph.winning_move_count);
        let found = answer_checked("geography_board(\"..#/...\")");
        // 5 cells, two of one colour and three of the other: no perfect
        // matching, and the winning starts are the three.
        assert_eq!(found.outcome, Outcome::NextPlayerWins);
        assert_eq!(found.winning_move_count, 3u8.into());
        assert_eq!(found.winning_moves[0].description, "start at cell (1, 2)");
        let found = answer_checked("geography_board(\"../..\", 1, 1)");
        assert_eq!(found.outcome, Outcome::NextPlayerWins);
        assert_eq!(
            found.target(&found.winning_moves[0]),
            "geography_board(\"#./..\", 1, 2)"
        );
        assert_eq!(
            found.winning_moves[0].description,
            "move the token from (1, 1) to (1, 2)"
        );
    }

    fn error(text: &str) -> LangError {
        build_position(&parse(text).unwrap()).unwrap_err()
    }

    #[test]
    fn bad_input_is_an_error_at_the_argument() {
        let cases = [
            (
                "geography(\"3 2; 1 2; 2 3\", 4)",
                "vertex 4 is out of 1..3",
                "4",
            ),
            (
                "geography(\"3 2; 1 2; 2 3\", 0)",
                "vertex 0 is out of 1..3",
                "0",
            ),
            (
                "geography(\"3 2; 1 2; 2 3\", 2, [1, 2])",
                "vertex 2 holds the token",
                "2",
            ),
            (
                "geography(\"3 2; 1 2; 2 3\", 2, [1, 1])",
                "listed twice",
                "1",
            ),
            ("geography(\"3 2; 1 2; 2 3\", 2, [5])", "out of 1..3", "5"),
            (
                "geography(\"3 2; 1 2; 2 3\", 2, 3)",
                "list of deleted vertices",
                "3",
            ),
            ("geography(\"3 2; 1 2; 2 3\", [1])", "takes a vertex", "[1]"),
            (
                "geography(\"3 2; 1 2; 2 4\", 1)",
                "line 3: vertex 4 is out of 1..3",
                "",
            ),
            ("geography(3, 1)", "takes a graph", "3"),
            ("geography()", "needs a graph", ""),
            (
                "geography(\"2 1; 1 2\", 1, [], 2)",
                "at most three arguments",
                "",
            ),
            ("geography[2](\"2 1; 1 2\")", "takes no parameters", "2"),
            ("geography(@/nonexistent/g.txt)", "cannot read", ""),
            (
                "geography_board(\"..#/..\", 1, 1)",
                "same number of cells",
                "",
            ),
            ("geography_board(\"..x\", 1, 1)", "`x` is not a cell", ""),
            (
                "geography_board(\"../\")",
                "row 2 of the board is empty",
                "",
            ),
            ("geography_board(\"\")", "row 1 of the board is empty", ""),
            ("geography_board(\"..#\", 1, 3)", "is blocked", ""),
            (
                "geography_board(\"..#\", 2, 1)",
                "row 2 is out of 1..1",
                "2",
            ),
            (
                "geography_board(\"..#\", 1, 4)",
                "column 4 is out of 1..3",
                "4",
            ),
            (
                "geography_board(\"..#\", 1, [1])",
                "takes a column (1..3)",
                "[1]",
            ),
            ("geography_board(\"..#\", 1)", "found 2 arguments", ""),
            ("geography_board(3, 1, 1)", "as a quoted string", "3"),
        ];
        for (text, message, at) in cases {
            let error = error(text);
            assert!(error.message.contains(message), "{text}: {}", error.message);
            if !at.is_empty() {
                assert_eq!(&text[error.span.start..error.span.end], at, "{text}");
            }
        }
    }

    #[test]
    fn large_graphs_are_answered_by_theory_alone() {
        // A random graph of 20000 vertices and 100000 edges, alone: outcome and
        // winning moves at once, the nimber refused with the reason.
        let mut rng = Rng::new(11);
        let n = 20_000u32;
        let edges: Vec<(u32, u32)> = (0..100_000)
            .map(|_| {
                (
                    rng.below(u64::from(n)) as u32,
                    rng.below(u64::from(n)) as u32,
                )
            })
            .collect();
        let game = Arc::new(family(n, &edges));
        let starts = game.start_outcomes(&[]);
        let choose = game.position(None, &[]);
        let (outcome, winning) = game.winning_moves(&choose, 3);
        let p_starts = starts
            .iter()
            .filter(|o| **o == Some(Outcome::PreviousPlayerWins))
            .count();
        assert_eq!(winning.count, BigUint::from(p_starts));
        assert_eq!(outcome == Outcome::NextPlayerWins, p_starts > 0);
        for s in (0..n).step_by(997) {
            let position = game.position(Some(s), &[]);
            let (outcome, winning) = game.winning_moves(&position, usize::MAX);
            assert_eq!(Some(outcome), starts[s as usize]);
            // Each winning move leads to a P-position, each other move to an
            // N-position.
            let listed: BTreeSet<u32> = winning.listed.iter().filter_map(|m| m[0].token).collect();
            for t in game.targets(s, |_| true) {
                let after = game.position(Some(t), &[s]);
                let lost = game.outcome(&after) == Outcome::PreviousPlayerWins;
                assert_eq!(lost, listed.contains(&t), "{s} -> {t}");
            }
        }
        let position = Position {
            token: Some(0),
            deleted: Arc::from(&[][..]),
        };
        let error = game
            .nimbers_by_search(&position, Budget::states(1000))
            .unwrap()
            .unwrap_err();
        assert!(
            error.to_string().contains("at most 256 vertices"),
            "{error}"
        );
        assert!(matches!(
            game.moves(&position, 1000),
            Err(SearchError::TheoryLimit { .. })
        ));
        let sum = crate::sums::position::Position::sum(
            crate::theory::game::Convention::Normal,
            vec![Group::new("geography", vec![part(&game, position)])],
        );
        let found = solve(&sum, &SolveOptions::default()).unwrap();
        assert_eq!(found.method, METHOD);
        if found.outcome == Outcome::NextPlayerWins {
            assert_eq!(found.nimber, None);
            assert!(
                found.notes[0].contains("at most 256 vertices"),
                "{:?}",
                found.notes
            );
        }
    }

    #[test]
    fn a_long_path_is_answered_without_deep_recursion() {
        let n = 200_001u32;
        let edges: Vec<(u32, u32)> = (0..n - 1).map(|v| (v, v + 1)).collect();
        let game = family(n, &edges);
        // From an end of an odd path the first player loses; from the
        // second vertex he wins, moving either way (the rest is an odd path
        // with the token at its end).
        assert_eq!(
            game.outcome(&game.position(Some(0), &[])),
            Outcome::PreviousPlayerWins
        );
        let (outcome, winning) = game.winning_moves(&game.position(Some(1), &[]), 10);
        assert_eq!(outcome, Outcome::NextPlayerWins);
        let after = |t| vec![game.position(Some(t), &[1])];
        assert_eq!(winning.listed, vec![after(0), after(2)]);
        // Vertices of even index are missed by some maximum matching.
        assert_eq!(
            game.outcome(&game.position(Some(2), &[])),
            Outcome::PreviousPlayerWins
        );
        // Deleting vertex 4 leaves the path 0..=3: the winning move is to 3,
        // where the opponent is stuck.
        let (outcome, winning) = game.winning_moves(&game.position(Some(2), &[4]), 10);
        assert_eq!(outcome, Outcome::NextPlayerWins);
        assert_eq!(winning.listed, vec![vec![game.position(Some(3), &[2, 4])]]);
    }

    proptest! {
        #[test]
        fn the_theorem_holds_on_random_graphs(
            n in 1u32..9,
            raw in prop::collection::vec((0u32..9, 0u32..9), 0..16),
            start in 0u32..9,
            dead in prop::collection::vec(any::<bool>(), 9),
        ) {
            let edges: Vec<(u32, u32)> = raw.into_iter().map(|(u, v)| (u % n, v % n)).collect();
            let game = family(n, &edges);
            let s = start % n;
            let deleted: Vec<u32> = (0..n).filter(|&v| v != s && dead[v as usize]).collect();
            let position = game.position(Some(s), &deleted);
            check_positions(game, &[position]);
        }
    }
}
