//! The games on graphs from the command line: answers, sums,
//! every start at once, and bad input (exit 2 naming the line, exit 3 naming
//! the flag), with graphs large enough to break a recursive search.

use std::path::PathBuf;
use std::process::Output;
use std::time::Duration;

use serde_json::Value;

use crate::support::{grundy_within, json_of};

/// Runs grundy, killing it after a minute: a hang guard, far above what the
/// commands take, so that a regression fails instead of hanging CI.
fn grundy(args: &[&str]) -> Output {
    grundy_within(args, Duration::from_secs(60))
}

fn json(args: &[&str]) -> Value {
    json_of(&grundy(args))
}

/// A file holding `text`, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> Self {
        let path = std::env::temp_dir().join(format!("grundy-graph-{}-{name}", std::process::id()));
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

/// Exit code 2 or 3 and the error text.
fn failure(args: &[&str]) -> (i32, String) {
    let output = grundy(args);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    (output.status.code().unwrap(), stderr)
}

#[test]
fn dag_tokens_add_as_a_sum_and_winning_moves_keep_the_graph_text() {
    let answer = json(&[
        "solve",
        "--json",
        "dag(\"4 4; 1 2; 2 3; 1 3; 3 4\", 1, 2, 2)",
    ]);
    // Nimbers: 4 -> 0, 3 -> 1, 2 -> 0, 1 -> mex{0, 1} = 2.
    assert_eq!(answer["nimber"], 2);
    assert_eq!(answer["winning_move_count"], 1);
    assert_eq!(
        answer["winning_moves"][0]["to"],
        "dag(\"4 4; 1 2; 2 3; 1 3; 3 4\", 2, 2, 2)"
    );
    let to = answer["winning_moves"][0]["to"].as_str().unwrap();
    assert_eq!(json(&["solve", "--json", to])["outcome"], "P");
}

#[test]
fn graph_games_play_in_sums_with_other_games_misere_and_rounds() {
    let graph = TempFile::new("sum", "5 4\n1 2\n2 3\n3 4\n4 5\n");
    let g = graph.arg();
    // A directed path 1 -> ... -> 5: the token on 3 has nimber 0 (two moves
    // left), on 2 nimber 1; the tree walk on the path is complete-graph
    // geography.
    let sum = format!("dag({g}, 2) + tree_walk({g}, 2) + nim(4)");
    let answer = json(&["solve", "--json", &sum]);
    assert!(answer["nimber"].is_number(), "{answer}");
    for mv in answer["winning_moves"].as_array().unwrap() {
        let to = mv["to"].as_str().unwrap();
        assert_eq!(json(&["solve", "--json", to])["outcome"], "P", "{to}");
    }
    let misere = json(&["solve", "--json", &format!("misere(dag({g}, 1, 2))")]);
    // Misère: the last mover loses. Tokens with 4 and 3 moves left: 7 moves in
    // all, a fixed number, so the player to move makes the last move and loses.
    assert_eq!(misere["outcome"], "P");
    let rounds = json(&["solve", "--json", &format!("rounds[3](dag({g}, 1))")]);
    assert!(rounds["outcome"].is_string());
}

#[test]
fn every_start_at_once() {
    let output = grundy(&[
        "solve",
        "--all-starts",
        "--json",
        "dag(\"4 4; 1 2; 2 3; 1 3; 3 4\")",
    ]);
    assert!(output.status.success());
    let lines: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let nimbers: Vec<u64> = lines
        .iter()
        .map(|line| line["nimber"].as_u64().unwrap())
        .collect();
    assert_eq!(nimbers, vec![2, 0, 1, 0]);
    assert_eq!(lines[1]["position"], "dag(\"4 4; 1 2; 2 3; 1 3; 3 4\", 2)");
    assert_eq!(lines[1]["outcome"], "P");
    // Each line's position is answered the same by `solve`.
    for game in [
        "tree_walk(\"6 5; 1 2; 1 3; 3 4; 3 5; 5 6\")",
        "geography(\"7 8; 1 2; 2 3; 3 1; 3 4; 4 5; 5 6; 6 4; 6 7\")",
        "geography(\"5 4; 1 2; 2 3; 3 4; 4 5\")",
    ] {
        let output = grundy(&["solve", "--all-starts", "--json", game]);
        assert!(output.status.success());
        for line in String::from_utf8(output.stdout).unwrap().lines() {
            let line: Value = serde_json::from_str(line).unwrap();
            let alone = json(&["solve", "--json", line["position"].as_str().unwrap()]);
            assert_eq!(alone["outcome"], line["outcome"], "{line}");
            if line["outcome"] == "P" {
                assert_eq!(line["nimber"], 0);
            }
        }
    }
    let (code, error) = failure(&["solve", "--all-starts", "nim(3)"]);
    assert_eq!(code, 2);
    assert!(error.contains("not of `nim`"), "{error}");
}

#[test]
fn bad_graphs_name_the_line() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "out-of-range",
            "3 2\n1 2\n2 4\n",
            "line 3: vertex 4 is out of 1..3",
        ),
        (
            "too-few",
            "3 2\n1 2\n",
            "declares m = 2 edges on line 1 but lists 1",
        ),
        (
            "too-many",
            "3 1\n1 2\n2 3\n",
            "line 3: more edges than the m = 1",
        ),
        (
            "not-a-number",
            "3 1\n1 b\n",
            "line 2: `b` is not a non-negative integer",
        ),
        ("empty", "# nothing here\n\n", "the graph is empty"),
        ("no-vertices", "0 0\n", "at least one vertex"),
    ];
    for (name, text, expected) in cases {
        let file = TempFile::new(name, text);
        for game in ["dag", "tree_walk"] {
            let (code, error) = failure(&["solve", &format!("{game}({}, 1)", file.arg())]);
            assert_eq!(code, 2, "{name}: {error}");
            assert!(error.contains(expected), "{name}: {error}");
        }
    }
    let (code, error) = failure(&["solve", "dag(\"3 3; 1 2; 2 3; 3 1\", 1)"]);
    assert_eq!(code, 2);
    assert!(
        error.contains("cycle: 1 -> 2 -> 3 -> 1; its closing edge is on line 4"),
        "{error}"
    );
    let (code, error) = failure(&["solve", "tree_walk(\"4 3; 1 2; 2 3; 3 2\", 1)"]);
    assert_eq!(code, 2);
    assert!(
        error.contains("line 4: the edge 3 2 closes a cycle"),
        "{error}"
    );
    let (code, error) = failure(&["solve", "tree_walk(\"4 2; 1 2; 2 3\")"]);
    assert_eq!(code, 2);
    assert!(error.contains("a tree on 4 vertices has 3"), "{error}");
    let (code, error) = failure(&["solve", "dag(\"3 2; 1 2; 2 3\", 4)"]);
    assert_eq!(code, 2);
    assert!(
        error.contains("vertex 4 is out of 1..3 (column 22)"),
        "{error}"
    );
    let (code, error) = failure(&["solve", "dag(@/nonexistent/graph.txt, 1)"]);
    assert_eq!(code, 2);
    assert!(error.contains("cannot read"), "{error}");
    let (code, error) = failure(&["solve", "dag(3, 1)"]);
    assert_eq!(code, 2);
    assert!(error.contains("takes a graph here"), "{error}");
}

#[test]
fn a_graph_too_large_for_the_memory_limit_is_exit_3_naming_the_flag() {
    let mut text = String::from("2000 20000\n");
    for i in 0..20_000 {
        text.push_str(&format!("{} {}\n", 1 + i % 1000, 1001 + i % 1000));
    }
    let file = TempFile::new("large", &text);
    let (code, error) = failure(&[
        "solve",
        "--max-memory",
        "100K",
        &format!("dag({}, 1)", file.arg()),
    ]);
    assert_eq!(code, 3, "{error}");
    assert!(error.contains("--max-memory"), "{error}");
    let answer = json(&["solve", "--json", &format!("dag({}, 1)", file.arg())]);
    assert_eq!(answer["outcome"], "N");
}

#[test]
fn a_path_of_a_million_vertices_is_no_stack_overflow() {
    let n = 1_000_000;
    let mut text = format!("{n} {}\n", n - 1);
    for v in 1..n {
        text.push_str(&format!("{v} {}\n", v + 1));
    }
    let file = TempFile::new("path", &text);
    // A directed path: the token on 1 has n - 1 moves left, a nimber of their
    // parity.
    let answer = json(&["solve", "--json", &format!("dag({}, 1)", file.arg())]);
    assert_eq!(answer["nimber"], (n - 1) % 2);
    // The tree walk on a path: every pair of vertices is comparable, so the
    // graph is complete and has a perfect matching (n even).
    let answer = json(&["solve", "--json", &format!("tree_walk({})", file.arg())]);
    assert_eq!(answer["outcome"], "P");
    let answer = json(&["solve", "--json", &format!("tree_walk({}, 7)", file.arg())]);
    assert_eq!(answer["outcome"], "N");
}
