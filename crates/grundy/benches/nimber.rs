//! Throughput of nim multiplication on `u64` and on 256-bit `BigUint`.

use criterion::{BenchmarkId, Criterion, Throughput, black_box, criterion_main};
use grundy::theory::nimber::{nim_inverse, nim_inverse_big, nim_product, nim_product_big};
use num_bigint::BigUint;

/// Deterministic pseudo-random operands (SplitMix64), so runs are comparable.
fn operands(n: usize) -> Vec<u64> {
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        })
        .collect()
}

const BATCH: usize = 1024;

fn bench_u64(c: &mut Criterion) {
    let xs = operands(2 * BATCH);
    let (a, b) = xs.split_at(BATCH);
    let mut group = c.benchmark_group("nimber_u64");
    group.throughput(Throughput::Elements(BATCH as u64));
    group.bench_function("nim_product", |bench| {
        bench.iter(|| {
            let mut acc = 0;
            for (&x, &y) in a.iter().zip(b) {
                acc ^= nim_product(black_box(x), black_box(y));
            }
            acc
        });
    });
    group.bench_function("nim_inverse", |bench| {
        bench.iter(|| {
            let mut acc = 0;
            for &x in a {
                acc ^= nim_inverse(black_box(x | 1)).unwrap_or(0);
            }
            acc
        });
    });
    group.finish();
}

fn bench_big(c: &mut Criterion) {
    let mut group = c.benchmark_group("nimber_big");
    for bits in [256usize, 4096] {
        let limbs = bits / 64;
        let xs = operands(2 * limbs * 64);
        let values: Vec<BigUint> = xs
            .chunks(limbs)
            .map(|chunk| {
                BigUint::new(
                    chunk
                        .iter()
                        .flat_map(|&w| [w as u32, (w >> 32) as u32])
                        .collect(),
                )
            })
            .collect();
        let (a, b) = values.split_at(values.len() / 2);
        group.throughput(Throughput::Elements(a.len() as u64));
        group.bench_with_input(
            BenchmarkId::new("nim_product_big", bits),
            &bits,
            |bench, _| {
                bench.iter(|| {
                    a.iter()
                        .zip(b)
                        .map(|(x, y)| nim_product_big(black_box(x), black_box(y)).bits())
                        .sum::<u64>()
                });
            },
        );
        group.bench_with_input(
            BenchmarkId::new("nim_inverse_big", bits),
            &bits,
            |bench, _| {
                bench.iter(|| {
                    a.iter()
                        .map(|x| nim_inverse_big(black_box(x)).map_or(0, |i| i.bits()))
                        .sum::<u64>()
                });
            },
        );
    }
    group.finish();
}

// criterion_group! generates an undocumented `pub fn benches`.
#[allow(missing_docs)]
mod group {
    criterion::criterion_group!(benches, super::bench_u64, super::bench_big);
}
criterion_main!(group::benches);
