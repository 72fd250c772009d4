//! `grundy.table`: the nimbers (or outcomes) of a position over one or two
//! varying integers, computed by the library's table workflow
//! ([`grundy::workflow::table`]) as `grundy table` computes them; the
//! expression is a string with variables, or a Python function of them
//! returning the parts. Ctrl-C stops it between cells (or inside one),
//! keeping the cells done. This module gives the cells' positions and turns
//! the results and failures into Python's.

use grundy::sums::position::Position;
use grundy::lang::{LangError, Span, Template};
use grundy::workflow::parts::{Part, Play, position_of};
use grundy::workflow::table::{CellError, Computed, Grid, Measure};
use grundy::workflow::{Door, Failure as WorkflowFailure, Limits};
use num_bigint::BigInt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::errors::{failure_error, limit_error};
use crate::position::{Failure, parts_of};
use crate::run::{Stoppable, watched};

pub use grundy::workflow::table::{Axis as Variable, Cell, cell_name};

/// What gives each cell's position.
pub enum Cells<'a> {
    /// An expression with the variables in it.
    Template(&'a Template),
    /// A Python function of the variables (by keyword) returning the parts.
    Function(&'a Py<PyAny>),
    /// Where each cell is given by its index: `g(k)` for a sequence.
    Positions(&'a (dyn Fn(u64) -> Result<Position, Failure> + Sync)),
}

/// The cells computed, in row-major order.
#[derive(Debug)]
pub struct Run {
    /// The cells done.
    pub cells: Vec<Cell>,
    /// Why the next cell has no answer (with the cell's values), if one failed.
    pub failure: Option<(Vec<BigInt>, Failure)>,
    /// Stopped by its cancel signal before the end.
    pub stopped: bool,
}

impl Stoppable for Run {
    fn was_cancelled(&self) -> bool {
        self.stopped
    }
}

/// Every cell of the `total` cells over `variables`, row by row, until done,
/// a failure or the cancel signal: the library's grid
/// ([`Grid::compute`]), on one thread.
pub fn compute(
    cells: &Cells<'_>,
    variables: &[Variable],
    outcome: bool,
    limits: &Limits,
    total: u64,
) -> Run {
    let measure = if outcome {
        Measure::Outcome
    } else {
        Measure::Nimber
    };
    match Grid::new(variables.to_vec(), measure, total, Door::Python) {
        Ok(grid) => compute_grid(&grid, cells, limits),
        Err(failure) => {
            let message = failure.message();
            let message = message.strip_prefix("error: ").unwrap_or(&message);
            let error = LangError::new(message.to_owned(), Span::default());
            Run {
                cells: Vec::new(),
                failure: Some((Vec::new(), language(error))),
                stopped: false,
            }
        }
    }
}

/// The cells of `grid`, whose positions `cells` give, within `limits`.
fn compute_grid(grid: &Grid, cells: &Cells<'_>, limits: &Limits) -> Run {
    let variables = grid.axes();
    let position =
        |index: u64, values: &[BigInt]| position(cells, variables, values, index, limits);
    let Computed {
        cells,
        failed,
        stopped,
    } = grid.compute(&workflow_limits(limits), &position, &());
    let failure = failed.map(|failed| {
        let failure = match failed.error {
            CellError::Position(failure) => failure,
            CellError::Search(error) => Failure::Search(error),
            CellError::NoNimber(position) => {
                let text = grundy::sums::position::PositionText::new(&position);
                let error = LangError::new(
                    format!(
                        "`{}` has no nimber (misère play); tabulate who wins with outcome=True",
                        text.as_str()
                    ),
                    Span::default(),
                );
                language(error)
            }
        };
        (failed.values, failure)
    });
    Run {
        cells,
        failure,
        stopped,
    }
}

/// The library's limits of `limits`: one thread, as the package has always
/// computed a table.
fn workflow_limits(limits: &Limits) -> Limits {
    Limits {
        threads: Some(1),
        ..*limits
    }
}

/// A failure of a cell said without a source text.
fn language(error: LangError) -> Failure {
    Failure::Language(grundy::workflow::parts::BadPart {
        error,
        source: String::new(),
    })
}

/// The position of the cell with `values`.
fn position(
    cells: &Cells<'_>,
    variables: &[Variable],
    values: &[BigInt],
    index: u64,
    limits: &Limits,
) -> Result<Position, Failure> {
    match cells {
        Cells::Template(template) => {
            let source = template.instantiate(values);
            position_of(&[Part::Text(source)], limits, &Play::default()).map_err(Failure::Language)
        }
        Cells::Function(function) => {
            let parts = Python::attach(|py| -> PyResult<Vec<Part>> {
                let arguments = PyDict::new(py);
                for (variable, value) in variables.iter().zip(values) {
                    arguments.set_item(&variable.name, value.clone())?;
                }
                let parts = function.bind(py).call((), Some(&arguments))?;
                parts_of(&parts)
            })
            .map_err(Failure::Python)?;
            position_of(&parts, limits, &Play::default()).map_err(Failure::Language)
        }
        Cells::Positions(position) => position(index),
    }
}

/// The failure of a cell, as the exception it is, saying which cell.
pub fn cell_failure(py: Python<'_>, failure: Failure, cell: &str) -> PyErr {
    let error = failure.into_python(py);
    let value = error.value(py);
    match value.call_method1("at", (format!("in the cell {cell}"),)) {
        Ok(relabelled) => PyErr::from_value(relabelled),
        // Not one of grundy's exceptions (the caller's function raised it).
        Err(_) => error,
    }
}

/// A table as the package takes it: the cells, whether it is complete, its
/// patterns, and whether Ctrl-C stopped it.
type Tabulated = (Vec<Py<PyAny>>, bool, Vec<String>, bool);

/// Computes a table. `expression` is an expression string or a Python
/// function; `variables` are `(name, first, count)`. Returns the cells (ints,
/// or `"P"`/`"N"` with `outcome`), whether it is complete, the patterns of a
/// complete table, and whether Ctrl-C stopped it.
#[pyfunction]
#[pyo3(signature = (expression, variables, limits, outcome=false, max_cells=10_000_000))]
pub fn table(
    py: Python<'_>,
    expression: &Bound<'_, PyAny>,
    variables: Vec<(String, BigInt, u64)>,
    limits: &Bound<'_, PyTuple>,
    outcome: bool,
    max_cells: u64,
) -> PyResult<Tabulated> {
    let limits = crate::read_limits(py, limits)?;
    let variables: Vec<Variable> = variables
        .into_iter()
        .map(|(name, first, count)| Variable { name, first, count })
        .collect();
    if variables.is_empty() || variables.len() > 2 {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "a table has one or two variables, given as keywords: table(\"wythoff(x, y)\", x=range(10), y=range(10))",
        ));
    }
    let measure = if outcome {
        Measure::Outcome
    } else {
        Measure::Nimber
    };
    let grid = Grid::new(variables, measure, max_cells, Door::Python).map_err(|failure| {
        match failure {
            // The only limit of a grid: its cells.
            WorkflowFailure::Limit {
                message,
                raised_by: None,
            } => limit_error(
                py,
                message.strip_prefix("error: ").unwrap_or(&message),
                Some("max_cells"),
            ),
            failure => failure_error(py, failure),
        }
    })?;
    let variables = grid.axes();
    let template;
    let function;
    let cells = if let Ok(source) = expression.extract::<String>() {
        let names: Vec<&str> = variables.iter().map(|v| v.name.as_str()).collect();
        template = Template::new(&source, &names)
            .map_err(|error| crate::errors::language_error(py, &error, &source))?;
        Cells::Template(&template)
    } else if expression.is_callable() {
        function = expression.clone().unbind();
        Cells::Function(&function)
    } else {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "a table's expression is a str with its variables (\"wythoff(x, y)\") or a function of them, not {}",
            expression.get_type().name()?
        )));
    };
    let ran = watched(py, limits.deadline(), || {
        compute_grid(&grid, &cells, &limits)
    })?;
    if ran.out_of_time && ran.interrupt.is_none() {
        return Err(crate::errors::time_error(py, limits.max_time));
    }
    let run = ran.result;
    if let Some((values, failure)) = run.failure {
        return Err(cell_failure(py, failure, &cell_name(variables, &values)));
    }
    let complete = run.cells.len() as u64 == grid.cells();
    let patterns = if complete {
        grid.patterns(&run.cells)
    } else {
        Vec::new()
    };
    let cells = run
        .cells
        .iter()
        .map(|cell| match cell {
            Cell::Nimber(n) => Ok(n.into_pyobject(py)?.into_any().unbind()),
            Cell::Outcome(o) => Ok(o
                .letter()
                .to_string()
                .into_pyobject(py)?
                .into_any()
                .unbind()),
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok((cells, complete, patterns, ran.interrupt.is_some()))
}
