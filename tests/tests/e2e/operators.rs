//! Operators of the admin API (DESIGN.md section 13), on each backend the run covers: every
//! route of the admin document answers each role as the role table says, a revoked token is
//! refused at once, the bootstrap token is the `admin` named `bootstrap`, and the
//! `pixgate admin operators` commands work against a running server.
//!
//! The role table below is the contract, written out; the routes are read from the admin
//! OpenAPI document the server serves, so a new route without a row fails the test.

use std::collections::BTreeMap;

use pixgate_e2e::pixgate;
use pixgate_e2e::server::{Backend, Server, backends};
use reqwest::Method;
use serde_json::{Value, json};

/// The least role of every admin write: `viewer < tester < operator < admin`. Every GET is a
/// `viewer`'s (the contract's rule), so reads need no row.
const ROLE_TABLE: &[(&str, &str)] = &[
    ("POST /merchants", "admin"),
    ("POST /stores", "operator"),
    ("PATCH /stores/{code}", "operator"),
    ("PUT /stores/{code}/gateways", "operator"),
    ("POST /gateways", "operator"),
    ("PATCH /gateways/{alias}", "operator"),
    ("POST /providers", "admin"),
    ("PATCH /providers/{code}", "admin"),
    ("POST /api-keys", "admin"),
    ("POST /api-keys/{keyId}/revoke", "admin"),
    ("POST /merchants/{code}/webhook-endpoints", "admin"),
    (
        "POST /payment-intents/{paymentIntentId}/resolve",
        "operator",
    ),
    ("POST /components/{step}", "operator"),
    ("DELETE /components/{step}/{version}", "operator"),
    ("PATCH /components/{step}/{version}", "operator"),
    ("PUT /stores/{code}/components/{step}", "operator"),
    ("POST /stores/{code}/components/{step}/rollback", "operator"),
    ("PUT /stores/{code}/components/{step}/candidate", "tester"),
    (
        "DELETE /stores/{code}/components/{step}/candidate",
        "tester",
    ),
    ("PUT /stores/{code}/components/{step}/canary", "operator"),
    ("DELETE /stores/{code}/components/{step}/canary", "operator"),
    (
        "POST /stores/{code}/components/{step}/canary/promote",
        "operator",
    ),
    ("PUT /stores/{code}/kill-switch", "operator"),
    ("POST /evaluate", "tester"),
    ("POST /replays", "tester"),
    ("POST /webhook-deliveries/{deliveryId}/resend", "operator"),
    ("POST /reconciliations", "operator"),
    ("POST /operators", "admin"),
    ("POST /operators/{id}/revoke", "admin"),
];

const ROLES: [&str; 4] = ["viewer", "tester", "operator", "admin"];

fn rank(role: &str) -> usize {
    ROLES.iter().position(|r| *r == role).unwrap()
}

/// One admin call with `token`; the status and the JSON body (Null if none).
async fn call(
    server: &Server,
    method: Method,
    path: &str,
    token: &str,
    body: Option<&Value>,
) -> (u16, Value) {
    server.admin_as(token, method, path, body).await
}

/// A new operator of `role`, created with the bootstrap token: its id and token.
async fn operator(server: &Server, name: &str, role: &str) -> (String, String) {
    let (status, body) = server
        .admin_post("/operators", json!({"name": name, "role": role}))
        .await;
    assert_eq!(status, 201, "{body}");
    let data = &body["data"];
    assert_eq!(data["role"], role);
    assert_eq!(data["revokedAt"], Value::Null);
    let token = data["token"].as_str().unwrap().to_owned();
    assert!(token.starts_with("pgo_"), "{token}");
    (data["id"].as_str().unwrap().to_owned(), token)
}

/// `template` with each `{name}` filled from `values`.
fn fill(template: &str, values: &BTreeMap<&str, String>) -> String {
    template
        .split('/')
        .map(
            |segment| match segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                Some(name) => values
                    .get(name)
                    .unwrap_or_else(|| panic!("{template}: no value for {{{name}}}; add one here"))
                    .clone(),
                None => segment.to_owned(),
            },
        )
        .collect::<Vec<_>>()
        .join("/")
}

/// Every operation of the admin document, as `"METHOD /path"`.
async fn admin_operations(server: &Server) -> Vec<String> {
    let doc: Value = server
        .client
        .get(format!("{}/openapi.json", server.admin))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            ops.push(format!("{} {path}", method.to_uppercase()));
        }
    }
    ops
}

#[tokio::test(flavor = "multi_thread")]
async fn every_admin_route_answers_each_role_as_the_role_table_says() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let mut tokens = Vec::new();
        for role in ROLES {
            tokens.push((
                role,
                operator(&server, &format!("{role} of the table"), role)
                    .await
                    .1,
            ));
        }
        let values: BTreeMap<&str, String> = [
            ("code", "demo-store".to_owned()),
            ("step", "policy".to_owned()),
            ("version", "0".repeat(64)),
            ("alias", "sandbox-a-d0".to_owned()),
            ("keyId", uuid::Uuid::new_v4().to_string()),
            ("paymentIntentId", uuid::Uuid::new_v4().to_string()),
            ("mandateId", uuid::Uuid::new_v4().to_string()),
            ("reconciliationId", uuid::Uuid::new_v4().to_string()),
            ("deliveryId", uuid::Uuid::new_v4().to_string()),
            ("id", uuid::Uuid::new_v4().to_string()),
        ]
        .into_iter()
        .collect();
        let table: BTreeMap<&str, &str> = ROLE_TABLE.iter().copied().collect();
        let ops = admin_operations(&server).await;
        assert!(ops.len() >= 35, "{ops:?}");
        for op in &ops {
            let needed = if op.starts_with("GET ") {
                "viewer"
            } else {
                table.get(op.as_str()).copied().unwrap_or_else(|| {
                    panic!("{op} is in the admin document but not in ROLE_TABLE: say which role it needs")
                })
            };
            let (method, template) = op.split_once(' ').unwrap();
            let method: Method = method.parse().unwrap();
            let path = fill(template, &values);
            // An empty body: a refusal of the body (400, 415) shows the role passed.
            let body = (method != Method::GET && method != Method::DELETE).then(|| json!({}));
            for (role, token) in &tokens {
                let what = format!("{backend:?} {role} on {op}");
                let (status, answer) =
                    call(&server, method.clone(), &path, token, body.as_ref()).await;
                if rank(role) < rank(needed) {
                    assert_eq!(status, 403, "{what}: {answer}");
                    assert_eq!(answer["error"]["code"], "role_insufficient", "{what}");
                    let message = answer["error"]["message"].as_str().unwrap();
                    assert!(
                        message.contains(&format!("`{needed}`")),
                        "{what}: {message}"
                    );
                } else {
                    assert!(
                        status != 401 && status != 403 && status < 500,
                        "{what}: {status} {answer}"
                    );
                }
            }
        }
        // Rows for routes the server no longer documents would hide a removed route.
        let stale: Vec<&&str> = table
            .keys()
            .filter(|op| !ops.iter().any(|o| o == *op))
            .collect();
        assert!(stale.is_empty(), "rows for undocumented routes: {stale:?}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_revoked_operator_is_refused_on_its_next_request() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let (id, token) = operator(&server, "Ana", "operator").await;
        let (status, me) = call(&server, Method::GET, "/operators/me", &token, None).await;
        assert_eq!(status, 200, "{me}");
        assert_eq!(
            me["data"],
            json!({"id": id, "name": "Ana", "role": "operator"})
        );

        let (status, revoked) = server
            .admin_post(&format!("/operators/{id}/revoke"), json!({}))
            .await;
        assert_eq!(status, 200, "{revoked}");
        assert!(revoked["data"]["revokedAt"].is_string(), "{revoked}");
        assert!(revoked["data"].get("token").is_none(), "{revoked}");

        let (status, refused) = call(&server, Method::GET, "/operators/me", &token, None).await;
        assert_eq!(status, 401, "{refused}");
        assert_eq!(refused["error"]["code"], "invalid_admin_token");
        // Unknown and malformed tokens answer as today's admin 401s.
        for bad in ["pgo_0123456789ab_not-a-token", "pxa_nope", "x"] {
            let (status, body) = call(&server, Method::GET, "/stores", bad, None).await;
            assert_eq!(
                (status, body["error"]["code"].as_str()),
                (401, Some("invalid_admin_token")),
                "{bad}: {body}"
            );
        }
        // Revoking again answers the same; an unknown id is a 404.
        let (status, _) = server
            .admin_post(&format!("/operators/{id}/revoke"), json!({}))
            .await;
        assert_eq!(status, 200);
        let (status, body) = server
            .admin_post(
                &format!("/operators/{}/revoke", uuid::Uuid::new_v4()),
                json!({}),
            )
            .await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (404, Some("operator_not_found"))
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_bootstrap_token_is_the_admin_named_bootstrap() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let (status, me) = server.admin_get("/operators/me").await;
        assert_eq!(status, 200, "{me}");
        assert_eq!(
            me["data"],
            json!({"id": "bootstrap", "name": "bootstrap admin token", "role": "admin"})
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn operators_are_listed_a_page_at_a_time_and_never_with_their_tokens() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let mut created = Vec::new();
        for name in ["Ana", "Bruno", "Carla"] {
            created.push(operator(&server, name, "viewer").await.0);
        }
        let (status, first) = server.admin_get("/operators?limit=2").await;
        assert_eq!(status, 200, "{first}");
        let ids = |page: &Value| -> Vec<String> {
            page["data"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o["id"].as_str().unwrap().to_owned())
                .collect()
        };
        assert_eq!(ids(&first), created[..2]);
        let (status, second) = server
            .admin_get(&format!("/operators?limit=2&after={}", created[1]))
            .await;
        assert_eq!(status, 200, "{second}");
        assert_eq!(ids(&second), created[2..]);
        assert!(!first.to_string().contains("pgo_"), "{first}");
        assert!(first["data"][0].get("token").is_none(), "{first}");

        // A name is taken while its operator is not revoked.
        let (status, taken) = server
            .admin_post("/operators", json!({"name": "Ana", "role": "admin"}))
            .await;
        assert_eq!(
            (status, taken["error"]["code"].as_str()),
            (409, Some("operator_name_taken")),
            "{taken}"
        );
        let (status, _) = server
            .admin_post(&format!("/operators/{}/revoke", created[0]), json!({}))
            .await;
        assert_eq!(status, 200);
        operator(&server, "Ana", "tester").await;

        // Bad input gets its own code.
        for (body, code) in [
            (json!({"name": "Dora", "role": "root"}), "invalid_role"),
            (json!({"name": " ", "role": "viewer"}), "invalid_name"),
            (json!({"role": "viewer"}), "missing_field"),
            (
                json!({"name": "Dora", "role": "viewer", "token": "x"}),
                "unknown_field",
            ),
        ] {
            let (status, refused) = server.admin_post("/operators", body.clone()).await;
            assert_eq!(
                (status, refused["error"]["code"].as_str()),
                (400, Some(code)),
                "{body}: {refused}"
            );
        }
        for (query, status, code) in [
            ("limit=0", 400, "invalid_limit"),
            ("after=nope", 400, "invalid_after"),
            ("sort=name", 400, "unknown_field"),
        ] {
            let (got, refused) = server.admin_get(&format!("/operators?{query}")).await;
            assert_eq!(
                (got, refused["error"]["code"].as_str()),
                (status, Some(code)),
                "{query}"
            );
        }
        let (status, refused) = server
            .admin_get(&format!("/operators?after={}", uuid::Uuid::new_v4()))
            .await;
        assert_eq!(
            (status, refused["error"]["code"].as_str()),
            (404, Some("operator_not_found"))
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_operators_and_audit_commands_work_against_a_running_server() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let root = server.admin_root();
        let admin = ["--admin-url", &root, "--admin-token", &server.admin_token];
        let run = |args: &[&str]| {
            let all: Vec<&str> = args.iter().chain(admin.iter()).copied().collect();
            let out = pixgate(&all);
            let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
            let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
            (out.status.code(), stdout, stderr)
        };

        let (code, created, stderr) = run(&[
            "admin",
            "operators",
            "create",
            "--name",
            "Ana (ops)",
            "--role",
            "tester",
        ]);
        assert_eq!(code, Some(0), "{created}{stderr}");
        let token = created.lines().last().unwrap().to_owned();
        assert!(token.starts_with("pgo_"), "{created}");
        assert!(
            created.contains("Ana (ops)") && created.contains("tester"),
            "{created}"
        );
        let (status, me) = call(&server, Method::GET, "/operators/me", &token, None).await;
        assert_eq!(
            (status, &me["data"]["role"]),
            (200, &json!("tester")),
            "{me}"
        );

        let (code, listed, stderr) = run(&["admin", "operators", "list", "--json"]);
        assert_eq!(code, Some(0), "{stderr}");
        let listed: Value = serde_json::from_str(&listed).unwrap();
        let id = listed[0]["id"].as_str().unwrap().to_owned();
        assert_eq!(listed[0]["name"], "Ana (ops)");
        assert!(!listed.to_string().contains(&token));

        let (code, text, stderr) = run(&["admin", "operators", "list"]);
        assert_eq!(code, Some(0), "{stderr}");
        assert!(text.contains("ROLE") && text.contains(&id), "{text}");

        let (code, revoked, stderr) = run(&["admin", "operators", "revoke", &id, "--json"]);
        assert_eq!(code, Some(0), "{stderr}");
        let revoked: Value = serde_json::from_str(&revoked).unwrap();
        assert!(revoked["revokedAt"].is_string(), "{revoked}");
        let (status, _) = call(&server, Method::GET, "/operators/me", &token, None).await;
        assert_eq!(status, 401);

        let (code, _, stderr) = run(&[
            "admin",
            "operators",
            "create",
            "--name",
            "x",
            "--role",
            "root",
        ]);
        assert_ne!(code, Some(0));
        assert!(stderr.contains("root"), "{stderr}");

        let (code, trail, stderr) = run(&[
            "admin",
            "audit",
            "list",
            "--operator",
            "bootstrap",
            "--target",
            &format!("operator/{id}"),
            "--json",
        ]);
        assert_eq!(code, Some(0), "{stderr}");
        let trail: Value = serde_json::from_str(&trail).unwrap();
        let actions: Vec<&str> = trail
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["action"].as_str().unwrap())
            .collect();
        assert_eq!(actions, ["operator.revoke", "operator.create"], "{trail}");
        assert!(!trail.to_string().contains(&token), "{trail}");

        let (code, text, stderr) = run(&["admin", "audit", "list", "--action", "operator.create"]);
        assert_eq!(code, Some(0), "{stderr}");
        assert!(
            text.contains("operator.create") && text.contains("bootstrap admin token"),
            "{text}"
        );
        let (code, _, stderr) = run(&["admin", "audit", "list", "--action", "store.explode"]);
        assert_eq!(code, Some(1));
        assert!(stderr.contains("invalid_action"), "{stderr}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn names_that_would_impersonate_another_operator_or_the_bootstrap_token_are_refused() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let (ana, _) = operator(&server, "Ana Silva", "viewer").await;
        for (name, why) in [
            ("", "1 to 120 characters"),
            (&*"x".repeat(121), "1 to 120 characters"),
            ("Ana\u{200B} Silva", "U+200B at position 4"),
            ("\u{202E}avliS anA", "U+202E at position 1"),
            ("Ana Silva\u{E0041}", "U+E0041"),
            ("Ana\nSilva", "U+000A"),
            (" Ana", "start or end with a space"),
            ("Ana\u{3000}", "start or end with a space"),
            ("bootstrap", "reserved"),
            ("Bootstrap  Admin\u{A0}Token", "reserved"),
            ("admin token", "reserved"),
            ("ADMIN", "reserved"),
            ("\u{FF42}ootstrap", "reserved"),
        ] {
            let (status, refused) = server
                .admin_post("/operators", json!({"name": name, "role": "admin"}))
                .await;
            assert_eq!(
                (status, refused["error"]["code"].as_str()),
                (400, Some("invalid_name")),
                "{name:?}: {refused}"
            );
            let message = refused["error"]["message"].as_str().unwrap();
            assert!(message.contains(why), "{name:?}: {message}");
            assert_eq!(refused["error"]["field"], "name");
        }
        // A twin regardless of case, compatibility forms and spacing is taken.
        for twin in ["ANA SILVA", "ana  silva", "\u{FF21}na Silva"] {
            let (status, taken) = server
                .admin_post("/operators", json!({"name": twin, "role": "admin"}))
                .await;
            assert_eq!(
                (status, taken["error"]["code"].as_str()),
                (409, Some("operator_name_taken")),
                "{twin:?}: {taken}"
            );
        }
        // Printable names of any script, up to 120 characters, are names.
        for name in [
            "José Ñandú",
            "李小龙",
            "Ana (payment ops)",
            &"x".repeat(120),
        ] {
            operator(&server, name, "viewer").await;
        }
        // Only the first operator got in under Ana's name, and the trail says who made it.
        let (_, audit) = server
            .admin_get(&format!("/audit-events?target=operator/{ana}"))
            .await;
        assert_eq!(
            audit["data"][0]["operator"],
            json!({"id": "bootstrap", "name": "bootstrap admin token"}),
            "{audit}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn case_twins_from_before_names_were_compared_by_case_keep_working_and_admit_no_third() {
    use pixgate_e2e::server::Options;
    use sqlx::Connection;
    sqlx::any::install_default_drivers();
    for backend in backends() {
        let mut server = Server::start(backend).await;
        let (_, older_token) = operator(&server, "Ana", "viewer").await;
        let (newer, newer_token) = operator(&server, "Bea", "viewer").await;
        assert!(server.terminate().success());
        // As a database from before migration 0014 holds them: no keys, and "ANA" beside "Ana"
        // (names were compared as sent then).
        let url = match backend {
            Backend::Sqlite => format!(
                "sqlite://{}",
                server.data_dir.path().join("pixgate.db").display()
            ),
            Backend::Postgres => server.database_url.clone(),
        };
        let mut conn = sqlx::AnyConnection::connect(&url).await.unwrap();
        sqlx::query("update operators set name_key = null")
            .execute(&mut conn)
            .await
            .unwrap();
        sqlx::query("update operators set name = 'ANA' where id = $1")
            .bind(&newer)
            .execute(&mut conn)
            .await
            .unwrap();
        conn.close().await.unwrap();

        let data_dir = server.kill_hard();
        let server = Server::launch(Options {
            database_url: (!server.database_url.is_empty()).then(|| server.database_url.clone()),
            env: server.env.clone(),
            data_dir: Some(data_dir),
        });
        // Both still work; the newer twin is named in the log; no third twin gets in.
        for token in [&older_token, &newer_token] {
            let (status, me) = call(&server, Method::GET, "/operators/me", token, None).await;
            assert_eq!(status, 200, "{me}");
        }
        assert!(server.logs().contains(&newer), "{}", server.logs());
        let (status, taken) = server
            .admin_post("/operators", json!({"name": "ana", "role": "viewer"}))
            .await;
        assert_eq!(
            (status, taken["error"]["code"].as_str()),
            (409, Some("operator_name_taken")),
            "{taken}"
        );
    }
}
