//! Green Hackenbush on any graph: `hackenbush(GRAPH)`.
//!
//! # Rules
//! An undirected graph (loops and repeated edges allowed) whose vertex 1 is
//! the ground. A move deletes one edge; whatever is then no longer connected
//! to the ground disappears. Whoever cannot move loses. Edges not connected to
//! the ground at the start do not count. A position after some moves is
//! written `hackenbush(GRAPH, [e1, ..., ek])`: the edges cut so far, numbered
//! by their order in the graph's edge list (from 1), in increasing order;
//! the positions moves lead to leave out the cut edges that fell with the part
//! they hung from. So a position reached by moves is determined by the game
//! left (the edges attached to the ground), whatever the order of the cuts:
//! searches need no other canonical form (and computing one for every
//! position met would cost a pass over the graph each).
//!
//! # Theorems (Berlekamp, Conway and Guy, *Winning Ways*, ch. 7)
//! - **Colon principle.** Replacing a branch hung at a vertex by one of the
//!   same value does not change the value of the whole; so a vertex's branches
//!   add as a nim-sum, and a branch reached through one edge (a bridge) has the
//!   value of the part above it plus one: for a tree,
//!   `SG(u) = xor over children v of (SG(v) + 1)`.
//! - **Fusion principle.** The vertices of any cycle may be fused into one
//!   vertex, the cycle's edges becoming loops, without changing the value. A
//!   loop is a stalk of one edge, of value 1.
//!
//! Hence every 2-edge-connected component (the parts left when the bridges are
//! removed) fuses to one vertex carrying one loop per edge, and the graph
//! becomes its bridge tree with loops: the value of a component `C` with what
//! hangs below it is
//!
//! `val(C) = (|E(C)| mod 2) xor (xor over bridges (C, D) below C of (val(D) + 1))`,
//!
//! the ground's component giving the value of the game. The cactus
//! rule of the fusion principle (Winning Ways ch. 7: an even cycle fuses to a
//! vertex, an odd one to a vertex with one edge)
//! is the special case of a component that is a cycle.
//!
//! # The moves to a given value
//! The value must become `t`. Top-down on the bridge tree, each component `C`
//! gets the value `need(C)` its part must take (`need` of the ground's is `t`):
//! for a bridge from `C` down to `D`, the rest of `C`'s part stays, so `D`'s
//! branch must contribute `y = need(C) xor val(C) xor (val(D) + 1)`: cutting the
//! bridge (a contribution of 0) wins iff `y = 0`, and otherwise
//! `need(D) = y - 1` (a branch through an edge is never worth 0).
//!
//! A non-bridge edge `e` of `C` changes only `C`'s part. Cutting a loop, or an
//! edge in no 2-edge cut `{e, f}` of `C`, leaves `C` 2-edge-connected: `val(C)`
//! flips its last bit. Otherwise `e` lies in a class `K` of edges any two of
//! which form a 2-edge cut (the relation is an equivalence on the non-bridge
//! edges); `C - K` falls into pieces `S_0, ..., S_q` arranged in a cycle, the
//! edges of `K` joining consecutive pieces, and each piece stays
//! 2-edge-connected when one edge of `K` is cut. So cutting `e_i` (between
//! `S_i` and `S_i+1`) leaves a chain of fused pieces hanging from the piece
//! `S_0` that holds `C`'s root, each piece worth the nim-sum of what hangs on
//! it and the parity of its edges: a caterpillar valued by the colon principle
//! from both ends of the chain.
//!
//! The classes come from a depth-first search tree: two back edges never form
//! a cut; a tree edge and a back edge `b` do iff `b` is the only back edge over
//! the tree edge; two tree edges do iff the same back edges pass over both,
//! which for a tree edge below another is decided by how many pass over each
//! and by the highest point that those over the lower one reach (found for
//! every tree edge by union-find walks, back edges by decreasing depth of
//! their upper end). The chains' values for every cut position of a class of
//! `q` pieces are found together in `O(q log m)` by a binary trie, least
//! significant bit first, holding the partial values of all chains at once
//! under the two global operations `x -> x + 1` and `x -> x xor w`.
//!
//! So the value and every winning move (their exact count) take time
//! `O((n + m) log m)` and memory linear in the graph, for any graph.
//! Everything is checked against exhaustive search in the tests.

use std::sync::{Arc, Mutex};

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use super::{Csr, Graph, GraphInput, graph_argument};
use crate::drawing::Drawing;
use crate::family::{Family, MovesTo, part};
use crate::lang::arguments::no_params;
use crate::lang::{LangError, Term, Value, ValueKind};
use crate::registry::{BuildContext, BuildLimits, DrawingKind, EntryKind, GameEntry};
use crate::sums::position::Group;
use crate::theory::solver::{Limit, Refusal, SearchError};

/// The method named in answers.
const METHOD: &str = "hackenbush: fusion and colon principles";

/// No vertex, no edge.
const NONE: u32 = u32::MAX;

/// No value needed.
const NO_NEED: u64 = u64::MAX;

/// Below this many pieces the chains of a class are valued one by one (in
/// quadratic time), above it by the trie.
const TRIE_THRESHOLD: usize = 96;

/// The work a search spends on each edge of each position it lists the moves
/// of, in the build limits' steps (10^8 take about a second; the figure it was
/// set from is in docs/BENCHMARKS.md, "Figures behind the code's constants").
const SEARCH_STEPS_PER_EDGE: u64 = 50;

/// A position: the edges cut so far (0-based, increasing).
pub type Cuts = Arc<[u32]>;

/// Green Hackenbush on one graph, grounded at vertex 1 (0 here).
pub struct Hackenbush {
    graph: Arc<Graph>,
    text: Arc<str>,
    incident: Csr,
    /// The most work a search of positions may take (see
    /// [`Family::moves`]): `BuildLimits::work`.
    search_work: u64,
    /// The analysis of the last position asked about.
    cache: Mutex<Option<(Cuts, Arc<Analysis>)>>,
}

impl std::fmt::Debug for Hackenbush {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hackenbush")
            .field("graph", &self.text)
            .field("vertices", &self.graph.vertex_count())
            .field("edges", &self.graph.edges().len())
            .finish_non_exhaustive()
    }
}

/// The same graph under the same text is the same game.
impl PartialEq for Hackenbush {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
            && (Arc::ptr_eq(&self.graph, &other.graph) || self.graph == other.graph)
    }
}

/// Why a list of cut edges is not a position of a graph.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CutError {
    /// An edge number out of `1..=m`.
    #[error("edge {edge} is out of 1..{edges}")]
    OutOfRange {
        /// The edge, numbered from 1.
        edge: u64,
        /// The number of edges.
        edges: usize,
    },
    /// An edge listed twice.
    #[error("edge {edge} is listed twice among the cut edges")]
    Repeated {
        /// The edge, numbered from 1.
        edge: u64,
    },
}

impl Hackenbush {
    /// Green Hackenbush on `graph`, whose positions print the graph as `text`
    /// (`@PATH` or a quoted string).
    #[must_use]
    pub fn new(graph: Graph, text: impl Into<Arc<str>>) -> Self {
        Self::from_input(GraphInput {
            graph: Arc::new(graph),
            text: text.into(),
        })
    }

    fn from_input(input: GraphInput) -> Self {
        let incident = input.graph.incident_edges();
        Self {
            graph: input.graph,
            text: input.text,
            incident,
            search_work: BuildLimits::default().work,
            cache: Mutex::new(None),
        }
    }

    /// The same game, whose positions a search may spend `work` steps on
    /// (one step per edge of each position whose moves are listed; by
    /// default the build limit's work, `BuildLimits::default().work`).
    #[must_use]
    pub const fn with_search_work(mut self, work: u64) -> Self {
        self.search_work = work;
        self
    }

    /// The graph.
    #[must_use]
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// The position after cutting the edges numbered `edges` (from 1, in any
    /// order).
    ///
    /// # Errors
    /// [`CutError`] for an edge out of range or listed twice.
    pub fn cuts(&self, edges: &[u64]) -> Result<Cuts, CutError> {
        let m = self.graph.edges().len();
        let mut cuts = Vec::with_capacity(edges.len());
        for &edge in edges {
            match usize::try_from(edge) {
                Ok(e) if e >= 1 && e <= m => cuts.push((e - 1) as u32),
                _ => return Err(CutError::OutOfRange { edge, edges: m }),
            }
        }
        cuts.sort_unstable();
        if let Some(pair) = cuts.windows(2).find(|pair| pair[0] == pair[1]) {
            return Err(CutError::Repeated {
                edge: u64::from(pair[0]) + 1,
            });
        }
        Ok(cuts.into())
    }

    /// The nimber of the position after cutting `cuts` (0-based edges; ids out
    /// of range are ignored).
    #[must_use]
    pub fn nimber(&self, cuts: &[u32]) -> u64 {
        self.analysis(cuts).value
    }

    /// The edges (0-based, increasing) whose cut leaves a position of nimber
    /// `target`, from the position after cutting `cuts`.
    #[must_use]
    pub fn edges_to_nimber(&self, cuts: &[u32], target: u64) -> Vec<u32> {
        self.analysis(cuts).edges_to(target)
    }

    /// The winning moves of the position after cutting `cuts`: the edges
    /// whose cut leaves nimber 0 (none when the position is lost).
    #[must_use]
    pub fn winning_edges(&self, cuts: &[u32]) -> Vec<u32> {
        let analysis = self.analysis(cuts);
        if analysis.value == 0 {
            return Vec::new();
        }
        analysis.edges_to(0)
    }

    /// The position after cutting `edge` (0-based) from `cuts`: the cut edges
    /// still attached to the ground, and `edge`.
    #[must_use]
    pub fn after_cut(&self, cuts: &[u32], edge: u32) -> Cuts {
        self.analysis(cuts).after_cut(&self.graph, cuts, edge)
    }

    fn analysis(&self, cuts: &[u32]) -> Arc<Analysis> {
        if let Ok(cache) = self.cache.lock()
            && let Some((cached, analysis)) = cache.as_ref()
            && **cached == *cuts
        {
            return Arc::clone(analysis);
        }
        let analysis = Arc::new(Analysis::new(&self.graph, &self.incident, cuts));
        if let Ok(mut cache) = self.cache.lock() {
            *cache = Some((cuts.into(), Arc::clone(&analysis)));
        }
        analysis
    }
}

/// A vertex on the depth-first search's stack: its index and input number,
/// its next and last entries, the edge it was reached by and its depth.
#[derive(Clone, Copy, Debug)]
struct Frame {
    index: u32,
    vertex: u32,
    at: usize,
    end: usize,
    parent_edge: u32,
    depth: u32,
}

/// A back edge of the search tree: its lower and upper ends (as preorder
/// indices) and its id.
#[derive(Clone, Copy, Debug)]
struct BackEdge {
    lower: u32,
    upper: u32,
    id: u32,
}

/// One position analysed: the depth-first search tree of the part attached to
/// the ground, its bridges and 2-edge-connected components, and their values.
/// Vertices are numbered by preorder (`index`); the ground is 0.
#[derive(Debug)]
struct Analysis {
    /// Each input vertex's preorder index, [`NONE`] when not attached.
    index: Vec<u32>,
    /// The parent's index ([`NONE`] for the ground).
    parent: Vec<u32>,
    /// The tree edge to the parent.
    parent_edge: Vec<u32>,
    depth: Vec<u32>,
    /// The number of vertices in the subtree.
    size: Vec<u32>,
    /// How many back edges pass over the edge to the parent (0: a bridge).
    cover: Vec<u32>,
    back: Vec<BackEdge>,
    /// Loops: edge and index of their vertex.
    loops: Vec<(u32, u32)>,
    /// Nim-sum of the hanging contributions over the subtree, within the
    /// vertex's component.
    sub_weight: Vec<u64>,
    /// Ends of the component's edges within the subtree, within the
    /// vertex's component (a loop counts twice, the edge to the parent once).
    sub_degree: Vec<u64>,
    /// The index of the root of the vertex's component.
    comp_root: Vec<u32>,
    /// At a component's root: the value of the component with everything
    /// hanging below it.
    comp_value: Vec<u64>,
    /// Edges attached to the ground and not cut.
    live_edges: u64,
    /// The value of the position.
    value: u64,
}

impl Analysis {
    #[allow(clippy::too_many_lines)]
    fn new(graph: &Graph, incident: &Csr, cuts: &[u32]) -> Self {
        let m = graph.edges().len();
        let mut cut = vec![false; m];
        for &e in cuts {
            if let Some(flag) = cut.get_mut(e as usize) {
                *flag = true;
            }
        }
        let mut index = vec![NONE; graph.vertex_count()];
        let mut parent = Vec::new();
        let mut parent_edge = Vec::new();
        let mut depth = Vec::new();
        let mut back = Vec::new();
        let mut loops = Vec::new();
        // Depth-first search from the ground, iterative: a frame is a vertex's
        // index and its next entry. (A graph of no vertex, which the parser
        // never gives, is a ground alone.)
        if let Some(ground) = index.first_mut() {
            *ground = 0;
        }
        parent.push(NONE);
        parent_edge.push(NONE);
        depth.push(0u32);
        let mut stack = vec![Frame {
            index: 0,
            vertex: 0,
            at: 0,
            end: incident.offsets.get(1).copied().unwrap_or(0),
            parent_edge: NONE,
            depth: 0,
        }];
        // Most positions asked about are whole graphs: no lookups then.
        let any_cut = cut.contains(&true);
        while let Some(frame) = stack.last_mut() {
            if frame.at == frame.end {
                stack.pop();
                continue;
            }
            let at = frame.at;
            frame.at += 1;
            let (y, id) = (incident.targets[at], incident.edge_ids[at]);
            if any_cut && cut[id as usize] {
                continue;
            }
            let x = frame.index;
            if y == frame.vertex {
                loops.push((id, x));
                continue;
            }
            if id == frame.parent_edge {
                continue;
            }
            let yi = index[y as usize];
            if yi == NONE {
                let yi = parent.len() as u32;
                index[y as usize] = yi;
                let d = frame.depth + 1;
                parent.push(x);
                parent_edge.push(id);
                depth.push(d);
                stack.push(Frame {
                    index: yi,
                    vertex: y,
                    at: incident.offsets[y as usize],
                    end: incident.offsets[y as usize + 1],
                    parent_edge: id,
                    depth: d,
                });
            } else if depth[yi as usize] < frame.depth {
                back.push(BackEdge {
                    lower: x,
                    upper: yi,
                    id,
                });
            }
        }
        drop(stack);
        let count = parent.len();
        // Bottom-up, in reverse preorder: subtree sizes, covers, bridges,
        // components and their values.
        let mut size = vec![1u32; count];
        let mut cover = vec![0u32; count];
        let mut degree = vec![0u64; count];
        for b in &back {
            cover[b.lower as usize] = cover[b.lower as usize].wrapping_add(1);
            cover[b.upper as usize] = cover[b.upper as usize].wrapping_sub(1);
            degree[b.lower as usize] += 1;
            degree[b.upper as usize] += 1;
        }
        for &(_, x) in &loops {
            degree[x as usize] += 2;
        }
        // `weight` holds the hanging contributions, then the subtree's
        // nim-sum; `degree` the ends, then the subtree's sum.
        let mut weight = vec![0u64; count];
        let mut comp_value = vec![0u64; count];
        for i in (0..count).rev() {
            if i == 0 {
                comp_value[0] = weight[0] ^ ((degree[0] / 2) & 1);
                break;
            }
            let p = parent[i] as usize;
            size[p] += size[i];
            cover[p] = cover[p].wrapping_add(cover[i]);
            if cover[i] == 0 {
                // A bridge: the component rooted here is complete.
                comp_value[i] = weight[i] ^ ((degree[i] / 2) & 1);
                weight[p] ^= comp_value[i] + 1;
            } else {
                degree[i] += 1;
                degree[p] += degree[i] + 1;
                weight[p] ^= weight[i];
            }
        }
        let mut comp_root = vec![0u32; count];
        for i in 1..count {
            comp_root[i] = if cover[i] == 0 {
                i as u32
            } else {
                comp_root[parent[i] as usize]
            };
        }
        let live_edges = (count as u64 - 1) + back.len() as u64 + loops.len() as u64;
        Self {
            index,
            parent,
            parent_edge,
            depth,
            size,
            cover,
            back,
            loops,
            sub_weight: weight,
            sub_degree: degree,
            comp_root,
            value: comp_value[0],
            comp_value,
            live_edges,
        }
    }

    /// The number of attached vertices.
    fn count(&self) -> usize {
        self.parent.len()
    }

    /// The edges a player may cut, increasing.
    fn live(&self) -> Vec<u32> {
        let mut edges: Vec<u32> = self.parent_edge[1..].to_vec();
        edges.extend(self.back.iter().map(|b| b.id));
        edges.extend(self.loops.iter().map(|&(e, _)| e));
        edges.sort_unstable();
        edges
    }

    /// Edges within the subtree of non-root `i`, within its component.
    fn inner_edges(&self, i: usize) -> u64 {
        (self.sub_degree[i] - u64::from(self.cover[i]) - 1) / 2
    }

    /// The edges neither cut (`cuts`, sorted) nor attached to the ground: those
    /// the search from the ground did not reach.
    fn hanging_edges(&self, graph: &Graph, cuts: &[u32]) -> Vec<u32> {
        (0..graph.edges().len() as u32)
            .filter(|e| cuts.binary_search(e).is_err())
            .filter(|&e| self.index[graph.edges()[e as usize].0 as usize] == NONE)
            .collect()
    }

    /// The position after cutting `edge` from `cuts`.
    fn after_cut(&self, graph: &Graph, cuts: &[u32], edge: u32) -> Cuts {
        // A bridge's cut drops the subtree below it: preorder indices
        // `fallen.0..fallen.1`.
        let child = graph.edges().get(edge as usize).and_then(|&(u, v)| {
            [u, v]
                .into_iter()
                .map(|x| self.index[x as usize])
                .find(|&i| i != NONE && i != 0 && self.parent_edge[i as usize] == edge)
        });
        let fallen = child
            .filter(|&i| self.cover[i as usize] == 0)
            .map_or((0, 0), |i| (i, i + self.size[i as usize]));
        let attached = |v: u32| {
            let i = self.index[v as usize];
            i != NONE && !(fallen.0..fallen.1).contains(&i)
        };
        let mut after: Vec<u32> = cuts
            .iter()
            .copied()
            .filter(|&e| {
                e != edge
                    && graph
                        .edges()
                        .get(e as usize)
                        .is_some_and(|&(u, v)| attached(u) || attached(v))
            })
            .collect();
        let at = after.partition_point(|&e| e < edge);
        after.insert(at, edge);
        after.into()
    }

    /// Every edge whose cut leaves value `target`, increasing.
    #[allow(clippy::too_many_lines)]
    fn edges_to(&self, target: u64) -> Vec<u32> {
        let count = self.count();
        let mut wins = Vec::new();
        // After a move at most `live_edges - 1` edges are left.
        if target >= self.live_edges {
            return wins;
        }
        // What each component's part must be worth; cutting bridges.
        let mut need = vec![NO_NEED; count];
        need[0] = target;
        for i in 1..count {
            if self.cover[i] != 0 {
                continue;
            }
            let r = self.comp_root[self.parent[i] as usize] as usize;
            if need[r] == NO_NEED {
                continue;
            }
            let y = need[r] ^ self.comp_value[r] ^ (self.comp_value[i] + 1);
            if y == 0 {
                wins.push(self.parent_edge[i]);
            } else {
                need[i] = y - 1;
            }
        }
        // A cut that leaves the component 2-edge-connected flips its parity.
        let flips = |r: usize| need[r] != NO_NEED && self.comp_value[r] ^ 1 == need[r];
        for &(e, x) in &self.loops {
            if flips(self.comp_root[x as usize] as usize) {
                wins.push(e);
            }
        }
        if !self.back.is_empty() {
            self.class_cuts(&need, &mut wins);
        }
        wins.sort_unstable();
        wins
    }

    /// The winning cuts of the non-bridge, non-loop edges: by the classes of
    /// 2-edge cuts.
    #[allow(clippy::too_many_lines)]
    fn class_cuts(&self, need: &[u64], wins: &mut Vec<u32>) {
        let count = self.count();
        let flips = |r: usize| need[r] != NO_NEED && self.comp_value[r] ^ 1 == need[r];
        // high[i]: the depth of the deepest upper end of a back edge over the
        // edge to i's parent, and that back edge; back edges by decreasing
        // depth of their upper end, each walking up from its lower end over
        // the tree edges not yet reached (union-find).
        let max_depth = self.depth.iter().copied().max().unwrap_or(0) as usize;
        let mut by_depth = vec![0u32; max_depth + 2];
        for b in &self.back {
            by_depth[self.depth[b.upper as usize] as usize + 1] += 1;
        }
        for d in 0..=max_depth {
            by_depth[d + 1] += by_depth[d];
        }
        let mut sorted = vec![0u32; self.back.len()];
        for (k, b) in self.back.iter().enumerate() {
            let slot = &mut by_depth[self.depth[b.upper as usize] as usize];
            sorted[*slot as usize] = k as u32;
            *slot += 1;
        }
        drop(by_depth);
        let mut up: Vec<u32> = (0..count as u32).collect();
        let mut high = vec![NONE; count];
        let mut high_back = vec![NONE; count];
        let find = |up: &mut [u32], mut v: u32| {
            while up[v as usize] != v {
                let next = up[up[v as usize] as usize];
                up[v as usize] = next;
                v = next;
            }
            v
        };
        for &k in sorted.iter().rev() {
            let b = self.back[k as usize];
            let top = self.depth[b.upper as usize];
            let mut v = find(&mut up, b.lower);
            while self.depth[v as usize] > top {
                high[v as usize] = top;
                high_back[v as usize] = k;
                let p = self.parent[v as usize];
                up[v as usize] = p;
                v = find(&mut up, p);
            }
        }
        drop(up);
        drop(sorted);
        // The class chains: each tree edge links to the nearest tree edge
        // above it with the same back edges over it (the deepest ancestor
        // with the same count, if above the highest reach).
        let max_cover = self.cover.iter().copied().max().unwrap_or(0) as usize;
        let mut deepest = vec![NONE; max_cover + 1];
        let mut saved = vec![NONE; count];
        let mut below = vec![NONE; count];
        let mut linked = vec![false; count];
        let mut path: Vec<u32> = Vec::new();
        for i in 0..count {
            while let Some(&t) = path.last() {
                if (i as u32) < t + self.size[t as usize] {
                    break;
                }
                path.pop();
                let c = self.cover[t as usize];
                if t != 0 && c > 0 {
                    deepest[c as usize] = saved[t as usize];
                }
            }
            let c = self.cover[i];
            if i != 0 && c > 0 {
                let w = deepest[c as usize];
                if w != NONE && self.depth[w as usize] > high[i] {
                    below[w as usize] = i as u32;
                    linked[i] = true;
                }
                saved[i] = w;
                deepest[c as usize] = i as u32;
            }
            path.push(i as u32);
        }
        drop((deepest, saved, path));
        let mut back_in_class = vec![false; self.back.len()];
        let bits = u64::BITS - (self.live_edges + 1).leading_zeros();
        let mut chains = Chains::default();
        let mut members: Vec<usize> = Vec::new();
        let mut pieces: Vec<u64> = Vec::new();
        let mut cut_edges: Vec<u32> = Vec::new();
        for head in 1..count {
            if self.cover[head] == 0 || linked[head] {
                continue;
            }
            members.clear();
            let mut v = head as u32;
            while v != NONE {
                members.push(v as usize);
                v = below[v as usize];
            }
            let c = self.cover[head];
            let with_back = c == 1;
            if with_back {
                back_in_class[high_back[head] as usize] = true;
            }
            let r = self.comp_root[head] as usize;
            if members.len() == 1 && !with_back {
                // Alone in its class.
                if flips(r) {
                    wins.push(self.parent_edge[head]);
                }
                continue;
            }
            if need[r] == NO_NEED {
                continue;
            }
            // The pieces, as (nim-sum of what hangs on them, edges).
            let s = members.len();
            let first = members[0];
            let last = members[s - 1];
            let all_edges = self.sub_degree[r] / 2;
            let top = (
                self.sub_weight[r] ^ self.sub_weight[first],
                all_edges - self.inner_edges(first) - 1 - u64::from(c),
            );
            let bottom = (self.sub_weight[last], self.inner_edges(last));
            pieces.clear();
            cut_edges.clear();
            let value = |(weight, edges): (u64, u64)| weight ^ (edges & 1);
            if with_back {
                pieces.push(value(top));
            } else {
                pieces.push(value((top.0 ^ bottom.0, top.1 + bottom.1 + u64::from(c))));
            }
            for pair in members.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                pieces.push(value((
                    self.sub_weight[a] ^ self.sub_weight[b],
                    self.inner_edges(a) - self.inner_edges(b) - 1,
                )));
            }
            cut_edges.extend(members.iter().map(|&m| self.parent_edge[m]));
            if with_back {
                pieces.push(value(bottom));
                cut_edges.push(self.back[high_back[head] as usize].id);
            }
            debug_assert_eq!(
                pieces.iter().fold(0, |x, &w| x ^ w) ^ (cut_edges.len() as u64 & 1),
                self.comp_value[r],
                "the pieces of a class fuse back to their component"
            );
            chains.cuts_to(&pieces, need[r], bits, |k| wins.push(cut_edges[k]));
        }
        for (k, b) in self.back.iter().enumerate() {
            if !back_in_class[k] && flips(self.comp_root[b.lower as usize] as usize) {
                wins.push(b.id);
            }
        }
    }
}

/// The values of the chains left by cutting each edge of a cycle of fused
/// pieces.
#[derive(Debug, Default)]
struct Chains {
    trie: XorPlusTrie,
    order: Vec<u64>,
    down: Vec<u64>,
    up: Vec<u64>,
}

impl Chains {
    /// Pieces `S_0, ..., S_q` (their fused values) in a cycle, edge `k`
    /// joining `S_k` and `S_k+1 mod q+1`, the root in `S_0`: calls `hit(k)` for
    /// each edge `k` whose cut leaves the value `need`.
    fn cuts_to(&mut self, pieces: &[u64], need: u64, bits: u32, mut hit: impl FnMut(usize)) {
        let q = pieces.len();
        // Going one way: cutting edge k leaves S_1, ..., S_k hanging from the
        // root through edge 0; the chain's far end is S_k. Steps in the order
        // S_q-1, ..., S_1: token j (0-based) starts at S_(q-1-j).
        self.order.clear();
        self.order.extend(pieces[1..].iter().rev());
        chain_values(&self.order, bits, &mut self.trie, &mut self.down);
        // The other way: cutting edge k leaves S_q-1, ..., S_k+1 hanging
        // through edge q-1; token j starts at S_(j+1).
        self.order.clear();
        self.order.extend(&pieces[1..]);
        chain_values(&self.order, bits, &mut self.trie, &mut self.up);
        for k in 0..q {
            // Edge k: S_1..S_k one way (token q-1-k), S_k+1..S_q-1 the other
            // (token k).
            let one = if k == 0 { 0 } else { self.down[q - 1 - k] + 1 };
            let other = if k == q - 1 { 0 } else { self.up[k] + 1 };
            if pieces[0] ^ one ^ other == need {
                hit(k);
            }
        }
    }
}

/// `out[k]`: the value of the chain whose far end is piece `k` of `steps` and
/// whose near end is the last piece: token `k` starts at `steps[k]`, and each
/// later step `j` maps it to `steps[j] xor (x + 1)`. `bits` bounds the values
/// (every one is the value of a game of fewer than `2^bits - 1` edges).
fn chain_values(steps: &[u64], bits: u32, trie: &mut XorPlusTrie, out: &mut Vec<u64>) {
    out.clear();
    // The trie holds values of up to 32 bits: enough for any graph of fewer
    // than 2^32 - 2 edges.
    if steps.len() <= TRIE_THRESHOLD || bits > u32::BITS {
        for k in 0..steps.len() {
            let mut x = steps[k];
            for &w in &steps[k + 1..] {
                x = w ^ (x + 1);
            }
            out.push(x);
        }
        return;
    }
    out.resize(steps.len(), 0);
    trie.reset(bits);
    for (k, &w) in steps.iter().enumerate() {
        // Every value, hence every step, is below 2^bits <= 2^32.
        let w = w as u32;
        trie.increment_all();
        trie.xor_all(w);
        trie.insert(w, k as u32);
    }
    trie.read(out);
}

/// A binary trie of distinct values, least significant bit at the root, with
/// the global operations `x -> x + 1` (a carry walks down the trie, flipping
/// the bit of each node it passes) and `x -> x xor w` (a mask at the root).
/// Leaves hold a token each.
///
/// Masks stay where they were put: a node's mask applies to the bits of its
/// whole subtree, bit 0 to the bit the node branches on. A walk from the root
/// carries the xor of the masks above it, so each operation touches only the
/// nodes on its path.
#[derive(Debug, Default)]
struct XorPlusTrie {
    nodes: Vec<TrieNode>,
    bits: u32,
}

/// A node of [`XorPlusTrie`].
#[derive(Clone, Copy, Debug)]
struct TrieNode {
    /// Children by stored bit; at a leaf, `[token, _]`.
    child: [u32; 2],
    /// A mask for the values of the subtree, shifted so that bit 0 is the
    /// bit this node branches on (values have at most 32 bits: see
    /// [`chain_values`]).
    mask: u32,
}

impl XorPlusTrie {
    fn reset(&mut self, bits: u32) {
        self.nodes.clear();
        self.bits = bits;
        self.node(0);
    }

    fn node(&mut self, mask: u32) -> u32 {
        self.nodes.push(TrieNode {
            child: [NONE, NONE],
            mask,
        });
        (self.nodes.len() - 1) as u32
    }

    fn xor_all(&mut self, w: u32) {
        self.nodes[0].mask ^= w;
    }

    fn increment_all(&mut self) {
        let mut node = 0usize;
        let mut above = 0u32;
        for _ in 0..self.bits {
            let TrieNode { child, mask } = self.nodes[node];
            let here = above ^ mask;
            // The values whose bit is 1 (stored under `1 xor flip`) become 0
            // and carry on; the others become 1 and stop.
            let ones = child[(1 ^ (here & 1)) as usize];
            self.nodes[node].mask = mask ^ 1;
            if ones == NONE {
                return;
            }
            above = here >> 1;
            node = ones as usize;
        }
        debug_assert!(false, "a chain value overflowed its bits");
    }

    fn insert(&mut self, value: u32, token: u32) {
        let mut node = 0usize;
        let mut above = 0u32;
        for bit in 0..self.bits {
            let here = above ^ self.nodes[node].mask;
            let stored = (((value >> bit) ^ here) & 1) as usize;
            let next = self.nodes[node].child[stored];
            if next == NONE {
                // A new node takes the masks above it, to cancel them.
                let created = self.node(here >> 1);
                self.nodes[node].child[stored] = created;
                node = created as usize;
            } else {
                node = next as usize;
            }
            above = here >> 1;
        }
        let leaf = &mut self.nodes[node].child[0];
        debug_assert_eq!(*leaf, NONE, "values are distinct");
        *leaf = token;
    }

    fn read(&self, out: &mut [u64]) {
        let mut stack = vec![(0u32, 0u32, 0u32, 0u64)];
        while let Some((node, depth, above, value)) = stack.pop() {
            let TrieNode { child, mask } = self.nodes[node as usize];
            if depth == self.bits {
                if let Some(slot) = out.get_mut(child[0] as usize) {
                    *slot = value;
                }
                continue;
            }
            let here = above ^ mask;
            for (stored, c) in child.into_iter().enumerate() {
                if c != NONE {
                    let bit = u64::from((stored as u32 ^ here) & 1);
                    stack.push((c, depth + 1, here >> 1, value | (bit << depth)));
                }
            }
        }
    }
}

impl Family for Hackenbush {
    type Position = Cuts;

    /// The graph grounded at vertex 0, its cut edges and those no longer
    /// joined to the ground.
    fn drawing(&self, cuts: &Cuts) -> Option<Drawing> {
        let mut drawing = super::graph_drawing(&self.graph)?;
        drawing.cut = cuts.to_vec();
        drawing.ground = Some(0);
        drawing.hanging = self.analysis(cuts).hanging_edges(&self.graph, cuts);
        Some(Drawing::Graph(drawing))
    }

    fn write_position(&self, cuts: &Cuts, out: &mut String) {
        out.push_str(&self.text);
        if !cuts.is_empty() {
            out.push_str(", [");
            for (k, e) in cuts.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                out.push_str(&(u64::from(*e) + 1).to_string());
            }
            out.push(']');
        }
    }

    /// Every cut. A position of `L` edges has at least `L + 1` positions
    /// (itself and one per cut), each listing its moves in time linear in
    /// the graph: a search is refused when `L + 1` passes `limit`, or when
    /// `SEARCH_STEPS_PER_EDGE` steps for each edge of each position of a
    /// path, `L (L + 1) / 2` edges, pass the search work.
    fn moves(&self, cuts: &Cuts, limit: usize) -> Result<Vec<Vec<Cuts>>, SearchError> {
        let analysis = self.analysis(cuts);
        let edges = analysis.live_edges;
        if edges >= limit as u64 {
            return Err(SearchError::StateLimit { limit });
        }
        let work = edges
            .saturating_mul(edges + 1)
            .saturating_mul(SEARCH_STEPS_PER_EDGE / 2);
        if work > self.search_work {
            let reason = format!(
                "searching Green Hackenbush positions (misere play, compound games) lists each \
                 position's moves in time linear in the graph, and this position of {edges} \
                 edges has at least {} positions: about {work} steps ({SEARCH_STEPS_PER_EDGE} an \
                 edge of each position, for a path), more than the {} a search of it may take \
                 (the work limit)",
                edges + 1,
                self.search_work
            );
            return Err(SearchError::TheoryLimit {
                refusal: Refusal::new(reason, &[Limit::Work]),
            });
        }
        Ok(analysis
            .live()
            .into_iter()
            .map(|e| vec![analysis.after_cut(&self.graph, cuts, e)])
            .collect())
    }

    fn describe_move(&self, from: &Cuts, to: &[Cuts]) -> String {
        // Positions list their cuts in increasing order.
        let edge = to
            .first()
            .and_then(|after| after.iter().find(|e| from.binary_search(e).is_err()));
        match edge.and_then(|&e| Some((e, *self.graph.edges().get(e as usize)?))) {
            Some((e, (u, v))) => format!(
                "cut edge {} ({}-{})",
                u64::from(e) + 1,
                u64::from(u) + 1,
                u64::from(v) + 1
            ),
            None => "a move".to_owned(),
        }
    }

    fn nimber_by_theory(&self, cuts: &Cuts) -> Option<(BigUint, &'static str)> {
        Some((self.nimber(cuts).into(), METHOD))
    }

    fn moves_to_nimber_by_theory(
        &self,
        cuts: &Cuts,
        target: &BigUint,
        max: usize,
    ) -> Option<MovesTo<Cuts>> {
        let Some(target) = target.to_u64() else {
            return Some(MovesTo::default());
        };
        let analysis = self.analysis(cuts);
        let edges = analysis.edges_to(target);
        Some(MovesTo {
            count: edges.len().into(),
            listed: edges
                .iter()
                .take(max)
                .map(|&e| vec![analysis.after_cut(&self.graph, cuts, e)])
                .collect(),
        })
    }
}

/// Bytes the analysis of a graph of `vertices` and `edges` takes, roughly:
/// about 150 bytes a vertex and 60 an edge, besides the graph.
fn analysis_bytes(vertices: u64, edges: u64) -> u64 {
    vertices
        .saturating_mul(150)
        .saturating_add(edges.saturating_mul(60))
}

/// Reads the list of cut edges `[e1, ...]` of a graph of `m` edges.
fn cut_list_argument(term: &Term, value: &Value, game: &Hackenbush) -> Result<Cuts, LangError> {
    let ValueKind::List(items) = &value.kind else {
        return Err(LangError::new(
            format!(
                "`{}` takes the list of edges cut so far here, `[e1, ...]` (edges numbered by \
                 their line, from 1), found `{value}`",
                term.name
            ),
            value.span,
        ));
    };
    let m = game.graph.edges().len();
    let mut edges = Vec::with_capacity(items.len());
    for item in items {
        let ValueKind::Integer(edge) = &item.kind else {
            return Err(LangError::new(
                format!("an edge is a number in 1..{m}, found `{item}`"),
                item.span,
            ));
        };
        match u64::try_from(edge) {
            Ok(e) if e >= 1 && e <= m as u64 => edges.push((e, item.span)),
            _ => {
                return Err(LangError::new(
                    format!("edge {edge} is out of 1..{m}"),
                    item.span,
                ));
            }
        }
    }
    edges.sort_unstable_by_key(|&(e, _)| e);
    if let Some(pair) = edges.windows(2).find(|pair| pair[0].0 == pair[1].0) {
        return Err(LangError::new(
            format!("edge {} is listed twice among the cut edges", pair[1].0),
            pair[1].1,
        ));
    }
    let ids: Vec<u64> = edges.iter().map(|&(e, _)| e).collect();
    game.cuts(&ids)
        .map_err(|error| LangError::new(error.to_string(), value.span))
}

fn build(term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
    no_params(term)?;
    if let Some(extra) = term.args.get(2) {
        return Err(LangError::new(
            "`hackenbush` takes a graph and, after a move, the list of edges cut so far",
            extra.span,
        )
        .with_help(
            "for example `hackenbush(\"3 3; 1 2; 2 3; 3 1\")` or `hackenbush(@g.txt, [2])`",
        ));
    }
    let input = graph_argument(term, 0, context)?;
    let bytes = analysis_bytes(
        input.graph.vertex_count() as u64,
        input.graph.edges().len() as u64,
    );
    if bytes > context.limits.bytes {
        return Err(LangError::new(
            format!(
                "Green Hackenbush on this graph needs about {} MiB, more than the memory limit \
                 of {} MiB",
                bytes >> 20,
                context.limits.bytes >> 20
            ),
            term.args[0].span,
        )
        .as_limit(Limit::Memory));
    }
    let game = Arc::new(Hackenbush::from_input(input).with_search_work(context.limits.work));
    let cuts = match term.args.get(1) {
        Some(value) => cut_list_argument(term, value, &game)?,
        None => Arc::from([]),
    };
    Ok(Group::new("hackenbush", vec![part(&game, cuts)]))
}

/// The catalogue entry.
pub(crate) const ENTRY: GameEntry = GameEntry {
    name: "hackenbush",
    summary: "Green Hackenbush: cut edges of a graph grounded at vertex 1",
    rules: "hackenbush(GRAPH): GRAPH is `@PATH` or a string \"n m; u v; ...\" (loops and repeated \
            edges allowed); vertex 1 is the ground. A move deletes one edge, and whatever is no \
            longer connected to the ground disappears; edges not connected to the ground at the \
            start do not count. A position after moves is written hackenbush(GRAPH, [e1, ..., \
            ek]): the edges cut so far, numbered in the order the graph lists them, from 1 (the \
            positions moves lead to leave out cut edges that fell with their part). Theory \
            (Winning Ways, ch. 7): by the fusion principle each 2-edge-connected component is \
            worth the parity of its edges, and by the colon principle a branch through a bridge \
            is worth its value plus one, branches at a vertex adding as a nim-sum. The winning \
            moves (which edge to cut) are counted exactly for graphs of any size: bridges \
            top-down, other edges by the classes of 2-edge cuts of their component. Misere play \
            and compound games are searched, for small graphs.",
    syntax: "hackenbush(GRAPH), hackenbush(GRAPH, [e1, ..., ek])",
    examples: &[
        "hackenbush(\"4 4; 1 2; 2 3; 3 4; 4 2\")",
        "hackenbush(\"3 3; 1 2; 1 2; 2 3\")",
        "hackenbush(\"5 6; 1 2; 2 3; 3 1; 3 4; 4 5; 5 5\", [2])",
    ],
    kind: EntryKind::Game(build),
    heap_rule: None,
    drawing: DrawingKind::Graph,
    every_start: None,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Rules;
    use crate::testing::{SplitMix as Rng, graph_text as text_of};
    use crate::theory::game::Outcome;
    use crate::theory::solver::Solver;
    use proptest::prelude::*;

    fn game(n: u32, edges: &[(u32, u32)]) -> Hackenbush {
        let text = text_of(n, edges);
        Hackenbush::new(Graph::new(n, edges.to_vec()), format!("\"{text}\""))
    }

    /// The hanging edges a drawing shows are those no path of uncut edges
    /// joins to the ground, as a plain search from the ground finds them.
    #[test]
    fn drawings_show_the_edges_hanging_from_a_cut() {
        let mut rng = Rng::new(91);
        for _ in 0..300 {
            let (n, edges) = random_graph(&mut rng, 9);
            let mut cuts: Vec<u32> = (0..edges.len() as u32)
                .filter(|_| rng.below(3) == 0)
                .collect();
            cuts.sort_unstable();
            let mut reached = vec![false; n as usize];
            let mut stack = vec![0u32];
            if let Some(ground) = reached.first_mut() {
                *ground = true;
            }
            while let Some(u) = stack.pop() {
                for (e, &(a, b)) in edges.iter().enumerate() {
                    let other = if a == u {
                        b
                    } else if b == u {
                        a
                    } else {
                        continue;
                    };
                    if cuts.binary_search(&(e as u32)).is_err() && !reached[other as usize] {
                        reached[other as usize] = true;
                        stack.push(other);
                    }
                }
            }
            let expected: Vec<u32> = (0..edges.len() as u32)
                .filter(|&e| {
                    cuts.binary_search(&e).is_err() && !reached[edges[e as usize].0 as usize]
                })
                .collect();
            let Some(Drawing::Graph(drawing)) = game(n, &edges).drawing(&cuts.clone().into())
            else {
                panic!("a Hackenbush position is drawn as a graph");
            };
            assert_eq!(drawing.hanging, expected, "{n} {edges:?} cut {cuts:?}");
            assert_eq!(drawing.cut, cuts);
        }
    }

    /// Random small graphs of many shapes: multigraphs with loops, trees,
    /// cycles, cacti, several parts, the ground inside a cycle or not.
    fn random_graph(rng: &mut Rng, max_edges: u64) -> (u32, Vec<(u32, u32)>) {
        let shape = rng.below(6);
        let mut edges = Vec::new();
        let n;
        match shape {
            0 => {
                // Any multigraph.
                n = 1 + rng.below(6) as u32;
                for _ in 0..rng.below(max_edges + 1) {
                    edges.push((
                        rng.below(u64::from(n)) as u32,
                        rng.below(u64::from(n)) as u32,
                    ));
                }
            }
            1 => {
                // A tree with some extra edges and loops.
                n = 1 + rng.below(max_edges.min(9)) as u32;
                for v in 1..n {
                    edges.push((rng.below(u64::from(v)) as u32, v));
                }
                while (edges.len() as u64) < max_edges && rng.below(3) != 0 {
                    edges.push((
                        rng.below(u64::from(n)) as u32,
                        rng.below(u64::from(n)) as u32,
                    ));
                }
            }
            2 => {
                // A cycle through the ground or hanging from it, with pendants.
                let length = 1 + rng.below(max_edges.min(8)) as u32;
                let start = rng.below(2) as u32;
                let mut count = start + length;
                if start == 1 {
                    edges.push((0, 1));
                }
                for k in 0..length {
                    let a = start + k;
                    let b = if k + 1 == length { start } else { a + 1 };
                    edges.push((a, b));
                }
                while (edges.len() as u64) < max_edges && rng.below(2) == 0 {
                    edges.push((rng.below(u64::from(count)) as u32, count));
                    count += 1;
                }
                n = count;
            }
            3 => {
                // A cactus: cycles and edges hung on vertices already there.
                let mut count = 1u32;
                while (edges.len() as u64) < max_edges {
                    let at = rng.below(u64::from(count)) as u32;
                    let room = max_edges - edges.len() as u64;
                    let length = 1 + rng.below(room.min(5)) as u32;
                    if length == 1 && rng.below(2) == 0 {
                        edges.push((at, at));
                        continue;
                    }
                    if length == 1 {
                        edges.push((at, count));
                        count += 1;
                        continue;
                    }
                    let mut previous = at;
                    for _ in 0..length - 1 {
                        edges.push((previous, count));
                        previous = count;
                        count += 1;
                    }
                    edges.push((previous, at));
                    if rng.below(3) == 0 {
                        break;
                    }
                }
                n = count;
            }
            4 => {
                // A theta: paths between two vertices (the ground or not),
                // each of some length, and pendants.
                let (a, b) = (rng.below(2) as u32, 2);
                let mut count = 3;
                if a == 1 {
                    edges.push((0, 1));
                }
                for _ in 0..2 + rng.below(3) {
                    let mut previous = a;
                    for _ in 0..rng.below(3) {
                        edges.push((previous, count));
                        previous = count;
                        count += 1;
                    }
                    edges.push((previous, b));
                }
                while (edges.len() as u64) < max_edges && rng.below(2) == 0 {
                    edges.push((rng.below(u64::from(count)) as u32, count));
                    count += 1;
                }
                n = count;
            }
            _ => {
                // Two parts, only one of them grounded, and a bridge or not.
                n = 2 + rng.below(6) as u32;
                let half = n / 2;
                for _ in 0..rng.below(max_edges + 1) {
                    let (low, high) = if rng.below(2) == 0 {
                        (0, half)
                    } else {
                        (half, n)
                    };
                    let span = u64::from(high - low).max(1);
                    edges.push((low + rng.below(span) as u32, low + rng.below(span) as u32));
                }
            }
        }
        edges.truncate(max_edges as usize);
        (n.max(1), edges)
    }

    /// Checks the theory at `cuts` against exhaustive search: the nimber and
    /// the exact moves to each of `targets`.
    fn check_against_search(
        solver: &mut Solver<'_, Rules<Hackenbush>>,
        rules: &Rules<Hackenbush>,
        cuts: &Cuts,
        targets: &[u64],
        label: &str,
    ) {
        let family = rules.family();
        let found = solver.nimber(&vec![cuts.clone()]).unwrap();
        assert_eq!(family.nimber(cuts), u64::from(found), "{label} {cuts:?}");
        let moves = family.moves(cuts, usize::MAX).unwrap();
        let values: Vec<u32> = moves
            .iter()
            .map(|to| solver.nimber(&to.clone()).unwrap())
            .collect();
        for &target in targets {
            let mut expected: Vec<Cuts> = moves
                .iter()
                .zip(&values)
                .filter(|&(_, &v)| u64::from(v) == target)
                .map(|(to, _)| to[0].clone())
                .collect();
            let theory = family
                .moves_to_nimber_by_theory(cuts, &target.into(), usize::MAX)
                .unwrap();
            assert_eq!(
                theory.count,
                BigUint::from(expected.len()),
                "{label} {cuts:?} -> {target}"
            );
            let mut listed: Vec<Cuts> = theory
                .listed
                .into_iter()
                .map(|mut to| to.remove(0))
                .collect();
            listed.sort();
            expected.sort();
            assert_eq!(listed, expected, "{label} {cuts:?} -> {target}");
            let two = family
                .moves_to_nimber_by_theory(cuts, &target.into(), 2)
                .unwrap();
            assert_eq!(two.count, BigUint::from(expected.len()));
            assert_eq!(two.listed.len(), expected.len().min(2));
        }
    }

    #[test]
    fn nimbers_and_moves_match_exhaustive_search() {
        let mut rng = Rng::new(14);
        for round in 0..6000 {
            let max_edges = 2 + rng.below(9);
            let (n, edges) = random_graph(&mut rng, max_edges);
            let label = text_of(n, &edges);
            let rules = Rules::new(game(n, &edges));
            let mut solver = Solver::new(&rules);
            let start: Cuts = Arc::from([]);
            let value = rules.family().nimber(&start);
            let mut targets = vec![0, 1, 2, 3, value, value ^ 1, value + 1];
            targets.push(rng.below(8));
            targets.sort_unstable();
            targets.dedup();
            check_against_search(&mut solver, &rules, &start, &targets, &label);
            // A few positions later in the game.
            if round % 3 == 0 {
                let mut position = start.clone();
                loop {
                    let moves = rules.family().moves(&position, usize::MAX).unwrap();
                    if moves.is_empty() {
                        break;
                    }
                    position = moves[rng.below(moves.len() as u64) as usize][0].clone();
                    let value = rules.family().nimber(&position);
                    check_against_search(
                        &mut solver,
                        &rules,
                        &position,
                        &[0, value ^ 1, rng.below(4)],
                        &label,
                    );
                }
            }
        }
    }

    /// All edges whose cut leaves `target`, by recomputing the value after
    /// each cut (the value itself is checked against search above).
    fn edges_to_by_recomputing(game: &Hackenbush, cuts: &[u32], target: u64) -> Vec<u32> {
        let analysis = game.analysis(cuts);
        analysis
            .live()
            .into_iter()
            .filter(|&e| game.nimber(&game.after_cut(cuts, e)) == target)
            .collect()
    }

    /// Medium graphs with long classes of 2-edge cuts (long cycles with
    /// things hanging and a few chords), beyond exhaustive search: the moves
    /// found by the classes against the moves found by recomputing.
    #[test]
    fn moves_inside_components_match_recomputing() {
        let mut rng = Rng::new(2024);
        for round in 0..120 {
            let cycle = 2 + rng.below(if round % 4 == 0 { 260 } else { 40 }) as u32;
            let mut edges = Vec::new();
            let mut count = 1 + cycle;
            // The ground hangs the cycle by a path, or sits on it.
            let entry = if rng.below(2) == 0 {
                edges.push((0, 1));
                1
            } else {
                0
            };
            let on_cycle: Vec<u32> = (0..cycle)
                .map(|k| {
                    if k == 0 {
                        entry
                    } else {
                        k + 1 - u32::from(entry == 0)
                    }
                })
                .collect();
            count = count.max(on_cycle.iter().max().unwrap() + 1);
            for k in 0..cycle as usize {
                edges.push((on_cycle[k], on_cycle[(k + 1) % cycle as usize]));
            }
            let chords = rng.below(4);
            for _ in 0..chords {
                let a = on_cycle[rng.below(u64::from(cycle)) as usize];
                let b = on_cycle[rng.below(u64::from(cycle)) as usize];
                // A chord, or a long path between two vertices of the cycle.
                let mut previous = a;
                for _ in 0..rng.below(if round % 2 == 0 { 3 } else { 120 }) {
                    edges.push((previous, count));
                    previous = count;
                    count += 1;
                }
                edges.push((previous, b));
            }
            // Hanging trees, loops and small cycles.
            for _ in 0..rng.below(u64::from(cycle) + 5) {
                let at = rng.below(u64::from(count)) as u32;
                match rng.below(4) {
                    0 => edges.push((at, at)),
                    1 => {
                        edges.push((at, count));
                        edges.push((count, at));
                        count += 1;
                    }
                    _ => {
                        edges.push((at, count));
                        count += 1;
                    }
                }
            }
            let family = game(count, &edges);
            let start: Vec<u32> = Vec::new();
            let value = family.nimber(&start);
            for target in [0, value ^ 1, rng.below(6), value.saturating_sub(1)] {
                assert_eq!(
                    family.edges_to_nimber(&start, target),
                    edges_to_by_recomputing(&family, &start, target),
                    "round {round}: {} -> {target}",
                    text_of(count, &edges)
                );
            }
            // And after a cut or two.
            let mut cuts: Vec<u32> = Vec::new();
            for _ in 0..2 {
                let live = family.analysis(&cuts).live();
                if live.is_empty() {
                    break;
                }
                let e = live[rng.below(live.len() as u64) as usize];
                cuts = family.after_cut(&cuts, e).to_vec();
                for target in [0, rng.below(4)] {
                    assert_eq!(
                        family.edges_to_nimber(&cuts, target),
                        edges_to_by_recomputing(&family, &cuts, target),
                        "round {round} after {cuts:?} -> {target}"
                    );
                }
            }
        }
    }

    /// Larger random graphs (a random tree and random edges, a long cycle
    /// with chords and hanging trees): every target's moves against
    /// recomputing after each cut. Slow in debug builds: run with
    /// `cargo test --release -p grundy --lib hackenbush -- --ignored`.
    #[test]
    #[ignore = "a minute in debug builds; run in release"]
    fn large_graphs_match_recomputing() {
        let mut rng = Rng::new(77);
        for round in 0..24 {
            let n = 200 + rng.below(3000) as u32;
            let mut edges = Vec::new();
            if round % 2 == 0 {
                for v in 1..n {
                    edges.push((rng.below(u64::from(v)) as u32, v));
                }
                let density = 1 + rng.below(20);
                for _ in 0..rng.below(u64::from(n) / density) {
                    edges.push((
                        rng.below(u64::from(n)) as u32,
                        rng.below(u64::from(n)) as u32,
                    ));
                }
            } else {
                let cycle = n / 2;
                edges.extend((0..cycle).map(|v| (v, (v + 1) % cycle)));
                for v in cycle..n {
                    edges.push((rng.below(u64::from(v)) as u32, v));
                }
                for _ in 0..rng.below(6) {
                    edges.push((
                        rng.below(u64::from(n)) as u32,
                        rng.below(u64::from(n)) as u32,
                    ));
                }
            }
            let family = game(n, &edges);
            let value = family.nimber(&[]);
            for target in [0, 1, value ^ 1, rng.below(8)] {
                assert_eq!(
                    family.edges_to_nimber(&[], target),
                    edges_to_by_recomputing(&family, &[], target),
                    "round {round} -> {target}"
                );
            }
        }
    }

    #[test]
    fn the_trie_values_chains_as_the_direct_sum_does() {
        let mut rng = Rng::new(7);
        let mut trie = XorPlusTrie::default();
        for round in 0..300 {
            let length = 1 + rng.below(if round % 10 == 0 { 1500 } else { 300 }) as usize;
            let spread = 1 + rng.below(if round % 2 == 0 { 4 } else { 1000 });
            let steps: Vec<u64> = (0..length).map(|_| rng.below(spread)).collect();
            let bound: u64 = steps.iter().map(|w| w + 1).sum::<u64>() + 2;
            let bits = u64::BITS - bound.leading_zeros();
            let mut direct = Vec::new();
            for k in 0..length {
                let mut x = steps[k];
                for &w in &steps[k + 1..] {
                    x = w ^ (x + 1);
                }
                direct.push(x);
            }
            let mut out = vec![0; length];
            trie.reset(bits);
            for (k, &w) in steps.iter().enumerate() {
                trie.increment_all();
                trie.xor_all(w as u32);
                trie.insert(w as u32, k as u32);
            }
            trie.read(&mut out);
            assert_eq!(out, direct, "round {round}");
            let mut through = Vec::new();
            chain_values(&steps, bits, &mut trie, &mut through);
            assert_eq!(through, direct);
        }
    }

    /// The cactus rule (Winning Ways ch. 7): an even cycle fuses to a vertex, an odd
    /// one to a vertex with one pendant edge; then the colon principle.
    #[test]
    fn cacti_follow_the_cactus_rule() {
        let mut rng = Rng::new(3);
        for _ in 0..400 {
            // Vertices are made in order; `fused[v]` is the vertex of the
            // fused tree that v becomes, `extra[t]` the pendant edges of t,
            // `tree_parent[t]` its parent in that tree.
            let mut edges = Vec::new();
            let mut fused = vec![0u32];
            let mut extra = vec![0u64];
            let mut tree_parent = vec![NONE];
            let mut count = 1u32;
            for _ in 0..1 + rng.below(12) {
                let at = rng.below(u64::from(count)) as u32;
                let length = 1 + rng.below(7) as u32;
                if length == 1 && rng.below(2) == 0 {
                    // A bridge to a new vertex: a new vertex of the tree.
                    edges.push((at, count));
                    fused.push(extra.len() as u32);
                    tree_parent.push(fused[at as usize]);
                    extra.push(0);
                    count += 1;
                    continue;
                }
                // A cycle of `length` edges through `at` (a loop for 1).
                let mut previous = at;
                for _ in 0..length - 1 {
                    edges.push((previous, count));
                    fused.push(fused[at as usize]);
                    previous = count;
                    count += 1;
                }
                edges.push((previous, at));
                extra[fused[at as usize] as usize] += u64::from(length % 2);
            }
            // Colon principle on the fused tree, children made after parents.
            let mut value: Vec<u64> = extra.iter().map(|&pendants| pendants % 2).collect();
            for t in (1..value.len()).rev() {
                let p = tree_parent[t] as usize;
                value[p] ^= value[t] + 1;
            }
            let family = game(count, &edges);
            assert_eq!(family.nimber(&[]), value[0], "{}", text_of(count, &edges));
        }
    }

    #[test]
    fn known_values() {
        let value = |text: &str| {
            let graph = Graph::parse(text, true).unwrap();
            Hackenbush::new(graph, "g").nimber(&[])
        };
        // A stalk of n edges is a heap of n.
        assert_eq!(value("4 3; 1 2; 2 3; 3 4"), 3);
        // Two parallel edges to the ground: a 2-cycle, even: 0.
        assert_eq!(value("2 2; 1 2; 1 2"), 0);
        // A triangle through the ground: 1; hanging by one edge: 2.
        assert_eq!(value("3 3; 1 2; 2 3; 3 1"), 1);
        assert_eq!(value("4 4; 1 2; 2 3; 3 4; 4 2"), 2);
        // Loops at the ground are heaps of one.
        assert_eq!(value("1 3; 1 1; 1 1; 1 1"), 1);
        // Edges away from the ground do not count.
        assert_eq!(value("4 2; 1 2; 3 4"), 1);
        assert_eq!(value("1 0"), 0);
        // The colon principle: a stalk of 2 above a vertex with two
        // branches of 1 and 2: (1 xor 2) + 1 = 4... under one edge: 3 + 1.
        assert_eq!(value("5 4; 1 2; 2 3; 2 4; 4 5"), 4);
    }

    #[test]
    fn a_long_path_and_a_long_cycle_need_no_recursion() {
        let n = 1_000_000u32;
        let mut edges: Vec<(u32, u32)> = (1..n).map(|v| (v - 1, v)).collect();
        let path = Hackenbush::new(Graph::new(n, edges.clone()), "path");
        assert_eq!(path.nimber(&[]), u64::from(n - 1));
        // Cutting edge k leaves a stalk of k.
        assert_eq!(path.edges_to_nimber(&[], 12345), vec![12345]);
        edges.push((n - 1, 0));
        let cycle = Hackenbush::new(Graph::new(n, edges), "cycle");
        // A cycle of n edges through the ground: n mod 2. Cutting edge k
        // (0-based) leaves stalks of k and n - 1 - k edges.
        assert_eq!(cycle.nimber(&[]), 0);
        assert!(cycle.winning_edges(&[]).is_empty());
        let last = u64::from(n) - 1;
        for target in [3, 999_999, 524_287] {
            let expected: Vec<u32> = (0..n)
                .filter(|&k| u64::from(k) ^ (last - u64::from(k)) == target)
                .collect();
            assert_eq!(cycle.edges_to_nimber(&[], target), expected, "{target}");
        }
        // Without carries: 2^popcount(999999) = 4096 ways.
        assert_eq!(cycle.edges_to_nimber(&[], 999_999).len(), 4096);
    }

    #[test]
    fn the_catalogue_reads_writes_and_answers() {
        use crate::testing::{answer, assert_targets};
        let found = answer("hackenbush(\"4 4; 1 2; 2 3; 3 4; 4 2\")");
        assert_eq!(found.nimber, Some(2u32.into()));
        assert_eq!(found.method, METHOD);
        // Winning: cut the stem (edge 1), or an edge of the triangle next to
        // vertex 2 (edges 2 and 4 leave a path of 3 under 1: 0? no: stalk of
        // 1 + path of 2 = 3)... exactly the ones search finds.
        let family = game(4, &[(0, 1), (1, 2), (2, 3), (3, 1)]);
        let rules = Rules::new(family);
        let mut solver = Solver::new(&rules);
        let mut expected: Vec<String> = solver
            .winning_moves(&vec![Arc::from([])])
            .unwrap()
            .iter()
            .map(|to| {
                let mut text = "hackenbush(".to_owned();
                rules.family().write_position(&to[0], &mut text);
                text + ")"
            })
            .collect();
        expected.sort();
        assert_targets(&found, expected.clone(), "hackenbush");
        assert_eq!(found.winning_move_count, BigUint::from(expected.len()));
        // Each target reads back as the same position.
        for target in &expected {
            let again = answer(target);
            assert_eq!(again.nimber, Some(0u32.into()), "{target}");
            assert_eq!(again.position.as_str(), *target);
        }
        for m in &found.winning_moves {
            assert!(m.description.starts_with("cut edge "), "{}", m.description);
        }
        // After cuts; an edge that fell is dropped from the list.
        let after = answer("hackenbush(\"5 6; 1 2; 2 3; 3 1; 3 4; 4 5; 5 5\", [2])");
        assert_eq!(
            after.position.as_str(),
            "hackenbush(\"5 6; 1 2; 2 3; 3 1; 3 4; 4 5; 5 5\", [2])"
        );
        let fell = answer("hackenbush(\"3 2; 1 2; 2 3\", [1, 2])");
        assert_eq!(fell.nimber, Some(0u32.into()));
        // Sums with other games, misère play (searched through the moves).
        let sum = answer("hackenbush(\"3 3; 1 2; 2 3; 3 1\") + nim(1)");
        assert_eq!(sum.nimber, Some(0u32.into()));
        for text in [
            "misere(hackenbush(\"3 3; 1 2; 2 3; 3 1\"))",
            "misere(hackenbush(\"4 5; 1 2; 2 3; 3 1; 3 4; 4 4\") + nim(2))",
        ] {
            let found = answer(text);
            assert!(
                found.winning_move_count > BigUint::from(0u8)
                    || found.outcome == Outcome::PreviousPlayerWins,
                "{text}"
            );
        }
    }

    #[test]
    fn misere_play_by_the_explorer_matches_search() {
        use crate::testing::answer;
        let mut rng = Rng::new(99);
        for _ in 0..200 {
            let (n, edges) = random_graph(&mut rng, 7);
            let text = format!("misere(hackenbush(\"{}\"))", text_of(n, &edges));
            let found = answer(&text);
            let rules = Rules::new(game(n, &edges));
            let mut solver = Solver::new(&rules);
            let start = vec![Cuts::from([])];
            assert_eq!(
                found.outcome,
                solver.misere_outcome(&start).unwrap(),
                "{text}"
            );
            let expected = solver
                .winning_moves_under(crate::theory::game::Convention::Misere, &start)
                .unwrap();
            assert_eq!(
                found.winning_move_count,
                BigUint::from(expected.len()),
                "{text}"
            );
        }
    }

    #[test]
    fn searches_of_large_graphs_are_refused_at_once() {
        use crate::catalogue::build as build_position;
        use crate::lang::parse;
        use crate::sums::analysis::{SolveOptions, solve};
        let n = 30_000u32;
        let path: Vec<(u32, u32)> = (1..n).map(|v| (v - 1, v)).collect();
        let text = format!("misere(hackenbush(\"{}\"))", text_of(n, &path));
        let error = solve(
            &build_position(&parse(&text).unwrap()).unwrap(),
            &SolveOptions::default(),
        )
        .unwrap_err();
        let SearchError::TheoryLimit { refusal } = error else {
            panic!("{error:?}");
        };
        assert_eq!(refusal.raised_by, [Limit::Work]);
        // Normal play answers from theory.
        let text = format!("hackenbush(\"{}\")", text_of(n, &path));
        let found = solve(
            &build_position(&parse(&text).unwrap()).unwrap(),
            &SolveOptions::default(),
        )
        .unwrap();
        assert_eq!(found.nimber, Some((n - 1).into()));
        assert_eq!(found.winning_move_count, BigUint::from(1u8));
    }

    #[test]
    fn graphs_beyond_the_memory_limit_are_refused() {
        use crate::catalogue::build_with;
        use crate::lang::parse;
        let n = 1000u32;
        let path: Vec<(u32, u32)> = (1..n).map(|v| (v - 1, v)).collect();
        let text = format!("hackenbush(\"{}\")", text_of(n, &path));
        let limits = BuildLimits {
            bytes: 100_000,
            ..BuildLimits::default()
        };
        let error = build_with(&parse(&text).unwrap(), limits).unwrap_err();
        assert_eq!(error.limit, Some(Limit::Memory));
        assert!(
            error
                .message
                .contains("Green Hackenbush on this graph needs"),
            "{}",
            error.message
        );
        assert!(build_with(&parse(&text).unwrap(), BuildLimits::default()).is_ok());
    }

    #[test]
    fn bad_cut_lists_are_errors() {
        use crate::catalogue::build as build_position;
        use crate::lang::parse;
        let error = |text: &str| build_position(&parse(text).unwrap()).unwrap_err().message;
        let graph = "\"3 2; 1 2; 2 3\"";
        assert_eq!(
            error(&format!("hackenbush({graph}, [0])")),
            "edge 0 is out of 1..2"
        );
        assert_eq!(
            error(&format!("hackenbush({graph}, [3])")),
            "edge 3 is out of 1..2"
        );
        assert_eq!(
            error(&format!("hackenbush({graph}, [-1])")),
            "edge -1 is out of 1..2"
        );
        assert_eq!(
            error(&format!("hackenbush({graph}, [99999999999999999999999])")),
            "edge 99999999999999999999999 is out of 1..2"
        );
        assert_eq!(
            error(&format!("hackenbush({graph}, [2, 1, 2])")),
            "edge 2 is listed twice among the cut edges"
        );
        assert!(error(&format!("hackenbush({graph}, 2)")).contains("list of edges cut so far"));
        assert!(error(&format!("hackenbush({graph}, [\"a\"])")).contains("an edge is a number"));
        assert!(error(&format!("hackenbush({graph}, [1], [2])")).contains("takes a graph and"));
        assert!(error(&format!("hackenbush[1]({graph})")).contains("takes no parameters"));
        assert!(error("hackenbush()").contains("needs a graph"));
        assert!(error("hackenbush(3)").contains("takes a graph here"));
        assert!(error("hackenbush(\"3 2; 1 2; 2 4\")").contains("line 3: vertex 4 is out of 1..3"));
        assert!(error("hackenbush(@/nonexistent/h.txt)").contains("cannot read"));
        let family = game(3, &[(0, 1), (1, 2)]);
        assert_eq!(
            family.cuts(&[3]),
            Err(CutError::OutOfRange { edge: 3, edges: 2 })
        );
        assert_eq!(family.cuts(&[1, 1]), Err(CutError::Repeated { edge: 1 }));
        // The library never panics on ids out of range: they are ignored.
        assert_eq!(family.nimber(&[7, 1]), 1);
        assert_eq!(family.edges_to_nimber(&[7, 1], 0), vec![0]);
        let empty = Hackenbush::new(Graph::new(0, Vec::new()), "\"0 0\"");
        assert_eq!(empty.nimber(&[]), 0);
        assert!(empty.edges_to_nimber(&[], 0).is_empty());
        assert!(empty.moves(&Arc::from([]), 10).unwrap().is_empty());
    }

    #[test]
    fn moves_drop_the_edges_that_fell() {
        let family = game(4, &[(0, 1), (1, 2), (2, 3), (0, 0)]);
        // Cutting edge 1 after edge 3: edge 3 fell with the stalk.
        assert_eq!(*family.after_cut(&[2], 0), [0]);
        assert_eq!(*family.after_cut(&[2], 3), [2, 3]);
        // A given list keeps its fallen edges; the moves from it drop them.
        let given: Cuts = Arc::from([0, 2]);
        let moves = family.moves(&given, 10).unwrap();
        assert_eq!(moves, vec![vec![Arc::from([0, 3])]]);
        assert_eq!(
            family.describe_move(&Arc::from([]), &[Arc::from([1])]),
            "cut edge 2 (2-3)"
        );
        let mut text = String::new();
        family.write_position(&Arc::from([0, 3]), &mut text);
        assert_eq!(text, "\"4 4; 1 2; 2 3; 3 4; 1 1\", [1, 4]");
        assert_eq!(
            family.moves(&Arc::from([]), 3),
            Err(SearchError::StateLimit { limit: 3 })
        );
        assert!(family.moves(&Arc::from([]), 5).is_ok());
        let family = family.with_search_work(499);
        let Err(SearchError::TheoryLimit { refusal }) = family.moves(&Arc::from([]), 100) else {
            panic!("4 edges: 10 edges in all, 500 steps, above 499");
        };
        assert_eq!(refusal.raised_by, [Limit::Work]);
        assert!(
            refusal.reason.contains("at least 5 positions"),
            "{}",
            refusal.reason
        );
    }

    proptest! {
        #[test]
        fn random_graphs_agree_with_search(
            n in 1u32..6,
            raw in prop::collection::vec((0u32..6, 0u32..6), 0..8),
            cut_mask in 0u32..256,
            target in 0u64..5,
        ) {
            let edges: Vec<(u32, u32)> = raw.iter().map(|&(u, v)| (u % n, v % n)).collect();
            let rules = Rules::new(game(n, &edges));
            let mut solver = Solver::new(&rules);
            let cuts: Vec<u32> = (0..edges.len() as u32).filter(|e| cut_mask >> e & 1 == 1).collect();
            let cuts: Cuts = cuts.into();
            let found = solver.nimber(&vec![cuts.clone()]).unwrap();
            prop_assert_eq!(rules.family().nimber(&cuts), u64::from(found));
            let moves = rules.family().moves(&cuts, usize::MAX).unwrap();
            let mut expected = Vec::new();
            for to in moves {
                if u64::from(solver.nimber(&to).unwrap()) == target {
                    expected.push(to[0].clone());
                }
            }
            let theory = rules.family().moves_to_nimber_by_theory(&cuts, &target.into(), usize::MAX).unwrap();
            let mut listed: Vec<Cuts> = theory.listed.into_iter().map(|mut to| to.remove(0)).collect();
            listed.sort();
            expected.sort();
            prop_assert_eq!(listed, expected);
        }
    }
}
