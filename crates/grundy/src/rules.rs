//! The rules of heap games as data, for the sequence engine: a move acts on one
//! heap, removing some tokens and leaving the rest as zero or more smaller heaps.
//!
//! By the Sprague-Grundy theorem a position's nimber is the nim-sum (xor) of the Grundy
//! values of its heaps, so a heap game is solved by the sequence `G(0), G(1), ...`
//! (see [`crate::sequence`]). [`HeapRule`] names the rules; [`HeapRule::moves`] lists the
//! moves from one heap.
//!
//! The named games:
//! - **Grundy's game**: split one heap into two non-empty heaps of different sizes. Its
//!   sequence is not known to be periodic (computed far beyond 10^9 values by
//!   Flammenkamp without a period); CGSuite writes its rule `4!.0`.
//! - **Lasker's Nim**: remove any positive number of tokens from a heap, or split a heap
//!   into two non-empty heaps. Closed form (Winning Ways, chapter 15,
//!   "multi-nim"): `G(0) = 0`, `G(4k+1) = 4k+1`, `G(4k+2) = 4k+2`, `G(4k+3) = 4k+4`,
//!   `G(4k+4) = 4k+3`.
//! - **Rest Nim**: remove any positive number of tokens, then split what remains
//!   freely into any number of non-empty heaps. `G(n) = n`: removing without splitting
//!   reaches every value below `n`, and a split of `m < n` tokens into heaps `a_i` has
//!   value at most `a_1 + ... + a_k = m < n` (xor never exceeds the sum), so `n` is
//!   never reached. The sequence engine computes the values
//!   from the rules and tests confirm the closed form.

use std::fmt;

use smallvec::SmallVec;

pub mod lasker;
pub mod octal;
pub mod subtraction_sets;

use octal::{CodeError, LEAVE_NONE, LEAVE_ONE, LEAVE_THREE, LEAVE_TWO, TakeAndBreak};
use subtraction_sets::{AllButSubtraction, SubtractionError, SubtractionSet};

/// The rules of a heap game: what one move may do to one heap.
///
/// ```
/// use grundy::rules::HeapRule;
/// let kayles = HeapRule::octal("0.77").unwrap();
/// assert_eq!(kayles.to_string(), "octal[0.77]");
/// // From a heap of 3, Kayles removes 1 or 2 tokens, leaving one or two heaps.
/// let moves: Vec<String> = kayles.moves(3).map(|m| m.to_string()).collect();
/// assert_eq!(moves, [
///     "remove 1 from the heap of 3, leaving 2",
///     "remove 1 from the heap of 3, leaving 1 and 1",
///     "remove 2 from the heap of 3, leaving 1",
/// ]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum HeapRule {
    /// A take-and-break game by octal or hexadecimal code.
    TakeAndBreak(TakeAndBreak),
    /// Remove a number of tokens from a finite set.
    Subtraction(SubtractionSet),
    /// Remove any positive number of tokens except a finite set (Nim when none excluded).
    AllButSubtraction(AllButSubtraction),
    /// Split a heap into two non-empty heaps of different sizes.
    GrundysGame,
    /// Remove any positive number, or split a heap into two non-empty heaps.
    LaskersNim,
    /// Remove any positive number, then split the rest into any number of heaps.
    RestNim,
}

/// Errors from building a [`HeapRule`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// An invalid octal or hexadecimal code.
    #[error(transparent)]
    Code(#[from] CodeError),
    /// An invalid subtraction set.
    #[error(transparent)]
    Subtraction(#[from] SubtractionError),
}

impl HeapRule {
    /// The bytes the rule holds beyond its own size (its code's digits, its
    /// set's elements): what a memory keyed by the rule counts for it.
    #[must_use]
    pub fn held_bytes(&self) -> usize {
        match self {
            Self::TakeAndBreak(rule) => rule.digits().len(),
            Self::Subtraction(set) => size_of_val(set.elements()),
            Self::AllButSubtraction(set) => size_of_val(set.excluded()),
            Self::GrundysGame | Self::LaskersNim | Self::RestNim => 0,
        }
    }

    /// The take-and-break game with this code; `4!.0` (CGSuite's notation) is Grundy's game.
    pub fn octal(code: &str) -> Result<Self, RuleError> {
        if code == "4!.0" {
            return Ok(Self::GrundysGame);
        }
        Ok(Self::TakeAndBreak(code.parse()?))
    }

    /// The finite subtraction game with these numbers of tokens.
    pub fn subtraction(set: impl IntoIterator<Item = u32>) -> Result<Self, RuleError> {
        Ok(Self::Subtraction(SubtractionSet::new(set)?))
    }

    /// The all-but subtraction game excluding these numbers.
    pub fn all_but(excluded: impl IntoIterator<Item = u32>) -> Result<Self, RuleError> {
        Ok(Self::AllButSubtraction(AllButSubtraction::new(excluded)?))
    }

    /// Nim: remove any positive number of tokens.
    pub fn nim() -> Self {
        Self::AllButSubtraction(
            AllButSubtraction::new([]).expect("the empty exclusion set is valid"),
        )
    }

    /// Kayles, `0.77`.
    pub fn kayles() -> Self {
        Self::TakeAndBreak("0.77".parse().expect("0.77 is a valid code"))
    }

    /// Dawson's Kayles, `0.07`.
    pub fn dawsons_kayles() -> Self {
        Self::TakeAndBreak("0.07".parse().expect("0.07 is a valid code"))
    }

    /// Whether a position of the rule is a single heap (an emptied heap is the
    /// heap of 0): subtraction and all-but games. Take-and-break games leave
    /// any number of heaps, none when the last is taken.
    pub const fn keeps_one_heap(&self) -> bool {
        matches!(self, Self::Subtraction(_) | Self::AllButSubtraction(_))
    }

    /// The largest number of tokens one move removes, when bounded.
    pub fn max_removed(&self) -> Option<u64> {
        match self {
            Self::TakeAndBreak(code) => Some(code.max_removed() as u64),
            Self::Subtraction(set) => Some(u64::from(set.max())),
            Self::GrundysGame => Some(0),
            Self::AllButSubtraction(_) | Self::LaskersNim | Self::RestNim => None,
        }
    }

    /// Every move from a heap of `heap` tokens, each as the heaps it leaves.
    ///
    /// Moves are listed once each as a player makes them: a split into `a` and `b` is
    /// one move, listed with its parts in increasing order. Different moves always
    /// leave different positions. The iterator is lazy: Rest Nim has exponentially
    /// many moves from a large heap.
    pub fn moves(&self, heap: u64) -> Box<dyn Iterator<Item = HeapMove> + '_> {
        match self {
            Self::TakeAndBreak(code) => {
                let k = (code.max_removed() as u64).min(heap);
                Box::new((0..=k).flat_map(move |removed| {
                    code_moves(code.digit(removed as usize), heap, removed)
                }))
            }
            Self::Subtraction(set) => Box::new(
                set.elements()
                    .iter()
                    .map(|&s| u64::from(s))
                    .filter(move |&s| s <= heap)
                    .map(move |s| HeapMove::new(heap, s, &leaves_one(heap - s))),
            ),
            Self::AllButSubtraction(game) => Box::new(
                (1..=heap)
                    .filter(move |&s| game.allows(s))
                    .map(move |s| HeapMove::new(heap, s, &leaves_one(heap - s))),
            ),
            Self::GrundysGame => {
                Box::new((1..heap.div_ceil(2)).map(move |a| HeapMove::new(heap, 0, &[a, heap - a])))
            }
            Self::LaskersNim => Box::new(
                (1..=heap)
                    .map(move |s| HeapMove::new(heap, s, &leaves_one(heap - s)))
                    .chain((1..=heap / 2).map(move |a| HeapMove::new(heap, 0, &[a, heap - a]))),
            ),
            Self::RestNim => Box::new((1..=heap).flat_map(move |removed| {
                Partitions::new(heap - removed)
                    .map(move |parts| HeapMove::new(heap, removed, &parts))
            })),
        }
    }
}

fn leaves_one(rest: u64) -> SmallVec<[u64; 3]> {
    if rest == 0 {
        SmallVec::new()
    } else {
        SmallVec::from_slice(&[rest])
    }
}

/// The moves of one digit of a take-and-break code from `heap`, removing `removed`.
fn code_moves(digit: u8, heap: u64, removed: u64) -> Box<dyn Iterator<Item = HeapMove>> {
    let rest = heap - removed;
    let none = (digit & LEAVE_NONE != 0 && rest == 0 && removed > 0)
        .then(|| HeapMove::new(heap, removed, &[]));
    let one = (digit & LEAVE_ONE != 0 && rest >= 1 && removed > 0)
        .then(|| HeapMove::new(heap, removed, &[rest]));
    let two_count = if digit & LEAVE_TWO != 0 { rest / 2 } else { 0 };
    let two = (1..=two_count).map(move |a| HeapMove::new(heap, removed, &[a, rest - a]));
    let three_count = if digit & LEAVE_THREE != 0 {
        rest / 3
    } else {
        0
    };
    let three = (1..=three_count).flat_map(move |a| {
        (a..=(rest - a) / 2).map(move |b| HeapMove::new(heap, removed, &[a, b, rest - a - b]))
    });
    Box::new(none.into_iter().chain(one).chain(two).chain(three))
}

/// One move in a heap game: from a heap of `heap` tokens, remove `removed` tokens and
/// leave the heaps `leaves` (in increasing order, each non-empty).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HeapMove {
    /// The size of the heap moved in.
    pub heap: u64,
    /// How many tokens the move removes.
    pub removed: u64,
    /// The heaps left in its place, in increasing order (empty when nothing is left).
    pub leaves: SmallVec<[u64; 3]>,
}

impl HeapMove {
    fn new(heap: u64, removed: u64, leaves: &[u64]) -> Self {
        let mut leaves = SmallVec::from_slice(leaves);
        leaves.sort_unstable();
        Self {
            heap,
            removed,
            leaves,
        }
    }
}

impl fmt::Display for HeapMove {
    /// A short description: "remove 2 from the heap of 10, leaving 3 and 5",
    /// "split the heap of 7 into 3 and 4", "remove the whole heap of 3".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.leaves.is_empty() {
            return write!(f, "remove the whole heap of {}", self.heap);
        }
        if self.removed == 0 {
            write!(f, "split the heap of {} into ", self.heap)?;
        } else {
            write!(
                f,
                "remove {} from the heap of {}, leaving ",
                self.removed, self.heap
            )?;
        }
        let count = self.leaves.len();
        for (i, part) in self.leaves.iter().enumerate() {
            if i > 0 {
                f.write_str(if i + 1 == count { " and " } else { ", " })?;
            }
            write!(f, "{part}")?;
        }
        Ok(())
    }
}

impl fmt::Display for HeapRule {
    /// The rule as a term of the expression language: `octal[0.77]`, `sub[1,3,4]`,
    /// `all_but[2,5]`, `nim`, `grundy_game`, `lasker`, `rest_nim`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TakeAndBreak(code) => write!(f, "octal[{code}]"),
            Self::Subtraction(set) => write!(f, "sub[{set}]"),
            Self::AllButSubtraction(game) if game.is_nim() => f.write_str("nim"),
            Self::AllButSubtraction(game) => write!(f, "all_but[{game}]"),
            Self::GrundysGame => f.write_str("grundy_game"),
            Self::LaskersNim => f.write_str("lasker"),
            Self::RestNim => f.write_str("rest_nim"),
        }
    }
}

/// The partitions of a number into positive parts, each listed once with its parts in
/// non-increasing order; `0` has one partition, the empty one.
#[derive(Debug)]
struct Partitions {
    parts: Vec<u64>,
    finished: bool,
}

impl Partitions {
    fn new(total: u64) -> Self {
        let parts = if total == 0 { Vec::new() } else { vec![total] };
        Self {
            parts,
            finished: false,
        }
    }
}

impl Iterator for Partitions {
    type Item = Vec<u64>;

    fn next(&mut self) -> Option<Vec<u64>> {
        if self.finished {
            return None;
        }
        let current = self.parts.clone();
        // Next partition in reverse lexicographic order: lower the last part above 1 by
        // one and refill the rest greedily with parts no larger than it.
        let mut ones = 0;
        while self.parts.last() == Some(&1) {
            self.parts.pop();
            ones += 1;
        }
        match self.parts.last_mut() {
            None => self.finished = true,
            Some(last) => {
                *last -= 1;
                let cap = *last;
                let mut rest = ones + 1;
                while rest > 0 {
                    let part = rest.min(cap);
                    self.parts.push(part);
                    rest -= part;
                }
            }
        }
        Some(current)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaves(rule: &HeapRule, heap: u64) -> Vec<Vec<u64>> {
        rule.moves(heap).map(|m| m.leaves.to_vec()).collect()
    }

    #[test]
    fn partitions_are_complete_and_distinct() {
        // p(0..=10)
        let counts: Vec<usize> = (0..=10).map(|m| Partitions::new(m).count()).collect();
        assert_eq!(counts, [1, 1, 2, 3, 5, 7, 11, 15, 22, 30, 42]);
        let all: Vec<Vec<u64>> = Partitions::new(4).collect();
        assert_eq!(
            all,
            [
                vec![4],
                vec![3, 1],
                vec![2, 2],
                vec![2, 1, 1],
                vec![1, 1, 1, 1]
            ]
        );
    }

    #[test]
    fn octal_moves_follow_the_digits() {
        let dawson = HeapRule::dawsons_kayles();
        // 0.07: remove 2 leaving 0, 1 or 2 heaps.
        assert_eq!(leaves(&dawson, 1), Vec::<Vec<u64>>::new());
        assert_eq!(leaves(&dawson, 2), [Vec::<u64>::new()]);
        assert_eq!(leaves(&dawson, 5), [vec![3], vec![1, 2]]);
        let free_split = HeapRule::octal("4.0").unwrap();
        assert_eq!(leaves(&free_split, 5), [vec![1, 4], vec![2, 3]]);
        let hex = HeapRule::octal("0.8").unwrap();
        assert_eq!(leaves(&hex, 6), [vec![1, 1, 3], vec![1, 2, 2]]);
        assert_eq!(
            leaves(&hex, 7),
            [vec![1, 1, 4], vec![1, 2, 3], vec![2, 2, 2]]
        );
        let officers = HeapRule::octal("0.6").unwrap();
        assert_eq!(leaves(&officers, 1), Vec::<Vec<u64>>::new());
        assert_eq!(leaves(&officers, 4), [vec![3], vec![1, 2]]);
    }

    #[test]
    fn named_games_moves() {
        assert_eq!(leaves(&HeapRule::GrundysGame, 4), [vec![1, 3]]);
        assert_eq!(
            leaves(&HeapRule::GrundysGame, 7),
            [vec![1, 6], vec![2, 5], vec![3, 4]]
        );
        assert_eq!(
            leaves(&HeapRule::LaskersNim, 4),
            [vec![3], vec![2], vec![1], vec![], vec![1, 3], vec![2, 2]]
        );
        let rest: Vec<Vec<u64>> = leaves(&HeapRule::RestNim, 3);
        assert_eq!(rest, [vec![2], vec![1, 1], vec![1], vec![]]);
        assert_eq!(
            HeapRule::RestNim.moves(10).count(),
            (0..10).map(|m| Partitions::new(m).count()).sum::<usize>()
        );
        let sub = HeapRule::subtraction([1, 3, 4]).unwrap();
        assert_eq!(leaves(&sub, 3), [vec![2], vec![]]);
        let all_but = HeapRule::all_but([2]).unwrap();
        assert_eq!(leaves(&all_but, 3), [vec![2], Vec::<u64>::new()]);
    }

    #[test]
    fn displays() {
        assert_eq!(HeapRule::octal("4!.0").unwrap(), HeapRule::GrundysGame);
        assert_eq!(
            HeapRule::subtraction([4, 1, 3]).unwrap().to_string(),
            "sub[1,3,4]"
        );
        assert_eq!(HeapRule::nim().to_string(), "nim");
        assert_eq!(
            HeapRule::all_but([5, 2]).unwrap().to_string(),
            "all_but[2,5]"
        );
        assert_eq!(HeapRule::GrundysGame.to_string(), "grundy_game");
        assert_eq!(HeapRule::LaskersNim.to_string(), "lasker");
        assert_eq!(HeapRule::RestNim.to_string(), "rest_nim");
        let split = HeapMove::new(10, 2, &[5, 3]);
        assert_eq!(
            split.to_string(),
            "remove 2 from the heap of 10, leaving 3 and 5"
        );
        assert_eq!(
            HeapMove::new(7, 0, &[3, 4]).to_string(),
            "split the heap of 7 into 3 and 4"
        );
        assert_eq!(
            HeapMove::new(3, 3, &[]).to_string(),
            "remove the whole heap of 3"
        );
        assert_eq!(
            HeapMove::new(9, 1, &[2, 3, 3]).to_string(),
            "remove 1 from the heap of 9, leaving 2, 3 and 3"
        );
        assert!(matches!(HeapRule::octal("2.1"), Err(RuleError::Code(_))));
    }
}
