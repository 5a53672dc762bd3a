//! `POST /replays` as a stream of JSON lines, for clients that show progress (the CLI's bar on
//! a terminal): the replay runs on a task of its own and each page it finishes becomes a line.

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use tokio::sync::mpsc;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::ReceiverStream;
use utoipa::ToSchema;

use super::ok;
use crate::components::replay::{ReplayProgress, ReplayRequest};
use crate::components::{ComponentError, ComponentService};
use crate::http::ApiError;
use pixgate_report::ReplayReport;

/// The media type of the stream.
const NDJSON: &str = "application/x-ndjson";

/// A line of the stream before its last: how far the replay is. The last line is the
/// envelope of the JSON answer (the report, or an error).
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct ProgressLine {
    progress: ReplayProgress,
}

/// Whether the client asked for the stream.
pub(super) fn wanted(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|media| media.split(';').next().unwrap_or("").trim() == NDJSON)
}

enum Message {
    Progress(ReplayProgress),
    /// Boxed: a report is large beside a progress line.
    Done(Box<Result<ReplayReport, ComponentError>>),
}

/// Runs the replay and answers with the stream once it has started; a request refused before
/// it starts (an unknown store, a bad window) gets its plain error answer.
pub(super) async fn respond(
    components: ComponentService,
    request: ReplayRequest,
) -> Result<Response, ApiError> {
    let (tx, mut rx) = mpsc::channel(8);
    let progress = tx.clone();
    tokio::spawn(async move {
        let report = components
            .replay_reporting(request, move |p| {
                // A slow reader loses progress lines, never the report.
                let _ = progress.try_send(Message::Progress(p));
            })
            .await;
        let _ = tx.send(Message::Done(Box::new(report))).await;
    });
    let first = match rx.recv().await {
        Some(Message::Progress(first)) => first,
        Some(Message::Done(report)) => return Ok(ok(StatusCode::OK, (*report)?).into_response()),
        None => {
            return Err(ApiError::Internal(crate::internal::Internal::broken(
                "the replay task ended unheard",
            )));
        }
    };
    let lines = tokio_stream::once(Message::Progress(first))
        .chain(ReceiverStream::new(rx))
        .map(|message| Ok::<_, std::convert::Infallible>(line(message)));
    let mut response = Body::from_stream(lines).into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(NDJSON));
    Ok(response)
}

fn line(message: Message) -> Vec<u8> {
    let value = match message {
        Message::Progress(progress) => serde_json::json!({ "progress": progress }),
        Message::Done(report) => match *report {
            Ok(report) => serde_json::json!({ "success": true, "data": report }),
            Err(e) => {
                let e = ApiError::from(e);
                if let ApiError::Internal(detail) = &e {
                    tracing::error!(error = %detail, "internal error during a streamed replay");
                }
                serde_json::json!({
                    "success": false,
                    "error": { "code": e.code(), "message": e.to_string() },
                })
            }
        },
    };
    let mut bytes = serde_json::to_vec(&value).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_asked_for_by_its_media_type_only() {
        let accept = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::ACCEPT, HeaderValue::from_str(v).unwrap());
            wanted(&h)
        };
        assert!(accept("application/x-ndjson"));
        assert!(accept("application/json;q=0.5, application/x-ndjson;q=1"));
        assert!(!accept("application/json"));
        assert!(!accept("*/*"));
        assert!(!accept("application/x-ndjsonx"));
        assert!(!wanted(&HeaderMap::new()));
    }
}
