//! String games from the command line: answers that replay,
//! sums and rounds, and bad words named by line and column.

use crate::support::{grundy, solve_json};

#[test]
fn winning_letters_lead_to_p_positions() {
    for expression in [
        "prefix_game([\"abc\", \"abd\", \"b\"])",
        "substring_game([\"abab\", \"bba\"])",
        "substring_game([\"abcab\", \"cc\"], \"c\") + prefix_game([\"ab\", \"b\"])",
        "substring_game([\"aaaa\"]) + nim(1)",
    ] {
        let answer = solve_json(expression);
        assert_eq!(answer["position"], expression);
        for mv in answer["winning_moves"].as_array().unwrap() {
            let to = mv["to"].as_str().unwrap();
            assert_eq!(solve_json(to)["outcome"], "P", "{expression} -> {to}");
        }
    }
    // "aaaa": the substrings a, aa, aaa, aaaa: 4 moves in a row, nimber 0.
    assert_eq!(solve_json("substring_game([\"aaaa\"])")["nimber"], 0);
    assert_eq!(solve_json("substring_game([\"aaaa\"], \"a\")")["nimber"], 1);
}

#[test]
fn rounds_of_a_string_game() {
    let answer = solve_json("rounds[3](prefix_game([\"ab\", \"c\"]))");
    assert!(answer["outcome"].is_string());
}

#[test]
fn bad_words_are_named() {
    let path = std::env::temp_dir().join(format!("grundy-words-{}", std::process::id()));
    std::fs::write(&path, "abc\n\nab1c\n").unwrap();
    let output = grundy(&["solve", &format!("prefix_game(@{})", path.display())]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(output.status.code(), Some(2));
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("line 3, column 3: `1` is not a letter a-z"),
        "{error}"
    );
    for (expression, expected) in [
        ("prefix_game([\"aB\"])", "`B` is not a letter a-z"),
        (
            "prefix_game([\"ab\"], \"b\")",
            "\"b\" is not a prefix of any of the words",
        ),
        ("substring_game([\"ab\"], \"ba\")", "not a substring"),
        ("prefix_game([1])", "quoted strings"),
        ("prefix_game()", "needs its words"),
    ] {
        let output = grundy(&["solve", expression]);
        assert_eq!(output.status.code(), Some(2), "{expression}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(error.contains(expected), "{expression}: {error}");
    }
    let output = grundy(&["solve", "--max-memory", "10", "prefix_game([\"abcdefgh\"])"]);
    assert_eq!(output.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--max-memory"));
}
