//! `grundy serve [--port P]`: the web playground, a local HTTP server with a
//! single page (embedded in the binary) and the JSON API behind it.
//!
//! The page (`assets/web/`: plain HTML, JavaScript and CSS, no build step)
//! plays any position against the engine or between two people, colours every
//! move win or lose with its nimber, shows the sum part by part, and plots
//! `seq` and `table` with the period found. The API (docs/API.md) answers with
//! the objects of `solve --json`, `seq --json` and `table --json`:
//!
//! * `GET /api/games`: the catalogue;
//! * `POST /api/solve {"position"}`: the `solve --json` object plus every move
//!   valued (see [`play::analyse`]);
//! * `POST /api/engine {"position"}`: the engine's move ([`play::engine_move`]);
//! * `POST /api/seq {"rule", "n"}` and `POST /api/table {"expression",
//!   "ranges", "outcome"}`: `seq --json` and `table --json`, run as a child
//!   process of this binary so that a request out of time is killed whole.
//!
//! The server binds to 127.0.0.1 unless told otherwise. Every request is
//! bounded: its body (`--max-body`, 413), its computation (states, work,
//! memory, digits: 422 naming the limit), its time (`--request-time`, 422),
//! and the computations running at once (`--workers`; the others wait). Bad
//! input is 400 with the parser's message; no request gets a 500, even a bug
//! (caught, 422 with the message).

pub mod play;
pub mod view;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::Request;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use grundy::catalogue::{BuildLimits, Catalogue, entries};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::Semaphore;

use self::play::{Budget, TimeUp, message_of, refuse_files};
use crate::failure::{Failure, report_panic};
use crate::limits::SearchLimits;

/// Arguments of `grundy serve`: the limits of the command line, per request,
/// with smaller defaults.
#[derive(Debug, clap::Args)]
#[command(
    mut_arg("max_states", |arg| arg.default_value("200000")),
    mut_arg("max_digits", |arg| arg.default_value("1000")),
    mut_arg("max_work", |arg| arg.default_value("100000000")),
    mut_arg("max_memory", |arg| arg.default_value("512M"))
)]
pub struct Args {
    /// The address to listen on; the default serves this machine only.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    host: IpAddr,
    /// The port; 0 picks a free one. The server prints
    /// `listening on http://HOST:PORT` once it listens.
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The limits of one request (smaller than the command line's: a
    /// request shares the machine with others).
    #[command(flatten)]
    limits: SearchLimits,
    /// The most moves of a position listed with their values.
    #[arg(long, value_name = "N", default_value_t = 300)]
    max_options: usize,
    /// The most values of a `seq` request (its `n`).
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    max_values: usize,
    /// The most cells of a `table` request.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    max_cells: u64,
    /// The longest a request may compute, in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = crate::deadline::parse_seconds)]
    request_time: Duration,
    /// Computations run at once; further requests wait their turn.
    #[arg(long, value_name = "N", default_value_t = 4)]
    workers: usize,
    /// The largest request body, in bytes (larger: 413).
    #[arg(long, value_name = "BYTES", default_value_t = 64 * 1024)]
    max_body: usize,
}

/// The page, embedded: `grundy serve` needs no other file.
const INDEX_HTML: &str = include_str!("../../assets/web/index.html");
const APP_JS: &str = include_str!("../../assets/web/app.js");
const STYLE_CSS: &str = include_str!("../../assets/web/style.css");

/// What every handler shares.
#[derive(Debug)]
struct Server {
    max_states: usize,
    max_digits: usize,
    build: BuildLimits,
    max_options: usize,
    max_values: usize,
    max_cells: u64,
    request_time: Duration,
    /// One permit per computation running.
    workers: Arc<Semaphore>,
    /// This binary, run for `seq` and `table`.
    program: PathBuf,
}

type Shared = Arc<Server>;

/// Runs the server until the process is stopped.
///
/// # Errors
/// A [`Failure`] when the address cannot be listened on.
pub fn run(args: &Args) -> Result<(), Failure> {
    if args.workers == 0 {
        return Err(Failure::Input(
            "error: --workers must be at least 1".to_owned(),
        ));
    }
    // A search out of time is stopped by a `TimeUp` panic (see `play`): that
    // is not a bug, so it is not reported as one.
    std::panic::set_hook(Box::new(|info| {
        if info.payload().downcast_ref::<TimeUp>().is_some() {
            return;
        }
        report_panic(info);
    }));
    let program = std::env::current_exe()
        .map_err(|e| Failure::Input(format!("error: cannot find this program's path: {e}")))?;
    let server = Arc::new(Server {
        max_states: args.limits.max_states,
        max_digits: args.limits.max_digits,
        build: args.limits.build(),
        max_options: args.max_options,
        max_values: args.max_values,
        max_cells: args.max_cells,
        request_time: args.request_time,
        workers: Arc::new(Semaphore::new(args.workers)),
        program,
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(args.workers.max(1) + 4)
        .enable_all()
        .build()
        .map_err(|e| Failure::Input(format!("error: cannot start the server: {e}")))?;
    let address = SocketAddr::new(args.host, args.port);
    runtime.block_on(serve(server, address, args.max_body))
}

async fn serve(server: Shared, address: SocketAddr, max_body: usize) -> Result<(), Failure> {
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|e| {
            Failure::Input(if e.kind() == std::io::ErrorKind::AddrInUse {
                format!(
                    "error: port {} is in use (cannot listen on {address}: {e}); choose another with --port P (`--port 0` picks a free one)",
                    address.port()
                )
            } else {
                format!("error: cannot listen on {address}: {e}")
            })
        })?;
    let bound = listener
        .local_addr()
        .map_err(|e| Failure::Input(format!("error: cannot listen on {address}: {e}")))?;
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening on http://{bound}")?;
        out.flush()?;
    }
    let mut app = router(server, max_body);
    if address.ip().is_loopback() {
        app = app.layer(axum::middleware::from_fn(local_hosts_only));
    }
    axum::serve(listener, app)
        .await
        .map_err(|e| Failure::Input(format!("error: the server stopped: {e}")))
}

fn router(server: Shared, max_body: usize) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { page("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/app.js",
            get(|| async { page("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/style.css",
            get(|| async { page("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .route("/api/games", get(games))
        .route("/api/solve", post(solve))
        .route("/api/engine", post(engine))
        .route("/api/seq", post(seq))
        .route("/api/table", post(table))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(server)
}

/// Served on loopback, the server answers only requests addressed to this
/// machine by name (`Host: localhost:P`, `127.0.0.1:P`, `[::1]:P`): a web page
/// elsewhere cannot reach it through a name of its own that resolves to
/// 127.0.0.1 (DNS rebinding) and read the answers.
async fn local_hosts_only(request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("");
    if is_local_host(host) {
        next.run(request).await
    } else {
        error(
            StatusCode::FORBIDDEN,
            format!(
                "this server answers requests to localhost, 127.0.0.1 or [::1] only, not to `{host}`"
            ),
        )
    }
}

/// Whether a `Host` header names this machine: `localhost`, `127.0.0.1` or
/// `[::1]`, with or without a port.
fn is_local_host(host: &str) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        rest.split(']').next().map(|inside| format!("[{inside}]"))
    } else {
        host.split(':').next().map(str::to_owned)
    };
    matches!(name.as_deref(), Some("localhost" | "127.0.0.1" | "[::1]"))
}

fn page(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// A JSON error: `{"error": message}`.
fn error(status: StatusCode, message: impl Into<String>) -> Response {
    (status, axum::Json(json!({ "error": message.into() }))).into_response()
}

fn failure_response(failure: Failure) -> Response {
    let status = match failure {
        Failure::Input(_) => StatusCode::BAD_REQUEST,
        _ => StatusCode::UNPROCESSABLE_ENTITY,
    };
    error(status, message_of(failure))
}

async fn not_found(uri: Uri) -> Response {
    error(
        StatusCode::NOT_FOUND,
        format!("no such page or endpoint: {}", uri.path()),
    )
}

/// The body as JSON of type `T`: 413 when too large, 400 when not that JSON.
fn read_body<T: for<'de> Deserialize<'de>>(
    body: Result<Bytes, BytesRejection>,
) -> Result<T, Box<Response>> {
    let body = body.map_err(|rejection| {
        let status = rejection.status();
        let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
            "the request body is larger than the server's limit (the body limit; --max-body BYTES raises it)".to_owned()
        } else {
            rejection.body_text()
        };
        Box::new(error(status, message))
    })?;
    serde_json::from_slice(&body).map_err(|e| {
        Box::new(error(
            StatusCode::BAD_REQUEST,
            format!("bad request body: {e}"),
        ))
    })
}

/// One game of `GET /api/games`.
#[derive(Serialize)]
struct GameView {
    name: &'static str,
    summary: &'static str,
    rules: &'static str,
    syntax: &'static str,
    aliases: Vec<&'static str>,
    examples: Vec<&'static str>,
    /// How the page draws its positions: `heaps`, `coins`, `graph`, `board`,
    /// `wythoff`, `chomp` or `none`.
    drawing: &'static str,
}

/// The answer of `GET /api/games`.
#[derive(Serialize)]
struct GamesView {
    games: Vec<GameView>,
}

/// `GET /api/games`: every game with its rules, syntax, examples and drawing
/// kind (examples reading files left out: the server reads none).
async fn games() -> Response {
    let games = entries()
        .iter()
        .map(|entry| GameView {
            name: entry.name,
            summary: entry.summary,
            rules: entry.rules,
            syntax: entry.syntax,
            aliases: Catalogue::standard().aliases_of(entry.name).collect(),
            examples: entry
                .examples
                .iter()
                .copied()
                .filter(|example| !example.contains('@'))
                .collect(),
            drawing: entry.drawing.name(),
        })
        .collect();
    axum::Json(GamesView { games }).into_response()
}

/// The body of `/api/solve` and `/api/engine`: a position, and optionally a
/// move in the compact form to play on it first (the answer is then that of
/// the position after the move).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionRequest {
    position: String,
    #[serde(default, rename = "move")]
    played: Option<play::CompactMove>,
}

impl PositionRequest {
    /// The position to answer: the one sent, or the one after its move.
    fn source(&self, budget: &Budget) -> Result<String, Failure> {
        match &self.played {
            None => Ok(self.position.clone()),
            Some(played) => play::play_compact(&self.position, played, budget),
        }
    }
}

/// `POST /api/solve`.
async fn solve(State(server): State<Shared>, body: Result<Bytes, BytesRejection>) -> Response {
    match read_body::<PositionRequest>(body) {
        Ok(request) => {
            compute(&server, move |budget| {
                play::analyse(&request.source(budget)?, budget)
            })
            .await
        }
        Err(response) => *response,
    }
}

/// `POST /api/engine`.
async fn engine(State(server): State<Shared>, body: Result<Bytes, BytesRejection>) -> Response {
    match read_body::<PositionRequest>(body) {
        Ok(request) => {
            compute(&server, move |budget| {
                play::engine_move(&request.source(budget)?, budget)
            })
            .await
        }
        Err(response) => *response,
    }
}

/// Runs `work` on a blocking thread once a worker is free, within the
/// request's budget; a panic becomes a 422 naming it, never a 500.
async fn compute<T: Serialize + Send + 'static>(
    server: &Shared,
    work: impl FnOnce(&Budget) -> Result<T, Failure> + Send + 'static,
) -> Response {
    let Ok(permit) = Arc::clone(&server.workers).acquire_owned().await else {
        return error(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping");
    };
    let budget = Budget {
        max_states: server.max_states,
        max_digits: server.max_digits,
        build: server.build,
        max_options: server.max_options,
        deadline: Instant::now() + server.request_time,
        time: server.request_time,
    };
    let task = tokio::task::spawn_blocking(move || {
        // The permit is held until the computation ends, even one whose
        // request was answered "out of time": the workers bound the threads.
        let _permit = permit;
        catch_unwind(AssertUnwindSafe(|| work(&budget)))
    });
    // A search checks its deadline now and then; a little later, the answer
    // goes out whatever the computation is doing.
    let grace = Duration::from_millis(500);
    match tokio::time::timeout(server.request_time + grace, task).await {
        Ok(Ok(Ok(Ok(value)))) => axum::Json(value).into_response(),
        Ok(Ok(Ok(Err(failure)))) => failure_response(failure),
        Ok(Ok(Err(panic))) if panic.downcast_ref::<TimeUp>().is_some() => {
            failure_response(budget.time_up())
        }
        Ok(Ok(Err(panic))) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            error(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("internal error, please report it: {message}"),
            )
        }
        Ok(Err(join)) => error(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("internal error, please report it: {join}"),
        ),
        Err(_) => failure_response(budget.time_up()),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeqRequest {
    rule: String,
    n: usize,
}

/// `POST /api/seq`: `grundy seq --json RULE -n N`.
async fn seq(State(server): State<Shared>, body: Result<Bytes, BytesRejection>) -> Response {
    let request = match read_body::<SeqRequest>(body) {
        Ok(request) => request,
        Err(response) => return *response,
    };
    if let Err(failure) = refuse_files(&request.rule) {
        return failure_response(failure);
    }
    if request.n > server.max_values {
        return error(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!(
                "n = {} asks for more values than the server gives (the value limit: n at most {}; --max-values N raises it)",
                request.n, server.max_values
            ),
        );
    }
    let arguments = vec![
        "seq".to_owned(),
        "--json".to_owned(),
        "-n".to_owned(),
        request.n.to_string(),
        "--max-work".to_owned(),
        server.build.work.to_string(),
        "--max-memory".to_owned(),
        server.build.bytes.to_string(),
        "--".to_owned(),
        request.rule,
    ];
    run_child(&server, arguments).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TableRequest {
    expression: String,
    ranges: Vec<String>,
    #[serde(default)]
    outcome: bool,
}

/// `POST /api/table`: `grundy table --json EXPR RANGE [RANGE]`.
async fn table(State(server): State<Shared>, body: Result<Bytes, BytesRejection>) -> Response {
    let request = match read_body::<TableRequest>(body) {
        Ok(request) => request,
        Err(response) => return *response,
    };
    if let Err(failure) = refuse_files(&request.expression) {
        return failure_response(failure);
    }
    if !(1..=2).contains(&request.ranges.len()) {
        return error(
            StatusCode::BAD_REQUEST,
            "`ranges` holds one or two ranges, e.g. [\"x=0..40\", \"y=0..40\"]",
        );
    }
    let mut arguments = vec![
        "table".to_owned(),
        "--json".to_owned(),
        "--max-cells".to_owned(),
        server.max_cells.to_string(),
        "--max-states".to_owned(),
        server.max_states.to_string(),
        "--max-digits".to_owned(),
        server.max_digits.to_string(),
        "--max-work".to_owned(),
        server.build.work.to_string(),
        "--max-memory".to_owned(),
        server.build.bytes.to_string(),
    ];
    if request.outcome {
        arguments.push("--outcome".to_owned());
    }
    arguments.push("--".to_owned());
    arguments.push(request.expression);
    arguments.extend(request.ranges);
    run_child(&server, arguments).await
}

/// Runs this binary with `arguments` (a `--json` command) once a worker is
/// free, within the request's time: its JSON is the answer; exit 2 is 400
/// and exit 3 is 422, with its error message.
async fn run_child(server: &Shared, mut arguments: Vec<String>) -> Response {
    let Ok(_permit) = Arc::clone(&server.workers).acquire_owned().await else {
        return error(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping");
    };
    // The child stops itself at the time limit (exit 3); killed a little
    // later if it does not.
    arguments.splice(
        0..0,
        [
            "--max-time".to_owned(),
            server.request_time.as_secs_f64().to_string(),
        ],
    );
    let child = tokio::process::Command::new(&server.program)
        .args(&arguments)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .output();
    let time_up = || {
        error(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!(
                "the request took longer than {} s (the time limit); the server's --request-time SECONDS raises it",
                server.request_time.as_secs_f64()
            ),
        )
    };
    let output =
        match tokio::time::timeout(server.request_time + Duration::from_secs(1), child).await {
            Ok(Ok(output)) => output,
            Ok(Err(e)) => {
                return error(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    format!("cannot run the computation: {e}"),
                );
            }
            Err(_) => return time_up(),
        };
    let stderr = String::from_utf8_lossy(&output.stderr);
    let message = stderr
        .trim()
        .strip_prefix("error: ")
        .unwrap_or(stderr.trim());
    match output.status.code() {
        Some(0) => match serde_json::from_slice::<Value>(&output.stdout) {
            Ok(value) => axum::Json(value).into_response(),
            Err(e) => error(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("internal error, please report it: the answer is not JSON: {e}"),
            ),
        },
        Some(2) => error(StatusCode::BAD_REQUEST, message),
        Some(3) if message.contains("(the time limit)") => time_up(),
        Some(3) => error(StatusCode::UNPROCESSABLE_ENTITY, message),
        _ => error(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("the computation failed: {message}"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_names_of_this_machine_are_local_hosts() {
        for host in [
            "localhost",
            "localhost:8080",
            "127.0.0.1:1",
            "[::1]:8080",
            "[::1]",
        ] {
            assert!(is_local_host(host), "{host}");
        }
        for host in [
            "",
            "evil.example",
            "evil.example:8080",
            "127.0.0.1.evil.example",
            "[::2]:1",
        ] {
            assert!(!is_local_host(host), "{host}");
        }
    }
}
