//! The tree walk: `tree_walk(GRAPH, s)` and
//! `tree_walk(GRAPH)`.
//!
//! # Rules
//! GRAPH is a tree rooted at vertex 1. A token stands on `s`; a move jumps it
//! to any vertex not yet deleted that is an ancestor or a descendant of its
//! vertex (in the original tree), and the vertex it left is deleted. Whoever
//! cannot move loses. In `tree_walk(GRAPH)` the first player chooses the start
//! `s`, and the other player makes the first jump. Positions after a move are
//! written `tree_walk(GRAPH, s, [d1, ..., dk])`, the `d` the deleted vertices.
//!
//! # Theory
//! This is undirected vertex geography on the comparability graph of the tree
//! (every ancestor-descendant pair is an edge), so the player to move from `s`
//! wins iff `s` is in every maximum matching of the vertices left (Fraenkel,
//! Scheinerman and Ullman 1993; the same argument as for [`super::geography`]). The
//! comparability graph can have `n^2 / 2` edges, but its maximum matchings
//! are found greedily from the leaves up (note `000` §3.3.3): a vertex is
//! adjacent to its whole subtree, and the vertices of its subtree that stay
//! unmatched are interchangeable for its ancestors, so with `c(v)` the sum of
//! `f` over the children of `v`, the fewest unmatched vertices of `v`'s
//! subtree are `f(v) = |c(v) - 1|` when `v` is left and `f(v) = c(v)` when it
//! is deleted; `f(root)` are unmatched overall.
//!
//! Whether `s` is in every maximum matching is whether deleting it leaves one
//! more unmatched vertex rather than one fewer. Deleting `s` changes `f(s)` by
//! `+1` when `c(s) >= 1` and by `-1` otherwise, and each ancestor `a` passes a
//! change `d` of `c(a)` on as a change of `f(a)`: unchanged when `a` is
//! deleted or `c(a) >= 2`, always `+1` when `c(a) = 1`, and `-1` when `c(a) =
//! 0`. Composing these maps from the root down gives the answer for every `s`
//! at once, in `O(n)`. The tests check all of this against the generic
//! search.

use std::sync::Arc;

use num_bigint::BigUint;

use super::{GraphInput, graph_argument, vertex_argument, vertex_list_argument, write_vertex_list};
use crate::drawing::Drawing;
use crate::family::{Family, MovesTo, OutcomeAnswer, part};
use crate::lang::{LangError, Term};
use crate::registry::{BuildContext, DrawingKind, EntryKind, EveryStart, GameEntry};
use crate::sums::position::Group;
use crate::theory::game::Outcome;
use crate::theory::solver::SearchError;

const NO_PARENT: u32 = u32::MAX;

/// A rooted tree in preorder: the subtree of `v` is
/// `order[first[v]..end[v]]`.
#[derive(Debug)]
struct Tree {
    parent: Vec<u32>,
    order: Vec<u32>,
    first: Vec<u32>,
    end: Vec<u32>,
}

/// The first edge, in input order, joining two vertices that the edges before
/// it already connect: `(edge, u, v)`.
fn first_cycle_edge(graph: &super::Graph) -> Option<(usize, u32, u32)> {
    fn find(leader: &mut [u32], mut v: u32) -> u32 {
        while leader[v as usize] != v {
            let up = leader[leader[v as usize] as usize];
            leader[v as usize] = up;
            v = up;
        }
        v
    }
    let mut leader: Vec<u32> = (0..graph.vertex_count() as u32).collect();
    for (edge, &(u, v)) in graph.edges().iter().enumerate() {
        let (a, b) = (find(&mut leader, u), find(&mut leader, v));
        if a == b {
            return Some((edge, u, v));
        }
        leader[a as usize] = b;
    }
    None
}

impl Tree {
    /// The tree of `input` rooted at vertex 0, or why it is not one.
    fn new(input: &GraphInput) -> Result<Self, String> {
        let graph = &input.graph;
        let n = graph.vertex_count();
        let line = |edge: usize| {
            graph
                .edge_line(edge)
                .map_or_else(String::new, |line| format!("line {line}: "))
        };
        if graph.edges().len() + 1 != n {
            return Err(format!(
                "the graph's first line `n m` declares {} edges, but a tree on {n} vertices has {}",
                graph.edges().len(),
                n - 1
            ));
        }
        let adjacency = graph.incident_edges();
        let mut parent = vec![NO_PARENT; n];
        let mut order = Vec::with_capacity(n);
        let mut first = vec![0u32; n];
        let mut end = vec![0u32; n];
        // Iterative depth-first search; `(v, next entry)` on the stack.
        let mut stack = vec![(0u32, adjacency.offsets[0])];
        first[0] = 0;
        order.push(0);
        while let Some(top) = stack.last_mut() {
            let (v, at) = *top;
            if at == adjacency.offsets[v as usize + 1] {
                end[v as usize] = order.len() as u32;
                stack.pop();
                continue;
            }
            top.1 += 1;
            let w = adjacency.targets[at];
            if w == 0 || parent[w as usize] != NO_PARENT {
                continue;
            }
            parent[w as usize] = v;
            first[w as usize] = order.len() as u32;
            order.push(w);
            stack.push((w, adjacency.offsets[w as usize]));
        }
        if order.len() < n {
            // n - 1 edges that do not connect: some edge closes a cycle.
            // Union-find in input order finds the first that does.
            return Err(first_cycle_edge(graph).map_or_else(
                || "the graph is not connected: not a tree".to_owned(),
                |(edge, u, v)| {
                    format!(
                        "{}the edge {} {} closes a cycle: not a tree",
                        line(edge),
                        u + 1,
                        v + 1
                    )
                },
            ));
        }
        Ok(Self {
            parent,
            order,
            first,
            end,
        })
    }

    fn len(&self) -> usize {
        self.parent.len()
    }

    /// The ancestors and descendants of `s`.
    fn comparable_to(&self, s: u32) -> impl Iterator<Item = u32> + '_ {
        let mut up = self.parent[s as usize];
        let ancestors = std::iter::from_fn(move || {
            let v = up;
            (v != NO_PARENT).then(|| {
                up = self.parent[v as usize];
                v
            })
        });
        let below = &self.order[self.first[s as usize] as usize + 1..self.end[s as usize] as usize];
        ancestors.chain(below.iter().copied())
    }

    /// Which vertices left (`alive`) lie in every maximum matching of the
    /// comparability graph of the vertices left, and how many vertices a
    /// maximum matching leaves unmatched.
    fn in_every_maximum_matching(&self, alive: &[bool]) -> (Vec<bool>, u32) {
        let n = self.len();
        // c: the sum of f over the children; f as in the module notes.
        let mut c = vec![0u32; n];
        let mut f = vec![0u32; n];
        for &v in self.order.iter().rev() {
            let v = v as usize;
            f[v] = if alive[v] { c[v].abs_diff(1) } else { c[v] };
            let p = self.parent[v];
            if p != NO_PARENT {
                c[p as usize] += f[v];
            }
        }
        // map[v] = (change of the unmatched count when f(v) changes by +1,
        // ... by -1), each true for +1.
        let mut map = vec![(true, false); n];
        let pass =
            |v: usize, d: bool| -> bool { if !alive[v] || c[v] >= 2 { d } else { c[v] == 1 } };
        let mut essential = vec![false; n];
        for &v in &self.order {
            let v = v as usize;
            let p = self.parent[v];
            if p != NO_PARENT {
                let p = p as usize;
                let (up, down) = map[p];
                let through = |d: bool| if pass(p, d) { up } else { down };
                map[v] = (through(true), through(false));
            }
            if alive[v] {
                let d = c[v] >= 1;
                essential[v] = if d { map[v].0 } else { map[v].1 };
            }
        }
        (essential, f[0])
    }
}

/// The tree walk on one tree.
#[derive(Debug)]
pub struct TreeWalk {
    input: GraphInput,
    tree: Tree,
}

impl PartialEq for TreeWalk {
    fn eq(&self, other: &Self) -> bool {
        self.input.text == other.input.text && self.input.graph == other.input.graph
    }
}

/// A position of the tree walk (vertices 0-based).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Walk {
    /// No start chosen yet: the player to move chooses it.
    Choose,
    /// The token on `vertex`, `deleted` (sorted) gone.
    At {
        /// Where the token stands.
        vertex: u32,
        /// The deleted vertices, sorted.
        deleted: Arc<[u32]>,
    },
}

impl TreeWalk {
    fn alive(&self, deleted: &[u32]) -> Vec<bool> {
        let mut alive = vec![true; self.tree.len()];
        for &v in deleted {
            alive[v as usize] = false;
        }
        alive
    }

    /// Whether the player to move wins from each start vertex (0-based) of
    /// the whole tree: the answer for every start at once, in linear time.
    #[must_use]
    pub fn start_outcomes(&self) -> Vec<Outcome> {
        let (essential, _) = self
            .tree
            .in_every_maximum_matching(&vec![true; self.tree.len()]);
        essential
            .into_iter()
            .map(|e| {
                if e {
                    Outcome::NextPlayerWins
                } else {
                    Outcome::PreviousPlayerWins
                }
            })
            .collect()
    }

    fn after(&self, from: u32, deleted: &[u32], to: u32) -> Walk {
        let mut next = Vec::with_capacity(deleted.len() + 1);
        next.extend_from_slice(deleted);
        let at = next.partition_point(|&d| d < from);
        next.insert(at, from);
        Walk::At {
            vertex: to,
            deleted: next.into(),
        }
    }
}

impl Family for TreeWalk {
    type Position = Walk;

    fn drawing(&self, walk: &Walk) -> Option<Drawing> {
        let mut drawing = super::graph_drawing(&self.input.graph)?;
        if let Walk::At { vertex, deleted } = walk {
            drawing.tokens = vec![*vertex];
            drawing.deleted = deleted.to_vec();
        }
        Some(Drawing::Graph(drawing))
    }

    fn write_position(&self, walk: &Walk, out: &mut String) {
        out.push_str(&self.input.text);
        if let Walk::At { vertex, deleted } = walk {
            out.push_str(&format!(", {}", vertex + 1));
            if !deleted.is_empty() {
                out.push_str(", ");
                write_vertex_list(out, deleted);
            }
        }
    }

    fn moves(&self, walk: &Walk, limit: usize) -> Result<Vec<Vec<Walk>>, SearchError> {
        let too_many = SearchError::StateLimit { limit };
        match walk {
            Walk::Choose => {
                if self.tree.len() > limit {
                    return Err(too_many);
                }
                Ok((0..self.tree.len() as u32)
                    .map(|s| {
                        vec![Walk::At {
                            vertex: s,
                            deleted: Arc::from([]),
                        }]
                    })
                    .collect())
            }
            Walk::At { vertex, deleted } => {
                let mut moves = Vec::new();
                for t in self.tree.comparable_to(*vertex) {
                    if deleted.binary_search(&t).is_err() {
                        if moves.len() == limit {
                            return Err(too_many);
                        }
                        moves.push(vec![self.after(*vertex, deleted, t)]);
                    }
                }
                Ok(moves)
            }
        }
    }

    fn describe_move(&self, from: &Walk, to: &[Walk]) -> String {
        match (from, to.first()) {
            (Walk::Choose, Some(Walk::At { vertex, .. })) => {
                format!("start at vertex {}", vertex + 1)
            }
            (Walk::At { vertex: a, .. }, Some(Walk::At { vertex: b, .. })) => {
                format!("jump from {} to {}", a + 1, b + 1)
            }
            _ => "a move".to_owned(),
        }
    }

    fn outcome_by_theory(&self, walk: &Walk, max: usize) -> Option<OutcomeAnswer<Walk>> {
        let mut winning = MovesTo::default();
        let outcome = match walk {
            Walk::Choose => {
                let all = vec![true; self.tree.len()];
                let (essential, _) = self.tree.in_every_maximum_matching(&all);
                for s in (0..self.tree.len() as u32).filter(|&s| !essential[s as usize]) {
                    winning.count += 1u32;
                    if winning.listed.len() < max {
                        winning.listed.push(vec![Walk::At {
                            vertex: s,
                            deleted: Arc::from([]),
                        }]);
                    }
                }
                winning_outcome(&winning)
            }
            Walk::At { vertex, deleted } => {
                let mut alive = self.alive(deleted);
                alive[*vertex as usize] = false;
                let (essential, _) = self.tree.in_every_maximum_matching(&alive);
                for t in self.tree.comparable_to(*vertex) {
                    if alive[t as usize] && !essential[t as usize] {
                        winning.count += 1u32;
                        if winning.listed.len() < max {
                            winning.listed.push(vec![self.after(*vertex, deleted, t)]);
                        }
                    }
                }
                winning_outcome(&winning)
            }
        };
        Some(OutcomeAnswer {
            outcome,
            winning,
            method: "greedy maximum matching of the ancestor-descendant graph",
        })
    }
}

fn winning_outcome<P>(winning: &MovesTo<P>) -> Outcome {
    if winning.count == BigUint::default() {
        Outcome::PreviousPlayerWins
    } else {
        Outcome::NextPlayerWins
    }
}

/// The tree walk of `term`'s graph.
///
/// # Errors
/// As [`graph_argument`], and when the graph is not a tree.
pub(crate) fn tree_walk_of(
    term: &Term,
    context: &BuildContext<'_>,
) -> Result<Arc<TreeWalk>, LangError> {
    let input = graph_argument(term, 0, context)?;
    let tree = Tree::new(&input).map_err(|why| {
        LangError::new(
            format!("`tree_walk` needs a tree rooted at vertex 1: {why}"),
            term.args[0].span,
        )
    })?;
    Ok(Arc::new(TreeWalk { input, tree }))
}

/// Every start of `tree_walk(GRAPH)`: who wins from a token on each vertex.
fn every_start(term: &Term, context: &BuildContext<'_>) -> Result<EveryStart, LangError> {
    let walk = tree_walk_of(term, context)?;
    Ok(EveryStart {
        game: "tree_walk",
        graph: super::graph_text(term),
        outcomes: walk.start_outcomes(),
        nimbers: None,
        loopy: None,
        method: "greedy maximum matching of the ancestor-descendant graph",
    })
}

fn build(term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
    crate::lang::arguments::no_params(term)?;
    let game = tree_walk_of(term, context)?;
    let n = game.tree.len();
    let walk = match &term.args[1..] {
        [] => Walk::Choose,
        [start] => Walk::At {
            vertex: vertex_argument(term, start, n)?,
            deleted: Arc::from([]),
        },
        [start, deleted] => {
            let vertex = vertex_argument(term, start, n)?;
            let deleted = vertex_list_argument(term, deleted, n, "deleted vertices")?;
            if deleted.binary_search(&vertex).is_ok() {
                return Err(LangError::new(
                    format!("the token's vertex {} cannot be deleted", vertex + 1),
                    term.args[2].span,
                ));
            }
            Walk::At {
                vertex,
                deleted: deleted.into(),
            }
        }
        [_, _, extra, ..] => {
            return Err(LangError::new(
                "`tree_walk` takes a graph, a start vertex and the deleted vertices",
                extra.span,
            ));
        }
    };
    Ok(Group::new("tree_walk", vec![part(&game, walk)]))
}

/// The catalogue entry.
pub(crate) const ENTRY: GameEntry = GameEntry {
    name: "tree_walk",
    summary: "a token jumping between ancestors and descendants of a tree, deleting where it was",
    rules: "tree_walk(GRAPH, s): GRAPH is a tree rooted at vertex 1 (n vertices, n - 1 edges, \
            connected), given as for `dag`: `@PATH` or a string, a first line `n m`, then m lines \
            `u v` (`;` may end a line in a string). A token stands on s; a move jumps it to any vertex not yet deleted that is \
            an ancestor or a descendant of its vertex, and the vertex it left is deleted. Whoever \
            cannot move loses. tree_walk(GRAPH): the player to move chooses the start s (that is \
            the move), then the other player makes the first jump. Positions after a move are \
            written tree_walk(GRAPH, s, [d1, ..., dk]) with the deleted vertices. Theory (Fraenkel, \
            Scheinerman and Ullman 1993): the player to move wins iff s is in every maximum matching of the \
            ancestor-descendant graph of the vertices left; those matchings are found greedily \
            from the leaves up, and one more pass down answers every start at once (linear time; \
            `grundy solve --all-starts 'tree_walk(GRAPH)'`). No nimber formula is known: in sums \
            the walk is searched within the state limit.",
    syntax: "tree_walk(GRAPH), tree_walk(GRAPH, s), tree_walk(GRAPH, s, [deleted])",
    examples: &[
        "tree_walk(\"4 3; 1 2; 2 3; 2 4\")",
        "tree_walk(\"4 3; 1 2; 2 3; 2 4\", 3)",
        "tree_walk(\"5 4; 1 2; 1 3; 3 4; 3 5\", 4, [1])",
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
    use crate::games::graph::Graph;
    use crate::theory::solver::Solver;

    /// A random tree on `n` vertices: each vertex after the first joins an
    /// earlier one, the labels shuffled so that vertex 1 is not always the
    /// first.
    fn random_tree(seed: u64, n: u32) -> Vec<(u32, u32)> {
        let mut rng = crate::testing::Xorshift::new(seed);
        let mut label: Vec<u32> = (0..n).collect();
        rng.shuffle(&mut label);
        (1..n)
            .map(|v| {
                let u = rng.below(u64::from(v)) as u32;
                if rng.below(2) == 0 {
                    (label[u as usize], label[v as usize])
                } else {
                    (label[v as usize], label[u as usize])
                }
            })
            .collect()
    }

    fn walk_of(n: u32, edges: Vec<(u32, u32)>) -> TreeWalk {
        let input = GraphInput {
            graph: Arc::new(Graph::new(n, edges)),
            text: "\"tree\"".into(),
        };
        let tree = Tree::new(&input).unwrap();
        TreeWalk { input, tree }
    }

    #[test]
    fn outcomes_and_winning_moves_match_search() {
        for seed in 0..300u64 {
            let n = 1 + (seed % 10) as u32;
            let rules = Rules::new(walk_of(n, random_tree(seed, n)));
            let game = rules.family();
            let mut solver = Solver::new(&rules);
            let mut positions = vec![Walk::Choose];
            // Starts, and positions a few random deletions in.
            for s in 0..n {
                positions.push(Walk::At {
                    vertex: s,
                    deleted: Arc::from([]),
                });
                let deleted: Vec<u32> = (0..n)
                    .filter(|&d| d != s && (seed >> (d % 13)) & 1 == 1)
                    .collect();
                positions.push(Walk::At {
                    vertex: s,
                    deleted: deleted.into(),
                });
            }
            for walk in positions {
                let answer = game.outcome_by_theory(&walk, usize::MAX).unwrap();
                assert_eq!(
                    answer.outcome,
                    solver.outcome(&vec![walk.clone()]).unwrap(),
                    "seed {seed}, {walk:?}"
                );
                let mut expected = Vec::new();
                for leaves in game.moves(&walk, usize::MAX).unwrap() {
                    if solver.outcome(&leaves).unwrap() == Outcome::PreviousPlayerWins {
                        expected.push(leaves);
                    }
                }
                let mut found = answer.winning.listed.clone();
                found.sort_by_key(|leaves| format!("{leaves:?}"));
                expected.sort_by_key(|leaves| format!("{leaves:?}"));
                assert_eq!(found, expected, "seed {seed}, {walk:?}");
                assert_eq!(answer.winning.count, BigUint::from(expected.len()));
            }
        }
    }

    #[test]
    fn every_start_at_once_matches_one_at_a_time() {
        for seed in 0..100u64 {
            let n = 1 + (seed % 40) as u32;
            let game = walk_of(n, random_tree(seed, n));
            let all = game.start_outcomes();
            for s in 0..n {
                let walk = Walk::At {
                    vertex: s,
                    deleted: Arc::from([]),
                };
                let rules_answer = game.outcome_by_theory(&walk, 0).unwrap().outcome;
                assert_eq!(all[s as usize], rules_answer);
            }
        }
    }

    #[test]
    fn non_trees_are_refused_with_the_line() {
        let input = |text: &str| GraphInput {
            graph: Arc::new(Graph::parse(text, true).unwrap()),
            text: "\"t\"".into(),
        };
        let error = Tree::new(&input("3 3; 1 2; 2 3; 3 1")).unwrap_err();
        assert!(error.contains("declares 3 edges"), "{error}");
        let error = Tree::new(&input("4 3; 1 2; 2 1; 3 4")).unwrap_err();
        assert!(
            error.starts_with("line 3: the edge 2 1 closes a cycle"),
            "{error}"
        );
        let error = Tree::new(&input("3 2; 1 2; 3 3")).unwrap_err();
        assert!(error.contains("line 3"), "{error}");
    }

    #[test]
    fn a_path_of_a_million_vertices_needs_no_stack() {
        let n = 1_000_000u32;
        let game = walk_of(n, (0..n - 1).map(|v| (v, v + 1)).collect());
        // A path's comparability graph is complete: a perfect matching when n
        // is even, so every start loses for the player to move.
        let all = game.start_outcomes();
        assert!(all.iter().all(|&o| o == Outcome::NextPlayerWins));
        let answer = game.outcome_by_theory(&Walk::Choose, 3).unwrap();
        assert_eq!(answer.outcome, Outcome::PreviousPlayerWins);
    }
}
