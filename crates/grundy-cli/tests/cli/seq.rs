//! `grundy seq`, checked on the built binary against the contract and known facts.

use serde_json::Value;

use crate::support::{grundy, json};

#[test]
fn the_contract_example() {
    let answer = json(&["seq", "--json", "octal[0.07]", "-n", "6"]);
    assert_eq!(answer["rule"], "octal[0.07]");
    assert_eq!(answer["values"], serde_json::json!([0, 0, 1, 1, 2, 0, 3]));
    assert_eq!(answer["period"], 34);
    assert_eq!(answer["preperiod"], 53);
    assert_eq!(answer["saltus"], 0);
    assert_eq!(answer["proven"], true);
}

#[test]
fn known_sequences() {
    let kayles = json(&["seq", "--json", "kayles", "-n", "12"]);
    assert_eq!(
        kayles["values"],
        serde_json::json!([0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4])
    );
    assert_eq!(
        (kayles["period"].as_u64(), kayles["preperiod"].as_u64()),
        (Some(12), Some(71))
    );
    assert_eq!(kayles["proven"], true);
    let lasker = json(&["seq", "--json", "lasker", "-n", "8"]);
    assert_eq!(
        lasker["values"],
        serde_json::json!([0, 1, 2, 4, 3, 5, 6, 8, 7])
    );
    assert_eq!(
        (lasker["period"].as_u64(), lasker["saltus"].as_u64()),
        (Some(4), Some(4))
    );
    let rest = json(&["seq", "--json", "rest_nim", "-n", "6"]);
    assert_eq!(rest["values"], serde_json::json!([0, 1, 2, 3, 4, 5, 6]));
    let subtraction = json(&["seq", "--json", "sub[1,3,4]", "-n", "8"]);
    assert_eq!(subtraction["rule"], "sub[1, 3, 4]");
    assert_eq!(
        subtraction["values"],
        serde_json::json!([0, 1, 0, 1, 2, 3, 2, 0, 1])
    );
    assert_eq!(
        (
            subtraction["period"].as_u64(),
            subtraction["proven"].as_bool()
        ),
        (Some(7), Some(true))
    );
    let grundy_game = json(&["seq", "--json", "grundy_game", "-n", "10"]);
    assert_eq!(
        grundy_game["values"],
        serde_json::json!([0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0])
    );
    assert_eq!(grundy_game["proven"], false);
    // The plain mex gives the same values.
    let plain = json(&["seq", "--json", "--method", "plain", "kayles", "-n", "12"]);
    assert_eq!(plain["values"], kayles["values"]);
}

#[test]
fn out_writes_one_value_per_line_and_resumes() {
    let dir = std::env::temp_dir().join(format!("grundy-seq-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("kayles.txt");
    let file = path.display().to_string();
    let answer = json(&["seq", "--json", "kayles", "-n", "100", "--out", &file]);
    assert!(answer.get("values").is_none());
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 101);
    assert_eq!(&lines[..5], ["0", "1", "2", "3", "1"]);
    // Cut the file mid-value, as an interrupted run leaves it, and resume to 200.
    std::fs::write(&path, &text[..text.len() - 3]).unwrap();
    json(&["seq", "--json", "kayles", "-n", "200", "--out", &file]);
    let resumed = std::fs::read_to_string(&path).unwrap();
    let all = json(&["seq", "--json", "kayles", "-n", "200"]);
    let expected: Vec<String> = all["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(resumed.lines().collect::<Vec<_>>(), expected);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_rules_exit_2() {
    for (rule, message) in [
        ("kayles(3)", "a rule takes no heaps"),
        ("octal[0.G]", "invalid code `0.G`"),
        ("wythoff", "is not a heap game with a Grundy sequence"),
        ("kayle", "did you mean `kayles`?"),
        ("sub[0]", "a subtraction amount must be at least 1"),
    ] {
        let output = grundy(&["seq", rule, "-n", "5"]);
        assert_eq!(output.status.code(), Some(2), "{rule}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.starts_with("error:") && stderr.contains(message),
            "{rule}: {stderr}"
        );
    }
}

#[test]
fn codes_whose_zeroth_digit_is_c() {
    // d0 = C (4 + 8): a move may split a heap into two or three heaps without taking
    // any token. The error for a bad d0 says C is allowed, so `C.07` must parse.
    // (A low --max-work keeps the search for a period past heap 12 short.)
    for rule in ["octal[C.07]", "octal[c.07]"] {
        let answer = json(&["seq", "--json", rule, "-n", "12", "--max-work", "1000000"]);
        assert_eq!(answer["rule"], "octal[C.07]", "{rule}");
        // Heap 3: split into 1 + 2 (G = 1) or 1 + 1 + 1 (0), take 2 leaving 1 (0): mex 2.
        assert_eq!(
            answer["values"],
            serde_json::json!([0, 0, 1, 2, 3, 4, 5, 6, 7, 3, 2, 8, 9])
        );
        let plain = json(&[
            "seq",
            "--json",
            "--method",
            "plain",
            rule,
            "-n",
            "12",
            "--max-work",
            "1000000",
        ]);
        assert_eq!(plain["values"], answer["values"], "{rule}");
    }
    // The other letters lex as codes too, and the code's own check explains.
    for (rule, message) in [
        ("octal[A.07]", "d0 must be 0, 4, 8 or C"),
        ("octal[F.1]", "d0 must be 0, 4, 8 or C"),
        ("octal[0C.07]", "d0 is a single digit"),
        ("octal[C.]", "no digit after '.'"),
    ] {
        let output = grundy(&["seq", rule, "-n", "5"]);
        assert_eq!(output.status.code(), Some(2), "{rule}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.starts_with("error:") && stderr.contains(message),
            "{rule}: {stderr}"
        );
    }
}

fn refused(args: &[&str]) -> String {
    let output = grundy(args);
    assert_eq!(output.status.code(), Some(3), "{args:?}");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(stderr.starts_with("error:"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

#[test]
fn three_heap_codes_beyond_the_work_limit_exit_3_naming_the_flag() {
    // 0.9 (no period known) keeps a set of two-heap values per heap and reads them
    // all for each heap: 10^5 heaps would take hours.
    let stderr = refused(&["seq", "octal[0.9]", "-n", "100000"]);
    assert!(stderr.contains("work limit of 300000000 steps"), "{stderr}");
    assert!(
        stderr.contains("raise it with --max-work STEPS"),
        "{stderr}"
    );
    assert!(stderr.contains("three heaps"), "{stderr}");
    // A small range passes by default, and the flag lowers or raises the limit.
    let stderr = refused(&["seq", "octal[0.9]", "-n", "2000", "--max-work", "1000"]);
    assert!(stderr.contains("--max-work"), "{stderr}");
    let answer = json(&[
        "seq",
        "--json",
        "octal[0.9]",
        "-n",
        "2000",
        "--max-work",
        "1000000000",
    ]);
    assert_eq!(answer["values"].as_array().map(Vec::len), Some(2001));
    assert_eq!(answer["proven"], false);
    // 0.3F costs as much per heap, but its period is proven (the automaton test,
    // saltus 3): G(n) = 3·(n div 6) + n mod 3 at any n, at once.
    let answer = json(&["seq", "--json", "octal[0.3F]", "-n", "100000"]);
    assert_eq!(answer["values"][100_000], 49_999);
    assert_eq!(answer["proven"], true);
}

#[test]
fn three_heap_codes_beyond_the_memory_limit_exit_3_naming_the_flag() {
    // 0.9's values grow with the heaps (no period known): a million heaps keep sets
    // of two-heap values of up to 2^19 bits each, tens of GiB.
    let stderr = refused(&["seq", "octal[0.9]", "-n", "1000000"]);
    assert!(
        stderr.contains("memory limit of 4294967296 bytes"),
        "{stderr}"
    );
    assert!(
        stderr.contains("raise it with --max-memory BYTES"),
        "{stderr}"
    );
    let stderr = refused(&["seq", "octal[0.9]", "-n", "4000", "--max-memory", "512K"]);
    assert!(stderr.contains("memory limit of 524288 bytes"), "{stderr}");
    let answer = json(&[
        "seq",
        "--json",
        "octal[0.9]",
        "-n",
        "4000",
        "--max-memory",
        "64M",
    ]);
    assert_eq!(answer["values"].as_array().map(Vec::len), Some(4001));
    // 0.FB has G(n) = n - 1 from heap 5 (G(1..4) = 1, 2, 3, 0), proven by the
    // automaton test: a million values come from the period, within the limits.
    let answer = json(&["seq", "--json", "octal[0.FB]", "-n", "1000000"]);
    assert_eq!(answer["values"][1_000_000], 999_999);
    assert_eq!(answer["proven"], true);
    // Sizes are bytes or K, M, G, T; anything else is bad input.
    let output = grundy(&["seq", "kayles", "-n", "5", "--max-memory", "4X"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn the_period_search_past_n_stops_at_the_limits() {
    // By default the period is looked for up to heap 16384; for 0.9 (three-heap
    // moves, no period known) that would take minutes, so it stops where the work
    // limit would be passed.
    let answer = json(&["seq", "--json", "octal[0.9]", "-n", "10"]);
    assert_eq!(
        answer["values"],
        serde_json::json!([0, 1, 0, 0, 0, 1, 2, 2, 2, 3, 4])
    );
    let computed = answer["computed"].as_u64().unwrap();
    assert!((1024..16385).contains(&computed), "{computed}");
    assert!(answer["period"].is_null(), "{answer}");
    // --until-proven asked for more: stopping short of a proof is a limit.
    let stderr = refused(&["seq", "octal[0.9]", "-n", "10", "--until-proven"]);
    assert!(
        stderr.contains("--until-proven found no proven period"),
        "{stderr}"
    );
    assert!(stderr.contains("--max-work"), "{stderr}");
    // Within its --max-heap, an unproven period is an answer: Kayles' period 12
    // from heap 71 shows in 167 values; Guy-Smith proves it from 168.
    let answer = json(&[
        "seq",
        "--json",
        "kayles",
        "-n",
        "10",
        "--until-proven",
        "--max-heap",
        "166",
    ]);
    assert_eq!(
        (answer["period"].as_u64(), answer["proven"].as_bool()),
        (Some(12), Some(false))
    );
    // 0.3F: G(n + 6) = G(n) + 3 from heap 0, proven by the automaton test.
    let answer = json(&["seq", "--json", "octal[0.3F]", "-n", "10", "--until-proven"]);
    assert_eq!(
        answer["values"],
        serde_json::json!([0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4])
    );
    assert_eq!(
        (answer["period"].as_u64(), answer["saltus"].as_u64()),
        (Some(6), Some(3))
    );
    assert_eq!(answer["proven"], true);
    assert!(answer["proof"].as_str().unwrap().contains("automaton test"));
}

#[test]
fn a_period_proven_by_the_first_values_gives_every_value() {
    // 0.8 costs as much per heap as 0.9, but the level test proves its period
    // (3, saltus 1, from heap 1) from the first values: 10^6 heaps answer at once.
    let answer = json(&["seq", "--json", "octal[0.8]", "-n", "1000000"]);
    let values = answer["values"].as_array().unwrap();
    assert_eq!(values.len(), 1_000_001);
    assert_eq!(answer["proven"], true);
    // G(1 + x + 3t) = G(1 + x) + t with G(1), G(2), G(3) = 0.
    for heap in [1usize, 2, 3, 4, 999_999, 1_000_000] {
        assert_eq!(values[heap], (heap - 1) / 3, "heap {heap}");
    }
    // --out writes the same values to a file.
    let path = std::env::temp_dir().join(format!("grundy-seq-period-{}.txt", std::process::id()));
    let output = grundy(&[
        "seq",
        "octal[0.8]",
        "-n",
        "100000",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 100_001);
    assert_eq!(lines[100_000], "33333");
    // The engine agrees where it can go.
    let computed = json(&[
        "seq",
        "--json",
        "--method",
        "plain",
        "octal[0.8]",
        "-n",
        "1500",
    ]);
    assert_eq!(computed["values"].as_array().unwrap()[..], values[..1501]);
}

#[test]
fn closed_forms_give_long_sequences_fast() {
    let lasker = json(&["seq", "--json", "lasker", "-n", "2000000"]);
    let values = lasker["values"].as_array().unwrap();
    assert_eq!(values.len(), 2_000_001);
    for (heap, expected) in [
        (1_999_997, 1_999_997),
        (1_999_999, 2_000_000),
        (2_000_000, 1_999_999),
    ] {
        assert_eq!(values[heap], expected, "heap {heap}");
    }
    assert_eq!(lasker["proven"], true);
    let rest = json(&["seq", "--json", "rest_nim", "-n", "1000000"]);
    assert_eq!(rest["values"][1_000_000], 1_000_000);
    // The rules (the reference) agree on small heaps.
    for rule in ["lasker", "rest_nim"] {
        let fast = json(&["seq", "--json", rule, "-n", "300"]);
        let plain = json(&["seq", "--json", "--method", "plain", rule, "-n", "300"]);
        assert_eq!(fast["values"], plain["values"], "{rule}");
    }
    // Values are 32-bit: the last heap is 2^32 - 2.
    let stderr = refused(&["seq", "lasker", "-n", "4294967295"]);
    assert!(stderr.contains("32 bits"), "{stderr}");
}

#[test]
fn arithmetic_periodicity_is_proven_by_the_level_test() {
    // 0.28: G(n + 53) = G(n) + 16 from heap 1 (a hexadecimal code leaving three heaps).
    let answer = json(&["seq", "--json", "octal[0.28]", "-n", "5"]);
    assert_eq!(answer["period"], 53);
    assert_eq!(answer["preperiod"], 1);
    assert_eq!(answer["saltus"], 16);
    assert_eq!(answer["proven"], true);
    assert!(answer["proof"].as_str().unwrap().contains("level test"));
    // 0.3F: G(n + 6) = G(n) + 3 from 0; a saltus of 3 is outside the level test,
    // and the automaton test proves it.
    let answer = json(&["seq", "--json", "octal[0.3F]", "-n", "5"]);
    assert_eq!(
        (answer["period"].clone(), answer["saltus"].clone()),
        (6.into(), 3.into())
    );
    assert_eq!(answer["proven"], true);
    assert!(!answer["proof"].as_str().unwrap().contains("level test"));
}

#[test]
fn all_but_subtraction_is_proven_by_the_window_test() {
    // all_but[1, 2]: G(n) = floor(n / 3).
    let answer = json(&["seq", "--json", "all_but[1,2]", "-n", "7"]);
    assert_eq!(
        answer["values"],
        serde_json::json!([0, 0, 0, 1, 1, 1, 2, 2])
    );
    assert_eq!(
        (answer["period"].clone(), answer["saltus"].clone()),
        (3.into(), 1.into())
    );
    assert_eq!(answer["proven"], true);
    assert!(answer["proof"].as_str().unwrap().contains("window test"));
}

#[test]
fn text_output_labels_each_row_with_its_first_heap() {
    let output = grundy(&["seq", "kayles", "-n", "25"]);
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..4],
        [
            "kayles: values of heaps 0..=25 (the row `n: ...` lists G(n), G(n+1), ..., G(n+9))",
            " 0: 0 1 2 3 1 4 3 2 1 4",
            "10: 2 6 4 1 2 7 1 4 3 2",
            "20: 1 4 6 7 4 1",
        ]
    );
    assert_eq!(lines[4], "period 12 from heap 71");
    // Values are aligned in columns as wide as the widest.
    let output = grundy(&["seq", "nim", "-n", "10"]);
    let text = String::from_utf8(output.stdout).unwrap();
    let rows: Vec<&str> = text.lines().skip(1).take(2).collect();
    assert_eq!(rows, [" 0:  0  1  2  3  4  5  6  7  8  9", "10: 10"]);
    // A million values: the last row is labelled with its heap.
    let output = grundy(&["seq", "octal[0.6]", "-n", "1000000"]);
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(text.lines().count(), 1 + 100_001 + 1);
    let last = text.lines().nth(100_001).unwrap();
    assert!(last.starts_with("1000000: "), "{last}");
    let before = text.lines().nth(100_000).unwrap();
    assert!(before.starts_with(" 999990: "), "{before}");
    assert_eq!(before.split_whitespace().count(), 11);
    // Files keep one value a line.
    let path = std::env::temp_dir().join(format!("grundy-seq-rows-{}.txt", std::process::id()));
    let file = path.to_str().unwrap();
    let output = grundy(&["seq", "kayles", "-n", "25", "--out", file]);
    assert_eq!(output.status.code(), Some(0));
    let written = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        written.lines().take(6).collect::<Vec<_>>(),
        ["0", "1", "2", "3", "1", "4"]
    );
    assert_eq!(written.lines().count(), 26);
    std::fs::remove_file(&path).unwrap();
}

/// `--until-proven` alone, from a small N, grows the range until Guy-Smith proves the
/// period; standard error (not a terminal here) shows no progress bar.
fn proven_by_until_proven_alone(code: &str, period: u64, preperiod: u64) {
    let rule = format!("octal[{code}]");
    let output = grundy(&["seq", "--json", &rule, "-n", "1000", "--until-proven"]);
    assert!(
        output.status.success(),
        "{rule}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    // At most the estimate of the whole range --until-proven may compute.
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.lines()
            .all(|line| line.starts_with("note: estimated time: ")
                && line.contains("until a period is proven")),
        "{rule}: {said}"
    );
    let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        (answer["period"].as_u64(), answer["preperiod"].as_u64()),
        (Some(period), Some(preperiod)),
        "{rule}"
    );
    assert_eq!(answer["proven"], true, "{rule}");
    assert!(
        answer["proof"].as_str().unwrap().contains("Guy-Smith"),
        "{rule}"
    );
    assert_eq!(answer["values"].as_array().map(Vec::len), Some(1001));
    // Exactly as many values as the proof needs (2·n0 + 2p + 3 for these codes, k = 3
    // or 4): the range grew to what the period seen needs, not to the next power of two.
    let k = code.len() as u64 - 2;
    assert_eq!(
        answer["computed"].as_u64(),
        Some(2 * preperiod + 2 * period + k),
        "{rule}"
    );
}

#[test]
fn until_proven_alone_proves_0_376() {
    // Period 4 from heap 2268248: used to take minutes (every multiple of 4 followed
    // back over the 1.9*10^6 periodic heaps at each doubling). About 3 s on one core.
    proven_by_until_proven_alone("0.376", 4, 2_268_248);
}

#[test]
fn until_proven_alone_proves_0_354() {
    // Period 1180 from heap 10061916: 2.0*10^7 values, about 7 s on one core.
    proven_by_until_proven_alone("0.354", 1180, 10_061_916);
}

#[test]
#[ignore = "slow: about 2 minutes and 450 MB (4.4*10^8 values); run with --ignored"]
fn until_proven_alone_proves_0_1777() {
    // Period 60620715 from heap 160949018.
    proven_by_until_proven_alone("0.1777", 60_620_715, 160_949_018);
}

#[test]
fn until_proven_stopped_by_the_memory_limit_exits_3_naming_it() {
    // 0.1777's proof needs 4.4*10^8 values; 8 MiB holds about 2*10^6.
    let stderr = refused(&[
        "seq",
        "octal[0.1777]",
        "-n",
        "10",
        "--until-proven",
        "--max-memory",
        "8M",
    ]);
    assert!(
        stderr.contains("--until-proven found no proven period"),
        "{stderr}"
    );
    assert!(stderr.contains("--max-memory"), "{stderr}");
}

#[test]
fn every_method_the_help_names_is_accepted() {
    // The help described `--method fast` while only `sparse` and `plain` were accepted.
    // `-h`: one line an option (`--help` gives the long form, a paragraph each).
    let help = String::from_utf8(grundy(&["seq", "-h"]).stdout).unwrap();
    let line = help
        .lines()
        .find(|line| line.trim_start().starts_with("--method"))
        .unwrap();
    assert!(
        line.contains("fast (") && line.contains("plain ("),
        "{line}"
    );
    let listed = line
        .split("[possible values: ")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .unwrap();
    let mut methods: Vec<&str> = listed.split(", ").collect();
    assert_eq!(methods, ["fast", "plain"], "{line}");
    assert!(line.contains("[default: fast]"), "{line}");
    // `sparse`, the old name of `fast`, still works.
    methods.push("sparse");
    let expected = json(&["seq", "--json", "lasker", "-n", "12"]);
    for method in methods {
        let answer = json(&["seq", "--json", "--method", method, "lasker", "-n", "12"]);
        assert_eq!(answer["values"], expected["values"], "{method}");
    }
    let output = grundy(&["seq", "--method", "quick", "lasker", "-n", "12"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stderr.starts_with(b"error:"));
}

#[test]
fn long_codes_keep_their_periods_and_proofs() {
    // Runs of equal digits are gathered by windows (a run costs about one move):
    // the answers are those of the engine computing every move one by one.
    let code =
        |head: &str, digit: &str, count: usize| format!("octal[{head}.{}]", digit.repeat(count));
    for (rule, period, preperiod, saltus, proof) in [
        (
            code("0", "7", 16),
            96,
            568,
            0,
            "Guy-Smith periodicity theorem, checked on heaps 0..1344",
        ),
        (
            code("0", "7", 24),
            112,
            64,
            0,
            "Guy-Smith periodicity theorem, checked on heaps 0..376",
        ),
        (
            code("0", "7", 64),
            384,
            2272,
            0,
            "Guy-Smith periodicity theorem, checked on heaps 0..5376",
        ),
        (
            code("4", "7", 30),
            31,
            3989,
            0,
            "Guy-Smith periodicity theorem, checked on heaps 0..8070",
        ),
        (
            code("0", "F", 40),
            1,
            0,
            1,
            "arithmetic periodicity by grundy's level test (saltus a power of two), checked on heaps 0..1024",
        ),
        (
            code("0", "C", 16),
            2,
            1,
            1,
            "arithmetic periodicity by grundy's level test (saltus a power of two), checked on heaps 0..1024",
        ),
    ] {
        let answer = json(&["seq", "--json", &rule, "-n", "100"]);
        assert_eq!(
            (
                answer["period"].as_u64(),
                answer["preperiod"].as_u64(),
                answer["saltus"].as_u64(),
                answer["proven"].as_bool(),
                answer["proof"].as_str(),
            ),
            (
                Some(period),
                Some(preperiod),
                Some(saltus),
                Some(true),
                Some(proof)
            ),
            "{rule}"
        );
    }
    // No period within the 16385 values of the search past N, as before.
    for rule in [code("0", "7", 200), code("0", "6", 30), code("0", "07", 30)] {
        let answer = json(&["seq", "--json", &rule, "-n", "100"]);
        assert!(answer["period"].is_null(), "{rule}: {answer}");
        assert_eq!(answer["computed"], 16385, "{rule}");
        assert_eq!(answer["proof"], "none", "{rule}");
    }
    // The values are the plain method's.
    let rule = code("0", "7", 64);
    let fast = json(&["seq", "--json", &rule, "-n", "1500"]);
    let plain = json(&["seq", "--json", "--method", "plain", &rule, "-n", "1500"]);
    assert_eq!(fast["values"], plain["values"]);
}

/// `--kernel`: every kernel this machine runs gives the same answer as the scalar
/// one (Officers past its rare heaps and 9-bit values, 0.16 with 8-bit ones); `auto`
/// is the default; a name that is no kernel, or a kernel the machine lacks, is exit
/// 2 naming what it lacks. The option is in `--help`, not in `-h`.
#[test]
fn every_kernel_gives_the_same_values() {
    let scalar_only = |rule: &str, n: &str, kernel: &str| {
        json(&[
            "seq",
            "--json",
            "--threads",
            "1",
            "--kernel",
            kernel,
            rule,
            "-n",
            n,
        ])
    };
    for (rule, n) in [("octal[0.6]", "60000"), ("octal[0.16]", "30000")] {
        let reference = scalar_only(rule, n, "scalar");
        let default = json(&["seq", "--json", rule, "-n", n]);
        assert_eq!(default, reference, "{rule}: auto");
        for kernel in ["auto", "avx2", "avx512"] {
            let output = grundy(&["seq", "--json", "--kernel", kernel, rule, "-n", n]);
            if output.status.success() {
                let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
                assert_eq!(answer, reference, "{rule}: {kernel}");
            } else {
                // Only a kernel this machine lacks is refused.
                assert_eq!(output.status.code(), Some(2), "{kernel}");
                let stderr = String::from_utf8(output.stderr).unwrap();
                assert!(
                    stderr.contains(&format!("cannot run the {kernel} kernel: it lacks")),
                    "{stderr}"
                );
                assert!(stderr.contains("it runs auto, scalar"), "{stderr}");
            }
        }
    }
    let output = grundy(&["seq", "--kernel", "sse9", "kayles", "-n", "5"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("no kernel is named \"sse9\" (the kernels: auto, scalar, avx2, avx512)"),
        "{stderr}"
    );
    let short = String::from_utf8(grundy(&["seq", "-h"]).stdout).unwrap();
    assert!(!short.contains("--kernel"), "{short}");
    let long = String::from_utf8(grundy(&["seq", "--help"]).stdout).unwrap();
    assert!(long.contains("--kernel <KERNEL>"), "{long}");
}
