//! The handshake's `Sec-WebSocket-Accept` (RFC 6455 §4.2.2 step 5.4): SHA-1 of the client's key
//! and the protocol's GUID (base64 is left to the caller).

/// RFC 6455 §1.3.
pub const GUID: &[u8] = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

/// SHA-1(key + GUID).
pub fn accept_digest(key: &[u8]) -> [u8; 20] {
    let mut hash = sha1_smol::Sha1::new();
    hash.update(key);
    hash.update(GUID);
    hash.digest().bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc_6455_example() {
        // §1.3: key "dGhlIHNhbXBsZSBub25jZQ==" gives "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=".
        let expected = [
            0xb3, 0x7a, 0x4f, 0x2c, 0xc0, 0x62, 0x4f, 0x16, 0x90, 0xf6, 0x46, 0x06, 0xcf, 0x38,
            0x59, 0x45, 0xb2, 0xbe, 0xc4, 0xea,
        ];
        assert_eq!(accept_digest(b"dGhlIHNhbXBsZSBub25jZQ=="), expected);
    }
}
