//! Tokens on a directed acyclic graph: `dag(GRAPH, v1, ..., vk)`.
//!
//! # Rules
//! A directed graph (each edge `u v` goes from `u` to `v`) with one token on
//! each listed vertex (several tokens may share a vertex). A move slides one
//! token along one edge leaving its vertex. Whoever cannot move (every token on
//! a sink) loses. A cycle would make the game endless, so it is refused.
//!
//! # Theory (Sprague-Grundy)
//! The tokens are independent games, so the position's nimber is the xor of
//! the tokens' vertex nimbers, and the nimber of a vertex is the mex of its
//! successors' nimbers. All are computed once, when the graph is read, in
//! reverse topological order (Kahn's algorithm on out-degrees: a vertex is
//! valued when its last successor is), iteratively and in `O(n + m)`. A move
//! of the token on `v` to `w` reaches nimber `t` exactly when
//! `G(w) = G(v) xor N xor t`, `N` the position's nimber, so the winning moves
//! are counted by one pass over the tokens' edges.

use std::sync::Arc;

use num_bigint::BigUint;

use super::{Csr, Graph, GraphInput, graph_argument, vertex_argument};
use crate::drawing::{Drawing, GraphDrawing};
use crate::family::{Family, MovesTo, parts};
use crate::lang::{LangError, Term};
use crate::registry::{BuildContext, DrawingKind, EntryKind, EveryStart, GameEntry};
use crate::sums::position::Group;
use crate::theory::game::Outcome;
use crate::theory::solver::SearchError;

/// Why a directed graph has no nimbers: it has a cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// The cycle's vertices in order (0-based); its last vertex has an edge
    /// back to its first.
    pub vertices: Vec<u32>,
}

/// The Sprague-Grundy value of every vertex of a directed acyclic graph, in
/// `O(n + m)`.
///
/// # Errors
/// A [`Cycle`] when the graph has one (a loop is a cycle of one vertex).
pub fn vertex_nimbers(graph: &Graph) -> Result<Vec<u32>, Cycle> {
    let out = graph.out_edges();
    vertex_nimbers_of(&out)
}

fn vertex_nimbers_of(out: &Csr) -> Result<Vec<u32>, Cycle> {
    let n = out.vertex_count();
    let mut remaining: Vec<u32> = (0..n)
        .map(|v| (out.offsets[v + 1] - out.offsets[v]) as u32)
        .collect();
    let into = predecessors(out);
    let mut ready: Vec<u32> = (0..n as u32)
        .filter(|&v| remaining[v as usize] == 0)
        .collect();
    let mut nimbers = vec![u32::MAX; n];
    // `seen[g] == stamp` marks nimber g among the current vertex's successors.
    let mut seen: Vec<u32> = Vec::new();
    let mut valued = 0usize;
    while let Some(v) = ready.pop() {
        let successors = out.neighbours(v);
        if seen.len() <= successors.len() {
            seen.resize(successors.len() + 1, u32::MAX);
        }
        for &w in successors {
            let g = nimbers[w as usize] as usize;
            if g < seen.len() {
                seen[g] = v;
            }
        }
        let mex = (0..).find(|&g| seen[g] != v).unwrap_or(0);
        nimbers[v as usize] = mex as u32;
        valued += 1;
        for &u in into.neighbours(v) {
            remaining[u as usize] -= 1;
            if remaining[u as usize] == 0 {
                ready.push(u);
            }
        }
    }
    if valued == n {
        return Ok(nimbers);
    }
    // Every vertex not valued has a successor not valued: walk until a
    // vertex repeats.
    let start = (0..n).find(|&v| nimbers[v] == u32::MAX).unwrap_or(0) as u32;
    let mut position = vec![u32::MAX; n];
    let mut path = Vec::new();
    let mut v = start;
    while position[v as usize] == u32::MAX {
        position[v as usize] = path.len() as u32;
        path.push(v);
        v = out
            .neighbours(v)
            .iter()
            .copied()
            .find(|&w| nimbers[w as usize] == u32::MAX)
            .unwrap_or(v);
    }
    Err(Cycle {
        vertices: path.split_off(position[v as usize] as usize),
    })
}

/// The edges entering each vertex.
fn predecessors(out: &Csr) -> Csr {
    let n = out.vertex_count() as u32;
    Csr::build(
        n as usize,
        (0..n).flat_map(|v| out.entries(v).map(move |(w, id)| (w, v, id))),
    )
}

/// Tokens on one directed acyclic graph, with every vertex's nimber.
#[derive(Debug)]
pub struct Dag {
    input: GraphInput,
    out: Csr,
    nimbers: Vec<u32>,
}

impl PartialEq for Dag {
    fn eq(&self, other: &Self) -> bool {
        self.input.text == other.input.text && self.input.graph == other.input.graph
    }
}

impl Dag {
    fn new(input: GraphInput) -> Result<Self, Cycle> {
        let out = input.graph.out_edges();
        let nimbers = vertex_nimbers_of(&out)?;
        Ok(Self {
            input,
            out,
            nimbers,
        })
    }

    /// The nimber of every vertex (0-based).
    #[must_use]
    pub fn nimbers(&self) -> &[u32] {
        &self.nimbers
    }
}

impl Family for Dag {
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
        Some((
            self.nimbers[*vertex as usize].into(),
            "mex in reverse topological order",
        ))
    }

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
        let mut count = 0u64;
        for &w in self.out.neighbours(*vertex) {
            if self.nimbers[w as usize] == target {
                count += 1;
                if moves.listed.len() < max {
                    moves.listed.push(vec![w]);
                }
            }
        }
        moves.count = count.into();
        Some(moves)
    }
}

/// The game of `term`'s graph and its tokens, for `grundy solve` and for the
/// answers for every vertex.
///
/// # Errors
/// As [`graph_argument`]; a cycle names its vertices.
pub(crate) fn dag_of(term: &Term, context: &BuildContext<'_>) -> Result<Arc<Dag>, LangError> {
    let input = graph_argument(term, 0, context)?;
    let span = term.args[0].span;
    let graph = Arc::clone(&input.graph);
    Dag::new(input).map(Arc::new).map_err(|cycle| {
        let shown: Vec<String> = cycle
            .vertices
            .iter()
            .take(20)
            .chain(cycle.vertices.first())
            .map(|v| (v + 1).to_string())
            .collect();
        let more = if cycle.vertices.len() > 20 {
            format!(
                " (a cycle of {} vertices, first 20 shown)",
                cycle.vertices.len()
            )
        } else {
            String::new()
        };
        let line = graph
            .edges()
            .iter()
            .position(|&(u, v)| {
                u == cycle.vertices[cycle.vertices.len() - 1] && v == cycle.vertices[0]
            })
            .and_then(|edge| graph.edge_line(edge))
            .map(|line| format!("; its closing edge is on line {line}"))
            .unwrap_or_default();
        LangError::new(
            format!(
                "the graph has a cycle: {}{more}{line}; `dag` needs an acyclic graph",
                shown.join(" -> ")
            ),
            span,
        )
    })
}

/// Every start of `dag(GRAPH)`: the nimber of a token on each vertex.
fn every_start(term: &Term, context: &BuildContext<'_>) -> Result<EveryStart, LangError> {
    let dag = dag_of(term, context)?;
    let nimbers = dag.nimbers().to_vec();
    Ok(EveryStart {
        game: "dag",
        graph: super::graph_text(term),
        outcomes: nimbers
            .iter()
            .map(|&g| Outcome::from_nimber(u64::from(g)))
            .collect(),
        nimbers: Some(nimbers),
        loopy: None,
        method: "mex in reverse topological order",
    })
}

fn build(term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
    crate::lang::arguments::no_params(term)?;
    let dag = dag_of(term, context)?;
    let n = dag.input.graph.vertex_count();
    let tokens = term.args[1..]
        .iter()
        .map(|arg| vertex_argument(term, arg, n))
        .collect::<Result<Vec<_>, _>>()?;
    let text = Arc::clone(&dag.input.text);
    Ok(Group::with_leading("dag", text, parts(&dag, tokens)))
}

/// The catalogue entry.
pub(crate) const ENTRY: GameEntry = GameEntry {
    name: "dag",
    summary: "tokens sliding along the edges of a directed acyclic graph",
    rules: "dag(GRAPH, v1, ..., vk): one token on each listed vertex (repeats allowed) of a \
            directed graph, each edge `u v` going from u to v; a move slides one token along one \
            edge. Whoever cannot move loses. GRAPH is `@PATH` or a string: a first line `n m`, \
            then m lines `u v` (vertices 1..n; `;` may end a line in a string; `#` starts a \
            comment). A cycle is an error naming its vertices. Theory: the nimber of a vertex is \
            the mex of its successors' (computed for every vertex at once in reverse topological \
            order, linear time), and the tokens add as a sum (Sprague-Grundy). `dag(GRAPH)` with \
            no tokens is the empty game; `grundy solve --all-starts 'dag(GRAPH)'` gives every \
            vertex's nimber.",
    syntax: "dag(GRAPH, v1, ..., vk)",
    examples: &[
        "dag(\"4 4; 1 2; 2 3; 1 3; 3 4\", 1)",
        "dag(\"4 4; 1 2; 2 3; 1 3; 3 4\", 1, 2, 2)",
        "dag(\"3 2; 1 2; 2 3\", 1) + nim(2)",
    ],
    kind: EntryKind::Game(build),
    heap_rule: None,
    drawing: DrawingKind::Graph,
    every_start: Some(every_start),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Rules;
    use crate::theory::solver::Solver;
    use proptest::prelude::*;

    fn dag_of_edges(n: u32, edges: Vec<(u32, u32)>) -> Dag {
        let graph = Graph::new(n, edges);
        Dag::new(GraphInput {
            graph: Arc::new(graph),
            text: "\"test\"".into(),
        })
        .unwrap()
    }

    /// A random acyclic graph: edges go from a lower to a higher vertex of a
    /// random order, repeats allowed.
    fn random_dag(seed: u64, n: u32, m: usize) -> Vec<(u32, u32)> {
        let mut rng = crate::testing::Xorshift::from_state(
            seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1),
        );
        let mut order: Vec<u32> = (0..n).collect();
        rng.shuffle(&mut order);
        (0..m)
            .filter_map(|_| {
                let a = rng.below(u64::from(n)) as usize;
                let b = rng.below(u64::from(n)) as usize;
                (a != b).then(|| (order[a.min(b)], order[a.max(b)]))
            })
            .collect()
    }

    #[test]
    fn vertex_nimbers_match_search() {
        for seed in 0..400 {
            let n = 1 + (seed % 9) as u32;
            let m = (seed as usize * 7) % 20;
            let dag = dag_of_edges(n, random_dag(seed, n, m));
            let rules = Rules::new(dag);
            let mut solver = Solver::new(&rules);
            for v in 0..n {
                assert_eq!(
                    solver.nimber(&vec![v]).unwrap(),
                    rules.family().nimbers[v as usize],
                    "seed {seed}, vertex {v}"
                );
            }
        }
    }

    #[test]
    fn winning_moves_of_token_sums_match_search() {
        for seed in 0..150 {
            let n = 2 + (seed % 7) as u32;
            let dag = dag_of_edges(n, random_dag(seed, n, 3 * n as usize));
            let rules = Rules::new(dag);
            let game = rules.family();
            let mut solver = Solver::new(&rules);
            for v in 0..n {
                for target in 0..6u32 {
                    let found = game
                        .moves_to_nimber_by_theory(&v, &target.into(), usize::MAX)
                        .unwrap();
                    let mut expected = Vec::new();
                    for leaves in game.moves(&v, usize::MAX).unwrap() {
                        if solver.nimber(&leaves).unwrap() == target {
                            expected.push(leaves);
                        }
                    }
                    assert_eq!(found.count, BigUint::from(expected.len()));
                    assert_eq!(found.listed, expected, "seed {seed}, target {target}");
                }
            }
        }
    }

    #[test]
    fn sums_of_tokens_answer_as_search_does() {
        use crate::sums::analysis::{SolveOptions, solve};
        use crate::sums::position::Position;
        use crate::theory::game::Convention;
        for seed in 0..60 {
            let n = 2 + (seed % 6) as u32;
            let dag = Arc::new(dag_of_edges(n, random_dag(seed, n, 2 * n as usize)));
            let tokens: Vec<u32> = (0..3)
                .map(|i| ((seed + i * 5) % u64::from(n)) as u32)
                .collect();
            let position = Position::sum(
                Convention::Normal,
                vec![Group::with_leading(
                    "dag",
                    "\"test\"",
                    parts(&dag, tokens.clone()),
                )],
            );
            let answer = solve(&position, &SolveOptions::default()).unwrap();
            let rules = Rules::new(dag_of_edges(n, random_dag(seed, n, 2 * n as usize)));
            let mut solver = Solver::new(&rules);
            assert_eq!(answer.nimber, Some(solver.nimber(&tokens).unwrap().into()));
            // Every move of every token, counted as a player makes them.
            let mut winning = 0u32;
            for (index, &v) in tokens.iter().enumerate() {
                for w in rules.family().moves(&v, usize::MAX).unwrap() {
                    let mut after = tokens.clone();
                    after[index] = w[0];
                    if solver.nimber(&after).unwrap() == 0 {
                        winning += 1;
                    }
                }
            }
            assert_eq!(answer.winning_move_count, winning.into(), "seed {seed}");
            for (i, mv) in answer.winning_moves.iter().enumerate() {
                assert!(answer.target(mv).starts_with("dag(\"test\", "), "{i}");
            }
        }
    }

    #[test]
    fn cycles_are_found_and_named() {
        let graph = Graph::new(4, vec![(0, 1), (1, 2), (2, 3), (3, 1)]);
        let cycle = vertex_nimbers(&graph).unwrap_err();
        let mut vertices = cycle.vertices.clone();
        vertices.sort_unstable();
        assert_eq!(vertices, vec![1, 2, 3]);
        for pair in cycle.vertices.windows(2) {
            assert!(graph.edges().contains(&(pair[0], pair[1])));
        }
        let loop_graph = Graph::new(2, vec![(0, 1), (1, 1)]);
        assert_eq!(vertex_nimbers(&loop_graph).unwrap_err().vertices, vec![1]);
    }

    #[test]
    fn a_path_of_a_million_vertices_needs_no_stack() {
        let n = 1_000_000u32;
        let graph = Graph::new(n, (0..n - 1).map(|v| (v, v + 1)).collect());
        let nimbers = vertex_nimbers(&graph).unwrap();
        assert_eq!(nimbers[0], (n - 1) % 2);
        let cyclic = Graph::new(n, (0..n).map(|v| (v, (v + 1) % n)).collect());
        assert_eq!(
            vertex_nimbers(&cyclic).unwrap_err().vertices.len(),
            n as usize
        );
    }

    proptest! {
        #[test]
        fn nimbers_are_the_mex_of_successors(seed in any::<u64>(), n in 1u32..60, m in 0usize..300) {
            let edges = random_dag(seed, n, m);
            let graph = Graph::new(n, edges.clone());
            let nimbers = vertex_nimbers(&graph).unwrap();
            for v in 0..n {
                let successors: Vec<u32> = edges.iter().filter(|e| e.0 == v).map(|e| nimbers[e.1 as usize]).collect();
                let mex = (0..).find(|g| !successors.contains(g)).unwrap();
                prop_assert_eq!(nimbers[v as usize], mex);
            }
        }
    }
}
