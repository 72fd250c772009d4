//! Times Green Hackenbush on generated graphs of a million edges.
//!
//! ```text
//! cargo run --release -p grundy --example hackenbush_bench [-- --write DIR]
//! ```
//! For each graph (fixed seeds): the time to parse its text, to build the
//! adjacency, to find the nimber (fusion and colon principles), and to find
//! every winning edge (and every edge to nimber 1), with the counts. `--write
//! DIR` also writes each graph to `DIR/NAME.txt`, for timing the CLI:
//! `grundy solve 'hackenbush(@DIR/NAME.txt)'`. `--only NAME` runs one graph
//! (`tree`, `cycles`, `sparse` or `ring`).

use std::fmt::Write as _;
use std::time::Instant;

use grundy::games::graph::Graph;
use grundy::games::graph::hackenbush::Hackenbush;
use grundy::random::SplitMix;

/// Vertices drawn by SplitMix64 from a fixed seed.
struct Rng(SplitMix);

impl Rng {
    fn below(&mut self, n: u64) -> u32 {
        self.0.below(n) as u32
    }
}

const MILLION: u32 = 1_000_000;

/// A random recursive tree: vertex v hangs from a uniform earlier vertex.
fn random_tree(rng: &mut Rng, vertices: u32, edges: &mut Vec<(u32, u32)>) {
    for v in 1..vertices {
        edges.push((rng.below(u64::from(v)), v));
    }
}

/// A graph: its name, vertex count and edges (0-based).
type Generated = (&'static str, u32, Vec<(u32, u32)>);

/// The graphs, vertices numbered from 0 (from 1 when written).
fn graphs() -> Vec<Generated> {
    let mut list = Vec::new();
    // A random tree of 10^6 edges.
    let mut rng = Rng(SplitMix::new(1));
    let mut edges = Vec::new();
    random_tree(&mut rng, MILLION + 1, &mut edges);
    list.push(("tree", MILLION + 1, edges));
    // A random graph with cycles: a random tree on 500,000 vertices and
    // 500,001 random edges more (loops and repeats included).
    let mut rng = Rng(SplitMix::new(2));
    let n = MILLION / 2;
    let mut edges = Vec::new();
    random_tree(&mut rng, n, &mut edges);
    while edges.len() < MILLION as usize {
        edges.push((rng.below(u64::from(n)), rng.below(u64::from(n))));
    }
    list.push(("cycles", n, edges));
    // A sparse one: a random tree on 990,000 vertices and 10,001 chords,
    // whose components have long classes of 2-edge cuts.
    let mut rng = Rng(SplitMix::new(3));
    let n = MILLION - 10_000;
    let mut edges = Vec::new();
    random_tree(&mut rng, n, &mut edges);
    while edges.len() < MILLION as usize {
        edges.push((rng.below(u64::from(n)), rng.below(u64::from(n))));
    }
    list.push(("sparse", n, edges));
    // One cycle of 500,000 edges through the ground, a random tree of
    // 500,000 edges hung on its vertices: one class of 500,000 edges.
    let mut rng = Rng(SplitMix::new(4));
    let cycle = MILLION / 2;
    let mut edges: Vec<(u32, u32)> = (0..cycle).map(|v| (v, (v + 1) % cycle)).collect();
    for v in cycle..MILLION {
        edges.push((rng.below(u64::from(v)), v));
    }
    list.push(("ring", MILLION, edges));
    list
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut write_to = None;
    let mut only = None;
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        match (flag.as_str(), rest.next()) {
            ("--write", Some(dir)) => write_to = Some(dir.clone()),
            ("--only", Some(name)) => only = Some(name.clone()),
            _ => {
                eprintln!("usage: hackenbush_bench [--write DIR] [--only NAME]");
                std::process::exit(2);
            }
        }
    }
    println!(
        "| graph | vertices | edges | parse | build | nimber | nimber | winning edges | count | \
         edges to 1 | count | total |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (name, n, edges) in graphs() {
        if only.as_ref().is_some_and(|only| only != name) {
            continue;
        }
        let mut text = String::with_capacity(edges.len() * 16);
        let _ = writeln!(text, "{n} {}", edges.len());
        for &(u, v) in &edges {
            let _ = writeln!(text, "{} {}", u + 1, v + 1);
        }
        drop(edges);
        if let Some(dir) = &write_to {
            let path = format!("{dir}/{name}.txt");
            if let Err(error) = std::fs::write(&path, &text) {
                eprintln!("error: cannot write {path}: {error}");
                std::process::exit(1);
            }
        }
        let start = Instant::now();
        let graph = Graph::parse(&text, false).unwrap_or_else(|error| {
            eprintln!("error: {error}");
            std::process::exit(1)
        });
        let parsed = start.elapsed();
        let m = graph.edges().len();
        let game = Hackenbush::new(graph, format!("@{name}.txt"));
        let built = start.elapsed();
        let nimber = game.nimber(&[]);
        let valued = start.elapsed();
        let winning = game.winning_edges(&[]).len();
        let won = start.elapsed();
        // The position's analysis is kept: this times the counting alone.
        let to_one = game.edges_to_nimber(&[], 1).len();
        let done = start.elapsed();
        let ms = |d: std::time::Duration| format!("{:.0} ms", d.as_secs_f64() * 1e3);
        println!(
            "| {name} | {n} | {m} | {} | {} | {} | {nimber} | {} | {winning} | {} | {to_one} | {} |",
            ms(parsed),
            ms(built - parsed),
            ms(valued - built),
            ms(won - valued),
            ms(done - won),
            ms(done),
        );
    }
}
