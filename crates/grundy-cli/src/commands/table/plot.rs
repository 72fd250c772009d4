//! `grundy table --plot FILE`: the table as a picture, SVG or PNG (plotters).
//!
//! One variable: the values against it, a line with the P-positions marked in
//! red. Two variables: a heat map, one square a cell, hue by nimber and the
//! P-positions black, so that their pattern (Wythoff's two rays, Nim's
//! diagonal) shows at a glance; the first variable runs down the rows, and a
//! colour legend on the right gives the value of each hue. The font (DejaVu Sans, free licence, in
//! `assets/`) is built into the binary, so plots need no system fonts.

use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{FontStyle, register_font};

use crate::failure::Failure;
use grundy::workflow::table::{Cell, Measure, Table};

static FONT: Once = Once::new();

/// The pixels of a plot.
const SIZE: (u32, u32) = (960, 720);

/// The extension of `path`, in lower case: the plot's format.
fn extension(path: &str) -> Option<String> {
    Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

/// Refuses a plot that could not be written, before the table is computed:
/// a name without `.svg` or `.png`, or a folder that does not exist.
pub(super) fn check(path: &str) -> Result<(), Failure> {
    if !matches!(extension(path).as_deref(), Some("svg" | "png")) {
        return Err(Failure::input(format!(
            "error: `{path}`: a plot is written as `.svg` or `.png`"
        )));
    }
    match Path::new(path).parent() {
        Some(folder) if !folder.as_os_str().is_empty() && !folder.is_dir() => {
            Err(Failure::input(format!(
                "error: cannot draw the plot into `{path}`: the folder `{}` does not exist",
                folder.display()
            )))
        }
        _ => Ok(()),
    }
}

/// Draws `table` into `path`, SVG or PNG by its extension.
///
/// # Errors
/// An extension other than `.svg` or `.png` (exit 2), coordinates beyond 64
/// bits, or a file that cannot be written.
pub(super) fn draw(table: &Table, title: &str, path: &str) -> Result<(), Failure> {
    FONT.call_once(|| {
        // The bytes are a valid font (checked by the plot tests); if they were
        // not, text would be left out and the plot still drawn.
        let _ = register_font(
            "sans-serif",
            FontStyle::Normal,
            include_bytes!("../../../assets/DejaVuSans.ttf"),
        );
    });
    let failed =
        |e: String| Failure::input(format!("error: cannot draw the plot into `{path}`: {e}"));
    let format = match extension(path).as_deref() {
        Some("svg") => {
            let root = SVGBackend::new(path, SIZE).into_drawing_area();
            draw_on(&root, table, title).map_err(failed)?;
            root.present().map_err(|e| failed(e.to_string()))?;
            "SVG"
        }
        Some("png") => {
            let root = BitMapBackend::new(path, SIZE).into_drawing_area();
            draw_on(&root, table, title).map_err(failed)?;
            root.present().map_err(|e| failed(e.to_string()))?;
            "PNG"
        }
        _ => {
            return Err(Failure::input(format!(
                "error: `{path}`: a plot is written as `.svg` or `.png`"
            )));
        }
    };
    crate::failure::print_error(&what_was_drawn(table, path, format));
    Ok(())
}

/// What `--plot` tells on standard error once the file is written: the file,
/// the kind of picture and its size.
fn what_was_drawn(table: &Table, path: &str, format: &str) -> String {
    let picture = if table.grid.axes().len() == 2 {
        "a heat map"
    } else {
        "a line of the values"
    };
    let (width, height) = SIZE;
    format!(
        "wrote the plot `{path}`: {picture} of {} cells, {width}x{height} pixels, {format}",
        table.cells.len()
    )
}

fn draw_on<B: DrawingBackend>(
    root: &DrawingArea<B, Shift>,
    table: &Table,
    title: &str,
) -> Result<(), String> {
    let text = |e: &dyn std::fmt::Display| e.to_string();
    root.fill(&WHITE).map_err(|e| text(&e))?;
    let first = |index: usize| -> Result<i64, String> {
        let axis = &table.grid.axes()[index];
        let too_large = || "the variable's values do not fit in 64 bits".to_owned();
        let low = i64::try_from(&axis.first).map_err(|_| too_large())?;
        i64::try_from(axis.count)
            .ok()
            .and_then(|count| low.checked_add(count))
            .ok_or_else(too_large)?;
        Ok(low)
    };
    let values: Vec<u32> = table
        .cells
        .iter()
        .map(|c| c.small().unwrap_or(u32::MAX))
        .collect();
    if values.contains(&u32::MAX) {
        return Err("a nimber does not fit in 32 bits".to_owned());
    }
    let largest = values.iter().copied().max().unwrap_or(0);
    let measure = if table.grid.measure() == Measure::Outcome {
        "outcome (0: P, 1: N)"
    } else {
        "nimber"
    };
    match table.grid.axes() {
        [axis] => {
            let low = first(0)?;
            let high = low + table.cells.len().max(1) as i64;
            let mut chart = ChartBuilder::on(root)
                .caption(
                    format!("{title}: {measure}, P-positions in red"),
                    ("sans-serif", 22),
                )
                .margin(16)
                .x_label_area_size(40)
                .y_label_area_size(50)
                .build_cartesian_2d(low..high, 0u32..largest + 1)
                .map_err(|e| text(&e))?;
            chart
                .configure_mesh()
                .x_desc(axis.name.as_str())
                .y_desc(measure)
                .draw()
                .map_err(|e| text(&e))?;
            let points = values.iter().enumerate().map(|(i, &v)| (low + i as i64, v));
            chart
                .draw_series(LineSeries::new(points.clone(), &BLUE))
                .map_err(|e| text(&e))?;
            chart
                .draw_series(
                    points
                        .zip(&table.cells)
                        .filter(|(_, cell)| cell.is_p())
                        .map(|(p, _)| Circle::new(p, 3, RED.filled())),
                )
                .map_err(|e| text(&e))?;
        }
        [rows, columns] => {
            let (row_low, column_low) = (first(0)?, first(1)?);
            let row_high = row_low + rows.count as i64;
            let column_high = column_low + columns.count as i64;
            // The colour legend on the right, the map on the rest.
            let (map_area, legend_area) = root.split_horizontally(SIZE.0 - LEGEND_WIDTH);
            let mut chart = ChartBuilder::on(&map_area)
                .caption(
                    format!("{title}: {measure}, P-positions black"),
                    ("sans-serif", 22),
                )
                .margin(16)
                .x_label_area_size(40)
                .y_label_area_size(50)
                .build_cartesian_2d(column_low..column_high, row_low..row_high)
                .map_err(|e| text(&e))?;
            // The first variable runs down the rows, as in a table (and in the
            // Python package's plot): row `r` is drawn at `flip(r)`, and, as the
            // columns are on the x axis, labelled at the edge where it starts
            // (its top).
            let flip = |row: i64| row_low + row_high - 1 - row;
            let row_label = |y: &i64| flip(*y - 1).to_string();
            chart
                .configure_mesh()
                .disable_mesh()
                .x_desc(columns.name.as_str())
                .y_desc(rows.name.as_str())
                .y_label_formatter(&row_label)
                .draw()
                .map_err(|e| text(&e))?;
            let width = columns.count as usize;
            chart
                .draw_series(table.cells.iter().enumerate().map(|(i, cell)| {
                    let (r, c) = ((i / width) as i64, (i % width) as i64);
                    let color = color_of(cell, values[i], largest);
                    let y = flip(row_low + r);
                    Rectangle::new(
                        [(column_low + c, y), (column_low + c + 1, y + 1)],
                        color.filled(),
                    )
                }))
                .map_err(|e| text(&e))?;
            draw_legend(&legend_area, measure, largest).map_err(|e| text(&e))?;
        }
        _ => {}
    }
    Ok(())
}

/// The pixels of the heat map's colour legend, on its right.
const LEGEND_WIDTH: u32 = 110;

/// The colour legend of a heat map: a bar from 0 (a P-position, black) to the
/// largest value, labelled with the values.
fn draw_legend<B: DrawingBackend>(
    area: &DrawingArea<B, Shift>,
    measure: &str,
    largest: u32,
) -> Result<(), DrawingAreaErrorKind<B::ErrorType>> {
    let mut legend = ChartBuilder::on(area)
        .margin_top(60)
        .margin_bottom(56)
        .margin_right(16)
        .y_label_area_size(40)
        .build_cartesian_2d(0u32..1, 0u32..largest + 1)?;
    legend
        .configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 14))
        .y_desc(measure)
        .y_label_formatter(&|v: &u32| v.to_string())
        .draw()?;
    legend.draw_series((0..=largest).map(|value| {
        let color = if value == 0 {
            BLACK
        } else {
            hue_of(value, largest)
        };
        Rectangle::new([(0, value), (1, value + 1)], color.filled())
    }))?;
    Ok(())
}

/// Black for a P-position, else a hue from blue (small) to red (large).
fn color_of(cell: &Cell, value: u32, largest: u32) -> RGBColor {
    if cell.is_p() {
        return BLACK;
    }
    hue_of(value, largest)
}

/// The hue of a value that is not a P-position's: blue (small) to red (large).
fn hue_of(value: u32, largest: u32) -> RGBColor {
    let t = f64::from(value) / f64::from(largest.max(1));
    let hue = 0.66 * (1.0 - t);
    let (r, g, b) = HSLColor(hue, 0.75, 0.55).rgb();
    RGBColor(r, g, b)
}
