//! Secrets: random tokens, hashes, and the master key that seals data at rest (AES-256-GCM).

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes256Gcm, Nonce};
use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use sha2::{Digest, Sha256};

#[derive(Debug, thiserror::Error)]
pub enum CryptoError {
    #[error("master key must be 32 bytes in base64: {0}")]
    BadMasterKey(String),
    #[error("sealed value is damaged or was sealed with another master key")]
    Unseal,
    #[error("the operating system's random source failed: {0}")]
    Random(String),
}

/// `n` random bytes from the operating system.
pub fn random_bytes<const N: usize>() -> Result<[u8; N], CryptoError> {
    let mut buf = [0u8; N];
    getrandom::fill(&mut buf).map_err(|e| CryptoError::Random(e.to_string()))?;
    Ok(buf)
}

/// A URL-safe random token of 32 bytes (43 characters).
pub fn random_token() -> Result<String, CryptoError> {
    Ok(URL_SAFE_NO_PAD.encode(random_bytes::<32>()?))
}

/// Constant-time equality of two secrets' hashes.
pub fn same_secret(a: &str, b: &str) -> bool {
    use subtle::ConstantTimeEq;
    let (ha, hb) = (Sha256::digest(a.as_bytes()), Sha256::digest(b.as_bytes()));
    ha.as_slice().ct_eq(hb.as_slice()).into()
}

/// The key that seals secrets and PII at rest.
#[derive(Clone)]
pub struct MasterKey(Aes256Gcm);

impl std::fmt::Debug for MasterKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MasterKey(<redacted>)")
    }
}

impl MasterKey {
    pub fn from_base64(text: &str) -> Result<Self, CryptoError> {
        let bytes = STANDARD
            .decode(text.trim())
            .map_err(|e| CryptoError::BadMasterKey(e.to_string()))?;
        let key: [u8; 32] = bytes
            .try_into()
            .map_err(|b: Vec<u8>| CryptoError::BadMasterKey(format!("{} bytes", b.len())))?;
        Ok(Self(Aes256Gcm::new(&key.into())))
    }

    /// A new random key, in base64.
    pub fn generate() -> Result<String, CryptoError> {
        Ok(STANDARD.encode(random_bytes::<32>()?))
    }

    /// `base64(nonce || ciphertext)`, with a fresh random nonce.
    pub fn seal(&self, plaintext: &[u8]) -> Result<String, CryptoError> {
        let nonce = random_bytes::<12>()?;
        let sealed = self
            .0
            .encrypt(&Nonce::from(nonce), plaintext)
            .map_err(|_| CryptoError::Unseal)?;
        let mut out = nonce.to_vec();
        out.extend_from_slice(&sealed);
        Ok(STANDARD.encode(out))
    }

    pub fn open(&self, sealed: &str) -> Result<Vec<u8>, CryptoError> {
        let bytes = STANDARD.decode(sealed).map_err(|_| CryptoError::Unseal)?;
        if bytes.len() < 12 + 16 {
            return Err(CryptoError::Unseal);
        }
        let (nonce, ciphertext) = bytes.split_at(12);
        let nonce: [u8; 12] = nonce.try_into().map_err(|_| CryptoError::Unseal)?;
        self.0
            .decrypt(&Nonce::from(nonce), ciphertext)
            .map_err(|_| CryptoError::Unseal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seals_and_opens_with_the_same_key_only() {
        let key = MasterKey::from_base64(&MasterKey::generate().unwrap()).unwrap();
        let sealed = key.seal(b"529.982.247-25").unwrap();
        assert!(!sealed.contains("529"));
        assert_eq!(key.open(&sealed).unwrap(), b"529.982.247-25");
        assert_ne!(
            key.seal(b"x").unwrap(),
            key.seal(b"x").unwrap(),
            "fresh nonce"
        );
        let other = MasterKey::from_base64(&MasterKey::generate().unwrap()).unwrap();
        assert!(other.open(&sealed).is_err());
        assert!(key.open("AAAA").is_err());
    }

    #[test]
    fn master_keys_must_be_32_bytes() {
        assert!(MasterKey::from_base64("c2hvcnQ=").is_err());
        assert!(MasterKey::from_base64("not base64!").is_err());
    }

    #[test]
    fn secrets_compare_by_value() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
    }
}
