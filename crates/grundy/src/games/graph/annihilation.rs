//! Annihilation: tokens on a directed graph that destroy each other,
//! `annihilation(GRAPH, v1, ..., vk)`.
//!
//! # Rules
//! A directed graph (edges `u v` from `u` to `v`; cycles, loops and repeated
//! edges allowed) with one token on each of the distinct listed vertices. A
//! move slides one token along one edge leaving its vertex; if the vertex it
//! reaches holds another token, both tokens vanish. (A loop moves a token
//! back onto its own vertex: the position is unchanged.) Whoever cannot move
//! loses; a play that never ends is a draw.
//!
//! The game was proposed by J. H. Conway and studied by A. S. Fraenkel and
//! Y. Yesha ("Theory of annihilation games", Bull. Amer. Math. Soc. 82, 1976;
//! "Theory of annihilation games I", J. Combin. Theory B 33, 1982). Its
//! positions really repeat: tokens may chase each other round a cycle.
//!
//! # Theory
//! The tokens are not independent (a collision removes two), so the whole
//! set of tokens is one game: its positions reachable from the one given
//! are listed when the term is read, within the memory limit, and valued by
//! the generalized Sprague-Grundy labelling ([`crate::theory::loopy`]),
//! which also gives each position's outcome (P, N or draw) and its winning
//! moves. Beside other games, Smith's sum rule applies as for `digraph`.
//! On an acyclic graph the value is the nim-sum of the tokens' `dag`
//! nimbers (Fraenkel and Yesha: two tokens meeting on a vertex are worth
//! `g ⊕ g = 0` in the plain sum, as nothing is here); on a graph with cycles
//! it may differ from `digraph`'s, and the tests check both against a
//! retrograde analysis.

use std::sync::Arc;

use num_bigint::BigUint;
use rustc_hash::FxHashMap;

use super::{Csr, GraphInput, graph_argument, vertex_argument};
use crate::drawing::{Drawing, GraphDrawing};
use crate::family::{Family, MovesTo, part};
use crate::lang::{LangError, Term};
use crate::registry::{BuildContext, DrawingKind, EntryKind, GameEntry};
use crate::sums::position::Group;
use crate::theory::limits::Limit;
use crate::theory::loopy::{INFINITE, LoopyValue, VertexValues, labelling_bytes, vertex_values};
use crate::theory::solver::SearchError;

const METHOD: &str =
    "generalized Sprague-Grundy values of the positions reached (Fraenkel-Yesha labelling)";

/// The positions of one annihilation game reached from its start, each
/// with its generalized Sprague-Grundy value.
#[derive(Debug)]
pub struct Annihilation {
    input: GraphInput,
    out: Csr,
    /// Each position reached (occupied vertices, ascending) and its number.
    index: FxHashMap<Vec<u32>, u32>,
    /// The options of position `p`: `targets[offsets[p]..offsets[p + 1]]`.
    offsets: Vec<usize>,
    targets: Vec<u32>,
    values: VertexValues,
    start: Vec<u32>,
}

impl PartialEq for Annihilation {
    fn eq(&self, other: &Self) -> bool {
        self.input.text == other.input.text
            && self.input.graph == other.input.graph
            && self.start == other.start
    }
}

/// The positions a move from `tokens` reaches, one per move.
fn moves_of(out: &Csr, tokens: &[u32]) -> Vec<Vec<u32>> {
    let mut moves = Vec::new();
    for &t in tokens {
        for &w in out.neighbours(t) {
            let next: Vec<u32> = if w == t {
                tokens.to_vec()
            } else if tokens.binary_search(&w).is_ok() {
                tokens
                    .iter()
                    .copied()
                    .filter(|&x| x != t && x != w)
                    .collect()
            } else {
                let mut next: Vec<u32> =
                    tokens.iter().map(|&x| if x == t { w } else { x }).collect();
                next.sort_unstable();
                next
            };
            moves.push(next);
        }
    }
    moves
}

impl Annihilation {
    /// Lists and values every position reached from `start` (ascending,
    /// distinct), within `max_bytes`.
    fn new(input: GraphInput, start: Vec<u32>, max_bytes: u64) -> Result<Self, SearchError> {
        let out = input.graph.out_edges();
        let mut index = FxHashMap::default();
        let mut positions: Vec<Vec<u32>> = vec![start.clone()];
        index.insert(start.clone(), 0u32);
        let mut offsets = vec![0usize];
        let mut targets = Vec::new();
        // A position is held twice (the list and the map's key) with the
        // map's slot: about 2 * (24 + 4k) + 16 bytes.
        let position_bytes = 2 * (24 + 4 * start.len() as u64) + 16;
        let mut next = 0;
        while next < positions.len() {
            crate::theory::cancel::checkpoint()?;
            for to in moves_of(&out, &positions[next]) {
                let id = match index.get(&to) {
                    Some(&id) => id,
                    None => {
                        let id = u32::try_from(positions.len()).map_err(|_| {
                            SearchError::StateLimit {
                                limit: u32::MAX as usize,
                            }
                        })?;
                        index.insert(to.clone(), id);
                        positions.push(to);
                        id
                    }
                };
                targets.push(id);
            }
            offsets.push(targets.len());
            next += 1;
            let bytes = positions.len() as u64 * position_bytes
                + targets.len() as u64 * 4
                + labelling_bytes(positions.len(), targets.len());
            if bytes > max_bytes {
                return Err(SearchError::MemoryLimit { limit: max_bytes });
            }
        }
        let values = vertex_values(&offsets, &targets, u64::MAX)?;
        Ok(Self {
            input,
            out,
            index,
            offsets,
            targets,
            values,
            start,
        })
    }

    /// How many positions are reached from the start, the start included.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The value of `tokens` (ascending), if it is reached from the start.
    #[must_use]
    pub fn value(&self, tokens: &[u32]) -> Option<LoopyValue> {
        let &id = self.index.get(tokens)?;
        Some(self.values.value(id, self.options(id)))
    }

    fn options(&self, id: u32) -> &[u32] {
        &self.targets[self.offsets[id as usize]..self.offsets[id as usize + 1]]
    }

    fn finite_value(&self, tokens: &[u32]) -> Option<u32> {
        let &id = self.index.get(tokens)?;
        Some(self.values.values[id as usize]).filter(|&g| g != INFINITE)
    }
}

impl Family for Annihilation {
    /// The occupied vertices, ascending (0-based).
    type Position = Vec<u32>;

    fn drawing(&self, tokens: &Vec<u32>) -> Option<Drawing> {
        Some(Drawing::Graph(GraphDrawing {
            directed: true,
            tokens: tokens.clone(),
            ..super::graph_drawing(&self.input.graph)?
        }))
    }

    /// The graph, then the occupied vertices: `"3 2; 1 2; 2 3", 1, 3`.
    fn write_position(&self, tokens: &Vec<u32>, out: &mut String) {
        out.push_str(&self.input.text);
        for t in tokens {
            out.push_str(", ");
            out.push_str(&(t + 1).to_string());
        }
    }

    fn moves(&self, tokens: &Vec<u32>, limit: usize) -> Result<Vec<Vec<Vec<u32>>>, SearchError> {
        let count: usize = tokens.iter().map(|&t| self.out.neighbours(t).len()).sum();
        if count > limit {
            return Err(SearchError::StateLimit { limit });
        }
        Ok(moves_of(&self.out, tokens)
            .into_iter()
            .map(|to| vec![to])
            .collect())
    }

    fn describe_move(&self, from: &Vec<u32>, to: &[Vec<u32>]) -> String {
        let Some(to) = to.first() else {
            return "a move".to_owned();
        };
        let left: Vec<u32> = from.iter().copied().filter(|t| !to.contains(t)).collect();
        let arrived: Vec<u32> = to.iter().copied().filter(|t| !from.contains(t)).collect();
        match (left.as_slice(), arrived.as_slice()) {
            ([a], [b]) => format!("move the token on {} to {}", a + 1, b + 1),
            ([a, b], []) => format!(
                "move the token on {} onto the token on {} (both vanish)",
                a + 1,
                b + 1
            ),
            _ => "move a token along a loop (the position is unchanged)".to_owned(),
        }
    }

    fn nimber_by_theory(&self, tokens: &Vec<u32>) -> Option<(BigUint, &'static str)> {
        self.finite_value(tokens).map(|g| (g.into(), METHOD))
    }

    fn loopy_value(&self, tokens: &Vec<u32>) -> Option<(LoopyValue, &'static str)> {
        self.value(tokens).map(|value| (value, METHOD))
    }

    /// The moves to positions of value `target`, in increasing counter.
    fn moves_to_nimber_by_theory(
        &self,
        tokens: &Vec<u32>,
        target: &BigUint,
        max: usize,
    ) -> Option<MovesTo<Vec<u32>>> {
        let &id = self.index.get(tokens)?;
        let mut moves = MovesTo::default();
        let Ok(target) = u32::try_from(target) else {
            return Some(moves);
        };
        if target == INFINITE {
            return Some(moves);
        }
        // The options in the order of `moves_of`, which listed them.
        let mut found: Vec<(u32, Vec<u32>)> = self
            .options(id)
            .iter()
            .zip(moves_of(&self.out, tokens))
            .filter(|&(&option, _)| self.values.values[option as usize] == target)
            .map(|(&option, to)| (self.values.counters[option as usize], to))
            .collect();
        moves.count = found.len().into();
        found.sort_by_key(|&(counter, _)| counter);
        moves.listed = found
            .into_iter()
            .take(max)
            .map(|(_, to)| vec![to])
            .collect();
        Some(moves)
    }
}

fn build(term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
    crate::lang::arguments::no_params(term)?;
    let input = graph_argument(term, 0, context)?;
    let n = input.graph.vertex_count();
    let mut tokens = Vec::with_capacity(term.args.len() - 1);
    for arg in &term.args[1..] {
        let vertex = vertex_argument(term, arg, n)?;
        if tokens.contains(&vertex) {
            return Err(LangError::new(
                format!(
                    "vertex {} holds two tokens: in annihilation each vertex holds at most one",
                    vertex + 1
                ),
                arg.span,
            ));
        }
        tokens.push(vertex);
    }
    tokens.sort_unstable();
    let span = super::arguments_span(term);
    let game =
        Annihilation::new(input, tokens.clone(), context.limits.bytes).map_err(
            |error| {
                match error {
            SearchError::MemoryLimit { limit } => LangError::new(
                format!(
                    "the positions reached from these tokens need more than the memory limit of \
                     {} MiB",
                    limit >> 20
                ),
                span,
            )
            .as_limit(Limit::Memory),
            SearchError::Cancelled => LangError::new(
                "the positions reached were not all valued: the computation was stopped \
                 (cancelled, or out of time)",
                span,
            )
            .as_limit(Limit::Time),
            other => LangError::new(other.to_string(), span),
        }
            },
        )?;
    Ok(Group::new(
        "annihilation",
        vec![part(&Arc::new(game), tokens)],
    ))
}

/// The catalogue entry.
pub(crate) const ENTRY: GameEntry = GameEntry {
    name: "annihilation",
    summary: "tokens on a directed graph that vanish in pairs when they collide; may end in a draw",
    rules: "annihilation(GRAPH, v1, ..., vk): one token on each of the distinct listed vertices of \
            a directed graph (GRAPH as for `dag`: `@PATH` or a string `n m; u v; ...`; cycles, \
            loops and repeated edges allowed). A move slides one token along one edge; if the \
            vertex reached holds another token, both vanish (a loop leaves the position as it \
            is). Whoever cannot move loses; a play that never ends is a draw. Proposed by J. H. \
            Conway; A. S. Fraenkel and Y. Yesha, Theory of annihilation games, Bull. Amer. Math. \
            Soc. 82 (1976) and J. Combin. Theory B 33 (1982). Theory: the positions reachable \
            from the one given are listed and valued by the generalized Sprague-Grundy labelling \
            (Smith 1966; Fraenkel-Yesha 1986): a nimber or ∞(K), P, N or a draw. On an acyclic \
            graph the value is the nim-sum of the tokens' `dag` nimbers. The tokens of a term \
            are one game; it adds to others by Smith's rule.",
    syntax: "annihilation(GRAPH, v1, ..., vk)",
    examples: &[
        "annihilation(\"3 3; 1 2; 2 3; 3 1\", 1, 2)",
        "annihilation(\"4 4; 1 2; 2 1; 2 3; 4 1\", 1, 4)",
        "annihilation(\"3 3; 1 2; 2 3; 3 1\", 1, 2) + nim(2)",
    ],
    kind: EntryKind::Game(build),
    heap_rule: None,
    drawing: DrawingKind::Graph,
    every_start: None,
};

#[cfg(test)]
mod tests;
