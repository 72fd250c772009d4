//! The trie of a set of words: one node per distinct prefix.

use rustc_hash::FxHashMap;

use super::Automaton;

/// The trie of `words` (letters `a`-`z`) as an [`Automaton`] with every
/// node's nimber. Nodes are numbered as they are created, so every child
/// comes after its parent and the nimbers are computed from the last node
/// back.
#[must_use]
pub fn build(words: &[&[u8]]) -> Automaton {
    let letters: usize = words.iter().map(|w| w.len()).sum();
    let mut child: FxHashMap<(u32, u8), u32> = FxHashMap::default();
    child.reserve(letters);
    let mut edges = Vec::with_capacity(letters);
    let mut nodes = 1u32;
    for word in words {
        let mut node = 0u32;
        for &byte in *word {
            let letter = byte - b'a';
            node = *child.entry((node, letter)).or_insert_with(|| {
                edges.push((node, letter, nodes));
                nodes += 1;
                nodes - 1
            });
        }
    }
    let order: Vec<u32> = (0..nodes).rev().collect();
    Automaton::new(nodes as usize, edges, &order)
}
