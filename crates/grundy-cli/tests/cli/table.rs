//! `grundy table`: every cell is `solve`'s answer, the formats
//! agree, plots are written, bad input and limits are named, and Ctrl-C keeps
//! the cells done.

use std::process::{Output, Stdio};

use serde_json::Value;

use crate::support::{command, grundy};

fn stdout_json(output: &Output) -> Value {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

fn solve(expression: &str) -> Value {
    stdout_json(&grundy(&[
        "solve",
        "--json",
        "--max-moves",
        "0",
        expression,
    ]))
}

#[test]
fn every_cell_is_the_answer_of_solve() {
    let table = stdout_json(&grundy(&[
        "table",
        "--json",
        "wythoff(x, y) + lasker(y)",
        "x=0..6",
        "y=2..8",
    ]));
    assert_eq!(table["measure"], "nimber");
    assert_eq!(table["complete"], true);
    assert_eq!(table["variables"][1]["from"], 2);
    let rows = table["values"].as_array().unwrap();
    assert_eq!(rows.len(), 7);
    for (x, row) in rows.iter().enumerate() {
        for (j, value) in row.as_array().unwrap().iter().enumerate() {
            let y = j + 2;
            let expression = format!("wythoff({x}, {y}) + lasker({y})");
            assert_eq!(*value, solve(&expression)["nimber"], "{expression}");
        }
    }
    // Outcomes, misère play included, against solve.
    let table = stdout_json(&grundy(&[
        "table",
        "--json",
        "--outcome",
        "misere(nim(n, 1, 2))",
        "n=0..9",
    ]));
    for (n, value) in table["values"].as_array().unwrap().iter().enumerate() {
        assert_eq!(*value, solve(&format!("misere(nim({n}, 1, 2))"))["outcome"]);
    }
}

#[test]
fn text_and_csv_hold_the_same_cells() {
    let text = grundy(&["table", "--no-patterns", "bash[3](n)", "n=0..9"]);
    assert!(text.status.success());
    let text = String::from_utf8(text.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        ["n", "nimber"]
    );
    let csv = grundy(&["table", "--format", "csv", "bash[3](n)", "n=0..9"]);
    let csv = String::from_utf8(csv.stdout).unwrap();
    let csv: Vec<&str> = csv.lines().collect();
    assert_eq!(csv[0], "n,nimber");
    for n in 0..10usize {
        let expected = (n % 4).to_string();
        assert_eq!(csv[n + 1], format!("{n},{expected}"));
        assert_eq!(
            lines[n + 1].split_whitespace().collect::<Vec<_>>(),
            [n.to_string(), expected]
        );
    }
    let grid = grundy(&["table", "--format", "csv", "nim(x, y)", "x=0..1", "y=0..1"]);
    assert_eq!(
        String::from_utf8(grid.stdout).unwrap(),
        "x,y,nimber\n0,0,0\n0,1,1\n1,0,1\n1,1,0\n"
    );
}

#[test]
fn patterns_are_found_and_stated_on_their_range() {
    let said = |args: &[&str]| {
        let table = stdout_json(&grundy(args));
        table["patterns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let bash = said(&["table", "--json", "bash[4](n)", "n=0..200"]);
    assert!(bash.contains("period 5 from n = 0"), "{bash}");
    assert!(
        bash.contains("P-positions for n <= 200 are exactly n = 0 (mod 5)"),
        "{bash}"
    );
    let wythoff = said(&["table", "--json", "wythoff(x, y)", "x=0..30", "y=0..30"]);
    assert!(wythoff.contains("b_k = a_k + k"), "{wythoff}");
    let grundy_game = said(&["table", "--json", "grundy_game(n)", "n=0..2000"]);
    assert!(grundy_game.contains("no pattern found"), "{grundy_game}");
    assert!(!grundy_game.contains("periodic"), "{grundy_game}");
    let text = grundy(&["table", "sub[1, 3, 4](n)", "n=0..100"]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("pattern: P-positions for n <= 100 are exactly n = 0, 2 (mod 7)"),
        "{text}"
    );
}

#[test]
#[cfg(feature = "plot")]
fn plots_are_written_as_svg_and_png() {
    let dir = std::env::temp_dir().join(format!("grundy-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (expression, ranges, file) in [
        ("wythoff(x, y)", &["x=0..20", "y=0..20"][..], "w.svg"),
        ("wythoff(x, y)", &["x=0..20", "y=0..20"][..], "w.png"),
        ("sub[1, 3, 4](n)", &["n=0..100"][..], "s.png"),
        ("misere(nim(n, 1))", &["n=0..30"][..], "m.svg"),
    ] {
        let path = dir.join(file);
        let path = path.to_str().unwrap();
        let mut args = vec!["table", expression];
        args.extend(ranges);
        args.extend(["--outcome", "--plot", path]);
        if file == "s.png" {
            args.retain(|&a| a != "--outcome");
        }
        let output = grundy(&args);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let bytes = std::fs::read(path).unwrap();
        if file.ends_with(".png") {
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{file}");
        } else {
            let text = String::from_utf8(bytes).unwrap();
            assert!(
                text.starts_with("<svg") && text.contains("P-positions"),
                "{file}"
            );
        }
    }
    // The heat map: a colour legend labelled with the measure, and the first
    // variable running down the rows (as Python's plot draws it): the label of
    // row 1 is above that of row 16.
    let path = dir.join("legend.svg");
    let path = path.to_str().unwrap();
    let output = grundy(&[
        "table",
        "wythoff(x, y)",
        "x=0..20",
        "y=0..20",
        "--plot",
        path,
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let svg = std::fs::read_to_string(path).unwrap();
    // Each text of the picture: where it is (x, y) and what it says.
    let texts: Vec<(f64, f64, String)> = svg
        .split("<text ")
        .skip(1)
        .filter_map(|element| {
            let element = format!(" {element}");
            let number = |name: &str| -> Option<f64> {
                element
                    .split(&format!(" {name}=\""))
                    .nth(1)?
                    .split('"')
                    .next()?
                    .parse()
                    .ok()
            };
            let content = element
                .split('>')
                .nth(1)?
                .split('<')
                .next()?
                .trim()
                .to_owned();
            Some((number("x")?, number("y")?, content))
        })
        .collect();
    assert_eq!(
        texts.iter().filter(|(_, _, text)| text == "nimber").count(),
        1,
        "the legend's label: {texts:?}"
    );
    // The row labels, left of the map (the x axis's first label is right of them).
    let row_label_height = |label: &str| {
        texts
            .iter()
            .find(|(x, _, text)| *x < 60.0 && text == label)
            .map(|&(_, y, _)| y)
            .unwrap_or_else(|| panic!("no row label {label}: {texts:?}"))
    };
    assert!(row_label_height("1") < row_label_height("16"), "{texts:?}");
    let bad = grundy(&["table", "nim(n)", "n=0..3", "--plot", "out.jpg"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("`.svg` or `.png`"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_tables_are_named_and_limits_are_exit_3() {
    for (args, code, said) in [
        (
            &["table", "nim(x, z)", "x=0..3"][..],
            2,
            "`z` is not a game",
        ),
        (
            &["table", "nim(x)", "x=0..3", "y=0..3"][..],
            2,
            "`y` does not occur",
        ),
        (&["table", "nim(x)", "x=5..3"][..], 2, "the range is empty"),
        (
            &["table", "nim(x)", "x=0..q"][..],
            2,
            "`q` is not an integer",
        ),
        (&["table", "nim(x)", "0..3"][..], 2, "no `=`"),
        (
            &["table", "nim(x, y)", "x=0..3", "x=0..3"][..],
            2,
            "given twice",
        ),
        (&["table", "nim(x)", "x=-3..3"][..], 2, "cell x = -3"),
        (&["table", "misere(nim(x))", "x=0..3"][..], 2, "--outcome"),
        // A plot that could not be written is refused before the table.
        (
            &["table", "nim(x)", "x=0..3", "--plot", "t.gif"][..],
            2,
            "`.svg` or `.png`",
        ),
        (
            &[
                "table",
                "nim(x)",
                "x=0..3",
                "--plot",
                "/no/such/folder/t.svg",
            ][..],
            2,
            "does not exist",
        ),
        (
            &["table", "nim(x, y)", "x=0..99999", "y=0..99999"][..],
            3,
            "--max-cells",
        ),
        (
            &[
                "table",
                "wythoff(x, y)",
                "x=0..30",
                "y=0..30",
                "--max-states",
                "100",
            ][..],
            3,
            "--max-states",
        ),
    ] {
        let output = grundy(args);
        let error = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(code), "{args:?}: {error}");
        assert!(output.stdout.is_empty(), "{args:?} wrote a table");
        assert!(
            error.starts_with("error: ") && error.contains(said),
            "{args:?}: {error}"
        );
    }
}

/// Ctrl-C (SIGINT) in the middle of a long table: the cells done are
/// written, a message says how many, and the exit code is 130.
#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_keeps_the_cells_done() {
    let child = command()
        .args([
            "table",
            "--format",
            "csv",
            "nim(x, y) + bash[5](x)",
            "x=0..2999",
            "y=0..2999",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: kill(2) on our own child's pid; no memory is touched.
    #[allow(unsafe_code)]
    unsafe {
        libc::kill(pid, libc::SIGINT);
    }
    let output = child.wait_with_output().unwrap();
    let error = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{error}");
    assert!(error.contains("interrupted (Ctrl-C) after"), "{error}");
    let text = String::from_utf8(output.stdout).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows[0], "x,y,nimber");
    assert!(
        rows.len() > 10 && rows.len() < 9_000_001,
        "{} rows",
        rows.len()
    );
    // Every row written is right: x xor y xor (x mod 6).
    for row in &rows[1..] {
        let v: Vec<u64> = row.split(',').map(|s| s.parse().unwrap()).collect();
        assert_eq!(v[2], v[0] ^ v[1] ^ (v[0] % 6), "{row}");
    }
}

/// Scripted games tabulate as their built-in versions do.
#[test]
#[cfg(feature = "script")]
fn scripted_games_give_the_builtin_tables() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/scripts");
    for (scripted, builtin, ranges) in [
        (
            "subtraction.rhai](n)",
            "sub[1, 3, 4](n)",
            &["n=0..3000"][..],
        ),
        ("bash.rhai](n)", "bash[3](n)", &["n=0..500"][..]),
        ("lasker.rhai](n)", "lasker(n)", &["n=0..300"][..]),
        ("nim.rhai](n)", "nim(n)", &["n=0..300"][..]),
        (
            "wythoff.rhai](x, y)",
            "wythoff(x, y)",
            &["x=0..25", "y=0..25"][..],
        ),
    ] {
        let scripted = format!("script[@{examples}/{scripted}");
        let mut args = vec!["table", "--json", scripted.as_str()];
        args.extend(ranges);
        let ours = stdout_json(&grundy(&args));
        args[2] = builtin;
        let theirs = stdout_json(&grundy(&args));
        assert_eq!(ours["values"], theirs["values"], "{scripted}");
        assert_eq!(ours["patterns"], theirs["patterns"], "{scripted}");
    }
}

#[test]
fn boards_are_searched_by_their_own_engines() {
    // Cram's pruned search and Chomp's table, cell by cell, within the default
    // limits (the shared generic graph needed more than 2,000,000 positions
    // for cram(5, 6)).
    for (expression, ranges) in [
        ("cram(x, y) + nim(1)", ["x=1..5", "y=1..6"]),
        ("chomp(x, y)", ["x=1..6", "y=1..7"]),
    ] {
        let table = stdout_json(&grundy(&[
            "table", "--json", expression, ranges[0], ranges[1],
        ]));
        for (i, row) in table["values"].as_array().unwrap().iter().enumerate() {
            for (j, value) in row.as_array().unwrap().iter().enumerate() {
                let cell = expression
                    .replace('x', &(i + 1).to_string())
                    .replace('y', &(j + 1).to_string());
                assert_eq!(*value, solve(&cell)["nimber"], "{cell}");
            }
        }
    }
}

#[test]
fn patterns_speak_of_the_tables_own_variables() {
    let table = stdout_json(&grundy(&["table", "--json", "bash[3](k)", "k=0..50"]));
    let patterns: Vec<&str> = table["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert!(
        patterns.contains(&"Values for k <= 50: periodic with period 4 from k = 0 on: G(k + 4) = G(k) (checked on 0 <= k <= 50, not proven)."),
        "{patterns:?}"
    );
    assert!(
        patterns
            .contains(&"P-positions for k <= 50 are exactly k = 0 (mod 4) (checked, not proven)."),
        "{patterns:?}"
    );
    let output = grundy(&["table", "nim(a) + nim(b)", "a=0..7", "b=0..7"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains(
            "pattern: G(a, b) = a xor b (the nim-sum) for every 0 <= a <= 7, 0 <= b <= 7"
        ),
        "{text}"
    );
    assert!(text.contains("exactly the cells with a = b"), "{text}");
}
