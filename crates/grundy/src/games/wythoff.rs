//! Wythoff's game and extended Wythoff, decided exactly for piles of any size.
//!
//! # Rules
//! Two piles. A move takes any positive number of counters from one pile, or
//! takes `x >= 0` from the first and `y >= 0` from the second pile at once with
//! `x + y >= 1` and `|x - y| <= d`. With `d = 0` (take the same number from
//! both) this is Wythoff's game (Wythoff 1907); `d >= 1` is the extension of
//! Fraenkel ("How to beat your Wythoff games' opponent on three fronts", *Amer.
//! Math. Monthly* 89, 1982), the game `wythoff[d]`.
//!
//! # Theorem
//! Let `s = d + 1`. The P-positions are the pairs `(A_n, B_n)` and `(B_n, A_n)`
//! for `n >= 0`, where `A_n = mex {A_i, B_i : i < n}` and `B_n = A_n + s n`
//! (Fraenkel 1982, Theorem 1; for `d = 0` Wythoff 1907). In closed form `A_n = floor(n alpha)` and `B_n = floor(n beta)` with
//! `alpha = (2 - s + sqrt(s^2 + 4)) / 2` and `beta = alpha + s`: `1/alpha +
//! 1/beta = 1` and both are irrational, so by Beatty's theorem the two sequences
//! partition the positive integers. For `d = 0`, `alpha` is the golden ratio and
//! `beta = alpha^2`. It is also stated as as `(1 - d +
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
//! piles with the generic solver. A position of the catalogue gets its nimber
//! and its options' from the mex rule over the board below it, within a byte
//! budget estimated before anything is allocated: a dense table for square-ish
//! boards, and for thin ones a sweep column by column along the larger pile
//! that holds, for each row, only a window of the values it lacks (a row's
//! least missing value is within `4x` of its largest, for row `x`), so that
//! the sweep of `wythoff(1, 999999)` holds 4 MB where the table needed 125 GB.
//! The list of the position's options, handed back with their nimbers, is
//! counted in the budget too, and is then the larger part.
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

use crate::drawing::Drawing;
use crate::family::{Family, FirstMoves, MovesTo, OutcomeAnswer, Rules, SearchedNimbers, part};
use crate::lang::arguments::{heap_sizes, integer_param};
use crate::lang::{LangError, Term};
use crate::registry::{BuildContext, DrawingKind, EntryKind, GameEntry};
use crate::sums::position::Group;
use crate::theory::caches::{Caches, Shelf};
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

/// The bytes [`nimber_table`] holds for `(a, b)`: the table and its bitsets
/// (one per column, per diagonal and for the current row), and the [`Lines`]
/// taken from it; `None` beyond `u64`.
fn dense_bytes(a: u64, b: u64) -> Option<u64> {
    let words = a.checked_add(b)?.checked_add(a.min(b))? / 64 + 1;
    let cells = (a.checked_add(1)?).checked_mul(b.checked_add(1)?)?;
    let sets = b.checked_mul(2)?.checked_add(a)?.checked_add(3)?;
    let lines = b.checked_add(a.checked_mul(2)?)?.checked_add(3)?;
    cells
        .checked_mul(4)?
        .checked_add(words.checked_mul(8)?.checked_mul(sets)?)?
        .checked_add(lines.checked_mul(4)?)
}

/// The bytes one option of an answer of [`Family::nimbers_by_search`] holds,
/// counted against the budget with the search's own: its entry in the list
/// (48), the vector of one position it owns (48), a word for each pile and for
/// the nimber (an allocation each), then the shared component the position
/// becomes when the answer is handed on. The peak resident memory of `grundy
/// solve 'wythoff(1, b)'` grows by about 190 bytes for each option; 256 leaves
/// room for other allocators' rounding.
const OPTION_BYTES: u64 = 256;

/// Boards whose smaller pile is at most this are valued by [`thin_sweep`];
/// larger ones by the dense table, unless it needs more memory than allowed.
/// For such thin boards the sweep's work per position, about twice the
/// smaller pile, is less than the dense table's, a bit per possible value.
const THIN_ROWS: u64 = 64;

/// The nimbers that answer a position `(a, b)` of classic Wythoff, `a <= b`:
/// its own and those of its options, which lie on its row, its column and its
/// diagonal.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Lines {
    /// `G(a, y)` for `y = 0..=b`; `G(a, b)` last.
    row: Vec<u32>,
    /// `G(x, b)` for `x = 0..=a`.
    column: Vec<u32>,
    /// `G(a - k, b - k)` for `k = 0..=a`.
    diagonal: Vec<u32>,
}

/// Why the nimbers of a Wythoff board were not computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refused {
    /// A pile beyond `u64`, or nimbers beyond `u32` (at least `2^32` options).
    TooLarge,
    /// The search needs more than `max_bytes`: at least `needed` bytes.
    OverBudget {
        /// The bytes needed, as far as counted when the search stopped.
        needed: u64,
        /// The budget.
        max_bytes: u64,
    },
}

/// What [`thin_sweep`] found and held.
#[derive(Clone, Debug)]
struct Sweep {
    lines: Lines,
    /// The most bytes held at once, as counted against the budget.
    peak_bytes: u64,
    /// For each row `x`, the largest `M - g` seen, where `M` is the largest
    /// value of the row so far and `g` its least missing value below `M`
    /// (0 while the row has no gap).
    widest_gap: Vec<u64>,
}

/// The words of the window of row `x` of [`thin_sweep`], by the bound proven
/// there: its values above the word-aligned floor reach at most `63 + 4x - 1`.
fn window_words(x: usize) -> usize {
    (4 * x + 62) / 64 + 1
}

/// The nimbers of classic Wythoff on the thin board `x <= a`, `y <= b` (`a <=
/// b`), column by column, holding `O(a^2 + b)` bytes where the dense table
/// holds `O(ab + b^2)` bits; refused, before allocating, when the bytes to hold
/// exceed `max_bytes`, and counted as the windows grow.
///
/// By the mex rule of Sprague and Grundy, `G(x, y)` is the least value not
/// among the nimbers of its options: `(x', y)` for `x' < x` (its column, below
/// it), `(x - k, y - k)` for `1 <= k <= min(x, y)` (its diagonal), and `(x, y')`
/// for `y' < y` (its row). Columns are valued in turn, each from `x = 0` up,
/// so the column is the current one and the diagonal lies in the last `a`
/// columns, kept in a ring of `a + 1` columns. The row is kept as the set of
/// values it holds: a floor `f` (a multiple of 64) below which every value is
/// present, and a bitset of the values from `f` on. Row `a` is stored whole,
/// 4 bytes a value, for the options `(a, y')` of the position itself.
///
/// The window stays short. A row's values are distinct (each cell is an option
/// of the later ones in its row), so a value `g` appears at most once in each
/// row `x' < x`, at most `x` times in all below row `x`, and each such cell
/// blocks `g` at one cell of row `x` through its column and at one through its
/// diagonal: at most `2x` times. Let `g` be the least value missing from row
/// `x` and `M` its largest. Each value of the row above `g` was placed while
/// `g` was missing and smaller, so `g` was blocked then: at most `2x` such
/// values. When `M` was placed, every value below it missing from the row was
/// blocked by the column or the diagonal, at most `2x` values, `g` among them.
/// So `M - g <= 4x - 1`, and the window of row `x` needs `window_words(x)`
/// words. (The same argument, with the at most `2x` values of the column and
/// the diagonal, bounds the bitset scanned for the mex.) The windows are
/// allocated at that size; one that would grow beyond it is counted against
/// `max_bytes` all the same. Time `O(a^2 b)`: each cell marks the at most `2x`
/// values of its column and diagonal and scans `O(1 + x / 32)` words.
fn thin_sweep(a: usize, b: usize, max_bytes: u64) -> Result<Sweep, Refused> {
    let height = a + 1;
    let mask_words = window_words(a) + (2 * a + 1) / 64 + 1;
    let window_total: usize = (0..height).map(window_words).sum();
    // Row a, the ring of columns, the floors and windows with their vectors,
    // the mask, and the column and diagonal handed back.
    let estimate = || -> Option<u64> {
        let h = u64::try_from(height).ok()?;
        let row = u64::try_from(b).ok()?.checked_add(1)?.checked_mul(4)?;
        let ring = h.checked_mul(h)?.checked_mul(4)?;
        let windows = u64::try_from(window_total).ok()?.checked_mul(8)?;
        let per_row = h.checked_mul(8 + 24 + 8)?;
        let mask = u64::try_from(mask_words).ok()?.checked_mul(8)?;
        row.checked_add(ring)?
            .checked_add(windows)?
            .checked_add(per_row)?
            .checked_add(mask)
    };
    let mut held = estimate().unwrap_or(u64::MAX);
    if held > max_bytes {
        return Err(Refused::OverBudget {
            needed: held,
            max_bytes,
        });
    }
    let mut row = Vec::with_capacity(b + 1);
    let mut ring = vec![0u32; height * height];
    let mut floors = vec![0u64; height];
    let mut windows: Vec<Vec<u64>> = (0..height)
        .map(|x| Vec::with_capacity(window_words(x)))
        .collect();
    let mut largest = vec![0u64; height];
    let mut widest_gap = vec![0u64; height];
    let mut mask: Vec<u64> = Vec::with_capacity(mask_words);
    for y in 0..=b {
        let slot = (y % height) * height;
        for x in 0..height {
            let floor = floors[x];
            let window = &windows[x];
            // At most 2x values to mark, so the first `window.len() * 64 + 2x + 1`
            // values from the floor hold one missing from all three lines.
            let words = window.len() + (2 * x + 1) / 64 + 1;
            if words > mask.capacity() {
                let grown = words.max(2 * mask.capacity());
                held = held.saturating_add(8 * (grown - mask.capacity()) as u64);
                if held > max_bytes {
                    return Err(Refused::OverBudget {
                        needed: held,
                        max_bytes,
                    });
                }
                mask.reserve_exact(grown - mask.len());
            }
            mask.clear();
            mask.resize(words, 0);
            let span = 64 * words as u64;
            let mut mark = |value: u32| {
                if let Some(at) = u64::from(value).checked_sub(floor)
                    && at < span
                {
                    mask[(at / 64) as usize] |= 1 << (at % 64);
                }
            };
            for &value in &ring[slot..slot + x] {
                mark(value);
            }
            let mut column = slot;
            for k in 1..=x.min(y) {
                column = column
                    .checked_sub(height)
                    .unwrap_or(height * height - height);
                mark(ring[column + x - k]);
            }
            let (at, seen) = mask
                .iter()
                .enumerate()
                .map(|(w, &marked)| (w, marked | window.get(w).copied().unwrap_or(0)))
                .find(|&(_, seen)| seen != u64::MAX)
                .expect("a value is missing from the first 2x + 1 beyond the row's");
            let mex = floor + 64 * at as u64 + u64::from(seen.trailing_ones());
            ring[slot + x] = u32::try_from(mex).expect("the caller keeps the values within u32");
            // The value joins its row.
            let window = &mut windows[x];
            let (word, bit) = (((mex - floor) / 64) as usize, 1u64 << ((mex - floor) % 64));
            if word >= window.len() {
                if word >= window.capacity() {
                    let grown = (word + 1).max(2 * window.capacity());
                    held = held.saturating_add(8 * (grown - window.capacity()) as u64);
                    if held > max_bytes {
                        return Err(Refused::OverBudget {
                            needed: held,
                            max_bytes,
                        });
                    }
                    window.reserve_exact(grown - window.len());
                }
                window.resize(word + 1, 0);
            }
            window[word] |= bit;
            while window.first() == Some(&u64::MAX) {
                window.remove(0);
                floors[x] += 64;
            }
            largest[x] = largest[x].max(mex);
            let least_missing =
                floors[x] + window.first().map_or(0, |w| u64::from(w.trailing_ones()));
            if least_missing < largest[x] {
                widest_gap[x] = widest_gap[x].max(largest[x] - least_missing);
            }
        }
        row.push(ring[slot + a]);
    }
    let last = (b % height) * height;
    let column = ring[last..last + height].to_vec();
    let diagonal = (0..height)
        .map(|k| ring[((b - k) % height) * height + a - k])
        .collect();
    Ok(Sweep {
        lines: Lines {
            row,
            column,
            diagonal,
        },
        peak_bytes: held,
        widest_gap,
    })
}

/// A dense table of nimbers, `G(x, y)` for `x <= a`, `y <= b` ([`nimber_table`]).
#[derive(Debug)]
struct DenseTable {
    a: usize,
    b: usize,
    values: Vec<u32>,
}

impl DenseTable {
    fn new(a: usize, b: usize) -> Self {
        Self {
            a,
            b,
            values: nimber_table(a, b),
        }
    }

    fn covers(&self, a: usize, b: usize) -> bool {
        a <= self.a && b <= self.b
    }

    /// The [`Lines`] of `(a, b)`, a corner within the table.
    fn lines(&self, a: usize, b: usize) -> Lines {
        debug_assert!(self.covers(a, b));
        let width = self.b + 1;
        let at = |x: usize, y: usize| self.values[x * width + y];
        Lines {
            row: (0..=b).map(|y| at(a, y)).collect(),
            column: (0..=a).map(|x| at(x, b)).collect(),
            diagonal: (0..=a).map(|k| at(a - k, b - k)).collect(),
        }
    }
}

/// The bytes of a dense table small enough to make even for a thin board.
const SMALL_TABLE_BYTES: u64 = 1 << 20;

/// The most bytes of the dense table kept after a search (see [`dense_lines`]).
const KEPT_TABLE_BYTES: u64 = 64 << 20;

/// The dense table kept after a search, in the computation's context of
/// caches: one, counted by its values' bytes.
struct KeptTable;

impl Shelf for KeptTable {
    type Key = ();
    type Value = Arc<DenseTable>;
    const ENTRIES: usize = 1;
}

/// The [`Lines`] of `(a, b)`, `a <= b`, from a dense table holding at most
/// `max_bytes`. The last table made (up to [`KEPT_TABLE_BYTES`], and as the
/// context of caches allows under `max_bytes`) is kept: a table of
/// `wythoff(x, y)` asks for every corner below its largest, and each made its
/// own table, `O(N^5)` in all for `N x N` cells. Reading the kept table when it
/// covers the corner, and otherwise making one twice as large in each direction
/// when that fits, makes it a geometric series, a few times the cost of the largest.
fn dense_lines(a: usize, b: usize, max_bytes: u64) -> Lines {
    let caches = Caches::current();
    let kept = caches.find::<KeptTable>(max_bytes, |(), _| true);
    if let Some(table) = kept.as_ref().filter(|table| table.covers(a, b)) {
        return table.lines(a, b);
    }
    let fits = |a: usize, b: usize| {
        dense_bytes(a as u64, b as u64)
            .is_some_and(|bytes| bytes <= max_bytes.min(KEPT_TABLE_BYTES))
    };
    let grown = kept.map(|table| {
        let grown_b = b.max(2 * table.b);
        (a.max(2 * table.a).min(grown_b), grown_b)
    });
    let (made_a, made_b) = grown.filter(|&(a, b)| fits(a, b)).unwrap_or((a, b));
    let table = DenseTable::new(made_a, made_b);
    let lines = table.lines(a, b);
    if fits(made_a, made_b) {
        let bytes = size_of_val(table.values.as_slice()) as u64;
        caches.keep::<KeptTable>(max_bytes, (), Arc::new(table), bytes);
    }
    lines
}

/// The [`Lines`] of `(a, b)`, `a <= b`, holding at most `max_bytes` (the
/// caller's other needs already taken out): by the dense table for boards
/// thicker than [`THIN_ROWS`] when its bytes, known in advance, fit; by the
/// thin sweep otherwise.
fn classic_lines(a: u64, b: u64, max_bytes: u64) -> Result<Lines, Refused> {
    debug_assert!(a <= b);
    let (Ok(small), Ok(large)) = (usize::try_from(a), usize::try_from(b)) else {
        return Err(Refused::TooLarge);
    };
    let dense = dense_bytes(a, b).unwrap_or(u64::MAX);
    // A thin board is swept, unless its table is small (a table of
    // `wythoff(x, y)` then reads every cell from one kept table).
    if (a > THIN_ROWS || dense <= SMALL_TABLE_BYTES) && dense <= max_bytes {
        return Ok(dense_lines(small, large, max_bytes));
    }
    let sweep = thin_sweep(small, large, max_bytes)?;
    debug_assert!(sweep.peak_bytes <= max_bytes);
    debug_assert!(
        (0..)
            .zip(&sweep.widest_gap)
            .all(|(x, &gap)| gap == 0 || gap < 4 * x),
        "the window bound: {:?}",
        sweep.widest_gap
    );
    Ok(sweep.lines)
}

/// The piles `(a, b)`, `a <= b`, of a board whose `(a + 1)(b + 1)` positions are
/// within `budget`'s states (each valued once), or [`SearchError::StateLimit`].
fn board_within((first, second): &Piles, budget: Budget) -> Result<(u64, u64), SearchError> {
    let too_many = SearchError::StateLimit {
        limit: budget.states,
    };
    let (Ok(first), Ok(second)) = (u64::try_from(first), u64::try_from(second)) else {
        return Err(too_many);
    };
    let cells = first
        .checked_add(1)
        .and_then(|rows| rows.checked_mul(second.checked_add(1)?));
    let limit_cells = u64::try_from(budget.states).unwrap_or(u64::MAX);
    if cells.is_none_or(|cells| cells > limit_cells) {
        return Err(too_many);
    }
    Ok((first.min(second), first.max(second)))
}

impl Refused {
    /// The search error of a refusal within `budget`.
    fn into_search_error(self, budget: Budget) -> SearchError {
        match self {
            Self::OverBudget { .. } => SearchError::MemoryLimit {
                limit: budget.bytes,
            },
            Self::TooLarge => SearchError::StateLimit {
                limit: budget.states,
            },
        }
    }
}

/// The nimber of `(first, second)` in classic Wythoff and of each of its
/// options, in the order of [`Family::moves`], holding at most `max_bytes`:
/// the options' list ([`OPTION_BYTES`] each) and the search, both estimated
/// before anything is allocated, and refused when over.
fn classic_nimbers(
    first: &BigUint,
    second: &BigUint,
    max_bytes: u64,
) -> Result<SearchedNimbers<Piles>, Refused> {
    let (Ok(first), Ok(second)) = (u64::try_from(first), u64::try_from(second)) else {
        return Err(Refused::TooLarge);
    };
    let (a, b) = (first.min(second), first.max(second));
    // Every nimber is at most the number of options of its cell, at most that
    // of (a, b): a + b + a.
    let options = a
        .checked_add(b)
        .and_then(|sum| sum.checked_add(a))
        .filter(|&options| options <= u64::from(u32::MAX))
        .ok_or(Refused::TooLarge)?;
    let listed = options.saturating_mul(OPTION_BYTES);
    if listed > max_bytes {
        return Err(Refused::OverBudget {
            needed: listed,
            max_bytes,
        });
    }
    let lines = classic_lines(a, b, max_bytes - listed).map_err(|refused| match refused {
        Refused::OverBudget { needed, .. } => Refused::OverBudget {
            needed: needed.saturating_add(listed),
            max_bytes,
        },
        Refused::TooLarge => Refused::TooLarge,
    })?;
    // Within u32 as checked, so within usize.
    let at = |value: u64| value as usize;
    let flipped = first > second;
    // (first, y): on row a, or, the piles swapped, on column b.
    let along_first = |y: u64| {
        if flipped {
            lines.column[at(y)]
        } else {
            lines.row[at(y)]
        }
    };
    // (x, second): on column b, or, swapped, on row a.
    let along_second = |x: u64| {
        if flipped {
            lines.row[at(x)]
        } else {
            lines.column[at(x)]
        }
    };
    let option = |x: u64, y: u64, nimber: u32| {
        (
            vec![(BigUint::from(x), BigUint::from(y))],
            BigUint::from(nimber),
        )
    };
    let mut list = Vec::with_capacity(at(options));
    for take in 1..=second {
        list.push(option(first, second - take, along_first(second - take)));
    }
    for take in 1..=first {
        list.push(option(first - take, second, along_second(first - take)));
        if take <= second {
            list.push(option(
                first - take,
                second - take,
                lines.diagonal[at(take)],
            ));
        }
    }
    Ok(SearchedNimbers {
        nimber: BigUint::from(lines.row[at(b)]),
        options: list,
    })
}

/// A position: `(first pile, second pile)`.
pub type Piles = (BigUint, BigUint);

/// The rules as a game family: `wythoff(a, b)`, `wythoff[d](a, b)`. The
/// outcome and winning moves come from the closed form at any size; the
/// nimber, which has none, from a bounded search of small piles.
impl Family for Wythoff {
    type Position = Piles;

    fn drawing(&self, (x, y): &Piles) -> Option<Drawing> {
        Some(Drawing::Wythoff {
            x: x.clone(),
            y: y.clone(),
        })
    }

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

    /// All the moves of a small position; of a large one, the takes of 1, 2,
    /// 3, ... from the first pile, the second, and both alike, in turn.
    fn first_moves(&self, piles: &Piles, max: usize) -> Result<FirstMoves<Piles>, SearchError> {
        if let Ok(moves) = self.moves(piles, max) {
            return Ok(FirstMoves {
                moves,
                complete: true,
            });
        }
        let (first, second) = piles;
        let most = first.max(second).clone();
        let takes = std::iter::successors(Some(BigUint::one()), |take| Some(take + 1u32))
            .take_while(move |take| *take <= most);
        let moves = takes.flat_map(|take| {
            let from_first = (take <= *first).then(|| (first - &take, second.clone()));
            let from_second = (take <= *second).then(|| (first.clone(), second - &take));
            let from_both =
                (take <= *first && take <= *second).then(|| (first - &take, second - &take));
            [from_first, from_second, from_both]
                .into_iter()
                .flatten()
                .map(|after| vec![after])
        });
        Ok(FirstMoves {
            complete: false,
            ..FirstMoves::take(moves, max)
        })
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

    /// Classic Wythoff (`d = 0`) by `classic_nimbers`: the thin sweep or the
    /// dense table, within a byte budget estimated before anything is
    /// allocated, where the explorer would store every move (about `a + b +
    /// min(a, b)` per position). The board's `(a + 1)(b + 1)` positions, each
    /// valued once, may be at most `limit`; the bytes, at most `32 limit`.
    /// Piles beyond either, or beyond `u64`, are refused with
    /// [`SearchError::StateLimit`].
    fn nimbers_by_search(
        &self,
        piles: &Piles,
        budget: Budget,
    ) -> Option<Result<SearchedNimbers<Piles>, SearchError>> {
        if self.difference_bound != 0 {
            return None;
        }
        Some(board_within(piles, budget).and_then(|_| {
            classic_nimbers(&piles.0, &piles.1, budget.bytes)
                .map_err(|refused| refused.into_search_error(budget))
        }))
    }

    /// The nimber alone, from the lines of `classic_nimbers` without the list
    /// of options (a table of `wythoff(x, y)` reads each cell's nimber from one kept
    /// dense table).
    fn nimber_by_search(
        &self,
        piles: &Piles,
        budget: Budget,
    ) -> Option<Result<BigUint, SearchError>> {
        if self.difference_bound != 0 {
            return None;
        }
        Some(board_within(piles, budget).and_then(|(a, b)| {
            classic_lines(a, b, budget.bytes)
                .map(|lines| BigUint::from(lines.row[b as usize]))
                .map_err(|refused| refused.into_search_error(budget))
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

fn build(term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
    let game = Wythoff::from_term(term)?;
    let piles = heap_sizes(term, context.limits.bytes)?;
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
    heap_rule: None,
    drawing: DrawingKind::Wythoff,
    every_start: None,
};

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_far_queen_lists_a_sample_of_her_moves() {
        let game = Wythoff::CLASSIC;
        // Small: every move, as `moves` lists them.
        let small = (BigUint::from(2u32), BigUint::from(3u32));
        let first = game.first_moves(&small, 100).unwrap();
        assert!(first.complete);
        assert_eq!(first.moves, game.moves(&small, 100).unwrap());
        // Far: takes of 1, 2, ... from either pile or both, each a legal move.
        let far = (
            BigUint::from(10u32).pow(21),
            BigUint::from(10u32).pow(21) + 5u32,
        );
        let first = game.first_moves(&far, 7).unwrap();
        assert!(!first.complete);
        assert_eq!(first.moves.len(), 7);
        for leaves in &first.moves {
            let [(x, y)] = leaves.as_slice() else {
                panic!("one position: {leaves:?}")
            };
            let (taken_x, taken_y) = (&far.0 - x, &far.1 - y);
            assert!(taken_x == taken_y || taken_x == BigUint::ZERO || taken_y == BigUint::ZERO);
            assert!((x, y) != (&far.0, &far.1));
        }
    }

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

    /// The lines read from the kept table (grown, reused, evicted under a
    /// small cap or budget) are those of a table made for the corner alone,
    /// and the context never holds more than its cap.
    #[test]
    fn the_kept_table_gives_the_lines_of_a_fresh_one_within_the_cap() {
        use crate::theory::caches::Caches;
        use crate::theory::cancel::Cancel;
        for cap in [0, 4 << 10, 1 << 20] {
            let caches = Caches::new(cap);
            Cancel::new().caching(&caches).run(|| {
                for (a, b) in [(3, 5), (10, 12), (2, 40), (30, 31), (5, 6), (40, 44)] {
                    for max_bytes in [u64::MAX, 16 << 10] {
                        let fresh = DenseTable::new(a, b).lines(a, b);
                        assert_eq!(dense_lines(a, b, max_bytes), fresh, "({a}, {b}) cap {cap}");
                        assert!(caches.held_bytes() <= cap, "{caches:?}");
                        assert!(caches.held_bytes() <= caches.limit_under(max_bytes));
                    }
                }
            });
            Cancel::new()
                .caching(&caches)
                .run(|| dense_lines(3, 5, u64::MAX));
            assert_eq!(caches.is_empty(), cap == 0, "{caches:?}");
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

    /// `G(x, y)` from one dense table holding every board of the tests.
    fn truth(table: &[u32], width: usize, x: usize, y: usize) -> u32 {
        let (x, y) = (x.min(y), x.max(y));
        table[x * width + y]
    }

    #[test]
    fn the_thin_sweep_is_the_dense_table_on_every_board_up_to_12_by_300() {
        for a in 0..=12usize {
            for b in a..=300usize {
                let swept = thin_sweep(a, b, u64::MAX).unwrap().lines;
                assert_eq!(swept, DenseTable::new(a, b).lines(a, b), "({a}, {b})");
            }
        }
    }

    #[test]
    fn the_nimbers_and_options_are_the_table_and_the_moves_in_either_order() {
        let (rows, width) = (12usize, 121usize);
        let table = nimber_table(120, 120);
        let game = Wythoff::CLASSIC;
        for thin in 0..=rows {
            for large in 0..width {
                for (first, second) in [(thin, large), (large, thin)] {
                    let piles: Piles = (first.into(), second.into());
                    let found = classic_nimbers(&piles.0, &piles.1, u64::MAX).unwrap();
                    assert_eq!(
                        found.nimber,
                        BigUint::from(truth(&table, width, first, second))
                    );
                    let moves = game.moves(&piles, usize::MAX).unwrap();
                    let listed: Vec<Vec<Piles>> =
                        found.options.iter().map(|(to, _)| to.clone()).collect();
                    assert_eq!(listed, moves, "({first}, {second})");
                    for (to, nimber) in &found.options {
                        let (x, y) = small(&to[0]);
                        let expected = truth(&table, width, x as usize, y as usize);
                        assert_eq!(*nimber, BigUint::from(expected), "({x}, {y})");
                    }
                }
            }
        }
    }

    #[test]
    fn the_searched_nimbers_are_the_generic_search_on_thin_and_thick_boards() {
        let rules = Rules::new(Wythoff::CLASSIC);
        let mut solver = Solver::new(&rules);
        // Thin boards go to the sweep; (66, 70) is beyond THIN_ROWS, to the table.
        for (first, second) in [(0u32, 9u32), (3, 40), (40, 3), (7, 25), (66, 70), (70, 66)] {
            let piles: Piles = (first.into(), second.into());
            let found = Wythoff::CLASSIC
                .nimbers_by_search(&piles, Budget::states(1_000_000))
                .unwrap()
                .unwrap();
            assert_eq!(
                found.nimber,
                BigUint::from(solver.nimber(&at(first, second)).unwrap())
            );
            for (to, nimber) in found.options.iter().step_by(7) {
                let (x, y) = small(&to[0]);
                assert_eq!(*nimber, BigUint::from(solver.nimber(&at(x, y)).unwrap()));
            }
        }
    }

    #[test]
    fn the_sweep_and_the_table_agree_beyond_thin_rows() {
        for (a, b) in [(65usize, 65usize), (70, 200), (100, 130)] {
            let lines = classic_lines(a as u64, b as u64, u64::MAX).unwrap();
            assert_eq!(lines, DenseTable::new(a, b).lines(a, b), "({a}, {b})");
            assert_eq!(thin_sweep(a, b, u64::MAX).unwrap().lines, lines);
        }
    }

    #[test]
    fn the_row_windows_stay_within_the_proven_bound() {
        // M - g <= 4x - 1 for the largest value M and least gap g of row x, so
        // the windows never outgrow their first allocation and the bytes held
        // are the estimate made before allocating.
        let (a, b) = (64, 8_000);
        let sweep = thin_sweep(a, b, u64::MAX).unwrap();
        for (x, &gap) in sweep.widest_gap.iter().enumerate() {
            assert!(gap == 0 || gap < 4 * x as u64, "row {x}: {gap}");
        }
        let refused = thin_sweep(a, b, sweep.peak_bytes - 1);
        assert!(matches!(refused, Err(Refused::OverBudget { .. })));
        assert!(sweep.peak_bytes < 200_000, "{}", sweep.peak_bytes);
    }

    #[test]
    fn row_one_of_a_million_columns_takes_four_megabytes() {
        // Row 1 is 1, 2, 0, 4, 5, 3, ...: G(1, 3k + r) = 3k + (1, 2, 0)[r].
        let row_one = |y: u32| 3 * (y / 3) + [1, 2, 0][(y % 3) as usize];
        let sweep = thin_sweep(1, 999_999, 8 << 20).unwrap();
        assert!(sweep.peak_bytes <= 4_001_000, "{}", sweep.peak_bytes);
        for (y, &value) in (0..).zip(&sweep.lines.row) {
            assert_eq!(value, row_one(y), "(1, {y})");
        }
        assert_eq!(sweep.lines.row[999_999], 1_000_000);
        assert!(matches!(
            thin_sweep(1, 999_999, 3 << 20),
            Err(Refused::OverBudget { .. })
        ));
        // With the list of its million options, within a budget that holds it.
        let found = classic_nimbers(&big(1), &big(999_999), 1 << 30).unwrap();
        assert_eq!(found.nimber, big(1_000_000));
        assert_eq!(found.options.len(), 1_000_001);
        assert!(matches!(
            classic_nimbers(&big(1), &big(999_999), 64 << 20),
            Err(Refused::OverBudget { .. })
        ));
    }

    #[test]
    fn piles_far_beyond_the_budget_are_refused_before_allocating() {
        // Each aborted the process (an allocation of up to 125 GB for the
        // bitsets of the dense table) or panicked (a pile of 2^64 - 1 plus one
        // wrapped to 0), whatever the state limit.
        let max = u64::MAX;
        let cases = [
            (1, 999_999),
            (1, 450_000),
            (999_999, 1),
            (0, max),
            (4_294_967_295, max),
            (4, max),
            (1, max),
            (max, 4),
            (max, max),
            (1, 400_000),
            (3, 330_701),
            (5, 333_000),
        ];
        for (first, second) in cases {
            // 64 MB, less than the list of the options.
            let budget = Budget {
                states: 2_000_000,
                bytes: 64 << 20,
            };
            let found = Wythoff::CLASSIC.nimbers_by_search(&(big(first), big(second)), budget);
            assert!(
                matches!(
                    found,
                    Some(Err(
                        SearchError::StateLimit { .. } | SearchError::MemoryLimit { .. }
                    ))
                ),
                "({first}, {second})"
            );
            // No limit at all: still refused when the values would pass u32.
            if first.max(second) == max {
                let found = Wythoff::CLASSIC
                    .nimbers_by_search(&(big(first), big(second)), Budget::UNLIMITED);
                assert!(
                    matches!(found, Some(Err(SearchError::StateLimit { .. }))),
                    "({first}, {second}), no limit"
                );
            }
        }
        let huge = BigUint::one() << 64u32;
        let found = Wythoff::CLASSIC.nimbers_by_search(&(big(3), huge), Budget::UNLIMITED);
        assert!(matches!(found, Some(Err(SearchError::StateLimit { .. }))));
    }

    #[test]
    fn nimbers_read_from_the_kept_table_are_those_of_a_table_of_their_own() {
        // Corners asked in a scrambled order, growing and shrinking: each nimber
        // read from whatever table is kept must be the corner of its own table.
        let mut corners: Vec<(u64, u64)> = (0..90u64)
            .flat_map(|x| (0..90u64).map(move |y| (x, y)))
            .filter(|&(x, y)| (x * 7 + y * 13) % 5 == 0)
            .collect();
        corners.sort_by_key(|&(x, y)| (x * 7919 + y * 104_729) % 1009);
        for (x, y) in corners {
            let piles = (BigUint::from(x), BigUint::from(y));
            let found = Family::nimber_by_search(&Wythoff::CLASSIC, &piles, Budget::UNLIMITED)
                .unwrap()
                .unwrap();
            let (a, b) = (x.min(y) as usize, x.max(y) as usize);
            let own = *nimber_table(a, b).last().unwrap();
            assert_eq!(found, BigUint::from(own), "({x}, {y})");
        }
    }

    #[test]
    fn a_thin_board_within_the_budget_is_answered_alone_and_in_a_sum() {
        use crate::catalogue::build;
        use crate::lang::parse;
        use crate::sums::analysis::{SolveOptions, solve};
        let within = |text: &str, max_memory: u64| {
            solve(
                &build(&parse(text).unwrap()).unwrap(),
                &SolveOptions {
                    max_memory,
                    ..SolveOptions::default()
                },
            )
        };
        let answer = |text: &str| within(text, 64 << 20);
        // The dense table would hold 100 MB of bitsets here; the sweep 80 kB.
        let alone = answer("wythoff(1, 20000)").unwrap();
        assert_eq!(alone.nimber, Some(big(19_998)));
        let sum = answer("wythoff(20000, 1) + nim(1)").unwrap();
        assert_eq!(sum.nimber, Some(big(19_999)));
        assert_eq!(sum.winning_move_count, big(1));
        // Alone, the nimber needs only the sweep (no list of the million options
        // with their nimbers): within the budget. In a sum the options' nimbers
        // are needed, beyond it: an error.
        let alone = answer("wythoff(1, 999999)").unwrap();
        assert_eq!(alone.nimber, Some(big(1_000_000)));
        let tight = within("wythoff(1, 999999)", 1 << 10).unwrap();
        assert_eq!(tight.nimber, None);
        assert!(
            tight.notes.iter().any(|n| n.contains("not searched")),
            "{:?}",
            tight.notes
        );
        assert_eq!(
            answer("wythoff(1, 999999) + nim(1)").unwrap_err(),
            SearchError::MemoryLimit { limit: 64 << 20 }
        );
        // Within the default 4 GiB it is answered: row 1 is 3k + (1, 2, 0)[r]
        // at 3k + r.
        let roomy = within("wythoff(1, 999999)", 4 << 30).unwrap();
        assert_eq!(roomy.nimber, Some(big(1_000_000)));
        for text in [
            "wythoff(4, 18446744073709551615)",
            "wythoff(18446744073709551615, 4)",
        ] {
            assert_eq!(answer(text).unwrap().nimber, None, "{text}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn the_thin_sweep_is_the_dense_table_on_random_thin_boards(
            a in 0usize..=64, extra in 0usize..2500
        ) {
            let b = a + extra;
            prop_assert_eq!(thin_sweep(a, b, u64::MAX).unwrap().lines, DenseTable::new(a, b).lines(a, b));
        }
    }

    #[test]
    fn sums_with_large_piles_are_answered_by_the_table() {
        use crate::catalogue::build;
        use crate::lang::parse;
        use crate::sums::analysis::{SolveOptions, solve};
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
        use crate::family::parts;
        use crate::sums::analysis::{SolveOptions, solve};
        use crate::sums::position::{Compound, Group, Position};
        use crate::theory::game::Convention;
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
            let moves = |answer: &crate::sums::analysis::Answer| -> Vec<(String, String)> {
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
        use crate::testing::{answer, assert_targets};
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
                    let expected: Vec<String> = solver
                        .winning_moves(&at(first, second))
                        .unwrap()
                        .iter()
                        .map(|to| format!("{head}({}, {})", to[0].0, to[0].1))
                        .collect();
                    assert_eq!(found.winning_move_count, BigUint::from(expected.len()));
                    assert_targets(&found, expected, &format!("{head}({first}, {second})"));
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
