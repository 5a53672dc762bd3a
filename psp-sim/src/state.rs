//! What the simulator holds: charges (with the pix they received and those pix's devoluções),
//! webhooks, tokens, the switches the control routes set, and the counters they read. One mutex
//! over all of it: the simulator serves tests, and one lock makes every request see a
//! consistent PSP (never a charge half paid, never two devoluções squeezed into one pix's
//! last centavos).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::{SimArgs, SimError};
use pixgate_pix::apipix::{CobCompleta, CobVCompleta, Pix, Txid};

/// The simulator: its settings, its state and its HTTP client for callbacks.
pub(super) struct Sim {
    pub settings: Settings,
    pub callbacks: super::callbacks::Sender,
    state: Mutex<State>,
}

/// What the flags fixed at start.
pub(super) struct Settings {
    pub client_id: String,
    pub client_secret: String,
    pub token_expires_in: u64,
    pub merchant_name: String,
    pub merchant_city: String,
    pub location_base: String,
    /// The path part of `location_base` (`/qr/v2`, or empty): the payer PSP's view of a
    /// `cobv` is served at `{payload_path}/cobv/{pixUrlAccessToken}`.
    pub payload_path: String,
    pub payer_ispb: String,
    /// The simulated PSP's own ISPB, in the rtrIds of its devoluções.
    pub ispb: String,
}

/// A registered webhook.
pub(super) struct Webhook {
    pub url: String,
    pub criacao_ms: i64,
}

#[derive(Default)]
pub(super) struct State {
    /// Each charge holds the pix it received, and each pix its devoluções: `GET /cob` shows
    /// them as the standard nests them, with no second copy to keep in step.
    pub cobs: HashMap<Txid, CobCompleta>,
    /// Charges with a due date, held as `cobs` are. A txid names a `cob` or a `cobv`, never
    /// both.
    pub cobvs: HashMap<Txid, CobVCompleta>,
    /// The `pixUrlAccessToken` of each cobv's location -> its txid.
    pub cobv_tokens: HashMap<String, Txid>,
    /// `lotecobv` batches by id.
    pub lotes: BTreeMap<i64, super::cobv::lote::Lote>,
    /// txid -> the batch that asked for it (whatever became of the request).
    pub lote_of: HashMap<Txid, i64>,
    /// endToEndId -> the charge (`cob` or `cobv`) whose `pix[]` holds that pix.
    pub pix_index: HashMap<String, Txid>,
    /// Pix to the key with no charge behind them (`POST /_sim/pix`, a static QR code), by
    /// endToEndId, with the key paid.
    pub keyed_pix: HashMap<String, (Pix, String)>,
    /// Devoluções answered `EM_PROCESSAMENTO`, by (endToEndId, id): how and when each settles.
    pub pending: BTreeMap<(String, String), Pending>,
    pub next_loc_id: i64,
    pub webhooks: HashMap<String, Webhook>,
    /// Access token -> when it expires (Unix ms).
    pub tokens: HashMap<String, i64>,
    pub switches: Switches,
    pub faults: Option<Faults>,
    /// Callbacks kept back while `switches.callbacks.hold` is on, in the order they arose.
    pub held: Vec<(String, Pix)>,
    pub deliveries: Vec<Delivery>,
    pub stats: Stats,
    /// Pix Automático: locations, recurrences, requests, recurring charges, their webhooks.
    pub rec: super::rec::RecState,
    /// Charges paid with `unseen`: how many more reads (`GET /cob/{txid}`) answer them as
    /// they were before the payment.
    pub unseen: HashMap<Txid, u32>,
    /// Pix `GET /pix` leaves out (`POST /_sim/pix/{e2eid}/unlist`: a PSP that lists late).
    pub unlisted: std::collections::HashSet<String>,
}

/// Switches that stay as set until set again (`PUT /_sim/switches`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct Switches {
    /// Added before every API answer.
    pub latency_ms: u64,
    /// Leave `pixCopiaECola` out of charges, as PSPs on versions before 2.x of the standard do.
    pub omit_pix_copia_e_cola: bool,
    pub callbacks: CallbackSwitches,
    pub devolucoes: DevolucaoSwitches,
    #[serde(default)]
    pub lotecobv: LoteSwitches,
}

impl Switches {
    /// What no merge patch may leave behind: a refusal needs its reason.
    pub fn check(&self) -> Result<(), (&'static str, &'static str)> {
        let d = &self.devolucoes;
        match &d.motivo {
            None if d.settle_as == SettleAs::NaoRealizado => Err((
                "body.devolucoes.motivo",
                "settleAs NAO_REALIZADO needs a motivo",
            )),
            Some(m) if m.is_empty() || m.chars().count() > 140 => Err((
                "body.devolucoes.motivo",
                "motivo must be 1 to 140 characters",
            )),
            _ => Ok(()),
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct CallbackSwitches {
    /// Send no callback (they are counted as dropped).
    pub drop: bool,
    /// Send every callback twice.
    pub duplicate: bool,
    /// Keep callbacks back until `POST /_sim/callbacks/flush`, which can reorder and batch them.
    pub hold: bool,
}

/// How the devoluções asked from now on settle, and whether their answers get lost.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct DevolucaoSwitches {
    /// What a new devolução ends as.
    pub settle_as: SettleAs,
    /// 0: settled within the PUT, whose answer says so. More: the PUT answers
    /// `EM_PROCESSAMENTO`, and the devolução settles (with its callback) this much later, or
    /// sooner through `POST /_sim/pix/{e2eid}/devolucao/{id}/settle` or `/fail`.
    pub settle_after_ms: u64,
    /// The `motivo` of a devolução that ends `NAO_REALIZADO` (required then).
    pub motivo: Option<String>,
    /// Process every `PUT /pix/{e2eid}/devolucao/{id}` as usual, then answer 504 instead of
    /// its answer: the PSP acted, the client cannot know it (see [`FaultKind`] for the same
    /// loss on demand, once).
    pub drop_answer: bool,
}

/// How `PUT /lotecobv/{id}` processes its items.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct LoteSwitches {
    /// 0: every item is `CRIADA` or `NEGADA` when the 202 is answered. More: the items stay
    /// `EM_PROCESSAMENTO` this long (reads show it), then are processed all at once.
    pub process_after_ms: u64,
    /// Payers' documents (a CPF's 11 digits or a CNPJ's 14 characters, without punctuation)
    /// the PSP will not bill in a batch: an item whose `devedor` has one is `NEGADA`
    /// (`CobVOperacaoInvalida` naming `cobv.devedor.cpf` or `.cnpj`), as a PSP denies a payer
    /// its own rules refuse; the other items go on.
    #[serde(default)]
    pub deny_documents: Vec<String>,
}

/// The end a devolução is given by the switches.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub(super) enum SettleAs {
    #[default]
    Devolvido,
    NaoRealizado,
}

/// A devolução still `EM_PROCESSAMENTO`: when it settles by itself, and as what.
#[derive(Debug, Clone)]
pub(super) struct Pending {
    pub at_ms: i64,
    /// `None`: `DEVOLVIDO`; `Some(motivo)`: `NAO_REALIZADO`.
    pub refusal: Option<String>,
}

/// Faults for the next `remaining` API requests (`POST /_sim/faults`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct Faults {
    #[serde(rename = "count")]
    pub remaining: u32,
    pub kind: FaultKind,
    /// The status of an `error` fault, 500 to 599.
    #[serde(default = "default_fault_status")]
    pub status: u16,
    /// How long a `hang` lasts before the simulator answers 503 after all.
    #[serde(default = "default_hang_ms")]
    pub hang_ms: u64,
    /// Fail after doing what was asked (the charge is created, the answer lost), instead of
    /// before.
    #[serde(default)]
    pub after_processing: bool,
    /// Only requests to this route, e.g. `PUT /cob/{txid}`; all API routes when absent.
    #[serde(default)]
    pub route: Option<String>,
}

fn default_fault_status() -> u16 {
    503
}

fn default_hang_ms() -> u64 {
    30_000
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum FaultKind {
    Error,
    Hang,
}

/// One callback POST and how it went.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Delivery {
    pub url: String,
    pub end_to_end_ids: Vec<String>,
    /// The receiver's HTTP status, when it answered.
    pub status: Option<u16>,
    pub error: Option<String>,
    pub at_ms: i64,
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Stats {
    /// `PUT /cob/{txid}` requests processed, per txid: more than one means retries, and
    /// `cobsCreated` still counts the charge once.
    pub put_cob: BTreeMap<String, u64>,
    pub cobs_created: u64,
    /// `PUT /cobv/{txid}` requests processed, per txid, as `putCob`.
    pub put_cobv: BTreeMap<String, u64>,
    /// Charges with a due date created, by `PUT /cobv/{txid}` or in a batch.
    pub cobvs_created: u64,
    /// `PUT /lotecobv/{id}` requests processed, per id (refused ones included).
    pub put_lotecobv: BTreeMap<String, u64>,
    /// Requests per API route (`PUT /cob/{txid}`, `POST /oauth/token`, ...), faults included.
    pub routes: BTreeMap<String, u64>,
    pub tokens_issued: u64,
    pub rejected_tokens: u64,
    pub faults_injected: u64,
    /// `PUT /pix/{e2eid}/devolucao/{id}` requests processed for a pix the simulator received,
    /// per `{e2eid}/{id}`: refused ones (an id used already) included.
    pub put_devolucao: BTreeMap<String, u64>,
    /// Devoluções recorded, the MED's included.
    pub devolucoes_created: u64,
    /// `GET /pix/{e2eid}/devolucao/{id}` requests answered, found or not.
    pub get_devolucao: u64,
    /// `GET /pix` pages answered.
    pub list_pix: u64,
    /// Answers lost on purpose by the `devolucoes.dropAnswer` switch.
    pub answers_dropped: u64,
    /// The W3C `traceparent` of the last request per route that carried one: what a caller's
    /// tracing sent along (a test follows a trace through the PSP with it).
    pub traceparents: BTreeMap<String, String>,
    pub callbacks: CallbackStats,
    /// Pix Automático's counters (`recsCreated`, `cobrsCreated`, `retentativasAsked`, ...).
    #[serde(flatten)]
    pub rec: super::rec::RecStats,
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct CallbackStats {
    /// POSTs the receiver answered 2xx.
    pub delivered: u64,
    /// POSTs that failed or were answered otherwise.
    pub failed: u64,
    pub dropped: u64,
    pub held: u64,
}

impl Sim {
    pub fn new(args: &SimArgs) -> Result<Self, SimError> {
        let location_base = args.location_base.trim_end_matches('/').to_owned();
        // A location is the base, a slash and 32 characters; the BR Code carries at most 77.
        if location_base.is_empty() || location_base.len() + 33 > 77 {
            return Err(SimError::Usage(
                "--location-base must be 1 to 44 characters".to_owned(),
            ));
        }
        let payload_path = payload_path(&location_base).map_err(SimError::Usage)?;
        let eight_digits = |s: &str| s.len() == 8 && s.bytes().all(|b| b.is_ascii_digit());
        if !eight_digits(&args.payer_ispb) {
            return Err(SimError::Usage("--payer-ispb must be 8 digits".to_owned()));
        }
        if !eight_digits(&args.ispb) {
            return Err(SimError::Usage("--ispb must be 8 digits".to_owned()));
        }
        // Every charge's code is built from these: refuse at start what no code could carry.
        pixgate_pix::brcode::dynamic(
            &format!("{location_base}/{}", "0".repeat(32)),
            &args.merchant_name,
            &args.merchant_city,
        )
        .map_err(|e| SimError::Usage(format!("merchant name, city or location: {e}")))?;
        Ok(Self {
            settings: Settings {
                client_id: args.client_id.clone(),
                client_secret: args.client_secret.clone(),
                token_expires_in: args.token_expires_in,
                merchant_name: args.merchant_name.clone(),
                merchant_city: args.merchant_city.clone(),
                location_base,
                payload_path,
                payer_ispb: args.payer_ispb.clone(),
                ispb: args.ispb.clone(),
            },
            callbacks: super::callbacks::Sender::new(args.callback_ca.as_deref())?,
            state: Mutex::new(State {
                next_loc_id: 1,
                ..State::default()
            }),
        })
    }

    pub fn state(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves plain data behind, still consistent enough for
        // a simulator; serving on beats failing every later request.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The path under which the payer PSP's view of a `cobv` is served: the path part of
/// `--location-base` (what follows its host), so that a location's path is where its payload
/// is. Plain segments only (`[A-Za-z0-9._~-]`), and none of the simulator's own prefixes: it
/// becomes a route.
fn payload_path(location_base: &str) -> Result<String, String> {
    let base = location_base
        .strip_prefix("https://")
        .unwrap_or(location_base);
    let path = base.find('/').map_or("", |i| &base[i..]);
    let plain = |segment: &str| {
        !segment.is_empty()
            && segment != "."
            && segment != ".."
            && segment
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"._~-".contains(&b))
    };
    if !path.is_empty() && !path[1..].split('/').all(plain) {
        return Err(format!(
            "--location-base: its path {path} must be plain segments of [A-Za-z0-9._~-]"
        ));
    }
    let first = path.split('/').nth(1).unwrap_or("");
    if matches!(first, "api" | "_sim" | "oauth") {
        return Err(format!(
            "--location-base: its path {path} must not start with /api, /_sim or /oauth"
        ));
    }
    Ok(path.to_owned())
}

impl State {
    /// The pix of that endToEndId, and the key of the charge it paid (where callbacks go):
    /// a `cob`'s or a `cobv`'s, or for a recurring charge's [`super::rec::COBR_PIX_KEY`].
    pub fn pix_mut(&mut self, e2eid: &str) -> Option<(&mut Pix, &str)> {
        if let Some((pix, chave)) = self.keyed_pix.get_mut(e2eid) {
            return Some((pix, chave));
        }
        let txid = self.pix_index.get(e2eid)?;
        if let Some(cob) = self.cobs.get_mut(txid)
            && let Some(pix) = cob.pix.iter_mut().find(|p| p.end_to_end_id == e2eid)
        {
            return Some((pix, &cob.chave));
        }
        if let Some(cobv) = self.cobvs.get_mut(txid)
            && let Some(pix) = find_pix(&mut cobv.pix, e2eid)
        {
            return Some((pix, &cobv.chave));
        }
        let cobr = self.rec.cobrs.get_mut(txid)?;
        let pix = find_pix(&mut cobr.pix, e2eid)?;
        Some((pix, super::rec::COBR_PIX_KEY))
    }

    /// Every pix received, for `cob`s, `cobv`s and recurring charges, and to the key alone.
    pub fn all_pix(&self) -> impl Iterator<Item = &Pix> {
        self.cobs
            .values()
            .flat_map(|c| &c.pix)
            .chain(self.cobvs.values().flat_map(|c| &c.pix))
            .chain(self.rec.cobrs.values().flat_map(|c| &c.pix))
            .chain(self.keyed_pix.values().map(|(pix, _)| pix))
    }

    /// Whether the txid names a charge of any kind, or one a batch asked for.
    pub fn txid_taken(&self, txid: &Txid) -> bool {
        self.cobs.contains_key(txid)
            || self.cobvs.contains_key(txid)
            || self.lote_of.contains_key(txid)
            || self.rec.cobrs.contains_key(txid)
    }
}

fn find_pix<'a>(pix: &'a mut [Pix], e2eid: &str) -> Option<&'a mut Pix> {
    pix.iter_mut().find(|p| p.end_to_end_id == e2eid)
}

pub(super) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// `n` random characters of `[0-9A-Za-z]`.
pub(super) fn random_alnum(n: usize) -> Result<String, getrandom::Error> {
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut out = String::with_capacity(n);
    while out.len() < n {
        let mut buf = [0u8; 32];
        getrandom::fill(&mut buf)?;
        // 248 = 4 * 62: taking only bytes below it keeps every character equally likely.
        for b in buf.into_iter().filter(|b| *b < 248) {
            if out.len() == n {
                break;
            }
            out.push(char::from(ALPHABET[usize::from(b % 62)]));
        }
    }
    Ok(out)
}

/// `n` random lowercase hex characters.
pub(super) fn random_hex(n: usize) -> Result<String, getrandom::Error> {
    let mut buf = vec![0u8; n.div_ceil(2)];
    getrandom::fill(&mut buf)?;
    let mut hex = hex::encode(buf);
    hex.truncate(n);
    Ok(hex)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_payload_path_is_the_locations_path() {
        assert_eq!(payload_path("pix.example.com/qr/v2").unwrap(), "/qr/v2");
        assert_eq!(payload_path("https://pix.example.com/q").unwrap(), "/q");
        assert_eq!(payload_path("127.0.0.1:8443").unwrap(), "");
        assert_eq!(payload_path("h/a.b/c-d/e_f~").unwrap(), "/a.b/c-d/e_f~");
        for bad in [
            "h/api/v2",
            "h/_sim",
            "h/oauth/x",
            "h/{txid}",
            "h/a//b",
            "h/a/../b",
            "h/a b",
            "h/*x",
        ] {
            assert!(payload_path(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn random_identifiers_have_the_asked_shape() {
        let a = random_alnum(11).unwrap();
        assert_eq!(a.len(), 11);
        assert!(a.bytes().all(|b| b.is_ascii_alphanumeric()));
        assert_ne!(a, random_alnum(11).unwrap());
        let h = random_hex(32).unwrap();
        assert_eq!(h.len(), 32);
        assert!(h.bytes().all(|b| b.is_ascii_hexdigit()));
    }
}
