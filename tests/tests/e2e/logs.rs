//! Logs for machines and people: no colour escapes when standard error is not a terminal,
//! one JSON object per line with `PIXGATE_LOG_FORMAT=json`, and a refused format named.

use pixgate_e2e::serve_refusing;
use pixgate_e2e::server::{Backend, Server, charge_body};
use serde_json::Value;

/// Makes the server log: a charge (its span and the shadow worker) and a refused admin call.
async fn some_traffic(server: &Server) {
    let (status, _) = server
        .charge(&server.demo_key, "logs-1", &charge_body("demo-store"))
        .await;
    assert_eq!(status, 200);
    let refused = server
        .client
        .get(format!("{}/stores", server.admin))
        .bearer_auth("pxa_wrong")
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 401);
}

#[tokio::test(flavor = "multi_thread")]
async fn logs_written_to_a_pipe_carry_no_colour_escapes() {
    let server = Server::start(Backend::Sqlite).await;
    some_traffic(&server).await;
    let logs = server.logs();
    assert!(logs.contains("INFO"), "nothing logged:\n{logs}");
    assert!(
        !logs.contains('\u{1b}'),
        "colour escapes in a pipe:\n{logs:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn json_logs_are_one_object_per_line_without_secrets() {
    let server = Server::start_with(Backend::Sqlite, &[("PIXGATE_LOG_FORMAT", "json")]).await;
    some_traffic(&server).await;
    let logs = server.logs();
    let lines: Vec<&str> = logs.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(lines.len() >= 2, "too few lines:\n{logs}");
    for line in &lines {
        let object: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("not a JSON object ({e}): {line}"));
        assert!(object["timestamp"].is_string(), "{line}");
        assert!(
            ["TRACE", "DEBUG", "INFO", "WARN", "ERROR"]
                .contains(&object["level"].as_str().unwrap()),
            "{line}"
        );
        assert!(object["target"].is_string(), "{line}");
    }
    assert!(!logs.contains('\u{1b}'));
    assert!(!logs.contains(&server.admin_token) && !logs.contains(&server.demo_key));
    assert!(!logs.contains("ana.souza@example.com") && !logs.contains("529.982.247-25"));
}

#[test]
fn an_unknown_log_format_is_refused_by_name() {
    let (status, stderr) = serve_refusing(&[("PIXGATE_LOG_FORMAT", "xml")]);
    assert!(!status.success());
    assert!(
        stderr.contains("xml") && stderr.contains("json") && stderr.contains("text"),
        "{stderr}"
    );
}
