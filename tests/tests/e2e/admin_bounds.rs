//! Heavy admin work is bounded so that it never starves merchants (DESIGN.md section 13):
//! upload bodies read at once, replays at once (per store and in all), and the bytes the
//! uploaded components take. A request beyond a bound is answered at once: 429 with
//! `Retry-After` (before an upload's body is read), or 507 `component_store_full` naming the
//! versions that may be deleted.

use std::time::{Duration, Instant};

use pixgate_e2e::components::{activate, charge, upload, upload_guest};
use pixgate_e2e::server::{Server, backends};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// An upload whose headers announce `length` bytes of which only `sent` go out: the socket,
/// left open, is a client still sending its body.
async fn upload_in_flight(server: &Server, length: usize, sent: &[u8]) -> TcpStream {
    let root = server.admin_root();
    let host = root.trim_start_matches("http://");
    let mut socket = TcpStream::connect(host).await.unwrap();
    let head = format!(
        "POST /admin/v1/components/policy HTTP/1.1\r\nHost: {host}\r\n\
         Authorization: Bearer {}\r\nContent-Type: application/wasm\r\n\
         Content-Length: {length}\r\n\r\n",
        server.admin_token
    );
    socket.write_all(head.as_bytes()).await.unwrap();
    socket.write_all(sent).await.unwrap();
    socket.flush().await.unwrap();
    socket
}

/// The answer on `socket`: status, headers (lower-case names) and JSON body. Within 30 s, or
/// the test fails: a server waiting for the rest of the body never answers.
async fn answer(socket: &mut TcpStream) -> (u16, Vec<(String, String)>, Value) {
    let read = async {
        let mut bytes = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            let n = socket.read(&mut buf).await.unwrap();
            bytes.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&bytes).into_owned();
            if let Some((head, body)) = text.split_once("\r\n\r\n") {
                let mut lines = head.lines();
                let status = lines
                    .next()
                    .unwrap()
                    .split(' ')
                    .nth(1)
                    .unwrap()
                    .parse()
                    .unwrap();
                let headers: Vec<(String, String)> = lines
                    .filter_map(|l| l.split_once(':'))
                    .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
                    .collect();
                let length: usize = headers
                    .iter()
                    .find(|(k, _)| k == "content-length")
                    .map_or(0, |(_, v)| v.parse().unwrap());
                if body.len() >= length || n == 0 {
                    let json = serde_json::from_str(body).unwrap_or(Value::Null);
                    return (status, headers, json);
                }
            }
            assert!(n > 0, "the connection closed without an answer: {text}");
        }
    };
    tokio::time::timeout(Duration::from_secs(30), read)
        .await
        .expect("no answer within 30 s: the server waited for the body")
}

fn header<'h>(headers: &'h [(String, String)], name: &str) -> Option<&'h str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

#[tokio::test(flavor = "multi_thread")]
async fn an_upload_beyond_the_bound_is_refused_before_its_body_is_read() {
    for backend in backends() {
        let server = Server::start_with(backend, &[("PIXGATE_MAX_CONCURRENT_UPLOADS", "1")]).await;
        // One upload is being read: its client has sent 4 of its 1 MiB.
        let mut first = upload_in_flight(&server, 1 << 20, b"\0asm").await;
        // Small uploads are judged (400: not a component) until the first holds the only
        // permit; from then on they are refused. A small one may hold the permit at the moment
        // the first asks for it (the server meets the two connections in either order): then
        // the first is the one refused, and its client sends it again.
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let (status, body) = upload(&server, "policy", b"\0asm".to_vec()).await;
            if status == 429 {
                assert_eq!(body["error"]["code"], "too_many_uploads", "{body}");
                break;
            }
            assert_eq!(status, 400, "{body}");
            assert!(
                Instant::now() < deadline,
                "the first upload never held its permit"
            );
            let mut probe = [0u8; 1];
            let answered = tokio::time::timeout(Duration::from_millis(20), first.read(&mut probe))
                .await
                .is_ok();
            if answered {
                // Refused (or closed): it holds no permit.
                first = upload_in_flight(&server, 1 << 20, b"\0asm").await;
            }
        }
        // Refused before its body is read: one that sends 4 of its 32 MiB is answered.
        let mut second = upload_in_flight(&server, 32 << 20, b"\0asm").await;
        let (status, headers, body) = answer(&mut second).await;
        assert_eq!(status, 429, "{body}");
        assert_eq!(body["success"], false);
        assert_eq!(body["error"]["code"], "too_many_uploads", "{body}");
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("PIXGATE_MAX_CONCURRENT_UPLOADS"),
            "{body}"
        );
        let retry: u64 = header(&headers, "retry-after").unwrap().parse().unwrap();
        assert!(retry >= 1, "{headers:?}");
        // The first one's body ends (short: its client gives up); the next upload is read.
        first.shutdown().await.unwrap();
        drop(first);
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let (status, body) = upload(&server, "policy", b"\0asm".to_vec()).await;
            if status == 400 {
                break;
            }
            assert_eq!(status, 429, "{body}");
            assert!(
                Instant::now() < deadline,
                "the first upload's permit was kept"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        upload_guest(&server, "policy", "pixgate_fixture_renamed").await;
    }
}

/// `n` SHADOW charges of the demo store whose policy, with the misbehaving fixture as a
/// candidate, runs until its fuel is spent: a replay of them takes a while.
async fn charges_that_loop(server: &Server, n: usize) {
    use futures::StreamExt;
    futures::stream::iter(0..n)
        .for_each_concurrent(16, |i| async move {
            let (status, body) = server
                .charge(
                    &server.demo_key,
                    &format!("loop-{i}"),
                    &charge("demo-store", "loop", 10.0),
                )
                .await;
            assert_eq!(status, 200, "{body}");
        })
        .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_second_replay_of_a_store_is_refused_while_one_runs_and_another_store_may_replay() {
    for backend in backends() {
        let server = Server::start_with(backend, &[("PIXGATE_RATE_LIMIT_PER_SECOND", "0")]).await;
        server
            .merchant_with_store("acme", "acme-web", "SHADOW")
            .await;
        charges_that_loop(&server, 400).await;
        let looping = upload_guest(&server, "policy", "pixgate_fixture_misbehave").await;
        let body = json!({"store": "demo-store", "components": {"policy": looping}});
        // A streamed replay has started once its first progress line is out.
        let mut running = server
            .client
            .post(format!("{}/replays", server.admin))
            .bearer_auth(&server.admin_token)
            .header("accept", "application/x-ndjson")
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(running.status(), 200);
        let first = running.chunk().await.unwrap().unwrap();
        assert!(
            String::from_utf8_lossy(&first).contains("\"replayed\":0"),
            "{first:?}"
        );

        // The store's second replay is refused, plain or streamed, with Retry-After.
        for accept in ["application/json", "application/x-ndjson"] {
            let refused = server
                .client
                .post(format!("{}/replays", server.admin))
                .bearer_auth(&server.admin_token)
                .header("accept", accept)
                .json(&body)
                .send()
                .await
                .unwrap();
            assert_eq!(refused.status(), 429, "{accept}");
            let retry: u64 = refused.headers()["retry-after"]
                .to_str()
                .unwrap()
                .parse()
                .unwrap();
            assert!(retry >= 1);
            let refused: Value = refused.json().await.unwrap();
            assert_eq!(refused["error"]["code"], "too_many_replays", "{refused}");
            let message = refused["error"]["message"].as_str().unwrap();
            assert!(message.contains("demo-store"), "{message}");
        }
        // Another store may replay meanwhile (2 in all).
        let (status, other) = server
            .admin_post("/replays", json!({"store": "acme-web", "components": {}}))
            .await;
        assert_eq!(status, 200, "{other}");

        // Once the first has reported, the store replays again.
        let mut rest = Vec::new();
        while let Some(chunk) = running.chunk().await.unwrap() {
            rest.extend_from_slice(&chunk);
        }
        let last: Value =
            serde_json::from_str(String::from_utf8_lossy(&rest).lines().last().unwrap()).unwrap();
        assert_eq!(last["data"]["replayed"], 400, "{last}");
        let (status, again) = server
            .admin_post("/replays", json!({"store": "demo-store", "limit": 1}))
            .await;
        assert_eq!(status, 200, "{again}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn an_upload_over_the_component_store_bound_is_refused_naming_the_versions_to_delete() {
    let size = |guest: &str| {
        std::fs::metadata(pixgate_e2e::guest_wasm(guest))
            .unwrap()
            .len()
    };
    let (a, b) = (
        size("pixgate_fixture_renamed"),
        size("pixgate_fixture_costliest_first"),
    );
    let bound = (a + b - 1).to_string();
    for backend in backends() {
        let server =
            Server::start_with(backend, &[("PIXGATE_COMPONENT_STORE_MAX_BYTES", &bound)]).await;
        let renamed = upload_guest(&server, "policy", "pixgate_fixture_renamed").await;
        let costliest =
            std::fs::read(pixgate_e2e::guest_wasm("pixgate_fixture_costliest_first")).unwrap();

        let (status, full) = upload(&server, "provider", costliest.clone()).await;
        assert_eq!(
            (status, full["error"]["code"].as_str()),
            (507, Some("component_store_full")),
            "{full}"
        );
        let message = full["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("may be deleted: policy/{renamed}")),
            "{message}"
        );
        assert!(
            message.contains("PIXGATE_COMPONENT_STORE_MAX_BYTES"),
            "{message}"
        );

        // In use by a store, it is no longer offered for deletion.
        activate(&server, "demo-store", "policy", &renamed).await;
        let (status, full) = upload(&server, "provider", costliest).await;
        assert_eq!(status, 507, "{full}");
        let message = full["error"]["message"].as_str().unwrap();
        assert!(!message.contains(&renamed), "{message}");
        assert!(
            message.contains("every stored version is in use"),
            "{message}"
        );

        // The same bytes again take no room, and nothing half-written was left.
        let again = upload_guest(&server, "policy", "pixgate_fixture_renamed").await;
        assert_eq!(again, renamed);
        let (_, listed) = server.admin_get("/components/provider").await;
        assert!(
            listed["data"]
                .as_array()
                .unwrap()
                .iter()
                .all(|v| v["source"] == "bundled"),
            "{listed}"
        );
    }
}
