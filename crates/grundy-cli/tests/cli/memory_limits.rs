//! `--max-memory` binds every search, not only the values of heap rules: each
//! position below once took gigabytes (or aborted asking for 125 GB) whatever
//! the limit. Under `--max-memory 256M` each now answers or stops with exit 3
//! naming the flag, and the process never holds more than 400 MB.

#![cfg(target_os = "linux")]

use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::support::command;

/// How a run ended: its exit code (`None` when a signal killed it), its peak
/// resident memory in bytes, and its standard error.
struct Run {
    code: Option<i32>,
    peak_bytes: u64,
    stderr: String,
}

/// Runs grundy with its output thrown away and returns how it ended, with its
/// peak resident memory as the kernel counted it (`ru_maxrss` of wait4(2), for
/// this child alone). Killed after `guard`, so that a regression fails the
/// test instead of holding CI.
#[allow(
    unsafe_code,
    reason = "wait4(2) and kill(2) through libc, the only way to these figures"
)]
#[allow(
    clippy::zombie_processes,
    reason = "the child is reaped by wait4, not by `Child`"
)]
fn run(args: &[&str], guard: Duration) -> Run {
    let stderr_path = std::env::temp_dir().join(format!(
        "grundy-memory-limits-{}-{}.txt",
        std::process::id(),
        args.join(" ").len()
    ));
    let stderr_file = std::fs::File::create(&stderr_path).unwrap();
    let child = command()
        .args(args)
        .stdout(Stdio::null())
        .stderr(stderr_file)
        .spawn()
        .unwrap();
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let start = Instant::now();
    let mut status = 0;
    // SAFETY: `rusage` is plain integers, for which zero bytes are a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: `status` and `usage` are valid for writes, and `pid` is our
        // child, not yet waited for (`Child` never waits unless asked).
        let reaped = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if reaped == pid {
            break;
        }
        assert!(reaped == 0, "wait4: {}", std::io::Error::last_os_error());
        if start.elapsed() > guard {
            // SAFETY: `pid` is our child, not yet reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("`grundy {}` still ran after {guard:?}", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
    let _ = std::fs::remove_file(&stderr_path);
    Run {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        peak_bytes: u64::try_from(usage.ru_maxrss).unwrap() * 1024,
        stderr,
    }
}

const LIMIT: &str = "256M";
const MOST_RESIDENT: u64 = 400 << 20;

/// Solves `expression` (with `extra` flags) under `--max-memory 256M`: the run
/// must end with one of `codes`, within 400 MB; returns how it ended.
fn within_limit(expression: &str, extra: &[&str], codes: &[i32]) -> Run {
    let mut args = vec!["solve", "--max-memory", LIMIT];
    args.extend(extra);
    args.push(expression);
    let ended = run(&args, Duration::from_secs(120));
    assert!(
        ended.code.is_some_and(|code| codes.contains(&code)),
        "`grundy {}` ended with {:?}, not one of {codes:?}: {}",
        args.join(" "),
        ended.code,
        ended.stderr
    );
    assert!(
        ended.peak_bytes < MOST_RESIDENT,
        "`grundy {}` held {} MB",
        args.join(" "),
        ended.peak_bytes >> 20
    );
    if ended.code == Some(3) {
        assert!(
            ended.stderr.contains("--max-memory") || ended.stderr.contains("--max-states"),
            "a limit names the flag that raises it: {}",
            ended.stderr
        );
    }
    assert!(
        !ended.stderr.contains("internal error"),
        "`grundy {}`: {}",
        args.join(" "),
        ended.stderr
    );
    ended
}

#[test]
fn wythoff_nimbers_of_long_thin_boards_stay_within_the_limit() {
    // Each aborted (exit 134) asking for up to 125 GB, or took 2.7 to 3.2 GB.
    for expression in [
        "wythoff(1, 999999)",
        "wythoff(1, 450000)",
        "wythoff(999999, 1)",
        "wythoff(1, 999999) + nim(1)",
        "wythoff(0, 18446744073709551615)",
        "wythoff(4294967295, 18446744073709551615)",
        "wythoff(1, 400000)",
        "wythoff(3, 330701)",
        "wythoff(5, 333000)",
    ] {
        within_limit(expression, &[], &[0, 3]);
    }
}

#[test]
fn wythoff_with_a_pile_of_2_to_the_64_does_not_panic() {
    // Each panicked: "range end index 1 out of range for slice of length 0".
    for expression in [
        "wythoff(4, 18446744073709551615)",
        "wythoff(18446744073709551615, 4)",
        "wythoff(1, 18446744073709551615)",
    ] {
        within_limit(expression, &[], &[0, 3]);
    }
}

#[test]
fn a_misere_search_counts_its_bytes() {
    // 14.7 GB in 42 s, and 3.25 GB before its exit 3: `--max-states` counted
    // positions, each here a multiset of hundreds of components.
    // Kayles is answered by its misère quotient now; Dawson's Kayles is searched.
    for expression in [
        "misere(dawson_kayles(5..300))",
        "misere(dawson_kayles(5..100))",
    ] {
        let ended = within_limit(expression, &[], &[3]);
        assert!(
            ended.stderr.contains("raise it with --max-memory BYTES"),
            "{}",
            ended.stderr
        );
    }
}

#[test]
fn a_staircase_of_a_million_steps_lists_its_moves_within_the_limit() {
    // 2.41 GB, and a 797 MB JSON: each listed move held a whole copy of the
    // million steps.
    let text = within_limit("staircase(3, 1..1000000, 7)", &[], &[0]);
    assert!(text.stderr.is_empty(), "{}", text.stderr);
    within_limit("staircase(3, 1..1000000, 7)", &["--json"], &[0]);
}

#[test]
fn the_listed_moves_say_why_they_are_fewer() {
    let output = command()
        .args([
            "solve",
            "--json",
            "--max-memory",
            LIMIT,
            "staircase(3, 1..1000000, 7)",
        ])
        .output()
        .unwrap();
    assert!(output.status.success());
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answer["winning_move_count"], 328_194);
    assert_eq!(answer["truncated"], true);
    let listed = answer["winning_moves"].as_array().unwrap().len();
    assert!((1..100).contains(&listed), "{listed} listed");
    let notes = answer["notes"].as_array().unwrap();
    assert!(
        notes.iter().any(|note| note
            .as_str()
            .unwrap()
            .contains("--max-memory BYTES lists more")),
        "{notes:?}"
    );
}
