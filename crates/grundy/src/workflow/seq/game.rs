//! The values of a game of one integer whose moves a front end's functions
//! give ([`crate::games::callback`]: Python's `grundy.seq(g, n)`), `g(0),
//! ..., g(N)`: the cells of a table over `n`, sharing one search. No theorem
//! covers such a game, so a period seen is reported unproven.

use std::sync::Arc;

use num_bigint::BigInt;

use super::{Finish, Sequence};
use crate::games::callback::{Game, Value};
use crate::sequence::{GrundyValues, find_unproven_periodicity};
use crate::sums::position::Position;
use crate::theory::game::Convention;
use crate::theory::limits::{Refusal, SearchError};
use crate::workflow::table::{Axis, Cell, CellError, Grid, Measure, cell_name};
use crate::workflow::{Door, Failure, Limits};

/// The values of `game` at the integers `0..=last_heap`, its parts at `n`
/// those of `game(n)`, computed on one thread within `limits`. Runs under
/// the signal in force on this thread ([`crate::theory::cancel::current`]): when it
/// is raised, the values done are returned ([`Finish::Partial`]).
///
/// # Errors
/// The first value that fails, named (`in the cell n = 5`): the game's
/// functions failed, a limit was reached, or a value passes 32 bits.
pub fn game_sequence(
    game: &Arc<Game>,
    last_heap: usize,
    limits: &Limits,
    door: Door,
) -> Result<Sequence, Failure> {
    let count = last_heap as u64 + 1;
    let axis = Axis {
        name: "n".to_owned(),
        first: BigInt::from(0),
        count,
    };
    let grid = Grid::new(vec![axis], Measure::Nimber, count, door)?;
    let position = |n: u64, _: &[BigInt]| -> Result<Position, SearchError> {
        let heap = i64::try_from(n).map_err(|_| SearchError::Script {
            message: format!("{n} is not a 64-bit integer"),
        })?;
        let found = game.parts_of(vec![Value::Integer(heap)])?;
        Ok(Position::sum(Convention::Normal, vec![game.group(&found)]))
    };
    let one_thread = Limits {
        threads: Some(1),
        ..*limits
    };
    let computed = grid.compute(&one_thread, &position, &());
    if let Some(failed) = computed.failed {
        let failure = match failed.error {
            CellError::Position(error) | CellError::Search(error) => Failure::search(&error, door),
            // Not under normal play, where every position has a nimber.
            CellError::NoNimber(_) => Failure::input("error: the position has no nimber"),
        };
        let cell = cell_name(grid.axes(), &failed.values);
        return Err(failure.reworded(|message| format!("{message}\nin the cell {cell}")));
    }
    let mut values = GrundyValues::new();
    for cell in &computed.cells {
        let value = match cell {
            Cell::Nimber(n) => u32::try_from(n).ok(),
            Cell::Outcome(_) | Cell::Infinite(_) => None,
        };
        let Some(value) = value else {
            let reason = format!(
                "the value of {}({}) does not fit in the 32 bits values of a sequence are stored in",
                game.name(),
                values.len()
            );
            let refusal = Refusal::new(reason, &[]);
            return Err(Failure::search(&SearchError::TheoryLimit { refusal }, door));
        };
        values.push(value);
    }
    let complete = values.len() == last_heap + 1;
    Ok(Sequence {
        rule: game.name().to_owned(),
        last_heap: if complete {
            last_heap
        } else {
            values.len().saturating_sub(1)
        },
        periodicity: if complete {
            find_unproven_periodicity(&values)
        } else {
            None
        },
        values,
        out: None,
        finish: if complete {
            Finish::Complete
        } else {
            Finish::Partial
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::callback::{Function, Functions, Reader, Wrong};
    use crate::theory::cancel::Cancel;

    /// Subtract 1, 2 or 3 (values `n mod 4`); 50 raises.
    struct Bash;

    impl Functions for Bash {
        fn call(
            &self,
            function: Function,
            position: &Value,
            read: &mut Reader<'_>,
        ) -> Result<(), Wrong> {
            match (function, position) {
                (Function::Moves, Value::Integer(50)) => Err(Wrong::Raised {
                    kind: "ValueError".into(),
                    message: "no".into(),
                }),
                (Function::Moves, Value::Integer(n)) => (1..=3)
                    .filter(|k| k <= n)
                    .try_for_each(|k| read(Ok(Value::Integer(n - k)))),
                _ => read(Ok(position.clone())),
            }
        }

        fn describe(&self, _: &Value, _: &[Value], _: bool) -> Option<String> {
            None
        }
    }

    fn bash() -> Arc<Game> {
        Arc::new(Game::new(Some("bash3".into()), "", false, Box::new(Bash)).unwrap())
    }

    #[test]
    fn the_values_and_an_unproven_period() {
        let found = game_sequence(&bash(), 40, &Limits::default(), Door::Python).unwrap();
        assert_eq!(found.finish, Finish::Complete);
        assert_eq!(found.rule, "bash3");
        let values: Vec<u32> = found.values.iter().collect();
        assert_eq!(values, (0..=40).map(|n| n % 4).collect::<Vec<_>>());
        let period = found.periodicity.unwrap();
        assert_eq!(
            (period.period, period.preperiod, period.proven()),
            (4, 0, false)
        );
    }

    #[test]
    fn a_failing_value_names_its_cell() {
        let Err(Failure::Game(message)) =
            game_sequence(&bash(), 60, &Limits::default(), Door::Python)
        else {
            panic!("no game error");
        };
        assert!(
            message.ends_with("moves(50) raised ValueError: no\nin the cell n = 50"),
            "{message}"
        );
    }

    #[test]
    fn a_raised_signal_keeps_the_values_done() {
        let cancel = Cancel::new();
        cancel.cancel();
        let found = cancel.run(|| game_sequence(&bash(), 40, &Limits::default(), Door::Python));
        assert_eq!(found.unwrap().finish, Finish::Partial);
    }
}
