//! Why a client's frames are refused. Each is a protocol error the server answers with a Close
//! frame (RFC 6455 §7.4.1): 1002, or 1009 for a frame over the size limit.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(i32)]
pub enum FrameError {
    /// §5.2: opcodes 3-7 and 11-15 are reserved.
    ReservedOpcode = 1,
    /// §5.2: RSV1-3 must be 0 unless an extension defines them (RFC 7692 §6: RSV1, first frame of a message).
    ReservedBits = 2,
    /// §5.1: a client masks every frame.
    Unmasked = 3,
    /// §5.5: control frames carry at most 125 bytes.
    ControlTooLong = 4,
    /// §5.5: control frames are never fragmented.
    ControlFragmented = 5,
    /// Over the server's limit on one frame's payload (answered 1009, §7.4.1).
    TooBig = 6,
    /// §5.2: the length in the fewest bytes, and a 64-bit length with its top bit 0.
    NonMinimalLength = 7,
    /// §5.4: a continuation frame with no message to continue.
    UnexpectedContinuation = 8,
    /// §5.4: a new data message before the fragmented one ended.
    ExpectedContinuation = 9,
}

impl FrameError {
    /// The negative return code of the ABI (its number, negated).
    pub fn code(self) -> i32 {
        -(self as i32)
    }
}
