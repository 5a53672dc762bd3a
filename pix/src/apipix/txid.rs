//! The charge's `txid`: chosen by pixgate, not the PSP, so that it can be derived again from
//! what identifies the merchant's charge. A retried charge, or a retried `PUT /cob/{txid}`
//! after a timeout, then names the same charge at the PSP, and `PUT` being idempotent on the
//! txid is what keeps one checkout from becoming two charges.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::ApiPixError;

/// A txid as the standard defines it for `/cob/{txid}`: 26 to 35 characters of `[a-zA-Z0-9]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Txid(String);

impl Txid {
    pub fn parse(text: &str) -> Result<Self, ApiPixError> {
        let ok = (26..=35).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_alphanumeric());
        ok.then(|| Self(text.to_owned()))
            .ok_or(ApiPixError::InvalidTxid)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Txid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for Txid {
    type Error = ApiPixError;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        Self::parse(&text)
    }
}

impl From<Txid> for String {
    fn from(txid: Txid) -> Self {
        txid.0
    }
}

/// The txid of a store's charge: 32 lowercase hex characters, the first 128 bits of SHA-256
/// over a domain-separated, length-prefixed encoding of the store's id and `charge`, the
/// charge's stable name (pixgate passes the intent id its Idempotency-Key's claim holds).
///
/// The domain tag keeps these hashes apart from any other SHA-256 pixgate computes over the same
/// strings; the length prefixes keep (`"ab"`, `"c"`) and (`"a"`, `"bc"`) apart. 128 bits make a
/// collision between two charges of one receiver negligible, and the value reveals nothing of
/// the inputs. Changing this function would give retried charges new txids: it is versioned by
/// its tag (`v1`).
pub fn txid_for(store_id: &str, charge: &str) -> String {
    let mut hash = Sha256::new();
    hash.update(b"pixgate/apipix/txid/v1\0");
    for part in [store_id, charge] {
        hash.update((part.len() as u64).to_be_bytes());
        hash.update(part.as_bytes());
    }
    hex::encode(&hash.finalize()[..16])
}

/// The `id` of a refund's devolução: the refund's UUID without its hyphens (32 lowercase hex
/// characters). The refund id is fixed before the first PUT and kept with the refund, so every
/// retry of that PUT names the same devolução and the PSP never pays it back twice.
pub fn devolucao_id_for(refund_id: uuid::Uuid) -> String {
    refund_id.simple().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn txids_follow_the_standard() {
        assert!(Txid::parse("7978c0c97ea847e78e8849634473c1f1").is_ok());
        assert!(Txid::parse(&"a".repeat(26)).is_ok());
        assert!(Txid::parse(&"Z".repeat(35)).is_ok());
        for bad in [
            "a".repeat(25),
            "a".repeat(36),
            format!("{}-", "a".repeat(30)),
            format!("{}é", "a".repeat(30)),
            String::new(),
        ] {
            assert_eq!(Txid::parse(&bad), Err(ApiPixError::InvalidTxid), "{bad}");
        }
        assert!(serde_json::from_str::<Txid>("\"short\"").is_err());
    }

    #[test]
    fn derived_txids_are_stable_valid_and_distinct() {
        let a = txid_for("store-1", "checkout-10042-1");
        assert_eq!(a, txid_for("store-1", "checkout-10042-1"));
        assert_eq!(a.len(), 32);
        assert!(Txid::parse(&a).is_ok());
        // Pinned (computed independently with Python's hashlib): a change would give every
        // retried charge a new txid.
        assert_eq!(a, "60d7de7af31f7e0a52b161d6f973d123");
        assert_ne!(a, txid_for("store-2", "checkout-10042-1"));
        assert_ne!(a, txid_for("store-1", "checkout-10042-2"));
        assert_ne!(txid_for("ab", "c"), txid_for("a", "bc"));
        assert!(Txid::parse(&txid_for("", "")).is_ok());
    }

    #[test]
    fn devolucao_ids_follow_the_standard() {
        let id = uuid::Uuid::parse_str("0f8fad5b-d9cb-469f-a165-70867728950e").unwrap();
        assert_eq!(devolucao_id_for(id), "0f8fad5bd9cb469fa16570867728950e");
        assert!(super::super::valid_devolucao_id(&devolucao_id_for(id)));
        assert!(!super::super::valid_devolucao_id(""));
        assert!(!super::super::valid_devolucao_id(&"a".repeat(36)));
        assert!(!super::super::valid_devolucao_id("a-b"));
    }
}
