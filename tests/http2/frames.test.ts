// HTTP/2 framing: each frame type parsed and encoded, and each RFC 9113 rule on frames giving the
// error (connection or stream, and its code) the RFC names.
import { describe, expect, it } from 'vitest';
import { concatAll } from '../../src/bytes.js';
import { ConnectionError, ErrorCode, errorCodeName, StreamError } from '../../src/http2/errors.js';
import {
  CLIENT_PREFACE,
  encodeData,
  encodeGoaway,
  encodeHeaders,
  encodePing,
  encodeRstStream,
  encodeSettings,
  encodeWindowUpdate,
  Flag,
  frame,
  FrameReader,
  FrameType,
  parseFrame,
  readFrameHeader,
  type RawFrame,
  SETTINGS_ACK,
  SettingId,
  type Frame,
} from '../../src/http2/frame/index.js';
import { rng } from '../http1/corpus.js';
import { bytesCopied, collectedSoon } from '../helpers.js';

/** Parses one encoded frame back. */
function roundTrip(bytes: Uint8Array): Frame {
  const [raw] = new FrameReader(16_384, { preface: false }).push(bytes);
  return parseFrame(raw.header, raw.payload);
}

/** The error parsing `bytes` throws, as [kind, code, stream]. */
function failure(bytes: Uint8Array): [string, string, number?] {
  try {
    roundTrip(bytes);
  } catch (error) {
    if (error instanceof StreamError) return ['stream', error.code, error.streamId];
    if (error instanceof ConnectionError) return ['connection', error.code];
    throw error;
  }
  return ['none', ''];
}

const bytes = (...values: number[]) => new Uint8Array(values);

describe('frame header (§4.1)', () => {
  it('reads length, type, flags and stream id, ignoring the reserved bit', () => {
    const f = frame(FrameType.HEADERS, Flag.END_HEADERS, 0x7fff_ffff, bytes(1, 2, 3));
    expect([...f.subarray(0, 9)]).toEqual([0, 0, 3, 1, 4, 0x7f, 0xff, 0xff, 0xff]);
    f[5] |= 0x80;
    expect(readFrameHeader(f)).toEqual({ length: 3, type: 1, flags: 4, streamId: 0x7fff_ffff });
  });
});

describe('frames round trip', () => {
  it('DATA, with END_STREAM', () => {
    expect(roundTrip(encodeData(3, bytes(1, 2), true))).toEqual({
      type: 'data',
      streamId: 3,
      data: bytes(1, 2),
      endStream: true,
      flowLength: 2,
    });
  });

  it('padded DATA: the data without padding, flow control counting all of it (§6.1)', () => {
    const padded = frame(FrameType.DATA, Flag.PADDED, 1, bytes(3, 9, 9, 0, 0, 0));
    expect(roundTrip(padded)).toMatchObject({ data: bytes(9, 9), flowLength: 6 });
  });

  it('HEADERS split into CONTINUATION frames past the max frame size (§4.3)', () => {
    const block = new Uint8Array(40_000).map((_, i) => i & 0xff);
    const frames = encodeHeaders(5, block, true, 16_384);
    expect(frames.map((f) => readFrameHeader(f)).map((h) => [h.type, h.flags, h.length])).toEqual([
      [FrameType.HEADERS, Flag.END_STREAM, 16_384],
      [FrameType.CONTINUATION, 0, 16_384],
      [FrameType.CONTINUATION, Flag.END_HEADERS, 40_000 - 32_768],
    ]);
    const parsed = frames.map(roundTrip);
    expect(parsed[0]).toMatchObject({ type: 'headers', endStream: true, endHeaders: false });
    expect(parsed[2]).toMatchObject({ type: 'continuation', endHeaders: true });
    const joined = new Uint8Array(40_000);
    let at = 0;
    for (const f of parsed) {
      const fragment = (f as { fragment: Uint8Array }).fragment;
      joined.set(fragment, at);
      at += fragment.length;
    }
    expect(joined).toEqual(block);
  });

  it('HEADERS with padding and (ignored) priority fields (§6.2)', () => {
    const payload = bytes(2, 0, 0, 0, 7, 16, 0x82, 0x84, 0, 0);
    expect(roundTrip(frame(FrameType.HEADERS, Flag.PADDED | Flag.PRIORITY | Flag.END_HEADERS, 1, payload))).toEqual({
      type: 'headers',
      streamId: 1,
      fragment: bytes(0x82, 0x84),
      endStream: false,
      endHeaders: true,
    });
  });

  it('SETTINGS in order, unknown ids dropped (§6.5.2), and the ACK', () => {
    const settings = encodeSettings([
      [SettingId.MAX_CONCURRENT_STREAMS, 100],
      [SettingId.INITIAL_WINDOW_SIZE, 65_535],
    ]);
    expect(roundTrip(settings)).toEqual({
      type: 'settings',
      ack: false,
      settings: [
        [3, 100],
        [4, 65_535],
      ],
    });
    expect(roundTrip(frame(FrameType.SETTINGS, 0, 0, bytes(0, 0x99, 0, 0, 0, 1)))).toEqual({ type: 'settings', ack: false, settings: [] });
    expect(roundTrip(SETTINGS_ACK)).toEqual({ type: 'settings', ack: true, settings: [] });
  });

  it('PING, GOAWAY, RST_STREAM, WINDOW_UPDATE, PRIORITY, and an unknown type (ignored, §5.5)', () => {
    expect(roundTrip(encodePing(bytes(1, 2, 3, 4, 5, 6, 7, 8), true))).toEqual({
      type: 'ping',
      ack: true,
      opaque: bytes(1, 2, 3, 4, 5, 6, 7, 8),
    });
    const goaway = roundTrip(encodeGoaway(7, ErrorCode.ENHANCE_YOUR_CALM, 'too many resets'));
    expect(goaway).toMatchObject({ type: 'goaway', lastStreamId: 7, errorCode: 0xb });
    expect(new TextDecoder().decode((goaway as { debug: Uint8Array }).debug)).toBe('too many resets');
    expect(roundTrip(encodeRstStream(9, ErrorCode.CANCEL))).toEqual({ type: 'rst_stream', streamId: 9, errorCode: 8 });
    expect(roundTrip(encodeWindowUpdate(0, 0x7fff_ffff))).toEqual({ type: 'window_update', streamId: 0, increment: 0x7fff_ffff });
    expect(roundTrip(frame(FrameType.PRIORITY, 0, 3, bytes(0, 0, 0, 1, 16)))).toEqual({ type: 'priority', streamId: 3 });
    expect(roundTrip(frame(0xfa, 0xff, 1, bytes(1, 2, 3)))).toEqual({ type: 'unknown', frameType: 0xfa, streamId: 1 });
  });
});

describe('frame errors, as RFC 9113 names them', () => {
  const cases: [string, Uint8Array, [string, string, number?]][] = [
    ['DATA on stream 0 (§6.1)', frame(FrameType.DATA, 0, 0, bytes(1)), ['connection', 'PROTOCOL_ERROR']],
    ['DATA padding filling the payload (§6.1)', frame(FrameType.DATA, Flag.PADDED, 1, bytes(3, 0, 0)), ['connection', 'PROTOCOL_ERROR']],
    ['HEADERS on stream 0 (§6.2)', frame(FrameType.HEADERS, Flag.END_HEADERS, 0, bytes(0x82)), ['connection', 'PROTOCOL_ERROR']],
    [
      'HEADERS padding past the payload (§6.2)',
      frame(FrameType.HEADERS, Flag.PADDED | Flag.END_HEADERS, 1, bytes(5, 0x82)),
      ['connection', 'PROTOCOL_ERROR'],
    ],
    [
      'HEADERS depending on itself (§5.3.1)',
      frame(FrameType.HEADERS, Flag.PRIORITY | Flag.END_HEADERS, 1, bytes(0, 0, 0, 1, 16, 0x82)),
      ['stream', 'PROTOCOL_ERROR', 1],
    ],
    ['PRIORITY on stream 0 (§6.3)', frame(FrameType.PRIORITY, 0, 0, bytes(0, 0, 0, 1, 16)), ['connection', 'PROTOCOL_ERROR']],
    ['PRIORITY of 4 bytes (§6.3)', frame(FrameType.PRIORITY, 0, 3, bytes(0, 0, 0, 1)), ['stream', 'FRAME_SIZE_ERROR', 3]],
    ['RST_STREAM on stream 0 (§6.4)', encodeRstStream(0, 0), ['connection', 'PROTOCOL_ERROR']],
    ['RST_STREAM of 3 bytes (§6.4)', frame(FrameType.RST_STREAM, 0, 1, bytes(0, 0, 8)), ['connection', 'FRAME_SIZE_ERROR']],
    ['SETTINGS on a stream (§6.5)', frame(FrameType.SETTINGS, 0, 1, bytes()), ['connection', 'PROTOCOL_ERROR']],
    [
      'SETTINGS ACK with a payload (§6.5)',
      frame(FrameType.SETTINGS, Flag.ACK, 0, bytes(0, 3, 0, 0, 0, 1)),
      ['connection', 'FRAME_SIZE_ERROR'],
    ],
    ['SETTINGS of 5 bytes (§6.5)', frame(FrameType.SETTINGS, 0, 0, bytes(0, 3, 0, 0, 0)), ['connection', 'FRAME_SIZE_ERROR']],
    ['SETTINGS_ENABLE_PUSH 2 (§6.5.2)', encodeSettings([[SettingId.ENABLE_PUSH, 2]]), ['connection', 'PROTOCOL_ERROR']],
    [
      'SETTINGS_INITIAL_WINDOW_SIZE 2^31 (§6.5.2)',
      encodeSettings([[SettingId.INITIAL_WINDOW_SIZE, 2 ** 31]]),
      ['connection', 'FLOW_CONTROL_ERROR'],
    ],
    ['SETTINGS_MAX_FRAME_SIZE 16383 (§6.5.2)', encodeSettings([[SettingId.MAX_FRAME_SIZE, 16_383]]), ['connection', 'PROTOCOL_ERROR']],
    ['SETTINGS_MAX_FRAME_SIZE 2^24 (§6.5.2)', encodeSettings([[SettingId.MAX_FRAME_SIZE, 2 ** 24]]), ['connection', 'PROTOCOL_ERROR']],
    [
      'PUSH_PROMISE from a client (§8.4)',
      frame(FrameType.PUSH_PROMISE, Flag.END_HEADERS, 1, bytes(0, 0, 0, 2, 0x82)),
      ['connection', 'PROTOCOL_ERROR'],
    ],
    ['PING on a stream (§6.7)', frame(FrameType.PING, 0, 1, new Uint8Array(8)), ['connection', 'PROTOCOL_ERROR']],
    ['PING of 7 bytes (§6.7)', frame(FrameType.PING, 0, 0, new Uint8Array(7)), ['connection', 'FRAME_SIZE_ERROR']],
    ['GOAWAY on a stream (§6.8)', frame(FrameType.GOAWAY, 0, 1, new Uint8Array(8)), ['connection', 'PROTOCOL_ERROR']],
    ['GOAWAY of 7 bytes (§6.8)', frame(FrameType.GOAWAY, 0, 0, new Uint8Array(7)), ['connection', 'FRAME_SIZE_ERROR']],
    ['WINDOW_UPDATE of 0 on the connection (§6.9)', encodeWindowUpdate(0, 0), ['connection', 'PROTOCOL_ERROR']],
    ['WINDOW_UPDATE of 0 on a stream (§6.9)', encodeWindowUpdate(5, 0), ['stream', 'PROTOCOL_ERROR', 5]],
    ['WINDOW_UPDATE of 3 bytes (§6.9)', frame(FrameType.WINDOW_UPDATE, 0, 0, bytes(0, 0, 1)), ['connection', 'FRAME_SIZE_ERROR']],
    ['CONTINUATION on stream 0 (§6.10)', frame(FrameType.CONTINUATION, Flag.END_HEADERS, 0, bytes(0x82)), ['connection', 'PROTOCOL_ERROR']],
  ];
  it.each(cases)('%s', (_, input, expected) => {
    expect(failure(input)).toEqual(expected);
  });

  it('names error codes both ways (§7)', () => {
    expect(new ConnectionError('FLOW_CONTROL_ERROR').errorCode).toBe(3);
    expect(new StreamError(1, 'REFUSED_STREAM').errorCode).toBe(7);
    expect(errorCodeName(0xd)).toBe('HTTP_1_1_REQUIRED');
    expect(errorCodeName(0x99)).toBeUndefined();
  });
});

describe('frame reader', () => {
  const ping = encodePing(new Uint8Array(8), false);

  it('checks the client preface, then reads frames split at every byte and several per chunk (§3.4)', () => {
    const stream = new Uint8Array([...CLIENT_PREFACE, ...SETTINGS_ACK, ...ping, ...encodeData(1, bytes(7), true)]);
    const reader = new FrameReader();
    const types: number[] = [];
    for (const byte of stream) for (const raw of reader.push(bytes(byte))) types.push(raw.header.type);
    expect(types).toEqual([FrameType.SETTINGS, FrameType.PING, FrameType.DATA]);
    expect(new FrameReader().push(stream).map((r) => r.header.type)).toEqual(types);
  });

  it('reads frames of any size from reads of any size, and never writes over a payload it handed out', () => {
    const random = rng(9113);
    const sizes = [0, 1, 8, 9, 100, 16_384, 70_000, 3, 250_000, 0, 5_000];
    const sent = sizes.map((size, i) => Uint8Array.from({ length: size }, (_, k) => (k * 7 + i) & 0xff));
    const wire = concatAll([CLIENT_PREFACE, ...sent.map((payload) => encodeData(1, payload, false))]);
    for (let round = 0; round < 20; round++) {
      const reader = new FrameReader(1 << 20);
      const got: Uint8Array[] = [];
      for (let at = 0; at < wire.length;) {
        // Pieces of 1 byte to 200 KB, most of them small.
        const length = Math.ceil(random() ** 4 * 200_000);
        for (const raw of reader.push(wire.slice(at, at + length))) got.push(raw.payload);
        at += length;
      }
      // (Compared as Buffers: a deep equal of 350 KB element by element took seconds.)
      expect(got.map((payload) => Buffer.from(payload).toString('hex'))).toEqual(
        sent.map((payload) => Buffer.from(payload).toString('hex')),
      );
    }
  });

  it('copies a frame that comes in many reads a few times over, not once per read', () => {
    const payload = new Uint8Array(1 << 20);
    const wire = frame(0xfa, 0, 0, payload);
    const reader = new FrameReader(1 << 24, { preface: false });
    const frames: RawFrame[] = [];
    const copied = bytesCopied(() => {
      for (let at = 0; at < wire.length; at += 1448) frames.push(...reader.push(wire.subarray(at, at + 1448)));
    });
    expect(frames.map((raw) => raw.payload.length)).toEqual([payload.length]);
    // Joined to all before it on every read, this was 725 reads copying 761 MB.
    expect(copied).toBeLessThan(4 * wire.length);
  });

  it('lets go of a frame that came in pieces once it is read (an idle connection holds none of it)', async () => {
    const wire = frame(FrameType.DATA, 0, 1, new Uint8Array(10_000));
    const reader = new FrameReader(16_384, { preface: false });
    expect(reader.push(wire.slice(0, 4000))).toEqual([]);
    const [raw] = reader.push(wire.slice(4000));
    // The payload is a view of the two pieces joined into one buffer of the reader's.
    const joined = new WeakRef(raw.payload.buffer);
    expect(joined.deref()!.byteLength).toBeGreaterThan(wire.length);
    raw.payload = new Uint8Array(0);
    expect(await collectedSoon(joined)).toBe(true);
  });

  it('refuses a connection that does not start with the preface, as soon as a byte differs', () => {
    expect(() => new FrameReader().push(new TextEncoder().encode('GET / HTTP/1.1\r\n'))).toThrow(ConnectionError);
    expect(() => new FrameReader().push(new TextEncoder().encode('PRI * HTTP/1.1'))).toThrow(/client preface/);
  });

  it('refuses a frame over the max frame size from its header alone (§4.2)', () => {
    const reader = new FrameReader(16_384, { preface: false });
    const header = frame(FrameType.DATA, 0, 1, new Uint8Array(16_385)).subarray(0, 9);
    expect(() => reader.push(header)).toThrow(expect.objectContaining({ code: 'FRAME_SIZE_ERROR' }));
    expect(new FrameReader(1 << 20, { preface: false }).push(frame(FrameType.DATA, 0, 1, new Uint8Array(16_385)))).toHaveLength(1);
  });
});
