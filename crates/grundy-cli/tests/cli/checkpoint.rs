//! `grundy solve --checkpoint FILE`: a search stopped by `--max-time`,
//! Ctrl-C or a crash resumes from FILE and answers as one run; a file of
//! another position or version, or damaged, is refused (exit 2), one larger
//! than the limits allow is exit 3, and a position whose search keeps no
//! checkpoint is refused.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{grundy_within, spawn_piped, stderr, stdout, wait_within};

/// Runs grundy, killing it after a generous guard.
fn grundy(args: &[&str]) -> Output {
    grundy_within(args, Duration::from_secs(300))
}

/// A scratch directory of its own for each test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-checkpoint-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `grundy [--max-time T] solve --json --checkpoint PATH MORE... BOARD`.
fn solve(board: &str, path: &Path, max_time: Option<f64>, more: &[&str]) -> Output {
    let time = max_time.map(|t| format!("{t:.3}"));
    let mut args: Vec<&str> = Vec::new();
    if let Some(time) = &time {
        args.extend(["--max-time", time]);
    }
    args.extend(["solve", "--json", "--checkpoint", path.to_str().unwrap()]);
    args.extend_from_slice(more);
    args.push(board);
    grundy(&args)
}

/// The regions a run searched, from the answer's note on the checkpoint.
fn searched(answer: &Value) -> u64 {
    let note = answer["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .find(|note| note.starts_with("checkpoint "))
        .unwrap_or_else(|| panic!("no note on the checkpoint: {answer}"));
    let before = note.split(" regions searched in this run").next().unwrap();
    before.rsplit(' ').next().unwrap().parse().unwrap()
}

/// The answer without its notes (which tell of the checkpoint).
fn without_notes(answer: &Value) -> Value {
    let mut answer = answer.clone();
    answer.as_object_mut().unwrap().remove("notes");
    answer
}

/// A small xorshift generator for the stopping times, seeded from the clock
/// (the seed is in every failure's message).
struct Random(u64);

impl Random {
    fn seeded() -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        Self(u64::from(nanos) | 1)
    }

    /// A number in `[low, high)`.
    fn between(&mut self, low: f64, high: f64) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        low + (high - low) * (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Runs `board` with `more` under time limits of random fractions (from
/// `low` to `high`) of `cold` seconds, each run resuming from `path`, until
/// one answers: the answer and the number of runs stopped.
fn in_pieces(
    board: &str,
    path: &Path,
    more: &[&str],
    cold: f64,
    (low, high): (f64, f64),
    seed: &mut Random,
) -> (Value, usize) {
    let start = seed.0;
    for stopped in 0..60 {
        let limit = (cold * seed.between(low, high)).max(0.05);
        let output = solve(board, path, Some(limit), more);
        match output.status.code() {
            Some(0) => {
                let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
                return (answer, stopped);
            }
            Some(3) => {
                let error = stderr(&output);
                assert!(
                    error.contains("the time limit") && error.contains("progress is saved"),
                    "seed {start}: {error}"
                );
                assert!(path.is_file(), "seed {start}: no checkpoint after a stop");
            }
            code => panic!("seed {start}: exit {code:?}: {}", stderr(&output)),
        }
    }
    panic!("seed {start}: not answered in 60 runs");
}

/// `cram(5, 8)` (two or three seconds here) stopped at random moments and
/// resumed until it answers: the answer of one uninterrupted run, and the
/// run that answers searched fewer regions than the uninterrupted one. Then
/// the same on two threads with the winning moves, on `cram(5, 6)`.
#[test]
fn a_search_stopped_at_random_moments_and_resumed_answers_as_one_run() {
    let dir = scratch("pieces");
    let mut seed = Random::seeded();
    let board = "cram(5, 8)";
    let more = ["--no-moves", "--threads", "1"];
    let started = Instant::now();
    let cold = solve(board, &dir.join("cold"), None, &more);
    let cold_time = started.elapsed().as_secs_f64();
    let cold: Value = serde_json::from_slice(&cold.stdout).unwrap();
    assert_eq!(cold["nimber"], 1, "{cold}");
    let (answer, stopped) = in_pieces(
        board,
        &dir.join("pieces"),
        &more,
        cold_time,
        (0.1, 0.45),
        &mut seed,
    );
    assert!(
        stopped >= 2,
        "stopped only {stopped} times in {cold_time} s"
    );
    assert_eq!(without_notes(&answer), without_notes(&cold));
    assert!(
        searched(&answer) < searched(&cold),
        "the last run searched {} regions, a run from nothing {}",
        searched(&answer),
        searched(&cold)
    );
    // Answered, the file answers again without a search.
    let again = solve(board, &dir.join("pieces"), None, &more);
    let again: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(searched(&again), 0, "{again}");
    // The winning moves too, on two threads.
    let board = "cram(5, 6)";
    let more = ["--threads", "2", "--max-moves", "1000"];
    let started = Instant::now();
    let cold = solve(board, &dir.join("cold-moves"), None, &more);
    let cold_time = started.elapsed().as_secs_f64();
    let cold: Value = serde_json::from_slice(&cold.stdout).unwrap();
    assert!(cold["winning_move_count"].as_u64().unwrap() > 0, "{cold}");
    let (answer, _) = in_pieces(
        board,
        &dir.join("moves"),
        &more,
        cold_time,
        (0.2, 0.6),
        &mut seed,
    );
    assert_eq!(without_notes(&answer), without_notes(&cold));
}

/// A file of another board, of another grundy version, or that is no
/// checkpoint at all, is refused with exit 2 naming the file and why, and
/// left as it was.
#[test]
fn a_checkpoint_of_another_position_or_version_is_refused() {
    let dir = scratch("other");
    let path = dir.join("four-by-five");
    let made = solve("cram(4, 5)", &path, None, &["--no-moves"]);
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    let bytes = std::fs::read(&path).unwrap();
    let name = path.display().to_string();
    let refused = |board: &str, why: &str| {
        let output = solve(board, &path, None, &[]);
        let error = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{board}: {error}");
        assert!(
            error.starts_with("error: ") && error.contains(&name) && error.contains(why),
            "{board}: {error}"
        );
        assert!(stdout(&output).is_empty());
    };
    refused("cram(5, 4)", "another position");
    refused("cram(\"...../...../...../....#\")", "another position");
    // Even a board that needs no search.
    refused("cram(4, 4)", "another position");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        bytes,
        "a refused file changed"
    );
    // Another version: its version text changed.
    let mut other = bytes.clone();
    other[8 + 4 + 2] = b'7';
    std::fs::write(&path, &other).unwrap();
    refused("cram(4, 5)", "written by grundy 7");
    assert_eq!(std::fs::read(&path).unwrap(), other);
    // Not a checkpoint.
    std::fs::write(&path, "cram(4, 5) = 2\n").unwrap();
    refused("cram(4, 5)", "not a grundy checkpoint");
    // A directory, and a file that cannot be written.
    refused_at(&dir, "cram(4, 5)", "not a regular file");
    refused_at(
        &dir.join("no/such/dir/f"),
        "cram(4, 5)",
        "cannot write the checkpoint",
    );
}

fn refused_at(path: &Path, board: &str, why: &str) {
    let output = solve(board, path, None, &[]);
    let error = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{error}");
    assert!(
        error.starts_with("error: ") && error.contains(why),
        "{error}"
    );
}

/// A checkpoint cut short or with bytes changed anywhere is refused (exit 2,
/// never a panic) and left as it was; the intact file still answers.
#[test]
fn a_damaged_or_truncated_checkpoint_is_refused() {
    let dir = scratch("damaged");
    let path = dir.join("board");
    let board = "cram(\"...../...#./...../.....\")";
    let made = solve(board, &path, None, &["--no-moves"]);
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    let bytes = std::fs::read(&path).unwrap();
    let mut seed = Random::seeded();
    let start = seed.0;
    let mut damaged: Vec<Vec<u8>> = [
        0,
        5,
        8,
        20,
        bytes.len() / 2,
        bytes.len() - 8,
        bytes.len() - 1,
    ]
    .into_iter()
    .map(|cut| bytes[..cut].to_vec())
    .collect();
    for _ in 0..12 {
        let mut changed = bytes.clone();
        let at = seed.between(0.0, bytes.len() as f64) as usize;
        changed[at] ^= 1 << (at % 8);
        damaged.push(changed);
    }
    let mut longer = bytes.clone();
    longer.extend_from_slice(b"more");
    damaged.push(longer);
    for (k, file) in damaged.iter().enumerate() {
        std::fs::write(&path, file).unwrap();
        let output = solve(board, &path, None, &["--no-moves"]);
        let error = stderr(&output);
        assert_eq!(
            output.status.code(),
            Some(2),
            "seed {start}, case {k}: {error}"
        );
        assert!(
            error.starts_with("error: the checkpoint `") && !error.contains("internal error"),
            "seed {start}, case {k}: {error}"
        );
        assert_eq!(&std::fs::read(&path).unwrap(), file, "case {k} changed");
    }
    std::fs::write(&path, &bytes).unwrap();
    let output = solve(board, &path, None, &["--no-moves"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

/// A checkpoint holding more regions than `--max-memory` or `--max-states`
/// let the search store is exit 3, naming the limit and its flag.
#[test]
fn a_checkpoint_larger_than_the_limits_is_refused_with_exit_3() {
    let dir = scratch("large");
    let path = dir.join("board");
    let made = solve("cram(5, 6)", &path, None, &["--no-moves"]);
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    for (flag, value, message) in [
        ("--max-memory", "64K", "raise it with --max-memory BYTES"),
        ("--max-states", "1000", "raise it with --max-states N"),
    ] {
        let output = solve("cram(5, 6)", &path, None, &[flag, value]);
        let error = stderr(&output);
        assert_eq!(output.status.code(), Some(3), "{flag}: {error}");
        assert!(
            error.starts_with("error: the checkpoint `") && error.contains(message),
            "{flag}: {error}"
        );
    }
}

/// `--checkpoint` on a position whose search keeps none is exit 2 saying
/// so, never ignored; with `--file`, or `--checkpoint-every` alone, a usage
/// error.
#[test]
fn a_checkpoint_for_a_position_that_cannot_keep_one_is_refused() {
    let dir = scratch("refused");
    let path = dir.join("never");
    for (position, why) in [
        ("chomp(4, 5)", "answered otherwise"),
        ("nim(7)", "answered otherwise"),
        ("nim(3, 5)", "a sum of 2 components"),
        ("misere(cram(3, 4))", "not played under normal play"),
        ("cram(3, 4) + cram(2, 3)", "a sum of 2 components"),
        ("cram(3, 4) + nim(1)", "a sum of 2 components"),
    ] {
        let output = solve(position, &path, None, &[]);
        let error = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{position}: {error}");
        assert!(
            error.starts_with("error: a checkpoint (--checkpoint) keeps") && error.contains(why),
            "{position}: {error}"
        );
        assert!(!path.exists(), "{position}: a file was written");
    }
    let list = dir.join("list");
    std::fs::write(&list, "cram(3, 4)\n").unwrap();
    for args in [
        vec![
            "solve",
            "--checkpoint",
            "x",
            "--file",
            list.to_str().unwrap(),
        ],
        vec!["solve", "--checkpoint-every", "1", "cram(3, 4)"],
    ] {
        let output = grundy(&args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

/// A search killed outright (SIGKILL, as a crash) after its periodic saves
/// resumes from the last of them.
#[test]
fn a_search_killed_resumes_from_its_last_periodic_save() {
    let dir = scratch("killed");
    let path = dir.join("board");
    let board = "cram(5, 8)";
    let args = [
        "solve",
        "--json",
        "--no-moves",
        "--threads",
        "1",
        "--checkpoint",
        path.to_str().unwrap(),
        "--checkpoint-every",
        "0.2",
        board,
    ];
    let mut child = spawn_piped(&args);
    std::thread::sleep(Duration::from_millis(700));
    child.kill().unwrap();
    let output = wait_within(child, Duration::from_secs(10), "killed");
    assert_ne!(
        output.status.code(),
        Some(0),
        "answered before it was killed"
    );
    let resumed = grundy(&args);
    let answer: Value =
        serde_json::from_slice(&resumed.stdout).unwrap_or_else(|_| panic!("{}", stderr(&resumed)));
    assert_eq!(answer["nimber"], 1);
    let note = answer["notes"][0].as_str().unwrap();
    assert!(
        note.contains("regions' nimbers at the start") && !note.contains("gave 0 "),
        "{note}"
    );
}

/// Ctrl-C stops the search, which saves its progress: exit 130, a note that
/// the progress is saved, and a rerun resumes from it.
#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_saves_the_progress_and_a_rerun_resumes() {
    let dir = scratch("ctrl-c");
    let path = dir.join("board");
    let args = [
        "solve",
        "--json",
        "--no-moves",
        "--threads",
        "1",
        "--checkpoint",
        path.to_str().unwrap(),
        "cram(5, 8)",
    ];
    let child = spawn_piped(&args);
    std::thread::sleep(Duration::from_millis(600));
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: kill(2) on our own child's pid; no memory is touched.
    #[allow(unsafe_code)]
    unsafe {
        libc::kill(pid, libc::SIGINT);
    }
    let output = wait_within(child, Duration::from_secs(30), "interrupted");
    let error = stderr(&output);
    assert_eq!(output.status.code(), Some(130), "{error}");
    assert!(
        error.contains("interrupted (Ctrl-C)") && error.contains("progress is saved"),
        "{error}"
    );
    let resumed = grundy(&args);
    let answer: Value = serde_json::from_slice(&resumed.stdout).unwrap();
    assert_eq!(answer["nimber"], 1);
    assert!(
        !answer["notes"][0]
            .as_str()
            .unwrap()
            .contains("started empty"),
        "{answer}"
    );
}
