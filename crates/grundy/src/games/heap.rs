//! Heap games: a position is a collection of heaps of tokens, a move changes one
//! heap (and may leave it split into several). Each heap is an independent
//! component, so a term such as `nim(3, 5, 7)` is a sum of three components.

pub mod bash;
pub mod nim;
pub mod octal;
pub mod rules;
mod split_count;
pub mod subtraction;
pub mod subtraction_sets;
pub mod take_and_break;

pub use rules::{HeapMove, HeapRule, RuleError};

use std::fmt;
use std::sync::Arc;

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use smallvec::SmallVec;

use crate::catalogue::{Component, GivenSize, MovesTo, Part};
use crate::solver::SearchError;

/// The heaps one move leaves (none, one, or more after a split).
pub type Leaves = SmallVec<[u64; 2]>;

/// The rules of a heap game, for one heap.
pub trait HeapRules: fmt::Debug + Send + Sync + 'static {
    /// Appends the moves from a heap of `size`, each as the heaps it leaves. A
    /// rule with very many moves may stop once it has appended more than `limit`
    /// (the caller then reports the limit).
    fn heap_moves(&self, size: u64, limit: usize, moves: &mut Vec<Leaves>);

    /// The nimber of a heap of any size by theory, with the method's name.
    fn heap_nimber(&self, _size: &BigUint) -> Option<(BigUint, &'static str)> {
        None
    }

    /// The moves from a heap of `size` to a position of nimber `target` by
    /// theory: their number and the first `max`, each as the heaps it leaves.
    fn heap_moves_to_nimber(
        &self,
        _size: &BigUint,
        _target: &BigUint,
        _max: usize,
    ) -> Option<(BigUint, Vec<Vec<BigUint>>)> {
        None
    }

    /// Why the nimber of a heap of `size` is not known and a search cannot find it
    /// (its values cost more than a position may take to build); the search then
    /// stops with [`SearchError::TheoryLimit`] instead of trying.
    fn heap_nimber_refusal(&self, _size: &BigUint) -> Option<String> {
        None
    }

    /// Why the moves of a heap of `size` to nimber `target` can be neither
    /// counted by theory nor enumerated (see
    /// [`Component::moves_to_nimber_refusal`]).
    fn heap_moves_to_nimber_refusal(&self, _size: &BigUint, _target: &BigUint) -> Option<String> {
        None
    }

    /// Whether, by theory, every heap position of nimber 0 that has a move can
    /// move to nimber 1 (the condition of the Anti-SG rule,
    /// [`crate::games::misere`]).
    fn satisfies_anti_sg_condition(&self) -> bool {
        false
    }
}

/// One heap of a heap game: a catalogue component.
#[derive(Debug)]
pub struct Heap<R> {
    rules: Arc<R>,
    size: BigUint,
    /// The size's decimal digits when the input gave them (see [`GivenSize`]).
    text: Option<Box<str>>,
}

impl<R: HeapRules> Heap<R> {
    /// A heap of `size` under `rules`.
    pub const fn new(rules: Arc<R>, size: BigUint) -> Self {
        Self {
            rules,
            size,
            text: None,
        }
    }

    /// The components of the heaps given as input, keeping their digits.
    pub fn given_parts(rules: &Arc<R>, sizes: Vec<GivenSize>) -> Vec<Part> {
        sizes
            .into_iter()
            .map(|size| {
                Arc::new(Self {
                    rules: Arc::clone(rules),
                    size: size.value,
                    text: size.text,
                }) as Part
            })
            .collect()
    }

    /// The components of the heaps `sizes` under `rules`.
    pub fn parts(rules: &Arc<R>, sizes: impl IntoIterator<Item = BigUint>) -> Vec<Part> {
        sizes
            .into_iter()
            .map(|size| Arc::new(Self::new(Arc::clone(rules), size)) as Part)
            .collect()
    }
}

impl<R: HeapRules> Component for Heap<R> {
    fn write_arguments(&self, out: &mut String) {
        use std::fmt::Write as _;
        match (&self.text, self.size.to_u64()) {
            (Some(text), _) => out.push_str(text),
            (None, Some(small)) => {
                let _ = write!(out, "{small}");
            }
            (None, None) => {
                let _ = write!(out, "{}", self.size);
            }
        }
    }

    fn nimber_by_theory(&self) -> Option<(BigUint, &'static str)> {
        self.rules.heap_nimber(&self.size)
    }

    fn moves(&self, limit: usize) -> Result<Vec<Vec<Part>>, SearchError> {
        if let Some(reason) = self.rules.heap_nimber_refusal(&self.size) {
            return Err(SearchError::TheoryLimit { reason });
        }
        let size = self
            .size
            .to_u64()
            .filter(|&size| size <= limit as u64)
            .ok_or(SearchError::StateLimit { limit })?;
        let mut moves = Vec::new();
        self.rules.heap_moves(size, limit, &mut moves);
        if moves.len() > limit {
            return Err(SearchError::StateLimit { limit });
        }
        Ok(moves
            .into_iter()
            .map(|leaves| Self::parts(&self.rules, leaves.into_iter().map(BigUint::from)))
            .collect())
    }

    fn moves_to_nimber_by_theory(&self, target: &BigUint, max: usize) -> Option<MovesTo> {
        let (count, listed) = self.rules.heap_moves_to_nimber(&self.size, target, max)?;
        Some(MovesTo {
            count,
            listed: listed
                .into_iter()
                .map(|leaves| Self::parts(&self.rules, leaves))
                .collect(),
        })
    }

    fn moves_to_nimber_refusal(&self, target: &BigUint) -> Option<String> {
        self.rules.heap_moves_to_nimber_refusal(&self.size, target)
    }

    fn satisfies_anti_sg_condition(&self) -> bool {
        self.rules.satisfies_anti_sg_condition()
    }

    fn describe_move(&self, to: &[Part]) -> String {
        let mut sizes = Vec::with_capacity(to.len());
        for part in to {
            let mut text = String::new();
            part.write_arguments(&mut text);
            sizes.push(text);
        }
        let left: BigUint = sizes.iter().filter_map(|s| s.parse::<BigUint>().ok()).sum();
        let removed = &self.size - left.min(self.size.clone());
        describe_heap_move(&self.size, &removed, &sizes)
    }
}

/// "take 2 from the heap of 7", "remove 2 from the heap of 10, leaving 3 and 5".
fn describe_heap_move(size: &BigUint, removed: &BigUint, leaves: &[String]) -> String {
    let leaves: Vec<&String> = leaves.iter().filter(|s| s.as_str() != "0").collect();
    match leaves.as_slice() {
        [] | [_] if !removed.is_zero() => format!("take {removed} from the heap of {size}"),
        [] => format!("empty the heap of {size}"),
        [only] => format!("change the heap of {size} into {only}"),
        many => {
            let (last, first) = many.split_last().unwrap_or((&many[0], &[]));
            let list = format!(
                "{} and {last}",
                first
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            if removed.is_zero() {
                format!("split the heap of {size} into {list}")
            } else {
                format!("remove {removed} from the heap of {size}, leaving {list}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_moves_are_described_in_words() {
        let n = |v: u32| BigUint::from(v);
        let s = |v: &[&str]| v.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            describe_heap_move(&n(7), &n(2), &s(&["5"])),
            "take 2 from the heap of 7"
        );
        assert_eq!(
            describe_heap_move(&n(7), &n(7), &s(&["0"])),
            "take 7 from the heap of 7"
        );
        assert_eq!(
            describe_heap_move(&n(10), &n(2), &s(&["3", "5"])),
            "remove 2 from the heap of 10, leaving 3 and 5"
        );
        assert_eq!(
            describe_heap_move(&n(10), &n(0), &s(&["3", "7"])),
            "split the heap of 10 into 3 and 7"
        );
    }
}
