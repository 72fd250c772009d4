//! Games that may go on for ever from the command line: `digraph` (tokens on
//! a graph with cycles) and `annihilation`: outcome `D`, `loopy_value`,
//! `nimber: null`, every start at once, `@FILE`, tables, and bad input (exit
//! 2 with the column).

use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;

use crate::support::{grundy_within, json_of, stderr, stdout};

fn grundy(args: &[&str]) -> std::process::Output {
    grundy_within(args, Duration::from_secs(60))
}

fn json(args: &[&str]) -> Value {
    json_of(&grundy(args))
}

/// A file holding `text`, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> Self {
        let path = std::env::temp_dir().join(format!("grundy-loopy-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        Self(path)
    }

    fn arg(&self) -> String {
        format!("@{}", self.0.display())
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

const CYCLE: &str = "digraph(\"3 3; 1 2; 2 3; 3 1\", 1)";

#[test]
fn a_token_on_a_cycle_is_a_draw() {
    // `dag` refuses the graph; `digraph` answers it.
    let refused = grundy(&["solve", "dag(\"3 3; 1 2; 2 3; 3 1\", 1)"]);
    assert_eq!(refused.status.code(), Some(2));
    let output = grundy(&["solve", "--json", CYCLE]);
    assert_eq!(output.status.code(), Some(0));
    let answer = json_of(&output);
    assert_eq!(answer["outcome"], "D");
    assert_eq!(answer["first_player_wins"], false);
    assert_eq!(answer["nimber"], Value::Null);
    assert_eq!(answer["loopy_value"], "inf{}");
    assert_eq!(answer["winning_moves"], Value::Array(Vec::new()));
    assert_eq!(answer["winning_move_count"], 0);
    let human = grundy(&["solve", CYCLE]);
    let text = stdout(&human);
    assert!(
        text.contains("draw (neither player can force a win) (D-position"),
        "{text}"
    );
    assert!(text.contains("value: ∞{} (infinite"), "{text}");
}

#[test]
fn an_infinite_value_with_zero_among_its_options_wins_by_leaving_the_cycle() {
    let answer = json(&["solve", "--json", "digraph(\"2 2; 1 1; 1 2\", 1)"]);
    assert_eq!(answer["outcome"], "N");
    assert_eq!(answer["nimber"], Value::Null);
    assert_eq!(answer["loopy_value"], "inf{0}");
    assert_eq!(answer["winning_move_count"], 1);
    assert_eq!(
        answer["winning_moves"][0]["to"],
        "digraph(\"2 2; 1 1; 1 2\", 2)"
    );
    // Beside *1 the same token draws: ∞(0) + 1 = ∞(1).
    let sum = json(&["solve", "--json", "digraph(\"2 2; 1 1; 1 2\", 1) + nim(1)"]);
    assert_eq!(sum["outcome"], "D");
    assert_eq!(sum["loopy_value"], "inf{1}");
    // Beside a heap of 2, with ∞(0, 2): move the infinite token to value 2.
    let graph = "\"5 6; 1 1; 1 2; 1 3; 3 4; 3 5; 5 4\"";
    let win = json(&["solve", "--json", &format!("digraph({graph}, 1) + nim(2)")]);
    assert_eq!(win["loopy_value"], "inf{0,2}");
    assert_eq!(win["outcome"], "N");
    assert_eq!(
        win["winning_moves"][0]["to"],
        format!("digraph({graph}, 3) + nim(2)")
    );
    let after = json(&["solve", "--json", &format!("digraph({graph}, 3) + nim(2)")]);
    assert_eq!(after["outcome"], "P");
    assert_eq!(after["loopy_value"], "0");
}

#[test]
fn two_infinite_tokens_draw_and_finite_ones_keep_their_nimbers() {
    let draw = json(&[
        "solve",
        "--json",
        "digraph(\"2 2; 1 1; 1 2\", 1, 1) + dag(\"2 1; 1 2\", 1)",
    ]);
    assert_eq!(draw["outcome"], "D");
    assert_eq!(draw["loopy_value"], "inf{}");
    // A 2-cycle with an exit: finite values on a cycle, in a sum with Nim and
    // a board.
    let finite = json(&[
        "solve",
        "--json",
        "digraph(\"3 3; 1 2; 2 1; 2 3\", 1, 2) + nim(3) + chomp(2, 2)",
    ]);
    assert_eq!(finite["loopy_value"], finite["nimber"].to_string());
    assert!(finite["nimber"].is_u64());
}

#[test]
fn every_start_at_once_from_an_edge_list_file() {
    let file = TempFile::new(
        "g.txt",
        "# a cycle, an entry to it, a sink\n5 5\n1 2\n2 3\n3 1\n4 1\n4 5\n",
    );
    let output = grundy(&[
        "solve",
        "--all-starts",
        "--json",
        &format!("digraph({})", file.arg()),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let lines: Vec<Value> = stdout(&output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let outcomes: Vec<&str> = lines
        .iter()
        .map(|l| l["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(outcomes, ["D", "D", "D", "N", "P"]);
    let values: Vec<&str> = lines
        .iter()
        .map(|l| l["loopy_value"].as_str().unwrap())
        .collect();
    assert_eq!(values, ["inf{}", "inf{}", "inf{}", "inf{0}", "0"]);
    assert_eq!(lines[4]["nimber"], 0);
    assert_eq!(lines[3]["nimber"], Value::Null);
    assert_eq!(lines[0]["position"], format!("digraph({}, 1)", file.arg()));
    let text = stdout(&grundy(&[
        "solve",
        "--all-starts",
        &format!("digraph({})", file.arg()),
    ]));
    assert!(
        text.starts_with("vertex 1: draw (neither player can force a win) (D-position), value ∞{}"),
        "{text}"
    );
}

#[test]
fn bad_vertices_and_graphs_exit_2_naming_the_column() {
    for (position, message) in [
        (
            "digraph(\"2 1; 1 2\", 0)",
            "vertex 0 is out of 1..2 (column 21)",
        ),
        (
            "digraph(\"2 1; 1 2\", 3)",
            "vertex 3 is out of 1..2 (column 21)",
        ),
        (
            "digraph(\"2 1; 1 2\", 18446744073709551615)",
            "is out of 1..2 (column 21)",
        ),
        (
            &format!("digraph(\"2 1; 1 2\", 1{})", "0".repeat(100)),
            "is out of 1..2 (column 21)",
        ),
        (
            "digraph(\"2 1; 1 ２\", 1)",
            "`２` is not a non-negative integer (column 9)",
        ),
        (
            "digraph(\"2 1; 1 3\", 1)",
            "line 2: vertex 3 is out of 1..2 (column 9)",
        ),
        (
            "digraph(\"2 1; 0 1\", 1)",
            "line 2: vertex 0 is out of 1..2 (column 9)",
        ),
        ("digraph(\"18446744073709551616 1; 1 1\", 1)", "too large"),
        ("digraph(\"2 2; 1 2\", 1)", "declares m = 2 edges"),
        ("digraph(\"2 1; 1 2\", é)", "(column 21)"),
        (
            "annihilation(\"2 1; 1 2\", 1, 1)",
            "vertex 1 holds two tokens",
        ),
    ] {
        let output = grundy(&["solve", position]);
        let error = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{position}: {error}");
        assert!(
            error.starts_with("error: ") && error.contains(message),
            "{position}: {error}"
        );
        assert!(
            error.contains('^') && !error.contains("panicked"),
            "{position}: {error}"
        );
    }
}

#[test]
fn a_missing_file_exits_2_and_the_memory_limit_exits_3() {
    let output = grundy(&["solve", "digraph(@/nonexistent/g.txt, 1)"]);
    assert_eq!(output.status.code(), Some(2));
    let big = TempFile::new(
        "big.txt",
        &format!("100000 100000\n{}", "1 2\n".repeat(100_000)),
    );
    let output = grundy(&[
        "solve",
        "--max-memory",
        "1M",
        &format!("digraph({}, 1)", big.arg()),
    ]);
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("--max-memory"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn annihilation_is_answered_with_its_draws() {
    let answer = json(&[
        "solve",
        "--json",
        "annihilation(\"3 3; 1 2; 2 3; 3 1\", 1, 2)",
    ]);
    assert_eq!(answer["outcome"], "N");
    assert_eq!(
        answer["winning_moves"][0]["to"],
        "annihilation(\"3 3; 1 2; 2 3; 3 1\")"
    );
    let draw = json(&["solve", "--json", "annihilation(\"3 3; 1 2; 2 3; 3 1\", 1)"]);
    assert_eq!(draw["outcome"], "D");
    assert_eq!(draw["loopy_value"], "inf{}");
    let games = stdout(&grundy(&["games", "annihilation"]));
    assert!(
        games.contains("Fraenkel") && games.contains("Conway"),
        "{games}"
    );
}

#[test]
fn tables_of_loopy_positions_show_infinite_values_and_draws() {
    let graph = "\"4 5; 1 1; 1 2; 2 3; 3 2; 4 4\"";
    let values = json(&["table", "--json", &format!("digraph({graph}, v)"), "v=1..4"]);
    let cells: Vec<String> = values["values"]
        .as_array()
        .expect("the table's cells")
        .iter()
        .map(|cell| cell.to_string())
        .collect();
    assert_eq!(
        cells,
        ["\"inf{}\"", "\"inf{}\"", "\"inf{}\"", "\"inf{}\""],
        "{values}"
    );
    let outcomes = stdout(&grundy(&[
        "table",
        "--outcome",
        "--format",
        "csv",
        "digraph(\"3 3; 1 1; 1 2; 2 3\", v)",
        "v=1..3",
    ]));
    assert!(
        outcomes.contains('N') && outcomes.contains('P'),
        "{outcomes}"
    );
    let draws = stdout(&grundy(&[
        "table",
        "--outcome",
        "--format",
        "csv",
        CYCLE.replace(", 1)", ", v)").as_str(),
        "v=1..3",
    ]));
    assert_eq!(draws.matches('D').count(), 3, "{draws}");
}
