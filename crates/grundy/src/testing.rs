//! Helpers shared by the unit tests: the catalogue's answer to a position's
//! text, and the check of its winning moves against a search.

use num_bigint::BigUint;

use crate::catalogue::build;
use crate::lang::{LangError, parse};
use crate::sums::analysis::{Answer, SolveOptions, solve};
use crate::theory::game::{ImpartialGame, Outcome};

pub(crate) use crate::random::{SplitMix, Xorshift};

/// Runs `work` on a rayon pool of `threads` threads (the computations that
/// share their work use the current pool's threads).
pub(crate) fn on_pool<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
        .install(work)
}

/// `work` on pools of 1, 2 and 7 threads (more threads than cores), in turn.
pub(crate) fn on_one_two_and_seven_threads<T: Send>(work: impl Fn() -> T + Sync) -> Vec<T> {
    [1, 2, 7]
        .into_iter()
        .map(|threads| on_pool(threads, &work))
        .collect()
}

/// The answer to the position `text` built by the catalogue, under `options`;
/// panics when the text does not parse, build or solve.
#[track_caller]
pub(crate) fn answer_with(text: &str, options: &SolveOptions) -> Answer {
    let position = build(&parse(text).unwrap()).unwrap();
    solve(&position, options).unwrap()
}

/// The answer to the position `text` built by the catalogue under the default
/// options, or the error that the text does not parse or build; panics when the
/// position does not solve.
#[track_caller]
pub(crate) fn try_answer(text: &str) -> Result<Answer, LangError> {
    let position = build(&parse(text)?)?;
    Ok(solve(&position, &SolveOptions::default()).unwrap())
}

/// Checks that each text is refused with its message: `(text, message)`.
#[track_caller]
pub(crate) fn assert_refused(cases: &[(&str, &str)]) {
    for &(text, message) in cases {
        match try_answer(text) {
            Ok(found) => panic!(
                "`{text}` was answered ({}), not refused",
                found.position.as_str()
            ),
            Err(error) => assert_eq!(error.message, message, "{text}"),
        }
    }
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

/// The position after each winning move listed in `found`, as text, with its
/// answer, asserted to be a loss for the player to move (`text` names the case).
#[track_caller]
pub(crate) fn answers_after_winning_moves(found: &Answer, text: &str) -> Vec<(String, Answer)> {
    let mut after = Vec::new();
    for winning in &found.winning_moves {
        let target = found.target(winning);
        let back = answer(&target);
        assert_eq!(
            back.outcome,
            Outcome::PreviousPlayerWins,
            "{text} -> {target}"
        );
        after.push((target, back));
    }
    after
}

/// The descriptions of the winning moves listed in `found`, in order.
pub(crate) fn descriptions(found: &Answer) -> Vec<&str> {
    found
        .winning_moves
        .iter()
        .map(|m| m.description.as_str())
        .collect()
}

/// The texts of the take-and-break codes `0.a` and `0.ab`, `a` and `b`
/// hexadecimal digits (`0.a0` written `0.a`), in order.
pub(crate) fn hexadecimal_code_texts() -> impl Iterator<Item = String> {
    const HEX: &str = "0123456789ABCDEF";
    HEX.chars().flat_map(|a| {
        HEX.chars().map(move |b| {
            if b == '0' {
                format!("0.{a}")
            } else {
                format!("0.{a}{b}")
            }
        })
    })
}

/// Every vector of `length` entries from `0..=max`, the first entry varying
/// fastest.
pub(crate) fn all_vectors(length: usize, max: u32) -> Vec<Vec<u32>> {
    (0..(max + 1).pow(length as u32))
        .map(|mut code| {
            (0..length)
                .map(|_| {
                    let digit = code % (max + 1);
                    code /= max + 1;
                    digit
                })
                .collect()
        })
        .collect()
}

/// The values as big integers.
pub(crate) fn bigs(values: &[u32]) -> Vec<BigUint> {
    values.iter().map(|&v| BigUint::from(v)).collect()
}

/// The contract's text of a graph, without the quotes: `n m; u v; ...`, the
/// vertices of `edges` numbered from 0 written from 1.
pub(crate) fn graph_text(n: u32, edges: &[(u32, u32)]) -> String {
    let mut text = format!("{n} {}", edges.len());
    for &(u, v) in edges {
        text.push_str(&format!("; {} {}", u + 1, v + 1));
    }
    text
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
