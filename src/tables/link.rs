//! Links and table ids: 128 random bits from the operating system, written
//! as base64url (22 characters). A link is a credential: the server keeps
//! only its SHA-256, so that a copy of the database opens no seat, and no
//! log line writes either. A table id is public: it names a table and
//! opens nothing.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::TryRng;
use rand::rngs::SysRng;
use sha2::{Digest as _, Sha256};

/// Random bytes in a link or an id.
const BYTES: usize = 16;

/// A seat's link (its secret).
#[derive(Clone, PartialEq, Eq)]
pub struct Link([u8; BYTES]);

impl std::fmt::Debug for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // (A link is never written out, not even to a debug log.)
        f.write_str("Link(…)")
    }
}

/// 16 random bytes from the operating system.
fn random() -> Result<[u8; BYTES], rand::rngs::SysError> {
    let mut bytes = [0; BYTES];
    SysRng.try_fill_bytes(&mut bytes)?;
    Ok(bytes)
}

impl Link {
    /// A new link.
    ///
    /// # Errors
    /// When the operating system has no randomness to give.
    pub fn new() -> Result<Link, rand::rngs::SysError> {
        random().map(Link)
    }

    /// The link as it is handed out (base64url, no padding).
    #[must_use]
    pub fn text(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.0)
    }

    /// The link `text` is, if it is one.
    #[must_use]
    pub fn read(text: &str) -> Option<Link> {
        if text.len() != 22 {
            return None;
        }
        let bytes = URL_SAFE_NO_PAD.decode(text).ok()?;
        bytes.try_into().ok().map(Link)
    }

    /// What the server keeps of it.
    #[must_use]
    pub fn hash(&self) -> [u8; 32] {
        Sha256::digest(self.0).into()
    }
}

/// A new table id.
///
/// # Errors
/// When the operating system has no randomness to give.
pub fn table_id() -> Result<String, rand::rngs::SysError> {
    random().map(|bytes| URL_SAFE_NO_PAD.encode(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_read_back_and_nothing_else_reads() {
        let link = Link::new().expect("random");
        let text = link.text();
        assert_eq!(text.len(), 22);
        assert_eq!(Link::read(&text), Some(link.clone()));
        assert_ne!(Link::new().expect("random"), link, "random");
        assert_eq!(format!("{link:?}"), "Link(…)");
        for bad in [
            "",
            "short",
            &format!("{text}A"),
            &text.replace(|_| true, "!"),
        ] {
            assert_eq!(Link::read(bad), None, "{bad:?}");
        }
        assert_eq!(link.hash(), Link::read(&text).expect("a link").hash());
    }
}
