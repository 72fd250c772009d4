//! What every way of answering a misère sum shares: the answer it gives, and
//! the heaps a move leaves as components.

use num_bigint::BigUint;
use num_traits::Zero;

use crate::family::Part;
use crate::sums::answer::{Answer, SearchCost, WinningMove};
use crate::sums::position::{Position, PositionText};
use crate::theory::game::{Convention, Outcome};

/// The heaps a move leaves, as components of `part`'s game, written as its
/// own moves are: a single-heap game's emptied heap is its heap of 0.
pub(in crate::sums) fn leaf_parts(
    part: &Part,
    rule: &crate::rules::HeapRule,
    leaves: Vec<BigUint>,
) -> Option<Vec<Part>> {
    let mut sizes: Vec<BigUint> = leaves.into_iter().filter(|l| !l.is_zero()).collect();
    if sizes.is_empty() && rule.keeps_one_heap() {
        sizes.push(BigUint::zero());
    }
    sizes.into_iter().map(|size| part.heap_part(size)).collect()
}

/// The misère answer to `position` found by `method`: no nimber, every winning
/// move counted, no notes and no search.
pub(in crate::sums) fn misere_answer(
    position: &Position,
    outcome: Outcome,
    winning_moves: Vec<WinningMove>,
    winning_move_count: BigUint,
    truncated: bool,
    method: &str,
) -> Answer {
    Answer {
        position: PositionText::new(position),
        convention: Convention::Misere,
        play: "misere",
        outcome,
        nimber: None,
        loopy_value: None,
        winning_moves,
        winning_move_count,
        moves_counted: true,
        truncated,
        method: method.to_owned(),
        notes: Vec::new(),
        search: SearchCost::default(),
    }
}
