//! `grundy.table`: the nimbers (or outcomes) of a position over one or two
//! varying integers, computed by the library's table workflow
//! ([`grundy::workflow::table`]) as `grundy table` computes them; the
//! expression is a string with variables, or a Python function of them
//! returning the parts. Ctrl-C stops it between cells (or inside one),
//! keeping the cells done. This module gives the cells' positions and turns
//! the results and failures into Python's.

use grundy::lang::{LangError, Span, Template};
use grundy::sums::position::{Position, PositionText};
use grundy::workflow::parts::{BadPart, Part, Play, position_of};
use grundy::workflow::table::{Axis, Cell, CellError, Computed, Grid, Measure, cell_name};
use grundy::workflow::{Door, Failure as WorkflowFailure, Limits};
use num_bigint::BigInt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::errors::{failure_error, limit_error};
use crate::position::{Failure, parts_of};
use crate::run::{Stoppable, watched};

/// What gives each cell's position.
enum Cells<'a> {
    /// An expression with the variables in it.
    Template(&'a Template),
    /// A Python function of the variables (by keyword) returning the parts.
    Function(&'a Py<PyAny>),
}

impl Stoppable for Computed<Failure> {
    fn was_cancelled(&self) -> bool {
        self.stopped
    }
}

/// The position of the cell with `values`.
fn position(
    cells: &Cells<'_>,
    axes: &[Axis],
    values: &[BigInt],
    limits: &Limits,
) -> Result<Position, Failure> {
    let parts = match cells {
        Cells::Template(template) => vec![Part::Text(template.instantiate(values))],
        Cells::Function(function) => Python::attach(|py| -> PyResult<Vec<Part>> {
            let arguments = PyDict::new(py);
            for (axis, value) in axes.iter().zip(values) {
                arguments.set_item(&axis.name, value.clone())?;
            }
            parts_of(&function.bind(py).call((), Some(&arguments))?)
        })
        .map_err(Failure::Python)?,
    };
    position_of(&parts, limits, &Play::default()).map_err(Failure::Language)
}

/// Why a cell has no answer, as the package says it.
fn cell_error(error: CellError<Failure>) -> Failure {
    match error {
        CellError::Position(failure) => failure,
        CellError::Search(error) => Failure::Search(error),
        CellError::NoNimber(position) => {
            let text = PositionText::new(&position);
            let why = format!(
                "`{}` has no nimber (misère play); tabulate who wins with outcome=True",
                text.as_str()
            );
            let error = LangError::new(why, Span::default());
            Failure::Language(BadPart {
                error,
                source: String::new(),
            })
        }
    }
}

/// The failure of a cell, as the exception it is, saying which cell.
fn cell_failure(py: Python<'_>, failure: Failure, cell: &str) -> PyErr {
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
    let variables: Vec<Axis> = variables
        .into_iter()
        .map(|(name, first, count)| Axis { name, first, count })
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
    // One thread, as the package has always computed a table.
    let one_thread = Limits {
        threads: Some(1),
        ..*limits
    };
    let ran = watched(py, limits.deadline(), || {
        let position = |_: u64, values: &[BigInt]| position(&cells, variables, values, &limits);
        grid.compute(&one_thread, &position, &())
    })?;
    if ran.out_of_time && ran.interrupt.is_none() {
        return Err(crate::errors::time_error(py, limits.max_time));
    }
    let computed = ran.result;
    if let Some(failed) = computed.failed {
        let cell = cell_name(variables, &failed.values);
        return Err(cell_failure(py, cell_error(failed.error), &cell));
    }
    let complete = computed.cells.len() as u64 == grid.cells();
    let patterns = if complete {
        grid.patterns(&computed.cells)
    } else {
        Vec::new()
    };
    let cells = computed
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
            Cell::Infinite(value) => Ok(value.to_string().into_pyobject(py)?.into_any().unbind()),
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok((cells, complete, patterns, ran.interrupt.is_some()))
}
