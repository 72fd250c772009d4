//! `--threads N`: `seq` files, tables and Chomp answers are the same byte for byte
//! on 1, 2 and 7 threads (more threads than this machine's cores), a table's first
//! failing cell stops the other threads and is the one told, and a bad count is
//! exit 2.

use std::fs;

use crate::support::{grundy, stderr, stdout};

const THREADS: [&str; 3] = ["1", "2", "7"];

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-threads-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn seq_files_are_the_same_on_any_number_of_threads() {
    let dir = scratch("seq");
    for code in ["octal[0.6]", "octal[0.16]", "octal[0.106]"] {
        let mut files = Vec::new();
        for threads in THREADS {
            let path = dir.join(format!("{threads}.txt"));
            let _ = fs::remove_file(&path);
            let _ = fs::remove_file(path.with_extension("txt.check"));
            let path_text = path.to_str().unwrap();
            let output = grundy(&[
                "seq",
                code,
                "-n",
                "200000",
                "--threads",
                threads,
                "--out",
                path_text,
            ]);
            assert!(output.status.success(), "{code}: {}", stderr(&output));
            let check = fs::read(format!("{path_text}.check")).unwrap();
            files.push((fs::read(&path).unwrap(), check));
        }
        assert!(files[1] == files[0] && files[2] == files[0], "{code}");
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn tables_chomp_and_misere_sums_are_the_same_on_any_number_of_threads() {
    for args in [
        &["table", "cram(x, y)", "x=1..4", "y=1..6"][..],
        &["table", "--json", "kayles(x, y)", "x=0..40", "y=0..40"][..],
        &[
            "table",
            "--outcome",
            "misere(nim(x, y, 3))",
            "x=0..12",
            "y=0..12",
        ][..],
        &["solve", "--json", "--max-states", "10000000", "chomp(9, 9)"][..],
        &["solve", "--json", "chomp([7, 6, 6, 3, 1])"][..],
        // A misère sum searched whole, every move of the start at once.
        &[
            "solve",
            "--json",
            "misere(sub[1, 3, 4](40) + bash[2](30) + wythoff(4, 7) + nim(9))",
        ][..],
        &["solve", "misere(sub[1, 3, 4](7) + bash[2](5) + nim(1, 2))"][..],
        // Components that split: a hash table of positions shared.
        &[
            "solve",
            "--json",
            "misere(octal[0.07](16) + octal[0.137](17) + wythoff(4, 7))",
        ][..],
    ] {
        let answers: Vec<String> = THREADS
            .iter()
            .map(|threads| {
                let mut with_threads = args.to_vec();
                with_threads.extend(["--threads", threads]);
                let output = grundy(&with_threads);
                assert!(output.status.success(), "{args:?}: {}", stderr(&output));
                stdout(&output)
            })
            .collect();
        assert!(
            answers[1] == answers[0] && answers[2] == answers[0],
            "{args:?}"
        );
    }
}

#[test]
fn the_first_failing_cell_is_reported_on_any_number_of_threads() {
    // Every cell of the first row fails (a subtraction amount 0); the first in row
    // order is named whichever thread meets a failure first.
    for threads in THREADS {
        let output = grundy(&[
            "table",
            "sub[x](y)",
            "x=0..3",
            "y=0..50",
            "--threads",
            threads,
        ]);
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert!(
            stderr(&output).contains("in the cell x = 0, y = 0\n"),
            "{}",
            stderr(&output)
        );
    }
}

#[test]
fn a_bad_thread_count_is_exit_2() {
    for bad in ["0", "-1", "1025", "two", "18446744073709551616"] {
        let flag = format!("--threads={bad}");
        let output = grundy(&["seq", "kayles", "-n", "5", &flag]);
        assert_eq!(output.status.code(), Some(2), "{bad}: {}", stderr(&output));
        assert!(
            stderr(&output).contains("--threads"),
            "{bad}: {}",
            stderr(&output)
        );
    }
}

/// `grundy ARGS` run in `dir`, for scripts named by a relative path.
fn grundy_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    crate::support::command()
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// The subtraction game {1, 3, 4} as a script, whose cells all need the cells
/// before them: every thread's own search holds the whole prefix.
const SUB134: &str =
    "fn moves(n) { let m = []; for s in [1, 3, 4] { if n >= s { m.push(n - s) } } m }\n";

/// Chains of positions: cell `n < 60` one of about 3000 (milliseconds under
/// misère play, searched alone: dear enough for every thread to take cells once
/// the first has taken a while), its length changing with `n`; cell 60 one of
/// 30000 whose end fails; cells 61 to 80 one of 10^8 (minutes).
const CHAINS: &str = r#"fn moves(n) {
    if n < 60 { return [1000000 + n * 10000 + 3000 + n]; }
    if n == 60 { return [400000000 + 30000]; }
    if n <= 80 { return [1000000000 + 100000000]; }
    if n == 400000000 { throw "the end of the chain"; }
    if n % 10000 == 0 && n < 400000000 { return []; }
    if n == 1000000000 { return []; }
    [n - 1]
}
"#;

#[test]
fn every_kind_of_table_is_the_same_on_one_two_and_three_threads() {
    let dir = scratch("tables");
    fs::write(dir.join("sub134.rhai"), SUB134).unwrap();
    fs::write(dir.join("chains.rhai"), CHAINS).unwrap();
    let mut tables: Vec<Vec<&str>> = vec![
        // A heap rule, its values by theory: every cell on its own.
        vec!["table", "sub[1, 3, 4](n) + bash[3](n)", "n=0..3000"],
        // Boards over two variables, searched cell by cell or in one graph.
        vec!["table", "cram(x, y)", "x=1..3", "y=1..6"],
        vec!["table", "--json", "wythoff(x, y)", "x=0..40", "y=0..40"],
        // Misère play, one search per cell.
        vec!["table", "--outcome", "misere(dawson_kayles(n))", "n=0..22"],
        // A table with more threads than cells.
        vec!["table", "nim(n)", "n=0..1"],
    ];
    if cfg!(feature = "script") {
        tables.push(vec![
            "table",
            "--format",
            "csv",
            "script[@sub134.rhai](n)",
            "n=0..1500",
        ]);
        // Cells searched one by one, shared among the threads after a while.
        tables.push(vec![
            "table",
            "--outcome",
            "misere(script[@chains.rhai](n))",
            "n=0..59",
        ]);
    }
    for args in tables {
        let answers: Vec<String> = ["1", "2", "3"]
            .iter()
            .map(|threads| {
                let mut with_threads = args.clone();
                with_threads.extend(["--threads", threads]);
                let output = grundy_in(&dir, &with_threads);
                assert!(output.status.success(), "{args:?}: {}", stderr(&output));
                stdout(&output)
            })
            .collect();
        assert!(answers[0].contains('1'), "{args:?}: {}", answers[0]);
        assert_eq!(answers[1], answers[0], "{args:?} on 2 threads");
        assert_eq!(answers[2], answers[0], "{args:?} on 3 threads");
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_failing_first_cell_stops_the_other_threads_at_once() {
    // Cell 0 has no nimber and fails at once; the cells after it take seconds each
    // (minutes in all): they are cancelled, not finished, before the error is told.
    let args = ["table", "misere(dawson_kayles(n))", "n=0..2000"];
    let one = grundy(&[&args[..], &["--threads", "1"]].concat());
    assert_eq!(one.status.code(), Some(2), "{}", stderr(&one));
    assert!(
        stderr(&one).contains("`misere(dawson_kayles(0))` has no nimber"),
        "{}",
        stderr(&one)
    );
    for threads in ["2", "3"] {
        let output = crate::support::grundy_within(
            &[&args[..], &["--threads", threads]].concat(),
            std::time::Duration::from_secs(5),
        );
        assert_eq!(
            output.status.code(),
            one.status.code(),
            "{}",
            stderr(&output)
        );
        assert_eq!(stderr(&output), stderr(&one), "{threads} threads");
        assert_eq!(stdout(&output), stdout(&one), "{threads} threads");
    }
}

#[test]
#[cfg(feature = "script")]
fn the_cells_before_a_failure_finish_and_may_fail_first() {
    // Cell 0 is slow (a chain of 100000 positions), cell 1 fails at once: the
    // failure of cell 1 is told only once cell 0 is known to succeed. In the
    // second script cell 0 fails too, at the end of its chain, and is the one told.
    let dir = scratch("failures");
    let script = |failing: &str| {
        format!(
            "fn moves(n) {{\n  if {failing} {{ throw \"no moves\"; }}\n  if n == 0 {{ return [100000]; }}\n  if n > 2 {{ [n - 1] }} else {{ [] }}\n}}\n"
        )
    };
    fs::write(dir.join("second.rhai"), script("n == 1")).unwrap();
    fs::write(dir.join("first.rhai"), script("n == 1 || n == 5")).unwrap();
    for (file, cell) in [("second.rhai", "n = 1"), ("first.rhai", "n = 0")] {
        let expression = format!("script[@{file}](n)");
        let answers: Vec<_> = ["1", "2", "3"]
            .iter()
            .map(|threads| {
                grundy_in(
                    &dir,
                    &["table", &expression, "n=0..40", "--threads", threads],
                )
            })
            .collect();
        for (output, threads) in answers.iter().zip(["1", "2", "3"]) {
            assert_eq!(output.status.code(), Some(2), "{file}: {}", stderr(output));
            assert!(
                stderr(output).contains(&format!("\nin the cell {cell}\n")),
                "{file} on {threads} threads: {}",
                stderr(output)
            );
            assert_eq!(stderr(output), stderr(&answers[0]), "{file}");
        }
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
#[cfg(feature = "script")]
fn a_failure_cancels_the_later_cells_running_on_other_threads() {
    // Misère cells, each searched alone ([`CHAINS`]): cells 0 to 59 take
    // milliseconds each, cell 60 fails, and each cell after it takes minutes: the
    // thread computing one when cell 60 fails is stopped, and the error told at
    // once.
    let dir = scratch("cancel");
    fs::write(dir.join("chains.rhai"), CHAINS).unwrap();
    let args = [
        "table",
        "--outcome",
        "misere(script[@chains.rhai](n))",
        "n=0..80",
        "--max-states",
        "200000000",
        "--threads",
    ];
    let one = grundy_in(&dir, &[&args[..], &["1"]].concat());
    assert_eq!(one.status.code(), Some(2), "{}", stderr(&one));
    assert!(
        stderr(&one).ends_with("the end of the chain\nin the cell n = 60\n"),
        "{}",
        stderr(&one)
    );
    for threads in ["2", "3"] {
        let child = crate::support::command()
            .args([&args[..], &[threads]].concat())
            .current_dir(&dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let output =
            crate::support::wait_within(child, std::time::Duration::from_secs(10), "table");
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert_eq!(stderr(&output), stderr(&one), "{threads} threads");
    }
    let _ = fs::remove_dir_all(&dir);
}
