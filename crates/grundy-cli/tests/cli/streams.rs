//! Closed and broken output streams: errors and answers that
//! cannot be written end the run quietly with the documented exit code, never
//! with an abort.

use std::io::{Read, pipe};
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, ExitStatus, Stdio};

use crate::support::command;

/// A stream whose reader is gone: a write to it fails with EPIPE.
fn broken_pipe() -> Stdio {
    let (reader, writer) = pipe().unwrap();
    drop(reader);
    writer.into()
}

/// The exit code, after checking that no signal (SIGABRT: 134 in a shell) ended the run.
fn code(status: ExitStatus, what: &str) -> i32 {
    assert_eq!(status.signal(), None, "{what}: killed by a signal");
    status.code().unwrap()
}

/// Runs `args` with standard error a broken pipe.
fn with_broken_stderr(args: &[&str]) -> i32 {
    let status = command()
        .args(args)
        .stdout(Stdio::null())
        .stderr(broken_pipe())
        .status()
        .unwrap();
    code(status, &format!("{args:?}"))
}

/// Runs `args` with standard output a broken pipe.
fn with_broken_stdout(args: &[&str]) -> i32 {
    let status = command()
        .args(args)
        .stdout(broken_pipe())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    code(status, &format!("{args:?}"))
}

#[test]
fn errors_to_a_broken_stderr_keep_their_exit_code() {
    assert_eq!(with_broken_stderr(&["solve", "nim(3"]), 2);
    assert_eq!(with_broken_stderr(&["solve", "nim(1, x)"]), 2);
    assert_eq!(with_broken_stderr(&["games", "no_such_game"]), 2);
    assert_eq!(with_broken_stderr(&["seq", "kayles(3)", "-n", "5"]), 2);
    assert_eq!(with_broken_stderr(&["pairs", "nim", "-n", "5"]), 2);
    assert_eq!(with_broken_stderr(&["solve", "--no-such-flag"]), 2);
    assert_eq!(
        with_broken_stderr(&["solve", "--max-digits", "5", "nim(1234567)"]),
        3
    );
    assert_eq!(
        with_broken_stderr(&["seq", "octal[0.9]", "-n", "100000"]),
        3
    );
    // Both streams broken: still the error's code.
    let status = command()
        .args(["solve", "nim(3"])
        .stdout(broken_pipe())
        .stderr(broken_pipe())
        .status()
        .unwrap();
    assert_eq!(code(status, "both broken"), 2);
}

#[test]
fn errors_with_stderr_closed_keep_their_exit_code() {
    let program = env!("CARGO_BIN_EXE_grundy");
    for (command, expected) in [
        ("solve 'nim(3'", 2),
        ("solve --max-digits 5 'nim(1234567)'", 3),
        ("games no_such_game", 2),
    ] {
        // Standard error closed, and standard output a pipe that `head` closes
        // after one byte; the status of grundy itself is taken.
        for tail in ["", " | head -c 1"] {
            let script = format!("'{program}' {command} 2>&-{tail}; exit ${{PIPESTATUS[0]}}");
            let status = Command::new("bash")
                .args(["-c", &script])
                .stdout(Stdio::null())
                .status()
                .unwrap();
            assert_eq!(code(status, &script), expected, "{script}");
        }
    }
}

#[test]
fn answers_to_a_broken_stdout_exit_quietly() {
    for args in [
        &["solve", "nim(3, 5, 7)"][..],
        &["solve", "--json", "nim(3, 5, 7)"],
        &["seq", "kayles", "-n", "100000"],
        &["seq", "--json", "kayles", "-n", "100000"],
        &["games"],
        &["games", "nim"],
        &["pairs", "wythoff", "-n", "1000"],
        &["completions", "bash"],
        &["--help"],
    ] {
        assert_eq!(with_broken_stdout(args), 0, "{args:?}");
    }
    // An error is still an error when nothing could be printed either.
    assert_eq!(with_broken_stdout(&["solve", "nim(3"]), 2);
}

#[test]
fn a_batch_with_broken_streams_keeps_the_worst_exit_code() {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("streams-batch.txt");
    std::fs::write(&path, "nim(3\nnim(1)\nnim(1234567)\nnim(2)\n").unwrap();
    let path = path.to_str().unwrap();
    // Standard output is broken at the first answer (line 2): line 1's error was met.
    assert_eq!(with_broken_stdout(&["solve", "--file", path]), 2);
    assert_eq!(
        with_broken_stderr(&["solve", "--file", path, "--max-digits", "5"]),
        3
    );
}

#[test]
fn a_reader_that_stops_early_ends_the_run_quietly() {
    // Many winning moves, each `to` a long position: far more than a pipe holds.
    let heaps = vec!["1"; 2001].join(", ");
    let position = format!("nim({heaps})");
    let mut child = command()
        .args(["solve", "--json", "--max-moves", "2001"])
        .arg(&position)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut start = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut start).unwrap();
    // The read end is dropped here, before the answer is all written.
    let output = child.wait_with_output().unwrap();
    assert_eq!(code(output.status, "early close"), 0);
    assert!(output.stderr.is_empty(), "{:?}", output.stderr);
}
