//! Coin turning from the command line: answers that replay, long
//! rows answered fast, and bad rows and rules named.

use serde_json::Value;

use crate::support::{grundy, solve_json};

#[test]
fn winning_moves_replay_to_p_positions() {
    for expression in [
        "turtles(\"thhth\")",
        "mock_turtles(\"hthhth\")",
        "twins(\"thht\", \"hh\")",
        "ruler(\"hhthhh\") + nim(3)",
        "coins[1, 2, 3, span=3](\"hhthth\")",
        "coins[span=3, consecutive=1](\"hhhhh\")",
        "coins[2, 4](\"thhthh\") + nim(2)",
    ] {
        let answer = solve_json(expression);
        assert_eq!(answer["position"], expression);
        assert!(
            answer["winning_move_count"].as_u64().unwrap() >= 1,
            "{answer}"
        );
        for mv in answer["winning_moves"].as_array().unwrap() {
            let to = mv["to"].as_str().unwrap();
            assert_eq!(solve_json(to)["outcome"], "P", "{expression} -> {to}");
        }
    }
    // Turtles is Nim on the heads' places: heads at 2, 3 and 5 give 2^3^5 = 4.
    assert_eq!(solve_json("turtles(\"thhth\")")["nimber"], 4);
}

#[test]
fn a_row_of_a_million_coins() {
    let row: String = (0..1_000_000)
        .map(|i| if i % 7 == 3 { 'h' } else { 't' })
        .collect();
    // Too long for a command line: one position a line of a file.
    let path = std::env::temp_dir().join(format!("grundy-coins-{}", std::process::id()));
    std::fs::write(
        &path,
        format!("ruler(\"{row}\")\nmock_turtles(\"{row}\")\n"),
    )
    .unwrap();
    let output = grundy(&["solve", "--json", "--file", &path.display().to_string()]);
    std::fs::remove_file(&path).unwrap();
    assert!(output.status.success());
    let answers: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(answers.len(), 2);
    assert!(answers.iter().all(|answer| answer["nimber"].is_number()));
}

#[test]
fn bad_rows_and_rules_are_named() {
    for (expression, expected) in [
        ("turtles(\"hxh\")", "coin 2 is `x`"),
        ("turtles(3)", "rows of coins"),
        ("turtles[2](\"h\")", "takes no parameters"),
        ("coins[0](\"h\")", "must be from 1"),
        ("coins[foo=1](\"h\")", "a coin rule is counts"),
    ] {
        let output = grundy(&["solve", expression]);
        assert_eq!(output.status.code(), Some(2), "{expression}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(error.contains(expected), "{expression}: {error}");
    }
    // Any number of coins anywhere: the head at r is worth 2^(r - 1), so 64
    // coins fit and 65 do not.
    let answer = solve_json(&format!("coins[](\"{}\")", "h".repeat(64)));
    assert_eq!(answer["nimber"], u64::MAX.to_string());
    let output = grundy(&["solve", &format!("coins[](\"{}\")", "h".repeat(65))]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("2^64"));
    // Three coins anywhere: quadratic work per value, refused past the limit.
    let row = "h".repeat(100_000);
    let path = std::env::temp_dir().join(format!("grundy-coins3-{}", std::process::id()));
    std::fs::write(&path, format!("coins[3](\"{row}\")\n")).unwrap();
    let output = grundy(&["solve", "--file", &path.display().to_string()]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(output.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--max-work"));
}
