//! Times the pattern finder (`grundy table`'s pattern lines) on large tables whose
//! values are made here, apart from the time the table itself takes.
//!
//! ```text
//! cargo run --profile tests -p grundy --example pattern_bench -- TABLE SIZE
//! ```
//! `TABLE` is `nim`, `kayles` (a sequence of `SIZE` values), `wythoff` or
//! `wythoff-outcome` (`SIZE` by `SIZE` cells). Prints the time the values took, the
//! time the finder took, and the pattern lines.

use std::time::Instant;

use grundy::pattern::{find_in_grid, find_in_sequence};
use grundy::rules::HeapRule;
use grundy::sequence::grundy_values;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(table), Some(size)) = (args.first(), args.get(1).and_then(|s| s.parse().ok())) else {
        eprintln!("usage: pattern_bench nim|kayles|wythoff|wythoff-outcome SIZE");
        std::process::exit(2);
    };
    let size: usize = size;
    let started = Instant::now();
    let found = match table.as_str() {
        "nim" | "kayles" => {
            let values: Vec<u32> = if table == "nim" {
                (0..size as u32).collect()
            } else {
                grundy_values(&HeapRule::kayles(), size - 1).to_vec()
            };
            eprintln!("values: {:.3} s", started.elapsed().as_secs_f64());
            let started = Instant::now();
            let found = find_in_sequence(0, &values).to_string();
            eprintln!("patterns: {:.3} s", started.elapsed().as_secs_f64());
            found
        }
        "wythoff" | "wythoff-outcome" => {
            let mut nimbers = wythoff_nimbers(size);
            if table == "wythoff-outcome" {
                nimbers.iter_mut().for_each(|v| *v = u32::from(*v != 0));
            }
            eprintln!("values: {:.3} s", started.elapsed().as_secs_f64());
            let started = Instant::now();
            let last = size as u64 - 1;
            let found = find_in_grid(0..=last, 0..=last, |x, y| {
                nimbers[x as usize * size + y as usize]
            })
            .to_string();
            eprintln!("patterns: {:.3} s", started.elapsed().as_secs_f64());
            found
        }
        _ => {
            eprintln!("unknown table {table}");
            std::process::exit(2);
        }
    };
    print!("{found}");
}

/// Wythoff's nimbers on `0..size` squared, row by row: the mex of the row, column and
/// diagonal before each cell, kept as bit sets.
fn wythoff_nimbers(size: usize) -> Vec<u32> {
    // The mex of at most `3 size` values is at most `3 size`.
    let words = (3 * size).div_ceil(64) + 1;
    let mut rows = vec![vec![0u64; words]; size];
    let mut columns = vec![vec![0u64; words]; size];
    let mut diagonals = vec![vec![0u64; words]; 2 * size];
    let mut nimbers = vec![0u32; size * size];
    for x in 0..size {
        for y in 0..size {
            let diagonal = size + y - x;
            let word = (0..words)
                .find(|&w| rows[x][w] | columns[y][w] | diagonals[diagonal][w] != u64::MAX)
                .expect("room for the mex");
            let taken = rows[x][word] | columns[y][word] | diagonals[diagonal][word];
            let nimber = word * 64 + taken.trailing_ones() as usize;
            let (w, bit) = (nimber / 64, 1u64 << (nimber % 64));
            rows[x][w] |= bit;
            columns[y][w] |= bit;
            diagonals[diagonal][w] |= bit;
            nimbers[x * size + y] = nimber as u32;
        }
    }
    nimbers
}
