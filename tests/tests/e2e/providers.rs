//! PSP providers end to end: the admin routes and the `pixgate admin providers` CLI against
//! the real `pixgate serve` on SQLite and PostgreSQL (secrets never answered, never logged,
//! stored sealed), and pixgate's API Pix client against the real `pixgate psp-sim` over https
//! with mTLS (token refresh on a 401, 5xx and timeouts classified, idempotent re-creation).

use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pixgate::psp::charge_kinds::{self, ChargeResource};
use pixgate::psp::client::{
    CallObserver, CallOperation, CallOutcome, CallRecord, Endpoint, ErrorKind, PspArgs, PspClient,
    PspError, Secret, tls,
};
use pixgate_domain::ChargeKind;
use pixgate_e2e::live::Sim;
use pixgate_e2e::pixgate_bin;
use pixgate_e2e::server::{Backend, Server, backends};
use pixgate_pix::apipix::{
    Amount, CalendarioSolicitado, CobSolicitada, CobStatus, CobValor, Txid, txid_for,
};
use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair};
use serde_json::{Value, json};
use sqlx::Connection;

const SECRET: &str = "cs_live_9f8e7d6c5b4a3f2e1d0c";

/// A private CA and a client certificate it issued, as PEM.
struct Pki {
    ca_pem: String,
    cert_pem: String,
    key_pem: String,
    other_key_pem: String,
}

fn pki() -> Pki {
    let ca_key = KeyPair::generate().unwrap();
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(DnType::CommonName, "PSP test CA");
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca, ca_key);
    let key = KeyPair::generate().unwrap();
    let mut leaf = CertificateParams::new(Vec::<String>::new()).unwrap();
    leaf.distinguished_name
        .push(DnType::CommonName, "pixgate mTLS client");
    let cert = leaf.signed_by(&key, &issuer).unwrap();
    Pki {
        ca_pem: ca_cert.pem(),
        cert_pem: cert.pem(),
        key_pem: key.serialize_pem(),
        other_key_pem: KeyPair::generate().unwrap().serialize_pem(),
    }
}

/// The base64 body of a PEM: what must never appear in an answer or a log.
fn pem_body(pem: &str) -> String {
    pem.lines().filter(|l| !l.starts_with("-----")).collect()
}

fn body(code: &str, pki: &Pki) -> Value {
    json!({
        "code": code,
        "name": "  PSP A  ",
        "apiBaseUrl": "https://pix.psp-a.example/api/v2/",
        "clientId": "pixgate-client",
        "clientSecret": SECRET,
        "pixKey": "7d9f0335-8dcc-4054-9bf9-0dbd61d36906",
        "tls": {"caPem": pki.ca_pem, "clientCertPem": pki.cert_pem, "clientKeyPem": pki.key_pem}
    })
}

/// No answer carries a secret: neither the client secret nor the key.
fn assert_no_secret(value: &Value, pki: &Pki) {
    let text = value.to_string();
    assert!(!text.contains(SECRET), "{text}");
    assert!(!text.contains(&pem_body(&pki.key_pem)[..40]), "{text}");
    assert!(!text.contains("PRIVATE KEY"), "{text}");
    assert!(!text.contains("clientSecret\""), "{text}");
}

/// The sealed columns as stored.
async fn stored_secrets(server: &Server, code: &str) -> (String, String) {
    sqlx::any::install_default_drivers();
    let url = if server.database_url.is_empty() {
        format!(
            "sqlite://{}",
            server.data_dir.path().join("pixgate.db").display()
        )
    } else {
        server.database_url.clone()
    };
    let mut conn = sqlx::AnyConnection::connect(&url).await.unwrap();
    sqlx::query_as(
        "select client_secret_sealed, coalesce(client_key_sealed, '') from providers where code = $1",
    )
    .bind(code)
    .fetch_one(&mut conn)
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn providers_are_created_listed_read_and_changed_without_showing_secrets() {
    let pki = pki();
    for backend in backends() {
        let server = Server::start(backend).await;
        let (status, created) = server.admin_post("/providers", body("psp-a", &pki)).await;
        assert_eq!(status, 201, "{created}");
        let p = &created["data"];
        assert_eq!(p["code"], "psp-a");
        assert_eq!(p["name"], "PSP A");
        assert_eq!(p["apiBaseUrl"], "https://pix.psp-a.example/api/v2");
        assert_eq!(
            p["tokenUrl"],
            "https://pix.psp-a.example/api/v2/oauth/token"
        );
        assert_eq!(p["hasClientSecret"], true);
        assert_eq!(p["active"], true);
        assert_eq!(p["tls"]["hasClientKey"], true);
        assert_eq!(p["tls"]["caCertificates"][0]["subject"], "CN=PSP test CA");
        assert_eq!(
            p["tls"]["clientCertificate"]["subject"],
            "CN=pixgate mTLS client"
        );
        assert_eq!(p["tls"]["clientCertificate"]["issuer"], "CN=PSP test CA");
        assert!(p["tls"]["clientCertificate"]["notAfter"].is_string());
        assert_no_secret(&created, &pki);

        // Stored sealed.
        let (secret, key) = stored_secrets(&server, "psp-a").await;
        assert!(!secret.contains(SECRET) && !secret.is_empty());
        assert!(!key.contains("PRIVATE") && !key.is_empty());

        // A gateway names its provider; the provider lists it.
        let (status, b) = server
            .admin_post(
                "/gateways",
                json!({"providerCode": "psp-a", "gatewayAlias": "psp-a-d0", "releaseClass": "D0",
                       "feeTerms": {"mdrBps": 99}}),
            )
            .await;
        assert_eq!(status, 201, "{b}");
        let (status, read) = server.admin_get("/providers/psp-a").await;
        assert_eq!(status, 200, "{read}");
        assert_eq!(read["data"]["gateways"], json!(["psp-a-d0"]));
        assert_no_secret(&read, &pki);

        let (status, _) = server.admin_post("/providers", body("psp-b", &pki)).await;
        assert_eq!(status, 201);
        let (status, list) = server.admin_get("/providers").await;
        assert_eq!(status, 200);
        let codes: Vec<&str> = list["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["code"].as_str().unwrap())
            .collect();
        assert_eq!(codes, ["psp-a", "psp-b"]);
        assert_no_secret(&list, &pki);

        // Changes: the token URL, a new secret, off, and the TLS material removed.
        let (status, patched) = server
            .admin_patch(
                "/providers/psp-a",
                json!({"name": "PSP A (prod)", "tokenUrl": "https://auth.psp-a.example/oauth/token",
                       "clientSecret": "rotated-secret-value", "active": false, "tls": {}}),
            )
            .await;
        assert_eq!(status, 200, "{patched}");
        let p = &patched["data"];
        assert_eq!(p["name"], "PSP A (prod)");
        assert_eq!(p["tokenUrl"], "https://auth.psp-a.example/oauth/token");
        assert_eq!(p["active"], false);
        assert_eq!(p["tls"]["hasClientKey"], false);
        assert_eq!(p["tls"]["caCertificates"], json!([]));
        assert!(p["tls"]["clientCertificate"].is_null());
        assert!(!patched.to_string().contains("rotated-secret-value"));
        let (rotated, key) = stored_secrets(&server, "psp-a").await;
        assert_ne!(rotated, secret);
        assert!(key.is_empty());
        // The base URL changes; a token URL set explicitly stays.
        let (status, patched) = server
            .admin_patch(
                "/providers/psp-b",
                json!({"apiBaseUrl": "http://127.0.0.1:9443/api/v2"}),
            )
            .await;
        assert_eq!(status, 200, "{patched}");
        assert_eq!(
            patched["data"]["tokenUrl"],
            "http://127.0.0.1:9443/api/v2/oauth/token"
        );

        // Unknown and taken codes.
        let (status, b) = server.admin_get("/providers/nope").await;
        assert_eq!(
            (status, b["error"]["code"].as_str()),
            (404, Some("provider_not_found"))
        );
        let (status, b) = server
            .admin_patch("/providers/nope", json!({"active": true}))
            .await;
        assert_eq!(
            (status, b["error"]["code"].as_str()),
            (404, Some("provider_not_found"))
        );
        let (status, b) = server.admin_get("/providers/a%20b").await;
        assert_eq!(status, 404, "{b}");
        let (status, b) = server.admin_post("/providers", body("psp-a", &pki)).await;
        assert_eq!(
            (status, b["error"]["code"].as_str()),
            (409, Some("provider_code_taken"))
        );

        // Nothing secret reached the log.
        let logs = server.logs();
        for secret in [
            SECRET,
            "rotated-secret-value",
            &pem_body(&pki.key_pem)[..40],
        ] {
            assert!(!logs.contains(secret), "{secret} in the log:\n{logs}");
        }
    }
}

/// The `account` column as stored.
async fn stored_account(server: &Server, code: &str) -> Option<String> {
    sqlx::any::install_default_drivers();
    let url = if server.database_url.is_empty() {
        format!(
            "sqlite://{}",
            server.data_dir.path().join("pixgate.db").display()
        )
    } else {
        server.database_url.clone()
    };
    let mut conn = sqlx::AnyConnection::connect(&url).await.unwrap();
    sqlx::query_scalar("select account from providers where code = $1")
        .bind(code)
        .fetch_one(&mut conn)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_provider_takes_mandates_with_its_receiving_account() {
    let pki = pki();
    for backend in backends() {
        let server = Server::start(backend).await;
        // Without an account: null, the provider takes no mandates.
        let (status, plain) = server.admin_post("/providers", body("psp-a", &pki)).await;
        assert_eq!(status, 201, "{plain}");
        assert!(plain["data"]["account"].is_null(), "{plain}");
        assert_eq!(stored_account(&server, "psp-a").await, None);
        let mut with_account = body("psp-m", &pki);
        with_account["account"] =
            json!({"branch": "0001", "number": "1234567-8", "type": "CORRENTE"});
        let (status, created) = server.admin_post("/providers", with_account).await;
        assert_eq!(status, 201, "{created}");
        // Stored and shown as digits only: API Pix `conta`.
        let account = json!({"branch": "0001", "number": "12345678", "type": "CORRENTE"});
        assert_eq!(created["data"]["account"], account);
        let stored: Value =
            serde_json::from_str(&stored_account(&server, "psp-m").await.unwrap()).unwrap();
        assert_eq!(stored, account);
        let (_, read) = server.admin_get("/providers/psp-m").await;
        assert_eq!(read["data"]["account"], account);
        let (_, list) = server.admin_get("/providers").await;
        let accounts: Vec<&Value> = list["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| &p["account"])
            .collect();
        assert_eq!(accounts, [&Value::Null, &account]);

        // PATCH: set, kept when absent or null, replaced, removed with `{}`.
        let (status, patched) = server
            .admin_patch(
                "/providers/psp-a",
                json!({"account": {"branch": "12", "number": "98765", "type": "PAGAMENTO"}}),
            )
            .await;
        assert_eq!(status, 200, "{patched}");
        assert_eq!(
            patched["data"]["account"],
            json!({"branch": "12", "number": "98765", "type": "PAGAMENTO"})
        );
        for keep in [json!({"name": "PSP A2"}), json!({"account": null})] {
            let (status, patched) = server.admin_patch("/providers/psp-a", keep).await;
            assert_eq!(status, 200, "{patched}");
            assert_eq!(patched["data"]["account"]["type"], "PAGAMENTO");
        }
        let (status, patched) = server
            .admin_patch(
                "/providers/psp-m",
                json!({"account": {"branch": "0001", "number": "555-0", "type": "POUPANCA"}}),
            )
            .await;
        assert_eq!(status, 200, "{patched}");
        assert_eq!(
            patched["data"]["account"],
            json!({"branch": "0001", "number": "5550", "type": "POUPANCA"})
        );
        let (status, patched) = server
            .admin_patch("/providers/psp-m", json!({"account": {}}))
            .await;
        assert_eq!(status, 200, "{patched}");
        assert!(patched["data"]["account"].is_null(), "{patched}");
        assert_eq!(stored_account(&server, "psp-m").await, None);

        // The audit trail's snapshots show it (not a secret).
        let (status, audit) = server.admin_get("/audit-events?limit=100").await;
        assert_eq!(status, 200, "{audit}");
        assert!(audit.to_string().contains("\"POUPANCA\""), "{audit}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_provider_input_is_refused_with_its_code_and_field() {
    let pki = pki();
    let server = Server::start(Backend::Sqlite).await;
    let with = |pointer: &str, value: Value| {
        let mut b = body("psp-x", &pki);
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        let target = if parent.is_empty() {
            &mut b
        } else {
            b.pointer_mut(parent).unwrap()
        };
        if value.is_null() {
            target.as_object_mut().unwrap().remove(key);
        } else {
            target[key] = value;
        }
        b
    };
    for (b, status, code, field) in [
        (with("/code", json!("a b")), 400, "invalid_code", "code"),
        (with("/name", json!(" ")), 400, "invalid_name", "name"),
        (
            with("/apiBaseUrl", json!("http://pix.psp-a.example")),
            400,
            "url_not_https",
            "apiBaseUrl",
        ),
        (
            with("/apiBaseUrl", json!("pix.psp-a.example")),
            400,
            "invalid_url",
            "apiBaseUrl",
        ),
        (
            with("/tokenUrl", json!("https://u:p@auth.example/token")),
            400,
            "invalid_url",
            "tokenUrl",
        ),
        (
            with("/clientId", json!("")),
            400,
            "invalid_client_id",
            "clientId",
        ),
        // NUL is refused in every string of every body, before the field's own rules.
        (
            with("/clientSecret", json!("a\u{0}b")),
            400,
            "invalid_field",
            "clientSecret",
        ),
        (
            with("/clientSecret", Value::Null),
            400,
            "missing_field",
            "clientSecret",
        ),
        (
            with("/pixKey", json!("529.982.247-25")),
            400,
            "invalid_pix_key",
            "pixKey",
        ),
        (
            with("/tls/caPem", json!("not a pem")),
            400,
            "invalid_ca_pem",
            "tls.caPem",
        ),
        (
            with(
                "/tls/clientCertPem",
                json!(
                    pki.ca_pem
                        .replace("CERTIFICATE-----\n", "CERTIFICATE-----\n!")
                ),
            ),
            400,
            "invalid_client_cert_pem",
            "tls.clientCertPem",
        ),
        (
            with(
                "/tls/clientKeyPem",
                json!("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"),
            ),
            400,
            "invalid_client_key_pem",
            "tls.clientKeyPem",
        ),
        (
            with("/tls/clientKeyPem", json!(pki.other_key_pem)),
            422,
            "client_key_mismatch",
            "tls.clientKeyPem",
        ),
        (
            with("/tls/clientKeyPem", Value::Null),
            422,
            "incomplete_client_identity",
            "tls.clientKeyPem",
        ),
        (
            with("/tls/extra", json!(1)),
            400,
            "unknown_field",
            "tls.extra",
        ),
        (with("/active", json!(true)), 400, "unknown_field", "active"),
        // The receiving account: each rule names its field.
        (
            with(
                "/account",
                json!({"branch": "12345", "number": "1234567-8", "type": "CORRENTE"}),
            ),
            400,
            "invalid_account",
            "account.branch",
        ),
        (
            with(
                "/account",
                json!({"branch": "0001", "number": "1234-56", "type": "CORRENTE"}),
            ),
            400,
            "invalid_account",
            "account.number",
        ),
        (
            with(
                "/account",
                json!({"branch": "0001", "number": "1234567-X", "type": "CORRENTE"}),
            ),
            400,
            "invalid_account",
            "account.number",
        ),
        (
            with(
                "/account",
                json!({"branch": "0001", "number": "123456789012345678901", "type": "CORRENTE"}),
            ),
            400,
            "invalid_account",
            "account.number",
        ),
        (
            with(
                "/account",
                json!({"branch": "0001", "number": "12345678", "type": "SALARIO"}),
            ),
            400,
            "invalid_account",
            "account.type",
        ),
        (
            with(
                "/account",
                json!({"branch": 1, "number": "12345678", "type": "CORRENTE"}),
            ),
            400,
            "invalid_account",
            "account.branch",
        ),
        (
            with("/account", json!("0001/1234")),
            400,
            "invalid_account",
            "account",
        ),
        (
            with("/account", json!({"branch": "0001", "type": "CORRENTE"})),
            400,
            "missing_field",
            "account.number",
        ),
        (
            with(
                "/account",
                json!({"branch": "0001", "number": "1", "type": "CORRENTE", "ispb": "1"}),
            ),
            400,
            "unknown_field",
            "account.ispb",
        ),
    ] {
        let (s, answer) = server.admin_post("/providers", b).await;
        assert_eq!(
            (
                s,
                answer["error"]["code"].as_str(),
                answer["error"]["field"].as_str()
            ),
            (status, Some(code), Some(field)),
            "{answer}"
        );
        assert!(answer["error"]["requestId"].is_string());
        assert!(!answer.to_string().contains(SECRET));
    }
    let (s, _) = server.admin_post("/providers", body("psp-x", &pki)).await;
    assert_eq!(s, 201);
    let (s, b) = server
        .admin_patch("/providers/psp-x", json!({"pixKey": "nope"}))
        .await;
    assert_eq!(
        (s, b["error"]["code"].as_str()),
        (400, Some("invalid_pix_key"))
    );
    let (s, b) = server
        .admin_patch(
            "/providers/psp-x",
            json!({"tls": {"clientCertPem": pki.cert_pem}}),
        )
        .await;
    assert_eq!(
        (s, b["error"]["code"].as_str()),
        (422, Some("incomplete_client_identity"))
    );
    for (patch, code, field) in [
        (json!({"branch": "0001"}), "missing_field", "account.number"),
        // Null is a field missing, not `{}`: it removes nothing.
        (
            json!({"branch": null, "number": null, "type": null}),
            "missing_field",
            "account.branch",
        ),
        (
            json!({"branch": null, "number": "1", "type": "CORRENTE"}),
            "missing_field",
            "account.branch",
        ),
        (
            json!({"branch": "0001", "number": "1", "type": "corrente"}),
            "invalid_account",
            "account.type",
        ),
        (
            json!({"branch": "0001", "number": "00-00", "type": "CORRENTE"}),
            "invalid_account",
            "account.number",
        ),
    ] {
        let (s, b) = server
            .admin_patch("/providers/psp-x", json!({ "account": patch }))
            .await;
        assert_eq!(
            (s, b["error"]["code"].as_str(), b["error"]["field"].as_str()),
            (400, Some(code), Some(field)),
            "{patch}: {b}"
        );
    }
    let logs = server.logs();
    assert!(!logs.contains(SECRET) && !logs.contains(&pem_body(&pki.key_pem)[..40]));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_cli_manages_providers_with_secrets_from_files() {
    let pki = pki();
    let server = Server::start(Backend::Sqlite).await;
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let secret = file("secret", &format!("{SECRET}\n"));
    let cert = file("client.pem", &pki.cert_pem);
    let key = file("client-key.pem", &pki.key_pem);
    let cli = |args: &[&str]| {
        Command::new(pixgate_bin())
            .args(["admin", "providers"])
            .args(args)
            .args(["--admin-url", &server.admin_root()])
            .env_clear()
            .env("PIXGATE_ADMIN_TOKEN", &server.admin_token)
            .output()
            .unwrap()
    };
    let out = cli(&[
        "create",
        "--code",
        "psp-cli",
        "--name",
        "PSP via CLI",
        "--api-base-url",
        "http://127.0.0.1:9/api/v2",
        "--client-id",
        "pixgate",
        "--client-secret-file",
        &secret,
        "--pix-key",
        "+5511987654321",
        "--client-cert",
        &cert,
        "--client-key",
        &key,
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let created: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(created["tls"]["hasClientKey"], true);
    let out = cli(&["list"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("psp-cli") && text.contains("PSP via CLI"),
        "{text}"
    );
    assert!(created["account"].is_null(), "{created}");
    let out = cli(&["update", "psp-cli", "--active", "false", "--clear-tls"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = cli(&["show", "psp-cli"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("active") && text.contains("no"), "{text}");
    assert!(text.contains("takes no mandates"), "{text}");
    assert!(!text.contains(SECRET));

    // The receiving account: all three options, set on create or update, removed.
    let out = cli(&[
        "create",
        "--code",
        "psp-rec",
        "--name",
        "PSP with mandates",
        "--api-base-url",
        "http://127.0.0.1:9/api/v2",
        "--client-id",
        "pixgate",
        "--client-secret-file",
        &secret,
        "--pix-key",
        "+5511987654321",
        "--account-branch",
        "0001",
        "--account-number",
        "1234567-8",
        "--account-type",
        "CORRENTE",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let created: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        created["account"],
        json!({"branch": "0001", "number": "12345678", "type": "CORRENTE"})
    );
    let out = cli(&["show", "psp-rec"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("CORRENTE branch 0001 number 12345678"),
        "{text}"
    );
    let out = cli(&[
        "update",
        "psp-cli",
        "--account-branch",
        "12",
        "--account-number",
        "99",
        "--account-type",
        "PAGAMENTO",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let updated: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(updated["account"]["type"], "PAGAMENTO");
    let out = cli(&["update", "psp-rec", "--clear-account", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let updated: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(updated["account"].is_null(), "{updated}");
    // One option without the other two, or an unknown type: refused by the command line
    // (exit status 2) before anything is sent.
    for args in [
        &["update", "psp-rec", "--account-branch", "0001"][..],
        &[
            "update",
            "psp-rec",
            "--account-branch",
            "0001",
            "--account-number",
            "1",
            "--account-type",
            "SALARIO",
        ][..],
        &[
            "update",
            "psp-rec",
            "--clear-account",
            "--account-type",
            "CORRENTE",
        ][..],
    ] {
        let out = cli(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    // A rule the API checks: its error, exit status 1.
    let out = cli(&[
        "update",
        "psp-rec",
        "--account-branch",
        "12345",
        "--account-number",
        "1",
        "--account-type",
        "CORRENTE",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid_account"));
    let help = Command::new(pixgate_bin())
        .args(["admin", "providers", "create", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    for option in ["--account-branch", "--account-number", "--account-type"] {
        assert!(help.contains(option), "{help}");
    }
    // A refusal is the API's error, exit status 1.
    let out = cli(&["show", "nope"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("provider_not_found"));
    // No secret file and no variable: refused before anything is sent.
    let out = cli(&[
        "create",
        "--code",
        "x",
        "--name",
        "x",
        "--api-base-url",
        "https://x.example",
        "--client-id",
        "x",
        "--pix-key",
        "+5511987654321",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing_client_secret"));
    assert!(!server.logs().contains(SECRET));
}

// ---- the client against pixgate psp-sim ----

/// pixgate's client for the simulator; `mtls` presents the generated client certificate.
fn psp_client(
    sim: &Sim,
    mtls: bool,
    trust_ca: bool,
    timeout: Duration,
) -> (PspClient, Arc<Recorder>) {
    let identity = mtls.then(|| {
        (
            tls::certificates(&sim.pem("client.pem")).unwrap(),
            tls::private_key(&sim.pem("client-key.pem")).unwrap(),
        )
    });
    let ca = if trust_ca {
        tls::certificates(&sim.pem("ca.pem")).unwrap()
    } else {
        Vec::new()
    };
    let recorder = Arc::new(Recorder::default());
    let client = PspClient::new(
        Endpoint {
            provider: "sim".into(),
            api_base: format!("{}/api/v2", sim.origin).parse().unwrap(),
            token_url: format!("{}/oauth/token", sim.origin).parse().unwrap(),
            client_id: "psp-sim-client".into(),
            client_secret: Secret::new("psp-sim-secret".into()),
            pix_key: "sim-key".into(),
            ca,
            identity,
        },
        &PspArgs {
            connect_timeout: Duration::from_secs(5),
            timeout,
        },
        recorder.clone(),
    )
    .unwrap();
    (client, recorder)
}

/// A control route that must succeed; its answer.
async fn control(sim: &Sim, method: reqwest::Method, path: &str, body: Value) -> Value {
    let (status, answer) = sim.control(method, path, body).await;
    assert!(status < 300, "{path}: {status} {answer}");
    answer
}

#[derive(Default)]
struct Recorder(Mutex<Vec<(CallOperation, CallOutcome)>>);

impl CallObserver for Recorder {
    fn observe(&self, record: &CallRecord<'_>) {
        self.0
            .lock()
            .unwrap()
            .push((record.operation, record.outcome));
    }
}

/// The immediate charge's resource: what these calls create and read.
fn immediate() -> &'static dyn ChargeResource {
    charge_kinds::resource(ChargeKind::Immediate).unwrap()
}

fn cob(centavos: u64) -> Value {
    serde_json::to_value(cob_wire(centavos)).unwrap()
}

fn cob_wire(centavos: u64) -> CobSolicitada {
    CobSolicitada {
        calendario: CalendarioSolicitado { expiracao: 3600 },
        devedor: None,
        valor: CobValor {
            original: Amount::from_centavos(centavos).unwrap(),
            modalidade_alteracao: None,
        },
        chave: "7d9f0335-8dcc-4054-9bf9-0dbd61d36906".into(),
        solicitacao_pagador: Some("Pedido 10042".into()),
        info_adicionais: Vec::new(),
    }
}

fn txid(key: &str) -> Txid {
    Txid::parse(&txid_for("store-1", key)).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_client_creates_reads_and_registers_over_mtls() {
    let sim = Sim::start(&[]);
    let (client, recorder) = psp_client(&sim, true, true, Duration::from_secs(10));
    let t = txid("order-1");
    let created = client
        .put_charge(immediate(), &t, &cob(12_990))
        .await
        .unwrap();
    assert_eq!(created.txid, t);
    assert_eq!(created.status, CobStatus::Ativa);
    assert!(created.pix_copia_e_cola.is_some());
    // The same PUT again names the same charge.
    client
        .put_charge(immediate(), &t, &cob(12_990))
        .await
        .unwrap();
    control(
        &sim,
        reqwest::Method::POST,
        &format!("/cob/{t}/pay"),
        json!({}),
    )
    .await;
    let read = client.get_charge(immediate(), &t).await.unwrap();
    assert_eq!(read.status, CobStatus::Concluida);
    assert_eq!(read.pix[0].valor.centavos(), 12_990);
    client
        .put_webhook(
            "7d9f0335-8dcc-4054-9bf9-0dbd61d36906",
            "http://127.0.0.1:9/psp/sim/callback-token",
        )
        .await
        .unwrap();
    // A definitive refusal: the standard forbids a zero amount.
    let e = client
        .put_charge(immediate(), &txid("zero"), &cob(0))
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Definitive, "{e}");
    assert!(e.to_string().contains("CobOperacaoInvalida"), "{e}");
    let stats = sim.stats().await;
    assert_eq!(stats["tokensIssued"], 1);
    assert_eq!(stats["cobsCreated"], 1);
    let calls = recorder.0.lock().unwrap().clone();
    assert_eq!(calls[0], (CallOperation::Token, CallOutcome::Success));
    assert_eq!(
        calls.last(),
        Some(&(CallOperation::PutCob, CallOutcome::Refused))
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn without_the_ca_or_the_client_certificate_there_is_no_connection() {
    let sim = Sim::start(&[]);
    let (untrusting, _) = psp_client(&sim, true, false, Duration::from_secs(5));
    let e = untrusting
        .get_charge(immediate(), &txid("a"))
        .await
        .unwrap_err();
    assert!(
        matches!(
            e,
            PspError::Connect {
                operation: CallOperation::Token,
                ..
            }
        ),
        "{e:?}"
    );
    let (anonymous, _) = psp_client(&sim, false, true, Duration::from_secs(5));
    let e = anonymous
        .get_charge(immediate(), &txid("a"))
        .await
        .unwrap_err();
    // TLS 1.3 reports a refused client certificate after the handshake: either way the
    // call never reached the API, and nothing is classified as the PSP's refusal.
    assert_ne!(e.kind(), ErrorKind::Definitive, "{e:?}");
    assert_eq!(sim.stats().await["tokensIssued"], 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_expired_token_is_replaced_once_and_the_call_retried() {
    let sim = Sim::start(&[]);
    let (client, recorder) = psp_client(&sim, true, true, Duration::from_secs(10));
    client
        .put_charge(immediate(), &txid("t1"), &cob(100))
        .await
        .unwrap();
    control(&sim, reqwest::Method::POST, "/tokens/expire", Value::Null).await;
    client.get_charge(immediate(), &txid("t1")).await.unwrap();
    let stats = sim.stats().await;
    assert_eq!(stats["tokensIssued"], 2);
    assert_eq!(stats["rejectedTokens"], 1);
    let calls = recorder.0.lock().unwrap().clone();
    assert_eq!(
        calls[2..],
        [
            (CallOperation::GetCob, CallOutcome::Unauthorized),
            (CallOperation::Token, CallOutcome::Success),
            (CallOperation::GetCob, CallOutcome::Success),
        ]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn failures_are_transient_and_a_retried_put_makes_one_charge() {
    let sim = Sim::start(&[]);
    let (client, _) = psp_client(&sim, true, true, Duration::from_millis(1500));
    client
        .get_charge(immediate(), &txid("warm"))
        .await
        .unwrap_err(); // a token; 404 for the unknown txid

    // A 503 after the PSP created the charge: the answer is lost, the charge is not.
    control(
        &sim,
        reqwest::Method::POST,
        "/faults",
        json!({"count": 1, "kind": "error", "status": 503, "afterProcessing": true,
               "route": "PUT /cob/{txid}"}),
    )
    .await;
    let t = txid("lost-answer");
    let e = client
        .put_charge(immediate(), &t, &cob(5_000))
        .await
        .unwrap_err();
    assert!(
        matches!(e, PspError::Unavailable { status: 503, .. }),
        "{e:?}"
    );
    assert_eq!(e.kind(), ErrorKind::Transient);
    client
        .put_charge(immediate(), &t, &cob(5_000))
        .await
        .unwrap();
    assert_eq!(
        sim.stats().await["cobsCreated"],
        1,
        "one charge for one txid"
    );

    // 500 and a hang past the client's timeout.
    control(
        &sim,
        reqwest::Method::POST,
        "/faults",
        json!({"count": 1, "kind": "error", "status": 500}),
    )
    .await;
    let e = client.get_charge(immediate(), &t).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Transient, "{e:?}");
    control(
        &sim,
        reqwest::Method::POST,
        "/faults",
        json!({"count": 1, "kind": "hang", "hangMs": 5000}),
    )
    .await;
    let e = client.get_charge(immediate(), &t).await.unwrap_err();
    assert!(matches!(e, PspError::Timeout { .. }), "{e:?}");
    assert_eq!(e.kind(), ErrorKind::Transient);
    // And it recovers.
    assert_eq!(
        client.get_charge(immediate(), &t).await.unwrap().status,
        CobStatus::Ativa
    );
}

// ---- Pix Automático callbacks ----

/// `GET {path}` of the simulator's API Pix with a fresh token: the status and the answer.
async fn sim_api_get(sim: &Sim, path: &str) -> (u16, Value) {
    let client = pixgate_e2e::live::sim_client(sim.certs.path(), true, Duration::from_secs(10));
    let token: Value = client
        .post(format!("{}/oauth/token", sim.origin))
        .basic_auth("psp-sim-client", Some("psp-sim-secret"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("grant_type=client_credentials")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let r = client
        .get(format!("{}/api/v2{path}", sim.origin))
        .bearer_auth(token["access_token"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

/// The URL registered at `path` (`/webhook/{chave}`, `/webhookrec`, `/webhookcobr`), once the
/// registration in the background has made it; `None` if none within a few seconds.
async fn registered(sim: &Sim, path: &str) -> Option<String> {
    for _ in 0..100 {
        let (status, hook) = sim_api_get(sim, path).await;
        if status == 200 {
            return hook["webhookUrl"].as_str().map(str::to_owned);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    None
}

#[tokio::test(flavor = "multi_thread")]
async fn a_provider_that_takes_mandates_registers_its_recurrence_callbacks() {
    let server = Server::start(Backend::Sqlite).await;
    let key = "mandates@pixgate.test";

    // With an account: the pix, recurrence and recurring charge callbacks, one URL.
    let sim = Sim::start(&[]);
    let mut body = sim.provider("psp-rec", key);
    body["account"] = json!({"branch": "0001", "number": "12345678", "type": "CORRENTE"});
    let (status, created) = server.admin_post("/providers", body).await;
    assert_eq!(status, 201, "{created}");
    let pix = registered(&sim, &format!("/webhook/{key}"))
        .await
        .expect("the pix callback");
    assert!(pix.contains("/psp-callbacks/psp-rec/"), "{pix}");
    assert_eq!(
        registered(&sim, "/webhookrec").await.as_deref(),
        Some(&*pix)
    );
    assert_eq!(
        registered(&sim, "/webhookcobr").await.as_deref(),
        Some(&*pix)
    );

    // Without one: the pix callback only.
    let plain = Sim::start(&[]);
    let (status, created) = server
        .admin_post("/providers", plain.provider("psp-plain", key))
        .await;
    assert_eq!(status, 201, "{created}");
    assert!(
        registered(&plain, &format!("/webhook/{key}"))
            .await
            .is_some()
    );
    assert_eq!(sim_api_get(&plain, "/webhookrec").await.0, 404);
    assert_eq!(sim_api_get(&plain, "/webhookcobr").await.0, 404);

    // An account given later registers them then.
    let (status, patched) = server
        .admin_patch(
            "/providers/psp-plain",
            json!({"account": {"branch": "1", "number": "2-3", "type": "PAGAMENTO"}}),
        )
        .await;
    assert_eq!(status, 200, "{patched}");
    assert!(registered(&plain, "/webhookcobr").await.is_some());

    // A PSP refusing one of them: logged with the provider's name; the others registered.
    let refusing = Sim::start(&[]);
    control(
        &refusing,
        reqwest::Method::POST,
        "/faults",
        json!({"count": 1, "kind": "error", "status": 503, "route": "PUT /webhookrec"}),
    )
    .await;
    let mut body = refusing.provider("psp-refusing", key);
    body["account"] = json!({"branch": "0001", "number": "1", "type": "POUPANCA"});
    let (status, created) = server.admin_post("/providers", body).await;
    assert_eq!(status, 201, "{created}");
    assert!(
        registered(&refusing, &format!("/webhook/{key}"))
            .await
            .is_some()
    );
    assert!(registered(&refusing, "/webhookcobr").await.is_some());
    assert_eq!(sim_api_get(&refusing, "/webhookrec").await.0, 404);
    let mut logged = false;
    for _ in 0..50 {
        logged = server
            .logs()
            .lines()
            .any(|l| l.contains("psp-refusing") && l.contains("webhookrec") && l.contains("WARN"));
        if logged {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(logged, "{}", server.logs());
}
