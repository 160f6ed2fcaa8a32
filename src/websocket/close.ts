// Close codes (RFC 6455 §7.4) and the Close frame's payload (§5.5.1).
import { WebSocketError } from './errors.js';

/** Close codes (RFC 6455 §7.4.1), by name. */
export const CloseCode = {
  NORMAL: 1000,
  GOING_AWAY: 1001,
  PROTOCOL_ERROR: 1002,
  UNSUPPORTED_DATA: 1003,
  /** Never on the wire: the Close frame had no code (§7.1.5). */
  NO_STATUS: 1005,
  /** Never on the wire: the connection closed without a Close frame (§7.1.5). */
  ABNORMAL: 1006,
  INVALID_DATA: 1007,
  POLICY_VIOLATION: 1008,
  MESSAGE_TOO_BIG: 1009,
  INTERNAL_ERROR: 1011,
} as const;

/** The most bytes of a close reason: a Close frame's payload is at most 125 bytes, 2 of them the code. */
export const MAX_CLOSE_REASON_BYTES = 123;

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Whether `code` may appear in a Close frame (§7.4.1, §7.4.2 and the IANA registry): the defined
 * 1000-1003 and 1007-1014, and 3000-4999 for libraries and applications. 1004-1006, 1015 and the
 * rest below 3000 are reserved or never sent.
 */
export function isValidWireCloseCode(code: number): boolean {
  return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999);
}

/** A Close frame's payload: the code (big-endian) and the UTF-8 reason; empty without a code. */
export function closePayload(code: number | undefined, reason = ''): Uint8Array {
  if (code === undefined) return new Uint8Array(0);
  const text = encoder.encode(reason);
  const payload = new Uint8Array(2 + text.length);
  payload[0] = code >> 8;
  payload[1] = code & 0xff;
  payload.set(text, 2);
  return payload;
}

/** Reads a received Close frame's payload (§5.5.1): no code is 1005; a bad code or reason fails the connection. */
export function parseClosePayload(payload: Uint8Array): { code: number; reason: string } {
  if (payload.length === 0) return { code: CloseCode.NO_STATUS, reason: '' };
  if (payload.length === 1) throw new WebSocketError('ERR_WS_INVALID_CLOSE_PAYLOAD', 'a Close frame with a 1-byte payload');
  const code = (payload[0] << 8) | payload[1];
  if (!isValidWireCloseCode(code)) throw new WebSocketError('ERR_WS_INVALID_CLOSE_CODE', `close code ${code} may not be sent (§7.4)`);
  let reason: string;
  try {
    reason = strictDecoder.decode(payload.subarray(2));
  } catch {
    throw new WebSocketError('ERR_WS_INVALID_UTF8', 'the close reason is not valid UTF-8', CloseCode.INVALID_DATA);
  }
  return { code, reason };
}
