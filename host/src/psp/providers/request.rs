//! Provider bodies as the admin API receives them (the serde types its OpenAPI document is
//! generated from) and as the service uses them: [`NewProvider`] and [`ProviderChanges`],
//! built only by validation.
//!
//! The admin handlers check `code` and `name` with the rules every admin resource shares;
//! everything specific to a provider is checked here.

use serde::Deserialize;
use url::Url;
use utoipa::ToSchema;

use super::{AccountType, ProviderAccount, ProviderError};
use crate::psp::client::{Secret, tls};
use pixgate_domain::json::{Invalid, bounded};
use pixgate_domain::{Email, TaxId, TaxIdKind};

pub(crate) const URL_MAX_CHARS: usize = 2048;
const PEM_MAX_CHARS: usize = 16 * 1024;

// Pieces of PROVIDER_URL_PATTERN: macros, so that `concat!` can join them into one literal.
macro_rules! octet {
    () => {
        "(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
    };
}

/// The form of an API Pix or token URL, as the document states it and [`endpoint_url`]
/// requires it beside the `url` crate's reading: `https://` (the scheme in any case) and a
/// host name in ASCII (labels of letters and digits joined by hyphens, the last starting with
/// a letter) or an IPv4 address; or `http://` and a loopback host (`localhost`, `127.x.y.z`,
/// `[::1]`); then an optional port (0 to 65535) and a path of URL characters. No credentials,
/// query or fragment. A host name that IDNA refuses (an `xn--` label that does not decode)
/// is the one thing it accepts that the route refuses (`invalid_url`).
pub(crate) const PROVIDER_URL_PATTERN: &str = concat!(
    "^([Hh][Tt][Tt][Pp][Ss]://(",
    "([A-Za-z0-9]+(-+[A-Za-z0-9]+)*[.])*[A-Za-z][A-Za-z0-9]*(-+[A-Za-z0-9]+)*",
    "|(",
    octet!(),
    "[.]){3}",
    octet!(),
    ")|[Hh][Tt][Tt][Pp]://(",
    "[Ll][Oo][Cc][Aa][Ll][Hh][Oo][Ss][Tt]|127([.]",
    octet!(),
    "){3}|\\[::1\\]",
    "))",
    "(:(0|[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?",
    "(/([A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})*)?$",
);

static PROVIDER_URL: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(PROVIDER_URL_PATTERN).expect("PROVIDER_URL_PATTERN")
});

/// The schemas of the URL fields: [`PROVIDER_URL_PATTERN`] and its length, with the field's
/// own description (a schema built by hand replaces the one the doc comment would give).
fn api_base_url_schema() -> utoipa::openapi::Object {
    url_schema(
        false,
        "The API Pix base URL (`/cob/{txid}` is appended), at most 2048 characters: `https://` \
         and a host name in ASCII or an IPv4 address, or `http://` on a loopback host \
         (`localhost`, `127.x.y.z`, `[::1]`) for demos and the simulator; an optional port and \
         a path. No credentials, query or fragment. `http://` elsewhere is 400 \
         `url_not_https`; any other breach of the pattern, or a host name that IDNA refuses, \
         400 `invalid_url`.",
    )
}

fn token_url_schema() -> utoipa::openapi::Object {
    url_schema(
        true,
        "The OAuth2 token endpoint, by the same rules as `apiBaseUrl`; null or absent: \
         `{apiBaseUrl}/oauth/token`.",
    )
}

fn new_api_base_url_schema() -> utoipa::openapi::Object {
    url_schema(
        true,
        "As on creation. A token URL that was never set follows the new base URL.",
    )
}

fn new_token_url_schema() -> utoipa::openapi::Object {
    url_schema(true, "As on creation.")
}

fn url_schema(nullable: bool, description: &str) -> utoipa::openapi::Object {
    use utoipa::openapi::schema::Type;
    let schema_type: utoipa::openapi::schema::SchemaType = if nullable {
        [Type::String, Type::Null].into_iter().collect()
    } else {
        Type::String.into()
    };
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(schema_type)
        .description(Some(description))
        .min_length(Some(1))
        .max_length(Some(URL_MAX_CHARS))
        .pattern(Some(PROVIDER_URL_PATTERN))
        .examples([serde_json::json!("https://pix.psp-a.example/api/v2")])
        .build()
}

/// The form of `account.number`: the account number with its check digit, 1 to 20 digits in
/// all, the check digit either joined to the rest or after a `-` (`12345678`, `1234567-8`).
/// Stored without the `-`: API Pix `conta` is digits only. A check digit `X` (written by a few
/// banks) is refused: give the digit the PSP registered the account under.
pub const ACCOUNT_NUMBER_PATTERN: &str = "^([0-9]{1,20}|[0-9]{1,19}-[0-9])$";

/// The form of `account.number` as stored and shown: digits only (API Pix `conta`).
pub const ACCOUNT_STORED_NUMBER_PATTERN: &str = "^[0-9]{1,20}$";

/// The form of `account.branch`: the branch (agência) without its check digit, 1 to 4 digits
/// (API Pix `agencia`, at most 4).
pub const ACCOUNT_BRANCH_PATTERN: &str = "^[0-9]{1,4}$";

/// The stable code of a value of `account` its type refuses (a number where a string goes,
/// a `type` outside the enum), for the admin handlers' parsing.
pub const ACCOUNT_FIELD_CODES: [(&str, &str); 4] = [
    ("account", "invalid_account"),
    ("account.branch", "invalid_account"),
    ("account.number", "invalid_account"),
    ("account.type", "invalid_account"),
];

/// A provider's receiving account, as `POST /providers` takes it.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(example = json!({"branch": "0001", "number": "1234567-8", "type": "CORRENTE"}))]
pub struct AccountInput {
    /// The branch (agência) without its check digit: 1 to 4 digits.
    #[schema(pattern = "^[0-9]{1,4}$", example = "0001")]
    pub branch: String,
    /// The account number with its check digit: 1 to 20 digits in all, the check digit
    /// joined or after a `-` (`12345678`, `1234567-8`); stored as digits only.
    #[schema(pattern = "^([0-9]{1,20}|[0-9]{1,19}-[0-9])$", example = "1234567-8")]
    pub number: String,
    #[serde(rename = "type")]
    pub kind: AccountType,
}

/// `account` of `PATCH /providers/{code}`: the three fields (the new account) or none (`{}`,
/// the account removed). A field given as null is refused like any other wrong type.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AccountChange {
    #[serde(default, deserialize_with = "present")]
    branch: Option<String>,
    #[serde(default, deserialize_with = "present")]
    number: Option<String>,
    #[serde(default, rename = "type", deserialize_with = "present")]
    kind: Option<AccountType>,
}

/// A field that, when there, is a value: null is its type's refusal, not its absence.
fn present<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(d).map(Some)
}

fn create_account_schema() -> utoipa::openapi::Schema {
    use utoipa::openapi::schema::{OneOfBuilder, Type};
    use utoipa::{PartialSchema, openapi::ObjectBuilder};
    OneOfBuilder::new()
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .item(AccountInput::schema())
        .description(Some(
            "The receiving account the provider's recurring charges name (API Pix              `cobr.recebedor`): only a provider with one takes mandates (Pix Automático).              Null or absent: none. A value the rules refuse is 400 `invalid_account` naming              the field.",
        ))
        .build()
        .into()
}

fn patch_account_schema() -> utoipa::openapi::Schema {
    use utoipa::openapi::schema::{OneOfBuilder, Type};
    use utoipa::{PartialSchema, openapi::ObjectBuilder};
    OneOfBuilder::new()
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .item(
            ObjectBuilder::new()
                .schema_type(Type::Object)
                .max_properties(Some(0))
                .description(Some("`{}`: removes the account (no new mandates)")),
        )
        .item(AccountInput::schema())
        .description(Some(
            "Replaces the receiving account as a whole (as on creation); `{}` removes it,              null or absent keeps it.",
        ))
        .build()
        .into()
}

/// A provider's TLS material. `clientCertPem` and `clientKeyPem` come together.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TlsInput {
    /// PEM certificates trusted beside the public roots: the PSP's private CA.
    #[schema(max_length = 16384)]
    pub ca_pem: Option<String>,
    /// The mTLS client certificate as PEM, optionally followed by its chain.
    #[schema(max_length = 16384)]
    pub client_cert_pem: Option<String>,
    /// The client certificate's private key as PEM (PKCS#8, PKCS#1 or SEC1; RSA, ECDSA or
    /// Ed25519). Stored sealed, never returned.
    #[schema(max_length = 16384)]
    pub client_key_pem: Option<String>,
}

/// Body of `POST /providers`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(example = json!({
    "code": "psp-a", "name": "PSP A", "apiBaseUrl": "https://pix.psp-a.example/api/v2",
    "clientId": "pixgate", "clientSecret": "s3cret", "pixKey": "2f9a8c4e-1b7d-4f3a-9c2e-5d6b7a8f9e01"
}))]
pub struct CreateProvider {
    /// Unique; what gateways name as their `providerCode`.
    #[schema(pattern = "^[A-Za-z0-9._-]{1,64}$", example = "psp-a")]
    pub code: String,
    /// Not all blank, no control characters; stored trimmed.
    #[schema(
        min_length = 1,
        max_length = 200,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF][^\u0000-\u001F\u007F-\u009F]*$"
    )]
    pub name: String,
    /// The API Pix base URL (see [`api_base_url_schema`] for the rule).
    #[schema(schema_with = api_base_url_schema)]
    pub api_base_url: String,
    /// The OAuth2 token endpoint; null or absent: `{apiBaseUrl}/oauth/token`.
    #[schema(schema_with = token_url_schema)]
    pub token_url: Option<String>,
    /// OAuth2 client id: 1 to 256 characters, no control characters.
    #[schema(min_length = 1, max_length = 256)]
    pub client_id: String,
    /// OAuth2 client secret: 1 to 1024 characters, no control characters. Stored sealed,
    /// never returned.
    #[schema(min_length = 1, max_length = 1024)]
    pub client_secret: String,
    /// The receiving pix key (DICT): a CPF (11 digits) or CNPJ (14 characters) without
    /// punctuation, an email, a phone as `+` and digits, or a random key (UUID).
    #[schema(
        min_length = 1,
        max_length = 77,
        example = "2f9a8c4e-1b7d-4f3a-9c2e-5d6b7a8f9e01"
    )]
    pub pix_key: String,
    pub tls: Option<TlsInput>,
    /// The receiving account (see [`create_account_schema`]).
    #[schema(schema_with = create_account_schema)]
    pub account: Option<AccountInput>,
}

/// Body of `PATCH /providers/{code}`: a field that is absent or null stays as it is.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PatchProvider {
    #[schema(
        min_length = 1,
        max_length = 200,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF][^\u0000-\u001F\u007F-\u009F]*$"
    )]
    pub name: Option<String>,
    /// As on creation. A token URL that was never set follows the new base URL.
    #[schema(schema_with = new_api_base_url_schema)]
    pub api_base_url: Option<String>,
    #[schema(schema_with = new_token_url_schema)]
    pub token_url: Option<String>,
    #[schema(min_length = 1, max_length = 256)]
    pub client_id: Option<String>,
    #[schema(min_length = 1, max_length = 1024)]
    pub client_secret: Option<String>,
    #[schema(min_length = 1, max_length = 77)]
    pub pix_key: Option<String>,
    /// Replaces the TLS material as a whole; `{}` removes it.
    pub tls: Option<TlsInput>,
    /// The receiving account (see [`patch_account_schema`]).
    #[schema(schema_with = patch_account_schema)]
    pub account: Option<AccountChange>,
    /// An inactive provider is not called.
    pub active: Option<bool>,
}

/// The TLS material after validation.
#[derive(Debug, Default)]
pub struct TlsMaterial {
    pub ca_pem: Option<String>,
    pub identity: Option<ClientIdentity>,
}

/// A client certificate with the key that belongs to it.
#[derive(Debug)]
pub struct ClientIdentity {
    pub cert_pem: String,
    pub key_pem: Secret,
}

/// A provider to create, every field checked.
#[derive(Debug)]
pub struct NewProvider {
    pub code: String,
    pub name: String,
    pub api_base_url: String,
    pub token_url: Option<String>,
    pub client_id: String,
    pub client_secret: Secret,
    pub pix_key: String,
    pub tls: TlsMaterial,
    pub account: Option<ProviderAccount>,
}

/// What to change, every field checked.
#[derive(Debug, Default)]
pub struct ProviderChanges {
    pub name: Option<String>,
    pub api_base_url: Option<String>,
    pub token_url: Option<String>,
    pub client_id: Option<String>,
    pub client_secret: Option<Secret>,
    pub pix_key: Option<String>,
    pub tls: Option<TlsMaterial>,
    /// `Some(None)`: the account removed.
    pub account: Option<Option<ProviderAccount>>,
    pub active: Option<bool>,
}

impl CreateProvider {
    /// Checks the provider's own rules; `name` is the admin API's checked and trimmed name.
    pub fn validate(self, name: String) -> Result<NewProvider, ProviderError> {
        Ok(NewProvider {
            code: self.code,
            name,
            api_base_url: endpoint_url(&self.api_base_url, "apiBaseUrl")?,
            token_url: self
                .token_url
                .as_deref()
                .map(|u| endpoint_url(u, "tokenUrl"))
                .transpose()?,
            client_id: credential(&self.client_id, "clientId", "invalid_client_id", 256)?,
            client_secret: Secret::new(credential(
                &self.client_secret,
                "clientSecret",
                "invalid_client_secret",
                1024,
            )?),
            pix_key: pix_key(&self.pix_key)?,
            tls: self
                .tls
                .map(TlsInput::validate)
                .transpose()?
                .unwrap_or_default(),
            account: self.account.map(AccountInput::validate).transpose()?,
        })
    }
}

impl PatchProvider {
    /// Checks the provider's own rules; `name` is the admin API's checked and trimmed name.
    pub fn validate(self, name: Option<String>) -> Result<ProviderChanges, ProviderError> {
        Ok(ProviderChanges {
            name,
            api_base_url: self
                .api_base_url
                .as_deref()
                .map(|u| endpoint_url(u, "apiBaseUrl"))
                .transpose()?,
            token_url: self
                .token_url
                .as_deref()
                .map(|u| endpoint_url(u, "tokenUrl"))
                .transpose()?,
            client_id: self
                .client_id
                .as_deref()
                .map(|c| credential(c, "clientId", "invalid_client_id", 256))
                .transpose()?,
            client_secret: self
                .client_secret
                .as_deref()
                .map(|c| credential(c, "clientSecret", "invalid_client_secret", 1024))
                .transpose()?
                .map(Secret::new),
            pix_key: self.pix_key.as_deref().map(pix_key).transpose()?,
            tls: self.tls.map(TlsInput::validate).transpose()?,
            account: self.account.map(AccountChange::validate).transpose()?,
            active: self.active,
        })
    }
}

impl AccountInput {
    fn validate(self) -> Result<ProviderAccount, ProviderError> {
        Ok(ProviderAccount {
            branch: account_branch(&self.branch)?,
            number: account_number(&self.number)?,
            kind: self.kind,
        })
    }
}

impl AccountChange {
    /// The new account, or `None` for `{}` (removed).
    fn validate(self) -> Result<Option<ProviderAccount>, ProviderError> {
        match (self.branch, self.number, self.kind) {
            (None, None, None) => Ok(None),
            (Some(branch), Some(number), Some(kind)) => AccountInput {
                branch,
                number,
                kind,
            }
            .validate()
            .map(Some),
            (branch, number, _) => {
                let missing = if branch.is_none() {
                    "account.branch"
                } else if number.is_none() {
                    "account.number"
                } else {
                    "account.type"
                };
                Err(invalid(
                    "missing_field",
                    missing,
                    format!(
                        "`{missing}` is missing: `account` is `branch`, `number` and `type` \
                         together, or `{{}}` to remove it"
                    ),
                ))
            }
        }
    }
}

/// `account.branch`: [`ACCOUNT_BRANCH_PATTERN`].
fn account_branch(raw: &str) -> Result<String, ProviderError> {
    if (1..=4).contains(&raw.len()) && raw.bytes().all(|b| b.is_ascii_digit()) {
        Ok(raw.to_owned())
    } else {
        Err(invalid(
            "invalid_account",
            "account.branch",
            "`account.branch` must be 1 to 4 digits (the branch without its check digit)",
        ))
    }
}

/// `account.number`: [`ACCOUNT_NUMBER_PATTERN`], returned as digits only.
fn account_number(raw: &str) -> Result<String, ProviderError> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let number = match raw.split_once('-') {
        None if digits(raw) => Some(raw.to_owned()),
        Some((head, check)) if digits(head) && check.len() == 1 && digits(check) => {
            Some(format!("{head}{check}"))
        }
        _ => None,
    };
    match number {
        Some(n) if n.len() <= 20 => Ok(n),
        _ => Err(invalid(
            "invalid_account",
            "account.number",
            "`account.number` must be the account number with its check digit: 1 to 20 \
             digits in all, the check digit joined or after a `-`",
        )),
    }
}

impl TlsInput {
    fn validate(self) -> Result<TlsMaterial, ProviderError> {
        let pem = |value: Option<String>, field: &str, code: &'static str| {
            value
                .map(|v| {
                    if v.chars().count() > PEM_MAX_CHARS {
                        Err(invalid(
                            code,
                            field,
                            format!("`{field}` is over 16384 characters"),
                        ))
                    } else {
                        Ok(v)
                    }
                })
                .transpose()
        };
        let ca_pem = pem(self.ca_pem, "tls.caPem", "invalid_ca_pem")?;
        let cert_pem = pem(
            self.client_cert_pem,
            "tls.clientCertPem",
            "invalid_client_cert_pem",
        )?;
        let key_pem = pem(
            self.client_key_pem,
            "tls.clientKeyPem",
            "invalid_client_key_pem",
        )?;
        if let Some(ca) = &ca_pem {
            tls::certificates(ca)
                .map_err(|e| invalid("invalid_ca_pem", "tls.caPem", format!("`tls.caPem`: {e}")))?;
        }
        let certs = cert_pem
            .as_deref()
            .map(|pem| {
                tls::certificates(pem).map_err(|e| {
                    invalid(
                        "invalid_client_cert_pem",
                        "tls.clientCertPem",
                        format!("`tls.clientCertPem`: {e}"),
                    )
                })
            })
            .transpose()?;
        let key = key_pem
            .as_deref()
            .map(|pem| {
                tls::private_key(pem).map_err(|e| {
                    invalid(
                        "invalid_client_key_pem",
                        "tls.clientKeyPem",
                        format!("`tls.clientKeyPem`: {e}"),
                    )
                })
            })
            .transpose()?;
        let identity = match (cert_pem, certs, key_pem, key) {
            (Some(cert_pem), Some(certs), Some(key_pem), Some(key)) => {
                tls::check_identity(&certs, &key).map_err(|e| match e {
                    tls::TlsError::KeyMismatch => ProviderError::Unprocessable {
                        code: "client_key_mismatch",
                        field: "tls.clientKeyPem".into(),
                        message: "`tls.clientKeyPem` is not the key of `tls.clientCertPem`".into(),
                    },
                    other => invalid(
                        "invalid_client_key_pem",
                        "tls.clientKeyPem",
                        format!("`tls.clientKeyPem`: {other}"),
                    ),
                })?;
                Some(ClientIdentity {
                    cert_pem,
                    key_pem: Secret::new(key_pem),
                })
            }
            (None, _, None, _) => None,
            (Some(_), ..) => {
                return Err(ProviderError::Unprocessable {
                    code: "incomplete_client_identity",
                    field: "tls.clientKeyPem".into(),
                    message: "`tls.clientCertPem` needs `tls.clientKeyPem`".into(),
                });
            }
            (None, ..) => {
                return Err(ProviderError::Unprocessable {
                    code: "incomplete_client_identity",
                    field: "tls.clientCertPem".into(),
                    message: "`tls.clientKeyPem` needs `tls.clientCertPem`".into(),
                });
            }
        };
        Ok(TlsMaterial { ca_pem, identity })
    }
}

fn invalid(code: &'static str, field: &str, message: impl Into<String>) -> ProviderError {
    ProviderError::Invalid(Invalid::new(code, field, message))
}

/// Whether `host` is this machine: the only hosts `http://` is accepted for.
fn loopback(host: url::Host<&str>) -> bool {
    match host {
        url::Host::Ipv4(ip) => ip.is_loopback(),
        url::Host::Ipv6(ip) => ip.is_loopback(),
        url::Host::Domain(name) => name.eq_ignore_ascii_case("localhost"),
    }
}

/// An API Pix or token URL: absolute, https (http for loopback only), a host, no
/// credentials, query or fragment. Returned without a trailing slash.
fn endpoint_url(raw: &str, field: &str) -> Result<String, ProviderError> {
    let bad = |why: &str| invalid("invalid_url", field, format!("`{field}` {why}"));
    if raw.chars().count() > URL_MAX_CHARS {
        return Err(bad("is over 2048 characters"));
    }
    let url = Url::parse(raw).map_err(|_| bad("is not an absolute URL"))?;
    let host = url.host().ok_or_else(|| bad("has no host"))?;
    if !url.username().is_empty() || url.password().is_some() {
        return Err(bad("must not carry credentials"));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(bad("must not have a query or fragment"));
    }
    match url.scheme() {
        "https" => {}
        "http" if loopback(host) => {}
        "http" => {
            return Err(invalid(
                "url_not_https",
                field,
                format!("`{field}` must be https (http only on a loopback host)"),
            ));
        }
        _ => return Err(bad("must be an https URL")),
    }
    // The `url` crate reads leniently (blanks around, `\\` for `/`, a host in Unicode, a
    // trailing dot): the document's pattern, checked last so that every breach above keeps its
    // own message, holds the URL to the one form it states.
    if !PROVIDER_URL.is_match(raw) {
        return Err(bad("is not in the form the API document states"));
    }
    Ok(url.as_str().trim_end_matches('/').to_owned())
}

/// The token endpoint a provider without its own uses.
pub(super) fn default_token_url(api_base_url: &str) -> String {
    format!("{}/oauth/token", api_base_url.trim_end_matches('/'))
}

fn credential(
    value: &str,
    field: &str,
    code: &'static str,
    max: usize,
) -> Result<String, ProviderError> {
    // The message states the rule, never the value.
    bounded(value, field, code, 1, max).map_err(ProviderError::Invalid)
}

/// A DICT key: CPF or CNPJ without punctuation, email, `+` phone, or random key (EVP).
fn pix_key(raw: &str) -> Result<String, ProviderError> {
    let bytes = raw.as_bytes();
    let tax_id = |kind: TaxIdKind| TaxId::parse(raw).is_some_and(|t| t.kind() == kind);
    let ok = match raw.len() {
        0 | 78.. => false,
        _ if raw.starts_with('+') => {
            (3..=16).contains(&raw.len())
                && bytes[1] != b'0'
                && bytes[1..].iter().all(u8::is_ascii_digit)
        }
        _ if raw.contains('@') => Email::parse(raw).is_some_and(|e| e.as_str() == raw),
        11 if bytes.iter().all(u8::is_ascii_digit) => tax_id(TaxIdKind::Cpf),
        14 if bytes
            .iter()
            .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase()) =>
        {
            tax_id(TaxIdKind::Cnpj)
        }
        36 => uuid::Uuid::try_parse(raw).is_ok(),
        _ => false,
    };
    if ok {
        Ok(raw.to_owned())
    } else {
        Err(invalid(
            "invalid_pix_key",
            "pixKey",
            "`pixKey` must be a DICT key: a CPF or CNPJ without punctuation, an email, a phone \
             as + and digits, or a random key (UUID)",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::psp::client::tls::tests::test_pki;

    fn code(e: ProviderError) -> (&'static str, String) {
        match e {
            ProviderError::Invalid(i) => (i.code, i.field.unwrap_or_default()),
            ProviderError::Unprocessable { code, field, .. } => (code, field),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn urls_are_https_or_loopback_http() {
        for (raw, normalised) in [
            (
                "https://pix.example.com/api/v2",
                "https://pix.example.com/api/v2",
            ),
            (
                "https://pix.example.com/api/v2/",
                "https://pix.example.com/api/v2",
            ),
            ("https://PIX.example.com", "https://pix.example.com"),
            (
                "https://pix.example.com:8443/",
                "https://pix.example.com:8443",
            ),
            ("http://127.0.0.1:9000/", "http://127.0.0.1:9000"),
            ("http://127.8.9.10/api", "http://127.8.9.10/api"),
            ("http://[::1]:9000", "http://[::1]:9000"),
            (
                "http://localhost:9000/api/v2",
                "http://localhost:9000/api/v2",
            ),
        ] {
            assert_eq!(
                endpoint_url(raw, "apiBaseUrl").unwrap(),
                normalised,
                "{raw}"
            );
        }
        for (raw, expected) in [
            ("http://pix.example.com", "url_not_https"),
            ("http://10.0.0.1", "url_not_https"),
            ("http://[::ffff:127.0.0.1]", "url_not_https"),
            ("http://localhost.example.com", "url_not_https"),
            ("ftp://pix.example.com", "invalid_url"),
            ("pix.example.com", "invalid_url"),
            ("/api/v2", "invalid_url"),
            ("", "invalid_url"),
            ("https://user:pw@pix.example.com", "invalid_url"),
            ("https://pix.example.com/?a=1", "invalid_url"),
            ("https://pix.example.com/#x", "invalid_url"),
            ("https://", "invalid_url"),
            ("file:///etc/passwd", "invalid_url"),
            // What the `url` crate reads leniently, and the document's pattern refuses.
            (" https://pix.example.com", "invalid_url"),
            ("https:pix.example.com", "invalid_url"),
            ("https:\\\\pix.example.com", "invalid_url"),
            ("https://pix.example.com.", "invalid_url"),
            ("https://açaí.com.br", "invalid_url"),
            ("https://pix.example.com:/", "invalid_url"),
            ("https://pix.example.com/a b", "invalid_url"),
            ("https://[2001:db8::1]/", "invalid_url"),
        ] {
            let (c, field) = code(endpoint_url(raw, "tokenUrl").unwrap_err());
            assert_eq!((c, field.as_str()), (expected, "tokenUrl"), "{raw}");
        }
        let long = format!("https://pix.example.com/{}", "a".repeat(2048));
        assert_eq!(
            code(endpoint_url(&long, "apiBaseUrl").unwrap_err()).0,
            "invalid_url"
        );
        assert_eq!(
            default_token_url("https://pix.example.com/api/v2"),
            "https://pix.example.com/api/v2/oauth/token"
        );
    }

    #[test]
    fn pix_keys_are_dict_keys() {
        for good in [
            "52998224725",
            "11222333000181",
            "12ABC34501DE35",
            "pix@acme.com.br",
            "+5511987654321",
            "2f9a8c4e-1b7d-4f3a-9c2e-5d6b7a8f9e01",
        ] {
            assert!(pix_key(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "52998224724",
            "529.982.247-25",
            "11111111111",
            "11.222.333/0001-81",
            "+0511987654321",
            "+55 11 98765-4321",
            "+1",
            "not-an-email@",
            " pix@acme.com.br",
            "2f9a8c4e1b7d4f3a9c2e5d6b7a8f9e01",
            "random",
            &format!("{}@acme.com", "a".repeat(70)),
        ] {
            assert_eq!(
                code(pix_key(bad).unwrap_err()).0,
                "invalid_pix_key",
                "{bad:?}"
            );
        }
    }

    fn create(tls: Option<TlsInput>) -> CreateProvider {
        CreateProvider {
            code: "psp-a".into(),
            name: "PSP A".into(),
            api_base_url: "https://pix.example.com/api/v2/".into(),
            token_url: None,
            client_id: "pixgate".into(),
            client_secret: "s3cret".into(),
            pix_key: "pix@acme.com.br".into(),
            tls,
            account: None,
        }
    }

    #[test]
    fn accounts_are_digits_with_an_optional_check_digit_after_a_hyphen() {
        let number_pattern = regex::Regex::new(ACCOUNT_NUMBER_PATTERN).unwrap();
        let branch_pattern = regex::Regex::new(ACCOUNT_BRANCH_PATTERN).unwrap();
        let stored_pattern = regex::Regex::new(ACCOUNT_STORED_NUMBER_PATTERN).unwrap();
        for (raw, stored) in [
            ("1", "1"),
            ("12345678", "12345678"),
            ("1234567-8", "12345678"),
            ("0-0", "00"),
            ("12345678901234567890", "12345678901234567890"),
            ("1234567890123456789-0", "12345678901234567890"),
        ] {
            assert_eq!(account_number(raw).unwrap(), stored, "{raw}");
            assert!(number_pattern.is_match(raw), "{raw}");
            assert!(stored_pattern.is_match(stored), "{stored}");
        }
        for bad in [
            "",
            "-",
            "-1",
            "1-",
            "1234-56",
            "1234-5-6",
            "1234567-X",
            "12345678901234567890-1",
            "123456789012345678901",
            " 123",
            "12 34",
            "١٢٣",
            "1234\u{0}",
        ] {
            assert_eq!(
                code(account_number(bad).unwrap_err()),
                ("invalid_account", "account.number".into()),
                "{bad:?}"
            );
            assert!(!number_pattern.is_match(bad), "{bad:?}");
        }
        for good in ["0", "0001", "1234"] {
            assert_eq!(account_branch(good).unwrap(), good);
            assert!(branch_pattern.is_match(good));
        }
        for bad in ["", "12345", "12-3", "a1", " 1", "١"] {
            assert_eq!(
                code(account_branch(bad).unwrap_err()),
                ("invalid_account", "account.branch".into()),
                "{bad:?}"
            );
            assert!(!branch_pattern.is_match(bad), "{bad:?}");
        }
    }

    #[test]
    fn an_account_change_is_all_three_fields_or_none() {
        let change = |v: serde_json::Value| serde_json::from_value::<AccountChange>(v);
        assert_eq!(
            change(serde_json::json!({})).unwrap().validate().unwrap(),
            None
        );
        let set =
            change(serde_json::json!({"branch": "0001", "number": "1234-5", "type": "POUPANCA"}))
                .unwrap()
                .validate()
                .unwrap()
                .unwrap();
        assert_eq!(
            set,
            ProviderAccount {
                branch: "0001".into(),
                number: "12345".into(),
                kind: AccountType::Poupanca,
            }
        );
        let missing = change(serde_json::json!({"branch": "0001", "type": "CORRENTE"}))
            .unwrap()
            .validate()
            .unwrap_err();
        assert_eq!(code(missing), ("missing_field", "account.number".into()));
        // Null is a wrong type, not an absence.
        assert!(change(serde_json::json!({"branch": null})).is_err());
        assert!(change(serde_json::json!({"type": "SALARIO"})).is_err());
        assert!(change(serde_json::json!({"extra": 1})).is_err());
        // On creation.
        let mut body = create(None);
        body.account = Some(AccountInput {
            branch: "12".into(),
            number: "9-9".into(),
            kind: AccountType::Pagamento,
        });
        let new = body.validate("x".into()).unwrap();
        assert_eq!(new.account.unwrap().number, "99");
        let mut body = create(None);
        body.account = Some(AccountInput {
            branch: "12345".into(),
            number: "9".into(),
            kind: AccountType::Pagamento,
        });
        assert_eq!(
            code(body.validate("x".into()).unwrap_err()),
            ("invalid_account", "account.branch".into())
        );
    }

    #[test]
    fn a_valid_body_gives_a_new_provider() {
        let pki = test_pki();
        let new = create(Some(TlsInput {
            ca_pem: Some(pki.ca_pem.clone()),
            client_cert_pem: Some(pki.client_cert_pem.clone()),
            client_key_pem: Some(pki.client_key_pem.clone()),
        }))
        .validate("PSP A".into())
        .unwrap();
        assert_eq!(new.api_base_url, "https://pix.example.com/api/v2");
        assert_eq!(new.token_url, None);
        assert_eq!(new.client_secret.expose(), "s3cret");
        let identity = new.tls.identity.unwrap();
        assert_eq!(identity.cert_pem, pki.client_cert_pem);
        assert!(!format!("{identity:?}").contains("PRIVATE KEY"));
        assert!(
            create(None)
                .validate("x".into())
                .unwrap()
                .tls
                .identity
                .is_none()
        );
    }

    #[test]
    fn bad_material_names_its_field() {
        let pki = test_pki();
        let tls = |ca: Option<&str>, cert: Option<&str>, key: Option<&str>| {
            create(Some(TlsInput {
                ca_pem: ca.map(str::to_owned),
                client_cert_pem: cert.map(str::to_owned),
                client_key_pem: key.map(str::to_owned),
            }))
            .validate("x".into())
            .unwrap_err()
        };
        let cert = Some(pki.client_cert_pem.as_str());
        let key = Some(pki.client_key_pem.as_str());
        for (e, expected, field) in [
            (tls(Some("junk"), None, None), "invalid_ca_pem", "tls.caPem"),
            (
                tls(None, Some("junk"), key),
                "invalid_client_cert_pem",
                "tls.clientCertPem",
            ),
            (
                tls(None, cert, Some("junk")),
                "invalid_client_key_pem",
                "tls.clientKeyPem",
            ),
            (
                tls(None, cert, Some(&pki.other_key_pem)),
                "client_key_mismatch",
                "tls.clientKeyPem",
            ),
            (
                tls(None, cert, None),
                "incomplete_client_identity",
                "tls.clientKeyPem",
            ),
            (
                tls(None, None, key),
                "incomplete_client_identity",
                "tls.clientCertPem",
            ),
            (
                tls(Some(&"a".repeat(PEM_MAX_CHARS + 1)), None, None),
                "invalid_ca_pem",
                "tls.caPem",
            ),
        ] {
            assert_eq!(code(e), (expected, field.to_owned()));
        }
        // The secret's value never appears in its refusal.
        let mut body = create(None);
        body.client_secret = "top\u{7}secret".into();
        let e = body.validate("x".into()).unwrap_err();
        assert!(!e.to_string().contains("top"), "{e}");
        assert_eq!(code(e).0, "invalid_client_secret");
    }
}
