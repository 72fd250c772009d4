//! `grundy seq --out FILE` resuming from FILE: every value already in
//! FILE is checked (by FILE.check, or by recomputing it), and a wrong one anywhere is
//! exit 2 naming its line and the right value, never a silent continue.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use crate::support::{grundy_within, stderr};

/// Runs grundy, killing it after a generous guard (each of these takes well under a
/// second), so that a regression fails the test instead of hanging.
fn grundy(args: &[&str]) -> Output {
    grundy_within(args, Duration::from_secs(60))
}

/// A scratch directory of its own for each test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-resume-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn check_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".check");
    PathBuf::from(name)
}

/// `grundy seq RULE -n LAST --out PATH [more]`.
fn seq_out(rule: &str, last: usize, path: &Path, more: &[&str]) -> Output {
    let last = last.to_string();
    let mut args = vec!["seq", rule, "-n", &last, "--out", path.to_str().unwrap()];
    args.extend_from_slice(more);
    grundy(&args)
}

/// Writes the 50,000 values of heaps 0..=49999 of `rule` to `path` (and its check
/// file), and gives them, one string a line.
fn fifty_thousand(rule: &str, path: &Path) -> Vec<String> {
    let output = seq_out(rule, 49_999, path, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let lines: Vec<String> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(lines.len(), 50_000);
    lines
}

fn write_lines(path: &Path, lines: &[String]) {
    let mut text = lines.join("\n");
    text.push('\n');
    std::fs::write(path, text).unwrap();
}

/// Sets line `line` (1-based) of the file to `value`, reruns to a larger N, and checks
/// that the run stops with exit 2 naming the line and the right value, leaving the file
/// as it was.
fn changed_line_is_caught(rule: &str, path: &Path, lines: &[String], line: usize, value: &str) {
    let mut changed = lines.to_vec();
    changed[line - 1] = value.to_owned();
    write_lines(path, &changed);
    let before = std::fs::read(path).unwrap();
    let output = seq_out(rule, 60_000, path, &[]);
    let message = stderr(&output);
    assert_eq!(
        output.status.code(),
        Some(2),
        "{rule} line {line}: {message}"
    );
    let expected = format!(
        "line {line}: {value} is not the value of heap {} of {rule}, which is {}",
        line - 1,
        lines[line - 1]
    );
    assert!(
        message
            .lines()
            .any(|said| said.starts_with("error: ") && said.contains(&expected)),
        "{message}\nwanted: {expected}"
    );
    assert_eq!(
        std::fs::read(path).unwrap(),
        before,
        "a wrong file is left as it was"
    );
}

#[test]
fn a_value_changed_anywhere_is_exit_2_with_its_line_and_the_right_value() {
    for rule in ["octal[0.6]", "grundy_game"] {
        let dir = scratch(&format!("changed-{}", rule.replace(['[', ']', '.'], "")));
        let path = dir.join("values.txt");
        let lines = fifty_thousand(rule, &path);
        // Checked by the sums in the check file.
        changed_line_is_caught(rule, &path, &lines, 100, "9999");
        changed_line_is_caught(rule, &path, &lines, 49_990, "12345678");
        // The last value, and the first.
        let last = if lines[49_999] == "0" { "1" } else { "0" };
        changed_line_is_caught(rule, &path, &lines, 50_000, last);
        changed_line_is_caught(rule, &path, &lines, 1, "4294967295");
        // Without the check file, every value is recomputed, and a note says so.
        std::fs::remove_file(check_path(&path)).unwrap();
        changed_line_is_caught(rule, &path, &lines, 100, "9999");
        changed_line_is_caught(rule, &path, &lines, 49_990, "12345678");
        let output = seq_out(rule, 60_000, &path, &[]);
        assert!(stderr(&output).contains("has no check file"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn lines_inserted_or_removed_are_caught() {
    let dir = scratch("shifted");
    let path = dir.join("values.txt");
    let lines = fifty_thousand("octal[0.6]", &path);
    for at in [10, 30_000] {
        let mut removed = lines.clone();
        removed.remove(at);
        write_lines(&path, &removed);
        let output = seq_out("octal[0.6]", 60_000, &path, &[]);
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert!(stderr(&output).contains("is not the value of heap"));
        let mut inserted = lines.clone();
        inserted.insert(at, "7".to_owned());
        write_lines(&path, &inserted);
        let output = seq_out("octal[0.6]", 60_000, &path, &[]);
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn binary_files_are_checked_too() {
    let dir = scratch("binary");
    let path = dir.join("values.bin");
    let output = seq_out("octal[0.6]", 49_999, &path, &["--format", "binary"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let good = std::fs::read(&path).unwrap();
    // Values below 128 take one byte each: the byte of heap h is at 12 + h while every
    // value before it is below 128 (octal[0.6]'s values stay below 128 until far on).
    let heap = 99;
    let mut bad = good.clone();
    let right = bad[12 + heap];
    assert!(right < 0x80);
    bad[12 + heap] = if right == 0 { 1 } else { 0 };
    std::fs::write(&path, &bad).unwrap();
    let output = seq_out("octal[0.6]", 60_000, &path, &["--format", "binary"]);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{message}");
    assert!(
        message.contains(&format!(
            "value number {} is {}, not the value of heap {heap} of octal[0.6], which is {right}",
            heap + 1,
            bad[12 + heap]
        )),
        "{message}"
    );
    // The right file resumes.
    std::fs::write(&path, &good).unwrap();
    let output = seq_out("octal[0.6]", 60_000, &path, &["--format", "binary"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn garbage_and_cut_files_as_before() {
    let dir = scratch("garbage");
    let path = dir.join("values.txt");
    let lines = fifty_thousand("octal[0.6]", &path);
    let mut garbage = lines.clone();
    garbage[1_233] = "x7".to_owned();
    write_lines(&path, &garbage);
    let output = seq_out("octal[0.6]", 60_000, &path, &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("line 1234"), "{}", stderr(&output));
    // Cut in the middle of a value: the incomplete tail is recomputed, the rest checked.
    let mut text = lines.join("\n");
    text.push('\n');
    let cut = text.len() * 2 / 3 + 1;
    std::fs::write(&path, &text.as_bytes()[..cut]).unwrap();
    let output = seq_out("octal[0.6]", 49_999, &path, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_of_more_values_than_asked_is_kept_whole_with_a_note() {
    let dir = scratch("more");
    let path = dir.join("values.txt");
    let lines = fifty_thousand("octal[0.6]", &path);
    let output = seq_out("octal[0.6]", 20, &path, &[]);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{message}");
    assert!(
        message.contains("already holds 50000 values (heaps 0..=49999), more than the 21 asked"),
        "{message}"
    );
    let kept = std::fs::read_to_string(&path).unwrap();
    assert_eq!(kept.lines().count(), 50_000);
    // A wrong value past N is still caught: the whole file is checked.
    let mut changed = lines.clone();
    changed[49_990] = "3".to_owned();
    if lines[49_990] == "3" {
        changed[49_990] = "4".to_owned();
    }
    write_lines(&path, &changed);
    let output = seq_out("octal[0.6]", 20, &path, &[]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("line 49991"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_files_of_another_rule_or_not_ours_are_exit_2() {
    let dir = scratch("other");
    let path = dir.join("values.txt");
    fifty_thousand("octal[0.6]", &path);
    let output = seq_out("kayles", 60_000, &path, &[]);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{message}");
    assert!(
        message.contains("the values were computed for octal[0.6]"),
        "{message}"
    );
    // Aliases are one rule: `kayles` is `octal[0.77]`.
    let kayles = dir.join("kayles.txt");
    assert_eq!(seq_out("kayles", 100, &kayles, &[]).status.code(), Some(0));
    assert_eq!(
        seq_out("octal[0.77]", 200, &kayles, &[]).status.code(),
        Some(0)
    );
    // Something else where the check file goes is left alone.
    let fresh = dir.join("fresh.txt");
    std::fs::write(check_path(&fresh), "my notes\n").unwrap();
    let output = seq_out("octal[0.6]", 100, &fresh, &[]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("is not a grundy check file"));
    assert_eq!(
        std::fs::read_to_string(check_path(&fresh)).unwrap(),
        "my notes\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_damaged_check_file_costs_a_recomputation_not_the_values() {
    let dir = scratch("damaged");
    let path = dir.join("values.txt");
    let lines = fifty_thousand("octal[0.6]", &path);
    let check = check_path(&path);
    let text = std::fs::read_to_string(&check).unwrap();
    // A sum changed: that block is recomputed, found right, and the sum rewritten.
    let mut check_lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let (end, sum) = check_lines[2].split_once(' ').unwrap();
    let first = if sum.starts_with('0') { "1" } else { "0" };
    check_lines[2] = format!("{end} {first}{}", &sum[1..]);
    write_lines(&check, &check_lines);
    let output = seq_out("octal[0.6]", 60_000, &path, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let resumed = std::fs::read_to_string(&path).unwrap();
    assert_eq!(resumed.lines().count(), 60_001);
    assert!(resumed.lines().zip(&lines).all(|(a, b)| a == b));
    assert!(
        std::fs::read_to_string(&check)
            .unwrap()
            .starts_with("grundy-check 1\nrule octal[0.6]\n")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_rule_answered_from_its_proven_period_checks_and_keeps_the_file_too() {
    // octal[0.8] leaves three heaps: its period, proven from 1024 values, gives the rest
    // at once, and the file is written whole rather than resumed.
    let dir = scratch("period");
    let path = dir.join("values.txt");
    let lines = fifty_thousand("octal[0.8]", &path);
    let output = seq_out("octal[0.8]", 20, &path, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("already holds 50000 values"));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap().lines().count(),
        50_000
    );
    changed_line_is_caught("octal[0.8]", &path, &lines, 4_000, "77");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn rest_nim_by_its_rules_resumes() {
    // Its engine builds its state only while computing: resuming from a file panicked
    // (index out of bounds) before every value was recomputed on resume.
    let dir = scratch("rest-nim");
    let path = dir.join("values.txt");
    let plain = ["--method", "plain"];
    assert_eq!(
        seq_out("rest_nim", 30, &path, &plain).status.code(),
        Some(0)
    );
    let output = seq_out("rest_nim", 40, &path, &plain);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let values: Vec<String> = (0..=40).map(|n| n.to_string()).collect();
    let written = std::fs::read_to_string(&path).unwrap();
    assert_eq!(written.lines().collect::<Vec<_>>(), values);
    std::fs::remove_dir_all(&dir).unwrap();
}
