//! Batch mode, `grundy solve --file F`: each line of the file is its own
//! position.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;

use crate::support::{command, grundy, stderr, stdout};

/// The JSON objects of standard output, one a line.
fn json_lines(output: &Output) -> Vec<Value> {
    stdout(output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// A file holding `text`, in the directory cargo gives integration tests.
fn file(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("batch-{name}"));
    std::fs::write(&path, text).unwrap();
    path
}

fn solve_file(path: &Path, flags: &[&str]) -> Output {
    let path = path.to_str().unwrap();
    let mut args = vec!["solve", "--file", path];
    args.extend_from_slice(flags);
    grundy(&args)
}

#[test]
fn a_file_of_one_line_answers_as_the_expression_does() {
    for position in [
        "nim(3, 5, 7)",
        "nim(1, 1)",
        "misere(nim(1, 1, 2) + bash[2](3))",
    ] {
        for text in [position.to_owned(), format!("{position}\n")] {
            let path = file("one.txt", &text);
            for flags in [&[][..], &["--json"]] {
                let mut args = vec!["solve"];
                args.extend_from_slice(flags);
                args.push(position);
                let direct = grundy(&args);
                let batch = solve_file(&path, flags);
                assert_eq!(batch.status.code(), Some(0), "{}", stderr(&batch));
                assert_eq!(stdout(&batch), stdout(&direct), "{text:?} {flags:?}");
                assert!(batch.stderr.is_empty());
            }
        }
    }
}

#[test]
fn each_line_is_answered_in_order() {
    let path = file(
        "many.txt",
        "# queries of a judge\nnim(3, 5, 7)\n\n   # an indented comment\nwythoff(3, 4)\r\n  nim(1, 1)  \n",
    );
    let output = solve_file(&path, &["--json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let answers = json_lines(&output);
    let positions: Vec<&str> = answers
        .iter()
        .map(|a| a["position"].as_str().unwrap())
        .collect();
    assert_eq!(positions, ["nim(3, 5, 7)", "wythoff(3, 4)", "nim(1, 1)"]);
    assert_eq!(answers[0]["winning_move_count"], 3);
    assert_eq!(answers[1]["nimber"], 2);
    assert_eq!(answers[2]["outcome"], "P");

    // People read the answers separated by one blank line, each as `solve` prints it.
    let output = solve_file(&path, &[]);
    assert_eq!(output.status.code(), Some(0));
    let expected: Vec<String> = ["nim(3, 5, 7)", "wythoff(3, 4)", "nim(1, 1)"]
        .iter()
        .map(|p| stdout(&grundy(&["solve", p])))
        .collect();
    assert_eq!(stdout(&output), expected.join("\n"));
}

#[test]
fn bad_lines_are_reported_with_their_line_and_the_rest_answered() {
    let path = file(
        "bad.txt",
        "nim(3, 5, 7)\nnim(3\n# fine\nkayle(4)\nnim(1, 1)\n",
    );
    let output = solve_file(&path, &["--json"]);
    assert_eq!(output.status.code(), Some(2));
    let answered = json_lines(&output);
    assert_eq!(answered.len(), 2);
    assert_eq!(answered[1]["position"], "nim(1, 1)");
    let errors = stderr(&output);
    assert!(
        errors.starts_with(
            "error: line 2: expected `,` or `)` after an argument, found the end of the input (column 6)\n  nim(3\n       ^\n"
        ),
        "{errors}"
    );
    assert!(
        errors.contains("error: line 4: unknown game `kayle` (column 1)\n  kayle(4)\n  ^^^^^"),
        "{errors}"
    );
    assert_eq!(errors.matches("error:").count(), 2, "{errors}");

    // A limit is the worst: exit 3, whatever else went wrong.
    let path = file(
        "limit.txt",
        "nim(\nmisere(octal[0.3122](12, 12, 12, 12))\nnim(2)\n",
    );
    let output = solve_file(&path, &["--max-states", "1000"]);
    assert_eq!(output.status.code(), Some(3));
    assert!(stdout(&output).starts_with("nim(2)\n"));
    assert!(
        stderr(&output).contains("error: line 2: the search needs more than 1000 positions"),
        "{}",
        stderr(&output)
    );
    let path = file("only-limit.txt", "nim(1234567)\nnim(1)\n");
    let output = solve_file(&path, &["--max-digits", "5"]);
    assert_eq!(output.status.code(), Some(3));
    assert!(stderr(&output).starts_with("error: line 1: "));

    // A multi-line expression is no longer one position: each line is its own.
    let path = file("split.txt", "nim(1,\n 2)\n");
    let output = solve_file(&path, &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("error: line 1: "));
    assert!(stderr(&output).contains("error: line 2: "));

    // Bytes that are not text are a bad line too.
    let path = file("bytes.txt", "");
    std::fs::write(&path, b"nim(1)\n\xff\xfe\nnim(2)\n").unwrap();
    let output = solve_file(&path, &["--json"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output).lines().count(), 2);
    assert!(stderr(&output).starts_with("error: line 2: the line is not UTF-8 text"));
}

#[test]
fn a_file_without_positions_is_bad_input() {
    for text in ["", "\n\n", "# only a comment\n"] {
        let path = file("empty.txt", text);
        let output = solve_file(&path, &[]);
        assert_eq!(output.status.code(), Some(2), "{text:?}");
        assert!(
            stderr(&output).contains("holds no position"),
            "{}",
            stderr(&output)
        );
    }
    let output = grundy(&["solve", "--file", "/no/such/file"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).starts_with("error: cannot read `/no/such/file`"));
}

#[test]
fn standard_input_is_answered_line_by_line_as_it_comes() {
    let mut child = command()
        .args(["solve", "--json", "--file", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let (send, answers) = mpsc::channel();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    std::thread::spawn(move || {
        let mut line = String::new();
        while reader.read_line(&mut line).unwrap_or(0) > 0 {
            send.send(std::mem::take(&mut line)).unwrap();
        }
    });
    // Each answer comes while standard input is still open: a program may ask,
    // read the answer, and ask again.
    let mut ask = |query: &str| -> Value {
        writeln!(input, "{query}").unwrap();
        input.flush().unwrap();
        let Ok(line) = answers.recv_timeout(Duration::from_secs(60)) else {
            panic!("no answer to {query} while standard input is open");
        };
        serde_json::from_str(&line).unwrap()
    };
    assert_eq!(ask("nim(1, 2)")["nimber"], 3);
    assert_eq!(ask("nim(2, 2)")["outcome"], "P");
    drop(input);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
}
