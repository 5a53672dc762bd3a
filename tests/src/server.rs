//! A real `pixgate serve` process on port 0 with a fresh data dir and, for PostgreSQL, a fresh
//! database. Tests run against SQLite always and against PostgreSQL when
//! `PIXGATE_TEST_DATABASE_URL` is set; set but unreachable fails the test.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use sqlx::Connection;

use crate::pixgate_bin;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// The backends this run covers: SQLite, plus PostgreSQL when a test database URL is set.
pub fn backends() -> Vec<Backend> {
    let mut all = vec![Backend::Sqlite];
    if postgres_admin_url().is_some() {
        all.push(Backend::Postgres);
    }
    all
}

/// `PIXGATE_TEST_DATABASE_URL`: a PostgreSQL database where the tests may create databases.
pub fn postgres_admin_url() -> Option<String> {
    std::env::var("PIXGATE_TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.is_empty())
}

/// A new, empty PostgreSQL database; its URL.
pub async fn fresh_postgres_database() -> String {
    let admin = postgres_admin_url().expect("PIXGATE_TEST_DATABASE_URL is set");
    let mut conn = sqlx::PgConnection::connect(&admin)
        .await
        .unwrap_or_else(|e| {
            panic!("PIXGATE_TEST_DATABASE_URL is set but PostgreSQL is unreachable: {e}")
        });
    let name = format!("pixgate_test_{}", uuid::Uuid::new_v4().simple());
    // The name is ours (a UUID), not input.
    sqlx::query(sqlx::AssertSqlSafe(format!("create database {name}")))
        .execute(&mut conn)
        .await
        .expect("create the test database");
    let base = admin.rsplit_once('/').map(|(b, _)| b).unwrap_or(&admin);
    format!("{base}/{name}")
}

/// Two instances sharing one fresh PostgreSQL database, with the same master key and admin
/// token, as a scaled-out deployment runs them.
pub async fn two_instances_on_postgres() -> (Server, Server) {
    let url = fresh_postgres_database().await;
    let start = || {
        Server::launch(Options {
            database_url: Some(url.clone()),
            env: vec![
                (
                    "PIXGATE_MASTER_KEY".to_owned(),
                    "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=".to_owned(),
                ),
                (
                    "PIXGATE_ADMIN_TOKEN".to_owned(),
                    "pxa_test_token_two_instances".to_owned(),
                ),
            ],
            data_dir: None,
        })
    };
    (start(), start())
}

/// What the server printed at start-up.
#[derive(Debug, Clone, Default)]
pub struct Started {
    pub merchant_url: String,
    pub admin_url: String,
    pub admin_token: Option<String>,
    pub demo_key: Option<String>,
}

pub struct Server {
    child: Child,
    pub started: Started,
    pub base: String,
    pub admin: String,
    pub admin_token: String,
    pub demo_key: String,
    pub database_url: String,
    pub data_dir: tempfile::TempDir,
    /// The environment it was started with beyond the defaults (to start it again).
    pub env: Vec<(String, String)>,
    stderr: Arc<Mutex<String>>,
    pub client: reqwest::Client,
}

pub struct Options {
    pub database_url: Option<String>,
    pub env: Vec<(String, String)>,
    pub data_dir: Option<tempfile::TempDir>,
}

impl Server {
    pub async fn start(backend: Backend) -> Server {
        Self::start_with(backend, &[]).await
    }

    pub async fn start_with(backend: Backend, env: &[(&str, &str)]) -> Server {
        let database_url = match backend {
            Backend::Sqlite => None,
            Backend::Postgres => Some(fresh_postgres_database().await),
        };
        Self::launch(Options {
            database_url,
            env: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            data_dir: None,
        })
    }

    /// Starts a server process; waits for its `ready` line.
    pub fn launch(options: Options) -> Server {
        crate::install_tls_provider();
        let data_dir = options
            .data_dir
            .unwrap_or_else(|| tempfile::tempdir().unwrap());
        let mut cmd = Command::new(pixgate_bin());
        cmd.arg("serve")
            .env_clear()
            .env("PIXGATE_DATA_DIR", data_dir.path())
            .env("PIXGATE_LISTEN", "127.0.0.1:0")
            .env("PIXGATE_ADMIN_LISTEN", "127.0.0.1:0")
            .env("PIXGATE_LOG", "info")
            // The daily ledger sweep would read each provider's yesterday at the test's
            // simulators whenever a test runs; the tests of the sweep ask for it.
            .env("PIXGATE_RECONCILE_DAILY_AT", "off")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .stdin(Stdio::null());
        if let Some(url) = &options.database_url {
            cmd.env("PIXGATE_DATABASE_URL", url);
        }
        for (k, v) in &options.env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("start pixgate serve");
        let stdout = child.stdout.take().unwrap();
        let stderr = crate::capture_stderr(&mut child);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut started = Started::default();
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(rest) = line.strip_prefix("pixgate: merchant API on ") {
                    started.merchant_url = rest.trim().to_owned();
                } else if let Some(rest) = line.strip_prefix("pixgate: admin API on ") {
                    started.admin_url = rest.trim().to_owned();
                } else if line.starts_with("pixgate: admin token") {
                    started.admin_token = line.rsplit(' ').next().map(str::to_owned);
                } else if line.starts_with("pixgate: demo merchant") {
                    started.demo_key = line.rsplit(' ').next().map(str::to_owned);
                } else if line == "pixgate: ready" {
                    let _ = tx.send(started.clone());
                }
            }
        });
        let started = match rx.recv_timeout(Duration::from_secs(120)) {
            Ok(s) => s,
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("pixgate serve did not start:\n{}", stderr.lock().unwrap());
            }
        };
        let admin_token = started
            .admin_token
            .clone()
            .or_else(|| {
                options
                    .env
                    .iter()
                    .find(|(k, _)| k == "PIXGATE_ADMIN_TOKEN")
                    .map(|(_, v)| v.clone())
            })
            .or_else(|| std::fs::read_to_string(data_dir.path().join("admin-token")).ok())
            .unwrap_or_default();
        Server {
            child,
            base: started.merchant_url.clone(),
            admin: started.admin_url.clone(),
            admin_token,
            demo_key: started.demo_key.clone().unwrap_or_default(),
            started,
            database_url: options.database_url.unwrap_or_default(),
            env: options.env,
            data_dir,
            stderr,
            client: reqwest::Client::new(),
        }
    }

    /// Everything the server logged so far.
    pub fn logs(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// The Prometheus metrics (the admin listener's `/metrics`).
    pub async fn metrics(&self) -> String {
        let r = self
            .client
            .get(format!("{}/metrics", self.admin_root()))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        r.text().await.unwrap()
    }

    /// Root of the admin listener (`http://host:port`).
    pub fn admin_root(&self) -> String {
        self.admin.trim_end_matches("/admin/v1").to_owned()
    }

    /// Root of the merchant listener.
    pub fn merchant_root(&self) -> String {
        self.base.trim_end_matches("/api/v1").to_owned()
    }

    /// An admin API call with the admin token; the status and the JSON body.
    pub async fn admin(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        self.admin_as(&self.admin_token, method, path, body.as_ref())
            .await
    }

    /// An admin call with `token` (an operator's, or any text); the status and the JSON
    /// body (Null if none).
    pub async fn admin_as(
        &self,
        token: &str,
        method: reqwest::Method,
        path: &str,
        body: Option<&Value>,
    ) -> (u16, Value) {
        let mut request = self
            .client
            .request(method.clone(), format!("{}{path}", self.admin))
            .bearer_auth(token);
        if let Some(body) = body {
            request = request.json(body);
        }
        let r = request
            .send()
            .await
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
    }

    pub async fn admin_post(&self, path: &str, body: Value) -> (u16, Value) {
        self.admin(reqwest::Method::POST, path, Some(body)).await
    }

    pub async fn admin_patch(&self, path: &str, body: Value) -> (u16, Value) {
        self.admin(reqwest::Method::PATCH, path, Some(body)).await
    }

    pub async fn admin_get(&self, path: &str) -> (u16, Value) {
        self.admin(reqwest::Method::GET, path, None).await
    }

    /// `GET` of an admin route that answers text (a CSV export): the status, the
    /// `Content-Type` and the body.
    pub async fn admin_get_text(&self, path: &str) -> (u16, String, String) {
        let r = self
            .client
            .get(format!("{}{path}", self.admin))
            .bearer_auth(&self.admin_token)
            .send()
            .await
            .unwrap_or_else(|e| panic!("GET {path}: {e}"));
        let content_type = r
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        (r.status().as_u16(), content_type, r.text().await.unwrap())
    }

    /// `POST /payments/charge` with `key` and `idempotency_key`.
    pub async fn charge(&self, key: &str, idempotency_key: &str, body: &Value) -> (u16, Value) {
        let r = self
            .client
            .post(format!("{}/payments/charge", self.base))
            .bearer_auth(key)
            .header("Idempotency-Key", idempotency_key)
            .json(body)
            .send()
            .await
            .unwrap();
        (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
    }

    /// `POST /payments/charge-batches` with `key` and `idempotency_key`.
    pub async fn charge_batch(
        &self,
        key: &str,
        idempotency_key: &str,
        body: &Value,
    ) -> (u16, Value) {
        let r = self
            .client
            .post(format!("{}/payments/charge-batches", self.base))
            .bearer_auth(key)
            .header("Idempotency-Key", idempotency_key)
            .json(body)
            .send()
            .await
            .unwrap();
        (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
    }

    /// `GET /payments/charge-batches/{id}` with `key`.
    pub async fn get_charge_batch(&self, key: &str, id: &str) -> (u16, Value) {
        let r = self
            .client
            .get(format!("{}/payments/charge-batches/{id}", self.base))
            .bearer_auth(key)
            .send()
            .await
            .unwrap();
        (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
    }

    /// Waits until batch `id` is `DONE`; its `data`.
    pub async fn wait_charge_batch(&self, key: &str, id: &str, timeout: Duration) -> Value {
        let deadline = Instant::now() + timeout;
        loop {
            let (status, body) = self.get_charge_batch(key, id).await;
            assert_eq!(status, 200, "{body}");
            if body["data"]["status"] == "DONE" {
                return body["data"].clone();
            }
            assert!(
                Instant::now() < deadline,
                "batch {id} not DONE: created {}, rejected {} of {}\n{}",
                body["data"]["created"],
                body["data"]["rejected"],
                body["data"]["total"],
                self.logs()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub async fn get_payment(&self, key: &str, id: &str) -> (u16, Value) {
        let r = self
            .client
            .get(format!("{}/payments/{id}", self.base))
            .bearer_auth(key)
            .send()
            .await
            .unwrap();
        (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
    }

    /// Creates a merchant with a store and a key granted it; returns the key.
    pub async fn merchant_with_store(&self, merchant: &str, store: &str, mode: &str) -> String {
        let (s, b) = self
            .admin_post(
                "/merchants",
                serde_json::json!({"code": merchant, "name": merchant}),
            )
            .await;
        assert!(s == 201 || s == 409, "{s} {b}");
        let (s, b) = self
            .admin_post(
                "/stores",
                serde_json::json!({"code": store, "name": store, "merchant": merchant, "mode": mode}),
            )
            .await;
        assert_eq!(s, 201, "{b}");
        let (s, b) = self
            .admin_post(
                "/api-keys",
                serde_json::json!({"merchant": merchant, "stores": [store]}),
            )
            .await;
        assert_eq!(s, 201, "{b}");
        b["data"]["apiKey"].as_str().unwrap().to_owned()
    }

    /// Runs `statement` on the server's database (SQLite file or PostgreSQL) while it runs:
    /// what a test does to stand for days passing. How many rows it changed.
    pub async fn execute_sql(&self, statement: &str) -> u64 {
        sqlx::any::install_default_drivers();
        let url = if self.database_url.is_empty() {
            format!(
                "sqlite://{}",
                self.data_dir.path().join("pixgate.db").display()
            )
        } else {
            self.database_url.clone()
        };
        let pool = sqlx::AnyPool::connect(&url).await.unwrap();
        let done = sqlx::query(sqlx::AssertSqlSafe(statement.to_owned()))
            .execute(&pool)
            .await
            .unwrap_or_else(|e| panic!("{statement}: {e}"));
        pool.close().await;
        done.rows_affected()
    }

    /// Kills the process with SIGKILL (no shutdown of any kind) and hands back its data dir,
    /// to start it again with [`Options::data_dir`].
    pub fn kill_hard(&mut self) -> tempfile::TempDir {
        let _ = self.child.kill();
        let _ = self.child.wait();
        std::mem::replace(&mut self.data_dir, tempfile::tempdir().unwrap())
    }

    /// Sends SIGTERM and waits for the exit status.
    pub fn terminate(&mut self) -> std::process::ExitStatus {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("pixgate did not stop on SIGTERM");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A valid charge body for `store`.
pub fn charge_body(store: &str) -> Value {
    serde_json::json!({
        "store": store,
        "amount": 129.9,
        "currency": "BRL",
        "reference": "order-10042",
        "description": "Order 10042",
        "payer": {
            "name": "Ana Souza",
            "taxId": "529.982.247-25",
            "email": "ana.souza@example.com",
            "phone": "+55 11 98765-4321"
        },
        "metadata": {"orderId": "10042", "attribution": {"utm_source": "newsletter"}}
    })
}
