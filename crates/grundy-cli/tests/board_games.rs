//! Chomp and the divisor game from the command line (issue #15): winning
//! moves that replay to P-positions, and bad input named.

use std::process::Command;

use serde_json::Value;

fn grundy(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .output()
        .unwrap()
}

fn json(expression: &str) -> Value {
    let output = grundy(&["solve", "--json", expression]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn winning_moves_replay_to_p_positions() {
    for expression in [
        "chomp([4, 4, 4])",
        "chomp([4, 2, 1]) + nim(1)",
        "chomp([7, 7, 7, 7, 7, 7])",
        "divisors([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])",
        "divisors([2, 3, 4, 6]) + nim(1)",
    ] {
        let answer = json(expression);
        assert_eq!(answer["position"], expression);
        for mv in answer["winning_moves"].as_array().unwrap() {
            let to = mv["to"].as_str().unwrap();
            assert_eq!(json(to)["outcome"], "P", "{expression} -> {to}");
        }
    }
    // Strategy stealing: every bar but 1 x 1 and every divisors(n) is a
    // first-player win.
    assert_eq!(json("chomp(1, 1)")["outcome"], "P");
    assert_eq!(json("chomp(6, 5)")["outcome"], "N");
    assert_eq!(json("divisors(1)")["outcome"], "N");
    assert_eq!(json("divisors(20)")["outcome"], "N");
    // A square: eating (2, 2) leaves two equal arms.
    let square = json("chomp(5, 5)");
    assert_eq!(square["winning_moves"][0]["move"], "eat row 2, column 2");
}

#[test]
fn too_large_is_exit_3_and_bad_input_exit_2() {
    for expression in [
        "chomp(10, 10)",
        "chomp(65536, 1)",
        "chomp(1, 1000000)",
        "chomp(1, 70000)",
    ] {
        let output = grundy(&["solve", "--max-states", "1000", expression]);
        assert_eq!(output.status.code(), Some(3), "{expression}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("--max-states"));
    }
    for (expression, expected) in [
        ("chomp(0, 3)", "at least one row"),
        ("chomp([2, 3])", "never increase"),
        ("chomp([0])", "poisoned square"),
        ("divisors(200)", "at most 128"),
        ("divisors([2, 2])", "listed twice"),
        ("divisors([0])", "not a positive integer"),
    ] {
        let output = grundy(&["solve", expression]);
        assert_eq!(output.status.code(), Some(2), "{expression}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(error.contains(expected), "{expression}: {error}");
    }
}
