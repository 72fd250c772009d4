//! Writes a random graph in the contract's GRAPH format on standard output,
//! for the graph games' benchmarks (a fixed seed: the same file every run).
//!
//! ```text
//! cargo run --release -p grundy --example graph_input -- KIND N M [SEED] > g.txt
//! ```
//! KIND is `dag` (M edges, each from a lower to a higher vertex of a random
//! order), `tree` (N - 1 edges, each vertex joined to a random earlier one),
//! `path` (N - 1 edges in a line), or `graph` (M random edges, no loops);
//! for the string games, `words` (N random words of M letters over a-j, one a
//! line) or `word` (one word of N random letters over a-b).

use std::io::{self, BufWriter, Write};

use grundy::random::Xorshift;

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: graph_input dag|tree|path|graph|words|word N M [SEED]";
    let (Some(kind), Some(n)) = (
        args.first(),
        args.get(1).and_then(|n| n.parse::<u64>().ok()),
    ) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let m: u64 = args.get(2).and_then(|m| m.parse().ok()).unwrap_or(0);
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut rng = Xorshift::new(seed);
    let mut out = BufWriter::with_capacity(1 << 20, io::stdout().lock());
    let mut label: Vec<u64> = (1..=n).collect();
    rng.shuffle(&mut label);
    let mut next = move |bound: u64| rng.below(bound);
    match kind.as_str() {
        "dag" => {
            writeln!(out, "{n} {m}")?;
            for _ in 0..m {
                let (a, b) = loop {
                    let (a, b) = (next(n), next(n));
                    if a != b {
                        break (a.min(b), a.max(b));
                    }
                };
                writeln!(out, "{} {}", label[a as usize], label[b as usize])?;
            }
        }
        "tree" | "path" => {
            writeln!(out, "{n} {}", n.saturating_sub(1))?;
            for v in 1..n {
                let u = if kind == "tree" { next(v) } else { v - 1 };
                writeln!(out, "{} {}", u + 1, v + 1)?;
            }
        }
        "graph" => {
            writeln!(out, "{n} {m}")?;
            for _ in 0..m {
                let (a, b) = loop {
                    let (a, b) = (next(n), next(n));
                    if a != b {
                        break (a, b);
                    }
                };
                writeln!(out, "{} {}", a + 1, b + 1)?;
            }
        }
        "words" | "word" => {
            let (count, length, letters) = if kind == "words" {
                (n, m, 10)
            } else {
                (1, n, 2)
            };
            for _ in 0..count {
                let word: String = (0..length)
                    .map(|_| char::from(b'a' + next(letters) as u8))
                    .collect();
                writeln!(out, "{word}")?;
            }
        }
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    }
    out.flush()
}
