//! Closed forms on 1,000-digit inputs: Wythoff, Fibonacci Nim, dynamic subtraction.
#![allow(missing_docs)]

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use grundy::games::dynamic_subtraction::{DynamicPosition, DynamicSubtraction};
use grundy::games::wythoff::Wythoff;
use num_bigint::BigUint;

/// A pseudo-random 1,000-digit number (fixed, so runs compare).
fn thousand_digits(seed: u64) -> BigUint {
    let mut state = seed;
    let digits: String = (0..1000)
        .map(|i| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let digit = (state >> 59) % 10;
            char::from(b'0' + if i == 0 { 1 + digit % 9 } else { digit } as u8)
        })
        .collect();
    digits.parse().expect("decimal digits")
}

fn wythoff(c: &mut Criterion) {
    let (first, second) = (thousand_digits(1), thousand_digits(2));
    for d in [0u64, 3] {
        let game = Wythoff::extended(d);
        // A P-position, so that deciding takes the square root (a difference
        // that is not a multiple of d + 1 is decided without one).
        let (lower, upper) = game.p_position(&thousand_digits(4));
        c.bench_function(
            &format!("wythoff[{d}] decide a P-position, 1000 digits"),
            |b| {
                b.iter(|| {
                    game.is_p_position(black_box(&lower), black_box(&upper))
                        .unwrap()
                })
            },
        );
        c.bench_function(&format!("wythoff[{d}] winning moves, 1000 digits"), |b| {
            b.iter(|| {
                game.winning_moves(black_box(&first), black_box(&second))
                    .unwrap()
            })
        });
    }
}

fn dynamic_subtraction(c: &mut Criterion) {
    let heap = thousand_digits(3);
    let start = DynamicPosition::start(heap);
    let fibonacci = DynamicSubtraction::fibonacci();
    c.bench_function("fibonacci_nim outcome, 1000 digits", |b| {
        b.iter(|| fibonacci.outcome(black_box(&start)).unwrap())
    });
    c.bench_function("fibonacci_nim winning moves + count, 1000 digits", |b| {
        b.iter(|| fibonacci.winning_takes(black_box(&start), 100).unwrap())
    });
    for k in [1u64, 3, 6] {
        let game = DynamicSubtraction::multiple(k).unwrap();
        c.bench_function(
            &format!("dynamic_sub[{k}] winning moves + count, 1000 digits"),
            |b| b.iter(|| game.winning_takes(black_box(&start), 100).unwrap()),
        );
    }
    let ten_million = DynamicPosition::start(BigUint::from(10_000_000u32));
    c.bench_function(
        "fibonacci_nim count of winning first moves, n = 10^7",
        |b| b.iter(|| fibonacci.winning_takes(black_box(&ten_million), 0).unwrap()),
    );
}

criterion_group!(benches, wythoff, dynamic_subtraction);
criterion_main!(benches);
