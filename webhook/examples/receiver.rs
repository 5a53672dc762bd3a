//! A minimal merchant receiver: verifies each delivery on the raw body, deduplicates on the
//! delivery id, answers 2xx at once and leaves the slow work for later.
//!
//! ```text
//! PIXGATE_WEBHOOK_SECRET=whsec_... cargo run -p pixgate-webhook --example receiver
//! ```
//! Serve it behind your HTTPS terminator; pixgate only delivers to `https://` URLs.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;

#[derive(Clone)]
struct Receiver {
    secret: Arc<str>,
    seen: Arc<Mutex<HashSet<String>>>,
}

async fn webhook(State(r): State<Receiver>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let verified = match pixgate_webhook::verify(&r.secret, &headers, &body, SystemTime::now()) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("rejected: {e}");
            return StatusCode::BAD_REQUEST;
        }
    };
    let delivery = verified.delivery_id.unwrap_or_default();
    if !r.seen.lock().unwrap().insert(delivery.clone()) {
        return StatusCode::OK; // already processed: acknowledge again, do nothing
    }
    // Parse only now, from the bytes that were verified; update the order idempotently and
    // queue anything slow (emails, analytics) instead of doing it before answering.
    let event: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
    println!(
        "{} {} {}",
        verified.event.unwrap_or_default(),
        delivery,
        event["data"]["paymentIntentId"]
    );
    StatusCode::NO_CONTENT
}

#[tokio::main]
async fn main() {
    let secret = std::env::var("PIXGATE_WEBHOOK_SECRET").expect("set PIXGATE_WEBHOOK_SECRET");
    let state = Receiver {
        secret: secret.into(),
        seen: Arc::default(),
    };
    let app = Router::new()
        .route("/webhooks/pixgate", post(webhook))
        .with_state(state);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:9000")
        .await
        .unwrap();
    println!("listening on http://127.0.0.1:9000/webhooks/pixgate");
    axum::serve(listener, app).await.unwrap();
}
