// permessage-deflate (RFC 7692): reading a client's offers, the server's answer, and the
// message codec over a zlib the adapter hands in (node:zlib on Node and Deno; this module stays
// runtime-agnostic). The server always answers with no context takeover both ways: each message
// is compressed and inflated on its own, with one-shot synchronous zlib calls, so an idle
// connection holds no zlib state (ws keeps two zlib streams, hundreds of KiB, per connection) and
// messages stay in order without an async queue. The cost is a worse ratio for small messages
// that repeat each other, which is why messages under COMPRESS_THRESHOLD go uncompressed.

/** RFC 7692 §7. */
export const PERMESSAGE_DEFLATE = 'permessage-deflate';
/** Messages smaller than this go uncompressed (ws's default threshold): deflate would cost more than it saves. */
export const COMPRESS_THRESHOLD = 1024;
/** §7.2.1: a message is compressed with a sync flush, whose empty block (this tail) is removed, and put back to inflate. */
const TAIL = new Uint8Array([0x00, 0x00, 0xff, 0xff]);
/** zlib cannot make raw deflate with an 8-bit window (it uses 9), so an offer that demands 8 is declined. */
const MIN_WINDOW_BITS = 9;
const MAX_WINDOW_BITS = 15;

/** What was agreed for one connection. */
export interface DeflateParams {
  /** The window our compressor may use (the client's server_max_window_bits, else 15). */
  readonly serverWindowBits: number;
  /** The Sec-WebSocket-Extensions answer. */
  readonly answer: string;
}

/**
 * The first acceptable permessage-deflate offer in `header` (§5: the client lists them in its
 * order of preference), or null. Offers with unknown or repeated parameters, or values out of
 * range, are skipped (§7.1: the server declines them).
 */
export function negotiateDeflate(header: string | null): DeflateParams | null {
  if (!header) return null;
  for (const offer of header.split(',')) {
    const [name, ...params] = offer.split(';').map((part) => part.trim());
    if (name.toLowerCase() !== PERMESSAGE_DEFLATE) continue;
    const agreed = acceptOffer(params);
    if (agreed) return agreed;
  }
  return null;
}

function acceptOffer(params: string[]): DeflateParams | null {
  const seen = new Set<string>();
  let serverWindowBits = MAX_WINDOW_BITS;
  let serverBitsAsked = false;
  for (const param of params) {
    const equals = param.indexOf('=');
    const key = (equals < 0 ? param : param.slice(0, equals)).trim().toLowerCase();
    const raw = equals < 0 ? null : param.slice(equals + 1).trim();
    const value = raw !== null && raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
    if (seen.has(key)) return null;
    seen.add(key);
    switch (key) {
      case 'server_no_context_takeover':
      case 'client_no_context_takeover':
        if (value !== null) return null;
        break;
      case 'server_max_window_bits': {
        const bits = windowBits(value);
        if (bits === null || bits < MIN_WINDOW_BITS) return null;
        serverWindowBits = bits;
        serverBitsAsked = true;
        break;
      }
      case 'client_max_window_bits':
        // Without a value it only says the client could take a limit; we set none (we inflate any window).
        if (value !== null && windowBits(value) === null) return null;
        break;
      default:
        return null;
    }
  }
  let answer = `${PERMESSAGE_DEFLATE}; server_no_context_takeover; client_no_context_takeover`;
  if (serverBitsAsked) answer += `; server_max_window_bits=${serverWindowBits}`;
  return { serverWindowBits, answer };
}

/** §7.1.2: 1*DIGIT from 8 to 15. */
function windowBits(value: string | null): number | null {
  if (value === null || !/^\d{1,2}$/.test(value)) return null;
  const bits = Number(value);
  return bits >= 8 && bits <= MAX_WINDOW_BITS ? bits : null;
}

/** The slice of node:zlib the codec uses. */
export interface ZlibLike {
  inflateRawSync(data: Uint8Array, options: { finishFlush: number; maxOutputLength: number }): Uint8Array;
  deflateRawSync(data: Uint8Array, options: { finishFlush: number; windowBits: number }): Uint8Array;
  readonly constants: { readonly Z_SYNC_FLUSH: number };
}

/** One message in, one message out. */
export interface DeflateCodec {
  /** Inflates a message's payload; throws MessageTooBigError as soon as the output passes `maxOutput`. */
  inflate(data: Uint8Array, maxOutput: number): Uint8Array;
  /** Compresses a message (sync flush, the tail removed, §7.2.1). */
  deflate(data: Uint8Array, windowBits: number): Uint8Array;
}

/** Inflating passed the limit: a compression bomb, or just a message too big (1009). */
export class MessageTooBigError extends RangeError {}

/** The permessage-deflate codec over a zlib (node:zlib on Node and Deno). */
export function zlibDeflateCodec(zlib: ZlibLike): DeflateCodec {
  const finishFlush = zlib.constants.Z_SYNC_FLUSH;
  return {
    inflate(data, maxOutput) {
      const input = new Uint8Array(data.length + TAIL.length);
      input.set(data);
      input.set(TAIL, data.length);
      try {
        // zlib stops at maxOutputLength: a bomb is cut there, not inflated whole first.
        return zlib.inflateRawSync(input, { finishFlush, maxOutputLength: Math.max(1, maxOutput) });
      } catch (error) {
        if (error instanceof RangeError) throw new MessageTooBigError(`the message inflates to more than ${maxOutput} bytes`);
        throw error;
      }
    },
    deflate(data, windowBits) {
      const out = zlib.deflateRawSync(data, { finishFlush, windowBits });
      return out.subarray(0, endsWithTail(out) ? out.length - TAIL.length : out.length);
    },
  };
}

function endsWithTail(data: Uint8Array): boolean {
  const n = data.length;
  return n >= 4 && data[n - 4] === 0 && data[n - 3] === 0 && data[n - 2] === 0xff && data[n - 1] === 0xff;
}
