//! The answers hyper writes itself, made JSON like every other error.
//!
//! A request whose head cannot be read never reaches the router: hyper
//! answers it on its own, with an empty body, and closes the connection:
//! 400 (a malformed request line or header), 431 (a head larger than
//! [`MAX_HEAD_BYTES`] or with more than [`MAX_HEADERS`] headers), 414 (a URI
//! hyper finds too long; the router's own limit, 8 KiB, comes first, see
//! [`super::guards`]). hyper has no hook for these answers, so the
//! connection's writer recognises them, as they are the only answers with
//! one of these statuses and no body (every answer of the router has a JSON
//! body), and writes instead the same answer with `{"error": "..."}`.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use serde_json::json;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The largest request head (request line and headers) hyper reads: 431
/// past it. It bounds what a connection that has not finished its headers
/// holds in memory.
pub const MAX_HEAD_BYTES: usize = 32 * 1024;

/// The most headers in a request: 431 past it.
pub const MAX_HEADERS: usize = 100;

/// A connection's stream, whose writer puts a JSON body into hyper's own
/// error answers.
#[derive(Debug)]
pub struct JsonStackErrors<S> {
    inner: S,
    /// The rewritten answer still to be written, and how much of it is.
    pending: Vec<u8>,
    written: usize,
}

impl<S> JsonStackErrors<S> {
    pub fn new(inner: S) -> Self {
        Self {
            inner,
            pending: Vec::new(),
            written: 0,
        }
    }
}

impl<S: AsyncWrite + Unpin> JsonStackErrors<S> {
    /// Writes what is left of a rewritten answer.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.pending.len() {
            let n =
                ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        self.pending.clear();
        self.written = 0;
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonStackErrors<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonStackErrors<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        ready!(self.poll_pending(cx))?;
        if let Some(answer) = with_json_body(buf) {
            // Taken whole: it is written before anything else, and flushed
            // before the connection is.
            self.pending = answer;
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// hyper's own error answer in `written` (a whole head, a status of 400, 414
/// or 431, `content-length: 0`) with a JSON error as its body; `None` for
/// anything else.
fn with_json_body(written: &[u8]) -> Option<Vec<u8>> {
    const EMPTY: &[u8] = b"\r\ncontent-length: 0\r\n";
    let head = std::str::from_utf8(written).ok()?;
    let status = head
        .strip_prefix("HTTP/1.1 ")
        .or_else(|| head.strip_prefix("HTTP/1.0 "))?
        .get(..3)?;
    let message = match status {
        "400" => {
            "the request is not well-formed HTTP/1.1: its request line or a header cannot be read"
                .to_owned()
        }
        "414" => "the request's URI is too long".to_owned(),
        "431" => format!(
            "the request's headers are too large: at most {MAX_HEADERS} headers and {} KiB with the request line",
            MAX_HEAD_BYTES / 1024
        ),
        _ => return None,
    };
    if !head.ends_with("\r\n\r\n") {
        return None;
    }
    let at = head.find(std::str::from_utf8(EMPTY).ok()?)?;
    let body = json!({ "error": message }).to_string();
    let mut answer = String::with_capacity(head.len() + body.len() + 40);
    answer.push_str(&head[..at]);
    answer.push_str(&format!(
        "\r\ncontent-type: application/json\r\ncontent-length: {}\r\n",
        body.len()
    ));
    answer.push_str(&head[at + EMPTY.len()..]);
    answer.push_str(&body);
    Some(answer.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_400_gets_a_json_body_and_its_length() {
        let bare = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\ndate: Thu, 01 Jan 2026 00:00:00 GMT\r\n\r\n";
        let answer = String::from_utf8(with_json_body(bare).unwrap()).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{head}");
        assert!(
            head.contains("\r\ncontent-type: application/json\r\n"),
            "{head}"
        );
        assert!(
            head.contains(&format!("\r\ncontent-length: {}\r\n", body.len())),
            "{head}"
        );
        assert!(
            head.ends_with("\r\ndate: Thu, 01 Jan 2026 00:00:00 GMT"),
            "{head}"
        );
        let error: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(error["error"].as_str().unwrap().contains("not well-formed"));
    }

    #[test]
    fn other_answers_are_left_alone() {
        for written in [
            &b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n"[..],
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 13\r\n\r\n{\"error\":\"x\"}",
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n",
            b"{\"error\": \"HTTP/1.1 400 \r\ncontent-length: 0\r\n\r\n\"}",
        ] {
            assert_eq!(with_json_body(written), None, "{written:?}");
        }
    }
}
