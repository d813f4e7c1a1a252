//! A stable 64-bit digest of bytes (FNV-1a): names the contents of an
//! input (a kingdoms file, New Salem's data) in run keys and CSV headers,
//! so a checkpoint or a shard of a run over other contents is refused. Not
//! cryptographic: it tells edits apart, it does not resist forgery.

/// The state of a digest of nothing.
pub const START: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x100_0000_01b3;

/// Running FNV-1a digest.
#[derive(Clone, Copy, Debug)]
pub struct Digest(u64);

impl Default for Digest {
    fn default() -> Self {
        Digest(START)
    }
}

impl Digest {
    /// A digest that goes on from `state` (a [`Digest::value`] kept in a
    /// struct, such as a strategy's hash over its file and its bases).
    pub fn resume(state: u64) -> Digest {
        Digest(state)
    }

    pub fn update(&mut self, bytes: &[u8]) -> &mut Self {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(PRIME);
        }
        self
    }

    pub fn value(&self) -> u64 {
        self.0
    }

    /// The digest as 16 hex digits.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

/// The digest of `bytes` as 16 hex digits.
pub fn hex(bytes: &[u8]) -> String {
    Digest::default().update(bytes).hex()
}

#[cfg(test)]
mod tests {
    #[test]
    fn known_values() {
        // FNV-1a 64 of "" and "a" (the published test vectors).
        assert_eq!(super::hex(b""), "cbf29ce484222325");
        assert_eq!(super::hex(b"a"), "af63dc4c8601ec8c");
    }
}
