//! Remoteness of sums: how many moves a plain normal-play sum lasts under best play
//! (the winner hurrying, the loser delaying), as `theory::remoteness`
//! defines it. Unlike nimbers it does not follow from the components' values, so the
//! sum is searched whole, over the explored graphs of its components. The
//! playground's engine uses it to play perfectly: the quickest win, the slowest loss.

use crate::sums::explorer::{Explorer, GraphGame, Multiset};
use crate::sums::position::{Compound, Position};
use crate::theory::game::Convention;
use crate::theory::limits::Budget;
use crate::theory::remoteness::Remoteness;
use crate::theory::solver::SearchError;

/// The remoteness of each of `positions`, searched together (they share components
/// and positions), storing at most `budget.states` components and at most as many
/// positions, and holding at most `budget.bytes` bytes in the search of the sums
/// (a sum of many components holds a long position per option).
/// `None` unless every position is a plain sum under normal play (remoteness is
/// defined here for normal play only).
///
/// # Errors
/// [`SearchError::StateLimit`] past `budget.states`, [`SearchError::MemoryLimit`]
/// past `budget.bytes`, and what a component's moves report.
pub fn remotenesses(
    positions: &[Position],
    budget: Budget,
) -> Result<Option<Vec<u32>>, SearchError> {
    let limit = budget.states;
    let plain = |position: &Position| {
        position.convention == Convention::Normal && position.compound == Compound::Sum
    };
    if !positions.iter().all(plain) {
        return Ok(None);
    }
    let mut explorer = Explorer::new(limit).with_memory_limit(budget.bytes);
    let mut sums: Vec<Multiset> = Vec::with_capacity(positions.len());
    for position in positions {
        let mut ids = Vec::new();
        for group in &position.groups {
            for part in &group.parts {
                ids.push(explorer.explore(part)?);
            }
        }
        sums.push(explorer.multiset(ids));
    }
    let game = GraphGame::new(&explorer);
    let mut search = Remoteness::new(&game, limit).with_memory_limit(budget.bytes);
    sums.iter()
        .map(|sum| search.of(sum))
        .collect::<Result<Vec<u32>, SearchError>>()
        .map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::build;
    use crate::lang::parse;

    fn position(source: &str) -> Position {
        build(&parse(source).unwrap()).unwrap()
    }

    fn remoteness(source: &str) -> u32 {
        remotenesses(&[position(source)], Budget::states(1 << 20))
            .unwrap()
            .unwrap()[0]
    }

    #[test]
    fn known_values() {
        // One heap: take it all. Equal heaps: the loser takes one token and the
        // winner mirrors, so every token is taken singly.
        assert_eq!(remoteness("nim(5)"), 1);
        assert_eq!(remoteness("nim(1, 1)"), 2);
        assert_eq!(remoteness("nim(3, 3)"), 6);
        assert_eq!(remoteness("nim(0)"), 0);
        // One token at a time: as many moves as tokens, summed over heaps.
        assert_eq!(remoteness("sub[1](7)"), 7);
        assert_eq!(remoteness("sub[1](3) + sub[1](4)"), 7);
    }

    #[test]
    fn even_exactly_on_p_positions() {
        use crate::sums::analysis::{SolveOptions, solve};
        for source in [
            "nim(1, 2, 3)",
            "nim(3, 5, 6)",
            "kayles(7)",
            "kayles(4) + nim(2)",
            "wythoff(3, 5)",
            "wythoff(2, 4) + nim(1)",
            "sub[1, 3, 4](9) + sub[2, 5](7)",
            "cram(3, 3)",
        ] {
            let answer = solve(&position(source), &SolveOptions::default()).unwrap();
            let r = remoteness(source);
            assert_eq!(
                r % 2 == 1,
                answer.outcome.first_player_wins(),
                "{source}: remoteness {r}"
            );
        }
    }

    #[test]
    fn misere_and_limits() {
        let misere = position("misere(nim(1, 2))");
        assert_eq!(remotenesses(&[misere], Budget::states(1000)).unwrap(), None);
        assert!(matches!(
            remotenesses(&[position("nim(9, 9, 9, 9)")], Budget::states(50)),
            Err(SearchError::StateLimit { limit: 50 })
        ));
        // A thousand heaps of one: few positions, but each option a long one.
        let ones = vec!["1"; 1000].join(", ");
        let budget = Budget {
            states: 1 << 20,
            bytes: 1 << 20,
        };
        assert!(matches!(
            remotenesses(&[position(&format!("nim({ones})"))], budget),
            Err(SearchError::MemoryLimit { limit }) if limit == 1 << 20
        ));
    }
}
