//! The BR Code: the text behind a PIX QR code and the "copy and paste" string, in the EMV
//! Merchant-Presented Mode format (a flat list of ID-length-value fields, some of them nested
//! lists) with the Central Bank's PIX template in field 26 and a CRC-16/CCITT-FALSE in field 63.
//!
//! pixgate shows the merchant the code a PSP returned (`pixCopiaECola`), so it checks the code
//! before handing it on ([`parse`]): a corrupted or foreign code would make a payer's app refuse
//! it, or worse, pay someone else. When a PSP returns only the charge's `location`, pixgate
//! builds the dynamic code itself ([`dynamic`]), exactly as the Central Bank's manual does.
//!
//! Lengths count characters: the manual limits the text to printable ASCII, where characters
//! and bytes agree, and counting characters also reads the codes of PSPs that put an accented
//! name in field 59 as the payer apps do. The CRC is over the UTF-8 bytes.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// The globally unique identifier of the PIX arrangement, in field 26-00.
const PIX_GUI: &str = "br.gov.bcb.pix";
/// ISO 4217 numeric code of the real, field 53.
const BRL: &str = "986";
/// Field 62-05 of a dynamic code: the txid is in the payload the location serves.
const NO_TXID: &str = "***";
/// EMV's limits on the merchant's name (59) and city (60).
const MAX_NAME: usize = 25;
const MAX_CITY: usize = 15;

/// CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF), which the `crc` catalogue names
/// after the IBM 3740 that used it first.
const CRC16: crc::Crc<u16> = crc::Crc::<u16>::new(&crc::CRC_16_IBM_3740);

/// Why a text is not a PIX BR Code, or a code cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BrCodeError {
    #[error("field at character {at}: ID and length must be 4 digits")]
    NotDigits { at: usize },
    #[error("field {id} at character {at}: its length runs past the end of the code")]
    Truncated { id: String, at: usize },
    #[error("field {id} appears twice")]
    Duplicate { id: String },
    #[error("field {id} is missing")]
    Missing { id: &'static str },
    #[error("field {id}: {reason}")]
    Invalid { id: &'static str, reason: String },
    #[error("the CRC (field 63) must be the last field")]
    CrcNotLast,
    #[error("CRC mismatch: the code says {found}, its content gives {computed}")]
    CrcMismatch { found: String, computed: String },
    #[error("no merchant account field (26-51) carries the PIX identifier br.gov.bcb.pix")]
    NotPix,
    #[error("the PIX account must carry either a key (26-01) or a location (26-25), not {0}")]
    KeyOrLocation(&'static str),
}

/// Where the payer's app learns whom to pay: a pix key (static code) or the URL of the
/// charge's payload at the PSP (dynamic code).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Account {
    Key(String),
    Location(String),
}

/// A parsed and checked PIX BR Code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrCode {
    account: Account,
    amount_centavos: Option<u64>,
    merchant_name: String,
    merchant_city: String,
    txid: Option<String>,
}

impl BrCode {
    /// The payload URL of a dynamic code (without its `https://`, as the code carries it).
    pub fn location(&self) -> Option<&str> {
        match &self.account {
            Account::Location(url) => Some(url),
            Account::Key(_) => None,
        }
    }

    /// The pix key of a static code.
    pub fn key(&self) -> Option<&str> {
        match &self.account {
            Account::Key(key) => Some(key),
            Account::Location(_) => None,
        }
    }

    /// Field 62-05, unless it is `***` (no txid in the code).
    pub fn txid(&self) -> Option<&str> {
        self.txid.as_deref()
    }

    /// Field 54, when the code fixes the amount.
    pub fn amount_centavos(&self) -> Option<u64> {
        self.amount_centavos
    }

    pub fn merchant_name(&self) -> &str {
        &self.merchant_name
    }

    pub fn merchant_city(&self) -> &str {
        &self.merchant_city
    }
}

/// One field: its two-digit ID, its value, and where it starts (for the error messages).
struct Field<'a> {
    id: &'a str,
    value: &'a str,
    at: usize,
}

/// Splits a list of ID-length-value fields. `offset` is where `text` starts in the code.
fn fields(text: &str, offset: usize) -> Result<Vec<Field<'_>>, BrCodeError> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut at = offset;
    while !rest.is_empty() {
        let head = rest
            .get(..4)
            .filter(|h| h.bytes().all(|b| b.is_ascii_digit()))
            .ok_or(BrCodeError::NotDigits { at })?;
        let (id, len) = head.split_at(2);
        let len: usize = len.parse().map_err(|_| BrCodeError::NotDigits { at })?;
        let body = &rest[4..];
        // The length counts characters; find the byte where the value ends.
        let end = match body.char_indices().nth(len) {
            Some((end, _)) => end,
            None if body.chars().count() == len => body.len(),
            None => {
                return Err(BrCodeError::Truncated {
                    id: id.to_owned(),
                    at,
                });
            }
        };
        if out.iter().any(|f: &Field<'_>| f.id == id) {
            return Err(BrCodeError::Duplicate { id: id.to_owned() });
        }
        out.push(Field {
            id,
            value: &body[..end],
            at,
        });
        at += 4 + body[..end].chars().count();
        rest = &body[end..];
    }
    Ok(out)
}

fn find<'a>(fields: &[Field<'a>], id: &'static str) -> Option<&'a str> {
    fields.iter().find(|f| f.id == id).map(|f| f.value)
}

fn require<'a>(fields: &[Field<'a>], id: &'static str) -> Result<&'a str, BrCodeError> {
    find(fields, id).ok_or(BrCodeError::Missing { id })
}

fn invalid(id: &'static str, reason: impl Into<String>) -> BrCodeError {
    BrCodeError::Invalid {
        id,
        reason: reason.into(),
    }
}

fn crc_hex(bytes: &[u8]) -> String {
    format!("{:04X}", CRC16.checksum(bytes))
}

/// Reads and checks a PIX BR Code: its field structure, the CRC, the payload format (00 = 01,
/// first), the PIX account (a field 26 to 51 whose 00 is `br.gov.bcb.pix`, with a key or a
/// location), category code (52), currency (53 = 986), amount (54, optional), country
/// (58 = BR), name (59), city (60) and the additional data (62, with its reference label 05).
pub fn parse(code: &str) -> Result<BrCode, BrCodeError> {
    let top = fields(code, 0)?;
    let crc = top.last().filter(|f| f.id == "63").ok_or_else(|| {
        if top.iter().any(|f| f.id == "63") {
            BrCodeError::CrcNotLast
        } else {
            BrCodeError::Missing { id: "63" }
        }
    })?;
    // The CRC covers everything before its value, its own ID and length included.
    let computed = crc_hex(&code.as_bytes()[..code.len() - crc.value.len()]);
    if !crc.value.eq_ignore_ascii_case(&computed) {
        return Err(BrCodeError::CrcMismatch {
            found: crc.value.to_owned(),
            computed,
        });
    }

    if top.first().map(|f| (f.id, f.value)) != Some(("00", "01")) {
        return Err(invalid(
            "00",
            "the code must start with payload format 01 (000201)",
        ));
    }
    if let Some(poi) = find(&top, "01")
        && poi != "11"
        && poi != "12"
    {
        return Err(invalid("01", "point of initiation must be 11 or 12"));
    }

    let account = pix_account(&top)?;

    let mcc = require(&top, "52")?;
    if mcc.len() != 4 || !mcc.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid("52", "merchant category code must be 4 digits"));
    }
    if require(&top, "53")? != BRL {
        return Err(invalid("53", "currency must be 986 (BRL)"));
    }
    let amount_centavos = find(&top, "54").map(parse_amount).transpose()?;
    if require(&top, "58")? != "BR" {
        return Err(invalid("58", "country must be BR"));
    }
    let merchant_name = require(&top, "59")?;
    if merchant_name.trim().is_empty() {
        return Err(invalid("59", "merchant name is empty"));
    }
    let merchant_city = require(&top, "60")?;
    if merchant_city.trim().is_empty() {
        return Err(invalid("60", "merchant city is empty"));
    }

    let additional = require(&top, "62")?;
    let at = top.iter().find(|f| f.id == "62").map_or(0, |f| f.at + 4);
    let additional = fields(additional, at)?;
    let txid = require(&additional, "05")
        .map_err(|_| invalid("62", "additional data must carry a reference label (05)"))?;
    if txid.is_empty() || (txid != NO_TXID && !txid.bytes().all(|b| b.is_ascii_alphanumeric())) {
        return Err(invalid(
            "62",
            "reference label must be *** or letters and digits",
        ));
    }

    Ok(BrCode {
        account,
        amount_centavos,
        merchant_name: merchant_name.to_owned(),
        merchant_city: merchant_city.to_owned(),
        txid: (txid != NO_TXID).then(|| txid.to_owned()),
    })
}

/// The PIX template among the merchant account fields 26 to 51 (a code may carry other
/// arrangements' templates beside it).
fn pix_account(top: &[Field<'_>]) -> Result<Account, BrCodeError> {
    for field in top {
        let Ok(n) = field.id.parse::<u8>() else {
            continue;
        };
        if !(26..=51).contains(&n) {
            continue;
        }
        let sub = fields(field.value, field.at + 4)?;
        if !find(&sub, "00").is_some_and(|gui| gui.eq_ignore_ascii_case(PIX_GUI)) {
            continue;
        }
        return match (find(&sub, "01"), find(&sub, "25")) {
            (Some(key), None) if !key.is_empty() => Ok(Account::Key(key.to_owned())),
            (None, Some(url)) if !url.is_empty() => Ok(Account::Location(url.to_owned())),
            (Some(_), Some(_)) => Err(BrCodeError::KeyOrLocation("both")),
            _ => Err(BrCodeError::KeyOrLocation("neither")),
        };
    }
    Err(BrCodeError::NotPix)
}

/// Field 54: digits with an optional point and at most two decimals (`10`, `10.5`, `10.50`).
fn parse_amount(text: &str) -> Result<u64, BrCodeError> {
    let bad = || invalid("54", "amount must be digits with at most two decimals");
    let (units, cents) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if units.is_empty() || units.len() > 10 || cents.len() > 2 || !digits(units) || !digits(cents) {
        return Err(bad());
    }
    let units: u64 = units.parse().map_err(|_| bad())?;
    let cents: u64 = format!("{cents:0<2}").parse().map_err(|_| bad())?;
    Ok(units * 100 + cents)
}

/// Text fit for a field of the code: accents dropped (`São` becomes `Sao`), anything but
/// printable ASCII dropped, blanks collapsed, at most `max` characters. Case is kept, as in
/// the Central Bank's own examples (`Fulano de Tal`).
fn sanitise(text: &str, max: usize) -> String {
    let ascii: String = text
        .nfd()
        .filter(|c| !is_combining_mark(*c))
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .filter(|c| (' '..='~').contains(c))
        .collect();
    let words: Vec<&str> = ascii.split_whitespace().collect();
    let joined = words.join(" ");
    joined
        .chars()
        .take(max)
        .collect::<String>()
        .trim_end()
        .to_owned()
}

fn tlv(id: &str, value: &str) -> String {
    format!("{id}{:02}{value}", value.chars().count())
}

/// The dynamic BR Code for a charge served at `location` (the PSP's `location` of the
/// charge; a leading `https://` is dropped, as the code carries the URL without it):
/// point of initiation 12 (one payment), no amount (the payload at the location has it), and
/// 62-05 `***`. Name and city are made plain ASCII and cut to 25 and 15 characters.
///
/// Fails when the location cannot be carried (empty, over 77 characters, or not printable
/// ASCII) or the name or the city has no character left after sanitising.
pub fn dynamic(
    location: &str,
    merchant_name: &str,
    merchant_city: &str,
) -> Result<String, BrCodeError> {
    let location = location.strip_prefix("https://").unwrap_or(location);
    // 26 holds 0014br.gov.bcb.pix (18) and 25 with its own ID and length (4): 77 are left.
    if location.is_empty()
        || location.len() > 77
        || !location.bytes().all(|b| (b' '..=b'~').contains(&b))
    {
        return Err(invalid(
            "26",
            "the location must be 1 to 77 printable ASCII characters",
        ));
    }
    let name = sanitise(merchant_name, MAX_NAME);
    if name.is_empty() {
        return Err(invalid(
            "59",
            "the merchant name has no printable character",
        ));
    }
    let city = sanitise(merchant_city, MAX_CITY);
    if city.is_empty() {
        return Err(invalid(
            "60",
            "the merchant city has no printable character",
        ));
    }
    let account = tlv("00", PIX_GUI) + &tlv("25", location);
    let mut code = [
        tlv("00", "01"),
        tlv("01", "12"),
        tlv("26", &account),
        tlv("52", "0000"),
        tlv("53", BRL),
        tlv("58", "BR"),
        tlv("59", &name),
        tlv("60", &city),
        tlv("62", &tlv("05", NO_TXID)),
        "6304".to_owned(),
    ]
    .concat();
    let crc = crc_hex(code.as_bytes());
    code.push_str(&crc);
    Ok(code)
}

/// The merchant account template of Pix Automático: the recurrence's location, beside the
/// charge's (API Pix 2.9.0 `dadosQR` examples: `80..0014br.gov.bcb.pix25..{locrec}`).
const RECURRENCE_ID: &str = "80";

/// The GUI and location sub-fields of a PIX template (26 or 80), after checking the location
/// fits: 1 to 77 printable ASCII characters, its `https://` dropped.
fn location_template(field: &'static str, location: &str) -> Result<String, BrCodeError> {
    let location = location.strip_prefix("https://").unwrap_or(location);
    if location.is_empty()
        || location.len() > 77
        || !location.bytes().all(|b| (b' '..=b'~').contains(&b))
    {
        return Err(invalid(
            field,
            "the location must be 1 to 77 printable ASCII characters",
        ));
    }
    Ok(tlv("00", PIX_GUI) + &tlv("25", location))
}

/// The BR Code of Pix Automático's journey 2: a recurrence-only code, whose field 80 carries
/// the recurrence's location (`POST /locrec`'s `location`) and whose field 26 the PIX GUI
/// alone (no charge to pay), with no amount and 62-05 `***`, as API Pix 2.9.0's `dadosQR`
/// example of `JORNADA_2` shows it. Name and city as [`dynamic`]'s. [`parse`] refuses it (its
/// field 26 has neither key nor location); [`recurrence_location`] reads it.
pub fn recurrence(
    location: &str,
    merchant_name: &str,
    merchant_city: &str,
) -> Result<String, BrCodeError> {
    let template = location_template("80", location)?;
    let name = sanitise(merchant_name, MAX_NAME);
    if name.is_empty() {
        return Err(invalid(
            "59",
            "the merchant name has no printable character",
        ));
    }
    let city = sanitise(merchant_city, MAX_CITY);
    if city.is_empty() {
        return Err(invalid(
            "60",
            "the merchant city has no printable character",
        ));
    }
    let mut code = [
        tlv("00", "01"),
        tlv("26", &tlv("00", PIX_GUI)),
        tlv("52", "0000"),
        tlv("53", BRL),
        tlv("58", "BR"),
        tlv("59", &name),
        tlv("60", &city),
        tlv("62", &tlv("05", NO_TXID)),
        tlv(RECURRENCE_ID, &template),
        "6304".to_owned(),
    ]
    .concat();
    let crc = crc_hex(code.as_bytes());
    code.push_str(&crc);
    Ok(code)
}

/// The composite BR Code of Pix Automático's journeys 3 and 4: `code` (a charge's code, as
/// [`parse`] accepts it) with field 80 carrying the recurrence's location added before its CRC,
/// and the CRC computed again, as API Pix 2.9.0's `dadosQR` examples of `JORNADA_3` and
/// `JORNADA_4` show it. Fails when `code` is no PIX BR Code, already carries a field 80, or the
/// location cannot be carried.
pub fn with_recurrence(code: &str, location: &str) -> Result<String, BrCodeError> {
    parse(code)?;
    let top = fields(code, 0)?;
    if top.iter().any(|f| f.id == RECURRENCE_ID) {
        return Err(BrCodeError::Duplicate {
            id: RECURRENCE_ID.to_owned(),
        });
    }
    let template = location_template("80", location)?;
    // parse() checked that field 63 is last and 4 characters long: its 8 characters go.
    let body = &code[..code.len() - 8];
    let mut out = format!("{body}{}6304", tlv(RECURRENCE_ID, &template));
    let crc = crc_hex(out.as_bytes());
    out.push_str(&crc);
    Ok(out)
}

/// The recurrence's location in a Pix Automático code (field 80 with the PIX GUI), after
/// checking the code's field structure and CRC; `None` when the code has no such field. Reads
/// the journey 2 code [`recurrence`] builds, which [`parse`] refuses, and composite codes.
pub fn recurrence_location(code: &str) -> Result<Option<String>, BrCodeError> {
    let top = fields(code, 0)?;
    let crc = top
        .last()
        .filter(|f| f.id == "63")
        .ok_or(BrCodeError::Missing { id: "63" })?;
    let computed = crc_hex(&code.as_bytes()[..code.len() - crc.value.len()]);
    if !crc.value.eq_ignore_ascii_case(&computed) {
        return Err(BrCodeError::CrcMismatch {
            found: crc.value.to_owned(),
            computed,
        });
    }
    let Some(field) = top.iter().find(|f| f.id == RECURRENCE_ID) else {
        return Ok(None);
    };
    let sub = fields(field.value, field.at + 4)?;
    if !find(&sub, "00").is_some_and(|gui| gui.eq_ignore_ascii_case(PIX_GUI)) {
        return Err(BrCodeError::NotPix);
    }
    match find(&sub, "25") {
        Some(url) if !url.is_empty() => Ok(Some(url.to_owned())),
        _ => Err(BrCodeError::KeyOrLocation("neither")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Central Bank's manual (Manual de Padrões para Iniciação do Pix), static example.
    const STATIC: &str = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";
    /// The manual's dynamic example.
    const DYNAMIC: &str = "00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***630464E4";

    /// Replaces the last four characters with the right CRC, to test what is behind it.
    fn with_crc(code_without_crc: &str) -> String {
        let body = format!("{code_without_crc}6304");
        let crc = crc_hex(body.as_bytes());
        body + &crc
    }

    #[test]
    fn the_crc_is_ccitt_false() {
        assert_eq!(CRC16.checksum(b"123456789"), 0x29B1);
        assert_eq!(crc_hex(&STATIC.as_bytes()[..STATIC.len() - 4]), "1D3D");
        assert_eq!(crc_hex(&DYNAMIC.as_bytes()[..DYNAMIC.len() - 4]), "64E4");
    }

    #[test]
    fn the_manuals_static_example() {
        let code = parse(STATIC).unwrap();
        assert_eq!(code.key(), Some("123e4567-e12b-12d1-a456-426655440000"));
        assert_eq!(code.location(), None);
        assert_eq!(code.txid(), None);
        assert_eq!(code.amount_centavos(), None);
        assert_eq!(code.merchant_name(), "Fulano de Tal");
        assert_eq!(code.merchant_city(), "BRASILIA");
    }

    #[test]
    fn the_manuals_dynamic_example_is_read_and_rebuilt_exactly() {
        let code = parse(DYNAMIC).unwrap();
        assert_eq!(
            code.location(),
            Some("pix.example.com/8b3da2f39a4140d1a91abd93113bd441")
        );
        assert_eq!(code.key(), None);
        assert_eq!(code.txid(), None);
        assert_eq!(
            dynamic(
                "pix.example.com/8b3da2f39a4140d1a91abd93113bd441",
                "Fulano de Tal",
                "BRASILIA"
            )
            .unwrap(),
            DYNAMIC
        );
        assert_eq!(
            dynamic(
                "https://pix.example.com/8b3da2f39a4140d1a91abd93113bd441",
                "Fulano de Tal",
                "BRASILIA"
            )
            .unwrap(),
            DYNAMIC,
            "the scheme is not part of the code"
        );
    }

    #[test]
    fn names_and_cities_are_made_plain_and_short() {
        let code = dynamic(
            "psp.example.com/qr/v2/1",
            "  Padaria São João  de Açaí e Pães Ltda ",
            "São Paulo do Potengi\u{1F600}",
        )
        .unwrap();
        let parsed = parse(&code).unwrap();
        assert_eq!(parsed.merchant_name(), "Padaria Sao Joao de Acai");
        assert_eq!(parsed.merchant_city(), "Sao Paulo do Po");
        assert!(dynamic("psp.example.com/qr/1", "\u{1F600}", "X").is_err());
        assert!(dynamic("psp.example.com/qr/1", "A", " ").is_err());
        assert!(dynamic(&"a".repeat(78), "A", "B").is_err());
        assert!(dynamic(&"a".repeat(77), "A", "B").is_ok());
        assert!(dynamic("", "A", "B").is_err());
    }

    #[test]
    fn amount_and_txid_when_present() {
        let code = with_crc(
            "000201010211\
             26360014br.gov.bcb.pix0114+55619876543215204000053039865406123.455802BR5905Loja 6008BRASILIA62140510PEDIDO1234",
        );
        let parsed = parse(&code).unwrap();
        assert_eq!(parsed.key(), Some("+5561987654321"));
        assert_eq!(parsed.amount_centavos(), Some(12_345));
        assert_eq!(parsed.txid(), Some("PEDIDO1234"));
        assert_eq!(parse_amount("10").unwrap(), 1000);
        assert_eq!(parse_amount("10.5").unwrap(), 1050);
        for bad in ["", ".5", "1.234", "1,00", "-1"] {
            assert!(parse_amount(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_lowercase_crc_is_accepted() {
        let lower = format!("{}64e4", &DYNAMIC[..DYNAMIC.len() - 4]);
        assert!(parse(&lower).is_ok());
    }

    #[test]
    fn refusals() {
        // A changed character: the CRC no longer matches.
        let tampered = DYNAMIC.replace("Fulano", "Fulana");
        assert!(matches!(
            parse(&tampered),
            Err(BrCodeError::CrcMismatch { .. })
        ));
        // Cut short, inside the CRC field and inside a value.
        assert!(matches!(
            parse(&DYNAMIC[..DYNAMIC.len() - 2]),
            Err(BrCodeError::Truncated { .. })
        ));
        assert!(matches!(
            parse(&DYNAMIC[..40]),
            Err(BrCodeError::Truncated { .. })
        ));
        // Another arrangement's identifier instead of br.gov.bcb.pix.
        let foreign = with_crc(
            "00020101021226700014br.gov.bcb.xyz2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***",
        );
        assert_eq!(parse(&foreign), Err(BrCodeError::NotPix));
        // A length that is not two digits.
        let letters = with_crc("0002010102122670");
        let letters = letters.replacen("2670", "26x0", 1);
        assert!(matches!(
            parse(&letters),
            Err(BrCodeError::NotDigits { .. })
        ));
        assert!(matches!(
            parse("000201\u{e9}102"),
            Err(BrCodeError::NotDigits { .. })
        ));
        // Both a key and a location.
        let both = with_crc(
            "00020101021226380014br.gov.bcb.pix0101k2511example.com5204000053039865802BR5901A6001B62070503***",
        );
        assert_eq!(parse(&both), Err(BrCodeError::KeyOrLocation("both")));
        // Wrong currency, country and payload format.
        let usd = with_crc(
            "00020126320014br.gov.bcb.pix0110k1234567895204000053038405802BR5901A6001B62070503***",
        );
        assert!(matches!(
            parse(&usd),
            Err(BrCodeError::Invalid { id: "53", .. })
        ));
        let format = with_crc(
            "00020226320014br.gov.bcb.pix0110k1234567895204000053039865802BR5901A6001B62070503***",
        );
        assert!(matches!(
            parse(&format),
            Err(BrCodeError::Invalid { id: "00", .. })
        ));
        // The CRC not last, and missing.
        assert_eq!(
            parse(&format!("{DYNAMIC}9900")),
            Err(BrCodeError::CrcNotLast)
        );
        assert_eq!(
            parse(&DYNAMIC[..DYNAMIC.len() - 8]),
            Err(BrCodeError::Missing { id: "63" })
        );
        assert!(parse("").is_err());
    }
    /// API Pix 2.9.0's `dadosQR` of `recResponse3` (journey 2) and `recResponse6` (journey 3),
    /// rebuilt exactly.
    #[test]
    fn pix_automaticos_codes_as_the_standard_shows_them() {
        const JOURNEY_2: &str = "00020126180014br.gov.bcb.pix5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***80800014br.gov.bcb.pix2558pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002630462C9";
        const JOURNEY_3: &str = "00020101021226760014br.gov.bcb.pix2554pix.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***80800014br.gov.bcb.pix2558pix.example.com/qr/v2/rec/94ed2badcbc04c15b0bb7fa35319489063047741";
        let rec2 = "pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002";
        assert_eq!(
            recurrence(rec2, "Fulano de Tal", "BRASILIA").unwrap(),
            JOURNEY_2
        );
        assert_eq!(
            recurrence_location(JOURNEY_2).unwrap().as_deref(),
            Some(rec2)
        );
        assert_eq!(
            parse(JOURNEY_2),
            Err(BrCodeError::KeyOrLocation("neither")),
            "no charge in a journey 2 code"
        );

        let cob = dynamic(
            "pix.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd441",
            "Fulano de Tal",
            "BRASILIA",
        )
        .unwrap();
        let rec3 = "pix.example.com/qr/v2/rec/94ed2badcbc04c15b0bb7fa353194890";
        let composite = with_recurrence(&cob, rec3).unwrap();
        assert_eq!(composite, JOURNEY_3);
        // The charge is read from it as from any dynamic code, the recurrence beside it.
        let parsed = parse(&composite).unwrap();
        assert_eq!(
            parsed.location(),
            Some("pix.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd441")
        );
        assert_eq!(
            recurrence_location(&composite).unwrap().as_deref(),
            Some(rec3)
        );
        assert_eq!(recurrence_location(&cob).unwrap(), None);

        assert!(matches!(
            with_recurrence(&composite, rec3),
            Err(BrCodeError::Duplicate { .. })
        ));
        assert!(with_recurrence("000201", rec3).is_err());
        assert!(with_recurrence(&cob, &"a".repeat(78)).is_err());
        assert!(recurrence(&"a".repeat(78), "A", "B").is_err());
        assert!(recurrence("x/rec/1", "\u{1F600}", "B").is_err());
        let tampered = JOURNEY_2.replace("Fulano", "Fulana");
        assert!(matches!(
            recurrence_location(&tampered),
            Err(BrCodeError::CrcMismatch { .. })
        ));
    }
}
