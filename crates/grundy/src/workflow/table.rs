//! The table workflow: the nimbers (or outcomes) of a position over one or two
//! varying integers, `wythoff(x, y)` for `x` and `y` in `0..=40`, with the
//! patterns found in it, as `grundy table`, the Python package's
//! `grundy.table` and the playground's `/api/table` give them.
//!
//! A front end reads its arguments into a [`Grid`] (the variables, [`Axis`],
//! and what each cell holds, [`Measure`]) and asks [`tabulate`] for the
//! [`Table`] of an expression over it; or gives each cell's position itself
//! ([`Grid::compute`]: a Python function of the variables, a Python game's
//! positions). The cells share one search ([`crate::sums::table::Tabulator`]) per
//! thread, and the threads share the cells ([`Grid::compute`]). The work stops
//! when the signal it runs under is raised ([`crate::theory::cancel`]): Ctrl-C, a time
//! limit, or a request's deadline; the cells done are kept.

mod grid;

use std::io::{self, Write};

use num_bigint::{BigInt, BigUint};
use serde_json::{Value, json};

use super::watch::CutShort;
use super::{Door, Failure, Limits};
use crate::catalogue::build_with;
use crate::lang::{Template, parse_with_limits};
use crate::sums::position::Position;
use crate::theory::game::Outcome;
use crate::theory::limits::{Limit, SearchError};
use crate::theory::loopy::LoopyValue;

/// The most cells a table may have by default (`--max-cells`, `max_cells=`).
pub const DEFAULT_MAX_CELLS: u64 = 10_000_000;

/// A variable of a table and its values: `first`, `first + 1`, ...,
/// `first + count - 1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Axis {
    /// Its name, as the expression says it (`n`, `x`).
    pub name: String,
    /// Its first value.
    pub first: BigInt,
    /// How many values it takes (at least one).
    pub count: u64,
}

impl Axis {
    /// Reads `n=0..1000` (both ends included); a range of more than 2^64
    /// values counts `u64::MAX`.
    ///
    /// # Errors
    /// [`Failure::Input`] naming the text: no `=` or `..`, a name that is not
    /// lower case letters, digits and `_`, an end that is not an integer, or
    /// an empty range.
    pub fn parse(text: &str) -> Result<Self, Failure> {
        let bad = |why: &str| {
            Failure::input(format!(
                "error: `{text}` is not a variable's values: {why} (write e.g. `n=0..1000`)"
            ))
        };
        let (name, range) = text.split_once('=').ok_or_else(|| bad("no `=`"))?;
        let name = name.trim();
        if name.is_empty()
            || !name.starts_with(|c: char| c.is_ascii_lowercase())
            || !name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        {
            return Err(bad(
                "a variable's name is lower case letters, digits and `_`",
            ));
        }
        let (low, high) = range.split_once("..").ok_or_else(|| bad("no `..`"))?;
        let number = |s: &str| -> Result<BigInt, Failure> {
            s.trim()
                .parse::<BigInt>()
                .map_err(|_| bad(&format!("`{}` is not an integer", s.trim())))
        };
        let (low, high) = (number(low)?, number(high)?);
        if high < low {
            return Err(bad("the range is empty"));
        }
        let count = u64::try_from(&high - &low + 1u8).unwrap_or(u64::MAX);
        Ok(Self {
            name: name.to_owned(),
            first: low,
            count,
        })
    }

    /// The value of index `index`: `first + index`.
    #[must_use]
    pub fn value(&self, index: u64) -> BigInt {
        &self.first + index
    }
}

/// What each cell of a table holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Measure {
    /// The position's nimber (normal play).
    #[default]
    Nimber,
    /// Who wins (`P`: the player to move loses, `N`: wins): for positions
    /// without a nimber too (misère play).
    Outcome,
}

impl Measure {
    /// `nimber` or `outcome`, as the table's heading and JSON say it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Nimber => "nimber",
            Self::Outcome => "outcome",
        }
    }
}

/// A cell of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    /// Its position's nimber.
    Nimber(BigUint),
    /// Who wins its position.
    Outcome(Outcome),
    /// The infinite value `∞(K)` of its position, in a table of nimbers: a
    /// game that may go on for ever (a `digraph` token; see
    /// [`crate::theory::loopy`]).
    Infinite(LoopyValue),
}

impl Cell {
    /// The cell as a table writes it: the nimber, `inf{0,2}`, or `P`/`N`/`D`.
    #[must_use]
    pub fn text(&self) -> String {
        match self {
            Self::Nimber(n) => n.to_string(),
            Self::Outcome(o) => o.letter().to_string(),
            Self::Infinite(value) => value.to_string(),
        }
    }

    /// Whether the player to move loses.
    #[must_use]
    pub fn is_p(&self) -> bool {
        match self {
            Self::Nimber(n) => *n == BigUint::default(),
            Self::Outcome(o) => o.second_player_wins(),
            Self::Infinite(_) => false,
        }
    }

    /// The nimber as a small number (an outcome as 0 for P, 1 for N, 2 for
    /// a draw), for patterns and plots; `None` beyond 32 bits and for an
    /// infinite value.
    #[must_use]
    pub fn small(&self) -> Option<u32> {
        match self {
            Self::Nimber(n) => u32::try_from(n).ok(),
            Self::Outcome(o) => Some(match o {
                Outcome::PreviousPlayerWins => 0,
                Outcome::NextPlayerWins => 1,
                Outcome::Draw => 2,
            }),
            Self::Infinite(_) => None,
        }
    }

    /// The cell in JSON: a number below 2^53, else a string; `"P"`/`"N"`.
    fn json(&self) -> Value {
        match self {
            Self::Nimber(n) => u64::try_from(n)
                .ok()
                .filter(|&n| n < 1 << 53)
                .map_or_else(|| json!(n.to_string()), |n| json!(n)),
            Self::Outcome(o) => json!(o.letter().to_string()),
            Self::Infinite(value) => json!(value.to_string()),
        }
    }
}

/// The cells a table is asked for: one or two variables (the first down the
/// rows, the second across) and what each cell holds. Cells are numbered in
/// row order from 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    axes: Vec<Axis>,
    measure: Measure,
    cells: u64,
}

impl Grid {
    /// The grid of `axes` (one or two, of different names), of at most
    /// `max_cells` cells.
    ///
    /// # Errors
    /// [`Failure::Input`] for no axis, more than two or a name given twice;
    /// [`Failure::Limit`] for more than `max_cells` cells (the cell limit,
    /// [`Limit::Cells`]).
    pub fn new(
        axes: Vec<Axis>,
        measure: Measure,
        max_cells: u64,
        door: Door,
    ) -> Result<Self, Failure> {
        if !(1..=2).contains(&axes.len()) {
            return Err(Failure::input("error: a table has one or two variables"));
        }
        if axes.len() == 2 && axes[0].name == axes[1].name {
            return Err(Failure::input(format!(
                "error: the variable `{}` is given twice",
                axes[0].name
            )));
        }
        let cells = axes
            .iter()
            .try_fold(1u64, |n, axis| n.checked_mul(axis.count))
            .filter(|&n| n <= max_cells)
            .ok_or_else(|| Failure::Limit {
                message: format!(
                    "error: the table has more than {max_cells} cells (the cell limit); raise it with {}",
                    door.setting(Limit::Cells)
                ),
                raised_by: Some(Limit::Cells),
            })?;
        Ok(Self {
            axes,
            measure,
            cells,
        })
    }

    /// The variables, the first down the rows.
    #[must_use]
    pub fn axes(&self) -> &[Axis] {
        &self.axes
    }

    /// What each cell holds.
    #[must_use]
    pub const fn measure(&self) -> Measure {
        self.measure
    }

    /// How many cells the grid has.
    #[must_use]
    pub const fn cells(&self) -> u64 {
        self.cells
    }

    /// How many cells a row has: the second variable's values, or 1.
    #[must_use]
    pub fn columns(&self) -> u64 {
        self.axes.get(1).map_or(1, |axis| axis.count)
    }

    /// The variables' values in the cell of index `index`.
    #[must_use]
    pub fn values(&self, index: u64) -> Vec<BigInt> {
        let columns = self.columns();
        let mut values = vec![self.axes[0].value(index / columns)];
        if let Some(axis) = self.axes.get(1) {
            values.push(axis.value(index % columns));
        }
        values
    }

    /// The patterns found in `cells`, the cells of this grid in row order
    /// ([`crate::pattern::table_patterns`]), as sentences, each stating the
    /// range it was checked on. None for fewer cells than the grid's (a table
    /// stopped early), a nimber beyond 32 bits or a variable below 0 or
    /// beyond 64 bits.
    #[must_use]
    pub fn patterns(&self, cells: &[Cell]) -> Vec<String> {
        if cells.len() as u64 != self.cells {
            return Vec::new();
        }
        let Some(values) = cells.iter().map(Cell::small).collect::<Option<Vec<u32>>>() else {
            return Vec::new();
        };
        let Some(axes) = self
            .axes
            .iter()
            .map(|axis| {
                Some(crate::pattern::Axis {
                    name: &axis.name,
                    first: u64::try_from(&axis.first).ok()?,
                    count: axis.count,
                })
            })
            .collect::<Option<Vec<_>>>()
        else {
            return Vec::new();
        };
        crate::pattern::table_patterns(&axes, &values)
    }
}

/// The cell with `values` of the variables `axes`, in words: `x = 3, y = 5`.
#[must_use]
pub fn cell_name(axes: &[Axis], values: &[BigInt]) -> String {
    axes.iter()
        .zip(values)
        .map(|(axis, value)| format!("{} = {value}", axis.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Told of the cells as they are done, by the threads computing them: a
/// progress bar, a report to a caller.
pub trait Progress: Sync {
    /// `done` cells of `total` are done.
    fn cells_done(&self, done: u64, total: u64);
}

/// No progress told.
impl Progress for () {
    fn cells_done(&self, _done: u64, _total: u64) {}
}

/// Why a cell has no answer.
#[derive(Debug)]
pub enum CellError<E> {
    /// Its position could not be made (the error of the function giving it).
    Position(E),
    /// Its search failed: a limit, a loopy game, a script's error.
    Search(SearchError),
    /// Its position (this one) has no nimber: it is played misère; its
    /// outcome can be tabulated ([`Measure::Outcome`]).
    NoNimber(Position),
}

/// Why a cell whose position, `position` in words, has no nimber cannot be
/// tabulated, and how its outcome can be ([`Measure::Outcome`]), in the
/// words of `door`.
#[must_use]
pub fn no_nimber(position: &str, door: Door) -> String {
    let outcome = match door {
        Door::CommandLine => "--outcome",
        Door::Python => "outcome=True",
    };
    format!("`{position}` has no nimber (misère play); tabulate who wins with {outcome}")
}

/// The first cell, in row order, without an answer.
#[derive(Debug)]
pub struct FailedCell<E> {
    /// Its index, in row order.
    pub index: u64,
    /// The variables' values in it.
    pub values: Vec<BigInt>,
    /// Why it has no answer.
    pub error: CellError<E>,
}

/// The cells computed by [`Grid::compute`], in row order from the first:
/// all of them, or those before the first that failed, or those done before
/// the work was stopped.
#[derive(Debug)]
pub struct Computed<E> {
    /// The cells done, in row order.
    pub cells: Vec<Cell>,
    /// The first cell that failed, right after the cells done.
    pub failed: Option<FailedCell<E>>,
    /// Whether the signal the work ran under stopped it before the end.
    pub stopped: bool,
}

/// Cells stopped by the signal are fewer than the grid's.
impl<E> CutShort for Computed<E> {
    fn cut_short(&self) -> bool {
        self.stopped
    }
}

/// A table: the grid's cells in row order (fewer than all when the work was
/// stopped) and the patterns found in it.
#[derive(Debug, Clone)]
pub struct Table {
    /// The expression tabulated.
    pub expression: String,
    /// The grid.
    pub grid: Grid,
    /// The cells done, in row order.
    pub cells: Vec<Cell>,
    /// The patterns found ([`Grid::patterns`]): none when asked for none or
    /// when the table is incomplete.
    pub patterns: Vec<String>,
}

/// The table of `expression` (with the grid's variables in it) over `grid`,
/// within `limits`, telling `progress` of the cells done; the patterns are
/// looked for if `patterns`. Runs under the signal in force on this thread
/// ([`crate::theory::cancel::current`]): when it is raised, the cells done are
/// returned, the table incomplete.
///
/// # Errors
/// [`Failure::Input`] for an expression that is not one with the grid's
/// variables, or the first cell (in row order) that fails, named (`in the
/// cell x = 3, y = 5`): bad input, a game that cannot be played, a limit; a
/// cell without a nimber is named by its position's text.
pub fn tabulate(
    expression: &str,
    grid: Grid,
    patterns: bool,
    limits: &Limits,
    door: Door,
    progress: &dyn Progress,
) -> Result<Table, Failure> {
    let names: Vec<&str> = grid.axes.iter().map(|a| a.name.as_str()).collect();
    let template =
        Template::new(expression, &names).map_err(|e| Failure::language(&e, expression, door))?;
    let position = |_: u64, values: &[BigInt]| {
        let source = template.instantiate(values);
        parse_with_limits(&source, limits.digits)
            .and_then(|sum| build_with(&sum, limits.build()))
            .map_err(|error| Failure::language(&error, &source, door))
    };
    let computed = grid.compute(limits, &position, progress);
    if let Some(failed) = computed.failed {
        let failure = match failed.error {
            CellError::Position(failure) => failure,
            CellError::Search(error) => Failure::search(&error, door),
            // The position's text names the cell.
            CellError::NoNimber(_) => {
                let position = template.instantiate(&failed.values);
                return Err(Failure::input(format!(
                    "error: {}",
                    no_nimber(&position, door)
                )));
            }
        };
        let cell = cell_name(&grid.axes, &failed.values);
        return Err(failure.reworded(|message| format!("{message}\nin the cell {cell}")));
    }
    let patterns = if patterns {
        grid.patterns(&computed.cells)
    } else {
        Vec::new()
    };
    Ok(Table {
        expression: expression.to_owned(),
        grid,
        cells: computed.cells,
        patterns,
    })
}

impl Table {
    /// Whether every cell is done.
    #[must_use]
    pub fn complete(&self) -> bool {
        self.cells.len() as u64 == self.grid.cells
    }

    /// The table as `grundy table --json` prints it: `expression`,
    /// `variables` (`name`, `from`, `to`), `measure`, `values` (a list, or a
    /// list of rows for two variables), `complete` and `patterns`.
    #[must_use]
    pub fn json(&self) -> Value {
        let variables: Vec<Value> = self
            .grid
            .axes
            .iter()
            .map(|axis| {
                let high = axis.value(axis.count - 1);
                json!({"name": axis.name, "from": big_json(&axis.first), "to": big_json(&high)})
            })
            .collect();
        let values: Vec<Value> = self.cells.iter().map(Cell::json).collect();
        let values = if self.grid.axes.len() == 2 {
            Value::Array(
                values
                    .chunks(usize::try_from(self.grid.columns()).unwrap_or(usize::MAX))
                    .map(|row| Value::Array(row.to_vec()))
                    .collect(),
            )
        } else {
            Value::Array(values)
        };
        json!({
            "expression": self.expression,
            "variables": variables,
            "measure": self.grid.measure.name(),
            "values": values,
            "complete": self.complete(),
            "patterns": self.patterns,
        })
    }

    /// Writes the table as text: one variable, a column of its values and
    /// one of the cells; two, a grid with the second variable across; the
    /// cells aligned right, then the patterns, one a line (`pattern: ...`).
    ///
    /// # Errors
    /// An error of `out`.
    pub fn write_text(&self, out: &mut impl Write) -> io::Result<()> {
        let texts: Vec<String> = self.cells.iter().map(Cell::text).collect();
        match self.grid.axes.as_slice() {
            [axis] => {
                let rows: Vec<String> = (0..texts.len() as u64)
                    .map(|i| axis.value(i).to_string())
                    .collect();
                let left = rows
                    .iter()
                    .map(String::len)
                    .chain([axis.name.len()])
                    .max()
                    .unwrap_or(1);
                writeln!(out, "{:>left$}  {}", axis.name, self.grid.measure.name())?;
                for (row, text) in rows.iter().zip(&texts) {
                    writeln!(out, "{row:>left$}  {text}")?;
                }
            }
            [rows, columns] => {
                let column_names: Vec<String> = (0..columns.count)
                    .map(|j| columns.value(j).to_string())
                    .collect();
                let row_names: Vec<String> =
                    (0..rows.count).map(|i| rows.value(i).to_string()).collect();
                let corner = format!("{}\\{}", rows.name, columns.name);
                let left = row_names
                    .iter()
                    .map(String::len)
                    .chain([corner.len()])
                    .max()
                    .unwrap_or(1);
                let width = texts
                    .iter()
                    .chain(&column_names)
                    .map(String::len)
                    .max()
                    .unwrap_or(1);
                write!(out, "{corner:>left$}")?;
                for name in &column_names {
                    write!(out, " {name:>width$}")?;
                }
                writeln!(out)?;
                let row_length = usize::try_from(columns.count).unwrap_or(usize::MAX);
                for (i, row) in texts.chunks(row_length).enumerate() {
                    write!(out, "{:>left$}", row_names[i])?;
                    for text in row {
                        write!(out, " {text:>width$}")?;
                    }
                    writeln!(out)?;
                }
            }
            _ => {}
        }
        if !self.patterns.is_empty() {
            writeln!(out)?;
            for pattern in &self.patterns {
                writeln!(out, "pattern: {pattern}")?;
            }
        }
        Ok(())
    }

    /// Writes the table as CSV: a heading (the variables and the measure),
    /// then one line a cell.
    ///
    /// # Errors
    /// An error of `out`.
    pub fn write_csv(&self, out: &mut impl Write) -> io::Result<()> {
        let names: Vec<&str> = self.grid.axes.iter().map(|a| a.name.as_str()).collect();
        writeln!(out, "{},{}", names.join(","), self.grid.measure.name())?;
        for (index, cell) in (0u64..).zip(&self.cells) {
            let values = self.grid.values(index);
            let values: Vec<String> = values.iter().map(BigInt::to_string).collect();
            writeln!(out, "{},{}", values.join(","), cell.text())?;
        }
        Ok(())
    }
}

/// An integer in JSON: a number below 2^53 in size, else a string.
fn big_json(n: &BigInt) -> Value {
    i64::try_from(n)
        .ok()
        .filter(|n| n.unsigned_abs() < 1 << 53)
        .map_or_else(|| json!(n.to_string()), |n| json!(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_read_or_refused_with_the_text() {
        let axis = Axis::parse("n=3..10").unwrap();
        assert_eq!((axis.name.as_str(), axis.count), ("n", 8));
        assert_eq!(axis.first, BigInt::from(3));
        let axis = Axis::parse(" x = -5 .. -5 ").unwrap();
        assert_eq!((axis.name.as_str(), axis.count), ("x", 1));
        let huge = Axis::parse("n=0..100000000000000000000000000").unwrap();
        assert_eq!(huge.count, u64::MAX);
        for bad in [
            "n", "n=3", "n=5..3", "=0..3", "N=0..3", "n=a..3", "n=0...3", "1n=0..3",
        ] {
            let Err(Failure::Input { message, .. }) = Axis::parse(bad) else {
                panic!("{bad} was read");
            };
            assert!(message.starts_with("error: `"), "{message}");
            assert!(message.contains(bad), "{message}");
        }
    }

    proptest::proptest! {
        /// Fuzz: any argument is a range or an `error:` naming it, never a panic.
        #[test]
        fn any_argument_is_a_range_or_an_error(text in "[a-z0-9=. _-]{0,24}") {
            match Axis::parse(&text) {
                Ok(axis) => proptest::prop_assert!(axis.count >= 1),
                Err(Failure::Input { message, .. }) => proptest::prop_assert!(message.starts_with("error: `")),
                Err(_) => proptest::prop_assert!(false, "not an input error"),
            }
        }
    }

    fn grid(ranges: &[&str], measure: Measure) -> Grid {
        let axes = ranges.iter().map(|r| Axis::parse(r).unwrap()).collect();
        Grid::new(axes, measure, 1_000_000, Door::CommandLine).unwrap()
    }

    #[test]
    fn grids_refuse_a_name_twice_and_too_many_cells() {
        let axes = || {
            vec![
                Axis::parse("x=0..9").unwrap(),
                Axis::parse("x=0..9").unwrap(),
            ]
        };
        let twice = Grid::new(axes(), Measure::Nimber, 1000, Door::CommandLine);
        assert!(matches!(twice, Err(Failure::Input { .. })));
        let axes = vec![
            Axis::parse("x=0..9").unwrap(),
            Axis::parse("y=0..9").unwrap(),
        ];
        let Err(Failure::Limit { message, raised_by }) =
            Grid::new(axes, Measure::Nimber, 99, Door::Python)
        else {
            panic!("not refused");
        };
        assert!(message.ends_with("raise it with max_cells=N"), "{message}");
        assert_eq!(raised_by, Some(Limit::Cells));
    }

    #[test]
    fn a_table_names_its_failing_cell_and_finds_patterns() {
        let limits = Limits::default();
        let table = tabulate(
            "bash[2](n)",
            grid(&["n=0..8"], Measure::Nimber),
            true,
            &limits,
            Door::CommandLine,
            &(),
        )
        .unwrap();
        assert!(table.complete());
        assert_eq!(
            table.cells.iter().map(Cell::text).collect::<String>(),
            "012012012"
        );
        assert!(table.patterns.iter().any(|p| p.contains("n = 0 (mod 3)")));
        assert!(
            table.grid.patterns(&table.cells[..8]).is_empty(),
            "no patterns in a table stopped early"
        );
        let failure = tabulate(
            "misere(nim(n))",
            grid(&["n=0..2"], Measure::Nimber),
            true,
            &limits,
            Door::Python,
            &(),
        )
        .unwrap_err();
        let message = failure.message();
        assert!(
            message.contains("`misere(nim(0))` has no nimber"),
            "{message}"
        );
        assert!(message.ends_with("outcome=True"), "{message}");
        let outcomes = tabulate(
            "misere(nim(n))",
            grid(&["n=0..2"], Measure::Outcome),
            false,
            &limits,
            Door::CommandLine,
            &(),
        )
        .unwrap();
        assert_eq!(
            outcomes.cells.iter().map(Cell::text).collect::<String>(),
            "NPN"
        );
    }

    #[test]
    fn a_raised_signal_keeps_the_cells_done() {
        let signal = crate::theory::cancel::Cancel::new();
        signal.cancel();
        let table = signal
            .run(|| {
                tabulate(
                    "nim(x, y)",
                    grid(&["x=0..9", "y=0..9"], Measure::Nimber),
                    true,
                    &Limits::default(),
                    Door::CommandLine,
                    &(),
                )
            })
            .unwrap();
        assert!(!table.complete() && table.patterns.is_empty());
        assert_eq!(table.json()["complete"], json!(false));
    }
}
