//! Misère quotients: building small quotients (0.75 and 0.123 as Plambeck
//! published them), and a misère sum of
//! 1,000 heaps up to 10^18 answered through a proven quotient.
#![allow(missing_docs)]

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use grundy::quotient::{self, QuotientLimits, play};
use grundy::rules::HeapRule;
use num_bigint::BigUint;

fn build(c: &mut Criterion) {
    for code in ["0.75", "0.31", "0.51", "0.71", "0.123"] {
        let rule = HeapRule::octal(code).unwrap();
        c.bench_function(&format!("quotient of {code} until proven"), |b| {
            b.iter(|| {
                quotient::compute(black_box(&rule), 1000, true, QuotientLimits::default()).unwrap()
            })
        });
    }
}

fn thousand_heaps(c: &mut Criterion) {
    let rule = HeapRule::octal("0.75").unwrap();
    let q = quotient::compute(&rule, 1000, true, QuotientLimits::default()).unwrap();
    let mut state = 7u64;
    let heaps: Vec<BigUint> = (0..1000)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            BigUint::from(state % 1_000_000_000_000_000_000 + 1)
        })
        .collect();
    c.bench_function(
        "misère sum of 1000 heaps of 0.75 up to 10^18, 100 moves listed",
        |b| b.iter(|| play::answer(black_box(&q), black_box(&heaps), 100).unwrap()),
    );
}

criterion_group!(benches, build, thousand_heaps);
criterion_main!(benches);
