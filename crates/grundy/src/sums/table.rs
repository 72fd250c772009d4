//! Many positions answered together: the values of a table (`grundy table`).
//!
//! A table asks for the nimbers (or outcomes) of thousands of related
//! positions, `script[@g.rhai](n)` for `n` up to 10^5 or `wythoff(x, y)` on a
//! grid. Answering each with [`solve`](crate::sums::analysis::solve()) would search
//! every position's game graph anew, quadratic over a table; a [`Tabulator`]
//! keeps one explored graph of components and the nimbers of its nodes
//! (Sprague-Grundy: a node's nimber is the mex over its options of the
//! nim-sum of the components each leaves) for the whole table, so each
//! component is explored and valued once.
//!
//! Components with a nimber by theory (Nim, octal games, Wythoff's outcome
//! aside) never enter the graph; those with a search of their own (Chomp's
//! table, Cram's pruned search, one board at a time) use it; positions that
//! are not plain sums under normal play (misère, `every`, `rounds`) are
//! answered one by one by `solve`.

use num_bigint::BigUint;

use crate::family::Part;
use crate::sums::analysis::{SolveOptions, solve};
use crate::sums::explorer::Explorer;
use crate::sums::position::{Compound, Position};
use crate::theory::cancel::checkpoint;
use crate::theory::game::{Convention, Outcome};
use crate::theory::loopy::LoopyValue;
use crate::theory::nimber::MexSet;
use crate::theory::solver::SearchError;

/// A node's nimber not yet known.
const UNKNOWN: u32 = u32::MAX;
/// A node whose nimber is being found: meeting it again is a cycle.
const IN_PROGRESS: u32 = u32::MAX - 1;

/// Answers many positions with one shared search.
#[derive(Debug)]
pub struct Tabulator {
    options: SolveOptions,
    explorer: Explorer,
    /// The nimber of each explored node, [`UNKNOWN`] until found.
    nimbers: Vec<u32>,
    mex: MexSet,
}

impl Tabulator {
    /// A tabulator whose shared graph stores at most `options.max_states`
    /// components (over the whole table), and whose one-by-one answers have
    /// the same limits.
    #[must_use]
    pub fn new(options: SolveOptions) -> Self {
        Self {
            explorer: options.explorer(),
            options,
            nimbers: Vec::new(),
            mex: MexSet::new(),
        }
    }

    /// How many components the shared graph holds.
    #[must_use]
    pub fn explored(&self) -> usize {
        self.explorer.len()
    }

    /// The nimber of `position`; `None` for a position that has none (misère
    /// play).
    ///
    /// # Errors
    /// [`SearchError::StateLimit`] when the shared graph would pass its limit,
    /// [`SearchError::Cycle`] for a loopy game, and whatever `solve` returns.
    pub fn nimber(&mut self, position: &Position) -> Result<Option<BigUint>, SearchError> {
        if !is_plain_sum(position) || has_infinite_part(position) {
            return Ok(solve(position, &self.quiet())?.nimber);
        }
        let mut total = BigUint::default();
        for group in &position.groups {
            for part in &group.parts {
                total ^= self.part_nimber(part)?;
            }
        }
        Ok(Some(total))
    }

    /// Who wins `position`. A lone component whose outcome is known by theory
    /// (Wythoff's game, Fibonacci Nim) is answered by it without its nimber.
    ///
    /// # Errors
    /// As [`nimber`](Self::nimber).
    pub fn outcome(&mut self, position: &Position) -> Result<Outcome, SearchError> {
        let lone_by_theory = matches!(position.groups.as_slice(), [group]
            if matches!(group.parts.as_slice(), [part]
                if part.nimber_by_theory().is_none() && part.outcome_by_theory(0).is_some()));
        if !is_plain_sum(position) || lone_by_theory || has_infinite_part(position) {
            return Ok(solve(position, &self.quiet())?.outcome);
        }
        Ok(match self.nimber(position)? {
            Some(nimber) if nimber == BigUint::default() => Outcome::PreviousPlayerWins,
            _ => Outcome::NextPlayerWins,
        })
    }

    /// The generalized Sprague-Grundy value of `position` when a component
    /// of it has an infinite one (a `digraph` token that may go round a
    /// cycle; see [`crate::theory::loopy`]), answered by `solve`; `None`
    /// when every component's value is finite.
    ///
    /// # Errors
    /// As [`nimber`](Self::nimber).
    pub fn infinite_value(
        &mut self,
        position: &Position,
    ) -> Result<Option<LoopyValue>, SearchError> {
        if !is_plain_sum(position) || !has_infinite_part(position) {
            return Ok(None);
        }
        Ok(solve(position, &self.quiet())?.loopy_value)
    }

    /// The options of a one-by-one answer: no winning moves listed.
    fn quiet(&self) -> SolveOptions {
        SolveOptions {
            max_moves: 0,
            winning_moves: false,
            ..self.options.clone()
        }
    }

    fn part_nimber(&mut self, part: &Part) -> Result<BigUint, SearchError> {
        let found = self.part_nimber_in_store(part);
        if found.is_err() {
            // A search stopped part way (a deadline, a cancellation, a limit)
            // may leave components in the shared graph whose options were not
            // all listed: a later cell would read them as complete. Nothing
            // of it is kept; the next cell starts from an empty store.
            self.explorer = self.options.explorer();
            self.nimbers.clear();
        }
        found
    }

    fn part_nimber_in_store(&mut self, part: &Part) -> Result<BigUint, SearchError> {
        if let Some((nimber, _)) = part.nimber_by_theory() {
            return Ok(nimber);
        }
        if let Some(mut search) = part.position_search(self.options.budget()) {
            return search.nimber();
        }
        if let Some(found) = part.nimber_by_search(self.options.budget()) {
            return found;
        }
        let id = self.explorer.explore(part)?;
        self.node_nimber(id).map(BigUint::from)
    }

    /// The nimber of an explored node, depth first without recursion: a frame
    /// is pushed once to push its unknown children and once more to take the
    /// mex of its options, all known by then.
    fn node_nimber(&mut self, root: u32) -> Result<u32, SearchError> {
        if self.nimbers.len() < self.explorer.len() {
            self.nimbers.resize(self.explorer.len(), UNKNOWN);
        }
        let mut stack = vec![(root, false)];
        while let Some((id, expanded)) = stack.pop() {
            checkpoint()?;
            let at = id as usize;
            if expanded {
                self.mex.clear();
                for option in self.explorer.options(id) {
                    let value = option
                        .iter()
                        .fold(0, |x, &child| x ^ self.nimbers[child as usize]);
                    self.mex.insert(value);
                }
                self.nimbers[at] = self.mex.mex();
                continue;
            }
            match self.nimbers[at] {
                UNKNOWN => {}
                IN_PROGRESS => return Err(self.cycle()),
                _ => continue,
            }
            self.nimbers[at] = IN_PROGRESS;
            stack.push((id, true));
            for option in self.explorer.options(id) {
                for &child in option {
                    match self.nimbers[child as usize] {
                        UNKNOWN => stack.push((child, false)),
                        IN_PROGRESS => return Err(self.cycle()),
                        _ => {}
                    }
                }
            }
        }
        Ok(self.nimbers[root as usize])
    }

    /// A cycle was met: the nodes left in progress are forgotten, so that the
    /// tabulator stays usable, and the error is returned.
    fn cycle(&mut self) -> SearchError {
        for nimber in &mut self.nimbers {
            if *nimber == IN_PROGRESS {
                *nimber = UNKNOWN;
            }
        }
        SearchError::Cycle
    }
}

/// Whether a component of `position` has an infinite generalized
/// Sprague-Grundy value: such a sum is answered by `solve` (Smith's rule).
fn has_infinite_part(position: &Position) -> bool {
    position
        .groups
        .iter()
        .flat_map(|group| &group.parts)
        .any(|part| matches!(part.loopy_value(), Some((LoopyValue::Infinite(_), _))))
}

fn is_plain_sum(position: &Position) -> bool {
    position.convention == Convention::Normal && matches!(position.compound, Compound::Sum)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::build;
    use crate::lang::parse;

    fn position(text: &str) -> Position {
        build(&parse(text).unwrap()).unwrap()
    }

    #[test]
    fn a_shared_graph_gives_solves_nimbers_and_outcomes() {
        let mut table = Tabulator::new(SolveOptions::default());
        let texts = (0..12u32).flat_map(|x| {
            (0..12u32).flat_map(move |y| {
                [
                    format!("wythoff({x}, {y})"),
                    format!("wythoff({x}, {y}) + nim({y})"),
                    format!("fibonacci_nim({})", x + y + 1),
                    format!("misere(nim({x}, {y}))"),
                    format!("moore[2]({x}, {y}, 3)"),
                    format!("grundy_game({x}) + lasker({y})"),
                ]
            })
        });
        for text in texts {
            let position = position(&text);
            let answer = solve(&position, &SolveOptions::default()).unwrap();
            assert_eq!(table.nimber(&position).unwrap(), answer.nimber, "{text}");
            assert_eq!(table.outcome(&position).unwrap(), answer.outcome, "{text}");
        }
        assert!(table.explored() > 0);
    }
}
