//! `grundy.table`: the nimbers (or outcomes) of a position over one or two
//! varying integers, computed by the library's table workflow
//! ([`grundy::workflow::table`]) as `grundy table` computes them; the
//! expression is a string with variables, or a Python function of them
//! returning the parts. Ctrl-C stops it between cells (or inside one),
//! keeping the cells done. This module gives the cells' positions and turns
//! the results and failures into Python's.

use grundy::lang::{LangError, Span, Template};
use grundy::sums::position::PositionText;
use grundy::workflow::parts::{Part, Play, position_of};
use grundy::workflow::table::{
    Axis, Cell, CellError, DEFAULT_MAX_CELLS, Grid, Measure, cell_name, no_nimber,
};
use grundy::workflow::{Door, Failure, Limits};
use num_bigint::BigInt;
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::errors::failure_error;
use crate::position::parts_of;
use crate::run::{out_of_time, watched};

/// The parts of the cell with the variables' values given.
type PartsAt<'a> = Box<dyn Fn(&[BigInt]) -> PyResult<Vec<Part>> + Sync + 'a>;

/// Why a cell has no position.
enum Unmade {
    /// The library's failure.
    Failed(Failure),
    /// The exception the caller's function raised.
    Raised(PyErr),
}

/// Why the cell with `values` has no answer, as the exception it is, saying
/// which cell.
fn cell_failure(
    py: Python<'_>,
    error: CellError<Unmade>,
    axes: &[Axis],
    values: &[BigInt],
) -> PyErr {
    let error = match error {
        CellError::Position(Unmade::Raised(error)) => error,
        CellError::Position(Unmade::Failed(failure)) => failure_error(py, failure),
        CellError::Search(error) => failure_error(py, Failure::search(&error, Door::Python)),
        // Said as an error of the language, without a source.
        CellError::NoNimber(position) => {
            let why = no_nimber(PositionText::new(&position).as_str(), Door::Python);
            let error = LangError::new(why, Span::default());
            failure_error(py, Failure::language(&error, "", Door::Python))
        }
    };
    let cell = format!("in the cell {}", cell_name(axes, values));
    match error.value(py).call_method1("at", (cell,)) {
        Ok(relabelled) => PyErr::from_value(relabelled),
        // Not one of grundy's exceptions (the caller's function raised it).
        Err(_) => error,
    }
}

/// A table as the package takes it: the cells, whether it is complete, its
/// patterns, and whether Ctrl-C stopped it.
type Tabulated = (Vec<Py<PyAny>>, bool, Vec<String>, bool);

/// Computes a table. `expression` is an expression string or a Python
/// function (the package checks which); `variables` are `(name, first,
/// count)`. Returns the cells (ints, or `"P"`/`"N"` with `outcome`), whether
/// it is complete, the patterns of a complete table, and whether Ctrl-C
/// stopped it.
#[pyfunction]
#[pyo3(signature = (expression, variables, limits, outcome=false, max_cells=DEFAULT_MAX_CELLS))]
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
    let measure = if outcome {
        Measure::Outcome
    } else {
        Measure::Nimber
    };
    let grid = Grid::new(variables, measure, max_cells, Door::Python)
        .map_err(|failure| failure_error(py, failure))?;
    let variables = grid.axes();
    // The parts of each cell: the expression with the variables' values, or
    // what the function returns for them.
    let parts_at: PartsAt<'_> = if let Ok(source) = expression.extract::<String>() {
        let names: Vec<&str> = variables.iter().map(|v| v.name.as_str()).collect();
        let template = Template::new(&source, &names)
            .map_err(|error| failure_error(py, Failure::language(&error, &source, Door::Python)))?;
        Box::new(move |values| Ok(vec![Part::Text(template.instantiate(values))]))
    } else {
        let function = expression.clone().unbind();
        Box::new(move |values| {
            Python::attach(|py| {
                let arguments = PyDict::new(py);
                for (axis, value) in variables.iter().zip(values) {
                    arguments.set_item(&axis.name, value.clone())?;
                }
                parts_of(&function.bind(py).call((), Some(&arguments))?)
            })
        })
    };
    // One thread, as the package has always computed a table.
    let one_thread = Limits {
        threads: Some(1),
        ..limits
    };
    let position = |_: u64, values: &[BigInt]| {
        let parts = parts_at(values).map_err(Unmade::Raised)?;
        position_of(&parts, &limits, &Play::default(), Door::Python).map_err(Unmade::Failed)
    };
    let ran = watched(py, limits.deadline(), &|_| Ok(()), || {
        grid.compute(&one_thread, &position, &())
    })?;
    if ran.out_of_time && ran.stopped.is_none() {
        return Err(out_of_time(py, &limits));
    }
    let computed = ran.result;
    if let Some(failed) = computed.failed {
        return Err(cell_failure(py, failed.error, variables, &failed.values));
    }
    let complete = computed.cells.len() as u64 == grid.cells();
    let patterns = grid.patterns(&computed.cells);
    let cells = computed
        .cells
        .iter()
        .map(|cell| match cell {
            Cell::Nimber(n) => n.into_py_any(py),
            Cell::Outcome(o) => o.letter().to_string().into_py_any(py),
            Cell::Infinite(value) => value.to_string().into_py_any(py),
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok((cells, complete, patterns, ran.stopped.is_some()))
}
