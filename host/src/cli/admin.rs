//! The admin API client behind the `pixgate policy` commands: where the API is, the bearer
//! token, the `{success, data | error}` envelope, and the one error type every command
//! reports (exit status 1).

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use serde::de::DeserializeOwned;
use serde_json::Value;
use url::Url;

use pixgate_domain::Step;

/// Where the admin API is and how to authenticate to it.
#[derive(Debug, Clone, Args)]
pub(super) struct AdminArgs {
    /// The instance's admin listener (`http://host:port`; a trailing `/admin/v1` is fine too).
    #[arg(
        long,
        env = "PIXGATE_ADMIN_URL",
        default_value = "http://127.0.0.1:8081",
        value_parser = admin_url
    )]
    admin_url: Url,
    /// The instance's admin token (or an operator's). Without one, the `admin-token` file of
    /// the data dir is read, as `pixgate serve` wrote it at its first start.
    #[arg(long, env = "PIXGATE_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: Option<String>,
    /// The data dir whose `admin-token` file is read when no token is given (the instance's
    /// `PIXGATE_DATA_DIR`, on the same machine).
    #[arg(long, env = "PIXGATE_DATA_DIR", default_value = "./pixgate-data")]
    data_dir: std::path::PathBuf,
}

impl AdminArgs {
    /// The token given, else the data dir's `admin-token` file; else what to set.
    fn token(&self) -> Result<String, CliError> {
        if let Some(token) = &self.admin_token {
            return Ok(token.clone());
        }
        let file = self.data_dir.join("admin-token");
        match std::fs::read_to_string(&file) {
            Ok(token) if !token.trim().is_empty() => Ok(token.trim().to_owned()),
            _ => Err(CliError::local(
                "admin_token_missing",
                format!(
                    "no admin token: set PIXGATE_ADMIN_TOKEN (or --admin-token) to the token \
                     `pixgate serve` printed at its first start, which it also wrote to {} \
                     (PIXGATE_DATA_DIR or --data-dir names another data dir)",
                    file.display()
                ),
            )),
        }
    }
}

/// The base of the admin API: the listener's root plus `/admin/v1`, however it was given.
fn admin_url(text: &str) -> Result<Url, String> {
    let mut url = Url::parse(text).map_err(|e| format!("not a URL: {e}"))?;
    if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
        return Err("an http:// or https:// URL with a host".to_owned());
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err("a URL without query or fragment".to_owned());
    }
    let path = url.path().trim_end_matches('/').to_owned();
    let path = path.strip_suffix("/admin/v1").unwrap_or(&path).to_owned();
    url.set_path(&format!("{path}/admin/v1"));
    Ok(url)
}

/// A store code as a `--store` value: one path segment of the admin API's URLs.
pub(super) fn store_code(text: &str) -> Result<String, String> {
    if text.is_empty() || text == "." || text == ".." {
        return Err("a store code".to_owned());
    }
    Ok(text.to_owned())
}

/// What a command reports when it fails (exit status 1).
#[derive(Debug)]
pub(super) enum CliError {
    /// The API answered with its error envelope.
    Api {
        status: u16,
        code: String,
        message: String,
        field: Option<String>,
    },
    /// Anything before or around the API: an unreachable instance, an answer that is not the
    /// envelope, a local file.
    Local { code: &'static str, message: String },
}

impl CliError {
    pub(super) fn local(code: &'static str, message: impl Into<String>) -> Self {
        Self::Local {
            code,
            message: message.into(),
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Api {
                status,
                code,
                message,
                field,
            } => {
                write!(f, "{code}: {message}")?;
                if let Some(field) = field {
                    write!(f, " (field `{field}`)")?;
                }
                write!(f, " [HTTP {status}]")
            }
            Self::Local { code, message } => write!(f, "{code}: {message}"),
        }
    }
}

/// A request body.
pub(super) enum Body {
    None,
    Json(Value),
    Wasm(Vec<u8>),
}

/// A blocking client of one instance's admin API.
pub(super) struct Admin {
    base: Url,
    token: String,
    client: reqwest::Client,
    runtime: tokio::runtime::Runtime,
}

impl Admin {
    pub(super) fn connect(args: &AdminArgs) -> Result<Self, CliError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| CliError::local("runtime_unavailable", e.to_string()))?;
        let client = reqwest::Client::builder()
            .tls_backend_preconfigured(tls_config())
            // The URL given is the one spoken to: no proxy from the environment in between.
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(10))
            // A replay of the largest window takes seconds; this only stops a hung instance.
            .timeout(Duration::from_secs(600))
            .user_agent(concat!("pixgate-cli/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| CliError::local("client_unavailable", e.to_string()))?;
        Ok(Self {
            base: args.admin_url.clone(),
            token: args.token()?,
            client,
            runtime,
        })
    }

    /// The URL of the API path made of `segments`, each percent-encoded (a store code is
    /// one segment, whatever it contains; [`store_code`] keeps out the dot segments, which
    /// URL parsing would drop).
    fn url(&self, segments: &[&str]) -> Url {
        let mut url = self.base.clone();
        if let Ok(mut path) = url.path_segments_mut() {
            path.pop_if_empty().extend(segments);
        }
        url
    }

    /// Sends a request; the HTTP status and the envelope's `data` on success.
    pub(super) fn send(
        &self,
        method: reqwest::Method,
        segments: &[&str],
        body: Body,
    ) -> Result<(u16, Value), CliError> {
        self.send_to(method, self.url(segments), body)
    }

    /// `GET` of the path made of `segments` with a query string of `query` (each value
    /// form-encoded); the envelope's `data`.
    pub(super) fn get_query(
        &self,
        segments: &[&str],
        query: &[(&str, &str)],
    ) -> Result<Value, CliError> {
        let mut url = self.url(segments);
        if !query.is_empty() {
            url.query_pairs_mut().extend_pairs(query);
        }
        Ok(self.send_to(reqwest::Method::GET, url, Body::None)?.1)
    }

    /// `GET` of a route that answers text (a CSV export) with a query of `query`: the text,
    /// or the error envelope as [`CliError::Api`].
    pub(super) fn get_text(
        &self,
        segments: &[&str],
        query: &[(&str, &str)],
    ) -> Result<String, CliError> {
        let mut url = self.url(segments);
        if !query.is_empty() {
            url.query_pairs_mut().extend_pairs(query);
        }
        let request = self.client.get(url.clone()).bearer_auth(&self.token);
        self.runtime.block_on(async {
            let unreachable = |e: reqwest::Error| {
                CliError::local("admin_unreachable", format!("{url}: {}", error_chain(&e)))
            };
            let response = request.send().await.map_err(unreachable)?;
            let status = response.status().as_u16();
            let bytes = response.bytes().await.map_err(unreachable)?;
            if !(200..300).contains(&status) {
                envelope(status, &bytes)?;
            }
            String::from_utf8(bytes.to_vec())
                .map_err(|e| CliError::local("unexpected_response", format!("{url}: {e}")))
        })
    }

    fn send_to(
        &self,
        method: reqwest::Method,
        url: Url,
        body: Body,
    ) -> Result<(u16, Value), CliError> {
        let mut request = self
            .client
            .request(method, url.clone())
            .bearer_auth(&self.token);
        request = match body {
            Body::None => request,
            Body::Json(json) => request.json(&json),
            Body::Wasm(bytes) => request
                .header(reqwest::header::CONTENT_TYPE, "application/wasm")
                .body(bytes),
        };
        self.runtime.block_on(async {
            let response = request.send().await.map_err(|e| {
                CliError::local("admin_unreachable", format!("{url}: {}", error_chain(&e)))
            })?;
            let status = response.status().as_u16();
            let bytes = response.bytes().await.map_err(|e| {
                CliError::local("admin_unreachable", format!("{url}: {}", error_chain(&e)))
            })?;
            let data = envelope(status, &bytes).map_err(|e| match e {
                CliError::Local { code, message } => {
                    CliError::local(code, format!("{url}: {message}"))
                }
                api => api,
            })?;
            Ok((status, data))
        })
    }

    /// `POST` of `body` asking for a stream of JSON lines (`application/x-ndjson`): each
    /// `{"progress": {replayed, total}}` line goes to `on_progress`, and the last line is the
    /// envelope, whose `data` is returned. An answer that is not a stream (a refusal) is read
    /// as [`Self::send`] reads it.
    pub(super) fn post_streamed(
        &self,
        segments: &[&str],
        body: Value,
        mut on_progress: impl FnMut(u64, u64),
    ) -> Result<Value, CliError> {
        let url = self.url(segments);
        let request = self
            .client
            .post(url.clone())
            .bearer_auth(&self.token)
            .header(reqwest::header::ACCEPT, "application/x-ndjson")
            .json(&body);
        let unreachable = |e: reqwest::Error| {
            CliError::local("admin_unreachable", format!("{url}: {}", error_chain(&e)))
        };
        self.runtime.block_on(async {
            let mut response = request.send().await.map_err(unreachable)?;
            let status = response.status().as_u16();
            let streamed = response
                .headers()
                .get(reqwest::header::CONTENT_TYPE)
                .is_some_and(|v| v.as_bytes().starts_with(b"application/x-ndjson"));
            let mut pending = Vec::new();
            let mut last = Vec::new();
            while let Some(chunk) = response.chunk().await.map_err(unreachable)? {
                pending.extend_from_slice(&chunk);
                if !streamed {
                    continue;
                }
                while let Some(end) = pending.iter().position(|b| *b == b'\n') {
                    let line: Vec<u8> = pending.drain(..=end).collect();
                    let progress = serde_json::from_slice::<Value>(&line)
                        .ok()
                        .and_then(|v| v.get("progress").cloned());
                    match progress {
                        Some(p) => on_progress(
                            p["replayed"].as_u64().unwrap_or(0),
                            p["total"].as_u64().unwrap_or(0),
                        ),
                        None => last = line,
                    }
                }
            }
            let answer = if streamed && pending.iter().all(u8::is_ascii_whitespace) {
                last
            } else {
                pending
            };
            envelope(status, &answer)
        })
    }

    /// Uploads a component's bytes for `step`; its version and whether it was new.
    pub(super) fn upload(
        &self,
        step: Step,
        bytes: Vec<u8>,
        label: Option<&str>,
    ) -> Result<(String, bool), CliError> {
        let mut url = self.url(&["components", step.as_str()]);
        if let Some(label) = label {
            url.query_pairs_mut().append_pair("label", label);
        }
        let (status, data) = self.send_to(reqwest::Method::POST, url, Body::Wasm(bytes))?;
        let version = data["version"]
            .as_str()
            .ok_or_else(|| CliError::local("unexpected_response", "no version in the answer"))?
            .to_owned();
        Ok((version, status == 201))
    }
}

/// `data` of a success envelope, or the error envelope as [`CliError::Api`].
fn envelope(status: u16, bytes: &[u8]) -> Result<Value, CliError> {
    let unexpected = || {
        let what = if bytes.is_empty() {
            "an empty body".to_owned()
        } else {
            let text = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).into_owned();
            format!("{text:?}")
        };
        CliError::local(
            "unexpected_response",
            format!(
                "HTTP {status} with {what}, not pixgate's envelope (is this pixgate's admin API?)"
            ),
        )
    };
    let json: Value = serde_json::from_slice(bytes).map_err(|_| unexpected())?;
    match json.get("success").and_then(Value::as_bool) {
        Some(true) if (200..300).contains(&status) => {
            Ok(json.get("data").cloned().unwrap_or_default())
        }
        Some(false) => {
            let error = &json["error"];
            let text = |key: &str| error.get(key).and_then(Value::as_str).map(str::to_owned);
            Err(CliError::Api {
                status,
                code: text("code").unwrap_or_else(|| "unknown_error".to_owned()),
                message: text("message").unwrap_or_default(),
                field: text("field"),
            })
        }
        _ => Err(unexpected()),
    }
}

/// Reads an answer's `data` as the type a command renders.
pub(super) fn parse<T: DeserializeOwned>(data: Value) -> Result<T, CliError> {
    serde_json::from_value(data).map_err(|e| {
        CliError::local(
            "unexpected_response",
            format!("the answer does not have the expected shape: {e}"),
        )
    })
}

/// reqwest's top-level error says little ("error sending request"); the cause says why.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// For an https admin URL: Mozilla's roots, with ring (reqwest has no default provider here).
pub(super) fn tls_config() -> rustls::ClientConfig {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("ring supports the default protocol versions")
        .with_root_certificates(roots)
        .with_no_client_auth()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_admin_url_gets_its_api_path_once() {
        for given in [
            "http://127.0.0.1:8081",
            "http://127.0.0.1:8081/",
            "http://127.0.0.1:8081/admin/v1",
            "http://127.0.0.1:8081/admin/v1/",
        ] {
            assert_eq!(
                admin_url(given).unwrap().as_str(),
                "http://127.0.0.1:8081/admin/v1",
                "{given}"
            );
        }
        assert_eq!(
            admin_url("https://ops.example/pixgate").unwrap().as_str(),
            "https://ops.example/pixgate/admin/v1"
        );
        assert!(admin_url("ftp://127.0.0.1").is_err());
        assert!(admin_url("127.0.0.1:8081").is_err());
        assert!(admin_url("http://127.0.0.1:8081/?x=1").is_err());
    }

    #[test]
    fn path_segments_are_encoded_one_by_one() {
        let admin = Admin::connect(&AdminArgs {
            admin_url: admin_url("http://127.0.0.1:8081").unwrap(),
            admin_token: Some("t".into()),
            data_dir: "./pixgate-data".into(),
        })
        .unwrap();
        assert_eq!(
            admin
                .url(&["stores", "../merchants?x", "components"])
                .as_str(),
            "http://127.0.0.1:8081/admin/v1/stores/..%2Fmerchants%3Fx/components"
        );
        for dots in ["", ".", ".."] {
            assert!(store_code(dots).is_err());
        }
    }

    #[test]
    fn envelopes_give_data_or_the_api_error() {
        assert_eq!(
            envelope(200, br#"{"success":true,"data":{"a":1}}"#).unwrap(),
            serde_json::json!({"a": 1})
        );
        let e = envelope(
            404,
            br#"{"success":false,"error":{"code":"store_not_found","message":"no such store","requestId":"r"}}"#,
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "store_not_found: no such store [HTTP 404]");
        let e = envelope(502, b"<html>bad gateway</html>").unwrap_err();
        assert!(
            matches!(
                e,
                CliError::Local {
                    code: "unexpected_response",
                    ..
                }
            ),
            "{e}"
        );
        let e = envelope(500, br#"{"success":true,"data":1}"#).unwrap_err();
        assert!(
            matches!(
                e,
                CliError::Local {
                    code: "unexpected_response",
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn without_a_token_the_data_dirs_file_is_read_or_the_error_says_what_to_set() {
        let dir = tempfile::tempdir().unwrap();
        let args = AdminArgs {
            admin_url: admin_url("http://127.0.0.1:8081").unwrap(),
            admin_token: None,
            data_dir: dir.path().to_owned(),
        };
        let CliError::Local { code, message } = args.token().unwrap_err() else {
            panic!("a local error")
        };
        assert_eq!(code, "admin_token_missing");
        assert!(message.contains("PIXGATE_ADMIN_TOKEN"), "{message}");
        assert!(message.contains(&dir.path().join("admin-token").display().to_string()));
        std::fs::write(dir.path().join("admin-token"), "pxa_secret\n").unwrap();
        assert_eq!(args.token().unwrap(), "pxa_secret");
    }
}
