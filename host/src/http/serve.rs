//! The accept loop of both listeners, with the limits a public server needs against slow or
//! idle clients (slowloris): at most `max_connections` connections are served at once (past
//! that, new ones wait in the kernel's backlog); request headers must arrive within
//! `header_read_timeout` (which also closes a keep-alive connection idle that long); a request
//! body must arrive within `body_read_timeout` of its headers, or the request is answered
//! `408 request_timeout`.
//!
//! `axum::serve` has none of these knobs, so this is hyper's HTTP/1.1 connection builder
//! with a timer, the way `axum::serve` drives it otherwise.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use http_body::{Frame, SizeHint};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

use crate::config::ConnectionArgs;

/// The error a request body yields when its deadline passes; the extractors answer 408.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within the body read timeout")]
pub struct BodyTimeout;

/// Whether a body-reading error is the deadline (rather than a broken or oversized body).
pub fn is_body_timeout(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut source = Some(error);
    while let Some(e) = source {
        if e.is::<BodyTimeout>() {
            return true;
        }
        source = e.source();
    }
    false
}

/// Serves `router` on `listener` until `shutdown` turns true, then lets the connections'
/// in-flight requests finish.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionArgs,
    mut shutdown: watch::Receiver<bool>,
) {
    let permits = Arc::new(Semaphore::new(limits.max_connections as usize));
    let graceful = GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout);
    let body_timeout = limits.body_read_timeout;
    loop {
        let permit = tokio::select! {
            permit = permits.clone().acquire_owned() => permit.expect("the semaphore is never closed"),
            _ = stopped(&mut shutdown) => break,
        };
        let tcp = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((tcp, _)) => tcp,
                Err(e) => {
                    // Out of descriptors and the like: wait rather than spin (as axum::serve).
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = stopped(&mut shutdown) => break,
        };
        let _ = tcp.set_nodelay(true);
        let router = router.clone();
        let service = hyper::service::service_fn(move |request: hyper::Request<_>| {
            let deadline = Instant::now() + body_timeout;
            let request = request.map(|body| Body::new(Deadline::new(body, deadline)));
            router.clone().oneshot(request)
        });
        let connection = graceful.watch(http.serve_connection(TokioIo::new(tcp), service));
        tokio::spawn(async move {
            // A client that vanishes or times out ends its connection; nothing to report.
            let _ = connection.await;
            drop(permit);
        });
    }
    drop(listener);
    graceful.shutdown().await;
}

/// Resolves once `shutdown` turns true (or its sender is gone). The guard `wait_for` returns
/// is dropped here, so the serving future stays `Send`.
async fn stopped(shutdown: &mut watch::Receiver<bool>) {
    let _ = shutdown.wait_for(|stop| *stop).await;
}

/// A request body that fails with [`BodyTimeout`] once its deadline passes. The timer is
/// only armed when the body is not already buffered, so most requests never make one.
struct Deadline<B> {
    inner: B,
    deadline: Instant,
    sleep: Option<Pin<Box<Sleep>>>,
}

impl<B> Deadline<B> {
    fn new(inner: B, deadline: Instant) -> Self {
        Self {
            inner,
            deadline,
            sleep: None,
        }
    }
}

impl<B> http_body::Body for Deadline<B>
where
    B: http_body::Body<Data = Bytes> + Unpin,
    B::Error: Into<axum::BoxError>,
{
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::BoxError>>> {
        let this = self.get_mut();
        if let Poll::Ready(frame) = Pin::new(&mut this.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        let deadline = this.deadline;
        let sleep = this
            .sleep
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        match sleep.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Some(Err(Box::new(BodyTimeout)))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    /// A client that declared a body and sends nothing more.
    struct Stalled;

    impl http_body::Body for Stalled {
        type Data = Bytes;
        type Error = std::convert::Infallible;

        fn poll_frame(
            self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
            Poll::Pending
        }
    }

    #[tokio::test]
    async fn a_body_already_in_arms_no_timer() {
        let body = Deadline::new(Body::from("{}"), Instant::now());
        let mut body = std::pin::pin!(body);
        let bytes = body.as_mut().collect().await.unwrap().to_bytes();
        assert_eq!(&bytes[..], b"{}");
        assert!(body.sleep.is_none());
    }

    #[tokio::test]
    async fn a_body_that_stalls_fails_at_its_deadline() {
        let deadline = Instant::now() + Duration::from_millis(50);
        let err = Deadline::new(Stalled, deadline)
            .collect()
            .await
            .unwrap_err();
        assert!(is_body_timeout(err.as_ref()), "{err}");
        assert!(Instant::now() >= deadline);
    }
}
