//! What a request must pass before a handler sees it: a URI of reasonable
//! length (414), the API called by this server's own page only (403, 415),
//! and its body arriving in time (408). Each answer is `{"error": "..."}`.

use std::pin::Pin;
use std::time::Duration;

use axum::body::{Body, HttpBody};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;

use super::connections::BodyWatch;
use super::error;

/// The longest URI (path and query) answered: 414 past it.
pub const MAX_URI_BYTES: usize = 8 * 1024;

/// 414 for a URI longer than [`MAX_URI_BYTES`].
pub async fn uri_not_too_long(request: Request, next: Next) -> Response {
    let length = request
        .uri()
        .path_and_query()
        .map_or(0, |path| path.as_str().len());
    if length > MAX_URI_BYTES {
        return error(
            StatusCode::URI_TOO_LONG,
            format!(
                "the request's URI is {length} bytes long, more than the server's {MAX_URI_BYTES}"
            ),
        );
    }
    next.run(request).await
}

/// The API (`/api/...`) answers this server's own page only: a page on
/// another origin must not make it compute. The page itself (`/`, its
/// script and style) is served to anyone, so that a link to it works.
///
/// Refused with 403: a request that the browser says comes from another site
/// (`Sec-Fetch-Site: cross-site` or `same-site`), or whose `Origin` is not
/// `http://` and the `Host` it was sent to. Refused with 415: a `POST` whose
/// body is not declared `application/json`. A browser sends a cross-origin
/// JSON `POST` only after a preflight `OPTIONS` request, which this server
/// does not grant (405), so the 415 also stops an old browser that sends
/// neither `Sec-Fetch-Site` nor `Origin` on a form or a `text/plain` fetch.
pub async fn own_page_only(request: Request, next: Next) -> Response {
    if !request.uri().path().starts_with("/api/") {
        return next.run(request).await;
    }
    let headers = request.headers();
    if let Some(refusal) = foreign_origin(headers) {
        return error(StatusCode::FORBIDDEN, refusal);
    }
    if request.method() == Method::POST && !declares_json(headers) {
        let declared = headers
            .get(header::CONTENT_TYPE)
            .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned());
        return error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!(
                "the request body must be JSON sent with `Content-Type: application/json`, not {}",
                declared.map_or_else(|| "without a content type".to_owned(), |t| format!("`{t}`"))
            ),
        );
    }
    next.run(request).await
}

/// Why a request comes from another site's page, if it does.
fn foreign_origin(headers: &HeaderMap) -> Option<String> {
    let text = |name| {
        headers.get(name).map(|value: &header::HeaderValue| {
            String::from_utf8_lossy(value.as_bytes()).into_owned()
        })
    };
    if let Some(site) = text("sec-fetch-site")
        && (site.eq_ignore_ascii_case("cross-site") || site.eq_ignore_ascii_case("same-site"))
    {
        return Some(format!(
            "the API answers the playground's own page only, not a page on another site (Sec-Fetch-Site: {site})"
        ));
    }
    let origin = text(header::ORIGIN.as_str())?;
    let own = format!("http://{}", text(header::HOST.as_str()).unwrap_or_default());
    if origin.eq_ignore_ascii_case(&own) {
        None
    } else {
        Some(format!(
            "the API answers the playground's own page only ({own}), not a page from {origin}"
        ))
    }
}

/// Whether the `Content-Type` is `application/json` (with any parameters,
/// such as a charset).
fn declares_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|media_type| media_type.trim().eq_ignore_ascii_case("application/json"))
}

/// How long a body may take and how much of it is read.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimits {
    /// The longest a client may take to send the body after its headers.
    pub read_time: Duration,
    /// The largest body answered (the handlers answer 413 past it).
    pub max_body: usize,
}

/// Reads the body within [`BodyLimits::read_time`] (408 otherwise) before
/// the handler runs, so that a client sending its body slowly does not hold
/// a connection, nor a worker, for longer. At most one byte past the body
/// limit is read: the handler then answers 413 as for any larger body.
pub async fn body_in_time(
    State(limits): State<BodyLimits>,
    request: Request,
    next: Next,
) -> Response {
    // A body announced larger than the limit is refused at once, before any
    // of it is waited for.
    let announced = request
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse::<u64>().ok());
    if announced.is_some_and(|length| length > limits.max_body as u64) {
        return error(StatusCode::PAYLOAD_TOO_LARGE, body_too_large());
    }
    let watch = request.extensions().get::<BodyWatch>().cloned();
    let (parts, body) = request.into_parts();
    let read = tokio::time::timeout(limits.read_time, read_up_to(body, limits.max_body + 1)).await;
    if let Some(watch) = watch {
        watch.arrived();
    }
    match read {
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Ok(Err(e)) => error(
            StatusCode::BAD_REQUEST,
            format!("cannot read the request body: {e}"),
        ),
        Err(_) => error(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request body did not arrive within {} s (the read time limit; the server's --read-time SECONDS raises it)",
                limits.read_time.as_secs_f64()
            ),
        ),
    }
}

/// The message of a body over the limit.
pub fn body_too_large() -> String {
    "the request body is larger than the server's limit (the body limit; --max-body BYTES raises it)".to_owned()
}

/// The body's bytes, reading no more once `limit` are read.
async fn read_up_to(mut body: Body, limit: usize) -> Result<Vec<u8>, axum::Error> {
    let mut bytes = Vec::new();
    while bytes.len() < limit {
        let frame = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await;
        match frame {
            None => break,
            Some(frame) => {
                if let Ok(data) = frame?.into_data() {
                    bytes.extend_from_slice(&data);
                }
            }
        }
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(name, value)| {
                (
                    header::HeaderName::from_static(name),
                    HeaderValue::from_static(value),
                )
            })
            .collect()
    }

    #[test]
    fn only_the_servers_own_origin_passes() {
        let own = [
            ("host", "127.0.0.1:8080"),
            ("origin", "http://127.0.0.1:8080"),
        ];
        assert_eq!(foreign_origin(&headers(&own)), None);
        assert_eq!(
            foreign_origin(&headers(&[("host", "localhost:8080")])),
            None
        );
        assert_eq!(
            foreign_origin(&headers(&[("sec-fetch-site", "same-origin")])),
            None
        );
        for refused in [
            &[
                ("host", "127.0.0.1:8080"),
                ("origin", "http://127.0.0.1:8081"),
            ][..],
            &[
                ("host", "127.0.0.1:8080"),
                ("origin", "http://localhost:8080"),
            ],
            &[("host", "127.0.0.1:8080"), ("origin", "null")],
            &[
                ("host", "127.0.0.1:8080"),
                ("origin", "https://127.0.0.1:8080"),
            ],
            &[("origin", "http://127.0.0.1:8080")],
            &[("host", "127.0.0.1:8080"), ("sec-fetch-site", "cross-site")],
            &[("host", "127.0.0.1:8080"), ("sec-fetch-site", "same-site")],
        ] {
            assert!(foreign_origin(&headers(refused)).is_some(), "{refused:?}");
        }
    }

    #[test]
    fn json_is_application_json_with_any_parameters() {
        for json in ["application/json", "Application/JSON; charset=utf-8"] {
            let map: HeaderMap = [(header::CONTENT_TYPE, HeaderValue::from_str(json).unwrap())]
                .into_iter()
                .collect();
            assert!(declares_json(&map), "{json}");
        }
        for other in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/jsonx",
        ] {
            let map: HeaderMap = [(header::CONTENT_TYPE, HeaderValue::from_str(other).unwrap())]
                .into_iter()
                .collect();
            assert!(!declares_json(&map), "{other}");
        }
        assert!(!declares_json(&HeaderMap::new()));
    }
}
