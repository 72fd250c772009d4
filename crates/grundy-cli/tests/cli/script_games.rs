//! Games defined in a Rhai script (`script[@PATH](ARGS)`), checked on the built binary:
//! the example scripts of `examples/scripts/` through `solve` and `seq`, sums with
//! built-in games, and every kind of bad input (exit 2) or limit reached (exit 3).

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{command, grundy_within, stderr};

/// The repository root, where `examples/scripts/` is: the tests run from there.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn grundy_in(dir: &Path, args: &[&str]) -> Output {
    command().args(args).current_dir(dir).output().unwrap()
}

fn grundy(args: &[&str]) -> Output {
    grundy_in(&root(), args)
}

fn json(args: &[&str]) -> Value {
    let output = grundy(args);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Asserts that `output` failed with `code` and a message holding every one of
/// `said`, without a panic.
fn fails(output: &Output, code: i32, said: &[&str]) {
    let message = stderr(output);
    assert_eq!(output.status.code(), Some(code), "{message}");
    assert!(message.starts_with("error: "), "{message}");
    assert!(!message.contains("panicked"), "{message}");
    for part in said {
        assert!(message.contains(part), "`{part}` not in: {message}");
    }
}

/// A directory of its own for a test's scripts.
fn scratch(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-script-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

#[test]
fn a_sum_with_nim_and_its_winning_moves_replayed() {
    let answer = json(&[
        "solve",
        "--json",
        "script[@examples/scripts/subtraction.rhai](10) + nim(4)",
    ]);
    assert_eq!(
        answer["position"],
        "script[@examples/scripts/subtraction.rhai](10) + nim(4)"
    );
    // G(10) = 1 for the subtraction set {1, 3, 4} (period 0 1 0 1 2 3 2), and 1 ^ 4 = 5.
    assert_eq!(answer["outcome"], "N");
    assert_eq!(answer["nimber"], 5);
    assert_eq!(answer["winning_move_count"], 1);
    let moves = answer["winning_moves"].as_array().unwrap();
    assert_eq!(
        moves[0]["to"],
        "script[@examples/scripts/subtraction.rhai](10) + nim(1)"
    );
    // Every winning move of a larger sum leads to a P-position.
    let answer = json(&[
        "solve",
        "--json",
        "script[@examples/scripts/subtraction.rhai](12) + script[@examples/scripts/bash.rhai](9) + nim(6)",
    ]);
    let moves = answer["winning_moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    assert_eq!(answer["winning_move_count"], moves.len());
    for winning in moves {
        let to = winning["to"].as_str().unwrap();
        let after = json(&["solve", "--json", to]);
        assert_eq!(after["outcome"], "P", "{to}");
        assert_eq!(after["position"], to);
    }
}

#[test]
fn the_examples_agree_with_the_builtins() {
    for (script, builtin) in [
        ("nim.rhai](9)", "nim(9)"),
        ("bash.rhai](10)", "bash[3](10)"),
        ("subtraction.rhai](17)", "sub[1, 3, 4](17)"),
        ("lasker.rhai](11)", "lasker(11)"),
        ("grundy_game.rhai](13)", "grundy_game(13)"),
        ("wythoff.rhai](6, 9)", "wythoff(6, 9)"),
        ("wythoff.rhai](3, 5)", "wythoff(3, 5)"),
    ] {
        let scripted = json(&[
            "solve",
            "--json",
            &format!("script[@examples/scripts/{script} + nim(2)"),
        ]);
        let native = json(&["solve", "--json", &format!("{builtin} + nim(2)")]);
        for field in ["outcome", "nimber", "winning_move_count"] {
            assert_eq!(scripted[field], native[field], "{script} {field}");
        }
    }
}

#[test]
fn misere_play_and_the_two_spellings_of_a_list() {
    let misere = json(&[
        "solve",
        "--json",
        "misere(script[@examples/scripts/nim.rhai](1) + script[@examples/scripts/nim.rhai](1) + nim(1))",
    ]);
    // Three heaps of one under misère play: the player to move takes one, the other
    // one, and the player to move takes the last and loses.
    assert_eq!(misere["convention"], "misere");
    assert_eq!(misere["outcome"], "P");
    let two = json(&[
        "solve",
        "--json",
        "misere(script[@examples/scripts/nim.rhai](1) + script[@examples/scripts/nim.rhai](3))",
    ]);
    let native = json(&["solve", "--json", "misere(nim(1, 3))"]);
    for field in ["outcome", "winning_move_count"] {
        assert_eq!(two[field], native[field], "{field}");
    }
    let listed = json(&[
        "solve",
        "--json",
        "script[@examples/scripts/wythoff.rhai]([5, 3])",
    ]);
    assert_eq!(
        listed["position"],
        "script[@examples/scripts/wythoff.rhai](5, 3)"
    );
    assert_eq!(listed["outcome"], "P");
}

#[test]
fn seq_of_the_examples() {
    let scripted = json(&[
        "seq",
        "--json",
        "script[@examples/scripts/subtraction.rhai]",
        "-n",
        "40",
    ]);
    let native = json(&["seq", "--json", "sub[1,3,4]", "-n", "40"]);
    assert_eq!(
        scripted["rule"],
        "script[@examples/scripts/subtraction.rhai]"
    );
    assert_eq!(scripted["values"], native["values"]);
    assert_eq!(scripted["period"], 7);
    assert_eq!(scripted["preperiod"], 0);
    assert_eq!(scripted["saltus"], 0);
    assert_eq!(
        scripted["proven"], false,
        "a script's period is never proven"
    );
    let lasker = json(&[
        "seq",
        "--json",
        "script[@examples/scripts/lasker.rhai]",
        "-n",
        "40",
    ]);
    let native = json(&["seq", "--json", "lasker", "-n", "40"]);
    assert_eq!(lasker["values"], native["values"]);
    assert_eq!(
        (lasker["period"].as_u64(), lasker["saltus"].as_u64()),
        (Some(4), Some(4))
    );
    assert_eq!(lasker["proven"], false);
    let human = grundy(&["seq", "script[@examples/scripts/bash.rhai]", "-n", "12"]);
    assert!(human.status.success());
    let text = String::from_utf8(human.stdout).unwrap();
    assert!(text.contains(" 0: 0 1 2 3 0 1 2 3 0 1"), "{text}");
    assert!(text.contains("NOT proven"), "{text}");
}

#[test]
fn seq_out_writes_the_values() {
    let dir = scratch("out", &[]);
    let out = dir.join("values.txt");
    let out_text = out.to_str().unwrap();
    let answer = json(&[
        "seq",
        "--json",
        "script[@examples/scripts/bash.rhai]",
        "-n",
        "19",
        "--out",
        out_text,
    ]);
    assert_eq!(answer["out"], out_text);
    assert_eq!(answer["period"], 4);
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(written, "0\n1\n2\n3\n".repeat(5));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn seq_needs_moves_to_smaller_integers() {
    let dir = scratch(
        "seq",
        &[
            ("up.rhai", "fn moves(n) {\n  [n + 1]\n}\n"),
            (
                "pairs.rhai",
                "fn moves(n) { if n == 2 { [[0, 1]] } else { [] } }\n",
            ),
            ("loop.rhai", "fn moves(n) {\n  loop { }\n}\n"),
        ],
    );
    let output = grundy_in(&dir, &["seq", "script[@up.rhai]", "-n", "5"]);
    fails(&output, 2, &["`up.rhai`", "moves(0) returned 1", "smaller"]);
    let output = grundy_in(&dir, &["seq", "script[@pairs.rhai]", "-n", "5"]);
    fails(&output, 2, &["moves(2) returned [0, 1]", "not an integer"]);
    let output = grundy_in(&dir, &["seq", "script[@loop.rhai]", "-n", "5"]);
    fails(&output, 3, &["--max-work"]);
    let output = grundy_in(&dir, &["seq", "script[@missing.rhai]", "-n", "5"]);
    fails(&output, 2, &["cannot read the script `missing.rhai`", "^"]);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_syntax_error_names_the_file_its_line_and_the_column_of_the_term() {
    let dir = scratch("syntax", &[("g.rhai", "fn moves(n) {\n  let x = ;\n}\n")]);
    let output = grundy_in(&dir, &["solve", "nim(1) + script[@g.rhai](3)"]);
    fails(
        &output,
        2,
        &[
            "syntax error in `g.rhai` at line 2, column 11",
            "(column 17)",
            "^^^",
        ],
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_runtime_error_names_the_line_and_the_position() {
    let dir = scratch(
        "runtime",
        &[
            ("index.rhai", "fn moves(n) {\n  let a = [1];\n  [a[n]]\n}\n"),
            (
                "throw.rhai",
                "fn moves(n) {\n  if n == 2 { throw \"no\" }\n  if n > 0 { [n - 1] } else { [] }\n}\n",
            ),
            ("type.rhai", "fn moves(n) {\n  [0.5]\n}\n"),
        ],
    );
    let output = grundy_in(&dir, &["solve", "script[@index.rhai](3)"]);
    fails(
        &output,
        2,
        &["`index.rhai`", "moves(3) failed at line 3", "out of bounds"],
    );
    let output = grundy_in(&dir, &["solve", "script[@throw.rhai](5)"]);
    fails(&output, 2, &["moves(2) failed at line 2", "no"]);
    let output = grundy_in(&dir, &["solve", "script[@type.rhai](1) + nim(1)"]);
    fails(
        &output,
        2,
        &[
            "moves(1) (`fn moves` at line 1) returned",
            "a decimal number",
        ],
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_endless_loop_is_exit_3_within_seconds() {
    let dir = scratch(
        "loop",
        &[(
            "loop.rhai",
            "fn moves(n) {\n  let i = 0;\n  loop { i += 1; }\n}\n",
        )],
    );
    let started = Instant::now();
    let output = grundy_in(&dir, &["solve", "script[@loop.rhai](3)"]);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    fails(
        &output,
        3,
        &["moves(3) ran more than", "raise it with --max-work"],
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_loopy_game_is_exit_2() {
    let dir = scratch(
        "cycle",
        &[("cycle.rhai", "fn moves(n) { [(n + 1) % 3] }\n")],
    );
    let output = grundy_in(&dir, &["solve", "script[@cycle.rhai](0)"]);
    fails(&output, 2, &["reached from itself"]);
    let output = grundy_in(&dir, &["solve", "misere(script[@cycle.rhai](0) + nim(1))"]);
    fails(&output, 2, &["reached from itself"]);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_huge_state_space_is_exit_3() {
    let dir = scratch("huge", &[("up.rhai", "fn moves(n) { [n + 1, n + 2] }\n")]);
    let output = grundy_in(
        &dir,
        &["solve", "--max-states", "20000", "script[@up.rhai](0)"],
    );
    fails(&output, 3, &["--max-states"]);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn positions_holding_large_arrays_count_against_the_memory_limit() {
    // Each position is an array of 16,001 integers (128 KB): 3000 of them are
    // 380 MB, which the search counts against --max-memory as it stores them.
    let script = "fn moves(p) { let n = p[0]; if n == 0 { return []; } \
                  let a = [n - 1]; a.pad(16000, 7); [a] }";
    let position = format!("script[\"{script}\"]([3000])");
    let output = grundy(&["solve", "--max-memory", "100M", &position]);
    fails(&output, 3, &["--max-memory"]);
    let output = grundy(&[
        "solve",
        "--max-memory",
        "100M",
        &position.replace("3000", "300"),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

#[test]
fn bad_terms_are_exit_2_at_their_column() {
    for (text, said) in [
        (
            "script[@examples/scripts/missing.rhai](3)",
            "cannot read the script",
        ),
        (
            "script[@examples/scripts/wythoff.rhai](1, \"a\")",
            "holds integers",
        ),
        (
            "script[@examples/scripts/nim.rhai](99999999999999999999)",
            "out of range",
        ),
        (
            "script[@examples/scripts/nim.rhai](1..4)",
            "an integer, a list",
        ),
        ("script[@examples/scripts/nim.rhai]()", "takes its position"),
        ("script(3)", "one parameter"),
        ("script[3](3)", "`@PATH` or a quoted text"),
        (
            "script[\"fn move(n) { [] }\"](3)",
            "defines no `fn moves(p)`",
        ),
    ] {
        let output = grundy(&["solve", text]);
        fails(&output, 2, &[said, "(column "]);
    }
    // The script's own mistake on a position of the wrong kind: exit 2 naming it.
    let output = grundy(&["solve", "script[@examples/scripts/nim.rhai](\"abc\")"]);
    fails(&output, 2, &["moves(\"abc\") failed at line"]);
}

#[test]
fn games_script_documents_the_api() {
    let output = grundy(&["games", "script"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8(output.stdout).unwrap();
    for part in [
        "fn moves(p)",
        "fn split(p)",
        "fn describe(from, to)",
        "--max-work",
    ] {
        assert!(text.contains(part), "`{part}` not in: {text}");
    }
}

#[test]
fn a_script_growing_a_value_forever_stops_at_the_size_limit() {
    // Rhai walks a value to check its size after each change: growing one to
    // 2^20 elements took hours; the limit of 2^15 is reached in well under a
    // second (the guard only keeps a regression from hanging the tests).
    for body in [
        "let a = []; loop { a.push(1); }",
        "let a = []; loop { a.push([1, 2, 3, 4, 5, 6, 7, 8]); }",
        "let s = ``; loop { s += `x`; }",
    ] {
        let position = format!("script[\"fn moves(n) {{ {body} }}\"](3)");
        let output = grundy_within(&["solve", &position], Duration::from_secs(30));
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(3), "{body}: {message}");
        assert!(
            message.contains("larger than the sandbox allows (32768 characters or elements"),
            "{body}: {message}"
        );
    }
}

/// Values nested thousands of levels deep, built on the pool's threads of a table
/// (2 MiB of stack each): the table is answered. Such a script aborted the command
/// with a stack overflow (exit 134); a script runs on a stack sized from the
/// sandbox's limits wherever it is called.
#[test]
fn deeply_nested_values_on_the_threads_of_a_table_are_answered() {
    for (start, open, close) in [("[]", "[", "]"), ("#{}", "#{a: ", "}")] {
        let script = format!(
            "script[\"fn moves(n) {{ let a = {start}; for i in 0..12000 {{ a = {open}take(a){close}; }} if a != () && n > 0 {{ [n - 1] }} else {{ [] }} }}\"](n)"
        );
        let output = grundy(&[
            "table",
            &script,
            "n=0..3",
            "--threads",
            "2",
            "--no-patterns",
        ]);
        assert!(output.status.success(), "{script}: {}", stderr(&output));
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(text.contains("3  1"), "{text}");
    }
}
