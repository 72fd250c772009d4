//! The Grundy values at most 3 of Fibonacci Nim, at any size.
//!
//! # Theorem
//! Write the heap `n` in Zeckendorf form, its terms (distinct, non-adjacent
//! Fibonacci numbers `1, 2, 3, 5, 8, ...`) listed smallest first, `z_1 < z_2 <
//! z_3 < ...`, and let `r` be the most the player to move may take, at most `n`
//! (`n - 1` at the start). Larsson and Rubinstein-Salzedo ("Grundy values of
//! Fibonacci nim", *International Journal of Game Theory* 45, 2016;
//! arXiv:1410.0332) determine every position of Grundy value at most 3. In the
//! form used here:
//!
//! * value 0 iff `r < z_1` (Whinihan 1963);
//! * value 1 iff `z_1 = 1` and `1 <= r < z_2` (or `n = 1`);
//! * value 2 iff `z_1 = 2` and `2 <= r < z_2` (or `n = 2`);
//! * value 3 iff `z_1 = 1`, `z_2 = 3` and `3 <= r < z_3` (or `n = 4`, `r >= 3`),
//!   or `z_1 = 3` and `3 <= r < z_2 - 1` (or `n = 3`, `r = 3`);
//! * every other position has value at least 4.
//!
//! The statement is checked in both directions (a position has value `v <= 3`
//! iff the rule says `v`) against the generic solver on every position with
//! `n <= 300` and every bound `r`, and the moves to each value counted below on
//! every position with `n <= 150`.
//!
//! # Moves to a value
//! A move takes `t` (`1 <= t <= r`) and leaves `(n - t, 2t)`. Each rule above
//! fixes the low terms of `m = n - t` (a tail `T`: `1`, `2`, `3` or `3 + 1`) and
//! bounds `2t` by the next term `F` of `m`: `m = H + F + T` with `H` a sum of
//! Fibonacci numbers above `F` (non-adjacent), and `t < F / 2`. For one `F`,
//! the candidates `H` lie in a window of width below `F / 2`, where two sums of
//! Fibonacci numbers above `F` never both fall (they differ by at least the one
//! after `F`): the largest such `H` below the window's top, found by dropping
//! the low terms of a Zeckendorf form, is the only candidate. So the moves to
//! a value number at most one per Fibonacci number below `n`, `O(log n)`, and
//! are found without enumerating the takes.

use num_bigint::BigUint;
use num_traits::{One, Zero};

/// The Fibonacci numbers `1, 2, 3, 5, ...` up to `heap`.
pub(crate) struct Fibonacci {
    terms: Vec<BigUint>,
}

impl Fibonacci {
    /// The Fibonacci numbers up to `heap` (about `1.44 log2(heap)` of them).
    pub(crate) fn up_to(heap: &BigUint) -> Self {
        let mut terms = vec![BigUint::one(), BigUint::from(2u32)];
        while terms[terms.len() - 1] <= *heap {
            let next = &terms[terms.len() - 1] + &terms[terms.len() - 2];
            terms.push(next);
        }
        Self { terms }
    }

    /// The Zeckendorf terms of `n` (at most the heap given), smallest first,
    /// keeping only those at least `least`.
    fn zeckendorf_from(&self, n: &BigUint, least: usize) -> Vec<usize> {
        let mut rest = n.clone();
        let mut indices = Vec::new();
        for (index, term) in self.terms.iter().enumerate().rev() {
            if rest.is_zero() {
                break;
            }
            if *term <= rest {
                rest -= term;
                indices.push(index);
            }
        }
        indices.retain(|&index| index >= least);
        indices.reverse();
        indices
    }

    fn sum(&self, indices: &[usize]) -> BigUint {
        indices.iter().map(|&index| &self.terms[index]).sum()
    }
}

/// The Grundy value of Fibonacci Nim with `heap` counters when the player to
/// move may take at most `limit`, if it is at most 3; `None` when it is at
/// least 4 (see the module documentation).
pub(crate) fn value_at_most_three(
    fibonacci: &Fibonacci,
    heap: &BigUint,
    limit: &BigUint,
) -> Option<u8> {
    let r = limit.min(heap);
    let z = fibonacci.zeckendorf_from(heap, 0);
    let term = |j: usize| z.get(j).map(|&index| &fibonacci.terms[index]);
    let Some(first) = term(0) else {
        return Some(0);
    };
    if r < first {
        return Some(0);
    }
    let below = |j: usize, less: u32| term(j).is_none_or(|t| r + less < *t);
    match z[0] {
        // z_1 = 1.
        0 if below(1, 0) => Some(1),
        0 if term(1).is_some_and(|t| *t == BigUint::from(3u32)) && below(2, 0) => Some(3),
        // z_1 = 2.
        1 if below(1, 0) => Some(2),
        // z_1 = 3: r < z_2 - 1.
        2 if below(1, 1) => Some(3),
        _ => None,
    }
}

/// The takes from `heap` (at most `limit`) that leave a position of Grundy
/// value `value <= 3`, increasing: their number and the first `max`.
pub(crate) fn takes_to_value(
    fibonacci: &Fibonacci,
    heap: &BigUint,
    limit: &BigUint,
    value: u8,
    max: usize,
) -> (BigUint, Vec<BigUint>) {
    let r = limit.min(heap).clone();
    // The shapes of the rest `m = H + F + T` of each value: the tail `T` by
    // its Fibonacci indices, the least take with `m = T` alone and with an `F`
    // above the tail, and how much `2t` stays below `F` (`2t < F - slack`).
    struct Shape {
        tail: &'static [usize],
        least_take: u32,
        slack: u32,
    }
    let shapes: &[Shape] = match value {
        0 => &[],
        1 => &[Shape {
            tail: &[0],
            least_take: 1,
            slack: 0,
        }],
        2 => &[Shape {
            tail: &[1],
            least_take: 1,
            slack: 0,
        }],
        3 => &[
            Shape {
                tail: &[0, 2],
                least_take: 2,
                slack: 0,
            },
            Shape {
                tail: &[2],
                least_take: 2,
                slack: 1,
            },
        ],
        _ => return (BigUint::zero(), Vec::new()),
    };
    let mut takes: Vec<BigUint> = Vec::new();
    if value == 0 {
        // A take leaves value 0 iff 2t is below the smallest term of n - t:
        // by [`value_at_most_three`] on each candidate, which are few (the
        // prefix sums of the Zeckendorf terms of `n`, Whinihan).
        let z = fibonacci.zeckendorf_from(heap, 0);
        let mut prefix = BigUint::zero();
        for &index in &z {
            prefix += &fibonacci.terms[index];
            if prefix > r {
                break;
            }
            let left = heap - &prefix;
            if value_at_most_three(fibonacci, &left, &(&prefix << 1u32)) == Some(0) {
                takes.push(prefix.clone());
            }
        }
    }
    for shape in shapes {
        let tail = fibonacci.sum(shape.tail);
        let top = shape.tail[shape.tail.len() - 1];
        let least = BigUint::from(shape.least_take);
        let mut push = |rest: &BigUint, take_below: Option<&BigUint>| {
            if rest >= heap {
                return;
            }
            let take = heap - rest;
            if take < least || take > r {
                return;
            }
            if take_below.is_some_and(|bound| (&take << 1u32) >= *bound) {
                return;
            }
            takes.push(take);
        };
        // m = T alone.
        push(&tail, None);
        // m = H + F + T, F the Fibonacci number of index k >= top + 2.
        for k in top + 2..fibonacci.terms.len() {
            let f = &fibonacci.terms[k];
            let base = f + &tail;
            if base >= *heap {
                break;
            }
            let bound = f - BigUint::from(shape.slack);
            // t >= least: H <= n - base - least; the largest sum of Fibonacci
            // numbers of index >= k + 2 below that.
            let room = heap - &base;
            if room < least {
                continue;
            }
            let high = fibonacci.zeckendorf_from(&(room - &least), k + 2);
            let rest = fibonacci.sum(&high) + &base;
            push(&rest, Some(&bound));
        }
    }
    takes.sort_unstable();
    takes.dedup();
    let count = BigUint::from(takes.len());
    takes.truncate(max);
    (count, takes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::theory::game::ImpartialGame;
    use crate::theory::solver::{SearchError, Solver};

    /// Fibonacci Nim on heaps up to `n`: `(heap, limit)` with the limit at
    /// most the heap.
    struct Rules {
        n: u32,
    }

    impl ImpartialGame for Rules {
        type Position = (u32, u32);
        fn moves(&self, &(heap, limit): &(u32, u32), moves: &mut Vec<(u32, u32)>) {
            for take in 1..=limit.min(heap) {
                moves.push((heap - take, (2 * take).min(self.n)));
            }
        }
    }

    #[test]
    fn values_at_most_three_are_those_of_the_search_in_both_directions() {
        let n = 300;
        let rules = Rules { n };
        let mut solver = Solver::new(&rules);
        let fibonacci = Fibonacci::up_to(&BigUint::from(n));
        for heap in 0..=n {
            for limit in 0..=heap {
                let searched = solver.nimber(&(heap, limit)).unwrap();
                let rule = value_at_most_three(&fibonacci, &heap.into(), &limit.into());
                let expected = (searched <= 3).then_some(searched as u8);
                assert_eq!(
                    rule, expected,
                    "heap {heap}, limit {limit}: value {searched}"
                );
            }
        }
    }

    #[test]
    fn moves_to_each_small_value_are_those_of_the_search() {
        let n = 150;
        let rules = Rules { n };
        let mut solver = Solver::new(&rules);
        let fibonacci = Fibonacci::up_to(&BigUint::from(n));
        for heap in 0..=n {
            for limit in 0..=heap + 2 {
                for value in 0..=4u8 {
                    let expected: Vec<BigUint> = (1..=limit.min(heap))
                        .filter(|&take| {
                            let after = (heap - take, (2 * take).min(n));
                            value < 4 && solver.nimber(&after).unwrap() == u32::from(value)
                        })
                        .map(BigUint::from)
                        .collect();
                    let (count, takes) =
                        takes_to_value(&fibonacci, &heap.into(), &limit.into(), value, usize::MAX);
                    assert_eq!(takes, expected, "heap {heap}, limit {limit}, value {value}");
                    assert_eq!(count, BigUint::from(expected.len()));
                    let (count, first) =
                        takes_to_value(&fibonacci, &heap.into(), &limit.into(), value, 1);
                    assert_eq!(count, BigUint::from(expected.len()));
                    assert_eq!(first, expected.into_iter().take(1).collect::<Vec<_>>());
                }
            }
        }
    }

    /// Sums of a Fibonacci Nim heap too large for the family's search (the
    /// budget is made tiny) with a Nim heap: where the values up to 3 decide
    /// the sum, its outcome and winning moves are those of the search of the
    /// whole sum; where they do not, the answer says the outcome is unknown.
    #[test]
    fn sums_decided_by_values_up_to_three_are_those_of_the_search() {
        use crate::catalogue::build;
        use crate::lang::parse;
        use crate::sums::analysis::{SolveOptions, solve};
        let n = 60;
        let rules = Rules { n };
        let mut solver = Solver::new(&rules);
        let options = SolveOptions {
            max_states: 40,
            ..SolveOptions::default()
        };
        let (mut decided, mut refused) = (0, 0);
        for heap in 3..=n {
            for limit in 1..=heap {
                for nim in 0..=5u32 {
                    let g = solver.nimber(&(heap, limit)).unwrap();
                    let takes = (1..=limit.min(heap))
                        .filter(|&t| solver.nimber(&(heap - t, (2 * t).min(n))).unwrap() == nim)
                        .count();
                    let expected = takes + usize::from(g < nim);
                    let source = format!("fibonacci_nim({heap}, {limit}) + nim({nim})");
                    let position = build(&parse(&source).unwrap()).unwrap();
                    match solve(&position, &options) {
                        Ok(answer) => {
                            decided += 1;
                            assert_eq!(answer.outcome.first_player_wins(), g != nim, "{source}");
                            if answer.moves_counted {
                                assert_eq!(answer.winning_move_count, expected.into(), "{source}");
                            }
                            assert!(answer.moves_counted || g >= 4, "{source}");
                            match &answer.nimber {
                                Some(nimber) => assert_eq!(*nimber, (g ^ nim).into(), "{source}"),
                                None => assert!(g >= 4, "{source}"),
                            }
                        }
                        Err(SearchError::TheoryLimit { refusal }) => {
                            refused += 1;
                            assert!(g >= 4 && nim >= 4, "{source}: {}", refusal.reason);
                        }
                        Err(other) => panic!("{source}: {other}"),
                    }
                }
            }
        }
        assert!(
            decided > 3 * refused,
            "{decided} decided, {refused} refused"
        );
    }
}
