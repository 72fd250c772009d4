//! Chomp, Cram and the divisor game from the command line: winning
//! moves that replay to P-positions, and bad input named.

use serde_json::Value;

use crate::support::{grundy, solve_json};

#[test]
fn winning_moves_replay_to_p_positions() {
    for expression in [
        "chomp([4, 4, 4])",
        "chomp([4, 2, 1]) + nim(1)",
        "chomp([7, 7, 7, 7, 7, 7])",
        "divisors([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])",
        "divisors([2, 3, 4, 6]) + nim(1)",
    ] {
        let answer = solve_json(expression);
        assert_eq!(answer["position"], expression);
        for mv in answer["winning_moves"].as_array().unwrap() {
            let to = mv["to"].as_str().unwrap();
            assert_eq!(solve_json(to)["outcome"], "P", "{expression} -> {to}");
        }
    }
    // Strategy stealing: every bar but 1 x 1 and every divisors(n) is a
    // first-player win.
    assert_eq!(solve_json("chomp(1, 1)")["outcome"], "P");
    assert_eq!(solve_json("chomp(6, 5)")["outcome"], "N");
    assert_eq!(solve_json("divisors(1)")["outcome"], "N");
    assert_eq!(solve_json("divisors(20)")["outcome"], "N");
    // A square: eating (2, 2) leaves two equal arms.
    let square = solve_json("chomp(5, 5)");
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

/// Cram: the nimber, every winning move replayed to a P-position
/// (alone, with holes, and in sums, including a board that theory answers 0
/// whose moves to 1 are then searched), bad input named with its column, and
/// the state limit named.
#[test]
fn cram_winning_moves_replay_and_bad_input_is_named() {
    let answer = solve_json("cram(3, 4)");
    assert_eq!(answer["position"], "cram(\"..../..../....\")");
    assert_eq!(answer["nimber"], 1);
    assert_eq!(answer["winning_move_count"], 7);
    for expression in [
        "cram(3, 4)",
        "cram(3, 5)",
        "cram(\"..#./..../.#..\")",
        "cram(\"...../.#.#./.....\")",
        "cram(3, 5) + nim(1)",
        "cram(4, 4) + nim(1)",
        "cram(3, 3) + cram(2, 3) + nim(3)",
    ] {
        let answer = solve_json(expression);
        let moves = answer["winning_moves"].as_array().unwrap();
        assert_eq!(answer["winning_move_count"], moves.len(), "{expression}");
        assert_eq!(
            answer["outcome"] == "N",
            !moves.is_empty(),
            "{expression}: {answer}"
        );
        for mv in moves {
            let to = mv["to"].as_str().unwrap();
            let after = solve_json(to);
            assert_eq!(after["outcome"], "P", "{expression} -> {to}");
            assert_eq!(after["nimber"], 0, "{expression} -> {to}");
        }
    }
    // Even by even boards are 0 by the symmetry strategy; two equal boards
    // cancel.
    assert_eq!(solve_json("cram(4, 6)")["outcome"], "P");
    assert_eq!(solve_json("cram(3, 5) + cram(5, 3)")["nimber"], 0);

    for (expression, expected) in [
        ("cram(\"..x\")", "(column 9)"),
        ("cram(\"../...\")", "row 2 has 3"),
        ("cram(12, 11)", "at most 121 cells"),
        ("cram(0, 3)", "not a side"),
    ] {
        let output = grundy(&["solve", expression]);
        assert_eq!(output.status.code(), Some(2), "{expression}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(error.contains(expected), "{expression}: {error}");
    }
    let output = grundy(&["solve", "--max-states", "10", "cram(4, 5)"]);
    assert_eq!(output.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--max-states"));
}

#[test]
fn no_moves_answers_the_nimber_alone() {
    for (expression, nimber) in [
        ("cram(4, 5)", 2),
        ("cram(4, 5) + nim(3)", 1),
        ("nim(3, 5)", 6),
    ] {
        let output = grundy(&["solve", "--json", "--no-moves", expression]);
        assert!(output.status.success(), "{expression}");
        let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(answer["nimber"], nimber, "{expression}");
        assert_eq!(answer["outcome"], "N", "{expression}");
        assert!(answer["winning_move_count"].is_null(), "{expression}");
        let human = grundy(&["solve", "--no-moves", expression]);
        let text = String::from_utf8_lossy(&human.stdout);
        assert!(text.contains("first player wins"), "{text}");
        assert!(text.contains("winning moves: not counted"), "{text}");
    }
    // A P-position has no winning move to skip: the count is 0 as usual.
    let answer = solve_json("cram(4, 6)");
    let output = grundy(&["solve", "--json", "--no-moves", "cram(4, 6)"]);
    let skipped: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(skipped["winning_move_count"], answer["winning_move_count"]);
}
