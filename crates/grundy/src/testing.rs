//! Helpers shared by the unit tests: the catalogue's answer to a position's
//! text, and the check of its winning moves against a search.

use crate::catalogue::build;
use crate::lang::parse;
use crate::sums::analysis::{Answer, SolveOptions, solve};
use crate::theory::game::ImpartialGame;

pub(crate) use crate::random::{SplitMix, Xorshift};

/// The answer to the position `text` built by the catalogue, under `options`;
/// panics when the text does not parse, build or solve.
#[track_caller]
pub(crate) fn answer_with(text: &str, options: &SolveOptions) -> Answer {
    let position = build(&parse(text).unwrap()).unwrap();
    solve(&position, options).unwrap()
}

/// [`answer_with`] the default options.
#[track_caller]
pub(crate) fn answer(text: &str) -> Answer {
    answer_with(text, &SolveOptions::default())
}

/// [`answer_with`] options that list every winning move.
#[track_caller]
pub(crate) fn answer_listing_every_move(text: &str) -> Answer {
    let options = SolveOptions {
        max_moves: usize::MAX,
        ..SolveOptions::default()
    };
    answer_with(text, &options)
}

/// Asserts that the winning moves listed in `found` lead to the positions
/// `expected`, in any order (`context` names the case in the message).
#[track_caller]
pub(crate) fn assert_targets(found: &Answer, mut expected: Vec<String>, context: &str) {
    let mut targets: Vec<String> = found
        .winning_moves
        .iter()
        .map(|m| found.target(m))
        .collect();
    expected.sort();
    targets.sort();
    assert_eq!(targets, expected, "{context}");
}

/// The descriptions of the winning moves listed in `found`, in order.
pub(crate) fn descriptions(found: &Answer) -> Vec<&str> {
    found
        .winning_moves
        .iter()
        .map(|m| m.description.as_str())
        .collect()
}

/// The subtraction game of the listed subtraction set, on one heap, for the
/// generic searches.
pub(crate) struct Subtraction(pub(crate) Vec<u32>);

impl ImpartialGame for Subtraction {
    type Position = u32;
    fn moves(&self, heap: &u32, moves: &mut Vec<u32>) {
        moves.extend(self.0.iter().filter(|&&s| s <= *heap).map(|s| heap - s));
    }
}
