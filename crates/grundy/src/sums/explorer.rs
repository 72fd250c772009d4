//! Explicit game graphs of catalogue components, so that the generic solver can
//! search sums of anything the catalogue holds.
//!
//! Each distinct component (by its typed position, or by its family's canonical
//! form when it has one: Wythoff's piles in either order) becomes a node numbered once;
//! a node's options are the node lists its moves leave. A position of a sum is
//! then a sorted multiset of node numbers, cheap to hash and compare, and the
//! [`GraphGame`] over it is an ordinary [`ImpartialGame`] for the
//! [`Solver`](crate::theory::solver::Solver): it splits into components for normal play
//! and is searched whole for misère play.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use crate::family::Part;
use crate::family::PartKey;
use crate::theory::cancel::{self, checkpoint};
use crate::theory::game::ImpartialGame;
use crate::theory::solver::SearchError;

/// How far the exploration of a search has come, for a progress indicator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchProgress {
    /// Components explored so far.
    pub positions: usize,
    /// Moves stored so far.
    pub moves: usize,
    /// The most components the search may store (the state limit).
    pub limit: usize,
}

/// Called now and then while a search explores (every 2^16 components).
pub type ProgressHook = std::sync::Arc<dyn Fn(SearchProgress) + Send + Sync>;

/// A position of a sum of explored components: the node numbers of its
/// non-terminal components, sorted.
pub type Multiset = SmallVec<[u32; 4]>;

#[derive(Debug)]
struct Node {
    /// The first component of its class met: its options are this one's moves.
    part: Part,
    options: Vec<SmallVec<[u32; 2]>>,
    explored: bool,
    /// Whether every child node's `part` is the very component its move leaves
    /// (not another member of its class): then the stored parts spell the move.
    exact_children: bool,
}

/// How many moves (edges) the explorer stores per node it may store: the
/// limit on the graph's memory and on the time to build it, checked as it
/// grows, so that a component with thousands of moves per position (Wythoff
/// piles of a thousand) is refused in a moment instead of filling memory.
const EDGES_PER_NODE: usize = 4;

/// The bytes a node costs the memory budget: the node, its index entry (key,
/// number and the hash table's control byte), and the component it keeps,
/// counted at a typical 64 bytes (a family handle and a small position).
const NODE_BYTES: usize =
    std::mem::size_of::<Node>() + std::mem::size_of::<(PartKey, u32)>() + 1 + 64;

/// The bytes a move costs while a component lists it: the vector of the
/// components it leaves and one of them, as [`NODE_BYTES`] counts a component.
const MOVE_LISTED_BYTES: u64 = (std::mem::size_of::<Vec<Part>>() + 16 + 64) as u64;

/// How many components are explored at once: their moves are listed
/// together, on every thread of the pool when listing them is slow (scripts).
/// A cheap script's batch then takes a millisecond or two; larger batches
/// cost the exploration locality (1,024: 15 % more time on one thread).
const BATCH: usize = 256;

/// A batch whose moves took this long to list (and four times as long as
/// storing them) has its successor's moves listed on every thread; quicker
/// ones stay on one, where waking the other threads would cost more than it
/// saves.
const SHARED_BATCH: Duration = Duration::from_millis(1);

/// The bytes a stored move costs the memory budget.
const EDGE_BYTES: usize = std::mem::size_of::<SmallVec<[u32; 2]>>();

/// The explored part of the game graphs of some components.
pub struct Explorer {
    nodes: Vec<Node>,
    index: FxHashMap<PartKey, u32>,
    limit: usize,
    /// The moves stored so far, and the most that may be.
    edges: usize,
    edge_limit: usize,
    /// The most bytes the graph may hold, nodes and moves counted as
    /// [`NODE_BYTES`] and [`EDGE_BYTES`], and the components' own
    /// ([`crate::family::Family::held_bytes`]).
    byte_limit: u64,
    /// What the stored components hold beyond [`NODE_BYTES`], and what the
    /// threads that list moves hold of their own
    /// ([`crate::family::Family::thread_copy`]).
    component_bytes: usize,
    /// The keys of the threads' own copies counted in `component_bytes`.
    copies_counted: Vec<u64>,
    progress: Option<ProgressHook>,
    /// Whether components are keyed by their canonical forms (always, except
    /// in oracles that must not rely on them).
    by_class: bool,
    /// Batches whose moves were listed on several threads.
    #[cfg(test)]
    pub(crate) shared_batches: usize,
}

impl std::fmt::Debug for Explorer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Explorer")
            .field("nodes", &self.nodes.len())
            .field("edges", &self.edges)
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

impl Explorer {
    /// An explorer that stores at most `limit` nodes, and at most
    /// `EDGES_PER_NODE` times as many moves.
    pub fn new(limit: usize) -> Self {
        Self {
            nodes: Vec::new(),
            index: FxHashMap::default(),
            limit,
            edges: 0,
            edge_limit: limit.saturating_mul(EDGES_PER_NODE),
            byte_limit: u64::MAX,
            component_bytes: 0,
            copies_counted: Vec::new(),
            progress: None,
            by_class: true,
            #[cfg(test)]
            shared_batches: 0,
        }
    }

    /// An explorer that keys every component by its own position, ignoring
    /// canonical forms: for oracles that check the answers found with them.
    #[cfg(test)]
    pub fn without_canonical_forms(limit: usize) -> Self {
        Self {
            by_class: false,
            ..Self::new(limit)
        }
    }

    /// The explorer holding at most `bytes` (see [`Explorer::held_bytes`]).
    pub const fn with_memory_limit(mut self, bytes: u64) -> Self {
        self.byte_limit = bytes;
        self
    }

    /// The bytes the explored graph holds, as its memory limit counts them.
    pub const fn held_bytes(&self) -> usize {
        self.nodes.len() * NODE_BYTES + self.edges * EDGE_BYTES + self.component_bytes
    }

    fn check_bytes(&self) -> Result<(), SearchError> {
        if self.held_bytes() as u64 > self.byte_limit {
            Err(SearchError::MemoryLimit {
                limit: self.byte_limit,
            })
        } else {
            Ok(())
        }
    }

    /// The explorer telling `progress` how far it has come.
    pub fn with_progress(mut self, progress: Option<ProgressHook>) -> Self {
        self.progress = progress;
        self
    }

    /// The node of `part`'s class, and whether its stored part is `part` itself.
    fn intern(&mut self, part: &Part) -> Result<(u32, bool), SearchError> {
        let key = if self.by_class {
            PartKey::of_class(part)
        } else {
            PartKey(Arc::clone(part))
        };
        if let Some(&id) = self.index.get(&key) {
            return Ok((id, self.nodes[id as usize].part.same_as(part.as_ref())));
        }
        let id = self.push(part)?;
        self.index.insert(key, id);
        Ok((id, true))
    }

    /// A new, unexplored node for `part`.
    fn push(&mut self, part: &Part) -> Result<u32, SearchError> {
        if self.nodes.len() >= self.limit {
            return Err(SearchError::StateLimit { limit: self.limit });
        }
        self.component_bytes += part.held_bytes();
        self.check_bytes()?;
        let id = u32::try_from(self.nodes.len())
            .map_err(|_| SearchError::StateLimit { limit: self.limit })?;
        self.nodes.push(Node {
            part: Arc::clone(part),
            options: Vec::new(),
            explored: false,
            exact_children: true,
        });
        Ok(id)
    }

    /// The node of `part`, after exploring every component reachable from it.
    /// Its options are `part`'s own moves, in their order (a root met as
    /// another member of a stored class gets a node of its own), so that
    /// [`leaves`](Self::leaves) spells the moves of the position asked about.
    ///
    /// # Errors
    /// [`SearchError::StateLimit`] when the nodes would exceed the limit.
    pub fn explore(&mut self, part: &Part) -> Result<u32, SearchError> {
        let root = match self.intern(part)? {
            (id, true) => id,
            (_, false) => self.push(part)?,
        };
        let mut pending = vec![root];
        let mut batch = Vec::with_capacity(BATCH);
        // Whether the last batch was long enough to share among threads.
        let mut worth_sharing = false;
        let threads = rayon::current_num_threads() as u32;
        loop {
            // The next unexplored nodes from the top of the stack (the same
            // batches whatever the number of threads, so the same numbering
            // of nodes).
            batch.clear();
            while batch.len() < BATCH {
                let Some(id) = pending.pop() else { break };
                if !self.nodes[id as usize].explored && !batch.contains(&id) {
                    batch.push(id);
                }
            }
            if batch.is_empty() {
                break;
            }
            checkpoint()?;
            // Each node of the batch lists at most its share of the moves
            // and bytes left; one with more lists them again alone below.
            let (room, listed_room) = self.room();
            let share = room.min(listed_room / batch.len());
            let shared = worth_sharing && batch.len() > 1 && threads > 1;
            if shared {
                self.count_copies(&batch, threads as usize - 1)?;
            }
            #[cfg(test)]
            {
                self.shared_batches += usize::from(shared);
            }
            let started = Instant::now();
            let listed = self.list_moves(&batch, share, shared);
            let listing = started.elapsed() * if shared { threads } else { 1 };
            let started = Instant::now();
            for (&id, moves) in batch.iter().zip(listed) {
                let (room, listed_room) = self.room();
                let moves = match moves {
                    Err(SearchError::StateLimit { .. }) if share < room.min(listed_room) => {
                        self.nodes[id as usize].part.moves(room.min(listed_room))
                    }
                    Ok(moves) if moves.len() > room.min(listed_room) => {
                        Err(SearchError::StateLimit { limit: 0 })
                    }
                    moves => moves,
                };
                let moves = moves.map_err(|error| match error {
                    SearchError::StateLimit { .. } if listed_room < room => {
                        SearchError::MemoryLimit {
                            limit: self.byte_limit,
                        }
                    }
                    SearchError::StateLimit { .. } => SearchError::StateLimit { limit: self.limit },
                    other => other,
                })?;
                self.add_moves(id, &moves, &mut pending)?;
            }
            // Listing on several threads pays when it takes most of a batch's
            // time (scripts that compute): storing the moves stays on this one.
            worth_sharing = listing >= SHARED_BATCH && listing >= started.elapsed() * 4;
        }
        Ok(root)
    }

    /// Counts against the memory limit what `others` threads hold of their
    /// own to list the moves of the components of `batch` (a script's copy
    /// each), once for each thing held.
    fn count_copies(&mut self, batch: &[u32], others: usize) -> Result<(), SearchError> {
        for &id in batch {
            if let Some((key, bytes)) = self.nodes[id as usize].part.thread_copy()
                && !self.copies_counted.contains(&key)
            {
                self.copies_counted.push(key);
                self.component_bytes = self
                    .component_bytes
                    .saturating_add(bytes.saturating_mul(others));
                self.check_bytes()?;
            }
        }
        Ok(())
    }

    /// The moves a component may list now: the edges left, and no more than
    /// the bytes left hold while they are listed (a move is a vector of
    /// components, each a handle to a small position).
    fn room(&self) -> (usize, usize) {
        let room = self.edge_limit - self.edges;
        let bytes_left = self.byte_limit.saturating_sub(self.held_bytes() as u64);
        let listed_room = usize::try_from(bytes_left / MOVE_LISTED_BYTES).unwrap_or(usize::MAX);
        (room, listed_room)
    }

    /// The moves of the components of `batch`, at most `most` each: on the
    /// threads of the pool when `shared` (each under this thread's
    /// cancellation signal), else here.
    fn list_moves(
        &self,
        batch: &[u32],
        most: usize,
        shared: bool,
    ) -> Vec<Result<Vec<Vec<Part>>, SearchError>> {
        // Each component's moves begin with a cancellation check, as a
        // component explored alone would.
        let moves = |&id: &u32| {
            checkpoint()?;
            self.nodes[id as usize].part.moves(most)
        };
        if shared {
            let signal = cancel::current();
            batch
                .par_iter()
                .map(|id| cancel::run_under(signal.as_ref(), || moves(id)))
                .collect()
        } else {
            batch.iter().map(moves).collect()
        }
    }

    /// Stores the moves of node `id`, each as the nodes it leaves, and puts
    /// the new nodes on the stack to explore.
    fn add_moves(
        &mut self,
        id: u32,
        moves: &[Vec<Part>],
        pending: &mut Vec<u32>,
    ) -> Result<(), SearchError> {
        self.edges += moves.len();
        if self.edges > self.edge_limit {
            return Err(SearchError::StateLimit { limit: self.limit });
        }
        self.check_bytes()?;
        let mut options = Vec::with_capacity(moves.len());
        let mut exact_children = true;
        for parts in moves {
            let mut option = SmallVec::with_capacity(parts.len());
            for part in parts {
                let (child, exact) = self.intern(part)?;
                exact_children &= exact;
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
        node.exact_children = exact_children;
        if let Some(progress) = &self.progress
            && id.trailing_zeros() >= 16
        {
            progress(SearchProgress {
                positions: self.nodes.len(),
                moves: self.edges,
                limit: self.limit,
            });
        }
        Ok(())
    }

    /// How many components are stored.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The options of an explored node, each as the nodes it leaves.
    pub fn options(&self, id: u32) -> &[SmallVec<[u32; 2]>] {
        &self.nodes[id as usize].options
    }

    /// The component of a node: the first of its class met.
    #[cfg(test)]
    pub fn part(&self, id: u32) -> &Part {
        &self.nodes[id as usize].part
    }

    /// The components that option `option` of node `id` leaves, exactly as the
    /// node's move leaves them (a child node may store another member of their
    /// class; the move is then asked of the node's component again).
    ///
    /// # Errors
    /// As the component's moves.
    pub fn leaves(&self, id: u32, option: usize) -> Result<Vec<Part>, SearchError> {
        let node = &self.nodes[id as usize];
        if node.exact_children {
            return Ok(node.options[option]
                .iter()
                .map(|&child| Arc::clone(&self.nodes[child as usize].part))
                .collect());
        }
        let mut moves = node.part.moves(usize::MAX)?;
        Ok(moves.swap_remove(option))
    }

    /// Whether no node reachable from `roots` can be reached from itself: then
    /// no sum of them can either (a cycle of a sum moves its components round
    /// cycles of their own).
    pub fn is_finite_from(&self, roots: &[u32]) -> bool {
        const NEW: u8 = 0;
        const ON_PATH: u8 = 1;
        const DONE: u8 = 2;
        let mut state = vec![NEW; self.nodes.len()];
        // Each entry: a node, and its next option and leaf to look at.
        let mut stack: Vec<(u32, usize, usize)> = Vec::new();
        for &root in roots {
            if state[root as usize] != NEW {
                continue;
            }
            state[root as usize] = ON_PATH;
            stack.push((root, 0, 0));
            while let Some((id, option, leaf)) = stack.last_mut() {
                let options = &self.nodes[*id as usize].options;
                let Some(leaves) = options.get(*option) else {
                    state[*id as usize] = DONE;
                    stack.pop();
                    continue;
                };
                let Some(&child) = leaves.get(*leaf) else {
                    *option += 1;
                    *leaf = 0;
                    continue;
                };
                *leaf += 1;
                match state[child as usize] {
                    NEW => {
                        state[child as usize] = ON_PATH;
                        stack.push((child, 0, 0));
                    }
                    ON_PATH => return false,
                    _ => {}
                }
            }
        }
        true
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

    fn position_bytes(&self, position: &Multiset) -> usize {
        if position.spilled() {
            position.capacity() * std::mem::size_of::<u32>()
        } else {
            0
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

/// A sum whose components never split nor vanish, numbered in mixed radix:
/// digit `i` is the index of component `i`'s current position within the
/// positions reachable from its start. Moves are index arithmetic (no
/// allocation, no sorting, no hashing) and the solver's tables are arrays: the
/// fast path for misère search, where the sum must be searched whole.
#[derive(Debug)]
pub struct SlotGame {
    slots: Vec<Slot>,
    bound: u64,
}

#[derive(Debug)]
struct Slot {
    stride: u64,
    size: u64,
    /// `options[digit]`: the digits of the moves, in the explorer's move order.
    options: Vec<Vec<u64>>,
}

impl SlotGame {
    /// The slot game of the sum of the explored nodes `roots`, and the number of
    /// the starting position; `None` when a move splits or removes a component,
    /// or when the sum has more than `limit` positions.
    pub fn new(explorer: &Explorer, roots: &[u32], limit: usize) -> Option<(Self, u64)> {
        let mut slots = Vec::with_capacity(roots.len());
        let mut stride = 1u64;
        for &root in roots {
            let mut local: FxHashMap<u32, u64> = FxHashMap::default();
            let mut nodes = vec![root];
            local.insert(root, 0);
            let mut next = 0;
            while next < nodes.len() {
                for option in explorer.options(nodes[next]) {
                    let [child] = option.as_slice() else {
                        return None;
                    };
                    if !local.contains_key(child) {
                        local.insert(*child, nodes.len() as u64);
                        nodes.push(*child);
                    }
                }
                next += 1;
            }
            let options = nodes
                .iter()
                .map(|&node| {
                    explorer
                        .options(node)
                        .iter()
                        .map(|option| local[&option[0]])
                        .collect()
                })
                .collect();
            let size = nodes.len() as u64;
            slots.push(Slot {
                stride,
                size,
                options,
            });
            stride = stride.checked_mul(size).filter(|&s| s <= limit as u64)?;
        }
        // Digit 0 of every slot is its root, so the sum starts at 0.
        Some((
            Self {
                slots,
                bound: stride,
            },
            0,
        ))
    }

    /// The position after move `option` (in the explorer's order) of component
    /// `slot` from `position`.
    pub fn after(&self, position: u64, slot: usize, option: usize) -> u64 {
        let slot = &self.slots[slot];
        let digit = (position / slot.stride) % slot.size;
        position - digit * slot.stride + slot.options[digit as usize][option] * slot.stride
    }
}

impl ImpartialGame for SlotGame {
    type Position = u64;

    fn moves(&self, position: &u64, moves: &mut Vec<u64>) {
        for slot in &self.slots {
            let digit = (position / slot.stride) % slot.size;
            let base = position - digit * slot.stride;
            moves.extend(
                slot.options[digit as usize]
                    .iter()
                    .map(|&o| base + o * slot.stride),
            );
        }
    }

    fn dense_positions(&self) -> Option<usize> {
        usize::try_from(self.bound).ok()
    }

    fn position_index(&self, position: &u64) -> usize {
        // Positions are below the bound, which fits in usize.
        *position as usize
    }
}
