//! Ctrl-C (SIGINT) keeps what was computed: `seq` writes the values
//! done (or leaves them in its `--out` file, from which a rerun resumes), and
//! the exit code is 130. (`table`'s case is in table.rs.)
#![cfg(target_os = "linux")]

use std::process::Output;
use std::time::Duration;

use crate::support::{command, spawn_piped};

/// Runs grundy with `args`, sends SIGINT after `after`, and waits.
fn interrupted(args: &[&str], after: Duration) -> Output {
    let child = spawn_piped(args);
    std::thread::sleep(after);
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: kill(2) on our own child's pid; no memory is touched.
    #[allow(unsafe_code)]
    unsafe {
        libc::kill(pid, libc::SIGINT);
    }
    child.wait_with_output().unwrap()
}

fn values_of(text: &str) -> Vec<u64> {
    let json: serde_json::Value = serde_json::from_str(text).unwrap();
    json["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect()
}

#[test]
fn seq_writes_the_values_computed_before_ctrl_c() {
    let output = interrupted(
        &["seq", "--json", "grundy_game", "-n", "300000000"],
        Duration::from_millis(2500),
    );
    let error = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{error}");
    assert!(error.contains("interrupted (Ctrl-C)"), "{error}");
    let partial = values_of(&String::from_utf8(output.stdout).unwrap());
    assert!(
        partial.len() > 1000 && partial.len() < 300_000_001,
        "{}",
        partial.len()
    );
    // They are the values: the same as a complete run of the first 5000.
    let whole = command()
        .args(["seq", "--json", "grundy_game", "-n", "4999"])
        .output()
        .unwrap();
    assert_eq!(
        values_of(&String::from_utf8(whole.stdout).unwrap()),
        partial[..5000]
    );
}

#[test]
fn seq_out_keeps_the_values_and_a_rerun_resumes() {
    let dir = std::env::temp_dir().join(format!("grundy-interrupt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("g.txt");
    let path = path.to_str().unwrap();
    let output = interrupted(
        &["seq", "grundy_game", "-n", "300000000", "--out", path],
        Duration::from_millis(2500),
    );
    let error = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{error}");
    assert!(
        error.contains("running the command again resumes"),
        "{error}"
    );
    let held = std::fs::read_to_string(path).unwrap().lines().count();
    assert!(held > 1000, "{held} values kept");
    // A rerun to a little past what is held checks it and completes.
    let last = (held + 1000).to_string();
    let rerun = command()
        .args(["seq", "grundy_game", "-n", &last, "--out", path])
        .output()
        .unwrap();
    assert!(
        rerun.status.success(),
        "{}",
        String::from_utf8_lossy(&rerun.stderr)
    );
    let fresh = dir.join("fresh.txt");
    let fresh = fresh.to_str().unwrap();
    let whole = command()
        .args(["seq", "grundy_game", "-n", &last, "--out", fresh])
        .output()
        .unwrap();
    assert!(whole.status.success());
    assert_eq!(
        std::fs::read_to_string(path).unwrap(),
        std::fs::read_to_string(fresh).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Ctrl-C during `grundy quotient` (Dawson's Kayles until proven, which runs for
/// minutes) reports the orders of the quotients computed, as `--max-time` does,
/// and exits 130.
#[test]
fn quotient_reports_the_orders_computed_before_ctrl_c() {
    let output = interrupted(&["quotient", "octal[0.07]"], Duration::from_millis(2500));
    let error = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{error}");
    assert!(error.contains("interrupted (Ctrl-C)"), "{error}");
    assert!(
        error.contains("the orders of the quotients for heaps <= k, k = 0.."),
        "{error}"
    );
    // Dawson's Kayles: orders 1, 1, 2, 2, 6, ... from heap 0.
    assert!(error.contains(": 1, 1, 2, 2, 6"), "{error}");
}
