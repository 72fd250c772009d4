//! What the tests of the binary share: running `grundy` and reading its answers.

use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// A command running the binary under test, to be given its arguments.
pub fn command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
}

/// Runs `grundy ARGS` to its end and gives what it wrote and its exit status.
pub fn grundy(args: &[&str]) -> Output {
    command().args(args).output().unwrap()
}

/// Runs `grundy ARGS`, killing it after `guard`: a hang guard, far above the time the
/// command takes, so that a regression fails the test instead of hanging CI.
pub fn grundy_within(args: &[&str], guard: Duration) -> Output {
    wait_within(spawn_piped(args), guard, &args.join(" "))
}

/// Starts `grundy ARGS` with its standard output and error piped.
pub fn spawn_piped(args: &[&str]) -> std::process::Child {
    command()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for `child` (the run of `grundy WHAT`), killing it after `guard`.
pub fn wait_within(mut child: Child, guard: Duration, what: &str) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > guard {
            child.kill().unwrap();
            panic!("`grundy {what}` still ran after {guard:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

/// Standard output, which must be UTF-8.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// Standard error, as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The JSON answer of a run that must have succeeded.
pub fn json_of(output: &Output) -> Value {
    assert!(output.status.success(), "{}", stderr(output));
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The JSON answer of `grundy ARGS`, which must succeed.
pub fn json(args: &[&str]) -> Value {
    json_of(&grundy(args))
}

/// The JSON answer of `grundy solve --json EXPRESSION`, which must succeed.
pub fn solve_json(expression: &str) -> Value {
    json(&["solve", "--json", expression])
}
