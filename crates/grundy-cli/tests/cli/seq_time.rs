//! Every `grundy seq` run is bounded in time: it answers within its
//! budget, or says before it starts how long it will take.

use std::io::{BufRead, BufReader};
use std::process::{Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::command;

/// Runs grundy, killing it after `guard`, so that a regression fails the test instead
/// of hanging; gives the output and how long it ran. Its output is read as it comes (a
/// full pipe would stop it).
fn grundy_within(args: &[&str], guard: Duration) -> (Output, Duration) {
    let mut child = command()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > guard {
            child.kill().unwrap();
            panic!("`grundy {}` still ran after {guard:?}", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let took = start.elapsed();
    let output = Output {
        status,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    };
    (output, took)
}

/// Starts a long grundy run, waits up to `guard` for a line of standard error
/// containing `wanted`, then kills the run: gives that line, and whether the run was
/// still going when it came.
fn first_line_with(args: &[&str], wanted: &str, guard: Duration) -> (String, bool) {
    let mut child = command()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (lines, received) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let start = Instant::now();
    let found = loop {
        let left = guard.saturating_sub(start.elapsed());
        match received.recv_timeout(left) {
            Ok(line) if line.contains(wanted) => break Some(line),
            Ok(_) => {}
            Err(_) => break None,
        }
    };
    let running = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    let _ = child.wait();
    let line = found.unwrap_or_else(|| {
        panic!(
            "`grundy {}` said no `{wanted}` within {guard:?}",
            args.join(" ")
        )
    });
    (line, running)
}

#[test]
fn a_subtraction_game_with_huge_amounts_answers_heap_0_at_once() {
    // Took minutes: the canonical name of the rule built the subtraction game, whose
    // period search compared windows of 911177 values one value at a time.
    for method in ["plain", "fast"] {
        let (output, took) = grundy_within(
            &[
                "seq",
                "--json",
                "sub[911177, 330389, 19]",
                "-n",
                "0",
                "--method",
                method,
            ],
            Duration::from_secs(60),
        );
        assert_eq!(output.status.code(), Some(0), "{method}");
        let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(answer["values"], serde_json::json!([0]));
        assert!(
            took < Duration::from_secs(10),
            "--method {method}: {took:?}"
        );
    }
    let (output, took) = grundy_within(
        &["solve", "--json", "sub[911177, 330389, 19](1000000)"],
        Duration::from_secs(60),
    );
    assert_eq!(output.status.code(), Some(0));
    let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
    // As the sequence engine computes it (`grundy seq ... -n 1000000`, the last value).
    assert_eq!(answer["nimber"], 1);
    assert!(took < Duration::from_secs(10), "{took:?}");
}

#[test]
fn long_codes_search_their_period_in_about_the_time_of_short_ones() {
    // The period is looked for up to heap 16384. Looking at every split of each of
    // the 1000 moves took minutes (0.777...7: 100 sevens 11 s, 1000 about 110 s of
    // CPU); a run of moves now costs about one move (0.2 s).
    for (digit, count) in [("7", 1000), ("F", 200)] {
        let rule = format!("octal[0.{}]", digit.repeat(count));
        let (output, took) = grundy_within(
            &["seq", "--json", &rule, "-n", "100"],
            Duration::from_secs(120),
        );
        assert_eq!(output.status.code(), Some(0), "{rule}");
        let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(answer["values"][100], 100, "{rule}");
        assert!(took < Duration::from_secs(10), "{rule}: {took:?}");
    }
}

#[test]
fn a_billion_values_say_their_estimated_time_before_starting() {
    let (line, running) = first_line_with(
        &["seq", "octal[0.6]", "-n", "1000000000"],
        "estimated time",
        Duration::from_secs(30),
    );
    assert!(
        running,
        "the estimate comes before the run, not after: {line}"
    );
    assert!(line.starts_with("note: estimated time: about "), "{line}");
    // About 15-20 minutes at ~10^6 values a second; anything from 2 minutes to a day
    // is the right order for this machine or a slower one.
    assert!(line.contains(" min ") || line.contains(" h "), "{line}");
    assert!(line.contains("values/s"), "{line}");
    assert!(line.contains("heaps 0..=1000000000"), "{line}");
    // Work beyond linear is counted at 10^8 steps a second, and its flag named.
    let (line, running) = first_line_with(
        &[
            "seq",
            "lasker",
            "--method",
            "plain",
            "-n",
            "200000",
            "--max-work",
            "1000000000000",
        ],
        "estimated time",
        Duration::from_secs(30),
    );
    assert!(running, "{line}");
    assert!(line.contains("--max-work STEPS"), "{line}");
}

#[test]
fn short_runs_say_nothing_and_the_work_limit_still_refuses_with_exit_3() {
    let (output, took) = grundy_within(
        &["seq", "octal[0.6]", "-n", "100000"],
        Duration::from_secs(60),
    );
    assert_eq!(output.status.code(), Some(0));
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(took < Duration::from_secs(20), "{took:?}");
    // Beyond the default work limit: refused at once, naming the flag.
    let (output, took) = grundy_within(
        &["seq", "lasker", "--method", "plain", "-n", "200000"],
        Duration::from_secs(60),
    );
    assert_eq!(output.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--max-work STEPS"));
    assert!(took < Duration::from_secs(10), "{took:?}");
}

#[test]
fn large_subtraction_sets_answer_refuse_or_say_their_time() {
    // 2^20 amounts: the rule's name no longer builds the game (whose period search
    // spent 2^24 values of 2^20 steps), and that search keeps to its budget in `solve`.
    let (output, took) = grundy_within(
        &["seq", "--json", "sub[1..1048576]", "-n", "0"],
        Duration::from_secs(60),
    );
    assert_eq!(output.status.code(), Some(0));
    assert!(took < Duration::from_secs(10), "{took:?}");
    let (output, took) = grundy_within(
        &["solve", "--json", "sub[1..1048576](5)"],
        Duration::from_secs(60),
    );
    assert_eq!(output.status.code(), Some(0));
    assert!(took < Duration::from_secs(10), "{took:?}");
    // bash[m] as a sequence is a set of m amounts: 2^32 of them did not fit in memory
    // (an abort with a backtrace); now exit 2, as for sub's amounts.
    let (output, took) = grundy_within(
        &["seq", "bash[4294967295]", "-n", "0"],
        Duration::from_secs(60),
    );
    let message = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{message}");
    assert!(message.starts_with("error: `bash[m]` as a sequence needs m at most 1048576"));
    assert!(took < Duration::from_secs(10), "{took:?}");
    // A heap looks at every amount up to it: the speed measured on the first heaps is
    // scaled to the later, costlier ones, and fewer than 2^20 values are announced too.
    let (line, running) = first_line_with(
        &["seq", "sub[1..1048576]", "-n", "1000000"],
        "estimated time",
        Duration::from_secs(30),
    );
    assert!(running, "{line}");
    assert!(line.contains("scaled by the subtraction amounts"), "{line}");
}
