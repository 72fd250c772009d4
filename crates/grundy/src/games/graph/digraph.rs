//! Tokens on any directed graph, cycles allowed: `digraph(GRAPH, v1, ..., vk)`.
//!
//! # Rules
//! A directed graph (each edge `u v` goes from `u` to `v`; loops and repeated
//! edges allowed) with one token on each listed vertex (several tokens may
//! share a vertex). A move slides one token along one edge leaving its
//! vertex. Whoever cannot move (every token on a sink) loses; a play that
//! never ends is a draw.
//!
//! # Theory (Smith; Fraenkel and Yesha)
//! Each vertex has a generalized Sprague-Grundy value, a nimber or `∞(K)`
//! (C. A. B. Smith, "Graphs and composite games", J. Combin. Theory 1, 1966),
//! computed for every vertex at once, when the graph is read, by the
//! labelling of A. S. Fraenkel and Y. Yesha (J. Combin. Theory A 43, 1986):
//! see [`crate::theory::loopy`]. The tokens are a sum: nimbers add by
//! nim-sum, one token of value `∞(K)` beside tokens of nim-sum `x` makes
//! `∞(K ⊕ x)`, two infinite tokens make a draw. A position of value 0 is a
//! P-position, one of value `n > 0` or `∞(K)` with `0 ∈ K` an N-position,
//! any other `∞(K)` a draw. On an acyclic graph every value is finite and is
//! the nimber `dag` gives.
//!
//! The winning moves are the moves to a position of value 0: moves of a
//! token of value `g` to a vertex of value `g ⊕ N` (`N` the position's
//! nimber), or, beside one infinite token, moves of that token to a vertex
//! of value `x`. A token's moves to a value are listed in increasing
//! Fraenkel counter, so that a player who always makes the first move listed
//! towards value 0 also answers every escape of the opponent by a move back
//! that the opponent cannot undo for ever: the counter falls each time, and
//! the play ends.

use std::sync::Arc;

use num_bigint::BigUint;

use super::{Csr, GraphInput, graph_argument, vertex_argument};
use crate::drawing::{Drawing, GraphDrawing};
use crate::family::{Family, MovesTo, parts};
use crate::lang::{LangError, Term};
use crate::registry::{BuildContext, DrawingKind, EntryKind, EveryStart, GameEntry};
use crate::sums::position::Group;
use crate::theory::limits::Limit;
use crate::theory::loopy::{INFINITE, LoopyValue, VertexValues, vertex_values};
use crate::theory::solver::SearchError;

/// The method every answer of `digraph` names.
const METHOD: &str = "generalized Sprague-Grundy values (Smith; Fraenkel-Yesha labelling)";

/// Tokens on one directed graph, with every vertex's generalized
/// Sprague-Grundy value.
#[derive(Debug)]
pub struct Digraph {
    input: GraphInput,
    out: Csr,
    values: VertexValues,
}

impl PartialEq for Digraph {
    fn eq(&self, other: &Self) -> bool {
        self.input.text == other.input.text && self.input.graph == other.input.graph
    }
}

impl Digraph {
    /// The values of `input`'s graph, within `max_bytes` for the labelling.
    fn new(input: GraphInput, max_bytes: u64) -> Result<Self, SearchError> {
        let out = input.graph.out_edges();
        let values = vertex_values(&out.offsets, &out.targets, max_bytes)?;
        Ok(Self { input, out, values })
    }

    /// The value of a token on `vertex` (0-based).
    #[must_use]
    pub fn value(&self, vertex: u32) -> LoopyValue {
        self.values.value(vertex, self.out.neighbours(vertex))
    }

    /// The values and counters of every vertex.
    #[must_use]
    pub const fn values(&self) -> &VertexValues {
        &self.values
    }
}

impl Family for Digraph {
    /// The vertex of one token (0-based); the tokens of a position are the
    /// components of its group, which writes the graph once before them.
    type Position = u32;

    fn drawing(&self, vertex: &u32) -> Option<Drawing> {
        Some(Drawing::Graph(GraphDrawing {
            directed: true,
            tokens: vec![*vertex],
            ..super::graph_drawing(&self.input.graph)?
        }))
    }

    fn write_position(&self, vertex: &u32, out: &mut String) {
        out.push_str(&(vertex + 1).to_string());
    }

    fn moves(&self, vertex: &u32, limit: usize) -> Result<Vec<Vec<u32>>, SearchError> {
        let successors = self.out.neighbours(*vertex);
        if successors.len() > limit {
            return Err(SearchError::StateLimit { limit });
        }
        Ok(successors.iter().map(|&w| vec![w]).collect())
    }

    fn describe_move(&self, from: &u32, to: &[u32]) -> String {
        match to.first() {
            Some(to) => format!("move the token on {} to {}", from + 1, to + 1),
            None => "a move".to_owned(),
        }
    }

    fn nimber_by_theory(&self, vertex: &u32) -> Option<(BigUint, &'static str)> {
        match self.values.values[*vertex as usize] {
            INFINITE => None,
            finite => Some((finite.into(), METHOD)),
        }
    }

    fn loopy_value(&self, vertex: &u32) -> Option<(LoopyValue, &'static str)> {
        Some((self.value(*vertex), METHOD))
    }

    /// The moves to vertices of value `target`, in increasing counter.
    fn moves_to_nimber_by_theory(
        &self,
        vertex: &u32,
        target: &BigUint,
        max: usize,
    ) -> Option<MovesTo<u32>> {
        let mut moves = MovesTo::default();
        let Ok(target) = u32::try_from(target) else {
            // No vertex has a nimber that large: no move reaches it.
            return Some(moves);
        };
        if target == INFINITE {
            return Some(moves);
        }
        let mut found: Vec<u32> = self
            .out
            .neighbours(*vertex)
            .iter()
            .copied()
            .filter(|&w| self.values.values[w as usize] == target)
            .collect();
        moves.count = found.len().into();
        found.sort_by_key(|&w| self.values.counters[w as usize]);
        moves.listed = found.into_iter().take(max).map(|w| vec![w]).collect();
        Some(moves)
    }
}

/// The game of `term`'s graph, for `grundy solve` and for the answers for
/// every vertex.
///
/// # Errors
/// As [`graph_argument`]; the memory limit when the labelling needs more than
/// the build limits allow; the time limit when the work is stopped.
pub(crate) fn digraph_of(
    term: &Term,
    context: &BuildContext<'_>,
) -> Result<Arc<Digraph>, LangError> {
    let input = graph_argument(term, 0, context)?;
    let span = term.args[0].span;
    // The graph's bytes count first; the labelling has the rest.
    let graph_bytes = super::graph_bytes(
        input.graph.vertex_count() as u64,
        input.graph.edges().len() as u64,
    );
    Digraph::new(input, context.limits.bytes.saturating_sub(graph_bytes))
        .map(Arc::new)
        .map_err(|error| match error {
            SearchError::MemoryLimit { limit } => LangError::new(
                format!(
                    "the values of the graph's vertices need more than the memory limit of {} MiB",
                    limit >> 20
                ),
                span,
            )
            .as_limit(Limit::Memory),
            SearchError::Cancelled => LangError::new(
                "the values of the graph's vertices were not finished: the computation was \
                 stopped (cancelled, or out of time)",
                span,
            )
            .as_limit(Limit::Time),
            other => LangError::new(other.to_string(), span),
        })
}

/// Every start of `digraph(GRAPH)`: the value of a token on each vertex.
fn every_start(term: &Term, context: &BuildContext<'_>) -> Result<EveryStart, LangError> {
    let game = digraph_of(term, context)?;
    let values: Vec<LoopyValue> = (0..game.input.graph.vertex_count() as u32)
        .map(|v| game.value(v))
        .collect();
    Ok(EveryStart {
        game: "digraph",
        graph: super::graph_text(term),
        outcomes: values.iter().map(LoopyValue::outcome).collect(),
        nimbers: None,
        loopy: Some(values),
        method: METHOD,
    })
}

fn build(term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
    crate::lang::arguments::no_params(term)?;
    let game = digraph_of(term, context)?;
    let n = game.input.graph.vertex_count();
    let tokens = term.args[1..]
        .iter()
        .map(|arg| vertex_argument(term, arg, n))
        .collect::<Result<Vec<_>, _>>()?;
    let text = Arc::clone(&game.input.text);
    Ok(Group::with_leading("digraph", text, parts(&game, tokens)))
}

/// The catalogue entry.
pub(crate) const ENTRY: GameEntry = GameEntry {
    name: "digraph",
    summary: "tokens sliding along the edges of a directed graph that may have cycles (draws)",
    rules: "digraph(GRAPH, v1, ..., vk): one token on each listed vertex (repeats allowed) of a \
            directed graph, each edge `u v` going from u to v; cycles, loops and repeated edges \
            are allowed. A move slides one token along one edge. Whoever cannot move loses; a \
            play that never ends is a draw (outcome D). GRAPH is as for `dag`: `@PATH` or a \
            string, a first line `n m`, then m lines `u v`. Theory: every vertex gets a \
            generalized Sprague-Grundy value, a nimber or ∞(K) with K the finite values of its \
            options (C. A. B. Smith, Graphs and composite games, 1966; computed for all \
            vertices at once by the labelling of A. S. Fraenkel and Y. Yesha, J. Combin. Theory \
            A 43, 1986; Winning Ways ch. 11-12). Value 0 is P, a nonzero nimber or ∞(K) with \
            0 in K is N, any other ∞(K) a draw. Tokens add (Smith): nimbers by nim-sum, ∞(K) \
            beside nim-sum x gives ∞(K xor x), two infinite tokens a draw. On an acyclic graph \
            the values are `dag`'s nimbers. `grundy solve --all-starts 'digraph(GRAPH)'` gives \
            every vertex's value.",
    syntax: "digraph(GRAPH, v1, ..., vk)",
    examples: &[
        "digraph(\"3 3; 1 2; 2 3; 3 1\", 1)",
        "digraph(\"4 4; 1 2; 2 1; 2 3; 1 4\", 1)",
        "digraph(\"3 3; 1 1; 1 2; 2 3\", 1) + nim(1)",
    ],
    kind: EntryKind::Game(build),
    heap_rule: None,
    drawing: DrawingKind::Graph,
    every_start: Some(every_start),
};

#[cfg(test)]
mod tests;
