//! `--threads N`: `seq` files, tables and Chomp answers are the same byte for byte
//! on 1, 2 and 7 threads (more threads than this machine's cores), and a bad count
//! is exit 2.

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
