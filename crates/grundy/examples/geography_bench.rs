//! Times geography by maximum matchings: reading a graph, then the outcome of
//! every start at once (one maximum matching and one alternating search), and
//! the answer to one start with its winning moves.
//!
//! ```text
//! cargo run --release -p grundy --example geography_bench -- gen 100000 1000000 1 g.txt
//! cargo run --release -p grundy --example geography_bench -- grid 1000 1000 1 grid.txt
//! cargo run --release -p grundy --example geography_bench -- g.txt
//! ```
//!
//! `gen N M SEED FILE` writes a random graph of `N` vertices and `M` edges
//! (ends drawn uniformly, loops and repeated edges possible) in the contract's
//! format; `grid R C SEED FILE` the grid graph of an `R` x `C` board with a
//! tenth of its cells cut out at random. `FILE` alone reads the graph, prints
//! its matching number, the number of starts the player to move loses
//! (`|D|`), and the seconds each step took.

use std::io::Write;
use std::time::Instant;

use grundy::games::graph::Graph;
use grundy::games::graph::geography::Geography;
use grundy::theory::game::Outcome;

/// A small deterministic generator (xorshift64*), so that a seed names a graph.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) % n
    }
}

fn write_graph(path: &str, n: u64, edges: &[(u64, u64)]) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(out, "{n} {}", edges.len())?;
    for (u, v) in edges {
        writeln!(out, "{} {}", u + 1, v + 1)?;
    }
    out.flush()
}

fn number(text: Option<&String>, what: &str) -> u64 {
    text.and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("{what}: expected a number"))
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("gen") => {
            let n = number(args.get(1), "N");
            let m = number(args.get(2), "M");
            let mut rng = Rng(number(args.get(3), "SEED").wrapping_mul(0x9E37_79B9) | 1);
            let edges: Vec<(u64, u64)> = (0..m).map(|_| (rng.below(n), rng.below(n))).collect();
            write_graph(&args[4], n, &edges)
        }
        Some("grid") => {
            let rows = number(args.get(1), "R");
            let cols = number(args.get(2), "C");
            let mut rng = Rng(number(args.get(3), "SEED").wrapping_mul(0x9E37_79B9) | 1);
            let free: Vec<bool> = (0..rows * cols).map(|_| rng.below(10) != 0).collect();
            let mut edges = Vec::new();
            for r in 0..rows {
                for c in 0..cols {
                    let v = r * cols + c;
                    if c + 1 < cols && free[v as usize] && free[v as usize + 1] {
                        edges.push((v, v + 1));
                    }
                    if r + 1 < rows && free[v as usize] && free[(v + cols) as usize] {
                        edges.push((v, v + cols));
                    }
                }
            }
            write_graph(&args[4], rows * cols, &edges)
        }
        Some(path) => {
            let start = Instant::now();
            let text = std::fs::read_to_string(path)?;
            let graph = Graph::parse(&text, false).expect("a graph in the contract's format");
            let (n, m) = (graph.vertex_count(), graph.edges().len());
            let read = start.elapsed().as_secs_f64();
            let game = Geography::on_graph(graph, format!("@{path}"));
            let built = start.elapsed().as_secs_f64();
            let starts = game.start_outcomes(&[]);
            let lost = starts
                .iter()
                .filter(|o| **o == Some(Outcome::PreviousPlayerWins))
                .count();
            let every = start.elapsed().as_secs_f64();
            let one = game.winning_moves(&game.position(Some(0), &[]), 100);
            let single = start.elapsed().as_secs_f64();
            let nu = game.matching_number(&[]);
            let matched = start.elapsed().as_secs_f64() - single;
            println!("vertices {n} edges {m}");
            println!("matching number {nu}");
            println!("starts lost for the player to move (|D|) {lost}");
            println!("start 1: {:?}, {} winning moves", one.0, one.1.count);
            println!(
                "seconds: read {read:.3}, adjacency {:.3}, every start {:.3}, start 1 with its \
                 moves {:.3}, total {single:.3} (then a maximum matching alone {matched:.3})",
                built - read,
                every - built,
                single - every
            );
            Ok(())
        }
        None => {
            eprintln!("usage: geography_bench gen N M SEED FILE | grid R C SEED FILE | FILE");
            std::process::exit(2);
        }
    }
}
