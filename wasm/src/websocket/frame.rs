//! Client-to-server frames (RFC 6455 §5.2): one call reads as many frames as the input holds,
//! checks each header, unmasks the payloads in place and records where each payload piece is. A
//! frame may span calls: the decoder's state (the frame being read, its mask and what is left)
//! lives in the result table between calls, as the chunked decoder's does.

use super::FrameError;

/// Result-table words: the state (read at the start of a call, written back at its end), then
/// the records of this call.
pub mod slot {
    /// 0: at a frame header; 1: inside a payload.
    pub const PHASE: usize = 0;
    /// Payload bytes of the current frame not yet read.
    pub const REMAINING: usize = 1;
    /// The current frame's masking key, its 4 bytes in wire order as a little-endian word.
    pub const MASK: usize = 2;
    /// How far into the key the next payload byte is (payload offset mod 4).
    pub const MASK_OFFSET: usize = 3;
    /// The current frame's first byte: FIN, RSV1-3, opcode.
    pub const FRAME: usize = 4;
    /// 1 inside a fragmented data message (a continuation must come next).
    pub const FRAGMENTED: usize = 5;
    /// Records written by this call.
    pub const RECORD_COUNT: usize = 6;
    /// RECORD_WORDS words each: bits, payload offset, payload length, the frame's whole length.
    pub const RECORDS: usize = 8;
}

pub const PHASE_HEADER: u32 = 0;
pub const PHASE_PAYLOAD: u32 = 1;
pub const RECORD_WORDS: usize = 4;
/// The most records one call writes; a call that fills them returns early and is called again.
pub const MAX_RECORDS: usize = 256;

/// Record bits: the low byte is the frame's first byte; these flags sit above it.
pub const RECORD_FRAME_START: u32 = 0x100;
pub const RECORD_FRAME_END: u32 = 0x200;

/// Option bit: RSV1 marks a compressed message (permessage-deflate was negotiated, RFC 7692).
pub const OPT_RSV1: u32 = 1;

const FIN: u8 = 0x80;
const RSV1: u8 = 0x40;
const RSV2_RSV3: u8 = 0x30;
const MASKED: u8 = 0x80;
const OPCODE_CONTINUATION: u8 = 0;
const OPCODE_TEXT: u8 = 1;
const OPCODE_BINARY: u8 = 2;
const OPCODE_CLOSE: u8 = 8;
const OPCODE_PING: u8 = 9;
const OPCODE_PONG: u8 = 10;
const CONTROL_BIT: u8 = 8;
/// §5.5.
const MAX_CONTROL_PAYLOAD: u64 = 125;
const LENGTH_16: u8 = 126;
const LENGTH_64: u8 = 127;
const MASK_BYTES: usize = 4;

/// Limits and negotiated options of one connection.
pub struct FrameLimits {
    /// The most payload bytes one frame may carry.
    pub max_frame: u32,
    pub options: u32,
}

struct Header {
    first: u8,
    length: u32,
    mask: u32,
    size: usize,
    /// Whether a fragmented data message is open after this frame.
    fragmented: bool,
}

/// Reads frames from `input`, resuming from the state in `table`. Returns the bytes consumed: a
/// frame header cut short by the end of the input is left for the next call (with more bytes),
/// as is everything after the MAX_RECORDS-th record. On an error the records of the frames before
/// the faulty one are in the table (RECORD_COUNT), so that the caller delivers them first: frames
/// are processed in order, and a message complete before a bad frame was received (Autobahn
/// 3.2, 4.1.3, 5.15 expect its echo before the close).
pub fn decode(
    input: &mut [u8],
    limits: &FrameLimits,
    table: &mut [u32],
) -> Result<usize, FrameError> {
    let mut phase = table[slot::PHASE];
    let mut remaining = table[slot::REMAINING];
    let mut mask = table[slot::MASK];
    let mut mask_offset = table[slot::MASK_OFFSET] as usize;
    let mut first = table[slot::FRAME] as u8;
    let mut fragmented = table[slot::FRAGMENTED] != 0;
    let mut pos = 0;
    let mut count = 0;
    while count < MAX_RECORDS {
        let mut start_flag = 0;
        let mut frame_length = 0;
        if phase == PHASE_HEADER {
            let header = match read_header(&input[pos..], limits, fragmented) {
                Ok(Some(header)) => header,
                Ok(None) => break,
                Err(error) => {
                    table[slot::RECORD_COUNT] = count as u32;
                    return Err(error);
                }
            };
            pos += header.size;
            fragmented = header.fragmented;
            first = header.first;
            remaining = header.length;
            mask = header.mask;
            mask_offset = 0;
            phase = PHASE_PAYLOAD;
            start_flag = RECORD_FRAME_START;
            frame_length = header.length;
        }
        let take = (remaining as usize).min(input.len() - pos);
        if take == 0 && start_flag == 0 && remaining > 0 {
            break;
        }
        unmask(&mut input[pos..pos + take], mask.to_le_bytes(), mask_offset);
        mask_offset = (mask_offset + take) % MASK_BYTES;
        remaining -= take as u32;
        let end_flag = if remaining == 0 { RECORD_FRAME_END } else { 0 };
        let record = slot::RECORDS + count * RECORD_WORDS;
        table[record] = first as u32 | start_flag | end_flag;
        table[record + 1] = pos as u32;
        table[record + 2] = take as u32;
        table[record + 3] = frame_length;
        count += 1;
        pos += take;
        if remaining == 0 {
            phase = PHASE_HEADER;
        } else {
            break;
        }
    }
    table[slot::PHASE] = phase;
    table[slot::REMAINING] = remaining;
    table[slot::MASK] = mask;
    table[slot::MASK_OFFSET] = mask_offset as u32;
    table[slot::FRAME] = first as u32;
    table[slot::FRAGMENTED] = fragmented as u32;
    table[slot::RECORD_COUNT] = count as u32;
    Ok(pos)
}

/// One frame header, checked; None when the input ends inside it.
/// Nothing changes until the whole header is there: a cut header is read again from its start.
fn read_header(
    input: &[u8],
    limits: &FrameLimits,
    fragmented: bool,
) -> Result<Option<Header>, FrameError> {
    let [first, second, ..] = *input else {
        return Ok(None);
    };
    let opcode = first & 0x0f;
    let control = opcode & CONTROL_BIT != 0;
    match opcode {
        OPCODE_CONTINUATION | OPCODE_TEXT | OPCODE_BINARY | OPCODE_CLOSE | OPCODE_PING
        | OPCODE_PONG => {}
        _ => return Err(FrameError::ReservedOpcode),
    }
    let compressed_start = opcode == OPCODE_TEXT || opcode == OPCODE_BINARY;
    if first & RSV2_RSV3 != 0
        || (first & RSV1 != 0 && (limits.options & OPT_RSV1 == 0 || !compressed_start))
    {
        return Err(FrameError::ReservedBits);
    }
    if second & MASKED == 0 {
        return Err(FrameError::Unmasked);
    }
    let (length, length_bytes) = match second & 0x7f {
        LENGTH_16 => {
            let Some(bytes) = input.get(2..4) else {
                return Ok(None);
            };
            let length = u16::from_be_bytes([bytes[0], bytes[1]]) as u64;
            if length < LENGTH_16 as u64 {
                return Err(FrameError::NonMinimalLength);
            }
            (length, 2)
        }
        LENGTH_64 => {
            let Some(bytes) = input.get(2..10) else {
                return Ok(None);
            };
            let length = u64::from_be_bytes(bytes.try_into().expect("8 bytes"));
            if length <= u16::MAX as u64 || length >> 63 != 0 {
                return Err(FrameError::NonMinimalLength);
            }
            (length, 8)
        }
        short => (short as u64, 0),
    };
    let mut fragmented_after = fragmented;
    if control {
        if first & FIN == 0 {
            return Err(FrameError::ControlFragmented);
        }
        if length > MAX_CONTROL_PAYLOAD {
            return Err(FrameError::ControlTooLong);
        }
    } else {
        if opcode == OPCODE_CONTINUATION && !fragmented {
            return Err(FrameError::UnexpectedContinuation);
        }
        if opcode != OPCODE_CONTINUATION && fragmented {
            return Err(FrameError::ExpectedContinuation);
        }
        fragmented_after = first & FIN == 0;
    }
    if length > limits.max_frame as u64 {
        return Err(FrameError::TooBig);
    }
    let mask_at = 2 + length_bytes;
    let Some(key) = input.get(mask_at..mask_at + MASK_BYTES) else {
        return Ok(None);
    };
    let mask = u32::from_le_bytes(key.try_into().expect("4 bytes"));
    Ok(Some(Header {
        first,
        length: length as u32,
        mask,
        size: mask_at + MASK_BYTES,
        fragmented: fragmented_after,
    }))
}

/// XORs `data` with the key, starting `offset` bytes into it (§5.3). 16 bytes at a time: the key
/// repeats every 4, so a 16-byte word of it stays aligned.
fn unmask(data: &mut [u8], key: [u8; 4], offset: usize) {
    let key = [
        key[offset % 4],
        key[(offset + 1) % 4],
        key[(offset + 2) % 4],
        key[(offset + 3) % 4],
    ];
    let word = u32::from_ne_bytes(key) as u128;
    let wide = word | word << 32 | word << 64 | word << 96;
    let mut blocks = data.chunks_exact_mut(16);
    for block in &mut blocks {
        let value = u128::from_ne_bytes(block.try_into().expect("16 bytes")) ^ wide;
        block.copy_from_slice(&value.to_ne_bytes());
    }
    for (i, byte) in blocks.into_remainder().iter_mut().enumerate() {
        *byte ^= key[i % 4];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: FrameLimits = FrameLimits {
        max_frame: 1 << 20,
        options: 0,
    };
    const KEY: [u8; 4] = [0x37, 0xfa, 0x21, 0x3d];

    /// A masked client frame.
    fn frame(first: u8, payload: &[u8]) -> Vec<u8> {
        let mut out = vec![first];
        match payload.len() {
            n if n < 126 => out.push(0x80 | n as u8),
            n if n <= 0xffff => {
                out.push(0x80 | 126);
                out.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                out.push(0x80 | 127);
                out.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        out.extend_from_slice(&KEY);
        out.extend(payload.iter().enumerate().map(|(i, b)| b ^ KEY[i % 4]));
        out
    }

    fn table() -> Vec<u32> {
        vec![0; slot::RECORDS + MAX_RECORDS * RECORD_WORDS]
    }

    /// Decodes `wire` split into pieces of `step` bytes (a piece left unconsumed is kept and
    /// joined to the next, as the caller does); returns (first byte, payload) per frame.
    fn decode_split(
        wire: &[u8],
        step: usize,
        limits: &FrameLimits,
    ) -> Result<Vec<(u8, Vec<u8>)>, FrameError> {
        let mut table = table();
        let mut frames: Vec<(u8, Vec<u8>)> = Vec::new();
        let mut held: Vec<u8> = Vec::new();
        for piece in wire.chunks(step) {
            held.extend_from_slice(piece);
            loop {
                let mut buf = held.clone();
                let used = decode(&mut buf, limits, &mut table)?;
                for r in 0..table[slot::RECORD_COUNT] as usize {
                    let at = slot::RECORDS + r * RECORD_WORDS;
                    let (bits, off, len) =
                        (table[at], table[at + 1] as usize, table[at + 2] as usize);
                    if bits & RECORD_FRAME_START != 0 {
                        frames.push((bits as u8, Vec::new()));
                    }
                    frames
                        .last_mut()
                        .unwrap()
                        .1
                        .extend_from_slice(&buf[off..off + len]);
                }
                held.drain(..used);
                if table[slot::RECORD_COUNT] as usize != MAX_RECORDS {
                    break;
                }
            }
        }
        assert!(held.is_empty(), "bytes left over");
        Ok(frames)
    }

    #[test]
    fn frames_at_every_split() {
        let big: Vec<u8> = (0..70_000u32).map(|i| i as u8).collect();
        let mut wire = frame(0x81, b"Hello");
        wire.extend(frame(0x02, &big[..300]));
        wire.extend(frame(0x89, b"ping"));
        wire.extend(frame(0x80, &big[..1]));
        wire.extend(frame(0x82, &big));
        wire.extend(frame(0x81, b""));
        for step in [1, 2, 3, 5, 7, 13, 64, 1000, wire.len()] {
            let frames = decode_split(&wire, step, &LIMITS).unwrap();
            let got: Vec<(u8, usize)> = frames.iter().map(|(b, p)| (*b, p.len())).collect();
            assert_eq!(
                got,
                [
                    (0x81, 5),
                    (0x02, 300),
                    (0x89, 4),
                    (0x80, 1),
                    (0x82, 70_000),
                    (0x81, 0)
                ],
                "step {step}"
            );
            assert_eq!(frames[0].1, b"Hello");
            assert_eq!(frames[2].1, b"ping");
            assert_eq!(frames[4].1, big, "step {step}");
        }
    }

    #[test]
    fn many_small_frames_fill_the_records() {
        let wire: Vec<u8> = (0..MAX_RECORDS * 3)
            .flat_map(|_| frame(0x82, b"abc"))
            .collect();
        let frames = decode_split(&wire, wire.len(), &LIMITS).unwrap();
        assert_eq!(frames.len(), MAX_RECORDS * 3);
        assert!(frames.iter().all(|(_, p)| p == b"abc"));
    }

    #[test]
    fn protocol_errors() {
        let cases: [(Vec<u8>, FrameError); 11] = [
            (frame(0x83, b""), FrameError::ReservedOpcode),
            (frame(0x8b, b""), FrameError::ReservedOpcode),
            (frame(0xc1, b"x"), FrameError::ReservedBits),
            (frame(0xa1, b"x"), FrameError::ReservedBits),
            (frame(0x91, b"x"), FrameError::ReservedBits),
            (vec![0x81, 0x01, b'x'], FrameError::Unmasked),
            (frame(0x89, &[0; 126]), FrameError::ControlTooLong),
            (frame(0x09, b""), FrameError::ControlFragmented),
            (frame(0x80, b"x"), FrameError::UnexpectedContinuation),
            (
                [frame(0x01, b"x"), frame(0x81, b"y")].concat(),
                FrameError::ExpectedContinuation,
            ),
            (
                vec![0x82, 0x80 | 126, 0, 125, 0, 0, 0, 0],
                FrameError::NonMinimalLength,
            ),
        ];
        for (wire, error) in cases {
            assert_eq!(
                decode_split(&wire, wire.len(), &LIMITS),
                Err(error),
                "{wire:02x?}"
            );
        }
        let huge = [0x82, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 0];
        assert_eq!(
            decode_split(&huge, 10, &LIMITS),
            Err(FrameError::NonMinimalLength)
        );
        let small = FrameLimits {
            max_frame: 10,
            options: 0,
        };
        assert_eq!(
            decode_split(&frame(0x82, &[0; 11]), 100, &small),
            Err(FrameError::TooBig)
        );
        // The size is refused from the header alone, before any payload arrives.
        assert_eq!(
            decode_split(&frame(0x82, &[0; 11])[..2], 2, &small),
            Err(FrameError::TooBig)
        );
    }

    #[test]
    fn an_error_leaves_the_records_of_the_frames_before_it() {
        let wire = [
            frame(0x81, b"Hello"),
            frame(0x01, b"frag"),
            frame(0x80, b"ment"),
            frame(0xa1, b"bad"),
            frame(0x81, b"never read"),
        ]
        .concat();
        let mut input = wire.clone();
        let mut table = table();
        assert_eq!(
            decode(&mut input, &LIMITS, &mut table),
            Err(FrameError::ReservedBits)
        );
        let records: Vec<(u32, Vec<u8>)> = (0..table[slot::RECORD_COUNT] as usize)
            .map(|r| {
                let at = slot::RECORDS + r * RECORD_WORDS;
                let (off, len) = (table[at + 1] as usize, table[at + 2] as usize);
                (table[at] & 0xff, input[off..off + len].to_vec())
            })
            .collect();
        assert_eq!(
            records,
            [
                (0x81, b"Hello".to_vec()),
                (0x01, b"frag".to_vec()),
                (0x80, b"ment".to_vec())
            ]
        );
    }

    #[test]
    fn control_frames_inside_a_fragmented_message() {
        let wire = [
            frame(0x01, b"frag"),
            frame(0x89, b""),
            frame(0x00, b"ment"),
            frame(0x8a, b"p"),
            frame(0x80, b"ed"),
        ]
        .concat();
        let frames = decode_split(&wire, 3, &LIMITS).unwrap();
        let opcodes: Vec<u8> = frames.iter().map(|(b, _)| b & 0x0f).collect();
        assert_eq!(opcodes, [1, 9, 0, 10, 0]);
    }

    #[test]
    fn rsv1_only_when_negotiated_and_on_a_first_frame() {
        let deflate = FrameLimits {
            max_frame: 1 << 20,
            options: OPT_RSV1,
        };
        assert!(decode_split(&frame(0xc1, b"x"), 100, &deflate).is_ok());
        assert!(decode_split(&frame(0x42, b"x"), 100, &deflate).is_ok());
        let continued = [frame(0x41, b"x"), frame(0xc0, b"y")].concat();
        assert_eq!(
            decode_split(&continued, 100, &deflate),
            Err(FrameError::ReservedBits)
        );
        assert_eq!(
            decode_split(&frame(0xc9, b""), 100, &deflate),
            Err(FrameError::ReservedBits)
        );
    }

    #[test]
    fn unmask_matches_bytewise_at_every_offset() {
        for offset in 0..4 {
            for len in 0..40 {
                let data: Vec<u8> = (0..len as u8).collect();
                let mut fast = data.clone();
                unmask(&mut fast, KEY, offset);
                let slow: Vec<u8> = data
                    .iter()
                    .enumerate()
                    .map(|(i, b)| b ^ KEY[(offset + i) % 4])
                    .collect();
                assert_eq!(fast, slow);
            }
        }
    }
}
