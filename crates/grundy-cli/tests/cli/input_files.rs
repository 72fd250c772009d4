//! Inputs read from files (`@PATH`, `--file PATH`): only regular files, within
//! the memory limit. A device, a FIFO or a directory is exit 2 naming the path at
//! once, never a read that does not end or a wait for a writer; a file larger
//! than `--max-memory` is exit 3 naming it.

use std::time::Duration;

use crate::support::{grundy_within, stderr};

/// A guard far above the milliseconds a refusal takes: a read of `/dev/zero`
/// would run into it.
const GUARD: Duration = Duration::from_secs(20);

/// `grundy ARGS` exits with `code` and an error naming `needle`.
fn refused(args: &[&str], code: i32, needle: &str) {
    let output = grundy_within(args, GUARD);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(code), "{args:?}: {message}");
    assert!(message.starts_with("error: "), "{args:?}: {message}");
    assert!(
        message.contains(needle),
        "{args:?}: {message:?} lacks {needle:?}"
    );
}

#[test]
fn devices_and_directories_are_not_read() {
    for position in [
        "nim(@/dev/zero)",
        "nim(@/dev/urandom)",
        "dag(@/dev/zero, 1)",
        "prefix_game(@/dev/zero)",
    ] {
        refused(&["solve", position], 2, "`/dev/");
        refused(&["solve", position], 2, "not a regular file");
    }
    let folder = std::env::temp_dir();
    let position = format!("nim(@{})", folder.display());
    refused(&["solve", &position], 2, "a directory, not a regular file");
    refused(
        &["solve", "--file", "/dev/zero"],
        2,
        "`/dev/zero`: it is not a regular file",
    );
}

#[cfg(feature = "script")]
#[test]
fn a_script_is_read_from_a_regular_file_only() {
    refused(&["solve", "script[@/dev/zero](3)"], 2, "not a regular file");
}

#[test]
fn a_fifo_is_refused_without_waiting_for_a_writer() {
    let path = std::env::temp_dir().join(format!("grundy-fifo-{}", std::process::id()));
    let made = std::process::Command::new("mkfifo").arg(&path).status();
    if !made.is_ok_and(|status| status.success()) {
        eprintln!("no mkfifo here: the FIFO case is not run");
        return;
    }
    let position = format!("nim(@{})", path.display());
    refused(
        &["solve", &position],
        2,
        "a FIFO (named pipe), not a regular file",
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_file_larger_than_the_memory_limit_is_refused() {
    let path = std::env::temp_dir().join(format!("grundy-big-heaps-{}", std::process::id()));
    std::fs::write(&path, "1\n".repeat(10_000)).unwrap();
    let position = format!("nim(@{})", path.display());
    refused(
        &["solve", "--max-memory", "4K", &position],
        3,
        "larger than the memory limit of 4096 bytes",
    );
    refused(
        &["solve", "--max-memory", "4K", &position],
        3,
        "--max-memory",
    );
    // Within the limit it is read.
    let output = grundy_within(&["solve", &position], GUARD);
    assert!(output.status.success(), "{}", stderr(&output));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_line_of_standard_input_is_bounded_by_the_memory_limit() {
    let mut child = crate::support::command()
        .args(["solve", "--max-memory", "1M", "--file", "-"])
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > GUARD {
            child.kill().unwrap();
            panic!("still reading /dev/zero after {GUARD:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let output = child.wait_with_output().unwrap();
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(3), "{message}");
    assert!(
        message.contains("line 1") && message.contains("--max-memory"),
        "{message}"
    );
}

/// `grundy ARGS` with `input` on its standard input.
fn with_input(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = crate::support::command()
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // The command may refuse before reading: a closed pipe is not an error here.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().unwrap()
}

/// `@-` reads the standard input, as judges give it: heaps, a graph, once a
/// command, within the memory limit.
#[test]
fn positions_read_from_standard_input() {
    let output = with_input(&["solve", "--json", "nim(@-)"], "3 5\n7\n");
    assert!(output.status.success(), "{}", stderr(&output));
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answer["nimber"], 1);
    assert_eq!(answer["winning_move_count"], 3);

    let output = with_input(&["solve", "--json", "dag(@-, 1)"], "3 2\n1 2\n2 3\n");
    assert!(output.status.success(), "{}", stderr(&output));
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answer["nimber"], 0);

    // Once a command.
    let output = with_input(&["solve", "nim(@-) + nim(@-)"], "1 2\n");
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("read already"),
        "{}",
        stderr(&output)
    );
    let output = with_input(&["solve", "--file", "-"], "nim(@-)\n");
    assert!(
        stderr(&output).contains("read already"),
        "{}",
        stderr(&output)
    );

    // Within the memory limit: exit 3 naming it.
    let output = with_input(
        &["solve", "nim(@-)", "--max-memory", "1K"],
        &"1 ".repeat(4000),
    );
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("--max-memory"),
        "{}",
        stderr(&output)
    );
}

/// The judges' heap file, its count first: read as such with `:counted`, every
/// integer a heap with `:all`, and refused when plain, where either reading could
/// be meant (it used to become one more heap, silently).
#[test]
fn a_heap_file_with_its_count_first_is_read_as_asked() {
    let dir = std::env::temp_dir().join(format!("grundy-counted-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let judged = dir.join("judged.txt");
    std::fs::write(&judged, "3\n4 5 6\n").unwrap();
    let short = dir.join("short.txt");
    std::fs::write(&short, "3\n4 5\n").unwrap();
    let judged = judged.to_str().unwrap();
    let nimber = |position: &str| {
        let output = grundy_within(&["solve", "--json", position], GUARD);
        assert!(output.status.success(), "{position}: {}", stderr(&output));
        let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        answer["nimber"].as_u64().unwrap()
    };
    assert_eq!(nimber(&format!("nim(@{judged}:counted)")), 4 ^ 5 ^ 6);
    assert_eq!(nimber(&format!("nim(@{judged}:all)")), 3 ^ 4 ^ 5 ^ 6);
    refused(&["solve", &format!("nim(@{judged})")], 2, ":counted");
    refused(
        &[
            "solve",
            &format!("nim(@{}:counted)", short.to_str().unwrap()),
        ],
        2,
        "gives the count 3, but 2 heaps follow it",
    );
    // A file whose first line is not a count of the rest is read as before.
    assert_eq!(
        nimber(&format!("nim(@{})", short.to_str().unwrap())),
        3 ^ 4 ^ 5
    );
    // The standard input too.
    let output = with_input(&["solve", "--json", "nim(@-:counted)"], "2\n1 3\n");
    assert!(output.status.success(), "{}", stderr(&output));
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answer["nimber"], 2);
    std::fs::remove_dir_all(&dir).unwrap();
}
