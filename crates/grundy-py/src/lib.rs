//! The native part of grundy's Python package, `grundy._native`: the library
//! (`crates/grundy`) called directly, with the GIL released while it computes
//! and Ctrl-C stopping it (the `run` module). The package's Python modules
//! (`python/grundy/`) give it its public form: `grundy.solve`, `grundy.seq`,
//! `grundy.table`, `grundy.Game`, `grundy.survey`, ...

mod errors;
mod game;
mod limits;
mod position;
mod quotient;
mod run;
mod sequence;
mod survey;
mod table;

use grundy::catalogue::{Catalogue, entries};
use grundy::sums::analysis::SolveOptions;
use grundy::sums::position::PositionText;
use grundy::sums::report::{answer_json, big_json};
use grundy::workflow::parts::{self, Part, Play, component_nimbers, position_of, solve_parts};
use grundy::workflow::table::DEFAULT_MAX_CELLS;
use grundy::workflow::{Door, Limits};
use num_bigint::BigUint;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::errors::setting_error;
use crate::limits::read as read_limits;
use crate::position::part_of;
use crate::run::answered;

/// An answer, with the position it answers.
#[derive(Debug)]
#[pyclass(frozen, module = "grundy._native", name = "Solved")]
pub struct Solved {
    solved: parts::Solved,
    limits: Limits,
}

#[pymethods]
impl Solved {
    /// The command line's `solve --json` object, as text.
    #[getter]
    fn json(&self) -> String {
        answer_json(&self.solved.answer, &self.solved.position)
    }

    /// The canonical text of the position.
    #[getter]
    fn position(&self) -> &str {
        self.solved.answer.position.as_str()
    }

    /// `"N"` or `"P"`.
    #[getter]
    fn outcome(&self) -> String {
        self.solved.answer.outcome.letter().to_string()
    }

    /// The nimber, `None` where the position has none (misère play).
    #[getter]
    fn nimber(&self) -> Option<BigUint> {
        self.solved.answer.nimber.clone()
    }

    /// The exact number of winning moves, `None` when they were not counted.
    #[getter]
    fn winning_move_count(&self) -> Option<BigUint> {
        self.solved
            .answer
            .moves_counted
            .then(|| self.solved.answer.winning_move_count.clone())
    }

    /// The nimber of each component alone under normal play, with its term
    /// (`("nim(3)", 3)`), for the nim-sum table of a plain sum; `None` for a
    /// component that cannot be valued within the limits. Empty for
    /// `misere(...)`, `every(...)`, `rounds[k](...)` and for sums of more than
    /// 64 components.
    fn parts(&self, py: Python<'_>) -> Vec<(String, Option<BigUint>)> {
        py.detach(|| component_nimbers(&self.solved.position, &self.limits))
    }
}

/// Answers the sum of `parts` (expression strings and positions of Python
/// games).
#[pyfunction]
#[pyo3(signature = (parts, limits, max_moves=100, no_moves=false, play="normal", rounds=None))]
fn solve(
    py: Python<'_>,
    parts: &Bound<'_, PyTuple>,
    limits: &Bound<'_, PyTuple>,
    max_moves: usize,
    no_moves: bool,
    play: &str,
    rounds: Option<BigUint>,
) -> PyResult<Solved> {
    let limits = read_limits(py, limits)?;
    let play = Play::read(play, rounds).map_err(|failure| setting_error(py, failure))?;
    let parts = parts
        .iter()
        .map(|part| part_of(&part))
        .collect::<PyResult<Vec<_>>>()?;
    let options = SolveOptions {
        winning_moves: !no_moves,
        ..limits.solve_options(max_moves)
    };
    let solved = answered(py, &limits, || {
        solve_parts(&parts, &play, &limits, &options, Door::Python)
    })?;
    Ok(Solved { solved, limits })
}

/// The canonical text of a position given as an expression.
#[pyfunction]
fn parse(py: Python<'_>, expression: String, limits: &Bound<'_, PyTuple>) -> PyResult<String> {
    let limits = read_limits(py, limits)?;
    let parts = [Part::Text(expression)];
    let position = answered(py, &limits, || {
        position_of(&parts, &limits, &Play::default(), Door::Python)
    })?;
    Ok(PositionText::new(&position).as_str().to_owned())
}

/// The catalogue: one dict per game (`name`, `summary`, `rules`, `syntax`,
/// `aliases`, `examples`), as `grundy games NAME` shows them.
#[pyfunction]
fn games(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    entries()
        .iter()
        .map(|entry| {
            let game = PyDict::new(py);
            game.set_item("name", entry.name)?;
            game.set_item("summary", entry.summary)?;
            game.set_item("rules", entry.rules)?;
            game.set_item("syntax", entry.syntax)?;
            let aliases: Vec<&str> = Catalogue::standard().aliases_of(entry.name).collect();
            game.set_item("aliases", aliases)?;
            game.set_item("examples", entry.examples.to_vec())?;
            Ok(game)
        })
        .collect()
}

/// An integer as the command line's JSON writes it: an int below 2^53, a
/// decimal str above (for checks against `solve --json`).
#[pyfunction]
fn contract_integer(value: BigUint) -> String {
    big_json(&value).to_string()
}

/// The defaults of the limits, by keyword.
fn defaults(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let limits = Limits::default();
    let defaults = PyDict::new(py);
    defaults.set_item("max_moves", 100)?;
    defaults.set_item("max_states", limits.states)?;
    defaults.set_item("max_digits", limits.digits)?;
    defaults.set_item("max_heap", limits.largest_heap)?;
    defaults.set_item("max_memory", limits.bytes)?;
    defaults.set_item("max_work", limits.work)?;
    defaults.set_item("max_cells", DEFAULT_MAX_CELLS)?;
    defaults.set_item("seq_max_heap", sequence::UNTIL_PROVEN_REACH)?;
    Ok(defaults)
}

/// The module `grundy._native`.
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add_function(wrap_pyfunction!(solve, module)?)?;
    module.add_function(wrap_pyfunction!(parse, module)?)?;
    module.add_function(wrap_pyfunction!(games, module)?)?;
    module.add_function(wrap_pyfunction!(contract_integer, module)?)?;
    module.add_function(wrap_pyfunction!(sequence::seq, module)?)?;
    module.add_function(wrap_pyfunction!(table::table, module)?)?;
    module.add_function(wrap_pyfunction!(survey::survey, module)?)?;
    module.add_function(wrap_pyfunction!(quotient::quotient, module)?)?;
    module.add_function(wrap_pyfunction!(quotient::genera, module)?)?;
    module.add_class::<Solved>()?;
    module.add_class::<game::Game>()?;
    module.add_class::<game::GamePosition>()?;
    module.add("DEFAULTS", defaults(py)?)?;
    module.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
