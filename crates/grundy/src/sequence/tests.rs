//! Tests of the sequence engine: against an independent brute force over
//! [`HeapRule::moves`], plain mex against sparse space, and known values.

use std::ops::ControlFlow;

use num_bigint::BigUint;
use rustc_hash::FxHashMap;

use super::*;
use crate::testing::on_pool;
use simd::Isa;

/// Grundy values by the definition: enumerate the moves of each heap with
/// `HeapRule::moves`, xor the values of the heaps left, take the mex.
fn brute_force(rule: &HeapRule, last_heap: u64) -> Vec<u32> {
    fn value(rule: &HeapRule, heap: u64, memo: &mut FxHashMap<u64, u32>) -> u32 {
        if let Some(&v) = memo.get(&heap) {
            return v;
        }
        let mut seen = Vec::new();
        for mv in rule.moves(heap) {
            let x = mv
                .leaves
                .iter()
                .fold(0, |acc, &part| acc ^ value(rule, part, memo));
            seen.push(x);
        }
        seen.sort_unstable();
        seen.dedup();
        let v = seen
            .iter()
            .enumerate()
            .find(|&(i, &x)| i as u32 != x)
            .map_or(seen.len() as u32, |(i, _)| i as u32);
        memo.insert(heap, v);
        v
    }
    let mut memo = FxHashMap::default();
    (0..=last_heap).map(|n| value(rule, n, &mut memo)).collect()
}

fn rule(text: &str) -> HeapRule {
    HeapRule::octal(text).unwrap()
}

fn values(rule: &HeapRule, method: Method, last_heap: usize) -> Vec<u32> {
    let mut solver = SequenceSolver::new(rule.clone(), method);
    solver.extend_to(last_heap);
    solver.into_values().to_vec()
}

fn test_rules() -> Vec<HeapRule> {
    let mut rules: Vec<HeapRule> = [
        "0.77", "0.07", "0.137", "0.6", "0.16", "4.07", "0.3F", "0.106", "0.4", "0.14", "0.7",
        "0.51", "0.37", "0.007", "0.8", "0.F", "4.0", "8.0", "0.12", "0.165", "0.3", "0.1", "0.2",
    ]
    .iter()
    .map(|code| rule(code))
    .collect();
    rules.extend([
        HeapRule::GrundysGame,
        HeapRule::LaskersNim,
        HeapRule::RestNim,
        HeapRule::nim(),
        HeapRule::subtraction([1, 3, 4]).unwrap(),
        HeapRule::subtraction([2, 5, 7]).unwrap(),
        HeapRule::all_but([1]).unwrap(),
        HeapRule::all_but([2, 3]).unwrap(),
    ]);
    rules
}

#[test]
fn engine_matches_brute_force_on_small_heaps() {
    for rule in test_rules() {
        let last = match rule {
            HeapRule::RestNim => 22,
            _ => 70,
        };
        let expected = brute_force(&rule, last as u64);
        for method in [Method::PlainMex, Method::SparseSpace] {
            assert_eq!(
                values(&rule, method, last),
                expected,
                "{rule} by {method:?}"
            );
        }
    }
}

/// Sparse space against plain mex on every heap. In `cargo test --release` this runs to
/// 10^5 values for every rule; in debug builds to 5000 (the 10^5 check is the release one).
#[test]
#[ignore = "exhaustive (15-90 s): run with --include-ignored, as CI does"]
fn sparse_space_matches_plain_mex() {
    let last = if cfg!(debug_assertions) {
        5_000
    } else {
        100_000
    };
    for code in [
        "0.77", "0.07", "0.137", "0.6", "0.16", "4.07", "0.106", "0.14", "0.51", "0.37", "0.165",
        "0.45", "0.04",
    ] {
        let rule = rule(code);
        let sparse = values(&rule, Method::SparseSpace, last);
        let plain = values(&rule, Method::PlainMex, last);
        assert!(
            sparse == plain,
            "{code}: sparse space differs from plain mex"
        );
    }
    let sparse_grundy = values(&HeapRule::GrundysGame, Method::SparseSpace, last);
    let plain_grundy = values(&HeapRule::GrundysGame, Method::PlainMex, last);
    assert!(
        sparse_grundy == plain_grundy,
        "Grundy's game: sparse space differs from plain mex"
    );
}

/// The ways of searching the common pairs (one candidate at a time, one pass for all
/// wanted values) give the same values with every kernel this machine runs: the scalar
/// one (the one-pass search by its portable loop) and each vector kernel. A kernel the
/// machine lacks is left out, and the test says `SKIPPED: search_modes_agree: ...` on
/// standard error (and fails with the feature `require-simd`; see
/// [`simd::vector_kernels`]); likewise for the AVX-512 byte search, which needs VBMI
/// and BITALG too. `sparse_space_matches_plain_mex` checks the default one against the
/// plain mex.
#[test]
#[ignore = "exhaustive (15-90 s): run with --include-ignored, as CI does"]
fn search_modes_agree() {
    let modes = search_modes("search_modes_agree");
    let last = if cfg!(debug_assertions) {
        5_000
    } else {
        100_000
    };
    let mut rules: Vec<HeapRule> = [
        "0.77", "0.07", "0.137", "0.6", "0.16", "4.07", "0.106", "0.14", "0.51", "0.37", "0.165",
        "0.45", "0.04", "0.74",
    ]
    .iter()
    .map(|code| rule(code))
    .collect();
    rules.push(HeapRule::GrundysGame);
    for rule in rules {
        let mut results = Vec::new();
        for &mode in &modes {
            let mut solver = searching(&rule, mode);
            solver.extend_to(last);
            results.push((mode, solver.into_values()));
        }
        // A mirror of 300 values: searches and recorded pairs reaching past it read
        // copies of the values instead.
        for &mode in &modes {
            let mut solver = searching(&rule, mode).with_mirror_window(300);
            solver.extend_to(last / 4);
            let values = solver.into_values();
            assert!(
                values.iter().eq(results[0].1.iter().take(last / 4 + 1)),
                "{rule}: {mode:?} with a short mirror differs"
            );
        }
        for (mode, values) in &results[1..] {
            assert!(
                values == &results[0].1,
                "{rule}: {mode:?} differs from one candidate at a time"
            );
        }
    }
    if !cfg!(debug_assertions) {
        // 0.04 passes 512 (the vector search then holds the wanted set in two registers),
        // 0.6 passes 256 (16-bit values).
        assert!(
            values(&rule("0.04"), Method::SparseSpace, last)
                .iter()
                .any(|&v| v >= 512)
        );
        for kernel in Kernel::on_this_machine() {
            let isa = kernel.isa();
            let mut solver =
                SequenceSolver::new(rule("0.6"), Method::SparseSpace).with_kernel(kernel);
            solver.extend_to(last);
            assert!(solver.values().iter().any(|v| v >= 256));
            // With AVX-512, 0.6 past heap 40 000 marks its rare pairs in registers, bit
            // 8 of the values got back from the parity (the values have 9 bits). With
            // a vector kernel its common pairs are searched by their low bytes, bit 8
            // got back the same way.
            let before = solver.stats();
            solver.extend_to(last + 3200);
            let after = solver.stats();
            let marked = after.register_pairs - before.register_pairs;
            assert_eq!(
                marked > 100 * 32 * 1000,
                isa == Isa::Avx512,
                "{isa:?}: {marked}"
            );
            let searched = after.byte_pairs - before.byte_pairs;
            assert_eq!(
                searched > 3200 * 1000,
                isa != Isa::Scalar,
                "{isa:?}: {searched}"
            );
        }
    }
}

/// The searches of the common pairs a test compares, with the kernels: one candidate at
/// a time and the one-pass search, with the scalar kernel and each vector kernel this
/// machine runs (`test` names the caller in the lines saying one is skipped).
fn search_modes(test: &str) -> Vec<(engine::SearchMode, Isa)> {
    use engine::SearchMode;
    let kernels = std::iter::once(Isa::Scalar).chain(simd::vector_kernels(test));
    if Isa::Avx512.runs() {
        simd::avx512_byte_search_runs(test);
    }
    kernels
        .flat_map(|isa| [(SearchMode::Candidates, isa), (SearchMode::OnePass, isa)])
        .collect()
}

/// A solver of `rule` by the fast method, searching by `mode`.
fn searching(rule: &HeapRule, (mode, isa): (engine::SearchMode, Isa)) -> SequenceSolver {
    SequenceSolver::new(rule.clone(), Method::SparseSpace)
        .with_kernel(Kernel::of(isa))
        .with_search(mode)
}

#[test]
fn sparse_space_is_actually_used() {
    // 0.16 lives in a sparse space: a few dozen rare heaps among 20 000.
    let mut solver = SequenceSolver::new(rule("0.16"), Method::SparseSpace);
    solver.extend_to(20_000);
    let stats = solver.stats();
    assert_ne!(stats.masks[0], 0, "{stats:?}");
    assert!(stats.rare_heaps[0] < 200, "{stats:?}");
    let plain_pairs: u64 = (4..=20_000u64).map(|n| (n - 2) / 2).sum();
    assert!(
        stats.rare_pairs + stats.scanned_pairs < plain_pairs / 10,
        "{stats:?}"
    );
    // Its values have 8 bits: with AVX-512 the rare pairs are marked in registers.
    let best = Isa::best();
    assert_eq!(stats.register_pairs > 0, best == Isa::Avx512, "{stats:?}");
    // So have Grundy's game's, with enough rare heaps for the one-pass search, which
    // then looks at the common pairs by bytes with a vector kernel.
    for kernel in Kernel::on_this_machine() {
        let mut solver =
            SequenceSolver::new(HeapRule::GrundysGame, Method::SparseSpace).with_kernel(kernel);
        solver.extend_to(20_000);
        let stats = solver.stats();
        assert_eq!(
            stats.byte_pairs > 0,
            kernel.isa() != Isa::Scalar,
            "{kernel}: {stats:?}"
        );
    }
    // 0.106 needs the parity-twisted class (odd removals, position bit in the mask).
    let mut solver = SequenceSolver::new(rule("0.106"), Method::SparseSpace);
    solver.extend_to(20_000);
    let stats = solver.stats();
    assert_eq!(stats.masks[0], 0, "no even removal splits in 0.106");
    assert_eq!(stats.masks[1] & 1, 1, "{stats:?}");
    assert!(stats.rare_heaps[1] < 100, "{stats:?}");
}

#[test]
fn known_first_values() {
    let kayles = values(&HeapRule::kayles(), Method::SparseSpace, 11);
    assert_eq!(kayles, [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
    let dawson = values(&HeapRule::dawsons_kayles(), Method::SparseSpace, 6);
    assert_eq!(dawson, [0, 0, 1, 1, 2, 0, 3]);
    let grundy = values(&HeapRule::GrundysGame, Method::SparseSpace, 12);
    assert_eq!(grundy, [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1]);
    let sub = values(
        &HeapRule::subtraction([1, 3, 4]).unwrap(),
        Method::SparseSpace,
        13,
    );
    assert_eq!(sub, [0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]);
}

#[test]
fn kayles_has_period_12_from_71() {
    let rule = HeapRule::kayles();
    let values = grundy_values(&rule, 300);
    let p = find_periodicity(&rule, &values).unwrap();
    assert_eq!((p.period, p.preperiod, p.saltus), (12, 71, 0));
    assert!(p.proven());
    // The last exception is heap 70.
    let g = values.to_vec();
    assert_ne!(g[70], g[82]);
}

#[test]
fn dawsons_kayles_has_period_34_from_53() {
    let rule = HeapRule::dawsons_kayles();
    let values = grundy_values(&rule, 400);
    let p = find_periodicity(&rule, &values).unwrap();
    assert_eq!((p.period, p.preperiod, p.saltus), (34, 53, 0));
    assert!(matches!(p.proof, Proof::GuySmith { .. }));
}

#[test]
fn guy_smith_needs_the_full_range() {
    let rule = HeapRule::kayles();
    // Kayles: k = 2, h = 2: heaps up to 2*71 + 12 + 2 - 1 + 12 = 167 are needed.
    assert_eq!(certification_length(&rule, 71, 12, 0), Some(168));
    let short = grundy_values(&rule, 166);
    let p = find_periodicity(&rule, &short).unwrap();
    assert_eq!((p.period, p.preperiod), (12, 71));
    assert!(!p.proven());
    let enough = grundy_values(&rule, 167);
    assert!(find_periodicity(&rule, &enough).unwrap().proven());
}

#[test]
fn until_proven_finds_and_certifies() {
    let mut never_stop = |_: Progress| ControlFlow::Continue(());
    for (rule, period, preperiod) in [
        (HeapRule::kayles(), 12, 71),
        (HeapRule::dawsons_kayles(), 34, 53),
        (rule("0.137"), 34, 52),
        (HeapRule::subtraction([1, 3, 4]).unwrap(), 7, 0),
        (HeapRule::subtraction([2, 5, 7]).unwrap(), 22, 0),
    ] {
        let mut solver = SequenceSolver::new(rule.clone(), Method::SparseSpace);
        let p = until_proven(&mut solver, 100_000, &mut never_stop)
            .unwrap()
            .unwrap();
        assert_eq!((p.period, p.preperiod), (period, preperiod), "{rule}");
        assert!(p.proven(), "{rule}");
        let needed = certification_length(&rule, p.preperiod, p.period, 0).unwrap();
        assert!(solver.values().len() >= needed);
    }
}

#[test]
fn grundys_game_shows_no_period() {
    let last = if cfg!(debug_assertions) {
        20_000
    } else {
        200_000
    };
    let rule = HeapRule::GrundysGame;
    let values = grundy_values(&rule, last);
    assert_eq!(find_periodicity(&rule, &values), None);
    let mut solver = SequenceSolver::new(rule, Method::SparseSpace);
    let found = until_proven(&mut solver, 5_000, &mut |_| ControlFlow::Continue(())).unwrap();
    assert!(found.is_none());
    assert_eq!(
        solver.values().len(),
        5_001,
        "until_proven stops at its cap"
    );
}

#[test]
fn laskers_nim_closed_form() {
    // Computed from the rules by the engine, not from the formula.
    let rule = HeapRule::LaskersNim;
    let g = values(&rule, Method::PlainMex, 2_000);
    assert_eq!(g[0], 0);
    for k in 0..499u32 {
        let n = 4 * k as usize;
        assert_eq!(
            &g[n + 1..=n + 4],
            &[4 * k + 1, 4 * k + 2, 4 * k + 4, 4 * k + 3],
            "k = {k}"
        );
    }
    let p = find_periodicity(&rule, &g.iter().copied().collect()).unwrap();
    assert_eq!((p.period, p.preperiod, p.saltus), (4, 1, 4));
    assert!(matches!(p.proof, Proof::ClosedForm { .. }));
}

/// The fast method computes Nim, Lasker's Nim and Rest Nim from their closed forms;
/// the engine (the plain method, from the rules) must give the same values.
#[test]
fn closed_forms_match_the_engine() {
    let (last, last_rest) = if cfg!(debug_assertions) {
        (2_000, 200)
    } else {
        (5_000, 1_200)
    };
    for (rule, last) in [
        (HeapRule::LaskersNim, last),
        (HeapRule::nim(), last),
        (HeapRule::RestNim, last_rest),
    ] {
        let mut solver = SequenceSolver::new(rule.clone(), Method::SparseSpace);
        assert!(solver.uses_closed_form(), "{rule}");
        solver.extend_to(last);
        let by_formula = solver.into_values().to_vec();
        let by_engine = values(&rule, Method::PlainMex, last);
        assert!(
            by_formula == by_engine,
            "{rule}: closed form differs from the engine"
        );
        // Resuming from stored values keeps using the formula.
        let prefix: GrundyValues = by_formula[..100].iter().copied().collect();
        let mut resumed =
            SequenceSolver::resume(rule.clone(), Method::SparseSpace, prefix).unwrap();
        resumed.extend_to(last);
        assert!(resumed.values().to_vec() == by_engine, "{rule}: resumed");
    }
    assert!(!SequenceSolver::new(HeapRule::kayles(), Method::SparseSpace).uses_closed_form());
    assert!(!SequenceSolver::new(HeapRule::LaskersNim, Method::PlainMex).uses_closed_form());
}

#[test]
fn closed_forms_stop_where_values_leave_32_bits() {
    // Heap 2^32 - 1 of Lasker's Nim has value 2^32: the formula stops before it.
    assert_eq!(
        closed_form_value(&HeapRule::LaskersNim, u64::from(u32::MAX)),
        Some(1 << 32)
    );
    assert_eq!(closed_form_value(&HeapRule::LaskersNim, u64::MAX), None);
}

#[test]
fn rest_nim_equals_nim() {
    // Computed from the rules (every partition of every remainder), not from the formula.
    let g = values(&HeapRule::RestNim, Method::PlainMex, 300);
    assert!(g.iter().enumerate().all(|(n, &v)| v == n as u32), "{g:?}");
    let p = find_periodicity(&HeapRule::RestNim, &g.iter().copied().collect()).unwrap();
    assert_eq!((p.period, p.preperiod, p.saltus), (1, 0, 1));
    assert!(p.proven());
}

#[test]
fn all_but_subtraction_is_arithmetic_periodic_and_proven() {
    // all_but[1]: never remove exactly one token. G(n) = floor(n / 2).
    let rule = HeapRule::all_but([1]).unwrap();
    let g = grundy_values(&rule, 3_000);
    let p = find_periodicity(&rule, &g).unwrap();
    assert_eq!((p.period, p.saltus), (2, 1), "{p:?}");
    assert!(matches!(p.proof, Proof::WindowTest { .. }), "{p:?}");
    let big = BigUint::from(10u32).pow(30);
    assert_eq!(p.value_of_heap(&g, &big), Ok(&big / 2u32));
    // Unproven periods never answer beyond the computed values.
    let unproven = Periodicity {
        proof: Proof::Unproven,
        ..p
    };
    assert_eq!(unproven.value_of_heap(&g, &big), Err(ValueError::NotProven));
}

#[test]
fn values_of_huge_heaps() {
    let rule = HeapRule::dawsons_kayles();
    let g = grundy_values(&rule, 400);
    let p = find_periodicity(&rule, &g).unwrap();
    // For heaps inside the computed range the stored value is returned.
    for n in [0usize, 52, 53, 200, 400] {
        assert_eq!(
            p.value_of_heap(&g, &BigUint::from(n)).unwrap(),
            BigUint::from(g.get(n).unwrap())
        );
    }
    // Beyond it: by the period, compared with a longer computation.
    let longer = grundy_values(&rule, 3_000);
    for n in [401usize, 1_000, 2_999] {
        assert_eq!(
            p.value_of_heap(&g, &BigUint::from(n)).unwrap(),
            BigUint::from(longer.get(n).unwrap())
        );
    }
    let huge: BigUint = format!("1{}", "0".repeat(99)).parse().unwrap(); // 10^99, 100 digits
    let offset = ((&huge - 53u32) % 34u32)
        .to_u32_digits()
        .first()
        .copied()
        .unwrap_or(0) as usize;
    assert_eq!(
        p.value_of_heap(&g, &huge).unwrap(),
        BigUint::from(g.get(53 + offset).unwrap())
    );
    // Arithmetic periodicity: Lasker's Nim, G(4k+3) = 4k+4.
    let lasker = grundy_values(&HeapRule::LaskersNim, 100);
    let lp = find_periodicity(&HeapRule::LaskersNim, &lasker).unwrap();
    let heap = BigUint::from(4u32) * &huge + 3u32;
    assert_eq!(
        lp.value_of_heap(&lasker, &heap).unwrap(),
        BigUint::from(4u32) * &huge + 4u32
    );
}

#[test]
fn storage_widens_for_large_values() {
    let g = grundy_values(&HeapRule::nim(), 70_000);
    assert_eq!(g.bytes_per_value(), 4);
    assert_eq!(g.get(70_000), Some(70_000));
    assert_eq!(g.max_value(), 70_000);
}

#[test]
fn progress_is_reported_and_can_stop() {
    let mut reports = Vec::new();
    let mut solver = SequenceSolver::new(rule("0.106"), Method::SparseSpace);
    // Progress is reported every 65 536 values, so this needs a few hundred thousand.
    let result = solver.extend_to_with_progress(200_000, &mut |p| {
        reports.push(p);
        if p.done >= 100_000 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    let done = result.unwrap_err().done;
    assert!((100_000..200_001).contains(&done));
    assert_eq!(solver.values().len(), done);
    assert!(reports.iter().all(|p| p.total == 200_001));
    assert!(reports.windows(2).all(|w| w[0].done < w[1].done));
    // Resuming finishes the job with the same values as one run.
    solver.extend_to(200_000);
    assert_eq!(solver.values(), &grundy_values(&rule("0.106"), 200_000));
}

mod files {
    use super::*;
    use std::io::Write;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("grundy-seq-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn text_and_binary_round_trip() {
        let g: GrundyValues = [0, 1, 127, 128, 300, 16_384, 70_000, 0]
            .into_iter()
            .collect();
        for format in [FileFormat::Text, FileFormat::Binary] {
            let mut bytes = Vec::new();
            write_values(&g, format, &mut bytes).unwrap();
            assert_eq!(read_values(&mut bytes.as_slice(), format).unwrap(), g);
        }
        let mut text = Vec::new();
        write_values(
            &[0, 12, 3].into_iter().collect(),
            FileFormat::Text,
            &mut text,
        )
        .unwrap();
        assert_eq!(text, b"0\n12\n3\n");
    }

    #[test]
    fn bad_files_are_rejected_with_a_line() {
        let error = read_values(&mut &b"0\n1\nx\n"[..], FileFormat::Text).unwrap_err();
        assert!(
            matches!(error, FileError::BadLine { line: 3, .. }),
            "{error}"
        );
        let error = read_values(&mut &b"0\n-1\n"[..], FileFormat::Text).unwrap_err();
        assert!(error.to_string().starts_with("line 2"), "{error}");
        assert!(matches!(
            read_values(&mut &b"junk"[..], FileFormat::Binary),
            Err(FileError::BadHeader)
        ));
        // An incomplete last line is the tail of an interrupted write: ignored.
        assert_eq!(
            read_values(&mut &b"0\n1\n2"[..], FileFormat::Text)
                .unwrap()
                .to_vec(),
            [0, 1]
        );
    }

    #[test]
    fn interrupted_run_resumes_from_file() {
        let rule = rule("0.16");
        let reference = grundy_values(&rule, 150_000);
        for format in [FileFormat::Text, FileFormat::Binary] {
            let path = scratch(&format!("resume-{format:?}"));
            let _ = std::fs::remove_file(&path);
            let stopped = compute_into_file(
                &rule,
                Method::SparseSpace,
                150_000,
                &path,
                format,
                &mut |p| {
                    if p.done >= 70_000 {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                },
            );
            assert!(matches!(stopped, Err(FileError::Interrupted { .. })));
            // Simulate a crash in the middle of writing a value.
            let mut file = std::fs::OpenOptions::new()
                .append(true)
                .open(&path)
                .unwrap();
            file.write_all(if format == FileFormat::Text {
                b"12"
            } else {
                &[0x85]
            })
            .unwrap();
            drop(file);
            let saved = read_values(&mut std::fs::File::open(&path).unwrap(), format).unwrap();
            assert!(saved.len() >= 70_000);
            let solver = compute_into_file(
                &rule,
                Method::SparseSpace,
                150_000,
                &path,
                format,
                &mut |_| ControlFlow::Continue(()),
            )
            .unwrap();
            assert_eq!(solver.values(), &reference);
            let on_disk = read_values(&mut std::fs::File::open(&path).unwrap(), format).unwrap();
            assert_eq!(on_disk, reference, "{format:?}");
            std::fs::remove_file(&path).unwrap();
        }
    }

    #[test]
    fn resume_rejects_values_of_another_rule() {
        let kayles = grundy_values(&HeapRule::kayles(), 100);
        let error = SequenceSolver::resume(HeapRule::dawsons_kayles(), Method::SparseSpace, kayles)
            .unwrap_err();
        // Kayles 0 1 2 ..., Dawson's Kayles 0 0 1 ...: every value is checked, the first
        // wrong one is named.
        assert_eq!(
            (error.heap, error.stored, error.computed),
            (1, 1, Some(0)),
            "{error}"
        );
    }
}

/// 0.16: preperiod 105351, period 149459 (Gangolli and Plambeck). Needs about
/// 510 000 values for the Guy-Smith proof: under a second in release mode, where it runs
/// with the other tests; ignored in debug builds (run it there with `-- --ignored`).
#[test]
#[cfg_attr(debug_assertions, ignore = "release-mode test: needs ~5e5 values")]
fn octal_016_period() {
    let rule = rule("0.16");
    let mut solver = SequenceSolver::new(rule, Method::SparseSpace);
    let p = until_proven(&mut solver, 2_000_000, &mut |_| ControlFlow::Continue(()))
        .unwrap()
        .unwrap();
    assert_eq!((p.period, p.preperiod, p.saltus), (149_459, 105_351, 0));
    assert!(p.proven());
}

#[test]
fn values_up_to_agrees_with_value_of_heap_and_the_engine() {
    for rule in [
        HeapRule::kayles(),
        rule("0.28"),
        HeapRule::all_but([1, 2]).unwrap(),
    ] {
        let short = grundy_values(&rule, 400);
        let p = find_periodicity(&rule, &short).unwrap();
        assert!(p.proven(), "{rule}");
        let extended = p.values_up_to(&short, 1500).unwrap();
        assert_eq!(
            extended.to_vec(),
            grundy_values(&rule, 1500).to_vec(),
            "{rule}"
        );
        for n in [0usize, 401, 1500] {
            assert_eq!(
                p.value_of_heap(&short, &BigUint::from(n)).unwrap(),
                BigUint::from(extended.get(n).unwrap())
            );
        }
    }
}

/// The memory bound of the engine: at most 2 bytes per value (Officers' values need 9 bits)
/// plus the rare heaps: the values are reserved exactly, chunk by chunk, and the mirror
/// of the values keeps a fixed window, not a second copy.
#[test]
fn memory_stays_at_two_bytes_per_value() {
    let mut solver = SequenceSolver::new(rule("0.6"), Method::SparseSpace);
    solver.extend_to(100_000);
    let values = solver.values();
    assert_eq!(values.bytes_per_value(), 2);
    assert!(
        values.allocated_bytes() <= 2 * values.len() + 64,
        "{} bytes for {} values",
        values.allocated_bytes(),
        values.len()
    );
    // The mirror (2 bytes a value), its low bytes and those of the first 65 536 values
    // (the byte search): fixed sizes, whatever the length.
    let mirror = solver.engine_mirror_bytes();
    let window = 2 * super::storage::MIRROR_WINDOW + 2;
    assert!(
        mirror <= 2 * window + window + (1 << 16),
        "mirror of {mirror} bytes"
    );
    assert!(mirror > 0, "the mirror is in use for 0.6");
}

/// The code `d0.` followed by each digit repeated as often as it says.
fn code_of_runs(d0: u8, runs: &[(u8, usize)]) -> HeapRule {
    let mut digits = vec![d0];
    for &(digit, count) in runs {
        digits.extend(std::iter::repeat_n(digit, count));
    }
    HeapRule::TakeAndBreak(crate::rules::octal::TakeAndBreak::from_digits(&digits).unwrap())
}

/// Pairs of heaps the engine looked at, however it did.
fn pairs_looked_at(stats: &EngineStats) -> u64 {
    stats.scanned_pairs + stats.rare_pairs + stats.register_pairs + stats.run_pairs
}

/// A run of moves removing consecutive numbers of tokens costs about what one move
/// costs, whatever its length: the pairs looked at for `0.777...7` hardly grow with the
/// sevens (looking at every split of every move, `k·m / 2` pairs per heap, they grew
/// as `k`: a minute for 1000 sevens, where the period search goes to heap 16384).
#[test]
fn a_run_of_moves_costs_about_one_move() {
    let last = 3000;
    let one_move: u64 = (2..=last as u64).map(|m| m / 2).sum();
    for sevens in [16, 100, 400, 1000] {
        let mut solver = SequenceSolver::new(code_of_runs(0, &[(7, sevens)]), Method::SparseSpace);
        solver.extend_to(last);
        let stats = solver.stats();
        let pairs = pairs_looked_at(&stats);
        assert!(pairs < 6 * one_move, "{sevens} sevens: {stats:?}");
    }
    // Moves leaving three heaps: 0.FFF...F reads the two-heap values of every rest
    // once per run, not once per move.
    let words = |fs: usize| {
        let mut solver = SequenceSolver::new(code_of_runs(0, &[(15, fs)]), Method::SparseSpace);
        solver.extend_to(300);
        solver.stats().three_heap_words
    };
    let (short, long) = (words(8), words(64));
    assert!(long < 2 * short, "8 digits: {short} words read; 64: {long}");
}

/// Long codes by the fast method (runs of moves through windows, masks weighed against
/// them) against the plain mex on every heap, past the first choices of masks.
#[test]
fn long_codes_match_plain_mex() {
    for (rule, last) in [
        (code_of_runs(0, &[(7, 100)]), 2500),
        (code_of_runs(4, &[(6, 40), (0, 3), (7, 21)]), 2000),
        (code_of_runs(0, &[(0, 1), (7, 30), (2, 1), (4, 30)]), 2000),
        (code_of_runs(0, &[(7, 4), (0, 3)].repeat(20)), 2000),
        (code_of_runs(0, &[(3, 1), (15, 12), (11, 12)]), 300),
    ] {
        let fast = values(&rule, Method::SparseSpace, last);
        let plain = values(&rule, Method::PlainMex, last);
        assert!(
            fast == plain,
            "{rule}: the fast method differs from plain mex"
        );
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(40))]

    /// Long octal codes, made of runs of repeated digits (the moves the windows take)
    /// and single digits, against the definition: the mex over `HeapRule::moves`.
    #[test]
    fn long_octal_codes_match_brute_force(
        d0 in proptest::sample::select(vec![0u8, 4]),
        runs in proptest::collection::vec((0u8..8, 1usize..40), 1..12),
        last in 100u64..260,
    ) {
        let rule = code_of_runs(d0, &runs);
        let expected = brute_force(&rule, last);
        proptest::prop_assert_eq!(values(&rule, Method::SparseSpace, last as usize), expected, "{}", rule);
    }

    /// Long hexadecimal codes (moves leaving three heaps), likewise.
    #[test]
    fn long_hexadecimal_codes_match_brute_force(
        d0 in proptest::sample::select(vec![0u8, 4, 8, 12]),
        runs in proptest::collection::vec((0u8..16, 1usize..12), 1..6),
        last in 40u64..90,
    ) {
        let rule = code_of_runs(d0, &runs);
        let expected = brute_force(&rule, last);
        proptest::prop_assert_eq!(values(&rule, Method::SparseSpace, last as usize), expected, "{}", rule);
    }
}

/// The values computed with `kernel` on `threads` threads (a rayon pool of that size:
/// the engine takes a helper thread for its blocks when the pool has more than one).
fn values_on_threads(
    kernel: Kernel,
    threads: usize,
    rule: &HeapRule,
    last_heap: usize,
) -> Vec<u32> {
    on_pool(threads, || {
        let mut solver = SequenceSolver::new(rule.clone(), Method::SparseSpace).with_kernel(kernel);
        solver.extend_to(last_heap);
        solver.into_values().to_vec()
    })
}

/// Codes whose values to 10^6 the engine computes in at most 6 s on one thread (no
/// code whose splits it must compute plainly), most of them by sparse space with
/// many rare heaps (Officers 0.6, 0.16, 0.106, 0.1777, 0.37), where blocks are
/// filled ahead by a second thread.
const PARALLEL_CODES: [&str; 40] = [
    "0.6", "0.16", "0.106", "0.1777", "4.07", "0.14", "0.51", "0.37", "0.45", "0.12", "4.0", "0.7",
    "0.1", "0.2", "0.3", "0.354", "0.26", "0.53", "0.56", "0.64", "0.71", "0.72", "0.75", "0.31",
    "0.36", "0.47", "0.65", "0.132", "0.144", "0.156", "0.34", "0.33", "0.73", "0.54", "0.52",
    "0.27", "4.7", "0.24", "0.25", "0.55",
];

#[test]
fn a_second_thread_fills_the_blocks_of_officers() {
    let rule = rule("0.6");
    let filled_ahead = |threads: usize| {
        on_pool(threads, || {
            let mut solver = SequenceSolver::new(rule.clone(), Method::SparseSpace);
            solver.extend_to(100_000);
            solver.stats().blocks_filled_ahead
        })
    };
    assert_eq!(filled_ahead(1), 0);
    // Nearly all of the 3,125 blocks, all but those after the masks were chosen anew.
    assert!(filled_ahead(2) > 2_500, "{}", filled_ahead(2));
}

/// Every search of the common pairs takes blocks filled ahead by a second thread (one
/// block ahead when the search goes one candidate at a time, two with the one-pass
/// search), and gives on 2 and 7 threads the values it gives on one. Masks chosen anew
/// during the run (Officers to 60,000: several times) leave blocks filled for the old
/// rare lists in flight, which the engine must throw away and then send again from
/// the heap it is at: were it to keep the old order of blocks, nearly every later
/// block would miss.
#[test]
fn every_search_takes_blocks_filled_ahead_and_gives_the_same_values() {
    let modes = search_modes("every_search_takes_blocks_filled_ahead_and_gives_the_same_values");
    let last = 60_000;
    for code in ["0.6", "0.106"] {
        let rule = rule(code);
        for &mode in &modes {
            let run = |threads: usize| {
                on_pool(threads, || {
                    let mut solver = searching(&rule, mode);
                    solver.extend_to(last);
                    (solver.stats().blocks_filled_ahead, solver.into_values())
                })
            };
            let (none, one) = run(1);
            assert_eq!(none, 0);
            for threads in [2, 7] {
                let (ahead, values) = run(threads);
                assert!(
                    values == one,
                    "{code}, {mode:?}: {threads} threads differ from one"
                );
                if code == "0.6" {
                    // 1,875 blocks, from heap 4·BLOCK on.
                    assert!(ahead > 1_500, "{mode:?}: {ahead} blocks filled ahead");
                }
            }
        }
    }
}

/// The values of each code to `last_heap` with every kernel this machine runs, on 1, 2
/// and 7 threads, equal those of the scalar kernel on one thread (`test` names the
/// caller in the lines saying a kernel is skipped).
fn assert_every_kernel_the_same_on_one_two_and_seven_threads(
    test: &str,
    codes: &[&str],
    last_heap: usize,
) {
    let kernels: Vec<Kernel> = std::iter::once(Isa::Scalar)
        .chain(simd::vector_kernels(test))
        .map(Kernel::of)
        .collect();
    for &code in codes {
        let rule = rule(code);
        let reference = values_on_threads(Kernel::scalar(), 1, &rule, last_heap);
        for &kernel in &kernels {
            for threads in [1, 2, 7] {
                if kernel == Kernel::scalar() && threads == 1 {
                    continue;
                }
                assert!(
                    values_on_threads(kernel, threads, &rule, last_heap) == reference,
                    "{code}: the {kernel} kernel on {threads} threads differs from the \
                     scalar one on one"
                );
            }
        }
    }
}

#[test]
fn values_are_the_same_with_every_kernel_on_one_two_and_seven_threads() {
    assert_every_kernel_the_same_on_one_two_and_seven_threads(
        "values_are_the_same_with_every_kernel_on_one_two_and_seven_threads",
        &["0.6", "0.16", "0.106", "0.1777"],
        100_000,
    );
}

#[test]
#[ignore = "exhaustive (minutes): run with --include-ignored, as CI does"]
fn values_to_a_million_are_the_same_with_every_kernel_on_one_two_and_seven_threads() {
    assert_every_kernel_the_same_on_one_two_and_seven_threads(
        "values_to_a_million_are_the_same_with_every_kernel_on_one_two_and_seven_threads",
        &PARALLEL_CODES,
        1_000_000,
    );
}
