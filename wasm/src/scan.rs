//! Byte-class scans 16 bytes at a time with wasm simd128 (enabled for the wasm build in
//! `.cargo/config.toml`), with a scalar loop for native builds and for the tail. httparse has SIMD
//! paths only for x86 and aarch64; on wasm32 it scans 4 bytes at a time, which made its field loop
//! two thirds of a head's parse.

use crate::token::is_tchar;

/// RFC 9110 §5.5 field-value bytes as httparse takes them: HTAB, SP, VCHAR and obs-text.
const fn is_value_byte(b: u8) -> bool {
    b == b'\t' || (b >= b' ' && b != 0x7f)
}

/// The byte classes the vector scan stops at.
#[derive(Clone, Copy)]
enum Stop {
    NotValue,
    NotTchar,
    Lf,
}

/// The length of the run of field-value bytes at the start of `bytes`.
pub fn value_run(bytes: &[u8]) -> usize {
    match first_in_blocks(bytes, Stop::NotValue) {
        Ok(at) => at,
        Err(n) => n + bytes[n..].iter().take_while(|&&b| is_value_byte(b)).count(),
    }
}

/// The length of the run of `tchar` at the start of `bytes`.
pub fn token_run(bytes: &[u8]) -> usize {
    match first_in_blocks(bytes, Stop::NotTchar) {
        Ok(at) => at,
        Err(n) => n + bytes[n..].iter().take_while(|&&b| is_tchar(b)).count(),
    }
}

/// The position of the first LF in `bytes`.
pub fn find_lf(bytes: &[u8]) -> Option<usize> {
    match first_in_blocks(bytes, Stop::Lf) {
        Ok(at) => Some(at),
        Err(n) => bytes[n..].iter().position(|&b| b == b'\n').map(|i| n + i),
    }
}

/// Over the whole 16-byte blocks at the start of `bytes`: `Ok(position)` of the first byte of
/// class `stop`, or `Err(bytes scanned)` when none holds one (the caller scans the tail).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn first_in_blocks(bytes: &[u8], stop: Stop) -> Result<usize, usize> {
    let mut n = 0;
    for block in bytes.chunks_exact(16) {
        let v = vector::load(block);
        let lanes = match stop {
            Stop::NotValue => vector::not_value(v),
            Stop::NotTchar => vector::not_tchar(v),
            Stop::Lf => vector::lf(v),
        };
        if lanes != 0 {
            return Ok(n + lanes.trailing_zeros() as usize);
        }
        n += 16;
    }
    Err(n)
}

/// Native builds (the tests): no blocks, the scalar scan does it all.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn first_in_blocks(_: &[u8], _: Stop) -> Result<usize, usize> {
    Err(0)
}

/// `tchar` as two 16-entry tables for a vector lookup by nibble: byte `b` is a tchar exactly when
/// `LOW[b & 15] & HIGH[b >> 4] != 0`. Each high nibble that holds tchars (2 to 7) gets its own bit,
/// so the pair is exact; the other high nibbles (controls, DEL's row has `|~`, bytes >= 0x80) map to 0
/// except where a tchar sits.
const TCHAR_NIBBLES: ([u8; 16], [u8; 16]) = {
    let (mut low, mut high) = ([0u8; 16], [0u8; 16]);
    let mut h = 2;
    while h < 8 {
        high[h] = 1 << (h - 2);
        let mut l = 0;
        while l < 16 {
            if is_tchar((h << 4 | l) as u8) {
                low[l] |= 1 << (h - 2);
            }
            l += 1;
        }
        h += 1;
    }
    (low, high)
};

/// The nibble tables hold every tchar and nothing else.
const _: () = {
    let mut b = 0;
    while b < 256 {
        let member = TCHAR_NIBBLES.0[b & 15] & TCHAR_NIBBLES.1[b >> 4] != 0;
        assert!(member == is_tchar(b as u8));
        b += 1;
    }
};

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod vector {
    use core::arch::wasm32::{
        i8x16_bitmask, i8x16_eq, i8x16_swizzle, u8x16, u8x16_lt, u8x16_shr, u8x16_splat, v128,
        v128_and, v128_andnot, v128_or,
    };

    use super::TCHAR_NIBBLES;

    /// One 16-byte block as a vector (LLVM makes the 16 byte reads one v128.load).
    #[inline(always)]
    pub fn load(block: &[u8]) -> v128 {
        let b: &[u8; 16] = block.try_into().unwrap_or(&[0; 16]);
        u8x16(
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
            b[14], b[15],
        )
    }

    /// Lanes that are not field-value bytes: controls other than HTAB, and DEL.
    #[inline(always)]
    pub fn not_value(v: v128) -> u16 {
        let control = v128_andnot(
            u8x16_lt(v, u8x16_splat(b' ')),
            i8x16_eq(v, u8x16_splat(b'\t')),
        );
        i8x16_bitmask(v128_or(control, i8x16_eq(v, u8x16_splat(0x7f))))
    }

    /// Lanes that are not tchar (out-of-range swizzle indexes read 0, but none occur: both
    /// indexes are nibbles).
    #[inline(always)]
    pub fn not_tchar(v: v128) -> u16 {
        let low = i8x16_swizzle(load(&TCHAR_NIBBLES.0), v128_and(v, u8x16_splat(15)));
        let high = i8x16_swizzle(load(&TCHAR_NIBBLES.1), u8x16_shr(v, 4));
        i8x16_bitmask(i8x16_eq(v128_and(low, high), u8x16_splat(0)))
    }

    /// Lanes that hold LF.
    #[inline(always)]
    pub fn lf(v: v128) -> u16 {
        i8x16_bitmask(i8x16_eq(v, u8x16_splat(b'\n')))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_stop_at_the_first_byte_outside_the_class() {
        for stop in [0u8, b'\r', b'\n', 0x1f, 0x7f] {
            for at in 0..40 {
                let mut bytes = vec![b'a'; 40];
                bytes[at] = stop;
                assert_eq!(value_run(&bytes), at, "byte {stop:#x} at {at}");
            }
        }
        let mut all = vec![b'\t', b' ', b'~', 0x80, 0xff];
        all.extend(0x20u8..0x7f);
        assert_eq!(value_run(&all), all.len());
        assert_eq!(token_run(b"Content-Type: x"), 12);
        assert_eq!(find_lf(b"GET / HTTP/1.1\r\nHost"), Some(15));
        assert_eq!(find_lf(&[b'x'; 40]), None);
    }
}
