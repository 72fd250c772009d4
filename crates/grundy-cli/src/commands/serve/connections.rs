//! How `grundy serve` holds its connections: HTTP/1.1 on hyper under the
//! axum router, with a deadline for each request's headers and a cap on the
//! connections open at once.
//!
//! A client that opens connections and sends nothing, or half a request, must
//! not keep others out (slowloris). Two bounds see to it:
//!
//! * **the read time**: a connection that has not sent a request's complete
//!   headers within `--read-time` seconds of being opened (or of its previous
//!   answer, when kept alive) is closed (hyper's header read timeout); the
//!   body's own deadline is [`super::guards::body_in_time`];
//! * **the connection cap**: at most `--max-connections` connections are held
//!   (and fewer if the open-file limit is lower, see [`connection_cap`]). A
//!   connection accepted at the cap takes the place of the one idle the
//!   longest (no request in progress: still waiting for headers, or kept
//!   alive after an answer), which is closed; when none is idle, of the one
//!   that has waited the longest for its request's body (its headers came,
//!   its body has not). Only when every connection's request has its body
//!   (computing, or its answer being sent) does a new one wait, in the
//!   kernel's backlog, for a request to end. So a normal request is answered
//!   at once even when thousands of connections hold half a request or
//!   headers without a body, and a request being computed or answered is
//!   never cut.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes, HttpBody};
use axum::extract::Request;
use axum::response::Response;
use hyper::body::{Frame, Incoming, SizeHint};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::{Semaphore, oneshot};
use tower_service::Service;

/// The largest request head (request line and headers) hyper reads: 431
/// past it. It bounds what a connection that has not finished its headers
/// holds in memory.
const MAX_HEAD_BYTES: usize = 32 * 1024;

/// The most headers in a request: 431 past it.
const MAX_HEADERS: usize = 100;

/// How long connections may take and how many may be open.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// The longest a client may take to send a request's headers.
    pub read_time: Duration,
    /// The most connections held open at once.
    pub max_connections: usize,
}

/// Connections waiting in the kernel to be accepted. A burst larger than
/// the backlog is not refused but dropped, and each client dropped tries
/// again a second later: 4,096 (or the system's `somaxconn`, if smaller)
/// instead of the usual 1,024 lets a burst of thousands through at once.
const BACKLOG: u32 = 4096;

/// Listens on `address` with a backlog of [`BACKLOG`].
///
/// # Errors
/// When the address cannot be bound or listened on.
pub fn listen(address: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if address.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    // As `TcpListener::bind`: a restarted server can take its port again
    // while old connections linger.
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(address)?;
    socket.listen(BACKLOG)
}

/// Accepts connections on `listener` and serves each with `router`, within
/// `limits`, until the process stops.
pub async fn accept(listener: TcpListener, router: Router, limits: ConnectionLimits) {
    let open = Arc::new(OpenConnections::new(limits.max_connections));
    let mut next_id = 0u64;
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors or a connection reset before it
                // was accepted: the listener itself is fine. A pause lets
                // connections close (as axum::serve does).
                if !is_connection_error(&e) {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                continue;
            }
        };
        let slot = open.slot().await;
        next_id += 1;
        let (close, closed) = oneshot::channel();
        open.insert(next_id, close);
        let connection = Tracker {
            id: next_id,
            open: Arc::clone(&open),
        };
        tokio::spawn(serve_connection(
            stream,
            router.clone(),
            limits.read_time,
            connection,
            closed,
            slot,
        ));
    }
}

/// Serves one connection until it ends, fails, times out or is closed to
/// make room (`closed`); the slot is given back when it is over.
async fn serve_connection(
    stream: TcpStream,
    router: Router,
    read_time: Duration,
    connection: Tracker,
    closed: oneshot::Receiver<()>,
    _slot: tokio::sync::OwnedSemaphorePermit,
) {
    // Small answers go out at once, not after a delayed acknowledgement.
    let _ = stream.set_nodelay(true);
    let tracker = connection.clone();
    let service = hyper::service::service_fn(move |request: Request<Incoming>| {
        let busy = tracker.busy();
        let mut request = request.map(Body::new);
        request.extensions_mut().insert(busy.body_watch());
        let mut router = router.clone();
        async move {
            let response: Response = match router.call(request).await {
                Ok(response) => response,
                Err(never) => match never {},
            };
            Ok::<_, Infallible>(response.map(|body| Body::new(WhileBusy { body, _busy: busy })))
        }
    });
    let http = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(read_time)
        .max_header_size(MAX_HEAD_BYTES)
        // Room for a whole head past which hyper answers 431.
        .max_buf_size(MAX_HEAD_BYTES + 8 * 1024)
        .max_headers(MAX_HEADERS)
        .serve_connection(TokioIo::new(stream), service);
    tokio::select! {
        _ = http => {}
        _ = closed => {}
    }
    connection.open.remove(connection.id);
}

/// Accept errors that concern one connection only (it was reset or aborted
/// before being accepted): accept the next one at once.
fn is_connection_error(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    matches!(
        e.kind(),
        ConnectionRefused | ConnectionAborted | ConnectionReset
    )
}

/// The connections held open: the slots under the cap, and for each
/// connection whether a request is in progress, so that the one idle the
/// longest can be closed to make room.
#[derive(Debug)]
struct OpenConnections {
    slots: Arc<Semaphore>,
    by_id: Mutex<HashMap<u64, Open>>,
}

#[derive(Debug)]
struct Open {
    /// Requests in progress: read, computing, or their answer being sent.
    requests: usize,
    /// Of these, those whose body has not arrived yet.
    reading: usize,
    /// Since when no request has been in progress.
    idle_since: Instant,
    /// Since when a request has waited for its body, while one does.
    reading_since: Instant,
    /// Closes the connection.
    close: Option<oneshot::Sender<()>>,
}

impl OpenConnections {
    fn new(cap: usize) -> Self {
        Self {
            slots: Arc::new(Semaphore::new(cap.max(1))),
            by_id: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Open>> {
        self.by_id.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A slot for one more connection: a free one, or the slot of the
    /// connection idle the longest, closed; when every connection is busy,
    /// the first slot a request gives back.
    async fn slot(&self) -> tokio::sync::OwnedSemaphorePermit {
        if let Ok(slot) = Arc::clone(&self.slots).try_acquire_owned() {
            return slot;
        }
        self.close_longest_idle();
        Arc::clone(&self.slots)
            .acquire_owned()
            .await
            .expect("the semaphore of slots is never closed")
    }

    /// Closes the connection idle the longest, or else the one whose requests
    /// have all waited the longest for their bodies.
    fn close_longest_idle(&self) {
        let mut by_id = self.lock();
        let longest_idle = by_id
            .iter_mut()
            .filter(|(_, open)| open.close.is_some())
            .filter_map(|(id, open)| {
                if open.requests == 0 {
                    Some(((0, open.idle_since, *id), open))
                } else if open.reading == open.requests {
                    Some(((1, open.reading_since, *id), open))
                } else {
                    None
                }
            })
            .min_by_key(|(key, _)| *key)
            .map(|(_, open)| open);
        if let Some(open) = longest_idle
            && let Some(close) = open.close.take()
        {
            let _ = close.send(());
        }
    }

    fn insert(&self, id: u64, close: oneshot::Sender<()>) {
        self.lock().insert(
            id,
            Open {
                requests: 0,
                reading: 0,
                idle_since: Instant::now(),
                reading_since: Instant::now(),
                close: Some(close),
            },
        );
    }

    fn remove(&self, id: u64) {
        self.lock().remove(&id);
    }
}

/// One connection's entry in [`OpenConnections`].
#[derive(Debug, Clone)]
struct Tracker {
    id: u64,
    open: Arc<OpenConnections>,
}

impl Tracker {
    /// Marks a request in progress, its body not yet read, until the guard
    /// is dropped.
    fn busy(&self) -> Busy {
        if let Some(open) = self.open.lock().get_mut(&self.id) {
            if open.reading == 0 {
                open.reading_since = Instant::now();
            }
            open.requests += 1;
            open.reading += 1;
        }
        Busy {
            tracker: self.clone(),
            body_read: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The request's body has been read (or will never be): it no longer
    /// counts as waiting for it. Once per request (`body_read`).
    fn body_done(&self, body_read: &AtomicBool) {
        if !body_read.swap(true, Ordering::Relaxed)
            && let Some(open) = self.open.lock().get_mut(&self.id)
        {
            open.reading = open.reading.saturating_sub(1);
        }
    }
}

/// A request in progress on a connection (see [`Tracker::busy`]).
#[derive(Debug)]
struct Busy {
    tracker: Tracker,
    body_read: Arc<AtomicBool>,
}

impl Busy {
    /// What the request carries to say when its body has arrived.
    fn body_watch(&self) -> BodyWatch {
        BodyWatch {
            tracker: self.tracker.clone(),
            body_read: Arc::clone(&self.body_read),
        }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.tracker.body_done(&self.body_read);
        if let Some(open) = self.tracker.open.lock().get_mut(&self.tracker.id) {
            open.requests = open.requests.saturating_sub(1);
            open.idle_since = Instant::now();
        }
    }
}

/// Carried by each request (an extension): the body reader
/// ([`super::guards::body_in_time`]) tells through it that the body has
/// arrived, after which the connection is no longer one that may be closed
/// to make room.
#[derive(Debug, Clone)]
pub struct BodyWatch {
    tracker: Tracker,
    body_read: Arc<AtomicBool>,
}

impl BodyWatch {
    /// The request's body has been read.
    pub fn arrived(&self) {
        self.tracker.body_done(&self.body_read);
    }
}

/// An answer's body that keeps its request in progress until it has been
/// sent (hyper drops it then), so that a connection is not closed to make
/// room while its answer is still going out.
struct WhileBusy {
    body: Body,
    _busy: Busy,
}

impl HttpBody for WhileBusy {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// The most connections the server can hold with the open-file limit it has,
/// after raising its soft limit to the hard one (Unix): `wanted`, or fewer
/// (then with a note saying why), keeping descriptors for the listener, the
/// standard streams and three for each of the `workers` (files a
/// computation may open).
pub fn connection_cap(wanted: usize, workers: usize) -> (usize, Option<String>) {
    let Some(files) = raise_open_file_limit() else {
        return (wanted, None);
    };
    let reserved = 32 + 3 * workers as u64;
    let possible = usize::try_from(files.saturating_sub(reserved))
        .unwrap_or(usize::MAX)
        .max(1);
    if possible < wanted {
        let note = format!(
            "note: at most {possible} connections at once (--max-connections {wanted} is more than the open-file limit of {files} allows)"
        );
        (possible, Some(note))
    } else {
        (wanted, None)
    }
}

/// Raises the soft limit on open files to the hard limit; the soft limit
/// now in force, or `None` where it is not known.
#[cfg(unix)]
fn raise_open_file_limit() -> Option<u64> {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let (soft, hard) = getrlimit(Resource::RLIMIT_NOFILE).ok()?;
    if soft < hard && setrlimit(Resource::RLIMIT_NOFILE, hard, hard).is_ok() {
        return Some(hard);
    }
    Some(soft)
}

#[cfg(not(unix))]
fn raise_open_file_limit() -> Option<u64> {
    None
}
