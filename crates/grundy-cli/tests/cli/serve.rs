//! `grundy serve`: every endpoint of the web playground's API on the built
//! binary, bad input (400), an oversized body (413), the budgets (422), an
//! unknown route (404), and a bounded load test (200 concurrent solves); at
//! the end, on raw TCP: the read time, the connection cap, origins and the
//! HTTP stack's own errors.

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};

use serde_json::{Value, json};

use crate::support::command;

/// A running `grundy serve --port 0`, stopped when dropped.
pub struct Server {
    child: Child,
    pub url: String,
}

impl Server {
    pub fn start(extra: &[&str]) -> Self {
        let mut serve = command();
        serve
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        Self::spawn(serve)
    }

    /// Runs `command`, a `grundy serve` printing where it listens.
    fn spawn(mut command: std::process::Command) -> Self {
        let mut child = command.spawn().expect("grundy serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
            .to_owned();
        assert!(url.starts_with("http://127.0.0.1:"), "{url}");
        Self { child, url }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn agent() -> ureq::Agent {
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into()
    }

    /// GET `path`: the status and the body.
    pub fn get(&self, path: &str) -> (u16, String) {
        let mut response = Self::agent()
            .get(&format!("{}{path}", self.url))
            .call()
            .unwrap();
        let status = response.status().as_u16();
        (status, response.body_mut().read_to_string().unwrap())
    }

    /// POST `body` (raw text) to `path`: the status and the body as JSON.
    pub fn post_text(&self, path: &str, body: &str) -> (u16, Value) {
        let mut response = Self::agent()
            .post(&format!("{}{path}", self.url))
            .header("content-type", "application/json")
            .send(body)
            .unwrap();
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().unwrap();
        let value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {text}"));
        (status, value)
    }

    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.post_text(path, &body.to_string())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `grundy ARGS` printing one JSON object.
fn cli_json(args: &[&str]) -> Value {
    let output = command().args(args).output().unwrap();
    assert!(output.status.success(), "{args:?}");
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The error of a failed request: it names `needle`.
fn assert_error(answer: &(u16, Value), status: u16, needle: &str) {
    assert_eq!(answer.0, status, "{}", answer.1);
    let message = answer.1["error"].as_str().expect("an error message");
    assert!(message.contains(needle), "{message:?} lacks {needle:?}");
}

#[test]
fn the_page_and_its_assets_are_served() {
    let server = Server::start(&[]);
    let (status, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("grundy playground") && page.contains("/app.js"));
    for asset in ["/app.js", "/style.css"] {
        let (status, text) = server.get(asset);
        assert_eq!(status, 200, "{asset}");
        assert!(text.len() > 1000, "{asset}");
    }
    let (status, text) = server.get("/no/such/thing");
    assert_eq!(status, 404);
    let error: Value = serde_json::from_str(&text).unwrap();
    assert!(error["error"].as_str().unwrap().contains("/no/such/thing"));
}

#[test]
fn requests_to_other_host_names_are_refused() {
    let server = Server::start(&[]);
    let port = server.url.rsplit(':').next().unwrap();
    let mut response = Server::agent()
        .get(&format!("{}/api/games", server.url))
        .header("host", &format!("rebound.example:{port}"))
        .call()
        .unwrap();
    assert_eq!(response.status().as_u16(), 403);
    let text = response.body_mut().read_to_string().unwrap();
    assert!(text.contains("localhost"), "{text}");
    let response = Server::agent()
        .get(&format!("{}/api/games", server.url))
        .header("host", &format!("localhost:{port}"))
        .call()
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
}

#[test]
fn the_catalogue_lists_the_games_with_examples() {
    let server = Server::start(&[]);
    let (status, text) = server.get("/api/games");
    assert_eq!(status, 200);
    let games: Value = serde_json::from_str(&text).unwrap();
    let games = games["games"].as_array().unwrap();
    let names: Vec<&str> = games.iter().map(|g| g["name"].as_str().unwrap()).collect();
    for name in ["nim", "wythoff", "turtles", "hackenbush", "octal"] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    for game in games {
        for example in game["examples"].as_array().unwrap() {
            assert!(!example.as_str().unwrap().contains('@'), "{example}");
        }
        assert!(game["syntax"].is_string() && game["rules"].is_string());
    }
    // Each game says how the page draws it.
    let drawing = |name: &str| games.iter().find(|g| g["name"] == name).unwrap()["drawing"].clone();
    assert_eq!(drawing("nim"), "heaps");
    assert_eq!(drawing("hackenbush"), "graph");
    assert_eq!(drawing("script"), "none");
}

#[test]
fn solve_answers_as_the_cli_and_values_every_move() {
    let server = Server::start(&[]);
    let (status, answer) = server.post("/api/solve", &json!({"position": "nim(3, 5, 7)"}));
    assert_eq!(status, 200, "{answer}");
    // The fields of `solve --json` are the same.
    let cli = cli_json(&["solve", "--json", "nim(3, 5, 7)"]);
    for (key, value) in cli.as_object().unwrap() {
        assert_eq!(&answer[key], value, "{key}");
    }
    let nimbers: Vec<u64> = answer["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["nimber"].as_u64().unwrap())
        .collect();
    assert_eq!(nimbers, [3, 5, 7]);
    assert_eq!(answer["parts"][1]["term"], "nim(5)");
    assert_eq!(answer["nim_sum"], 1);
    let moves = answer["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3 + 5 + 7);
    assert_eq!(answer["moves_complete"], true);
    let winning: Vec<&str> = moves
        .iter()
        .filter(|m| m["wins"] == true)
        .map(|m| m["to"].as_str().unwrap())
        .collect();
    assert_eq!(winning, ["nim(2, 5, 7)", "nim(3, 4, 7)", "nim(3, 5, 6)"]);
    for m in moves {
        // Each move's nimber is the nim-sum after it, and it wins iff that is 0.
        let to = m["to"].as_str().unwrap();
        let heaps: Vec<u64> = to[4..to.len() - 1]
            .split(", ")
            .map(|h| h.parse().unwrap())
            .collect();
        let nimber = heaps.iter().fold(0, |x, h| x ^ h);
        assert_eq!(m["nimber"], nimber, "{to}");
        assert_eq!(m["wins"], nimber == 0, "{to}");
        assert_eq!(m["outcome"], if nimber == 0 { "P" } else { "N" });
    }
    assert_eq!(moves[0]["move"], "take 3 from the heap of 3");
    assert_eq!(moves[0]["component_to"], "nim(0)");

    // Wythoff: every move of the queen; two lead to P-positions, (3, 5) and (4, 7).
    let (status, answer) = server.post("/api/solve", &json!({"position": "wythoff(5, 8)"}));
    assert_eq!(status, 200, "{answer}");
    let moves = answer["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 5 + 8 + 5);
    let winning: Vec<&str> = moves
        .iter()
        .filter(|m| m["wins"] == true)
        .map(|m| m["to"].as_str().unwrap())
        .collect();
    assert_eq!(winning, ["wythoff(5, 3)", "wythoff(4, 7)"]);

    // Misère play: outcomes without nimbers.
    let (status, answer) = server.post("/api/solve", &json!({"position": "misere(nim(1, 1))"}));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["outcome"], "N");
    assert!(
        answer["moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["wins"] == true)
    );
}

/// Every move from a large Wythoff P-position leads to a position the opponent
/// wins, which Wythoff's theory decides though the nimber after it is out of
/// reach: each move has its outcome (it had `null` and a state-limit error).
#[test]
fn moves_from_a_large_wythoff_p_position_are_valued_by_the_theory() {
    let server = Server::start(&[]);
    let (status, answer) = server.post("/api/solve", &json!({"position": "wythoff(1618, 2618)"}));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["outcome"], "P");
    let moves = answer["moves"].as_array().unwrap();
    assert!(moves.len() >= 100, "{}", moves.len());
    for m in moves {
        assert_eq!(m["outcome"], "N", "{m}");
        assert_eq!(m["wins"], false, "{m}");
    }
}

/// The examples of docs/API.md are what the server answers: in each `POST /api/X`
/// section, the first `Request: `{...}`` line and the first JSON block after it,
/// compared as JSON values (so that the document cannot drift from the server).
#[test]
fn the_api_documents_examples_are_what_the_server_answers() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/API.md"),
    )
    .unwrap();
    let server = Server::start(&[]);
    let mut checked = Vec::new();
    for section in text.split("\n## `POST ").skip(1) {
        let path = section.split('`').next().unwrap();
        let Some(request) = section
            .lines()
            .find_map(|line| line.strip_prefix("Request: `"))
            .and_then(|rest| rest.split('`').next())
        else {
            continue;
        };
        let request: Value = serde_json::from_str(request).unwrap();
        let block = section
            .split("```json\n")
            .nth(1)
            .and_then(|rest| rest.split("\n```").next())
            .unwrap_or_else(|| panic!("{path}: no JSON block"));
        let shown: Value =
            serde_json::from_str(block).unwrap_or_else(|e| panic!("{path}: {e}: {block}"));
        let (status, answer) = server.post(path, &request);
        assert_eq!(status, 200, "{path}: {answer}");
        assert_eq!(answer, shown, "docs/API.md, {path} {request}");
        checked.push(path.to_owned());
    }
    assert_eq!(
        checked,
        ["/api/solve", "/api/engine", "/api/seq", "/api/table"]
    );
}

#[test]
fn the_engine_wins_quickest_and_loses_slowest() {
    let server = Server::start(&[]);
    let (status, answer) = server.post("/api/engine", &json!({"position": "nim(3, 5, 7)"}));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["reason"], "winning");
    assert_eq!(answer["move"]["to"], "nim(2, 5, 7)");
    assert_eq!(answer["move"]["nimber"], 0);
    // Played by remoteness: the game then lasts an even number of moves (a P-position).
    assert_eq!(answer["by"], "remoteness");
    assert_eq!(answer["remoteness"].as_u64().unwrap() % 2, 0, "{answer}");

    // From a P-position: the slowest loss (one token taken).
    let (_, answer) = server.post("/api/engine", &json!({"position": "nim(1, 2, 3)"}));
    assert_eq!(answer["reason"], "prolonging");
    assert_eq!(answer["move"]["wins"], false);
    assert_eq!(answer["remoteness"].as_u64().unwrap() % 2, 1, "{answer}");
    let to = answer["move"]["to"].as_str().unwrap();
    assert!(
        ["nim(0, 2, 3)", "nim(1, 1, 3)", "nim(1, 2, 2)"].contains(&to),
        "{to}"
    );

    let (_, answer) = server.post("/api/engine", &json!({"position": "wythoff(5, 8)"}));
    assert_eq!(answer["move"]["to"], "wythoff(5, 3)");

    // No move left: the player to move has lost.
    let (status, answer) = server.post("/api/engine", &json!({"position": "nim(0, 0)"}));
    assert_eq!(status, 200);
    assert_eq!(answer["move"], Value::Null);
    assert_eq!(answer["outcome"], "P");
}

#[test]
fn bad_input_is_400_with_the_parsers_message() {
    let server = Server::start(&[]);
    for path in ["/api/solve", "/api/engine"] {
        let answer = server.post(path, &json!({"position": "nim(3"}));
        assert_error(&answer, 400, "column 6");
        assert_error(
            &server.post(path, &json!({"position": "nimm(3)"})),
            400,
            "nim",
        );
        assert_error(&server.post_text(path, "not json"), 400, "bad request body");
        assert_error(
            &server.post(path, &json!({"pos": "nim(3)"})),
            400,
            "position",
        );
        assert_error(
            &server.post(path, &json!({"position": "nim(@/etc/passwd)"})),
            400,
            "files",
        );
        assert_error(
            &server.post(path, &json!({"position": "dag(\"2 2; 1 2; 2 1\", 1)"})),
            400,
            "cycle",
        );
    }
    assert_error(
        &server.post("/api/seq", &json!({"rule": "octal[0.9x]", "n": 10})),
        400,
        "",
    );
    assert_error(
        &server.post("/api/seq", &json!({"rule": "--help", "n": 10})),
        400,
        "",
    );
    assert_error(&server.post("/api/seq", &json!({"rule": "nim"})), 400, "n");
    assert_error(
        &server.post(
            "/api/table",
            &json!({"expression": "wythoff(x, y)", "ranges": ["x=0..3", "z"]}),
        ),
        400,
        "",
    );
    assert_error(
        &server.post("/api/table", &json!({"expression": "nim(x)", "ranges": []})),
        400,
        "ranges",
    );
    // GET on a POST endpoint: 405, not a crash.
    assert_eq!(server.get("/api/solve").0, 405);
}

#[test]
fn limits_are_413_and_422_naming_the_limit() {
    let server = Server::start(&["--max-states", "1000"]);
    let huge = format!("{{\"position\": \"nim({})\"}}", "1, ".repeat(30_000));
    assert_error(&server.post_text("/api/solve", &huge), 413, "body limit");
    let digits = format!("nim({})", "9".repeat(2000));
    assert_error(
        &server.post("/api/solve", &json!({"position": digits})),
        422,
        "--max-digits",
    );
    assert_error(
        &server.post("/api/solve", &json!({"position": "cram(5, 7)"})),
        422,
        "--max-states",
    );
    assert_error(
        &server.post("/api/seq", &json!({"rule": "nim", "n": 10_000_000})),
        422,
        "value limit",
    );
    assert_error(
        &server.post(
            "/api/table",
            &json!({"expression": "wythoff(x, y)", "ranges": ["x=0..1000", "y=0..1000"]}),
        ),
        422,
        "cell limit",
    );
    // The server is still answering.
    let (status, _) = server.post("/api/solve", &json!({"position": "nim(1)"}));
    assert_eq!(status, 200);
}

/// A script that nests a value 12,000 levels deep, on the server's worker threads:
/// answered (or refused), and the server keeps answering. It used to abort the
/// server with a stack overflow.
#[test]
fn a_deeply_nested_script_value_does_not_end_the_server() {
    let server = Server::start(&[]);
    for (start, open, close) in [("[]", "[", "]"), ("#{}", "#{a: ", "}")] {
        let position = format!(
            "script[\"fn moves(n) {{ let a = {start}; for i in 0..12000 {{ a = {open}take(a){close}; }} [] }}\"](1)"
        );
        let (status, answer) = server.post("/api/solve", &json!({ "position": position }));
        assert!(status == 200 || status == 422, "{status}: {answer}");
        let (status, _) = server.post("/api/solve", &json!({"position": "nim(1)"}));
        assert_eq!(status, 200);
    }
}

/// What a client's script prints is not written to the server's terminal
/// (unless the server is started with `--script-output`), and bounded and
/// escaped when it is; the command line writes it escaped.
#[test]
fn a_scripts_printing_does_not_flood_the_servers_terminal() {
    let flood = r#"script["fn moves(n) { for i in 0..20000 { print(\"\\u001b[2J flood \" + i); } [] }"](1)"#;
    let run = |extra: &[&str]| -> Vec<u8> {
        let mut serve = command();
        serve
            .args(extra)
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut server = Server::spawn(serve);
        let (status, answer) = server.post("/api/solve", &json!({"position": flood}));
        assert_eq!((status, &answer["outcome"]), (200, &json!("P")), "{answer}");
        let mut stderr = server.child.stderr.take().unwrap();
        let _ = server.child.kill();
        let mut printed = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut printed).unwrap();
        printed
    };
    let quiet = run(&[]);
    assert!(quiet.is_empty(), "{}", String::from_utf8_lossy(&quiet));
    let bounded = run(&["--script-output", "bounded"]);
    let text = String::from_utf8_lossy(&bounded);
    assert!(
        text.contains("\\u{1b}[2J flood 0\n"),
        "{}",
        &text[..text.len().min(300)]
    );
    assert!(!bounded.contains(&0x1b), "an escape reached the terminal");
    assert!(
        text.contains("lines this second"),
        "{}",
        &text[..text.len().min(300)]
    );
    // At most 100 lines a second, and the note of the drop.
    assert!(
        text.lines().count() < 1000,
        "{} lines",
        text.lines().count()
    );
    // The command line writes every line, escaped.
    let output = command().args(["solve", flood]).output().unwrap();
    let text = String::from_utf8_lossy(&output.stderr);
    assert_eq!(text.lines().count(), 20000);
    assert!(!output.stderr.contains(&0x1b));
}

#[test]
fn a_request_out_of_time_is_422_naming_the_time_limit() {
    let server = Server::start(&["--request-time", "0.3", "--max-states", "100000000"]);
    let started = std::time::Instant::now();
    assert_error(
        &server.post("/api/solve", &json!({"position": "cram(7, 7)"})),
        422,
        "time limit",
    );
    assert!(started.elapsed().as_secs_f64() < 5.0);
    assert_error(
        &server.post("/api/seq", &json!({"rule": "octal[0.9]", "n": 100_000})),
        422,
        "",
    );
}

/// An answer longer than `--max-answer` is 422 naming it, for `solve` and
/// `seq` alike; an error quotes a 60 KB input by an excerpt, in a body of a
/// few hundred bytes (it was as long as the input, or twice).
#[test]
fn answers_and_errors_are_bounded_in_size() {
    let server = Server::start(&["--max-answer", "2000"]);
    assert_error(
        &server.post("/api/solve", &json!({"position": "nim(1..300)"})),
        422,
        "--max-answer",
    );
    assert_error(
        &server.post("/api/seq", &json!({"rule": "octal[0.07]", "n": 5000})),
        422,
        "--max-answer",
    );
    let (status, answer) = server.post("/api/solve", &json!({"position": "nim(1, 2)"}));
    assert_eq!(status, 200, "{answer}");
    let long = "a".repeat(60_000);
    for position in [
        format!("{long}(1)"),
        format!("nim(\"{long}\")"),
        format!("script[\"{long}\"](1)"),
    ] {
        let answer = server.post("/api/solve", &json!({ "position": position }));
        assert_eq!(answer.0, 400, "{}", answer.1);
        let body = answer.1.to_string();
        assert!(body.len() < 1000, "{} bytes: {}", body.len(), &body[..300]);
        assert!(
            body.contains("(60000 characters)") || body.contains("60002 characters"),
            "{body}"
        );
    }
}

#[test]
fn seq_and_table_are_the_clis_objects() {
    let server = Server::start(&[]);
    let (status, answer) = server.post("/api/seq", &json!({"rule": "octal[0.07]", "n": 60}));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        answer,
        cli_json(&["seq", "--json", "octal[0.07]", "-n", "60"])
    );
    assert_eq!(answer["period"], 34);

    let request = json!({"expression": "wythoff(x, y)", "ranges": ["x=0..6", "y=0..6"]});
    let (status, answer) = server.post("/api/table", &request);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        answer,
        cli_json(&["table", "--json", "wythoff(x, y)", "x=0..6", "y=0..6"])
    );
    let request = json!({"expression": "misere(nim(n, 1))", "ranges": ["n=0..9"], "outcome": true});
    let (status, answer) = server.post("/api/table", &request);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["measure"], "outcome");
}

/// 200 solves at once on loopback, each checked against Bouton's theorem.
#[test]
fn two_hundred_concurrent_solves_are_all_answered_correctly() {
    let server = Server::start(&[]);
    let url = server.url.clone();
    let started = std::time::Instant::now();
    let threads: Vec<_> = (0..200u64)
        .map(|i| {
            let url = url.clone();
            std::thread::spawn(move || {
                let (a, b, c) = (i % 13, (i * 7) % 11 + 1, (i * 5) % 17);
                let position = format!("nim({a}, {b}, {c}) + bash[3]({i})");
                let mut response = Server::agent()
                    .post(&format!("{url}/api/solve"))
                    .header("content-type", "application/json")
                    .send(json!({ "position": position }).to_string())
                    .unwrap();
                assert_eq!(response.status().as_u16(), 200, "{position}");
                let answer: Value =
                    serde_json::from_str(&response.body_mut().read_to_string().unwrap()).unwrap();
                let nimber = a ^ b ^ c ^ (i % 4);
                assert_eq!(answer["nimber"], nimber, "{position}");
                assert_eq!(answer["first_player_wins"], nimber != 0, "{position}");
                assert_eq!(answer["nim_sum"], nimber, "{position}");
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    eprintln!(
        "200 concurrent solves answered in {:.2} s",
        started.elapsed().as_secs_f64()
    );
}

/// Fuzz: mangled examples of every game and random bodies, sent to the
/// position endpoints, are answered 200, 400 or 422 with JSON (an error with
/// its message), never a 500, and the server keeps answering.
#[test]
fn mangled_positions_and_bodies_are_never_a_500() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};

    let server = Server::start(&["--request-time", "2", "--max-states", "20000"]);
    let (status, games) = server.get("/api/games");
    assert_eq!(status, 200);
    let games: Value = serde_json::from_str(&games).unwrap();
    let examples: Vec<String> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["examples"].as_array().unwrap().iter())
        .filter_map(|e| e.as_str().map(str::to_owned))
        .collect();
    assert!(examples.len() > 20, "{} examples", examples.len());

    let mangled = (
        proptest::sample::select(examples),
        proptest::collection::vec(
            (any::<prop::sample::Index>(), "[ -~]{0,3}", 0..3usize),
            1..4,
        ),
    )
        .prop_map(|(example, edits)| {
            let mut text: Vec<char> = example.chars().collect();
            for (at, insert, cut) in edits {
                let i = at.index(text.len() + 1);
                let end = (i + cut).min(text.len());
                text.splice(i..end, insert.chars());
            }
            text.into_iter().collect::<String>()
        });
    let mut runner = TestRunner::new(Config {
        cases: 150,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(
            &(mangled, "[ -~]{0,30}", proptest::bool::ANY),
            |(position, raw, engine)| {
                let path = if engine { "/api/engine" } else { "/api/solve" };
                let (status, answer) = server.post(path, &json!({ "position": position }));
                prop_assert!(
                    [200, 400, 422].contains(&status),
                    "{path} {position:?}: {status} {answer}"
                );
                if status != 200 {
                    prop_assert!(answer["error"].is_string(), "{position:?}: {answer}");
                }
                let (status, answer) = server.post_text("/api/solve", &raw);
                prop_assert!(
                    [200, 400, 422].contains(&status),
                    "raw body {raw:?}: {status} {answer}"
                );
                if status != 200 {
                    prop_assert!(answer["error"].is_string(), "{raw:?}: {answer}");
                }
                Ok(())
            },
        )
        .unwrap();
    // Still serving after all that.
    let (status, answer) = server.post("/api/solve", &json!({ "position": "nim(1, 2)" }));
    assert_eq!((status, answer["nimber"].clone()), (200, json!(3)));
}

// ---------------------------------------------------------------------------
// Connections, origins and the HTTP stack's own errors: raw TCP on loopback.

mod connections {
    use std::io::{Read, Write};
    use std::net::TcpStream;
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    use serde_json::{Value, json};

    use super::{Server, assert_error};

    impl Server {
        /// `host:port` of the server.
        fn address(&self) -> &str {
            self.url.strip_prefix("http://").unwrap()
        }

        /// Sends `request` as is on a new connection and reads the answer to
        /// the end: its status, head and body (JSON when it parses).
        fn exchange(&self, request: &[u8]) -> (u16, String, Value) {
            let mut stream = TcpStream::connect(self.address()).unwrap();
            stream
                .set_read_timeout(Some(Duration::from_secs(10)))
                .unwrap();
            stream.write_all(request).unwrap();
            let mut answer = Vec::new();
            stream.read_to_end(&mut answer).unwrap();
            let answer = String::from_utf8_lossy(&answer).into_owned();
            let (head, body) = answer
                .split_once("\r\n\r\n")
                .unwrap_or_else(|| panic!("no head in {answer:?}"));
            let status = head
                .get(9..12)
                .and_then(|code| code.parse().ok())
                .unwrap_or_else(|| panic!("no status in {head:?}"));
            let body = serde_json::from_str(body).unwrap_or(Value::Null);
            (status, head.to_owned(), body)
        }

        /// POST `body` to `path` with `headers` (lines ending in CRLF).
        fn post_with(&self, path: &str, headers: &str, body: &str) -> (u16, Value) {
            let request = format!(
                "POST {path} HTTP/1.1\r\nHost: {}\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                self.address(),
                body.len()
            );
            let (status, _, body) = self.exchange(request.as_bytes());
            (status, body)
        }
    }

    /// `grundy serve --port 0 EXTRA` started by a shell that first sets its
    /// limit on open files to `files` (`ulimit -n`).
    fn with_open_file_limit(files: usize, extra: &str) -> Server {
        let mut shell = std::process::Command::new("sh");
        shell
            .arg("-c")
            .arg(format!(
                "ulimit -n {files} && exec \"$0\" serve --port 0 {extra}"
            ))
            .arg(env!("CARGO_BIN_EXE_grundy"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        Server::spawn(shell)
    }

    /// The soft limit on open files of this process (`ulimit -n`).
    fn open_file_limit() -> usize {
        std::fs::read_to_string("/proc/self/limits")
            .ok()
            .and_then(|limits| {
                let line = limits
                    .lines()
                    .find(|line| line.starts_with("Max open files"))?
                    .to_owned();
                line.split_whitespace().nth(3)?.parse().ok()
            })
            .unwrap_or(1024)
    }

    /// Thousands of connections that send half a request line and nothing
    /// more, to a server whose open-file limit is 1024 (set by the shell
    /// before it starts): a normal request is still answered within a second.
    /// Connections past the cap take the place of the idle ones; without the
    /// cap, the server runs out of descriptors and accepts nothing more.
    #[test]
    fn thousands_of_half_open_connections_do_not_keep_a_request_out() {
        let server = with_open_file_limit(1024, "");
        // This process needs a descriptor per connection (3,000 unless its own
        // limit is lower).
        let count = 3000.min(open_file_limit().saturating_sub(100));
        if count < 3000 {
            eprintln!("only {count} connections: this process's open-file limit is lower");
        }
        let started = Instant::now();
        let address = server.address().parse().unwrap();
        let half_open: Vec<TcpStream> = (0..count)
            .map(|_| {
                let mut stream =
                    TcpStream::connect_timeout(&address, Duration::from_secs(5)).unwrap();
                stream.write_all(b"POST /api/so").unwrap();
                stream
            })
            .collect();
        eprintln!(
            "{} half-open connections in {:.2} s",
            half_open.len(),
            started.elapsed().as_secs_f64()
        );
        let started = Instant::now();
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(5)))
            .build()
            .into();
        let mut response = agent
            .post(&format!("{}/api/solve", server.url))
            .header("content-type", "application/json")
            .send(json!({"position": "nim(1, 2)"}).to_string())
            .expect("an answer despite the half-open connections");
        let elapsed = started.elapsed();
        assert_eq!(response.status().as_u16(), 200);
        let answer: Value =
            serde_json::from_str(&response.body_mut().read_to_string().unwrap()).unwrap();
        assert_eq!(answer["nimber"], 3);
        eprintln!(
            "answered in {:.3} s with {count} half-open connections",
            elapsed.as_secs_f64()
        );
        assert!(elapsed < Duration::from_secs(1), "{elapsed:?}");
        drop(half_open);
    }

    /// Connections that send a request's headers and never its body do not
    /// keep cheap requests out either: with 1,100 of them held against a cap
    /// of 1,024, 40 cheap solves (one after another, each on a connection of
    /// its own) are all answered, each within a second. At the cap a new
    /// connection takes the place of the one that has waited the longest for
    /// its body; before, every such connection counted as busy, and cheap
    /// requests waited in the backlog until the 408s came 10 s later.
    #[test]
    fn connections_that_never_send_their_body_do_not_keep_requests_out() {
        let server = with_open_file_limit(2048, "--max-connections 1024");
        let count = 1100.min(open_file_limit().saturating_sub(100));
        let address = server.address().parse().unwrap();
        let head = format!(
            "POST /api/solve HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 30\r\n\r\n",
            server.address()
        );
        let without_body: Vec<TcpStream> = (0..count)
            .filter_map(|_| {
                let mut stream =
                    TcpStream::connect_timeout(&address, Duration::from_secs(5)).ok()?;
                stream.write_all(head.as_bytes()).ok()?;
                Some(stream)
            })
            .collect();
        assert!(
            without_body.len() > 1024,
            "{} connections",
            without_body.len()
        );
        let mut slowest = Duration::ZERO;
        for heap in 0..40u32 {
            // A new agent each time: a connection of its own, not one kept alive.
            let agent: ureq::Agent = ureq::Agent::config_builder()
                .http_status_as_error(false)
                .timeout_global(Some(Duration::from_secs(5)))
                .build()
                .into();
            let started = Instant::now();
            let mut response = agent
                .post(&format!("{}/api/solve", server.url))
                .header("content-type", "application/json")
                .send(json!({"position": format!("nim({heap}, 2)")}).to_string())
                .unwrap_or_else(|e| panic!("cheap request {heap} unanswered: {e}"));
            assert_eq!(response.status().as_u16(), 200, "request {heap}");
            let answer: Value =
                serde_json::from_str(&response.body_mut().read_to_string().unwrap()).unwrap();
            assert_eq!(answer["nimber"], heap ^ 2);
            slowest = slowest.max(started.elapsed());
        }
        eprintln!(
            "40 cheap requests beside {} bodiless ones, the slowest in {:.3} s",
            without_body.len(),
            slowest.as_secs_f64()
        );
        assert!(slowest < Duration::from_secs(1), "{slowest:?}");
        drop(without_body);
    }

    /// Past `--max-connections`, the connections idle the longest are closed
    /// to make room: of 40 half-open connections to a server holding 8, the
    /// first are closed, the last 8 are still open.
    #[test]
    fn past_the_cap_the_longest_idle_connections_are_closed() {
        let server = Server::start(&["--max-connections", "8"]);
        let mut streams: Vec<TcpStream> = (0..40)
            .map(|_| {
                let mut stream = TcpStream::connect(server.address()).unwrap();
                stream.write_all(b"GET / HTTP/1.1\r\n").unwrap();
                stream
            })
            .collect();
        // A request goes through: it takes the place of the 9th-last.
        let (status, _, _) = server
            .exchange(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        assert_eq!(status, 200);
        let mut closed = Vec::new();
        for (i, stream) in streams.iter_mut().enumerate() {
            stream
                .set_read_timeout(Some(Duration::from_millis(300)))
                .unwrap();
            let mut byte = [0u8; 1];
            match stream.read(&mut byte) {
                Ok(0) => closed.push(i),
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => closed.push(i),
                Ok(_) => panic!("connection {i} was answered"),
                Err(_) => {} // still open: timed out waiting
            }
        }
        assert_eq!(closed, (0..33).collect::<Vec<_>>());
    }

    /// A connection that sends half its headers is closed at the read time.
    #[test]
    fn a_half_sent_head_is_closed_at_the_read_time() {
        let server = Server::start(&["--read-time", "1"]);
        let mut stream = TcpStream::connect(server.address()).unwrap();
        stream
            .write_all(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\nX-Half: ")
            .unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let started = Instant::now();
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let elapsed = started.elapsed();
        assert!(answer.is_empty(), "{answer:?}");
        assert!(
            elapsed > Duration::from_millis(900) && elapsed < Duration::from_millis(2500),
            "closed after {elapsed:?}"
        );
        // A whole request still goes through.
        let (status, _, _) = server
            .exchange(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        assert_eq!(status, 200);
    }

    /// A body that does not arrive within the read time is 408.
    #[test]
    fn a_body_late_past_the_read_time_is_408() {
        let server = Server::start(&["--read-time", "1"]);
        let started = Instant::now();
        let (status, _, body) = server.exchange(
            b"POST /api/solve HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{\"position\":",
        );
        assert_error(&(status, body), 408, "--read-time");
        assert!(started.elapsed() < Duration::from_millis(2500));
    }

    /// A body announced larger than the body limit is 413 at once, not after
    /// the read time spent waiting for bytes that will not be read.
    #[test]
    fn a_body_announced_over_the_limit_is_413_at_once() {
        let server = Server::start(&["--read-time", "10"]);
        let started = Instant::now();
        let (status, _, body) = server.exchange(
            b"POST /api/solve HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000000000\r\nConnection: close\r\n\r\n{\"position\":",
        );
        assert_error(&(status, body), 413, "--max-body");
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "{:?}",
            started.elapsed()
        );
    }

    /// A page on another origin cannot make the server compute: a body not
    /// declared JSON is 415, a foreign `Origin` or `Sec-Fetch-Site` 403.
    #[test]
    fn posts_from_other_origins_are_refused() {
        let server = Server::start(&[]);
        let body = json!({"position": "nim(1, 2)"}).to_string();
        for content_type in [
            "Content-Type: text/plain\r\n",
            "Content-Type: application/x-www-form-urlencoded\r\n",
            "Content-Type: multipart/form-data; boundary=x\r\n",
            "",
        ] {
            let answer = server.post_with("/api/solve", content_type, &body);
            assert_error(&answer, 415, "application/json");
        }
        let json_type = "Content-Type: application/json\r\n";
        for foreign in [
            "Origin: http://evil.example\r\n",
            "Origin: null\r\n",
            "Origin: http://127.0.0.1:1\r\n",
            "Sec-Fetch-Site: cross-site\r\n",
            "Sec-Fetch-Site: same-site\r\n",
        ] {
            for path in ["/api/solve", "/api/engine", "/api/seq", "/api/table"] {
                let answer = server.post_with(path, &format!("{foreign}{json_type}"), &body);
                assert_error(&answer, 403, "own page");
            }
        }
        let (status, _, body_of_games) = server.exchange(
            format!(
                "GET /api/games HTTP/1.1\r\nHost: {}\r\nOrigin: http://evil.example\r\nConnection: close\r\n\r\n",
                server.address()
            )
            .as_bytes(),
        );
        assert_error(&(status, body_of_games), 403, "evil.example");
        // The page's own requests: its origin, `Sec-Fetch-Site: same-origin`.
        let own = format!(
            "Origin: http://{}\r\nSec-Fetch-Site: same-origin\r\nContent-Type: application/json; charset=utf-8\r\n",
            server.address()
        );
        let (status, answer) = server.post_with("/api/solve", &own, &body);
        assert_eq!(
            (status, answer["nimber"].clone()),
            (200, json!(3)),
            "{answer}"
        );
        // The page itself is served to a link from anywhere.
        let (status, _, _) = server.exchange(b"GET / HTTP/1.1\r\nHost: localhost\r\nSec-Fetch-Site: cross-site\r\nConnection: close\r\n\r\n");
        assert_eq!(status, 200);
    }

    /// The server's own refusals of a request's form are JSON; the HTTP
    /// parser's answers to a head it cannot read (400, 431) have the right
    /// status and an empty body, and the server goes on serving.
    #[test]
    fn the_http_stacks_own_errors_have_their_status() {
        let server = Server::start(&[]);
        let close = "Host: localhost\r\nConnection: close\r\n";
        let (status, head, body) =
            server.exchange(format!("GET /api/solve HTTP/1.1\r\n{close}\r\n").as_bytes());
        assert!(head.contains("allow: POST"), "{head}");
        assert_error(&(status, body), 405, "GET");
        let (status, _, body) =
            server.exchange(format!("OPTIONS /api/solve HTTP/1.1\r\n{close}\r\n").as_bytes());
        assert_error(&(status, body), 405, "OPTIONS");

        for malformed in [
            &b"GARBAGE\r\n\r\n"[..],
            b"GET / HTTP/1.1\r\nHost: localhost\r\nno colon here\r\n\r\n",
            b"GET /a b c HTTP/1.1\r\n\r\n",
            b"GET / HTTP/9.9\r\n\r\n",
        ] {
            let (status, _, body) = server.exchange(malformed);
            assert_eq!((status, body), (400, Value::Null));
        }

        let long_uri = format!(
            "GET /api/games?{} HTTP/1.1\r\n{close}\r\n",
            "a".repeat(10_000)
        );
        let (status, _, body) = server.exchange(long_uri.as_bytes());
        assert_error(&(status, body), 414, "8192");

        let many: String = (0..150).map(|i| format!("X-Header-{i}: a\r\n")).collect();
        let (status, _, body) =
            server.exchange(format!("GET /api/games HTTP/1.1\r\n{close}{many}\r\n").as_bytes());
        assert_eq!((status, body), (431, Value::Null));
        let large = format!("X-Large: {}\r\n", "a".repeat(40_000));
        let (status, _, body) =
            server.exchange(format!("GET /api/games HTTP/1.1\r\n{close}{large}\r\n").as_bytes());
        assert_eq!((status, body), (431, Value::Null));

        // Still serving.
        let (status, _, _) =
            server.exchange(format!("GET /api/games HTTP/1.1\r\n{close}\r\n").as_bytes());
        assert_eq!(status, 200);
    }
}
// Every position playable: moves of large components, compound positions,
// compact moves played back, and memory bounded per request.
// ---------------------------------------------------------------------------

/// The moves of an `/api/solve` answer.
fn moves_of(answer: &Value) -> &Vec<Value> {
    answer["moves"].as_array().expect("a list of moves")
}

#[test]
fn large_components_and_compounds_list_moves_and_the_engine_moves() {
    let server = Server::start(&[]);
    // A heap larger than the move limit has its rule's moves.
    for (position, count) in [("bash[2](301)", 2), ("grundy_game(600)", 299)] {
        let (status, answer) = server.post("/api/solve", &json!({ "position": position }));
        assert_eq!(status, 200, "{answer}");
        assert_eq!(moves_of(&answer).len(), count, "{position}");
        assert_eq!(answer["moves_complete"], true, "{position}");
    }
    // A heap of 10^40: the winning move first, then a sample, said so.
    let huge = "nim(10000000000000000000000000000000000000000, 1)";
    let (_, answer) = server.post("/api/solve", &json!({ "position": huge }));
    let moves = moves_of(&answer);
    assert_eq!(moves[0]["to"], "nim(1, 1)");
    assert_eq!(moves[0]["wins"], true);
    assert_eq!(moves.len(), 300);
    assert_eq!(answer["moves_complete"], false);
    assert!(answer["play_note"].as_str().unwrap().contains("sample"));
    // The engine moves wherever a move exists, in plain sums and compounds.
    for position in [
        "sub[1..99 step 2](1000)",
        "rounds[2](bash[2](4))",
        "every(sub[1, 3, 4](7, 9) + wythoff(2, 3))",
    ] {
        let (status, answer) = server.post("/api/solve", &json!({ "position": position }));
        assert_eq!(status, 200, "{answer}");
        assert!(!moves_of(&answer).is_empty(), "{position}");
        let (status, engine) = server.post("/api/engine", &json!({ "position": position }));
        assert_eq!(status, 200, "{engine}");
        assert_eq!(engine["reason"], "prolonging", "{position}: {engine}");
        assert!(engine["move"]["to"].is_string(), "{position}: {engine}");
    }
}

#[test]
fn compact_moves_are_answered_as_the_position_sent_whole() {
    let server = Server::start(&[]);
    let heaps = vec!["1"; 4001].join(", ");
    let position = format!("nim({heaps}) + bash[2](5)");
    let (status, answer) = server.post("/api/solve", &json!({ "position": position }));
    assert_eq!(status, 200, "{answer}");
    let moves = moves_of(&answer);
    assert!(
        moves.iter().all(|m| m["to"].is_null()),
        "compact above 10,000 bytes"
    );
    let first = &moves[0];
    assert_eq!(first["wins"], true);
    let played = json!({
        "term": first["term"],
        "component": first["component"],
        "component_to": first["component_to"],
    });
    let whole = format!("nim({heaps}) + bash[2](4)");
    for path in ["/api/solve", "/api/engine"] {
        let (status, by_move) = server.post(path, &json!({ "position": position, "move": played }));
        assert_eq!(status, 200, "{by_move}");
        let (_, sent_whole) = server.post(path, &json!({ "position": whole }));
        assert_eq!(by_move, sent_whole, "{path}");
        assert_eq!(by_move["position"], whole.as_str());
    }
    // Another game, other parameters, or a component out of range: 400.
    for (term, component, into) in [
        (0, 0, "bash[2](0)"),
        (1, 0, "bash[3](1)"),
        (0, 4001, "nim(0)"),
        (2, 0, "nim(0)"),
    ] {
        let body = json!({
            "position": position,
            "move": {"term": term, "component": component, "component_to": into},
        });
        assert_error(&server.post("/api/solve", &body), 400, "bad `move`");
    }
    let body = json!({"position": "nim(1)", "move": {"term": 0}});
    assert_eq!(server.post("/api/engine", &body).0, 400);
}

/// The most memory the server process has held (`VmHWM`), in kB.
#[cfg(target_os = "linux")]
fn peak_memory_kb(server: &Server) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.child.id())).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
#[cfg(target_os = "linux")]
fn twenty_one_thousand_heaps_are_answered_in_bounded_memory() {
    let server = Server::start(&[]);
    for count in [21_000, 21_001] {
        let position = format!("nim({})", vec!["1"; count].join(", "));
        let body = json!({ "position": position }).to_string();
        // The position once and one compact move.
        let mut response = Server::agent()
            .post(&format!("{}/api/engine", server.url))
            .header("content-type", "application/json")
            .send(body.as_str())
            .unwrap();
        assert_eq!(response.status().as_u16(), 200);
        let text = response.body_mut().read_to_string().unwrap();
        assert!(text.len() < position.len() + 2_000, "{} bytes", text.len());
        let engine: Value = serde_json::from_str(&text).unwrap();
        assert!(engine["move"]["to"].is_null());
        assert_eq!(engine["move"]["component_to"], "nim(0)");
        assert_eq!(
            engine["reason"],
            if count % 2 == 1 {
                "winning"
            } else {
                "prolonging"
            }
        );
        // The position, its winning moves and 300 moves, compact, and a part
        // per heap: not a copy of the position per move.
        let mut response = Server::agent()
            .post(&format!("{}/api/solve", server.url))
            .header("content-type", "application/json")
            .send(body.as_str())
            .unwrap();
        assert_eq!(response.status().as_u16(), 200);
        let text = response
            .body_mut()
            .with_config()
            .limit(64 << 20)
            .read_to_string()
            .unwrap();
        assert!(text.len() < 4 << 20, "{} bytes", text.len());
    }
    // Quadratic in the heaps, this took gigabytes.
    let peak = peak_memory_kb(&server);
    assert!(peak < 256 << 10, "{peak} kB");
}
