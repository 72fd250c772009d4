//! Benchmarks of the generic solver and of `solve` end to end.
//!
//! `cargo bench -p grundy --bench solver`. Throughput is reported in positions
//! expanded per second; the setup also prints the bytes per stored position.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use grundy::catalogue::build;
use grundy::lang::parse;
use grundy::sums::analysis::{SolveOptions, solve};
use grundy::theory::game::ImpartialGame;
use grundy::theory::solver::Solver;

/// A sum of four subtraction-game heaps of at most 40 searched whole (no
/// splitting): the generic solver on a plain typed game, with hash tables or,
/// when `dense`, arrays indexed in base 41.
struct FourHeaps {
    dense: bool,
}

impl ImpartialGame for FourHeaps {
    type Position = [u8; 4];
    fn moves(&self, heaps: &[u8; 4], moves: &mut Vec<[u8; 4]>) {
        const SETS: [&[u8]; 4] = [&[1, 3, 4], &[2, 5], &[1, 2, 3], &[1, 4, 9]];
        for (i, set) in SETS.iter().enumerate() {
            for &take in set.iter().filter(|&&take| take <= heaps[i]) {
                let mut next = *heaps;
                next[i] -= take;
                moves.push(next);
            }
        }
    }

    fn dense_positions(&self) -> Option<usize> {
        self.dense.then_some(41 * 41 * 41 * 41)
    }

    fn position_index(&self, heaps: &[u8; 4]) -> usize {
        heaps
            .iter()
            .fold(0, |index, &h| index * 41 + usize::from(h))
    }
}

fn searched_sums(c: &mut Criterion) {
    let mut group = c.benchmark_group("misere_search");
    group
        .measurement_time(Duration::from_secs(5))
        .sample_size(10);
    for text in [
        "misere(sub[1, 3, 4](30) + sub[2, 5](31) + nim(12))",
        "misere(sub[1, 3, 4](60) + sub[2, 5](61) + nim(40) + bash[3](50))",
    ] {
        let position = build(&parse(text).unwrap()).unwrap();
        let answer = solve(&position, &SolveOptions::default()).unwrap();
        eprintln!(
            "{text}: {} positions expanded, {} stored, {:.1} bytes per stored position",
            answer.search.positions_expanded,
            answer.search.positions_stored,
            answer.search.bytes_per_position
        );
        group.throughput(Throughput::Elements(answer.search.positions_expanded));
        group.bench_with_input(
            BenchmarkId::from_parameter(text),
            &position,
            |b, position| {
                b.iter(|| solve(black_box(position), &SolveOptions::default()).unwrap());
            },
        );
    }
    group.finish();

    let mut group = c.benchmark_group("typed_solver");
    group
        .measurement_time(Duration::from_secs(5))
        .sample_size(10);
    let root = [40u8, 40, 40, 40];
    for (name, game) in [
        ("hash", FourHeaps { dense: false }),
        ("dense", FourHeaps { dense: true }),
    ] {
        let mut solver = Solver::new(&game);
        solver.nimber(&root).unwrap();
        let positions = solver.statistics().positions_expanded;
        eprintln!(
            "four heaps of 40 ({name} tables), whole-sum nimber: {positions} positions, {:.1} bytes per stored position",
            solver.bytes_per_stored_position()
        );
        group.throughput(Throughput::Elements(positions));
        group.bench_function(
            format!("nimber of four heaps of 40, unsplit, {name} tables"),
            |b| {
                b.iter(|| Solver::new(&game).nimber(black_box(&root)).unwrap());
            },
        );
        let mut solver = Solver::new(&game);
        solver.misere_outcome(&root).unwrap();
        let positions = solver.statistics().positions_expanded;
        eprintln!("four heaps of 40 ({name} tables), misère outcome: {positions} positions");
        group.throughput(Throughput::Elements(positions));
        group.bench_function(
            format!("misère outcome of four heaps of 40, {name} tables"),
            |b| {
                b.iter(|| Solver::new(&game).misere_outcome(black_box(&root)).unwrap());
            },
        );
    }
    group.finish();
}

/// Components whose game graphs are too large for the explorer, answered by
/// their family's own search (Wythoff's dense table).
fn family_searches(c: &mut Criterion) {
    let mut group = c.benchmark_group("family_search");
    group
        .measurement_time(Duration::from_secs(5))
        .sample_size(10);
    let options = SolveOptions {
        max_states: 2_100_000,
        ..SolveOptions::default()
    };
    for text in [
        "wythoff(600, 1000) + nim(3)",
        "wythoff(1000, 2000) + nim(3)",
    ] {
        let position = build(&parse(text).unwrap()).unwrap();
        group.bench_with_input(
            BenchmarkId::from_parameter(text),
            &position,
            |b, position| {
                b.iter(|| solve(black_box(position), &options).unwrap());
            },
        );
    }
    group.finish();
}

fn nim_million(c: &mut Criterion) {
    // 10^6 heaps of 60 digits from a fixed linear congruential sequence.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut text = String::from("nim(");
    for i in 0..1_000_000 {
        if i > 0 {
            text.push_str(", ");
        }
        text.push((b'1' + (i % 9) as u8) as char);
        for _ in 0..59 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            text.push((b'0' + (state >> 60) as u8 % 10) as char);
        }
    }
    text.push(')');
    let mut group = c.benchmark_group("nim_million");
    group
        .measurement_time(Duration::from_secs(10))
        .sample_size(10);
    group.bench_function("parse, build and solve 10^6 heaps of 60 digits", |b| {
        b.iter(|| {
            let position = build(&parse(black_box(&text)).unwrap()).unwrap();
            solve(&position, &SolveOptions::default())
                .unwrap()
                .winning_move_count
        });
    });
    group.finish();
}

// criterion_group! generates an undocumented `pub fn benches`.
#[allow(missing_docs)]
mod group {
    criterion::criterion_group!(
        benches,
        super::searched_sums,
        super::family_searches,
        super::nim_million
    );
}
criterion_main!(group::benches);
