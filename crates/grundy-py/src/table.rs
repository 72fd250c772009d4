//! `grundy.table`: the nimbers (or outcomes) of a position over one or two
//! varying integers, the cells sharing one search
//! ([`grundy::table::Tabulator`]) as in `grundy table`; the expression is a
//! string with variables, or a Python function of them returning the parts.
//! Ctrl-C stops it between cells (or inside one), keeping the cells done.

use grundy::analysis::SolveOptions;
use grundy::cancel::stop_requested;
use grundy::catalogue::Position;
use grundy::game::Outcome;
use grundy::lang::{LangError, Span, Template};
use grundy::pattern::{Axis, table_patterns};
use grundy::table::Tabulator;
use num_bigint::{BigInt, BigUint};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::errors::limit_error;
use crate::limits::Limits;
use crate::position::{Failure, PartArg, Play, position_of};
use crate::run::{Stoppable, watched};

/// A cell's answer.
#[derive(Debug, Clone)]
pub enum Cell {
    /// Its nimber.
    Nimber(BigUint),
    /// Who wins (with `outcome=True`).
    Outcome(Outcome),
}

/// What gives each cell's position.
pub enum Cells<'a> {
    /// An expression with the variables in it.
    Template(&'a Template),
    /// A Python function of the variables (by keyword) returning the parts.
    Function(&'a Py<PyAny>),
    /// Where each cell is given by its index: `g(k)` for a sequence.
    Positions(&'a (dyn Fn(u64) -> Result<Position, Failure> + Sync)),
}

/// A variable and its values, `first..first + count`.
#[derive(Debug, Clone)]
pub struct Variable {
    /// Its name.
    pub name: String,
    /// Its first value.
    pub first: BigInt,
    /// How many values.
    pub count: u64,
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

/// Every cell, row by row, until done, a failure or the cancel signal.
pub fn compute(
    cells: &Cells<'_>,
    variables: &[Variable],
    outcome: bool,
    limits: &Limits,
    total: u64,
) -> Run {
    let mut tabulator = Tabulator::new(SolveOptions {
        winning_moves: false,
        ..limits.solve_options(0)
    });
    let columns = variables.get(1).map_or(1, |v| v.count);
    let mut run = Run {
        cells: Vec::new(),
        failure: None,
        stopped: false,
    };
    for index in 0..total {
        if stop_requested() {
            run.stopped = true;
            break;
        }
        let mut values = vec![&variables[0].first + index / columns];
        if let Some(variable) = variables.get(1) {
            values.push(&variable.first + index % columns);
        }
        let answered = position(cells, variables, &values, index, limits).and_then(|position| {
            if outcome {
                return tabulator
                    .outcome(&position)
                    .map(Cell::Outcome)
                    .map_err(Failure::Search);
            }
            match tabulator.nimber(&position) {
                Ok(Some(nimber)) => Ok(Cell::Nimber(nimber)),
                Ok(None) => {
                    let text = grundy::sums::position::PositionText::new(&position);
                    let error = LangError::new(
                        format!(
                            "`{}` has no nimber (misère play); tabulate who wins with outcome=True",
                            text.as_str()
                        ),
                        Span::default(),
                    );
                    Err(Failure::Language(error, String::new()))
                }
                Err(error) => Err(Failure::Search(error)),
            }
        });
        match answered {
            Ok(cell) => run.cells.push(cell),
            Err(failure) if failure.was_cancelled() => {
                run.stopped = true;
                break;
            }
            Err(failure) => {
                run.failure = Some((values, failure));
                break;
            }
        }
    }
    run
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
            position_of(
                &[PartArg::Text(source)],
                limits.max_digits,
                limits.build(),
                &Play::default(),
            )
        }
        Cells::Function(function) => {
            let parts = Python::attach(|py| -> PyResult<Vec<PartArg>> {
                let arguments = PyDict::new(py);
                for (variable, value) in variables.iter().zip(values) {
                    arguments.set_item(&variable.name, value.clone())?;
                }
                let parts = function.bind(py).call((), Some(&arguments))?;
                PartArg::all_from_python(&parts)
            })
            .map_err(Failure::Python)?;
            position_of(&parts, limits.max_digits, limits.build(), &Play::default())
        }
        Cells::Positions(position) => position(index),
    }
}

/// `x = 3, y = 5`.
pub fn cell_name(variables: &[Variable], values: &[BigInt]) -> String {
    variables
        .iter()
        .zip(values)
        .map(|(variable, value)| format!("{} = {value}", variable.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The patterns of a complete table (the lines of `grundy table --json`).
pub fn patterns(variables: &[Variable], cells: &[Cell]) -> Vec<String> {
    let Some(values) = cells
        .iter()
        .map(|cell| match cell {
            Cell::Nimber(n) => u32::try_from(n).ok(),
            Cell::Outcome(o) => Some(u32::from(o.first_player_wins())),
        })
        .collect::<Option<Vec<u32>>>()
    else {
        return Vec::new();
    };
    let Some(axes) = variables
        .iter()
        .map(|variable| {
            Some(Axis {
                name: &variable.name,
                first: u64::try_from(&variable.first).ok()?,
                count: variable.count,
            })
        })
        .collect::<Option<Vec<_>>>()
    else {
        return Vec::new();
    };
    table_patterns(&axes, &values)
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
    let total = variables
        .iter()
        .try_fold(1u64, |n, variable| n.checked_mul(variable.count))
        .filter(|&n| n <= max_cells)
        .ok_or_else(|| {
            limit_error(
                py,
                &format!(
                    "the table has more than {max_cells} cells (the cell limit); raise it with max_cells=N"
                ),
                Some("max_cells"),
            )
        })?;
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
        compute(&cells, &variables, outcome, &limits, total)
    })?;
    if ran.out_of_time && ran.interrupt.is_none() {
        return Err(crate::errors::time_error(py, limits.max_time));
    }
    let run = ran.result;
    if let Some((values, failure)) = run.failure {
        return Err(cell_failure(py, failure, &cell_name(&variables, &values)));
    }
    let complete = run.cells.len() as u64 == total;
    let patterns = if complete {
        patterns(&variables, &run.cells)
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
