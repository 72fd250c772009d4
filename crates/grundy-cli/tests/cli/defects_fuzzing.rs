//! Regression tests for the defects found by fuzzing the command line: two
//! `seq --out` runs writing one file, answers that cannot be written (exit 4),
//! and error messages that gave wrong or unusable advice.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support::{command, grundy_within, wait_within};

fn run(args: &[&str]) -> (Option<i32>, String) {
    let output = grundy_within(args, Duration::from_secs(60));
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-fuzzing-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn line_count(path: &Path) -> usize {
    BufReader::new(File::open(path).unwrap()).lines().count()
}

// Defect 7: two `seq --out` runs of one file.

#[test]
fn two_seq_runs_started_together_on_one_out_file_do_not_mix_their_values() {
    let dir = scratch("together");
    let out = dir.join("t.txt");
    let out_text = out.to_str().unwrap();
    let last_heap = "300000";
    let rules = ["octal[0.6]", "kayles"];
    let canonical = ["octal[0.6]", "octal[0.77]"];
    let children: Vec<Child> = rules
        .iter()
        .map(|rule| {
            command()
                .args(["seq", rule, "-n", last_heap, "--out", out_text])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let outputs: Vec<Output> = children
        .into_iter()
        .zip(rules)
        .map(|(child, rule)| wait_within(child, Duration::from_secs(120), rule))
        .collect();
    let codes: Vec<Option<i32>> = outputs.iter().map(|o| o.status.code()).collect();
    let winner = codes
        .iter()
        .position(|&code| code == Some(0))
        .unwrap_or_else(|| panic!("no run answered: {codes:?}"));
    let loser = 1 - winner;
    let message = String::from_utf8_lossy(&outputs[loser].stderr);
    assert_eq!(codes[loser], Some(2), "{message}");
    assert!(message.contains(canonical[winner]), "{message}");
    // The file holds the winner's values only: a rerun of its rule checks and
    // keeps them, and another rule's is refused.
    assert_eq!(line_count(&out), 300_001);
    let (code, message) = run(&["seq", rules[winner], "-n", last_heap, "--out", out_text]);
    assert_eq!(code, Some(0), "{message}");
    assert_eq!(line_count(&out), 300_001);
    let fresh = dir.join("fresh.txt");
    let (code, message) = run(&[
        "seq",
        rules[winner],
        "-n",
        last_heap,
        "--out",
        fresh.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{message}");
    assert!(std::fs::read(&out).unwrap() == std::fs::read(&fresh).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_seq_run_holding_its_out_file_refuses_a_second_writer_naming_its_rule() {
    let dir = scratch("held");
    let out = dir.join("t.txt");
    let check = dir.join("t.txt.check");
    let out_text = out.to_str().unwrap();
    let mut holder = command()
        .args([
            "--max-time",
            "90",
            "seq",
            "octal[0.6]",
            "-n",
            "30000000",
            "--out",
            out_text,
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The holder has started writing once its check file names its rule.
    let start = Instant::now();
    while !std::fs::read_to_string(&check).is_ok_and(|text| text.contains("rule octal[0.6]")) {
        assert!(
            holder.try_wait().unwrap().is_none(),
            "the first run ended early"
        );
        assert!(start.elapsed() < Duration::from_secs(30), "no check file");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Another rule, and the same rule: both refused at once, naming the holder's rule.
    for rule in ["kayles", "octal[0.6]"] {
        let started = Instant::now();
        let (code, message) = run(&["seq", rule, "-n", "1000", "--out", out_text]);
        assert_eq!(code, Some(2), "{rule}: {message}");
        assert!(
            message.contains("is being written by another grundy seq, of octal[0.6]"),
            "{rule}: {message}"
        );
        assert!(message.contains("--out FILE"), "{rule}: {message}");
        assert!(started.elapsed() < Duration::from_secs(10), "{rule}");
    }
    assert!(
        holder.try_wait().unwrap().is_none(),
        "the first run was disturbed"
    );
    holder.kill().unwrap();
    holder.wait().unwrap();
    // Once the holder is gone, its rule resumes from the file.
    let (code, message) = run(&["seq", "octal[0.6]", "-n", "1000", "--out", out_text]);
    assert_eq!(code, Some(0), "{message}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_refused_seq_run_leaves_no_empty_out_file() {
    let dir = scratch("empty");
    let out = dir.join("t.txt");
    // A FILE.check that is not a check file: exit 2, and no empty FILE left.
    std::fs::write(dir.join("t.txt.check"), "not a check file\n").unwrap();
    let (code, message) = run(&["seq", "kayles", "-n", "10", "--out", out.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{message}");
    assert!(!out.exists(), "an empty FILE was left");
    let _ = std::fs::remove_dir_all(&dir);
}

// Defect 8: an answer that cannot be written is exit 4.

/// Runs `args` with standard output `/dev/full`.
fn to_full_disk(args: &[&str]) -> (Option<i32>, String) {
    let full = OpenOptions::new().write(true).open("/dev/full").unwrap();
    let child = command()
        .args(args)
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let output = wait_within(child, Duration::from_secs(60), &args.join(" "));
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn every_answer_that_cannot_be_written_is_exit_4() {
    for args in [
        &["solve", "nim(3, 5, 7)"][..],
        &["solve", "--json", "nim(3, 5, 7)"],
        &["seq", "kayles", "-n", "10"],
        &["seq", "--json", "kayles", "-n", "10"],
        &["table", "nim(n)", "n=0..5"],
        &["pairs", "wythoff", "-n", "5"],
        &["games"],
        &["games", "nim"],
        &["completions", "bash"],
        &["--help"],
        &["solve", "--help"],
        &["seq", "-h"],
        &["--version"],
        &["help", "solve"],
    ] {
        let (code, message) = to_full_disk(args);
        assert_eq!(code, Some(4), "{args:?}: {message}");
        assert!(
            message.starts_with("error: the answer could not be written: "),
            "{args:?}: {message}"
        );
    }
}

#[test]
fn help_to_a_reader_that_went_away_is_still_exit_0() {
    for args in [&["--help"][..], &["solve", "--help"], &["--version"]] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let status = command()
            .args(args)
            .stdout(writer)
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(0), "{args:?}");
    }
}

// Defect 10: error messages.

#[test]
fn an_unquoted_position_is_told_to_be_quoted() {
    let (code, message) = run(&["solve", "nim", "3", "5", "7"]);
    assert_eq!(code, Some(2), "{message}");
    assert!(
        message.contains("help: quote it: grundy solve 'nim(3, 5, 7)'"),
        "{message}"
    );
    let (code, message) = run(&["solve", "nim(3,", "5)"]);
    assert_eq!(code, Some(2), "{message}");
    assert!(message.contains("'nim(3, 5)'"), "{message}");
    // One quoted argument with flags around it is still fine.
    let (code, message) = run(&["solve", "nim(3, 5, 7)", "--json"]);
    assert_eq!(code, Some(0), "{message}");
}

#[test]
fn a_negative_heap_count_gets_advice_that_works() {
    for args in [
        &["seq", "kayles", "-n", "-5"][..],
        &["seq", "kayles", "-n=-5"],
        &["seq", "kayles", "-n", "ten"],
    ] {
        let (code, message) = run(args);
        assert_eq!(code, Some(2), "{args:?}: {message}");
        assert!(!message.contains("-- -5"), "{args:?}: {message}");
        assert!(
            message.contains("non-negative integer"),
            "{args:?}: {message}"
        );
    }
}

#[test]
fn a_huge_number_is_not_echoed_whole_and_its_column_stays_exact() {
    let digits = "1".repeat(100_001);
    for (args, column) in [
        (vec!["solve".to_owned(), format!("nim({digits})")], 5),
        (
            vec!["solve".to_owned(), format!("nim(3) + bash[3](2, {digits})")],
            21,
        ),
        (
            vec![
                "table".to_owned(),
                format!("nim(n, {digits})"),
                "n=0..3".to_owned(),
            ],
            8,
        ),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, message) = run(&args);
        assert!(matches!(code, Some(2 | 3)), "{code:?}: {message}");
        assert!(message.len() < 1000, "{} bytes echoed", message.len());
        assert!(message.contains(&format!("(column {column})")), "{message}");
        assert!(message.contains("..."), "{message}");
    }
}

#[test]
fn a_variable_in_a_position_gets_help_that_fits() {
    let (code, message) = run(&["solve", "sub[1, 3, 4](n)"]);
    assert_eq!(code, Some(2), "{message}");
    assert!(!message.contains("`n(3)`"), "{message}");
    assert!(message.contains("`sub[1, 3, 4](10)`"), "{message}");
    assert!(
        message.contains("grundy table 'sub[1, 3, 4](n)' n=0..20"),
        "{message}"
    );
    // A game named without its arguments keeps its own help.
    let (code, message) = run(&["solve", "nim"]);
    assert_eq!(code, Some(2), "{message}");
    assert!(message.contains("`nim(3)`"), "{message}");
}

#[test]
fn a_name_with_a_hyphen_or_a_blank_gets_the_suggestion() {
    for args in [
        &["solve", "dawson-kayles(3)"][..],
        &["solve", "nim(1) + Dawson-Kayles(3)"],
        &["seq", "dawson-kayles", "-n", "5"],
        &["solve", "dawson kayles(3)"],
        &["games", "dawson-kayles"],
    ] {
        let (code, message) = run(args);
        assert_eq!(code, Some(2), "{args:?}: {message}");
        assert!(
            message.contains("did you mean `dawson_kayles`?"),
            "{args:?}: {message}"
        );
    }
    // The name, not the `-`, is marked.
    let (_, message) = run(&["solve", "nim(1) + dawson-kayles(3)"]);
    assert!(message.contains("(column 10)"), "{message}");
}

#[test]
fn max_time_0_is_refused_at_once_without_repeating_itself() {
    let (code, message) = run(&["--max-time", "0", "solve", "nim(1)"]);
    assert_eq!(code, Some(3), "{message}");
    assert!(message.contains("--max-time 0"), "{message}");
    assert!(
        message.contains("raise it with --max-time SECONDS"),
        "{message}"
    );
    assert_eq!(message.matches("time limit").count(), 0, "{message}");
    // The time limit reached later says so once.
    let (code, message) = run(&["--max-time", "0.5", "seq", "octal[0.6]", "-n", "100000000"]);
    assert_eq!(code, Some(3), "{message}");
    let error = message
        .lines()
        .find(|line| line.starts_with("error:"))
        .unwrap();
    assert_eq!(error.matches("time limit").count(), 1, "{error}");
    assert!(error.contains("--max-time SECONDS"), "{error}");
}

#[test]
#[cfg(feature = "serve")]
fn serve_on_a_busy_port_suggests_another() {
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = busy.local_addr().unwrap().port().to_string();
    let (code, message) = run(&["serve", "--port", &port]);
    assert_eq!(code, Some(2), "{message}");
    assert!(
        message.contains(&format!("error: port {port} is in use")),
        "{message}"
    );
    assert!(
        message.contains("choose another with --port P"),
        "{message}"
    );
}

#[test]
fn too_many_values_is_one_limit_however_it_is_written() {
    let huge = format!("1{}", "0".repeat(30));
    for last_heap in ["1000000000000", "18446744073709551616", huge.as_str()] {
        let (code, message) = run(&["seq", "kayles", "-n", last_heap]);
        assert_eq!(code, Some(3), "-n {last_heap}: {message}");
        assert!(
            message.contains("ask for at most -n 4294967294"),
            "{message}"
        );
    }
    // Not a number at all: bad input.
    let (code, message) = run(&["seq", "kayles", "-n", "10^30"]);
    assert_eq!(code, Some(2), "{message}");
    // A limit far away is no error: --max-heap only bounds --until-proven.
    let (code, message) = run(&[
        "seq",
        "kayles",
        "-n",
        "100",
        "--until-proven",
        "--max-heap",
        &huge,
    ]);
    assert_eq!(code, Some(0), "{message}");
}
