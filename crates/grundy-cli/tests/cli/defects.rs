//! Regression tests for the defects found by trying grundy as a new user would:
//! each command answers, or refuses with exit 3, and never runs on.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{grundy_within, json_of};

fn json(args: &[&str]) -> Value {
    json_of(&grundy_within(args, Duration::from_secs(60)))
}

#[test]
fn a_p_position_has_nimber_zero_and_a_lone_component_gets_its_nimber_by_search() {
    // A P-position of Wythoff's game, with piles of 40 digits.
    let answer = json(&[
        "solve",
        "--json",
        "wythoff(161803398874989484820, 261803398874989484820)",
    ]);
    assert_eq!(answer["outcome"], "P");
    assert_eq!(answer["nimber"], 0);
    // Moore's Nim alone: the nimber by a bounded search (7, as inside sums).
    let answer = json(&["solve", "--json", "moore[2](5, 2)"]);
    assert_eq!(answer["nimber"], 7);
    let in_a_sum = json(&["solve", "--json", "moore[2](5, 2) + nim(7)"]);
    assert_eq!(in_a_sum["nimber"], 0);
    // Too large to search: the nimber is null and the notes say why.
    let answer = json(&["solve", "--json", "wythoff(1000, 2000)"]);
    assert_eq!(answer["nimber"], Value::Null);
    assert_eq!(answer["winning_move_count"], 1);
    let notes = answer["notes"][0].as_str().unwrap();
    assert!(notes.contains("was not searched"), "{notes}");
}

#[test]
fn uncountable_moves_still_answer_outcome_and_nimber() {
    let answer = json(&["solve", "--json", "rest_nim(3000, 1)"]);
    assert_eq!(answer["outcome"], "N");
    assert_eq!(answer["nimber"], 3001);
    assert_eq!(answer["winning_move_count"], Value::Null);
    let notes = answer["notes"][0].as_str().unwrap();
    assert!(notes.contains("rest_nim(3000) were not counted"), "{notes}");
}

#[test]
fn an_empty_sum_names_its_method() {
    let answer = json(&["solve", "--json", "nim()"]);
    assert_eq!(answer["outcome"], "P");
    assert_eq!(answer["method"], "empty sum: no move");
}

#[test]
fn searches_of_sums_refuse_within_their_budget() {
    for position in [
        "wythoff(1000, 2000) + nim(3)",
        // Fibonacci Nim's value here is at least 4 by theory, unknown: the
        // sum with nim(4) needs it.
        "fibonacci_nim(1000000) + nim(4)",
        "dynamic_sub[3](3000) + bash[2](5)",
        "nim(1) + dynamic_sub[18](3000, 15)",
        "wythoff(18, 610524) + grundy_game(8)",
        "misere(dawson_kayles(941863))",
    ] {
        let output = grundy_within(&["solve", position], Duration::from_secs(60));
        assert_eq!(output.status.code(), Some(3), "{position}");
        let message = String::from_utf8_lossy(&output.stderr);
        assert!(message.contains("--max-states"), "{position}: {message}");
    }
    // A smaller search answers.
    let answer = json(&["solve", "--json", "fibonacci_nim(100) + nim(1)"]);
    assert_eq!(answer["outcome"], "N");
    // The families' own tables answer what the explorer refused ("better
    // still, answer these sums"): Wythoff's dense table, dynamic subtraction's
    // triangle.
    for position in [
        "dynamic_sub[3](1000) + bash[2](5)",
        "nim(1) + dynamic_sub[18](1000, 15)",
        "wythoff(1000, 1000) + nim(3)",
    ] {
        let answer = json(&["solve", "--json", position]);
        assert!(answer["nimber"].is_u64(), "{position}: {answer}");
    }
    let answer = json(&[
        "solve",
        "--json",
        "--max-states",
        "2100000",
        "wythoff(1000, 2000) + nim(3)",
    ]);
    assert_eq!(answer["winning_move_count"], 1);
}

#[test]
fn limits_set_to_zero_refuse_instead_of_answering() {
    for (flag, position) in [
        ("--max-memory", "kayles(50)"),
        ("--max-memory", "octal[0.6](100) + wythoff(3, 4)"),
        ("--max-heap", "kayles(50)"),
        ("--max-heap", "grundy_game(10) + nim(1)"),
    ] {
        let output = grundy_within(&["solve", flag, "0", position], Duration::from_secs(60));
        assert_eq!(output.status.code(), Some(3), "{flag} 0 {position}");
        let message = String::from_utf8_lossy(&output.stderr);
        assert!(message.contains(flag), "{flag} 0 {position}: {message}");
    }
    // What needs no table still answers: Nim has a closed form.
    let answer = json(&["solve", "--json", "--max-memory", "0", "nim(3, 5)"]);
    assert_eq!(answer["nimber"], 6);
    // A limit below the period search still answers the heaps it allows.
    let answer = json(&["solve", "--json", "--max-heap", "100", "kayles(50)"]);
    assert_eq!(answer["nimber"], 2);
}

#[test]
fn max_time_stops_any_command_with_exit_3() {
    for args in [
        &["seq", "--max-time", "1", "octal[0.6]", "-n", "100000000"][..],
        &[
            "--max-time",
            "1",
            "solve",
            "--max-states",
            "1000000000",
            "misere(dawson_kayles(941863))",
        ],
        &["solve", "--max-time", "0", "nim(1)"],
    ] {
        let start = Instant::now();
        let output = grundy_within(args, Duration::from_secs(30));
        assert_eq!(output.status.code(), Some(3), "{args:?}");
        let message = String::from_utf8_lossy(&output.stderr);
        assert!(
            message.contains("--max-time SECONDS"),
            "{args:?}: {message}"
        );
        assert!(start.elapsed() < Duration::from_secs(10), "{args:?}");
    }
    // Within the time, the answer is the same as without a limit.
    let answer = json(&["solve", "--json", "--max-time", "60", "nim(3, 5)"]);
    assert_eq!(answer["nimber"], 6);
    // A bad number of seconds is bad input.
    let output = grundy_within(
        &["solve", "--max-time", "soon", "nim(1)"],
        Duration::from_secs(30),
    );
    assert_eq!(output.status.code(), Some(2));
}
