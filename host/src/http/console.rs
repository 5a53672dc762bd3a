//! The operator console (`/console/` on the admin listener) and the interactive API references
//! (`/api/v1/docs` on the merchant listener, `/admin/v1/docs` on the admin one).
//!
//! Both are static assets built from `console/` by `npm run build` and committed under
//! `console/dist`, so `cargo build` needs neither npm nor the network; they are embedded here
//! and nothing else is served. The console speaks only the public admin API, with the operator
//! token it keeps in the tab's sessionStorage: these routes need no token, since the assets
//! hold no data.
//!
//! Every answer carries a `Content-Security-Policy` that lets a page load only from its own
//! origin, is gzipped when the client accepts it (compressed once, on first use) and is
//! revalidated by its `ETag`: the names carry no content hash, so a browser must ask again.

use std::io::Write;
use std::sync::{Arc, OnceLock};

use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use sha2::{Digest, Sha256};

use crate::http::AppState;

/// One embedded file and what is derived from it on first use.
struct Asset {
    name: &'static str,
    content_type: &'static str,
    bytes: &'static [u8],
    prepared: OnceLock<Prepared>,
}

struct Prepared {
    etag: HeaderValue,
    gzip: Vec<u8>,
}

macro_rules! asset {
    ($name:literal, $content_type:expr) => {
        Asset {
            name: $name,
            content_type: $content_type,
            bytes: include_bytes!(concat!("../../../console/dist/", $name)),
            prepared: OnceLock::new(),
        }
    };
}

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const SVG: &str = "image/svg+xml";

/// The console: `index.html` at `/console/`, the rest beside it.
static CONSOLE: [Asset; 4] = [
    asset!("index.html", HTML),
    asset!("console.js", JS),
    asset!("console.css", CSS),
    asset!("favicon.svg", SVG),
];

/// The API reference: `docs.html` at `.../docs`, its scripts under `.../docs/`.
static DOCS: [Asset; 5] = [
    asset!("docs.html", HTML),
    asset!("docs.js", JS),
    asset!("swagger-ui-bundle.js", JS),
    asset!("swagger-ui.css", CSS),
    asset!("favicon.svg", SVG),
];

/// Only this origin, for everything; no plugins, no framing, no `<base>` games. Swagger UI
/// draws a few icons from `data:` SVGs in its stylesheet, which load nothing from anywhere.
const CSP: &str = "default-src 'self'; img-src 'self' data:; object-src 'none'; \
                   base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

/// The admin listener's console and reference routes (outside the token-checked nest).
pub fn admin_routes() -> Router<Arc<AppState>> {
    Router::new()
        .route(
            "/console",
            get(|| async { Redirect::permanent("/console/") }),
        )
        .route(
            "/console/",
            get(|headers: HeaderMap| serve(&CONSOLE[0], headers)),
        )
        .route(
            "/console/{file}",
            get(|Path(file): Path<String>, headers: HeaderMap| named(&CONSOLE, file, headers)),
        )
        .merge(docs_routes("/admin/v1/docs"))
}

/// The merchant listener's reference routes.
pub fn merchant_routes() -> Router<Arc<AppState>> {
    docs_routes("/api/v1/docs")
}

/// `{base}` serves the page; it loads `docs/<file>` relative to itself, so a trailing slash
/// (which would move that base) redirects to the page.
fn docs_routes(base: &'static str) -> Router<Arc<AppState>> {
    Router::new()
        .route(base, get(|headers: HeaderMap| serve(&DOCS[0], headers)))
        .route(
            &format!("{base}/"),
            get(move || async move { Redirect::permanent(base) }),
        )
        .route(
            &format!("{base}/{{file}}"),
            get(|Path(file): Path<String>, headers: HeaderMap| named(&DOCS[1..], file, headers)),
        )
}

async fn named(assets: &'static [Asset], file: String, headers: HeaderMap) -> Response {
    match assets.iter().find(|a| a.name == file) {
        Some(asset) => serve(asset, headers).await,
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

async fn serve(asset: &'static Asset, headers: HeaderMap) -> Response {
    let prepared = match asset.prepared.get() {
        Some(p) => p,
        // Compressing the largest file takes a moment: off the async workers.
        None => match tokio::task::spawn_blocking(|| asset.prepared.get_or_init(|| prepare(asset)))
            .await
        {
            Ok(p) => p,
            Err(e) => {
                tracing::error!(asset = asset.name, error = %e, "preparing a console asset");
                return StatusCode::INTERNAL_SERVER_ERROR.into_response();
            }
        },
    };
    let not_modified = headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .any(|v| matches_etag(v, &prepared.etag));
    let mut response = if not_modified {
        StatusCode::NOT_MODIFIED.into_response()
    } else if accepts_gzip(&headers) {
        let mut r = prepared.gzip.clone().into_response();
        r.headers_mut()
            .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        r
    } else {
        asset.bytes.into_response()
    };
    let h = response.headers_mut();
    if !not_modified {
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(asset.content_type),
        );
    }
    for (name, value) in [
        (header::CACHE_CONTROL, "no-cache"),
        (header::VARY, "accept-encoding"),
        (header::CONTENT_SECURITY_POLICY, CSP),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::X_FRAME_OPTIONS, "DENY"),
    ] {
        h.insert(name, HeaderValue::from_static(value));
    }
    h.insert(header::ETAG, prepared.etag.clone());
    response
}

fn prepare(asset: &Asset) -> Prepared {
    let digest = Sha256::digest(asset.bytes);
    let etag = HeaderValue::from_str(&format!("\"{}\"", hex::encode(&digest[..16])))
        .expect("hex is a valid header value");
    let mut encoder = flate2::write::GzEncoder::new(
        Vec::with_capacity(asset.bytes.len() / 3),
        flate2::Compression::best(),
    );
    // Writing to a Vec cannot fail.
    encoder.write_all(asset.bytes).expect("gzip into memory");
    let gzip = encoder.finish().expect("gzip into memory");
    Prepared { etag, gzip }
}

/// `If-None-Match`: `*`, or a list that names this tag (weak or strong, as RFC 9110's weak
/// comparison for GET allows).
fn matches_etag(value: &HeaderValue, etag: &HeaderValue) -> bool {
    let Ok(value) = value.to_str() else {
        return false;
    };
    let etag = etag.to_str().unwrap_or_default();
    value.split(',').map(str::trim).any(|candidate| {
        candidate == "*" || candidate.strip_prefix("W/").unwrap_or(candidate) == etag
    })
}

/// Whether `Accept-Encoding` admits gzip: named (or `*`) without `q=0`.
fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';').map(str::trim);
            let coding = parts.next().unwrap_or_default();
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    .is_some_and(|q| q == 0.0)
            });
            (coding.eq_ignore_ascii_case("gzip") || coding == "*") && !refused
        })
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(k, v)| {
                (
                    header::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                    HeaderValue::from_str(v).unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn gzip_is_accepted_when_named_or_starred_without_q_zero() {
        for (value, accepted) in [
            ("gzip", true),
            ("gzip, deflate, br, zstd", true),
            ("br;q=1.0, GZIP;q=0.5", true),
            ("*", true),
            ("identity", false),
            ("gzip;q=0", false),
            ("gzip; q=0.0, br", false),
            ("x-gzip2", false),
        ] {
            assert_eq!(
                accepts_gzip(&headers(&[("accept-encoding", value)])),
                accepted,
                "{value}"
            );
        }
        assert!(!accepts_gzip(&HeaderMap::new()));
    }

    #[test]
    fn an_etag_matches_itself_weakly_or_in_a_list() {
        let tag = HeaderValue::from_static("\"abc\"");
        for (value, matches) in [
            ("\"abc\"", true),
            ("W/\"abc\"", true),
            ("\"x\", \"abc\"", true),
            ("*", true),
            ("\"abcd\"", false),
            ("abc", false),
        ] {
            assert_eq!(
                matches_etag(&HeaderValue::from_str(value).unwrap(), &tag),
                matches,
                "{value}"
            );
        }
    }

    #[test]
    fn the_gzip_copy_inflates_to_the_asset() {
        for asset in CONSOLE.iter().chain(DOCS.iter()) {
            let prepared = prepare(asset);
            let mut inflated = Vec::new();
            flate2::read::GzDecoder::new(prepared.gzip.as_slice())
                .read_to_end(&mut inflated)
                .unwrap();
            assert_eq!(inflated, asset.bytes, "{}", asset.name);
            assert!(!asset.bytes.is_empty(), "{} is empty", asset.name);
        }
    }

    /// Each page loads only files served beside it, by a relative name: a file the build
    /// renamed or a leftover absolute or foreign URL fails here, not in a browser.
    #[test]
    fn every_file_a_page_loads_is_embedded_beside_it() {
        let reference = regex::Regex::new(r#"(?:src|href)="([^"]*)""#).unwrap();
        for (page, served, prefix) in [
            (&CONSOLE[0], &CONSOLE[1..], ""),
            (&DOCS[0], &DOCS[1..], "docs/"),
        ] {
            let html = std::str::from_utf8(page.bytes).unwrap();
            let names: Vec<&str> = reference
                .captures_iter(html)
                .map(|c| c.get(1).unwrap().as_str())
                .collect();
            assert!(!names.is_empty(), "{} loads nothing", page.name);
            for name in names {
                let file = name
                    .strip_prefix(prefix)
                    .unwrap_or_else(|| panic!("{} loads {name}, outside {prefix:?}", page.name));
                assert!(
                    served.iter().any(|a| a.name == file),
                    "{} loads {name}, which is not embedded",
                    page.name
                );
            }
        }
    }
}
