//! Wythoff's game and extended Wythoff, decided exactly for piles of any size.
//!
//! # Rules
//! Two piles. A move takes any positive number of counters from one pile, or
//! takes `x >= 0` from the first and `y >= 0` from the second pile at once with
//! `x + y >= 1` and `|x - y| <= d`. With `d = 0` (take the same number from
//! both) this is Wythoff's game (Wythoff 1907); `d >= 1` is the extension of
//! Fraenkel ("How to beat your Wythoff games' opponent on three fronts", *Amer.
//! Math. Monthly* 89, 1982), the game `wythoff[d]` of seed note `002`.
//!
//! # Theorem
//! Let `s = d + 1`. The P-positions are the pairs `(A_n, B_n)` and `(B_n, A_n)`
//! for `n >= 0`, where `A_n = mex {A_i, B_i : i < n}` and `B_n = A_n + s n`
//! (Fraenkel 1982, Theorem 1; for `d = 0` Wythoff 1907 and seed note `000`
//! §2.5). In closed form `A_n = floor(n alpha)` and `B_n = floor(n beta)` with
//! `alpha = (2 - s + sqrt(s^2 + 4)) / 2` and `beta = alpha + s`: `1/alpha +
//! 1/beta = 1` and both are irrational, so by Beatty's theorem the two sequences
//! partition the positive integers. For `d = 0`, `alpha` is the golden ratio and
//! `beta = alpha^2`. Seed note `002` states the same `alpha` as `(1 - d +
//! sqrt(d^2 + 2d + 5)) / 2`, which is equal; the tests check it against the mex
//! recurrence and against exhaustive search.
//!
//! # Exact arithmetic
//! No floating point: `n alpha = (n (1 - d) + sqrt(n^2 D)) / 2` with `D = s^2 +
//! 4`, and since `n^2 D` is never a perfect square for `n >= 1` (`D` lies
//! strictly between `s^2` and `(s + 1)^2` for `s >= 2`, and is 5 for `s = 1`),
//! `floor(n alpha) = floor((n (1 - d) + isqrt(n^2 D)) / 2)`, an integer square
//! root of a number of twice the size of the piles. Deciding a position and
//! listing its winning moves takes a handful of square roots: microseconds for
//! 1,000-digit piles.
//!
//! # Winning moves
//! Every P-position `(x', y')` reachable from `(x, y)` is reached by exactly one
//! move, so the winning moves are the reachable P-positions. They are among:
//! `(x, y')` where `y'` is the partner of `x` in its P-pair, `(x', y)` where `x'`
//! is the partner of `y`, and the at most two P-positions whose signed
//! difference `y' - x'` (a multiple of `s`) lies within `d` of `y - x`. So a
//! position has at most four winning moves.
//!
//! # Nimbers
//! Wythoff's game has no known closed form for nimbers other than 0 (the
//! nimbers along a row are known to be eventually additively periodic, but
//! not given by a formula); [`Wythoff::nimber_by_search`] computes them for small
//! piles with the generic solver.
//!
//! ```
//! use grundy::games::wythoff::Wythoff;
//! use num_bigint::BigUint;
//!
//! let wythoff = Wythoff::CLASSIC;
//! // (3, 5) is a P-position: floor(2 phi) = 3 and 3 + 2 = 5.
//! assert!(wythoff.is_p_position(&BigUint::from(3u8), &BigUint::from(5u8)).unwrap());
//! // From (4, 8) the one winning move goes to the P-position (4, 7).
//! let moves = wythoff.winning_moves(&BigUint::from(4u8), &BigUint::from(8u8)).unwrap();
//! assert_eq!(moves.len(), 1);
//! assert_eq!(moves[0].describe(), "take 1 from the second pile");
//! // Piles of any size: the 10^100-th P-position.
//! let index = BigUint::from(10u8).pow(100);
//! let (lower, upper) = wythoff.p_position(&index);
//! assert!(wythoff.is_p_position(&upper, &lower).unwrap());
//! ```

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{One, Zero};

use std::sync::Arc;

use crate::family::{Family, MovesTo, OutcomeAnswer, Rules, SearchedNimbers, part};
use crate::lang::arguments::{heap_sizes, integer_param};
use crate::lang::{LangError, Term};
use crate::sums::entry::{BuildContext, EntryKind, GameEntry};
use crate::sums::position::Group;
use crate::theory::game::Outcome;
use crate::theory::solver::{Budget, SearchError, Solver};

/// The largest pile, in bits, that the closed form accepts: 131,072 bits, about
/// 39,000 decimal digits. Beyond it the integer square roots (quadratic-time
/// division in `num-bigint`) would take seconds; the limit keeps every answer
/// fast and refuses larger inputs with [`WythoffError::PileTooLarge`].
pub const MAX_PILE_BITS: u64 = 1 << 17;

/// The most moves [`Wythoff::nimber_by_search`] may generate, an estimate made
/// before searching so that a request too large is refused at once.
pub const MAX_SEARCH_MOVES: u64 = 200_000_000;

/// Why a Wythoff question has no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WythoffError {
    /// A pile is larger than [`MAX_PILE_BITS`].
    #[error(
        "a pile of {bits} bits is larger than the limit of {limit} bits (about 39,000 decimal digits)"
    )]
    PileTooLarge {
        /// The size of the pile, in bits.
        bits: u64,
        /// The limit, in bits.
        limit: u64,
    },
    /// The nimber has no closed form and the search it needs is too large.
    #[error(
        "the nimber of a Wythoff position has no closed form, and searching ({first}, {second}) \
         would generate about {moves} moves, more than the limit of {limit}"
    )]
    SearchTooLarge {
        /// The first pile.
        first: u64,
        /// The second pile.
        second: u64,
        /// The estimated number of moves the search would generate.
        moves: u64,
        /// The limit, [`MAX_SEARCH_MOVES`].
        limit: u64,
    },
    /// The search itself stopped.
    #[error(transparent)]
    Search(#[from] SearchError),
}

/// Wythoff's game (`d = 0`) or extended Wythoff `wythoff[d]`: the rules, as a
/// game the generic solver can search on `u32` piles, and the exact closed form
/// on piles of any size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wythoff {
    difference_bound: u64,
}

/// One move of Wythoff's game: how many counters it takes from each pile and the
/// position it leads to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WythoffMove {
    /// Counters taken from the first pile.
    pub take_first: BigUint,
    /// Counters taken from the second pile.
    pub take_second: BigUint,
    /// The position after the move, `(first pile, second pile)`.
    pub to: (BigUint, BigUint),
}

impl WythoffMove {
    /// The move in words, e.g. `take 2 from the first pile and 3 from the second`.
    #[must_use]
    pub fn describe(&self) -> String {
        match (self.take_first.is_zero(), self.take_second.is_zero()) {
            (false, true) => format!("take {} from the first pile", self.take_first),
            (true, false) => format!("take {} from the second pile", self.take_second),
            _ => format!(
                "take {} from the first pile and {} from the second",
                self.take_first, self.take_second
            ),
        }
    }
}

impl Wythoff {
    /// Wythoff's game: take from one pile, or the same number from both.
    pub const CLASSIC: Self = Self {
        difference_bound: 0,
    };

    /// Extended Wythoff: take from one pile, or `x` and `y` from both with
    /// `|x - y| <= difference_bound`.
    #[must_use]
    pub const fn extended(difference_bound: u64) -> Self {
        Self { difference_bound }
    }

    /// The parameter `d`: how much the two amounts of a two-pile move may differ.
    #[must_use]
    pub const fn difference_bound(self) -> u64 {
        self.difference_bound
    }

    /// `s = d + 1`, the difference step between consecutive P-positions.
    fn step(self) -> BigUint {
        BigUint::from(self.difference_bound) + 1u32
    }

    /// `D = s^2 + 4`, so that `alpha = (2 - s + sqrt(D)) / 2`.
    fn discriminant(self) -> BigUint {
        let step = self.step();
        &step * &step + 4u32
    }

    /// `A_n = floor(n alpha)`, exactly: `(isqrt(n^2 D) + n - d n) / 2`.
    ///
    /// The numerator is nonnegative because `alpha > 0`, and the floor of the
    /// square root may replace the square root because the floor of `(c + r) / 2`
    /// only depends on the floor of `r` when `c` is an integer.
    fn lower(self, index: &BigUint) -> BigUint {
        let root = (index * index * self.discriminant()).sqrt();
        (root + index - index * self.difference_bound) >> 1u32
    }

    /// The `index`-th P-position `(A_n, B_n)`, with `A_n <= B_n`; the 0th is `(0, 0)`.
    #[must_use]
    pub fn p_position(&self, index: &BigUint) -> (BigUint, BigUint) {
        let lower = self.lower(index);
        let upper = &lower + index * self.step();
        (lower, upper)
    }

    /// The P-positions `(A_n, B_n)` for `n = 0, 1, 2, ...`, in order.
    #[must_use]
    pub fn p_positions(&self) -> PPositions {
        PPositions {
            game: *self,
            next_index: BigUint::zero(),
        }
    }

    /// The P-positions `(A_n, B_n)` for `n = from, from + 1, ...`, in order.
    #[must_use]
    pub fn p_positions_from(&self, from: BigUint) -> PPositions {
        PPositions {
            game: *self,
            next_index: from,
        }
    }

    /// The rule named by a term `wythoff` or `wythoff[d]` (also `wythoff[d=2]`).
    ///
    /// # Errors
    /// A [`LangError`] at a parameter that is not a non-negative integer, too
    /// large, or one too many.
    pub fn from_term(term: &Term) -> Result<Self, LangError> {
        if let Some((key, span)) = term
            .params
            .iter()
            .filter_map(|p| p.key.as_ref())
            .find(|(key, _)| key != "d")
        {
            return Err(LangError::new(
                format!("`wythoff` has no parameter `{key}`; its parameter is d"),
                *span,
            ));
        }
        let difference_bound = match integer_param(term, 0, "d", 0)? {
            None => 0,
            Some(d) => u64::try_from(&d).map_err(|_| {
                LangError::new(
                    format!("the parameter `d` of `wythoff` is too large: {d}"),
                    term.params[0].value.span,
                )
            })?,
        };
        if term.params.len() > 1 {
            return Err(LangError::new(
                "`wythoff` takes one parameter, d",
                term.params[1].value.span,
            ));
        }
        Ok(Self::extended(difference_bound))
    }

    /// The rule's canonical name: `wythoff` or `wythoff[d]`.
    #[must_use]
    pub fn name(self) -> String {
        if self.difference_bound == 0 {
            "wythoff".to_owned()
        } else {
            format!("wythoff[{}]", self.difference_bound)
        }
    }

    fn check_size(piles: [&BigUint; 2]) -> Result<(), WythoffError> {
        for pile in piles {
            if pile.bits() > MAX_PILE_BITS {
                return Err(WythoffError::PileTooLarge {
                    bits: pile.bits(),
                    limit: MAX_PILE_BITS,
                });
            }
        }
        Ok(())
    }

    /// Whether `(first, second)` is a P-position (a loss for the player to move).
    ///
    /// # Errors
    /// [`WythoffError::PileTooLarge`] above [`MAX_PILE_BITS`].
    pub fn is_p_position(&self, first: &BigUint, second: &BigUint) -> Result<bool, WythoffError> {
        Self::check_size([first, second])?;
        let (smaller, larger) = if first <= second {
            (first, second)
        } else {
            (second, first)
        };
        let (index, remainder) = (larger - smaller).div_rem(&self.step());
        Ok(remainder.is_zero() && self.lower(&index) == *smaller)
    }

    /// Who wins `(first, second)`.
    ///
    /// # Errors
    /// As [`Wythoff::is_p_position`].
    pub fn outcome(&self, first: &BigUint, second: &BigUint) -> Result<Outcome, WythoffError> {
        Ok(if self.is_p_position(first, second)? {
            Outcome::PreviousPlayerWins
        } else {
            Outcome::NextPlayerWins
        })
    }

    /// The other member of the P-pair that contains `pile`: every nonnegative
    /// integer lies in exactly one pair (0 pairs with itself).
    ///
    /// `pile = A_n` needs `n = ceil(pile / alpha)`, `pile = B_m` needs `m = pile -
    /// floor(pile / alpha)`; both are found from an estimate of `pile / alpha`
    /// that is off by at most one, and confirmed with the exact `A_n`.
    fn partner(self, pile: &BigUint) -> BigUint {
        if pile.is_zero() {
            return BigUint::zero();
        }
        let step = self.step();
        // pile / alpha = (pile (s - 2) + sqrt(pile^2 D)) / (2 s), and the
        // numerator is nonnegative because isqrt(pile^2 D) >= pile s.
        let root = (pile * pile * self.discriminant()).sqrt();
        let estimate = (root + pile * &step - pile * 2u32) / (&step * 2u32);
        let low = if estimate.is_zero() {
            BigUint::zero()
        } else {
            &estimate - 1u32
        };
        let mut index = low.clone();
        while index <= &estimate + 2u32 {
            if self.lower(&index) == *pile {
                return pile + &index * &step;
            }
            index += 1u32;
        }
        // Not a lower member, so an upper one: pile = A_m + s m.
        let center = pile - &estimate;
        let mut index = if center > BigUint::from(2u32) {
            &center - 2u32
        } else {
            BigUint::zero()
        };
        while index <= &center + 1u32 {
            let lower = self.lower(&index);
            if &lower + &index * &step == *pile {
                return lower;
            }
            index += 1u32;
        }
        unreachable!("Beatty's theorem puts every positive integer in one of the two sequences")
    }

    /// Every winning move from `(first, second)`: the moves to the P-positions it
    /// can reach, each once; empty for a P-position. There are at most four.
    ///
    /// # Errors
    /// As [`Wythoff::is_p_position`].
    pub fn winning_moves(
        &self,
        first: &BigUint,
        second: &BigUint,
    ) -> Result<Vec<WythoffMove>, WythoffError> {
        Self::check_size([first, second])?;
        let mut targets: Vec<(BigUint, BigUint)> = Vec::with_capacity(4);
        let mut consider = |to: (BigUint, BigUint)| {
            let reachable =
                to.0 <= *first && to.1 <= *second && (to.0 != *first || to.1 != *second);
            if reachable && !targets.contains(&to) {
                targets.push(to);
            }
        };
        // One pile: keep the first and move the second to its partner, or back.
        consider((self.partner(second), second.clone()));
        consider((first.clone(), self.partner(first)));
        // Both piles: the difference y - x changes by at most d, and P-positions
        // have differences +-s n, one pair for each multiple of s.
        let difference = BigInt::from(second.clone()) - BigInt::from(first.clone());
        let bound = BigInt::from(self.difference_bound);
        let step = BigInt::from(self.step());
        let mut multiple = (&difference - &bound).div_ceil(&step);
        let last = (&difference + &bound).div_floor(&step);
        while multiple <= last {
            let (lower, upper) = self.p_position(multiple.magnitude());
            if multiple.sign() == num_bigint::Sign::Minus {
                consider((upper, lower));
            } else {
                consider((lower, upper));
            }
            multiple += 1;
        }
        Ok(targets
            .into_iter()
            .map(|to| WythoffMove {
                take_first: first - &to.0,
                take_second: second - &to.1,
                to,
            })
            .collect())
    }

    /// The number of winning moves from `(first, second)` (0 to 4).
    ///
    /// # Errors
    /// As [`Wythoff::is_p_position`].
    pub fn winning_move_count(
        &self,
        first: &BigUint,
        second: &BigUint,
    ) -> Result<usize, WythoffError> {
        Ok(self.winning_moves(first, second)?.len())
    }

    /// The nimber of `(first, second)`, by exhaustive search: Wythoff nimbers have
    /// no closed form.
    ///
    /// # Errors
    /// [`WythoffError::SearchTooLarge`] when the search would generate more than
    /// [`MAX_SEARCH_MOVES`] moves.
    pub fn nimber_by_search(&self, first: u32, second: u32) -> Result<u32, WythoffError> {
        let moves = self.estimated_search_moves(first, second);
        if moves > MAX_SEARCH_MOVES {
            return Err(WythoffError::SearchTooLarge {
                first: first.into(),
                second: second.into(),
                moves,
                limit: MAX_SEARCH_MOVES,
            });
        }
        let rules = Rules::new(*self);
        Ok(Solver::new(&rules).nimber(&vec![(first.into(), second.into())])?)
    }

    /// An upper bound on the moves searched below `(first, second)`.
    fn estimated_search_moves(self, first: u32, second: u32) -> u64 {
        let (first, second) = (u64::from(first), u64::from(second));
        let positions = (first + 1) * (second + 1);
        let pairs_per_position = first.min(second).saturating_mul(
            self.difference_bound
                .saturating_mul(2)
                .saturating_add(1)
                .min(first.max(second)),
        );
        positions.saturating_mul(first + second + pairs_per_position)
    }
}

/// The P-positions of a Wythoff game in order; see [`Wythoff::p_positions`].
#[derive(Clone, Debug)]
pub struct PPositions {
    game: Wythoff,
    next_index: BigUint,
}

impl Iterator for PPositions {
    type Item = (BigUint, BigUint);

    fn next(&mut self) -> Option<Self::Item> {
        let pair = self.game.p_position(&self.next_index);
        self.next_index += BigUint::one();
        Some(pair)
    }
}

/// The nimbers of classic Wythoff's game at every `(x, y)` with `x <= a` and
/// `y <= b`, row-major (`(x, y)` at `x * (b + 1) + y`). The options of `(x, y)`
/// are the cells left of it in its row, below it in its column and below it on
/// its diagonal; in row-major order those are exactly the cells of the three
/// lines met so far, so each line keeps the set of values it holds as a bitset
/// and `G(x, y)` is the mex of their union: at most its number of options,
/// `x + y + min(x, y)`, so the sets hold that many bits and always have a
/// clear one. Time `O(ab (a + b) / 64)`, memory `4ab` bytes plus about
/// `(a + 2b) (a + b) / 5` for the sets.
fn nimber_table(a: usize, b: usize) -> Vec<u32> {
    let words = (a + b + a.min(b)) / 64 + 1;
    let width = b + 1;
    let mut table = vec![0u32; (a + 1) * width];
    let mut columns = vec![0u64; width * words];
    // Diagonal x - y + b, from 0 to a + b.
    let mut diagonals = vec![0u64; (a + b + 1) * words];
    let mut row = vec![0u64; words];
    for x in 0..=a {
        row.fill(0);
        for y in 0..=b {
            let column = &columns[y * words..(y + 1) * words];
            let d = x + b - y;
            let diagonal = &diagonals[d * words..(d + 1) * words];
            let mut mex = 0;
            for w in 0..words {
                let seen = row[w] | column[w] | diagonal[w];
                if seen != u64::MAX {
                    mex = w * 64 + seen.trailing_ones() as usize;
                    break;
                }
            }
            table[x * width + y] = mex as u32;
            let (word, bit) = (mex / 64, 1u64 << (mex % 64));
            row[word] |= bit;
            columns[y * words + word] |= bit;
            diagonals[d * words + word] |= bit;
        }
    }
    table
}

/// A position: `(first pile, second pile)`.
pub type Piles = (BigUint, BigUint);

/// The rules as a game family: `wythoff(a, b)`, `wythoff[d](a, b)`. The
/// outcome and winning moves come from the closed form at any size; the
/// nimber, which has none, from a bounded search of small piles.
impl Family for Wythoff {
    type Position = Piles;

    fn write_position(&self, (first, second): &Piles, out: &mut String) {
        out.push_str(&format!("{first}, {second}"));
    }

    fn moves(&self, (first, second): &Piles, limit: usize) -> Result<Vec<Vec<Piles>>, SearchError> {
        let too_many = SearchError::StateLimit { limit };
        let (Ok(first), Ok(second)) = (u32::try_from(first), u32::try_from(second)) else {
            return Err(too_many);
        };
        let estimate = u64::from(first)
            + u64::from(second)
            + u64::from(first.min(second))
                * (2 * self.difference_bound.min(u64::from(u32::MAX)) + 1);
        if estimate > limit as u64 {
            return Err(too_many);
        }
        let mut moves = Vec::new();
        for take_first in 0..=first {
            for take_second in 0..=second {
                let single_pile = take_first == 0 || take_second == 0;
                let allowed = single_pile
                    || u64::from(take_first.abs_diff(take_second)) <= self.difference_bound;
                if allowed && (take_first, take_second) != (0, 0) {
                    moves.push(vec![(
                        BigUint::from(first - take_first),
                        BigUint::from(second - take_second),
                    )]);
                }
            }
        }
        Ok(moves)
    }

    fn describe_move(&self, (first, second): &Piles, to: &[Piles]) -> String {
        match to {
            [(to_first, to_second)] if to_first <= first && to_second <= second => WythoffMove {
                take_first: first - to_first,
                take_second: second - to_second,
                to: (to_first.clone(), to_second.clone()),
            }
            .describe(),
            _ => "a move".to_owned(),
        }
    }

    /// Classic Wythoff (`d = 0`) by a dense table of every position below the
    /// piles ([`nimber_table`]): `(a + 1)(b + 1)` positions of 4 bytes, where the
    /// explorer would store every move (about `a + b + min(a, b)` per position).
    fn nimbers_by_search(
        &self,
        piles: &Piles,
        budget: Budget,
    ) -> Option<Result<SearchedNimbers<Piles>, SearchError>> {
        if self.difference_bound != 0 {
            return None;
        }
        let limit = budget.states;
        let too_many = SearchError::StateLimit { limit };
        let (first, second) = piles;
        let (Ok(first), Ok(second)) = (usize::try_from(first), usize::try_from(second)) else {
            return Some(Err(too_many));
        };
        let cells = (first + 1).checked_mul(second + 1);
        if cells.is_none_or(|cells| cells > limit) {
            return Some(Err(too_many));
        }
        let table = nimber_table(first, second);
        let value = |(x, y): &Piles| -> BigUint {
            let (x, y) = (
                usize::try_from(x).unwrap_or(0),
                usize::try_from(y).unwrap_or(0),
            );
            table[x * (second + 1) + y].into()
        };
        let options = match self.moves(piles, usize::MAX) {
            Ok(moves) => moves,
            Err(error) => return Some(Err(error)),
        };
        Some(Ok(SearchedNimbers {
            nimber: value(piles),
            options: options
                .into_iter()
                .map(|leaves| {
                    let nimber = value(&leaves[0]);
                    (leaves, nimber)
                })
                .collect(),
        }))
    }

    /// The piles in increasing order: the rules treat both piles alike, so `(a, b)`
    /// and `(b, a)` are the same game, searched once.
    fn canonical_form(&self, (first, second): &Piles) -> Option<Piles> {
        (first > second).then(|| (second.clone(), first.clone()))
    }

    fn outcome_by_theory(
        &self,
        (first, second): &Piles,
        max: usize,
    ) -> Option<OutcomeAnswer<Piles>> {
        let moves = self.winning_moves(first, second).ok()?;
        Some(OutcomeAnswer {
            outcome: if moves.is_empty() {
                Outcome::PreviousPlayerWins
            } else {
                Outcome::NextPlayerWins
            },
            winning: MovesTo {
                count: BigUint::from(moves.len()),
                listed: moves.into_iter().take(max).map(|m| vec![m.to]).collect(),
            },
            method: "beatty",
        })
    }
}

fn build(term: &Term, _context: &BuildContext<'_>) -> Result<Group, LangError> {
    let game = Wythoff::from_term(term)?;
    let piles = heap_sizes(term)?;
    let [first, second] = <[BigUint; 2]>::try_from(piles).map_err(|piles| {
        LangError::new(
            format!("`wythoff` takes exactly two piles, found {}", piles.len()),
            term.span,
        )
        .with_help("for example `wythoff(3, 5)` or `wythoff[2](10, 14)`")
    })?;
    if let Err(error) = game.is_p_position(&first, &second) {
        return Err(LangError::new(error.to_string(), term.span));
    }
    let head = game.name();
    Ok(Group::new(
        head,
        vec![part(&Arc::new(game), (first, second))],
    ))
}

/// The catalogue entry.
pub(crate) const ENTRY: GameEntry = GameEntry {
    name: "wythoff",
    summary: "two piles: take from one, or (about) the same from both",
    rules: "Two piles. A move takes any number from one pile, or x from the first and y from the \
            second with |x - y| <= d (d = 0: the same number from both; Wythoff 1907, extended by \
            Fraenkel 1982). The P-positions are (A_n, B_n) and (B_n, A_n) with A_n = floor(n alpha), \
            B_n = A_n + (d + 1) n, alpha = (1 - d + sqrt((d + 1)^2 + 4)) / 2 (the golden ratio for \
            d = 0), computed exactly with integer square roots, so piles of any size up to about \
            39,000 digits are decided at once, with all winning moves (at most four). The nimber \
            has no closed form: it is searched for small piles (null otherwise), and a sum with \
            other games needs it, so such sums are searched. `grundy pairs wythoff -n K` (or \
            'wythoff[d]', with --from I for any index) lists the P-positions.",
    syntax: "wythoff(a, b) or wythoff[d](a, b)",
    examples: &[
        "wythoff(3, 5)",
        "wythoff(4, 7)",
        "wythoff[2](10, 14)",
        "wythoff(1000000000000000000000, 1618033988749894848204)",
    ],
    kind: EntryKind::Game(build),
};

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Wythoff's rules without the canonical form, to check that searching one
    /// node per class of `(a, b)` and `(b, a)` changes no answer.
    #[derive(Debug, PartialEq)]
    struct WithoutCanonicalForm(Wythoff);

    impl Family for WithoutCanonicalForm {
        type Position = Piles;
        fn write_position(&self, piles: &Piles, out: &mut String) {
            self.0.write_position(piles, out);
        }
        fn moves(&self, piles: &Piles, limit: usize) -> Result<Vec<Vec<Piles>>, SearchError> {
            self.0.moves(piles, limit)
        }
        fn describe_move(&self, from: &Piles, to: &[Piles]) -> String {
            self.0.describe_move(from, to)
        }
    }

    #[test]
    fn the_dense_table_is_the_search_of_the_moves() {
        let rules = Rules::new(Wythoff::extended(0));
        let mut solver = Solver::new(&rules);
        let (a, b) = (24, 31);
        let table = nimber_table(a, b);
        for x in 0..=a {
            for y in 0..=b {
                let searched = solver.nimber(&vec![(x.into(), y.into())]).unwrap();
                assert_eq!(table[x * (b + 1) + y], searched, "({x}, {y})");
            }
        }
    }

    #[test]
    fn sums_with_large_piles_are_answered_by_the_table() {
        use crate::analysis::{SolveOptions, solve};
        use crate::catalogue::build;
        use crate::lang::parse;
        let options = SolveOptions {
            max_moves: usize::MAX,
            ..SolveOptions::default()
        };
        let answer = |text: &str| solve(&build(&parse(text).unwrap()).unwrap(), &options).unwrap();
        // The explorer would store about 1.4 * 10^8 moves; the table 6 * 10^5 cells.
        let table = nimber_table(600, 1000);
        let nimber = table[600 * 1001 + 1000];
        let found = answer("wythoff(600, 1000) + nim(3)");
        assert_eq!(found.nimber, Some(BigUint::from(nimber ^ 3)));
        // Each winning move leaves the Wythoff piles at nimber 3, and every such
        // move is counted.
        let moves = Wythoff::extended(0)
            .moves(&(600u32.into(), 1000u32.into()), usize::MAX)
            .unwrap();
        let to_three = moves
            .iter()
            .filter(|leaves| {
                let (x, y) = &leaves[0];
                let (x, y) = (usize::try_from(x).unwrap(), usize::try_from(y).unwrap());
                table[x * 1001 + y] == 3
            })
            .count();
        assert_ne!(
            nimber, 3,
            "a first-player win, so that there are moves to count"
        );
        let in_nim = usize::from(nimber < 3);
        assert_eq!(found.winning_move_count, BigUint::from(to_three + in_nim));
        // Alone, the component gets its nimber the same way.
        let alone = answer("wythoff(600, 1000)");
        assert_eq!(alone.nimber, Some(BigUint::from(nimber)));
        // Beyond the state limit: refused, never a long search.
        let small = SolveOptions {
            max_states: 100_000,
            ..SolveOptions::default()
        };
        let position = build(&parse("wythoff(600, 1000) + nim(3)").unwrap()).unwrap();
        assert!(matches!(
            solve(&position, &small),
            Err(SearchError::StateLimit { .. })
        ));
    }

    #[test]
    fn the_canonical_form_halves_the_search_and_changes_no_answer() {
        use crate::analysis::{SolveOptions, solve};
        use crate::family::parts;
        use crate::game::Convention;
        use crate::sums::position::{Compound, Group, Position};
        let piles: Vec<Piles> = [(3u32, 5u32), (5, 3), (7, 2), (4, 4), (6, 1)]
            .iter()
            .map(|&(a, b)| (a.into(), b.into()))
            .collect();
        let options = SolveOptions {
            max_moves: usize::MAX,
            ..SolveOptions::default()
        };
        let with = Arc::new(Wythoff::extended(0));
        let without = Arc::new(WithoutCanonicalForm(Wythoff::extended(0)));
        for (convention, compound, count) in [
            (Convention::Normal, Compound::Sum, 5),
            (Convention::Misere, Compound::Sum, 3),
            (Convention::Normal, Compound::Every, 3),
        ] {
            let position = |group: Group| Position {
                convention,
                compound: compound.clone(),
                groups: vec![group],
            };
            let chosen = piles[..count].to_vec();
            let a = solve(
                &position(Group::new("wythoff", parts(&with, chosen.clone()))),
                &options,
            )
            .unwrap();
            let b = solve(
                &position(Group::new("wythoff", parts(&without, chosen))),
                &options,
            )
            .unwrap();
            let context = format!("{convention:?} {compound:?}");
            assert_eq!(a.outcome, b.outcome, "{context}");
            assert_eq!(a.nimber, b.nimber, "{context}");
            assert_eq!(a.winning_move_count, b.winning_move_count, "{context}");
            let moves = |answer: &crate::analysis::Answer| -> Vec<(String, String)> {
                answer
                    .winning_moves
                    .iter()
                    .map(|m| (m.description.clone(), answer.target(m)))
                    .collect()
            };
            assert_eq!(moves(&a), moves(&b), "{context}");
            assert!(!a.winning_moves.is_empty() || a.outcome == Outcome::PreviousPlayerWins);
            assert!(
                a.search.components_explored < b.search.components_explored,
                "{context}: {} and {} components",
                a.search.components_explored,
                b.search.components_explored
            );
        }
    }

    fn big(value: u64) -> BigUint {
        BigUint::from(value)
    }

    /// The position `(first, second)` for the generic solver.
    fn at(first: u32, second: u32) -> Vec<Piles> {
        vec![(first.into(), second.into())]
    }

    fn small((first, second): &Piles) -> (u32, u32) {
        (
            u32::try_from(first).unwrap(),
            u32::try_from(second).unwrap(),
        )
    }

    /// The P-positions by their definition: `A_n` is the least integer not yet
    /// used, `B_n = A_n + s n`.
    fn p_positions_by_mex(difference_bound: u64, count: usize) -> Vec<(u64, u64)> {
        let step = difference_bound + 1;
        let mut used = std::collections::HashSet::new();
        let mut pairs = Vec::new();
        let mut candidate = 0;
        for n in 0..count as u64 {
            while used.contains(&candidate) {
                candidate += 1;
            }
            let pair = (candidate, candidate + step * n);
            used.insert(pair.0);
            used.insert(pair.1);
            pairs.push(pair);
        }
        pairs
    }

    #[test]
    fn the_classic_p_positions_are_the_known_ones() {
        // OEIS A000201 and A001950.
        let pairs: Vec<(BigUint, BigUint)> = Wythoff::CLASSIC.p_positions().take(8).collect();
        let expected = [
            (0, 0),
            (1, 2),
            (3, 5),
            (4, 7),
            (6, 10),
            (8, 13),
            (9, 15),
            (11, 18),
        ];
        let expected: Vec<(BigUint, BigUint)> =
            expected.iter().map(|&(a, b)| (big(a), big(b))).collect();
        assert_eq!(pairs, expected);
    }

    #[test]
    fn the_closed_form_matches_the_mex_recurrence_for_d_up_to_8() {
        for d in 0..=8 {
            let game = Wythoff::extended(d);
            let by_mex = p_positions_by_mex(d, 3000);
            for (n, &(lower, upper)) in by_mex.iter().enumerate() {
                assert_eq!(
                    game.p_position(&big(n as u64)),
                    (big(lower), big(upper)),
                    "d = {d}, n = {n}"
                );
            }
        }
    }

    #[test]
    fn the_closed_form_matches_search_on_every_position_up_to_60_for_d_up_to_4() {
        for d in 0..=4 {
            let game = Wythoff::extended(d);
            let rules = Rules::new(game);
            let mut solver = Solver::new(&rules);
            for first in 0..=60u32 {
                for second in 0..=60u32 {
                    let (x, y) = (big(first.into()), big(second.into()));
                    let searched = solver.outcome(&at(first, second)).unwrap();
                    assert_eq!(
                        game.outcome(&x, &y).unwrap(),
                        searched,
                        "d = {d}, ({first}, {second})"
                    );
                    let expected: Vec<(u32, u32)> = solver
                        .winning_moves(&at(first, second))
                        .unwrap()
                        .iter()
                        .map(|to| small(&to[0]))
                        .collect();
                    let mut found: Vec<(u32, u32)> = game
                        .winning_moves(&x, &y)
                        .unwrap()
                        .iter()
                        .map(|m| {
                            (
                                u32::try_from(&m.to.0).unwrap(),
                                u32::try_from(&m.to.1).unwrap(),
                            )
                        })
                        .collect();
                    let mut expected_sorted = expected.clone();
                    expected_sorted.sort_unstable();
                    found.sort_unstable();
                    assert_eq!(found, expected_sorted, "d = {d}, ({first}, {second})");
                }
            }
        }
    }

    #[test]
    fn moves_are_consistent_with_their_description() {
        let game = Wythoff::extended(2);
        for m in game.winning_moves(&big(40), &big(25)).unwrap() {
            assert_eq!(&m.take_first + &m.to.0, big(40));
            assert_eq!(&m.take_second + &m.to.1, big(25));
            let difference = (BigInt::from(m.take_first.clone())
                - BigInt::from(m.take_second.clone()))
            .magnitude()
            .clone();
            assert!(m.take_first.is_zero() || m.take_second.is_zero() || difference <= big(2));
        }
        let describe = WythoffMove {
            take_first: big(2),
            take_second: big(3),
            to: (big(0), big(0)),
        }
        .describe();
        assert_eq!(describe, "take 2 from the first pile and 3 from the second");
    }

    #[test]
    fn a_position_can_have_four_winning_moves() {
        // Search the small positions for the largest number of winning moves.
        let game = Wythoff::extended(3);
        let most = (0..40u64)
            .flat_map(|x| (0..40u64).map(move |y| (x, y)))
            .map(|(x, y)| game.winning_move_count(&big(x), &big(y)).unwrap())
            .max()
            .unwrap();
        assert_eq!(most, 4);
    }

    #[test]
    fn nimbers_by_search_are_the_known_table() {
        // Winning Ways ch. 3 (Wythoff's game): the first rows of nimbers.
        let rows: [[u32; 6]; 3] = [[0, 1, 2, 3, 4, 5], [1, 2, 0, 4, 5, 3], [2, 0, 1, 5, 3, 4]];
        for (x, row) in rows.iter().enumerate() {
            for (y, &value) in row.iter().enumerate() {
                assert_eq!(
                    Wythoff::CLASSIC
                        .nimber_by_search(x as u32, y as u32)
                        .unwrap(),
                    value
                );
            }
        }
        assert!(matches!(
            Wythoff::CLASSIC.nimber_by_search(100_000, 100_000),
            Err(WythoffError::SearchTooLarge { .. })
        ));
    }

    #[test]
    fn a_thousand_digit_position_is_decided_and_its_moves_are_p_positions() {
        let index: BigUint = "7".repeat(1000).parse().unwrap();
        for d in [0, 1, 5] {
            let game = Wythoff::extended(d);
            let (lower, upper) = game.p_position(&index);
            assert!(game.is_p_position(&lower, &upper).unwrap());
            assert!(game.is_p_position(&upper, &lower).unwrap());
            assert!(!game.is_p_position(&lower, &(&upper + 1u32)).unwrap());
            assert!(game.winning_moves(&lower, &upper).unwrap().is_empty());
            // One more in the larger pile: the one-pile move back wins.
            let moves = game.winning_moves(&lower, &(&upper + 1u32)).unwrap();
            assert!(moves.iter().any(|m| m.to == (lower.clone(), upper.clone())));
            for m in moves {
                assert!(game.is_p_position(&m.to.0, &m.to.1).unwrap());
            }
        }
    }

    #[test]
    fn piles_beyond_the_limit_are_refused() {
        let huge = BigUint::one() << (MAX_PILE_BITS as usize);
        assert_eq!(
            Wythoff::CLASSIC.is_p_position(&huge, &big(1)),
            Err(WythoffError::PileTooLarge {
                bits: MAX_PILE_BITS + 1,
                limit: MAX_PILE_BITS
            })
        );
        assert!(Wythoff::CLASSIC.winning_moves(&big(1), &huge).is_err());
    }

    #[test]
    fn the_catalogue_answers_as_search_does() {
        use crate::catalogue::build as build_position;
        use crate::lang::parse;
        use crate::sums::analysis::{SolveOptions, solve};
        let answer = |text: &str| {
            solve(
                &build_position(&parse(text).unwrap()).unwrap(),
                &SolveOptions::default(),
            )
            .unwrap()
        };
        for d in 0..3u64 {
            let game = Wythoff::extended(d);
            let rules = Rules::new(game);
            let mut solver = Solver::new(&rules);
            let head = if d == 0 {
                "wythoff".to_owned()
            } else {
                format!("wythoff[{d}]")
            };
            for first in 0..10u32 {
                for second in 0..10u32 {
                    let found = answer(&format!("{head}({first}, {second})"));
                    assert_eq!(found.outcome, solver.outcome(&at(first, second)).unwrap());
                    assert_eq!(
                        found.nimber,
                        Some(solver.nimber(&at(first, second)).unwrap().into())
                    );
                    let mut expected: Vec<String> = solver
                        .winning_moves(&at(first, second))
                        .unwrap()
                        .iter()
                        .map(|to| format!("{head}({}, {})", to[0].0, to[0].1))
                        .collect();
                    let mut targets: Vec<String> = found
                        .winning_moves
                        .iter()
                        .map(|m| found.target(m))
                        .collect();
                    expected.sort();
                    targets.sort();
                    assert_eq!(targets, expected);
                    assert_eq!(found.winning_move_count, BigUint::from(expected.len()));
                }
            }
        }
        // A sum with another game is searched through the nimber.
        assert_eq!(answer("wythoff(1, 1) + nim(2)").nimber, Some(big(0)));
    }

    proptest! {
        #[test]
        fn every_winning_move_reaches_a_p_position_and_every_n_position_has_one(
            first in "[1-9][0-9]{0,80}", second in "[0-9]{1,80}", d in 0u64..6
        ) {
            let game = Wythoff::extended(d);
            let first: BigUint = first.parse().unwrap();
            let second: BigUint = second.parse().unwrap();
            let moves = game.winning_moves(&first, &second).unwrap();
            let is_p = game.is_p_position(&first, &second).unwrap();
            prop_assert_eq!(moves.is_empty(), is_p);
            for m in &moves {
                prop_assert!(game.is_p_position(&m.to.0, &m.to.1).unwrap());
                prop_assert_eq!(&m.take_first + &m.to.0, first.clone());
            }
        }

        #[test]
        fn the_partner_of_a_pile_forms_a_p_position(pile in "[0-9]{1,120}", d in 0u64..6) {
            let game = Wythoff::extended(d);
            let pile: BigUint = pile.parse().unwrap();
            let partner = game.partner(&pile);
            prop_assert!(game.is_p_position(&pile, &partner).unwrap());
        }
    }
}
