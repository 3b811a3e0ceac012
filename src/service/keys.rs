//! The server's state key: authentication tags on readable states, sealed
//! (encrypted) state tokens, and the encrypted deal seed.
//!
//! One 32-byte secret yields three sub-keys (HMAC-SHA256 of a label): one
//! for tags, one for the AEAD (ChaCha20-Poly1305) of tokens and seeds, one
//! to derive deal seeds. A previous key is accepted on input, so keys can be
//! rotated: start the server with the new key as current and the old one as
//! previous; everything it returns is made with the current key.

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Nonce};
use hmac::{Hmac, Mac};
use rand::TryRng;
use rand::rngs::SysRng;
use sha2::Sha256;

/// Bytes of a key identifier (a prefix of a hash of the key).
const KEY_ID_LEN: usize = 4;
/// Bytes of an AEAD nonce.
const NONCE_LEN: usize = 12;
/// Bytes of an authentication tag's MAC (truncated HMAC-SHA256).
const MAC_LEN: usize = 16;
/// The first bytes of every sealed token: format and version.
const TOKEN_MAGIC: &[u8; 4] = b"PST1";

/// Why key material or a sealed value was refused.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum KeyError {
    /// A key is not 64 hexadecimal digits.
    #[error("a state key must be 64 hexadecimal digits (32 bytes): {0}")]
    BadKey(String),
    /// Sealed bytes were made with no key this server knows, or altered.
    #[error("not made by this server's key, or altered")]
    Unrecognised,
    /// The operating system gave no randomness for a nonce.
    #[error("no randomness from the operating system: {0}")]
    NoRandomness(String),
}

/// One key and its sub-keys.
#[derive(Clone)]
struct Key {
    /// Names the key inside tags and tokens.
    id: [u8; KEY_ID_LEN],
    /// Authenticates readable states.
    tag: Hmac<Sha256>,
    /// Encrypts tokens and seeds.
    aead: ChaCha20Poly1305,
    /// Derives deal seeds.
    seeds: Hmac<Sha256>,
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Key({:02x?})", self.id)
    }
}

fn hmac(key: &[u8]) -> Hmac<Sha256> {
    // HMAC accepts keys of any length, so this cannot fail.
    <Hmac<Sha256> as KeyInit>::new_from_slice(key).unwrap_or_else(|_| unreachable!())
}

fn sub_key(secret: &[u8; 32], label: &[u8]) -> [u8; 32] {
    let mut mac = hmac(secret);
    mac.update(label);
    mac.finalize().into_bytes().into()
}

impl Key {
    fn from_hex(hex: &str) -> Result<Key, KeyError> {
        let hex = hex.trim();
        let bad = || KeyError::BadKey(format!("{} characters given", hex.len()));
        if hex.len() != 64 {
            return Err(bad());
        }
        let mut secret = [0u8; 32];
        for (i, byte) in secret.iter_mut().enumerate() {
            *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2).ok_or_else(bad)?, 16)
                .map_err(|_| KeyError::BadKey("not hexadecimal".to_owned()))?;
        }
        let id_bytes = sub_key(&secret, b"pips key id");
        let mut id = [0u8; KEY_ID_LEN];
        id.copy_from_slice(&id_bytes[..KEY_ID_LEN]);
        let aead = ChaCha20Poly1305::new_from_slice(&sub_key(&secret, b"pips state aead"))
            .map_err(|_| KeyError::BadKey("unusable".to_owned()))?;
        Ok(Key {
            id,
            tag: hmac(&sub_key(&secret, b"pips state tag")),
            aead,
            seeds: hmac(&sub_key(&secret, b"pips deal seed")),
        })
    }

    fn mac(&self, bytes: &[u8]) -> [u8; MAC_LEN] {
        let mut mac = self.tag.clone();
        mac.update(bytes);
        let full = mac.finalize().into_bytes();
        let mut out = [0u8; MAC_LEN];
        out.copy_from_slice(&full[..MAC_LEN]);
        out
    }
}

/// The keys a server signs and seals with.
#[derive(Clone, Debug)]
pub struct StateKeys {
    /// Used for everything the server returns.
    current: Key,
    /// Also accepted on input, for rotation.
    previous: Option<Key>,
}

impl StateKeys {
    /// Keys from hex text: the current key, then optionally the previous
    /// one, separated by a newline, a comma or spaces.
    ///
    /// # Errors
    /// When no key is given, a key is not 64 hex digits, or more than two
    /// are given.
    pub fn from_text(text: &str) -> Result<StateKeys, KeyError> {
        let mut keys = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|part| !part.is_empty())
            .map(Key::from_hex);
        let current = keys
            .next()
            .ok_or_else(|| KeyError::BadKey("no key given".to_owned()))??;
        let previous = keys.next().transpose()?;
        if keys.next().is_some() {
            return Err(KeyError::BadKey(
                "at most two keys: the current and the previous".to_owned(),
            ));
        }
        Ok(StateKeys { current, previous })
    }

    fn keys(&self) -> impl Iterator<Item = &Key> {
        std::iter::once(&self.current).chain(self.previous.as_ref())
    }

    fn by_id(&self, id: &[u8]) -> Option<&Key> {
        self.keys().find(|key| key.id == id)
    }

    /// The authentication tag of a state's canonical bytes.
    #[must_use]
    pub fn tag(&self, bytes: &[u8]) -> Vec<u8> {
        let mut tag = self.current.id.to_vec();
        tag.extend_from_slice(&self.current.mac(bytes));
        tag
    }

    /// Whether `tag` authenticates `bytes` under a known key (compared in
    /// constant time).
    #[must_use]
    pub fn verify(&self, bytes: &[u8], tag: &[u8]) -> bool {
        let (Some(id), Some(mac)) = (tag.get(..KEY_ID_LEN), tag.get(KEY_ID_LEN..)) else {
            return false;
        };
        self.by_id(id).is_some_and(|key| {
            let mut check = key.tag.clone();
            check.update(bytes);
            mac.len() == MAC_LEN && check.verify_truncated_left(mac).is_ok()
        })
    }

    /// A deal seed that only this key can produce from `nonce`.
    #[must_use]
    pub fn deal_seed(&self, nonce: u64) -> u64 {
        let mut mac = self.current.seeds.clone();
        mac.update(&nonce.to_le_bytes());
        let out = mac.finalize().into_bytes();
        let mut seed = [0u8; 8];
        seed.copy_from_slice(&out[..8]);
        u64::from_le_bytes(seed)
    }

    /// `plaintext` encrypted and authenticated under the current key, with
    /// `label` bound in; laid out as key id, nonce, ciphertext.
    ///
    /// # Errors
    /// When the operating system gives no randomness for the nonce.
    pub fn seal(&self, label: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, KeyError> {
        let mut nonce = [0u8; NONCE_LEN];
        SysRng
            .try_fill_bytes(&mut nonce)
            .map_err(|e| KeyError::NoRandomness(e.to_string()))?;
        let payload = Payload {
            msg: plaintext,
            aad: label,
        };
        let sealed = self
            .current
            .aead
            .encrypt(&Nonce::from(nonce), payload)
            .map_err(|_| KeyError::Unrecognised)?;
        let mut out = Vec::with_capacity(KEY_ID_LEN + NONCE_LEN + sealed.len());
        out.extend_from_slice(&self.current.id);
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&sealed);
        Ok(out)
    }

    /// The plaintext of something [`StateKeys::seal`] made with `label`,
    /// under the current or the previous key.
    ///
    /// # Errors
    /// When no key opens it: altered, sealed under another key or label.
    pub fn open(&self, label: &[u8], sealed: &[u8]) -> Result<Vec<u8>, KeyError> {
        let id = sealed.get(..KEY_ID_LEN).ok_or(KeyError::Unrecognised)?;
        let nonce = sealed
            .get(KEY_ID_LEN..KEY_ID_LEN + NONCE_LEN)
            .ok_or(KeyError::Unrecognised)?;
        let body = sealed
            .get(KEY_ID_LEN + NONCE_LEN..)
            .ok_or(KeyError::Unrecognised)?;
        let key = self.by_id(id).ok_or(KeyError::Unrecognised)?;
        let nonce: [u8; NONCE_LEN] = nonce.try_into().map_err(|_| KeyError::Unrecognised)?;
        key.aead
            .decrypt(
                &Nonce::from(nonce),
                Payload {
                    msg: body,
                    aad: label,
                },
            )
            .map_err(|_| KeyError::Unrecognised)
    }

    /// A sealed token: the magic bytes, then [`StateKeys::seal`].
    ///
    /// # Errors
    /// As [`StateKeys::seal`].
    pub fn seal_token(&self, plaintext: &[u8]) -> Result<Vec<u8>, KeyError> {
        let mut token = TOKEN_MAGIC.to_vec();
        token.extend(self.seal(TOKEN_MAGIC, plaintext)?);
        Ok(token)
    }

    /// The plaintext of a sealed token.
    ///
    /// # Errors
    /// When it is no token of these keys, or altered.
    pub fn open_token(&self, token: &[u8]) -> Result<Vec<u8>, KeyError> {
        match token.strip_prefix(TOKEN_MAGIC) {
            Some(sealed) => self.open(TOKEN_MAGIC, sealed),
            None => Err(KeyError::Unrecognised),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    const B: &str = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100";

    #[test]
    fn tags_verify_and_detect_tampering() {
        let keys = StateKeys::from_text(A).expect("key");
        let tag = keys.tag(b"state");
        assert!(keys.verify(b"state", &tag));
        assert!(!keys.verify(b"stale", &tag));
        let mut bent = tag.clone();
        if let Some(last) = bent.last_mut() {
            *last ^= 1;
        }
        assert!(!keys.verify(b"state", &bent));
        assert!(!keys.verify(b"state", &[]));
        let other = StateKeys::from_text(B).expect("key");
        assert!(!other.verify(b"state", &tag));
    }

    #[test]
    fn tokens_open_under_the_previous_key_but_not_another() {
        let old = StateKeys::from_text(A).expect("key");
        let token = old.seal_token(b"hidden").expect("sealed");
        assert!(!token.windows(6).any(|w| w == b"hidden"));
        let rotated = StateKeys::from_text(&format!("{B}\n{A}")).expect("keys");
        assert_eq!(rotated.open_token(&token), Ok(b"hidden".to_vec()));
        let stranger = StateKeys::from_text(B).expect("key");
        assert_eq!(stranger.open_token(&token), Err(KeyError::Unrecognised));
        let mut bent = token.clone();
        if let Some(last) = bent.last_mut() {
            *last ^= 1;
        }
        assert_eq!(old.open_token(&bent), Err(KeyError::Unrecognised));
        assert_eq!(
            old.open(b"other label", &token[4..]),
            Err(KeyError::Unrecognised)
        );
    }

    #[test]
    fn bad_key_text_is_refused() {
        assert!(StateKeys::from_text("abc").is_err());
        assert!(StateKeys::from_text("").is_err());
        assert!(StateKeys::from_text(&"zz".repeat(32)).is_err());
        assert!(StateKeys::from_text(&format!("{A},{B},{A}")).is_err());
    }
}
