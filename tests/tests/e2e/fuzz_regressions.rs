//! What the fuzzers (fuzz/, issue 11) found, as tests through the same functions, and a check
//! that their committed seeds stay valid inputs of the code they seed.

use pixgate_domain::TaxId;
use pixgate_domain::charge::CreatePaymentRequest;
use pixgate_domain::evaluate::EvaluateRequest;
use pixgate_e2e::repo_file;
use pixgate_e2e::server::{Server, backends};
use pixgate_pix::brcode;
use serde_json::Value;

/// The committed seeds of a fuzz target: (file name, bytes).
fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = repo_file(&format!("fuzz/corpus/{target}"));
    let mut out: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no seeds in {}", dir.display());
    out
}

#[test]
fn the_brcode_seeds_are_codes_pixgate_reads_and_builds() {
    for (name, bytes) in seeds("brcode") {
        let (mode, rest) = bytes.split_first().unwrap();
        let text = std::str::from_utf8(rest).unwrap();
        if mode & 1 == 0 {
            brcode::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        } else {
            let parts: Vec<&str> = text.splitn(3, '\0').collect();
            brcode::dynamic(parts[0], parts[1], parts[2]).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
    // The seed of a code pixgate builds is what `dynamic` gives today.
    let built = brcode::dynamic(
        "127.0.0.1:8443/qr/v2/cobv/5f2c3a1e9b7d4e0f",
        "Loja Demo",
        "Sao Paulo",
    )
    .unwrap();
    let seed = std::fs::read(repo_file("fuzz/corpus/brcode/seed-pixgate-dynamic-psp-sim")).unwrap();
    assert_eq!(&seed[1..], built.as_bytes());
}

#[test]
fn the_tax_id_seeds_are_valid_ids() {
    for (name, bytes) in seeds("tax_id") {
        let text = String::from_utf8(bytes).unwrap();
        assert!(TaxId::parse(&text).is_some(), "{name}: {text}");
    }
}

#[test]
fn the_charge_body_seeds_are_valid_charges() {
    for (name, bytes) in seeds("charge_body") {
        let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        let validated = if body.get("charge").is_some() {
            // The admin evaluate route's body.
            let request =
                EvaluateRequest::from_json(body).unwrap_or_else(|e| panic!("{name}: {e}"));
            request
                .charge
                .validate(request.store, "charge.", pixgate::db::today_brasilia())
        } else {
            let (store, charge) = CreatePaymentRequest::from_json(body)
                .unwrap_or_else(|e| panic!("{name}: {e}"))
                .split();
            charge.validate(store, "", pixgate::db::today_brasilia())
        };
        validated.unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// fuzz/ charge_body found it: with `amount` twice, the as-written check once read the body
/// into a one-field struct (serde refuses a duplicate field) and let it through, while the
/// parsed body keeps the last value, so `129.899999999999999` was charged as 129.90.
#[tokio::test(flavor = "multi_thread")]
async fn a_duplicated_amount_key_is_judged_as_written_too() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let body = r#"{"store": "demo-store", "amount": 10, "amount": 129.899999999999999,
            "reference": "dup-1", "payer": {"name": "Ana Souza", "taxId": "529.982.247-25"}}"#;
        let r = server
            .client
            .post(format!("{}/payments/charge", server.base))
            .bearer_auth(&server.demo_key)
            .header("Idempotency-Key", "dup-1")
            .header("Content-Type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        let answer: Value = r.json().await.unwrap_or(Value::Null);
        assert_eq!(status, 400, "{backend:?} {answer}");
        assert_eq!(answer["error"]["code"], "invalid_amount", "{backend:?}");
    }
}
