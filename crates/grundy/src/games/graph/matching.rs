//! Maximum matchings of general graphs, and the vertices some maximum matching
//! misses (the set `D` of the Gallai-Edmonds decomposition).
//!
//! Everything here works on the subgraph induced by the `alive` vertices of a
//! [`Csr`] adjacency (both directions of each edge listed). Loops are ignored
//! (a loop never belongs to a matching) and repeated edges are harmless.
//!
//! # Algorithms
//! - A greedy matching first, after Karp and Sipser: a vertex with a single
//!   exposed neighbour is matched to it, otherwise the exposed vertex of least
//!   degree to its exposed neighbour of least degree (linear time; maximum on
//!   trees, nearly maximum on sparse random graphs and boards).
//! - Then Edmonds' blossom algorithm (*Canad. J. Math.* 17, 1965): one search
//!   from each exposed vertex, blossoms kept as the sets of a union-find
//!   structure on their bases (as in Gabow, *J. ACM* 23, 1976), so a search
//!   costs about the edges it scans. A search that fails drops its whole tree
//!   for the searches after it (no augmenting path ever passes through the
//!   tree of a failed search; Edmonds 1965), so failed searches cost `O(E)` in
//!   all.
//! - When the alive subgraph is bipartite (found by a breadth-first
//!   2-colouring) and those single searches have scanned [`SEARCH_BUDGET`]
//!   times the adjacency without finishing, Hopcroft and Karp (*SIAM J.
//!   Comput.* 2, 1973) finish the matching, in `O(E sqrt V)`, on the vertices
//!   not dropped. On large boards the single searches finish in a few scans
//!   of the adjacency, far sooner than Hopcroft-Karp alone, each of whose
//!   phases scans again the large alternating trees of the vertices that stay
//!   exposed, which the single searches drop once (figures in
//!   docs/BENCHMARKS.md, "Figures behind the code's constants").
//!
//! # The set `D`
//! `D(G)` is the set of vertices that some maximum matching leaves exposed.
//! By the Gallai-Edmonds structure theorem (Lovász and Plummer, *Matching
//! Theory*, 1986, §3.2), once a matching `M` is maximum, `D(G)` is exactly
//! the set of vertices reachable from an `M`-exposed vertex by an alternating
//! path of even length: the *outer* vertices of one Edmonds search grown from
//! every exposed vertex at once ([`missable_with`]). So `D` of every vertex
//! costs one matching and one search.
//!
//! Every loop here is iterative: a path of a million vertices is searched
//! without deep recursion.

use super::Csr;

/// No vertex: the mate of an exposed vertex.
pub(crate) const NONE: u32 = u32::MAX;

/// A maximum matching of the subgraph induced by the `alive` vertices:
/// `mate[v]` is the vertex matched to `v`, or [`NONE`] when `v` is exposed or
/// not alive.
pub(crate) fn maximum_matching(graph: &Csr, alive: &[bool]) -> Vec<u32> {
    let entries = graph.targets.len() as u64 + graph.vertex_count() as u64;
    maximum_matching_within(graph, alive, SEARCH_BUDGET.saturating_mul(entries))
}

/// How many times its adjacency entries the single searches of a bipartite
/// graph may scan before Hopcroft-Karp takes over.
const SEARCH_BUDGET: u64 = 32;

/// As [`maximum_matching`]: on a bipartite graph, the single searches scan at
/// most `budget` adjacency entries, Hopcroft-Karp finishing the matching
/// without the trees they dropped.
fn maximum_matching_within(graph: &Csr, alive: &[bool], budget: u64) -> Vec<u32> {
    let mut mate = greedy_matching(graph, alive);
    let mut forest = Forest::new(graph, alive);
    match two_colouring(graph, alive) {
        None => {
            forest.augment_to_maximum(&mut mate, u64::MAX);
        }
        Some(side) => {
            if !forest.augment_to_maximum(&mut mate, budget) {
                let usable: Vec<bool> = alive
                    .iter()
                    .zip(&forest.dead)
                    .map(|(&alive, &dead)| alive && !dead)
                    .collect();
                hopcroft_karp(graph, &usable, &side, &mut mate);
            }
        }
    }
    mate
}

/// The vertices of the alive subgraph that some maximum matching leaves
/// exposed, `D(G)`: `result[v]` for each vertex (false for vertices not
/// alive).
pub(crate) fn missable(graph: &Csr, alive: &[bool]) -> Vec<bool> {
    let mut mate = maximum_matching(graph, alive);
    missable_with(graph, alive, &mut mate)
}

/// As [`missable`], given a maximum matching `mate` of the alive subgraph.
/// Should `mate` not be maximum after all, the search augments it (so `mate`
/// is maximum on return) and the answer is still right.
pub(crate) fn missable_with(graph: &Csr, alive: &[bool], mate: &mut [u32]) -> Vec<bool> {
    let mut forest = Forest::new(graph, alive);
    loop {
        let roots = (0..graph.vertex_count() as u32)
            .filter(|&v| alive[v as usize] && mate[v as usize] == NONE);
        for root in roots {
            forest.plant(root);
        }
        match forest.grow(mate, u64::MAX) {
            Grown::Found(found) => {
                // Not maximum: augment and search again.
                forest.augment(found, mate);
                forest.clear();
            }
            Grown::Exhausted | Grown::OverBudget => break,
        }
    }
    (0..graph.vertex_count())
        .map(|v| alive[v] && forest.label[v] == EVEN)
        .collect()
}

/// The number of edges of a matching.
pub(crate) fn matching_size(mate: &[u32]) -> usize {
    mate.iter().filter(|&&m| m != NONE).count() / 2
}

/// A greedy maximal matching after Karp and Sipser (*FOCS* 1981): while some
/// vertex has a single exposed neighbour, match it to that neighbour (an edge
/// some maximum matching uses); otherwise match the exposed vertex of least
/// degree to its exposed neighbour of least degree. Maximum on trees, nearly so
/// on sparse random graphs and boards; linear time.
fn greedy_matching(graph: &Csr, alive: &[bool]) -> Vec<u32> {
    let n = graph.vertex_count();
    let mut mate = vec![NONE; n];
    // The number of exposed alive neighbours (repeated edges counted again).
    let mut degree: Vec<u32> = (0..n as u32)
        .map(|u| {
            if alive[u as usize] {
                graph
                    .neighbours(u)
                    .iter()
                    .filter(|&&v| v != u && alive[v as usize])
                    .count() as u32
            } else {
                0
            }
        })
        .collect();
    let mut ones: Vec<u32> = (0..n as u32).filter(|&v| degree[v as usize] == 1).collect();
    // The alive vertices by increasing degree (a counting sort, capped: beyond
    // it the order hardly matters).
    const CAP: usize = 64;
    let mut starts = [0usize; CAP + 2];
    for v in (0..n).filter(|&v| alive[v]) {
        starts[(degree[v] as usize).min(CAP) + 1] += 1;
    }
    for d in 0..=CAP {
        starts[d + 1] += starts[d];
    }
    let mut order = vec![0u32; starts[CAP + 1]];
    for v in (0..n).filter(|&v| alive[v]) {
        let slot = &mut starts[(degree[v] as usize).min(CAP)];
        order[*slot] = v as u32;
        *slot += 1;
    }
    let exposed_neighbour = |u: u32, mate: &[u32], degree: &[u32]| {
        graph
            .neighbours(u)
            .iter()
            .copied()
            .filter(|&v| v != u && alive[v as usize] && mate[v as usize] == NONE)
            .min_by_key(|&v| degree[v as usize])
    };
    let mut next = 0;
    loop {
        let u = if let Some(u) = ones.pop() {
            u
        } else if let Some(&u) = order.get(next) {
            next += 1;
            u
        } else {
            break;
        };
        if mate[u as usize] != NONE || degree[u as usize] == 0 {
            continue;
        }
        let Some(v) = exposed_neighbour(u, &mate, &degree) else {
            continue;
        };
        mate[u as usize] = v;
        mate[v as usize] = u;
        for end in [u, v] {
            for &x in graph.neighbours(end) {
                let xi = x as usize;
                if x != end && alive[xi] && mate[xi] == NONE {
                    degree[xi] -= 1;
                    if degree[xi] == 1 {
                        ones.push(x);
                    }
                }
            }
        }
    }
    mate
}

/// A 2-colouring of the alive subgraph (`0` or `1` per vertex, loops
/// ignored), or `None` when it has an odd cycle.
fn two_colouring(graph: &Csr, alive: &[bool]) -> Option<Vec<u8>> {
    const UNSEEN: u8 = 2;
    let n = graph.vertex_count();
    let mut side = vec![UNSEEN; n];
    let mut queue = Vec::new();
    for start in 0..n {
        if !alive[start] || side[start] != UNSEEN {
            continue;
        }
        side[start] = 0;
        queue.clear();
        queue.push(start as u32);
        let mut head = 0;
        while let Some(&u) = queue.get(head) {
            head += 1;
            for &v in graph.neighbours(u) {
                if v == u || !alive[v as usize] {
                    continue;
                }
                if side[v as usize] == UNSEEN {
                    side[v as usize] = 1 - side[u as usize];
                    queue.push(v);
                } else if side[v as usize] == side[u as usize] {
                    return None;
                }
            }
        }
    }
    Some(side)
}

/// Hopcroft-Karp on a bipartite alive subgraph, from the matching `mate`.
fn hopcroft_karp(graph: &Csr, alive: &[bool], side: &[u8], mate: &mut [u32]) {
    const FAR: u32 = u32::MAX;
    let n = graph.vertex_count();
    let left: Vec<u32> = (0..n as u32)
        .filter(|&v| alive[v as usize] && side[v as usize] == 0)
        .collect();
    let mut dist = vec![FAR; n];
    let mut next = vec![0usize; n];
    let mut visited = vec![0u32; n];
    let mut phase = 0u32;
    let mut queue: Vec<u32> = Vec::new();
    let mut stack: Vec<u32> = Vec::new();
    loop {
        // Layers of left vertices by alternating distance from the exposed ones.
        queue.clear();
        for &u in &left {
            if mate[u as usize] == NONE {
                dist[u as usize] = 0;
                queue.push(u);
            } else {
                dist[u as usize] = FAR;
            }
        }
        let mut shortest = FAR;
        let mut head = 0;
        while let Some(&u) = queue.get(head) {
            head += 1;
            if dist[u as usize] >= shortest {
                continue;
            }
            for &v in graph.neighbours(u) {
                if v == u || !alive[v as usize] {
                    continue;
                }
                let w = mate[v as usize];
                if w == NONE {
                    shortest = shortest.min(dist[u as usize]);
                } else if dist[w as usize] == FAR {
                    dist[w as usize] = dist[u as usize] + 1;
                    queue.push(w);
                }
            }
        }
        if shortest == FAR {
            return;
        }
        // Vertex-disjoint shortest augmenting paths, by depth-first search
        // with an explicit stack; each right vertex is entered once a phase.
        phase += 1;
        for &u in &left {
            next[u as usize] = graph.offsets[u as usize];
        }
        for &root in &left {
            if mate[root as usize] != NONE || dist[root as usize] != 0 {
                continue;
            }
            stack.clear();
            stack.push(root);
            while let Some(&u) = stack.last() {
                let at = next[u as usize];
                if at == graph.offsets[u as usize + 1] {
                    // A dead end: no path through `u` this phase.
                    dist[u as usize] = FAR;
                    stack.pop();
                    if let Some(&parent) = stack.last() {
                        next[parent as usize] += 1;
                    }
                    continue;
                }
                let v = graph.targets[at];
                if v == u || !alive[v as usize] || visited[v as usize] == phase {
                    next[u as usize] += 1;
                    continue;
                }
                let w = mate[v as usize];
                if w == NONE {
                    if dist[u as usize] != shortest {
                        next[u as usize] += 1;
                        continue;
                    }
                    visited[v as usize] = phase;
                    // Flip the path: each stacked vertex takes the right
                    // vertex it stands at.
                    for &x in stack.iter().rev() {
                        let y = graph.targets[next[x as usize]];
                        mate[x as usize] = y;
                        mate[y as usize] = x;
                    }
                    stack.clear();
                } else if dist[w as usize] == dist[u as usize] + 1 {
                    visited[v as usize] = phase;
                    stack.push(w);
                } else {
                    next[u as usize] += 1;
                }
            }
        }
    }
}

/// Labels of the alternating forest.
const FREE: u8 = 0;
/// Outer: reached by an even alternating path (a root, or inside a blossom).
const EVEN: u8 = 1;
/// Inner: reached by an odd alternating path.
const ODD: u8 = 2;

/// Where a search found an augmenting path: the edge `(u, v)` from an even
/// vertex `u` to an exposed free vertex or to an even vertex of another tree.
#[derive(Clone, Copy, Debug)]
struct Found {
    u: u32,
    v: u32,
}

/// How a search ended.
#[derive(Clone, Copy, Debug)]
enum Grown {
    /// At an augmenting path.
    Found(Found),
    /// With nothing left to scan: no augmenting path from its roots.
    Exhausted,
    /// Beyond its budget of scanned entries.
    OverBudget,
}

/// Edmonds' alternating forest, with blossoms as union-find sets of their
/// bases.
///
/// The path from an even vertex `x` to its root is `x`, `mate[x]`,
/// `pred[mate[x]]`, `mate[pred[mate[x]]]`, ...: `pred` of an odd vertex is
/// the even vertex it was reached from, and the contraction of a blossom sets
/// `pred` of its even vertices across the blossom so that the rule holds for
/// the odd vertices that became even.
struct Forest<'a> {
    graph: &'a Csr,
    alive: &'a [bool],
    label: Vec<u8>,
    pred: Vec<u32>,
    /// Union-find parent towards the base of a vertex's blossom.
    base: Vec<u32>,
    /// Vertices dropped after a failed search (only in
    /// [`augment_to_maximum`](Self::augment_to_maximum)).
    dead: Vec<bool>,
    /// Marks for the lowest common ancestor walks.
    mark: Vec<u32>,
    clock: u32,
    queue: Vec<u32>,
    head: usize,
    /// Every vertex labelled since the last clear.
    touched: Vec<u32>,
    /// Adjacency entries scanned so far, over every search.
    scanned: u64,
}

impl<'a> Forest<'a> {
    fn new(graph: &'a Csr, alive: &'a [bool]) -> Self {
        let n = graph.vertex_count();
        Self {
            graph,
            alive,
            label: vec![FREE; n],
            pred: vec![NONE; n],
            base: (0..n as u32).collect(),
            dead: vec![false; n],
            mark: vec![0; n],
            clock: 0,
            queue: Vec::new(),
            head: 0,
            touched: Vec::new(),
            scanned: 0,
        }
    }

    /// Unlabels every vertex labelled so far.
    fn clear(&mut self) {
        for &v in &self.touched {
            self.label[v as usize] = FREE;
            self.base[v as usize] = v;
        }
        self.touched.clear();
        self.queue.clear();
        self.head = 0;
    }

    /// Makes the exposed vertex `root` the root of a tree.
    fn plant(&mut self, root: u32) {
        self.label[root as usize] = EVEN;
        self.touched.push(root);
        self.queue.push(root);
    }

    /// The base of the blossom holding `v` (path halving).
    fn find(&mut self, mut v: u32) -> u32 {
        while self.base[v as usize] != v {
            let up = self.base[self.base[v as usize] as usize];
            self.base[v as usize] = up;
            v = up;
        }
        v
    }

    /// The base where the tree paths of the even vertices `x` and `y` meet,
    /// or `None` when they lie in different trees.
    fn meeting_base(&mut self, x: u32, y: u32, mate: &[u32]) -> Option<u32> {
        if self.clock == u32::MAX {
            self.mark.fill(0);
            self.clock = 0;
        }
        self.clock += 1;
        let (mut x, mut y) = (Some(x), Some(y));
        loop {
            if let Some(at) = x {
                let b = self.find(at);
                if self.mark[b as usize] == self.clock {
                    return Some(b);
                }
                self.mark[b as usize] = self.clock;
                let m = mate[b as usize];
                x = (m != NONE).then(|| self.pred[m as usize]);
            } else if y.is_none() {
                return None;
            }
            std::mem::swap(&mut x, &mut y);
        }
    }

    /// Contracts the half of the blossom from `x` up to its base `lca`,
    /// entered across the edge `x - y`.
    fn contract(&mut self, mut x: u32, mut y: u32, lca: u32, mate: &[u32]) {
        while self.find(x) != lca {
            self.pred[x as usize] = y;
            y = mate[x as usize];
            if self.label[y as usize] == ODD {
                self.label[y as usize] = EVEN;
                self.queue.push(y);
            }
            if self.find(x) == x {
                self.base[x as usize] = lca;
            }
            if self.find(y) == y {
                self.base[y as usize] = lca;
            }
            x = self.pred[y as usize];
        }
    }

    /// Grows the forest from the queued even vertices until an augmenting
    /// path appears, nothing is left to scan, or more than `budget` adjacency
    /// entries have been scanned in all.
    fn grow(&mut self, mate: &[u32], budget: u64) -> Grown {
        let graph = self.graph;
        while let Some(&u) = self.queue.get(self.head) {
            self.head += 1;
            self.scanned += graph.neighbours(u).len() as u64 + 1;
            if self.scanned > budget {
                return Grown::OverBudget;
            }
            for &v in graph.neighbours(u) {
                let vi = v as usize;
                if v == u || !self.alive[vi] || self.dead[vi] {
                    continue;
                }
                match self.label[vi] {
                    FREE => {
                        let w = mate[vi];
                        if w == NONE {
                            return Grown::Found(Found { u, v });
                        }
                        self.label[vi] = ODD;
                        self.pred[vi] = u;
                        self.label[w as usize] = EVEN;
                        self.touched.push(v);
                        self.touched.push(w);
                        self.queue.push(w);
                    }
                    EVEN => {
                        if self.find(u) == self.find(v) {
                            continue;
                        }
                        match self.meeting_base(u, v, mate) {
                            Some(lca) => {
                                self.contract(u, v, lca, mate);
                                self.contract(v, u, lca, mate);
                            }
                            None => return Grown::Found(Found { u, v }),
                        }
                    }
                    _ => {}
                }
            }
        }
        Grown::Exhausted
    }

    /// Matches the even vertex `x` to `partner` and flips the rest of its
    /// path to the root.
    fn flip_to_root(&self, mut x: u32, mut partner: u32, mate: &mut [u32]) {
        loop {
            let old = mate[x as usize];
            mate[x as usize] = partner;
            if old == NONE {
                return;
            }
            let up = self.pred[old as usize];
            mate[old as usize] = up;
            partner = old;
            x = up;
        }
    }

    /// Augments `mate` along the path found.
    fn augment(&self, found: Found, mate: &mut [u32]) {
        let Found { u, v } = found;
        if self.label[v as usize] == EVEN {
            // Two trees joined by an edge between even vertices.
            self.flip_to_root(u, v, mate);
            self.flip_to_root(v, u, mate);
        } else {
            mate[v as usize] = u;
            self.flip_to_root(u, v, mate);
        }
    }

    /// Augments `mate` to a maximum matching: one search from each exposed
    /// vertex; a failed search's tree is dropped for good. Returns false,
    /// leaving `mate` a matching, when the searches would scan more than
    /// `budget` adjacency entries in all.
    fn augment_to_maximum(&mut self, mate: &mut [u32], budget: u64) -> bool {
        for root in 0..self.graph.vertex_count() as u32 {
            let r = root as usize;
            if !self.alive[r] || self.dead[r] || mate[r] != NONE {
                continue;
            }
            self.plant(root);
            match self.grow(mate, budget) {
                Grown::Found(found) => self.augment(found, mate),
                Grown::Exhausted => {
                    for &v in &self.touched {
                        self.dead[v as usize] = true;
                    }
                }
                Grown::OverBudget => {
                    self.clear();
                    return false;
                }
            }
            self.clear();
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::graph::Graph;
    use proptest::prelude::*;

    use crate::testing::Xorshift as Rng;

    /// The maximum matching size of the alive subgraph by dynamic programming
    /// over vertex subsets (exponential; n <= 16).
    fn brute_size(n: usize, edges: &[(u32, u32)], alive: &[bool]) -> usize {
        let mut adjacent = vec![0u32; n];
        for &(u, v) in edges {
            if u != v && alive[u as usize] && alive[v as usize] {
                adjacent[u as usize] |= 1 << v;
                adjacent[v as usize] |= 1 << u;
            }
        }
        let full = (0..n).filter(|&v| alive[v]).fold(0u32, |m, v| m | 1 << v);
        let mut best = vec![0u8; 1 << n];
        for mask in 1..(1usize << n) {
            let mask = mask as u32;
            let u = mask.trailing_zeros();
            let rest = mask & !(1 << u);
            let mut value = best[rest as usize];
            let mut partners = adjacent[u as usize] & rest;
            while partners != 0 {
                let w = partners.trailing_zeros();
                partners &= partners - 1;
                value = value.max(best[(rest & !(1 << w)) as usize] + 1);
            }
            best[mask as usize] = value;
        }
        best[full as usize] as usize
    }

    /// Checks that `mate` is a matching of the alive subgraph.
    fn assert_matching(n: usize, edges: &[(u32, u32)], alive: &[bool], mate: &[u32]) {
        for v in 0..n {
            let m = mate[v];
            if m == NONE {
                continue;
            }
            assert!(
                alive[v] && alive[m as usize],
                "{edges:?}: dead vertex matched"
            );
            assert_eq!(mate[m as usize], v as u32, "{edges:?}: not symmetric");
            assert!(m as usize != v, "{edges:?}: a loop matched");
            assert!(
                edges
                    .iter()
                    .any(|&(a, b)| (a, b) == (v as u32, m) || (b, a) == (v as u32, m)),
                "{edges:?}: {v}-{m} is no edge"
            );
        }
    }

    fn check(n: usize, edges: &[(u32, u32)], alive: &[bool]) {
        let graph = Graph::new(n as u32, edges.to_vec());
        let csr = graph.incident_edges();
        let mate = maximum_matching(&csr, alive);
        assert_matching(n, edges, alive, &mate);
        let size = brute_size(n, edges, alive);
        assert_eq!(matching_size(&mate), size, "{n} {edges:?} alive {alive:?}");
        // The general algorithm alone (the bipartite one is chosen otherwise).
        let mut general = greedy_matching(&csr, alive);
        Forest::new(&csr, alive).augment_to_maximum(&mut general, u64::MAX);
        assert_matching(n, edges, alive, &general);
        assert_eq!(
            matching_size(&general),
            size,
            "{n} {edges:?} alive {alive:?}"
        );
        // And from nothing: more searches, more of them failing and dropping
        // their trees.
        let mut from_nothing = vec![NONE; n];
        Forest::new(&csr, alive).augment_to_maximum(&mut from_nothing, u64::MAX);
        assert_matching(n, edges, alive, &from_nothing);
        assert_eq!(
            matching_size(&from_nothing),
            size,
            "{n} {edges:?} alive {alive:?}"
        );
        if let Some(side) = two_colouring(&csr, alive) {
            // Hopcroft-Karp alone, from nothing and from the greedy matching;
            // and taking over from searches cut short at every budget.
            for mut mate in [vec![NONE; n], greedy_matching(&csr, alive)] {
                hopcroft_karp(&csr, alive, &side, &mut mate);
                assert_matching(n, edges, alive, &mate);
                assert_eq!(matching_size(&mate), size, "{n} {edges:?} alive {alive:?}");
            }
            for budget in 0..40 {
                let mate = maximum_matching_within(&csr, alive, budget);
                assert_matching(n, edges, alive, &mate);
                assert_eq!(matching_size(&mate), size, "budget {budget} {edges:?}");
            }
        }
        // D: a vertex some maximum matching misses is one whose removal keeps
        // the matching number.
        let missed = missable(&csr, alive);
        for v in 0..n {
            let expected = alive[v] && {
                let mut without = alive.to_vec();
                without[v] = false;
                brute_size(n, edges, &without) == size
            };
            assert_eq!(
                missed[v], expected,
                "vertex {v} of {n} {edges:?} alive {alive:?}"
            );
        }
        // From a matching that is not maximum, the search augments.
        let mut empty = vec![NONE; n];
        assert_eq!(missable_with(&csr, alive, &mut empty), missed);
        assert_eq!(matching_size(&empty), size);
    }

    fn random_edges(rng: &mut Rng, n: usize, m: usize, loops: bool) -> Vec<(u32, u32)> {
        (0..m)
            .map(|_| {
                loop {
                    let u = rng.below(n as u64) as u32;
                    let v = rng.below(n as u64) as u32;
                    if loops || u != v || n == 1 {
                        break (u, v);
                    }
                }
            })
            .collect()
    }

    fn random_alive(rng: &mut Rng, n: usize) -> Vec<bool> {
        if rng.below(3) == 0 {
            (0..n).map(|_| rng.below(5) != 0).collect()
        } else {
            vec![true; n]
        }
    }

    #[test]
    fn random_graphs_against_brute_force() {
        let mut rng = Rng::new(1);
        for round in 0..3000 {
            let n = 1 + rng.below(12) as usize;
            let m = rng.below(3 * n as u64 + 1) as usize;
            let edges = random_edges(&mut rng, n, m, round % 5 == 0);
            let alive = random_alive(&mut rng, n);
            check(n, &edges, &alive);
        }
    }

    #[test]
    fn random_bipartite_graphs_against_brute_force() {
        let mut rng = Rng::new(2);
        for _ in 0..1500 {
            let n = 2 + rng.below(11) as usize;
            let split = 1 + rng.below(n as u64 - 1) as u32;
            let m = rng.below(3 * n as u64 + 1) as usize;
            let edges: Vec<(u32, u32)> = (0..m)
                .map(|_| {
                    let u = rng.below(u64::from(split)) as u32;
                    let v = split + rng.below(n as u64 - u64::from(split)) as u32;
                    if rng.below(2) == 0 { (u, v) } else { (v, u) }
                })
                .collect();
            let alive = random_alive(&mut rng, n);
            check(n, &edges, &alive);
        }
    }

    #[test]
    fn trees_cycles_and_blossoms_against_brute_force() {
        let mut rng = Rng::new(3);
        for _ in 0..1000 {
            let n = 1 + rng.below(14) as usize;
            // A random tree, sometimes with extra edges closing cycles.
            let mut edges: Vec<(u32, u32)> = (1..n as u32)
                .map(|v| (rng.below(u64::from(v)) as u32, v))
                .collect();
            for _ in 0..rng.below(4) {
                edges.extend(random_edges(&mut rng, n, 1, true));
            }
            let alive = random_alive(&mut rng, n);
            check(n, &edges, &alive);
        }
        for n in 1..=14u32 {
            // Cycles (odd ones are blossoms), with a pendant path sometimes.
            let cycle: Vec<(u32, u32)> = (0..n).map(|v| (v, (v + 1) % n)).collect();
            check(n as usize, &cycle, &vec![true; n as usize]);
            if n >= 3 {
                let mut flower = (0..n - 1)
                    .map(|v| (v, (v + 1) % (n - 1)))
                    .collect::<Vec<_>>();
                flower.push((0, n - 1));
                check(n as usize, &flower, &vec![true; n as usize]);
            }
        }
    }

    #[test]
    fn greedy_or_bipartite_only_answers_would_be_wrong_here() {
        // Greedy in index order matches 1-2 and leaves 0 and 3 exposed; the
        // maximum matching is 0-1, 2-3.
        check(4, &[(1, 2), (0, 1), (2, 3)], &[true; 4]);
        // Two triangles joined by an edge (blossoms on both sides): a perfect
        // matching exists only through the bridge.
        check(
            6,
            &[(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (2, 3)],
            &[true; 6],
        );
        // A blossom whose base must be found through nested odd cycles: the
        // "flower" of 5-cycle with a stem, and a nested blossom.
        check(
            10,
            &[
                (0, 1),
                (1, 2),
                (2, 3),
                (3, 4),
                (4, 5),
                (5, 1),
                (3, 6),
                (6, 7),
                (7, 8),
                (8, 3),
                (8, 9),
            ],
            &[true; 10],
        );
        // Repeated edges and loops change nothing.
        check(3, &[(0, 0), (0, 1), (0, 1), (1, 2), (2, 2)], &[true; 3]);
    }

    #[test]
    fn long_paths_and_cycles_do_not_recurse() {
        let n = 1_000_000u32;
        for odd in [false, true] {
            let n = n + u32::from(odd);
            let edges: Vec<(u32, u32)> = (0..n - 1).map(|v| (v, v + 1)).collect();
            let csr = Graph::new(n, edges).incident_edges();
            let alive = vec![true; n as usize];
            let missed = missable(&csr, &alive);
            // A path of even length has a perfect matching; of odd length,
            // every even-indexed vertex is missable.
            let expected = (0..n as usize).filter(|&v| odd && v % 2 == 0).count();
            assert_eq!(missed.iter().filter(|&&m| m).count(), expected);
        }
        // An odd cycle: one huge blossom, every vertex missable.
        let n = 300_001u32;
        let edges: Vec<(u32, u32)> = (0..n).map(|v| (v, (v + 1) % n)).collect();
        let csr = Graph::new(n, edges).incident_edges();
        let missed = missable(&csr, &vec![true; n as usize]);
        assert!(missed.iter().all(|&m| m));
    }

    proptest! {
        #[test]
        fn matchings_are_maximum_and_d_is_right(
            n in 1usize..11,
            raw in prop::collection::vec((0u32..11, 0u32..11), 0..25),
            dead in prop::collection::vec(any::<bool>(), 11),
        ) {
            let edges: Vec<(u32, u32)> = raw
                .into_iter()
                .map(|(u, v)| (u % n as u32, v % n as u32))
                .collect();
            let alive: Vec<bool> = (0..n).map(|v| !dead[v] || v % 3 == 0).collect();
            check(n, &edges, &alive);
        }
    }
}
