//! Progress on long CLI work: `POST /replays` streams its progress as JSON lines when asked,
//! and `pixgate policy replay` draws a bar from it on a terminal, and nothing extra in a pipe.

use std::process::Command;

use pixgate_e2e::components::charge;
use pixgate_e2e::pixgate_bin;
use pixgate_e2e::server::{Backend, Server};
use serde_json::{Value, json};

const CHARGES: usize = 30;

async fn server_with_charges() -> Server {
    server_with(CHARGES).await
}

async fn server_with(charges: usize) -> Server {
    // Charges as fast as the test sends them: no per-key rate limit.
    let server =
        Server::start_with(Backend::Sqlite, &[("PIXGATE_RATE_LIMIT_PER_SECOND", "0")]).await;
    for i in 0..charges {
        let (status, body) = server
            .charge(
                &server.demo_key,
                &format!("k{i}"),
                &charge("demo-store", &format!("order-{i}"), 10.0 + i as f64),
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
    server
}

/// The demo store's replay with the recorded versions, its progress streamed.
async fn streamed_replay(server: &Server) -> reqwest::Response {
    server
        .client
        .post(format!("{}/replays", server.admin))
        .bearer_auth(&server.admin_token)
        .header("accept", "application/x-ndjson")
        .json(&json!({"store": "demo-store", "components": {}}))
        .send()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_replay_streams_its_progress_then_the_report() {
    let server = server_with_charges().await;
    let response = streamed_replay(&server).await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-type"].to_str().unwrap(),
        "application/x-ndjson"
    );
    let text = response.text().await.unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines[0],
        json!({"progress": {"replayed": 0, "total": CHARGES}}),
        "{text}"
    );
    let (last, progress) = lines.split_last().unwrap();
    assert_eq!(
        progress.last().unwrap(),
        &json!({"progress": {"replayed": CHARGES, "total": CHARGES}}),
        "{text}"
    );
    assert_eq!(last["success"], true, "{text}");
    assert_eq!(last["data"]["replayed"], CHARGES, "{text}");
    assert_eq!(last["data"]["unchanged"], CHARGES, "{text}");
}

/// Progress moves a slice of charges at a time (100), not by the pages a replay reads (4,000).
#[tokio::test(flavor = "multi_thread")]
async fn a_replays_progress_moves_a_hundred_charges_at_a_time() {
    let server = server_with(250).await;
    let text = streamed_replay(&server).await.text().await.unwrap();
    let replayed: Vec<u64> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).unwrap()["progress"]["replayed"].as_u64())
        .collect();
    assert_eq!(replayed, [0, 100, 200, 250], "{text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_replay_refused_before_it_starts_is_a_plain_error_even_when_streamed() {
    let server = Server::start(Backend::Sqlite).await;
    let response = server
        .client
        .post(format!("{}/replays", server.admin))
        .bearer_auth(&server.admin_token)
        .header("accept", "application/x-ndjson")
        .json(&json!({"store": "no-such-store", "components": {}}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "store_not_found", "{body}");
}

/// `pixgate policy replay` of the demo store against `server`, as a shell command line.
fn replay_command(server: &Server) -> String {
    format!(
        "{} policy replay --store demo-store --admin-url {}",
        pixgate_bin().display(),
        server.admin_root()
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn the_replay_command_draws_a_bar_on_a_terminal_and_nothing_extra_in_a_pipe() {
    let server = server_with_charges().await;
    let piped = Command::new("sh")
        .arg("-c")
        .arg(replay_command(&server))
        .env("PIXGATE_ADMIN_TOKEN", &server.admin_token)
        .output()
        .unwrap();
    assert!(piped.status.success(), "{piped:?}");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&piped.stdout),
        String::from_utf8_lossy(&piped.stderr),
    );
    assert!(stdout.contains(&format!("{CHARGES}")), "{stdout}");
    assert!(stderr.is_empty(), "a pipe gets no progress: {stderr:?}");
    assert!(!stdout.contains('\u{1b}'), "{stdout:?}");

    // `script` gives the command a terminal, as a person's shell would.
    let tty = Command::new("script")
        .args(["-qec", &replay_command(&server), "/dev/null"])
        .env("PIXGATE_ADMIN_TOKEN", &server.admin_token)
        .output()
        .unwrap();
    assert!(tty.status.success(), "{tty:?}");
    let seen = String::from_utf8_lossy(&tty.stdout);
    assert!(
        seen.contains(&format!("replaying {CHARGES}/{CHARGES} charges"))
            || seen.contains("replaying 0/"),
        "no bar on a terminal: {seen:?}"
    );
}
