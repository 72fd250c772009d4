//! The generalized suffix automaton of a set of words.
//!
//! The smallest deterministic automaton accepting every substring of the
//! words (Blumer, Blumer, Haussler, Ehrenfeucht, Chen and Seiferas, "The
//! smallest automaton recognizing the subwords of a text", TCS 40, 1985),
//! built online letter by letter; for several words each one restarts from
//! the initial state, and a letter whose transition already exists reuses or
//! splits (clones) its target, so no state is created that recognizes nothing
//! new. A transition `p -> q` always has `len(q) > len(p)` (the longest word
//! of `p` followed by the letter is a word of `q`), so sorting states by
//! decreasing `len` is a reverse topological order.

use rustc_hash::FxHashMap;

use super::Automaton;

const NONE: u32 = u32::MAX;

struct Builder {
    len: Vec<u32>,
    link: Vec<u32>,
    next: FxHashMap<(u32, u8), u32>,
}

impl Builder {
    fn new_state(&mut self, len: u32, link: u32) -> u32 {
        self.len.push(len);
        self.link.push(link);
        (self.len.len() - 1) as u32
    }

    fn get(&self, state: u32, letter: u8) -> Option<u32> {
        self.next.get(&(state, letter)).copied()
    }

    /// A copy of `q` of length `len`, taking over its suffix link.
    fn clone_state(&mut self, q: u32, len: u32) -> u32 {
        let clone = self.new_state(len, self.link[q as usize]);
        for letter in 0..26 {
            if let Some(to) = self.get(q, letter) {
                self.next.insert((clone, letter), to);
            }
        }
        self.link[q as usize] = clone;
        clone
    }

    /// Redirects the transitions on `letter` into `from` along the suffix
    /// links from `p` to `to`.
    fn redirect(&mut self, mut p: u32, letter: u8, from: u32, to: u32) {
        while p != NONE && self.get(p, letter) == Some(from) {
            self.next.insert((p, letter), to);
            p = self.link[p as usize];
        }
    }

    /// Appends `letter` after the state `last`; returns the new last state.
    fn extend(&mut self, last: u32, letter: u8) -> u32 {
        let len = self.len[last as usize] + 1;
        if let Some(q) = self.get(last, letter) {
            // The word is already known (from an earlier word).
            if self.len[q as usize] == len {
                return q;
            }
            let clone = self.clone_state(q, len);
            self.redirect(last, letter, q, clone);
            return clone;
        }
        let current = self.new_state(len, 0);
        let mut p = last;
        while p != NONE && self.get(p, letter).is_none() {
            self.next.insert((p, letter), current);
            p = self.link[p as usize];
        }
        if p != NONE {
            let q = self.get(p, letter).unwrap_or(0);
            if self.len[p as usize] + 1 == self.len[q as usize] {
                self.link[current as usize] = q;
            } else {
                let clone = self.clone_state(q, self.len[p as usize] + 1);
                self.redirect(p, letter, q, clone);
                self.link[current as usize] = clone;
            }
        }
        current
    }
}

/// The generalized suffix automaton of `words` (letters `a`-`z`) as an
/// [`Automaton`] with every state's nimber, in time and space linear in the
/// total length.
#[must_use]
pub fn build(words: &[&[u8]]) -> Automaton {
    let letters: usize = words.iter().map(|w| w.len()).sum();
    let mut builder = Builder {
        len: Vec::with_capacity(2 * letters + 1),
        link: Vec::with_capacity(2 * letters + 1),
        next: FxHashMap::default(),
    };
    builder.next.reserve(3 * letters);
    builder.new_state(0, NONE);
    for word in words {
        let mut last = 0;
        for &byte in *word {
            last = builder.extend(last, byte - b'a');
        }
    }
    let states = builder.len.len();
    // Counting sort by length, longest first.
    let longest = builder.len.iter().copied().max().unwrap_or(0) as usize;
    let mut count = vec![0u32; longest + 2];
    for &len in &builder.len {
        count[len as usize + 1] += 1;
    }
    for i in 0..=longest {
        count[i + 1] += count[i];
    }
    let mut by_length = vec![0u32; states];
    for (state, &len) in builder.len.iter().enumerate() {
        by_length[count[len as usize] as usize] = state as u32;
        count[len as usize] += 1;
    }
    by_length.reverse();
    let edges = builder
        .next
        .into_iter()
        .map(|((from, letter), to)| (from, letter, to))
        .collect();
    Automaton::new(states, edges, &by_length)
}
