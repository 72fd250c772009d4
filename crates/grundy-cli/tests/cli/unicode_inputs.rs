//! Characters outside ASCII in the strings of positions (boards, coin rows,
//! words, graphs, scripts) and in `@PATH` files are bad input: exit 2 with an
//! `error:` line, never a panic (exit 101); and in `solve --file` mode a bad
//! line leaves the later lines answered.

use std::path::PathBuf;

use crate::support::{grundy, stderr};

/// A file holding `bytes`, in the directory cargo gives integration tests.
fn file(name: &str, bytes: &[u8]) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("unicode-{name}"));
    std::fs::write(&path, bytes).unwrap();
    path
}

/// `grundy solve EXPR` is exit 2 with an `error:` line (and no backtrace).
fn bad_input(expression: &str) -> String {
    let output = grundy(&["solve", expression]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{expression}: {err}");
    assert!(err.starts_with("error: "), "{expression}: {err}");
    assert!(!err.contains("internal error"), "{expression}: {err}");
    assert!(!err.contains("panicked"), "{expression}: {err}");
    err
}

#[test]
fn cram_cells_outside_ascii_are_named_with_their_column() {
    let err = bad_input("cram(\"é\")");
    assert!(
        err.starts_with("error: row 1, column 1: `é` is not a cell"),
        "{err}"
    );
    assert!(err.contains("(column 7)"), "{err}");
    let err = bad_input("cram(\"../😀.\")");
    assert!(
        err.starts_with("error: row 2, column 1: `😀` is not a cell"),
        "{err}"
    );
    assert!(err.contains("(column 10)"), "{err}");
    // A no-break space is shown escaped: it would not be seen.
    let err = bad_input("cram(\"\u{a0}..#./....\")");
    assert!(
        err.starts_with("error: row 1, column 1: `\\u{a0}` is not a cell"),
        "{err}"
    );
    // A combining mark after a cell.
    let err = bad_input("cram(\"..#./..\u{301}.\")");
    assert!(
        err.starts_with("error: row 2, column 3: `\\u{301}` is not a cell"),
        "{err}"
    );
}

#[test]
fn other_strings_outside_ascii_are_errors() {
    for expression in [
        "turtles(\"hé\")",
        "turtles(\"h\u{301}t\")",
        "mock_turtles(\"😀\")",
        "twins(\"\u{ff48}t\")",
        "ruler(\"éh\")",
        "coins[1, 2](\"h😀t\")",
        "prefix_game([\"ab\", \"é\"])",
        "prefix_game([\"ab\"], \"a\u{301}\")",
        "substring_game([\"ab\"], \"😀\")",
        "dag(\"3 2; 1 2; 2 é\", 1)",
        "dag(\"\u{ff13} 2; 1 2; 2 3\", 1)",
        "hackenbush(\"2 1; 1 😀\")",
        "geography(\"3 2; 1 2; 2 3\u{301}\", 1)",
        "tree_walk(\"3 2; 1 2; 1 3é\")",
        "geography_board(\"é.\")",
        "chomp([\"é\"])",
        "divisors(\"é\")",
        "nim(\"😀\")",
        "script[\"fn moves(n) { é }\"](3)",
        "script[\"fn moves(n) { [n] }\"](\"😀\")",
        "nim(3) + cram(\"é\")",
        "misere(cram(\"😀\"))",
        "nim(3, é)",
    ] {
        bad_input(expression);
    }
}

#[test]
fn files_outside_ascii_or_not_utf8_are_errors() {
    let not_utf8 = file("not-utf8.txt", &[0xff, 0xfe, b'3', b'\n', 0xc3]);
    let unicode = file("heaps.txt", "ééééééééééééééééééééé\n".repeat(3).as_bytes());
    let cut = file("cut.txt", &"3 2\n1 2\n2 3é".as_bytes()[..13]);
    let bom = file("bom.txt", "\u{feff}3 2\n1 2\n2 3\n".as_bytes());
    let words = file("words.txt", "ab\na\u{301}b\n".as_bytes());
    for path in [&not_utf8, &unicode, &cut, &bom, &words] {
        let at = format!("@{}", path.display());
        for expression in [
            format!("nim({at})"),
            format!("dag({at}, 1)"),
            format!("hackenbush({at})"),
            format!("prefix_game({at})"),
            format!("script[{at}](3)"),
        ] {
            let output = grundy(&["solve", &expression]);
            let code = output.status.code();
            let err = stderr(&output);
            // Some of these files are good for some games (words for a word game).
            assert!(
                code == Some(0) || (code == Some(2) && err.starts_with("error: ")),
                "{expression}: {code:?} {err}"
            );
            assert!(!err.contains("internal error"), "{expression}: {err}");
        }
    }
    let err = bad_input(&format!("nim(@{})", unicode.display()));
    assert!(err.contains("line 1, column 1"), "{err}");
}

#[test]
fn a_bad_line_in_a_batch_does_not_stop_the_later_lines() {
    let batch = file(
        "batch.txt",
        // A NUL cannot stand in a command line's argument, but can in a file.
        "nim(1)\ncram(\"é\")\nturtles(\"h😀\")\ncram(\"../😀.\")\ncram(\"\0..\")\nnim(2, 3)\n"
            .as_bytes(),
    );
    let output = grundy(&["solve", "--json", "--file", &batch.display().to_string()]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    let answers: Vec<String> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            value["position"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(answers, ["nim(1)", "nim(2, 3)"], "{err}");
    for line in [2, 3, 4, 5] {
        assert!(err.contains(&format!("error: line {line}: ")), "{err}");
    }
    assert!(!err.contains("internal error"), "{err}");
}
