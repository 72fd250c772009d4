//! Times the generalized Sprague-Grundy values of a large random digraph
//! (cycles, loops and sinks included), then a sum of 100 tokens on it read
//! from an edge-list file, as `grundy solve 'digraph(@FILE, v1, ..., v100)'`
//! answers it.
//!
//! ```text
//! cargo bench -p grundy --bench loopy            # 10^6 vertices, 10^7 edges
//! cargo bench -p grundy --bench loopy -- 1000 10000
//! ```
//!
//! A bench binary (no criterion: one run of a few seconds says enough, and
//! the graph takes a quarter of a minute to make): it prints the seconds each
//! step took, best of three for the labelling.
#![allow(missing_docs)]

use std::io::Write;
use std::time::Instant;

use grundy::catalogue::build;
use grundy::lang::parse;
use grundy::random::Xorshift;
use grundy::sums::analysis::{SolveOptions, solve};
use grundy::theory::loopy::{INFINITE, vertex_values};

fn main() -> std::io::Result<()> {
    let numbers: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|arg| arg.parse().ok())
        .collect();
    let n = numbers.first().copied().unwrap_or(1_000_000);
    let m = numbers.get(1).copied().unwrap_or(10_000_000);
    let mut rng = Xorshift::new(2026);
    // Ends drawn uniformly: loops, repeated edges and sinks occur.
    let mut edges: Vec<(u32, u32)> = (0..m)
        .map(|_| (rng.below(n) as u32, rng.below(n) as u32))
        .collect();
    edges.sort_unstable();
    let mut offsets = vec![0usize; n as usize + 1];
    for &(u, _) in &edges {
        offsets[u as usize + 1] += 1;
    }
    for v in 0..n as usize {
        offsets[v + 1] += offsets[v];
    }
    let targets: Vec<u32> = edges.iter().map(|&(_, v)| v).collect();
    let mut best = f64::INFINITY;
    let mut values = None;
    for _ in 0..3 {
        let start = Instant::now();
        values = Some(vertex_values(&offsets, &targets, u64::MAX).expect("no limit"));
        best = best.min(start.elapsed().as_secs_f64());
    }
    let values = values.expect("three runs");
    let infinite = values.values.iter().filter(|&&g| g == INFINITE).count();
    let largest = values.values.iter().filter(|&&g| g != INFINITE).max();
    println!(
        "labelling: {n} vertices, {m} edges: {best:.3} s (best of 3); {infinite} infinite, \
         largest nimber {largest:?}"
    );
    // The same graph as a file, and a sum of 100 tokens on it.
    let path = std::env::temp_dir().join(format!("grundy-loopy-bench-{}.txt", std::process::id()));
    {
        let mut out = std::io::BufWriter::new(std::fs::File::create(&path)?);
        writeln!(out, "{n} {m}")?;
        for (u, v) in &edges {
            writeln!(out, "{} {}", u + 1, v + 1)?;
        }
        out.flush()?;
    }
    let tokens: Vec<String> = (0..100).map(|_| (1 + rng.below(n)).to_string()).collect();
    let text = format!("digraph(@{}, {})", path.display(), tokens.join(", "));
    let start = Instant::now();
    let position = build(&parse(&text).expect("parses")).expect("builds");
    let built = start.elapsed().as_secs_f64();
    let answer = solve(&position, &SolveOptions::default()).expect("solves");
    let total = start.elapsed().as_secs_f64();
    println!(
        "100 tokens from the file: read and labelled in {built:.3} s, answered in {:.3} s more \
         ({total:.3} s in all): outcome {}, value {}, {} winning moves",
        total - built,
        answer.outcome.letter(),
        answer
            .loopy_value
            .map_or_else(String::new, |v| v.to_string()),
        answer.winning_move_count
    );
    std::fs::remove_file(&path)
}
