//! Lasker's Nim and Rest Nim: heap games whose nimbers have closed forms.
//!
//! # Lasker's Nim (Winning Ways ch. 4; seed note `002`, "multi-nim")
//! A move takes any positive number from one heap, or splits a heap into two
//! nonempty heaps. The nimber of a heap of `n` is `n` when `n mod 4` is 1 or 2,
//! `n + 1` when `n mod 4 = 3`, `n - 1` when `n mod 4 = 0` (and 0 for `n = 0`):
//! `G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4, G(4k+4) = 4k+3`. The seed's
//! table (`sg[3] = 4, sg[4] = 3, ...`) agrees. The full sequence and its games
//! live with the heap games; this is the closed form.
//!
//! # Rest Nim (seed note `000` §3.1.3)
//! A move takes at least one counter from one heap and may then split what is
//! left of that heap into any number of heaps. The nimber of a heap of `n` is `n`
//! (the seed's proof: the options without splitting give `0..n-1`, and a split
//! of fewer than `n` counters has a nim-sum at most its sum, below `n`).

use num_bigint::BigUint;
use num_traits::Zero;

/// The nimber of a heap of `heap` in Lasker's Nim.
#[must_use]
pub fn lasker_nimber(heap: &BigUint) -> BigUint {
    if heap.is_zero() {
        return BigUint::zero();
    }
    match (heap % 4u32).try_into().unwrap_or(0u32) {
        3 => heap + 1u32,
        0 => heap - 1u32,
        _ => heap.clone(),
    }
}

/// The nimber of a heap of `heap` in Rest Nim.
#[must_use]
pub fn rest_nim_nimber(heap: &BigUint) -> BigUint {
    heap.clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::ImpartialGame;
    use crate::solver::Solver;

    /// Lasker's Nim on a sorted vector of heaps, split into single heaps.
    struct Lasker;
    impl ImpartialGame for Lasker {
        type Position = Vec<u32>;
        fn moves(&self, heaps: &Vec<u32>, moves: &mut Vec<Vec<u32>>) {
            let heap = heaps[0];
            moves.extend((0..heap).map(|left| vec![left]));
            moves.extend((1..=heap / 2).map(|part| vec![part, heap - part]));
        }
        fn components(&self, heaps: &Vec<u32>) -> Option<Vec<Vec<u32>>> {
            (heaps.len() > 1).then(|| heaps.iter().map(|&h| vec![h]).collect())
        }
    }

    /// Rest Nim on one heap: take at least one, split the rest into any parts
    /// (a partition, listed in non-increasing order).
    struct RestNim;
    impl ImpartialGame for RestNim {
        type Position = Vec<u32>;
        fn moves(&self, heaps: &Vec<u32>, moves: &mut Vec<Vec<u32>>) {
            fn partitions(rest: u32, largest: u32, prefix: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
                if rest == 0 {
                    out.push(prefix.clone());
                    return;
                }
                for part in (1..=largest.min(rest)).rev() {
                    prefix.push(part);
                    partitions(rest - part, part, prefix, out);
                    prefix.pop();
                }
            }
            let Some(&heap) = heaps.first() else {
                return;
            };
            for rest in 0..heap {
                partitions(rest, rest, &mut Vec::new(), moves);
            }
        }
        fn components(&self, heaps: &Vec<u32>) -> Option<Vec<Vec<u32>>> {
            (heaps.len() > 1).then(|| heaps.iter().map(|&h| vec![h]).collect())
        }
    }

    #[test]
    fn lasker_matches_search_and_the_seed_table() {
        let mut solver = Solver::new(&Lasker);
        for heap in 0..200u32 {
            let expected = if heap == 0 {
                0
            } else {
                solver.nimber(&vec![heap]).unwrap()
            };
            assert_eq!(
                lasker_nimber(&BigUint::from(heap)),
                BigUint::from(expected),
                "heap {heap}"
            );
        }
        // Seed note 002's table, sg[0..=21].
        let seed = [
            0u32, 1, 2, 4, 3, 5, 6, 8, 7, 9, 10, 12, 11, 13, 14, 16, 15, 17, 18, 20, 19, 21,
        ];
        for (heap, &value) in seed.iter().enumerate() {
            assert_eq!(lasker_nimber(&BigUint::from(heap)), BigUint::from(value));
        }
        let huge: BigUint = "3".repeat(200).parse().unwrap(); // 33...3 = 1 mod 4
        assert_eq!(lasker_nimber(&huge), huge);
    }

    #[test]
    fn rest_nim_matches_search() {
        let mut solver = Solver::new(&RestNim);
        for heap in 0..16u32 {
            let expected = if heap == 0 {
                0
            } else {
                solver.nimber(&vec![heap]).unwrap()
            };
            assert_eq!(
                rest_nim_nimber(&BigUint::from(heap)),
                BigUint::from(expected),
                "heap {heap}"
            );
        }
    }
}
