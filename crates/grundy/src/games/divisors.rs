//! The divisor game: `divisors(n)` and `divisors([a1, ..., ak])`.
//!
//! # Rules (the divisor game: a poset game, like Chomp; Gale 1974)
//! The numbers `1..=n` (or the numbers `a1, ..., ak`) are on the board. A move
//! picks a number left and deletes it and every divisor of it that is left.
//! With no number left the player to move loses.
//!
//! # Theory
//! This is Chomp on the divisibility order (a poset game). `divisors(n)` is a
//! first-player win for every `n >= 1` by strategy stealing: if picking 1
//! lost, the winning reply would have been available at once, since it
//! deletes 1 too. The winning moves and nimbers come from search: positions
//! are sets of at most 128 numbers held as bit sets, valued once each in a
//! table of the positions reached, within `--max-states`.

use std::sync::Arc;

use num_bigint::BigUint;
use rustc_hash::FxHashMap;

use crate::drawing::Drawing;
use crate::family::{Family, SearchedNimbers, part};
use crate::lang::{LangError, Term, ValueKind};
use crate::registry::{BuildContext, DrawingKind, EntryKind, GameEntry};
use crate::sums::position::Group;
use crate::theory::cancel::checkpoint;
use crate::theory::solver::{Budget, SearchError};

/// The most numbers a position may hold.
pub const MOST_NUMBERS: usize = 128;

/// The divisor game on one set of numbers: bit `i` of a position stands for
/// `numbers[i]`.
#[derive(Debug, PartialEq, Eq)]
pub struct Divisors {
    numbers: Vec<u64>,
    /// `divides[i]`: the numbers of the set dividing `numbers[i]` (itself too).
    divides: Vec<u128>,
}

impl Divisors {
    fn new(mut numbers: Vec<u64>) -> Self {
        numbers.sort_unstable();
        numbers.dedup();
        let divides = numbers
            .iter()
            .map(|&x| {
                numbers
                    .iter()
                    .enumerate()
                    .filter(|&(_, &d)| x % d == 0)
                    .fold(0u128, |mask, (i, _)| mask | 1 << i)
            })
            .collect();
        Self { numbers, divides }
    }

    fn each_move(&self, set: u128, mut visit: impl FnMut(usize, u128)) {
        let mut left = set;
        while left != 0 {
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            visit(i, set & !self.divides[i]);
        }
    }

    /// The nimber of `set` and of every position it reaches, within `limit`
    /// positions.
    fn table(&self, set: u128, limit: usize) -> Result<FxHashMap<u128, u32>, SearchError> {
        let mut nimbers: FxHashMap<u128, u32> = FxHashMap::default();
        let mut stack = vec![(set, false)];
        let mut seen = Vec::new();
        while let Some((position, expanded)) = stack.pop() {
            if nimbers.contains_key(&position) {
                continue;
            }
            checkpoint()?;
            if expanded {
                seen.clear();
                self.each_move(position, |_, after| seen.push(nimbers[&after]));
                let mex = crate::theory::nimber::mex(&seen);
                if nimbers.len() == limit {
                    return Err(SearchError::StateLimit { limit });
                }
                nimbers.insert(position, mex);
                continue;
            }
            stack.push((position, true));
            self.each_move(position, |_, after| {
                if !nimbers.contains_key(&after) {
                    stack.push((after, false));
                }
            });
        }
        Ok(nimbers)
    }
}

/// A position: the numbers left, as bits of the game's numbers.
pub type Board = u128;

impl Family for Divisors {
    type Position = Board;

    fn drawing(&self, set: &Board) -> Option<Drawing> {
        let left = self
            .numbers
            .iter()
            .enumerate()
            .filter(|&(i, _)| set >> i & 1 == 1);
        Some(Drawing::Numbers(left.map(|(_, &x)| x).collect()))
    }

    fn write_position(&self, set: &Board, out: &mut String) {
        out.push('[');
        let mut first = true;
        for (i, x) in self.numbers.iter().enumerate() {
            if set >> i & 1 == 1 {
                if !first {
                    out.push_str(", ");
                }
                first = false;
                out.push_str(&x.to_string());
            }
        }
        out.push(']');
    }

    fn moves(&self, set: &Board, limit: usize) -> Result<Vec<Vec<Board>>, SearchError> {
        if set.count_ones() as usize > limit {
            return Err(SearchError::StateLimit { limit });
        }
        let mut moves = Vec::new();
        self.each_move(*set, |_, after| moves.push(vec![after]));
        Ok(moves)
    }

    fn describe_move(&self, from: &Board, to: &[Board]) -> String {
        let Some(to) = to.first() else {
            return "a move".to_owned();
        };
        // The number picked: the largest one deleted.
        let deleted = from & !to;
        let picked = 127 - deleted.leading_zeros() as usize;
        match self.numbers.get(picked) {
            Some(x) if deleted != 0 => format!("pick {x}"),
            _ => "a move".to_owned(),
        }
    }

    fn nimbers_by_search(
        &self,
        set: &Board,
        budget: Budget,
    ) -> Option<Result<SearchedNimbers<Board>, SearchError>> {
        // A position: a 128-bit set and its value in a hash table.
        let table = budget.search_positions(40, |limit| self.table(*set, limit));
        Some(table.map(|nimbers| {
            let mut options = Vec::new();
            self.each_move(*set, |_, after| {
                options.push((vec![after], BigUint::from(nimbers[&after])));
            });
            SearchedNimbers {
                nimber: nimbers[set].into(),
                options,
            }
        }))
    }
}

fn build(term: &Term, _context: &BuildContext<'_>) -> Result<Group, LangError> {
    crate::lang::arguments::no_params(term)?;
    let too_many = |span| {
        LangError::new(
            format!("the divisor game holds at most {MOST_NUMBERS} numbers"),
            span,
        )
    };
    let numbers: Vec<u64> = match term.args.as_slice() {
        [value] => match &value.kind {
            ValueKind::Integer(n) => {
                let n = u64::try_from(n)
                    .ok()
                    .filter(|&n| n as usize <= MOST_NUMBERS)
                    .ok_or_else(|| too_many(value.span))?;
                (1..=n).collect()
            }
            ValueKind::List(items) => {
                let mut numbers = Vec::with_capacity(items.len());
                for item in items {
                    let ValueKind::Integer(x) = &item.kind else {
                        return Err(LangError::new("the numbers are integers", item.span));
                    };
                    let x = u64::try_from(x).ok().filter(|&x| x >= 1).ok_or_else(|| {
                        LangError::new(
                            format!("`{x}` is not a positive integer below 2^64"),
                            item.span,
                        )
                    })?;
                    if numbers.contains(&x) {
                        return Err(LangError::new(format!("{x} is listed twice"), item.span));
                    }
                    numbers.push(x);
                }
                if numbers.len() > MOST_NUMBERS {
                    return Err(too_many(value.span));
                }
                numbers
            }
            _ => {
                return Err(LangError::new(
                    "`divisors` takes n (the numbers 1..n) or the numbers left `[a1, ..., ak]`",
                    value.span,
                ));
            }
        },
        _ => {
            return Err(LangError::new(
                "`divisors` takes n (the numbers 1..n) or the numbers left `[a1, ..., ak]`",
                term.span,
            ));
        }
    };
    let all = if numbers.len() == 128 {
        u128::MAX
    } else {
        (1u128 << numbers.len()) - 1
    };
    Ok(Group::new(
        "divisors",
        vec![part(&Arc::new(Divisors::new(numbers)), all)],
    ))
}

/// The catalogue entry.
pub(crate) const ENTRY: GameEntry = GameEntry {
    name: "divisors",
    summary: "pick a number and delete it with all its divisors left",
    rules: "divisors(n) puts the numbers 1..n on the board, divisors([a1, ..., ak]) the numbers \
            listed. A move picks a number left and deletes it and every divisor of it left; with \
            no number left the player to move loses. divisors(n) is a first-player win for every \
            n >= 1 (strategy stealing: picking 1 deletes only what every move deletes too), but \
            the winning moves and nimbers come from search over the sets reached (at most 128 \
            numbers), within --max-states. Positions after a move are written with the numbers \
            left: divisors([2, 3, 5]).",
    syntax: "divisors(n), divisors([a1, ..., ak])",
    examples: &[
        "divisors(10)",
        "divisors([2, 3, 4, 6])",
        "divisors(6) + nim(2)",
    ],
    kind: EntryKind::Game(build),
    heap_rule: None,
    drawing: DrawingKind::Numbers,
    every_start: None,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Rules;
    use crate::theory::solver::Solver;

    #[test]
    fn the_table_matches_search_and_strategy_stealing() {
        for n in 1..=14u64 {
            let game = Divisors::new((1..=n).collect());
            let all = (1u128 << n) - 1;
            let table = game.table(all, usize::MAX).unwrap();
            let rules = Rules::new(Divisors::new((1..=n).collect()));
            let mut solver = Solver::new(&rules);
            for (&set, &g) in table.iter().take(300) {
                assert_eq!(g, solver.nimber(&vec![set]).unwrap(), "{n} {set:b}");
            }
            assert_ne!(table[&all], 0, "divisors({n}) is a first-player win");
        }
    }
}
