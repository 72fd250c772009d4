//! The examples of README.md run as written: every `$ grundy ...` line of its
//! console blocks that shows an output is run from the repository's root, and
//! what it prints must be what the README shows, so that the two cannot drift.
//! In the shown output, a line `...` stands for any lines (none included), and
//! `...` inside a line for any text; a line that begins with `#` continues the
//! command's comment.

use std::path::{Path, PathBuf};

use crate::support::{command, stderr};

/// The repository root, where the examples' files are.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A command of a console block and the lines it shows printed.
struct Example {
    line: usize,
    command: String,
    shown: Vec<String>,
}

/// The `$ grundy` commands of the ```console blocks of `text`, with the lines
/// below each up to the next command or the end of the block.
fn examples(text: &str) -> Vec<Example> {
    let mut all: Vec<Example> = Vec::new();
    let mut in_console = false;
    for (index, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            in_console = line == "```console";
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            all.push(Example {
                line: index + 1,
                command: command.to_owned(),
                shown: Vec::new(),
            });
        } else if line.trim_start().starts_with('#') {
            // A comment continued from the command's line.
        } else if let Some(example) = all.last_mut() {
            example.shown.push(line.to_owned());
        }
    }
    // The blank lines between examples are not output.
    for example in &mut all {
        while example
            .shown
            .last()
            .is_some_and(|line| line.trim().is_empty())
        {
            example.shown.pop();
        }
    }
    all
}

/// The words of a shell command line with single and double quotes, up to an
/// unquoted `#` that begins a comment.
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, '#') if word.is_none() => break,
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// Whether `line` matches `pattern`, where `...` in the pattern stands for any
/// text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let mut pieces = pattern.split("...");
    let first = pieces.next().unwrap_or_default();
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let pieces: Vec<&str> = pieces.collect();
    for (k, piece) in pieces.iter().enumerate() {
        if k + 1 == pieces.len() {
            return rest.ends_with(piece);
        }
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Whether `lines` match `shown`, where a line `...` stands for any lines.
fn lines_match(shown: &[String], lines: &[&str]) -> bool {
    match shown.split_first() {
        None => lines.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=lines.len()).any(|skip| lines_match(rest, &lines[skip..]))
        }
        Some((first, rest)) => lines
            .split_first()
            .is_some_and(|(line, others)| line_matches(first, line) && lines_match(rest, others)),
    }
}

#[test]
fn the_patterns_of_shown_output() {
    assert!(line_matches("a...c", "abbbc"));
    assert!(line_matches(
        "{\"x\":[...],\"y\":2}",
        "{\"x\":[1,2],\"y\":2}"
    ));
    assert!(!line_matches(
        "{\"x\":[...],\"y\":2}",
        "{\"x\":[1,2],\"y\":3}"
    ));
    assert!(!line_matches("abc", "abcd"));
    let shown = ["a".to_owned(), "...".to_owned(), "d".to_owned()];
    assert!(lines_match(&shown, &["a", "b", "c", "d"]));
    assert!(lines_match(&shown, &["a", "d"]));
    assert!(!lines_match(&shown, &["a", "b"]));
    assert_eq!(
        words("grundy solve 'nim(1, 2)'   # a comment"),
        ["grundy", "solve", "nim(1, 2)"]
    );
    assert_eq!(
        words("grundy solve 'cram(\"#.\")'"),
        ["grundy", "solve", "cram(\"#.\")"]
    );
}

#[test]
fn every_shown_output_of_the_readme_is_what_grundy_prints() {
    let text = std::fs::read_to_string(root().join("README.md")).unwrap();
    let all = examples(&text);
    assert!(all.len() > 20, "{} commands found", all.len());
    let mut checked = 0;
    for (index, example) in all.iter().enumerate() {
        let words = words(&example.command);
        // Other commands (`cat FILE`, `echo $?`) show what the reader needs.
        if example.shown.is_empty() || words[0] != "grundy" {
            continue;
        }
        let output = command()
            .args(&words[1..])
            .current_dir(root())
            .output()
            .unwrap();
        // An exit code the README shows with `echo $?` right after, else 0.
        let code = all
            .get(index + 1)
            .filter(|next| next.command == "echo $?")
            .and_then(|next| next.shown.first()?.parse().ok())
            .unwrap_or(0);
        assert_eq!(
            output.status.code(),
            Some(code),
            "README.md line {}: {}",
            example.line,
            stderr(&output)
        );
        // What a terminal shows: the answers, then the errors.
        let printed = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            stderr(&output)
        );
        let lines: Vec<&str> = printed.lines().collect();
        assert!(
            lines_match(&example.shown, &lines),
            "README.md line {}: `{}` shows\n{}\nbut prints\n{}",
            example.line,
            example.command,
            example.shown.join("\n"),
            printed
        );
        checked += 1;
    }
    assert!(checked >= 7, "{checked} outputs checked");
}
