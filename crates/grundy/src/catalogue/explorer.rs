//! Explicit game graphs of catalogue components, so that the generic solver can
//! search sums of anything the catalogue holds.
//!
//! Each distinct component (by its canonical text) becomes a node numbered once;
//! a node's options are the node lists its moves leave. A position of a sum is
//! then a sorted multiset of node numbers, cheap to hash and compare, and the
//! [`GraphGame`] over it is an ordinary [`ImpartialGame`] for the
//! [`Solver`](crate::solver::Solver): it splits into components for normal play
//! and is searched whole for misère play.

use std::sync::Arc;

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use super::Part;
use crate::game::ImpartialGame;
use crate::solver::SearchError;

/// A position of a sum of explored components: the node numbers of its
/// non-terminal components, sorted.
pub type Multiset = SmallVec<[u32; 4]>;

#[derive(Debug)]
struct Node {
    part: Part,
    options: Vec<SmallVec<[u32; 2]>>,
    explored: bool,
}

/// The explored part of the game graphs of some components.
#[derive(Debug)]
pub struct Explorer {
    nodes: Vec<Node>,
    index: FxHashMap<String, u32>,
    limit: usize,
}

impl Explorer {
    /// An explorer that stores at most `limit` nodes.
    pub fn new(limit: usize) -> Self {
        Self {
            nodes: Vec::new(),
            index: FxHashMap::default(),
            limit,
        }
    }

    fn intern(&mut self, head: &str, part: &Part) -> Result<u32, SearchError> {
        let mut key = String::with_capacity(head.len() + 8);
        key.push_str(head);
        key.push('(');
        part.write_arguments(&mut key);
        key.push(')');
        if let Some(&id) = self.index.get(&key) {
            return Ok(id);
        }
        if self.nodes.len() >= self.limit {
            return Err(SearchError::StateLimit { limit: self.limit });
        }
        let id = u32::try_from(self.nodes.len())
            .map_err(|_| SearchError::StateLimit { limit: self.limit })?;
        self.nodes.push(Node {
            part: Arc::clone(part),
            options: Vec::new(),
            explored: false,
        });
        self.index.insert(key, id);
        Ok(id)
    }

    /// The node of `part` (a component of the group `head`), after exploring
    /// every component reachable from it.
    ///
    /// # Errors
    /// [`SearchError::StateLimit`] when the nodes would exceed the limit.
    pub fn explore(&mut self, head: &str, part: &Part) -> Result<u32, SearchError> {
        let root = self.intern(head, part)?;
        let mut pending = vec![root];
        while let Some(id) = pending.pop() {
            let node = &self.nodes[id as usize];
            if node.explored {
                continue;
            }
            let moves = node.part.moves(self.limit)?;
            let mut options = Vec::with_capacity(moves.len());
            for parts in &moves {
                let mut option = SmallVec::with_capacity(parts.len());
                for part in parts {
                    let child = self.intern(head, part)?;
                    if !self.nodes[child as usize].explored {
                        pending.push(child);
                    }
                    option.push(child);
                }
                options.push(option);
            }
            let node = &mut self.nodes[id as usize];
            node.options = options;
            node.explored = true;
        }
        Ok(root)
    }

    /// How many components are stored.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The options of an explored node, each as the nodes it leaves.
    pub fn options(&self, id: u32) -> &[SmallVec<[u32; 2]>] {
        &self.nodes[id as usize].options
    }

    /// The component of a node.
    pub fn part(&self, id: u32) -> &Part {
        &self.nodes[id as usize].part
    }

    /// The multiset of the non-terminal nodes among `ids`: terminal components
    /// add no move to a sum under either convention, so they are dropped.
    pub fn multiset(&self, ids: impl IntoIterator<Item = u32>) -> Multiset {
        let mut set: Multiset = ids
            .into_iter()
            .filter(|&id| !self.nodes[id as usize].options.is_empty())
            .collect();
        set.sort_unstable();
        set
    }
}

/// Sums of explored components as an [`ImpartialGame`].
#[derive(Debug)]
pub struct GraphGame<'e> {
    explorer: &'e Explorer,
}

impl<'e> GraphGame<'e> {
    /// The game of sums of `explorer`'s nodes.
    pub const fn new(explorer: &'e Explorer) -> Self {
        Self { explorer }
    }
}

impl ImpartialGame for GraphGame<'_> {
    type Position = Multiset;

    /// Moves of equal components are listed once: they lead to equal positions,
    /// so the outcome and nimber are unchanged and the search does less work.
    /// (Winning moves are counted by the caller, component by component.)
    fn moves(&self, position: &Multiset, moves: &mut Vec<Multiset>) {
        for (i, &id) in position.iter().enumerate() {
            if i > 0 && position[i - 1] == id {
                continue;
            }
            for option in self.explorer.options(id) {
                let mut next = Multiset::with_capacity(position.len() + option.len());
                next.extend_from_slice(&position[..i]);
                next.extend_from_slice(&position[i + 1..]);
                next.extend(
                    option
                        .iter()
                        .copied()
                        .filter(|&o| !self.explorer.options(o).is_empty()),
                );
                next.sort_unstable();
                moves.push(next);
            }
        }
    }

    fn components(&self, position: &Multiset) -> Option<Vec<Multiset>> {
        (position.len() > 1).then(|| {
            position
                .iter()
                .map(|&id| Multiset::from_slice(&[id]))
                .collect()
        })
    }
}
