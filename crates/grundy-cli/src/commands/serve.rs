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
//! * `GET /api/status`: how busy the quick lane and the workers are;
//! * `POST /api/solve {"position", "move"?}`: the `solve --json` object plus
//!   every move valued (see [`play::analyse`]);
//! * `POST /api/engine {"position", "move"?}`: the engine's move
//!   ([`play::engine_move`]);
//! * `POST /api/seq {"rule", "n"}` and `POST /api/table {"expression",
//!   "ranges", "outcome"}`: `seq --json` and `table --json`, computed in
//!   this process on the request's thread, as `solve` is, and stopped by the
//!   same cancellation at the request's deadline (no child process).
//!
//! The server binds to 127.0.0.1 unless told otherwise. Every request is
//! bounded: its body (`--max-body`, 413), its computation (states, work,
//! memory, digits: 422 naming the limit), its time (`--request-time`, 422,
//! the wait for a worker included; 503 when it cannot start in time), and
//! the computations running at once: a quick lane for every request's first
//! 0.1 s, then `--workers` ([`lanes`]), each attempt stopped at its end by the
//! library's cancellation signal. Bad input is 400 with the parser's message;
//! no request gets a 500, even a bug (caught, 422 with the message).
//!
//! The server holds its connections itself ([`connections`]: a deadline for
//! a request's headers, a cap on the connections open), answers the API to
//! its own page only and reads bodies within a deadline ([`guards`]). The
//! HTTP parser answers a head it cannot read itself (400, 431, with an
//! empty body).

pub mod connections;
pub mod guards;
pub mod lanes;
pub mod memory;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::Request;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{Method, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use grundy::theory::caches::Caches;
use grundy::theory::cancel::Cancel;
use grundy::workflow::Limits;
use grundy::workflow::play::{self, RequestLimits, message_of, refuse_files};
use grundy::workflow::watch::CutShort;
use grundy::workflow::{seq, table};
use serde::{Deserialize, Serialize};
use serde_json::json;

use self::connections::ConnectionLimits;
use self::guards::BodyLimits;
use self::lanes::{Attempt, Lanes, Unanswered};
use crate::failure::{Door, Failure};
use crate::limits::SearchLimits;

/// Arguments of `grundy serve`: the limits of the command line, per request,
/// with smaller defaults.
#[derive(Debug, clap::Args)]
#[command(
    mut_arg("max_states", |arg| arg.default_value("200000")),
    mut_arg("max_digits", |arg| arg.default_value("1000")),
    mut_arg("max_work", |arg| arg.default_value("100000000")),
    mut_arg("max_memory", |arg| arg.default_value("128M"))
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
    #[arg(long, value_name = "N", default_value_t = play::DEFAULT_MAX_OPTIONS)]
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
    /// The longest a client may take to send a request's headers (the
    /// connection is then closed), and again its body (408), in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = crate::deadline::parse_seconds)]
    read_time: Duration,
    /// The most connections held open at once (fewer if the open-file limit
    /// is lower); past it, a new connection takes the place of the one idle
    /// the longest.
    #[arg(long, value_name = "N", default_value_t = 1024)]
    max_connections: usize,
    /// The largest answer body, in bytes (`K`, `M`, `G` suffixes allowed):
    /// an answer that would be longer is 422 naming this limit.
    #[arg(long, value_name = "BYTES", default_value = "4M", value_parser = parse_answer_bytes)]
    max_answer: u64,
}

/// The limits of one request of the playground, from the server's flags: the
/// request's time is its budget's, and it computes on one thread.
fn request_limits(limits: &SearchLimits) -> Limits {
    Limits {
        states: limits.max_states,
        digits: limits.max_digits,
        largest_heap: limits.max_heap,
        bytes: limits.budget.max_memory,
        work: limits.budget.max_work,
        time: None,
        threads: Some(1),
    }
}

fn parse_answer_bytes(text: &str) -> Result<u64, String> {
    grundy::theory::limits::parse_bytes(text)
}

/// The page, embedded: `grundy serve` needs no other file.
const INDEX_HTML: &str = include_str!("../../assets/web/index.html");
const APP_JS: &str = include_str!("../../assets/web/app.js");
const STYLE_CSS: &str = include_str!("../../assets/web/style.css");

/// What every handler shares.
#[derive(Debug)]
struct Server {
    /// The limits of a request, as the playground's answers take them.
    request_limits: Limits,
    max_options: usize,
    max_values: usize,
    max_cells: u64,
    request_time: Duration,
    /// The largest answer body, in bytes.
    max_answer: usize,
    /// The quick lane and the workers that compute.
    lanes: Lanes,
    /// The limits of a request, as `seq` and `table` take them.
    limits: SearchLimits,
    /// What the requests keep for the next (quotients, values, scripts), for
    /// the server's lifetime: within a quarter of a request's memory limit.
    caches: Caches,
}

type Shared = Arc<Server>;

/// Runs the server until the process is stopped.
///
/// # Errors
/// A [`Failure`] when the address cannot be listened on.
pub fn run(args: &Args) -> Result<(), Failure> {
    if args.workers == 0 {
        return Err(Failure::input(
            "error: --workers must be at least 1".to_owned(),
        ));
    }
    if args.max_connections == 0 {
        return Err(Failure::input(
            "error: --max-connections must be at least 1".to_owned(),
        ));
    }
    if args.read_time.is_zero() {
        return Err(Failure::input(
            "error: --read-time must be more than 0 seconds".to_owned(),
        ));
    }
    let (max_connections, note) = connections::connection_cap(args.max_connections, args.workers);
    if let Some(note) = note {
        eprintln!("{note}");
    }
    let server = Arc::new(Server {
        request_limits: request_limits(&args.limits),
        max_options: args.max_options,
        max_values: args.max_values,
        max_cells: args.max_cells,
        request_time: args.request_time,
        max_answer: usize::try_from(args.max_answer).unwrap_or(usize::MAX),
        lanes: Lanes::new(args.workers),
        limits: args.limits.clone(),
        caches: Caches::for_budget(args.limits.budget.max_memory),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(args.workers.max(1) + lanes::QUICK_LANE + 4)
        // A computing thread idle for a second ends (the memory freed by
        // requests is given back after each: `memory`).
        .thread_keep_alive(Duration::from_secs(1))
        .enable_all()
        .build()
        .map_err(|e| Failure::input(format!("error: cannot start the server: {e}")))?;
    let address = SocketAddr::new(args.host, args.port);
    let limits = ConnectionLimits {
        read_time: args.read_time,
        max_connections,
    };
    let body = BodyLimits {
        read_time: args.read_time,
        max_body: args.max_body,
    };
    runtime.block_on(serve(server, address, limits, body))
}

async fn serve(
    server: Shared,
    address: SocketAddr,
    limits: ConnectionLimits,
    body: BodyLimits,
) -> Result<(), Failure> {
    let listener = connections::listen(address).map_err(|e| {
        Failure::input(if e.kind() == std::io::ErrorKind::AddrInUse {
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
        .map_err(|e| Failure::input(format!("error: cannot listen on {address}: {e}")))?;
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening on http://{bound}")?;
        out.flush()?;
    }
    let mut app = router(server, body);
    if address.ip().is_loopback() {
        app = app.layer(axum::middleware::from_fn(local_hosts_only));
    }
    connections::accept(listener, app, limits).await;
    Ok(())
}

fn router(server: Shared, body: BodyLimits) -> Router {
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
        .route(
            "/favicon.svg",
            get(|| async {
                page(
                    "image/svg+xml",
                    include_str!("../../assets/web/favicon.svg"),
                )
            }),
        )
        .route("/api/games", get(games))
        .route("/api/status", get(status))
        .route("/api/solve", post(solve))
        .route("/api/engine", post(engine))
        .route("/api/seq", post(seq))
        .route("/api/table", post(table_answer))
        .method_not_allowed_fallback(method_not_allowed)
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(body.max_body))
        .layer(axum::middleware::from_fn_with_state(
            body,
            guards::body_in_time,
        ))
        .layer(axum::middleware::from_fn(guards::own_page_only))
        .layer(axum::middleware::from_fn(guards::uri_not_too_long))
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

/// A JSON error: `{"error": message}`, the message cut to an excerpt
/// ([`play::excerpt`]) when it quotes a long input.
fn error(status: StatusCode, message: impl Into<String>) -> Response {
    let message = play::excerpt(&message.into());
    (status, axum::Json(json!({ "error": message }))).into_response()
}

/// The answer `value` as a JSON body of at most `max` bytes; written into a
/// buffer that refuses to grow past it, so that an answer too long is never
/// held whole.
fn answer_body<T: Serialize>(value: &T, max: usize) -> Result<Vec<u8>, Failure> {
    let mut body = Bounded {
        bytes: Vec::new(),
        max,
    };
    match serde_json::to_writer(&mut body, value) {
        Ok(()) => Ok(body.bytes),
        Err(e) if e.is_io() => Err(answer_too_long(max)),
        Err(e) => Err(Failure::limit(format!(
            "error: internal error: the answer cannot be written: {e}"
        ))),
    }
}

fn answer_too_long(max: usize) -> Failure {
    Failure::limit(format!(
        "error: the answer would be longer than {max} bytes (the answer limit); the server's --max-answer BYTES raises it"
    ))
}

/// A buffer that takes at most `max` bytes.
struct Bounded {
    bytes: Vec<u8>,
    max: usize,
}

impl std::io::Write for Bounded {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        if self.bytes.len() + data.len() > self.max {
            return Err(std::io::Error::other("the answer limit"));
        }
        self.bytes.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn json_body(body: Vec<u8>) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

fn failure_response(failure: Failure) -> Response {
    let status = match failure {
        Failure::Input { .. } | Failure::Game(_) => StatusCode::BAD_REQUEST,
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

async fn method_not_allowed(method: Method, uri: Uri) -> Response {
    error(
        StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "{} does not answer {method}: the API takes POST with a JSON body, except GET /api/games; the page and its files take GET",
            uri.path()
        ),
    )
}

/// The body as JSON of type `T`: 413 when too large, 400 when not that JSON.
fn read_body<T: for<'de> Deserialize<'de>>(
    body: Result<Bytes, BytesRejection>,
) -> Result<T, Box<Response>> {
    let body = body.map_err(|rejection| {
        let status = rejection.status();
        let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
            guards::body_too_large()
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

/// `GET /api/games`: every game with its rules, syntax, examples and drawing
/// kind ([`play::games`]).
async fn games() -> Response {
    axum::Json(play::games()).into_response()
}

/// `GET /api/status`: how busy the workers and the quick lane are.
async fn status(State(server): State<Shared>) -> Response {
    axum::Json(server.lanes.status()).into_response()
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
    fn source(&self, budget: &RequestLimits) -> Result<String, Failure> {
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

/// Runs `work` within the request's time, first in the quick lane then on a
/// worker (see [`lanes`]), each attempt on a blocking thread under a [`Cancel`]
/// at its end; a panic becomes a 422 naming it, never a 500.
async fn compute<T: Serialize + Send + 'static>(
    server: &Shared,
    work: impl Fn(&RequestLimits) -> Result<T, Failure> + Send + Sync + 'static,
) -> Response {
    let deadline = Instant::now() + server.request_time;
    let max_answer = server.max_answer;
    let work = Arc::new(work);
    let answered = server
        .lanes
        .run(deadline, |permit, stop| {
            let work = Arc::clone(&work);
            let budget = RequestLimits {
                limits: server.request_limits,
                max_options: server.max_options,
                deadline: stop,
                request_deadline: deadline,
                time: server.request_time,
            };
            let caches = server.caches.clone();
            async move {
                let cancel = Cancel::with_deadline(stop).caching(&caches);
                let signal = cancel.clone();
                let task = tokio::task::spawn_blocking(move || {
                    // The permit is held until the computation returns, even past
                    // its answer: the lanes bound the threads computing.
                    let _permit = permit;
                    let started = Instant::now();
                    let result = catch_unwind(AssertUnwindSafe(|| {
                        on_one_thread(|| signal.run(|| answer_body(&work(&budget)?, max_answer)))
                    }));
                    // What the computation held is freed by now (its answer is
                    // the body's bytes): back to the system.
                    if started.elapsed() >= memory::TRIM_AFTER {
                        memory::give_back();
                    }
                    (result, signal.is_cancelled())
                });
                // The searches see the deadline within milliseconds; past a little
                // grace the attempt is answered out of time whatever they do.
                let grace = Duration::from_millis(100);
                let wait = stop.saturating_duration_since(Instant::now()) + grace;
                match tokio::time::timeout(wait, task).await {
                    // A computation stopped by its deadline may return early with
                    // less than a whole answer: out of time, whatever it returned.
                    Ok(Ok((_, true))) | Err(_) => {
                        cancel.cancel();
                        Attempt::OutOfTime
                    }
                    Ok(Ok((Ok(Ok(body)), false))) => Attempt::Answered(json_body(body)),
                    Ok(Ok((Ok(Err(failure)), false))) => {
                        Attempt::Answered(failure_response(failure))
                    }
                    Ok(Ok((Err(panic), false))) => {
                        Attempt::Answered(internal_error(&panic_message(&panic)))
                    }
                    Ok(Err(join)) => Attempt::Answered(internal_error(&join.to_string())),
                }
            }
        })
        .await;
    match answered {
        Ok(response) => response,
        Err(unanswered) => unanswered_response(server, &unanswered),
    }
}

/// Runs `work` on a pool of one thread kept for this blocking thread: a
/// request computes on one thread, so that no request's work waits in a pool
/// shared with the others' (a search that hands work to the global pool would
/// hold its lane's permit while other requests' work fills that pool). The
/// lanes bound how many requests compute at once. Without such a pool (the
/// system refused a thread), `work` runs here, on the global pool.
fn on_one_thread<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    thread_local! {
        static ONE: Option<rayon::ThreadPool> =
            rayon::ThreadPoolBuilder::new().num_threads(1).build().ok();
    }
    ONE.with(|pool| match pool {
        Some(pool) => pool.install(work),
        None => work(),
    })
}

/// The text of a panic's payload.
fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

fn internal_error(message: &str) -> Response {
    error(
        StatusCode::UNPROCESSABLE_ENTITY,
        format!("internal error, please report it: {message}"),
    )
}

/// The answer of a request that got none of its own: 503 with `Retry-After`
/// when it could not start in time, 422 naming the time limit when it used it.
fn unanswered_response(server: &Server, unanswered: &Unanswered) -> Response {
    match unanswered {
        Unanswered::Busy => {
            let mut response = error(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the server is busy: the request could not start computing within {} s (the time limit, which counts the wait); try again shortly",
                    server.request_time.as_secs_f64()
                ),
            );
            let seconds = server.request_time.as_secs().max(1);
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from(seconds));
            response
        }
        Unanswered::OutOfTime => failure_response(play::time_up(server.request_time)),
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
    let limits = crate::commands::seq::limits(&server.limits.budget, seq::UNTIL_PROVEN_REACH);
    compute(&server, move |_| {
        let asked = seq::Request {
            process_bytes: crate::commands::seq::PROCESS_BYTES,
            ..seq::Request::new(request.rule.clone(), request.n)
        };
        // Computed on this thread under its cancellation signal, with no
        // progress bar and no note; a run stopped early is out of time.
        let answer = seq::run(&asked, &limits, Door::CommandLine, &mut seq::Quiet)?;
        if answer.cut_short() {
            return Err(Failure::limit(
                "error: the computation was cancelled (the time limit)",
            ));
        }
        Ok(answer.json())
    })
    .await
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
async fn table_answer(
    State(server): State<Shared>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
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
    let limits = server.limits.workflow();
    let max_cells = server.max_cells;
    // A table stopped by the deadline is incomplete: the attempt is answered
    // out of time, whatever it returned.
    compute(&server, move |_| {
        let axes = request
            .ranges
            .iter()
            .map(|range| table::Axis::parse(range))
            .collect::<Result<Vec<_>, _>>()?;
        let measure = if request.outcome {
            table::Measure::Outcome
        } else {
            table::Measure::Nimber
        };
        let grid = table::Grid::new(axes, measure, max_cells, Door::CommandLine)?;
        table::tabulate(
            &request.expression,
            grid,
            true,
            &limits,
            Door::CommandLine,
            &(),
        )
        .map(|table| table.json())
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_longer_than_its_limit_is_refused_before_it_is_held() {
        let long = vec![7u32; 1000];
        assert!(answer_body(&long, 10_000).is_ok());
        let Err(Failure::Limit { message, .. }) = answer_body(&long, 100) else {
            panic!("an answer of 2000 bytes passed a limit of 100");
        };
        assert!(message.contains("--max-answer"), "{message}");
    }

    #[test]
    fn the_flags_default_to_the_playgrounds_defaults() {
        #[derive(clap::Parser)]
        struct Serve {
            #[command(flatten)]
            args: Args,
        }
        let args = <Serve as clap::Parser>::parse_from(["serve"]).args;
        assert_eq!(
            request_limits(&args.limits),
            Limits {
                threads: Some(1),
                ..play::default_limits()
            }
        );
        assert_eq!(args.max_options, play::DEFAULT_MAX_OPTIONS);
        assert_eq!(args.request_time, play::DEFAULT_REQUEST_TIME);
    }

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
