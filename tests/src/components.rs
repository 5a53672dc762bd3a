//! Helpers for the policy-component tests: upload, activate, evaluate and replay through the
//! admin API of a running server.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::server::{Server, charge_body};

/// `POST /components/{step}` with raw bytes; the status and the JSON body.
pub async fn upload(server: &Server, step: &str, bytes: Vec<u8>) -> (u16, Value) {
    let r = server
        .client
        .post(format!("{}/components/{step}", server.admin))
        .bearer_auth(&server.admin_token)
        .header("Content-Type", "application/wasm")
        .body(bytes)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

/// Uploads a component built from `policies/` and returns its version.
pub async fn upload_guest(server: &Server, step: &str, guest: &str) -> String {
    let bytes = std::fs::read(crate::guest_wasm(guest)).unwrap();
    let (status, body) = upload(server, step, bytes).await;
    assert!(status == 201 || status == 200, "{status} {body}");
    body["data"]["version"].as_str().unwrap().to_owned()
}

/// `PUT /stores/{store}/components/{step}`.
pub async fn activate(server: &Server, store: &str, step: &str, version: &str) -> Value {
    let (status, body) = server
        .admin(
            reqwest::Method::PUT,
            &format!("/stores/{store}/components/{step}"),
            Some(json!({ "version": version })),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"].clone()
}

/// `POST /stores/{store}/components/{step}/rollback`.
pub async fn rollback(server: &Server, store: &str, step: &str) -> (u16, Value) {
    server
        .admin_post(
            &format!("/stores/{store}/components/{step}/rollback"),
            json!({}),
        )
        .await
}

/// A charge body for `store` with `reference` and `amount` (BRL).
pub fn charge(store: &str, reference: &str, amount: f64) -> Value {
    let mut body = charge_body(store);
    body["reference"] = json!(reference);
    body["amount"] = json!(amount);
    body
}

/// `POST /replays`.
pub async fn replay(server: &Server, body: Value) -> Value {
    let (status, report) = server.admin_post("/replays", body).await;
    assert_eq!(status, 200, "{report}");
    report["data"].clone()
}

/// `DELETE /components/{step}/{version}`.
pub async fn delete_version(server: &Server, step: &str, version: &str) -> (u16, Value) {
    server
        .admin(
            reqwest::Method::DELETE,
            &format!("/components/{step}/{version}"),
            None,
        )
        .await
}

/// Deletes a version that no store runs and no recorded trace names, once the few seconds in
/// which a store that just ran it may still record it have passed; panics on any other answer.
pub async fn delete_once_unused(server: &Server, step: &str, version: &str) {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let (status, body) = delete_version(server, step, version).await;
        if status == 200 {
            return;
        }
        let message = body["error"]["message"].as_str().unwrap_or_default();
        assert!(
            status == 409 && message.contains("last few seconds"),
            "{status} {body}"
        );
        assert!(Instant::now() < deadline, "{body}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}
