// The runtime-agnostic WebSocket pieces: the wasm frame decoder behind FrameDecoder, the message
// reader's limits and UTF-8 checks, close payloads and the handshake's rules.
import { describe, expect, it } from 'vitest';
import { upgradeWebSocket } from '../../src/server/websocket/upgrade.js';
import {
  acceptValue,
  checkHandshake,
  closePayload,
  encodeFrame,
  FrameDecoder,
  frameHeader,
  isValidWireCloseCode,
  MessageReader,
  negotiateDeflate,
  offeredProtocols,
  parseClosePayload,
  WebSocketError,
  WebSocketHandshakeError,
  type MessageSink,
} from '../../src/websocket/index.js';
import type { FrameMemory } from '../../src/websocket/frame.js';
import { OPT_RSV1 } from '../../src/wasm/abi.js';
import { clientFrame, closeFrame } from './raw-client.js';

type Event = [kind: string, value: string | number[]];

/** A sink that passes every event to `record`. */
function sinkOf(record: (event: Event) => void): MessageSink {
  return {
    text: (data) => record(['text', data]),
    binary: (data) => record(['binary', [...data]]),
    ping: (payload) => record(['ping', [...payload]]),
    pong: (payload) => record(['pong', [...payload]]),
    close: (code, reason) => record(['close', `${code} ${reason}`]),
  };
}

/** A decoder and reader that record what they deliver. */
function reader(limits = { maxPayload: 1 << 20, maxFragments: 100 }, memory?: FrameMemory) {
  const events: Event[] = [];
  const sink: MessageSink = {
    text: (data) => events.push(['text', data]),
    // Long payloads compared by length and checksum (deep-comparing 70,000 numbers 400 times is slow).
    binary: (data) => events.push(['binary', [data.length, data.reduce((sum, byte) => (sum * 31 + byte) >>> 0, 0)]]),
    ping: (payload) => events.push(['ping', [...payload]]),
    pong: (payload) => events.push(['pong', [...payload]]),
    close: (code, reason) => events.push(['close', `${code} ${reason}`]),
  };
  const decoder = new FrameDecoder(new MessageReader(sink, limits), { maxFrame: limits.maxPayload, memory });
  return { decoder, events };
}

const errorOf = (fn: () => void) => {
  try {
    fn();
  } catch (error) {
    return error as WebSocketError;
  }
  return null;
};

describe('FrameDecoder + MessageReader', () => {
  const wire = Buffer.concat([
    clientFrame(0x81, 'héllo'),
    clientFrame(0x02, Buffer.alloc(200, 1)),
    clientFrame(0x89, 'ping!'),
    clientFrame(0x00, Buffer.alloc(70_000, 2)),
    clientFrame(0x8a, ''),
    clientFrame(0x80, Buffer.from([3])),
    clientFrame(0x01, Buffer.from('✓'.repeat(3)).subarray(0, 4)),
    clientFrame(0x80, Buffer.from('✓'.repeat(3)).subarray(4)),
    closeFrame(1000, 'bye'),
  ]);
  const expected: Event[] = [
    ['text', 'héllo'],
    ['ping', [...Buffer.from('ping!')]],
    ['pong', []],
    [
      'binary',
      ((data: Uint8Array) => [data.length, data.reduce((sum, byte) => (sum * 31 + byte) >>> 0, 0)])(
        Buffer.concat([Buffer.alloc(200, 1), Buffer.alloc(70_000, 2), Buffer.from([3])]),
      ),
    ],
    ['text', '✓✓✓'],
    ['close', '1000 bye'],
  ];

  it('delivers the same messages however the input is split (every split point for the first 400 bytes)', () => {
    for (let split = 1; split < 400; split++) {
      const { decoder, events } = reader();
      decoder.push(wire.subarray(0, split));
      decoder.push(wire.subarray(split));
      expect(events, `split at ${split}`).toEqual(expected);
    }
  });

  it('delivers the same messages fed one byte at a time, and in pieces of many sizes', () => {
    for (const step of [1, 3, 7, 64, 4096, wire.length]) {
      const { decoder, events } = reader();
      for (let i = 0; i < wire.length; i += step) decoder.push(wire.subarray(i, i + step));
      expect(events, `step ${step}`).toEqual(expected);
    }
  });

  it('puts a binary frame that spans reads together in one buffer of its length, every byte as sent', () => {
    const payload = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7 + 3) & 0xff));
    // Memory full of garbage, as Buffer.allocUnsafe gives: each delivered byte must have been written.
    const given: Uint8Array[] = [];
    const memory: FrameMemory = { allocate: (size) => (given[given.length] = new Uint8Array(size).fill(0xee)) };
    const cases: [size: number, splits: number[]][] = [
      [300, Array.from({ length: 305 }, (_, i) => i + 1)], // every boundary: in the header, the mask, the payload
      [70_000, [1, 3, 9, 14, 15, 1000, 65_536, 69_999, 70_013]],
    ];
    for (const [size, splits] of cases) {
      const frame = clientFrame(0x82, payload(size));
      for (const split of splits) {
        given.length = 0;
        const delivered: Uint8Array[] = [];
        const decoder = new FrameDecoder(
          new MessageReader({ ...sinkOf(() => {}), binary: (data) => delivered.push(data) }, { maxPayload: 1 << 20, maxFragments: 100 }),
          { maxFrame: 1 << 20, memory },
        );
        decoder.push(frame.subarray(0, split));
        decoder.push(frame.subarray(split, split + 40_000));
        decoder.push(frame.subarray(split + 40_000));
        expect(delivered.length, `${size} B split at ${split}`).toBe(1);
        expect(Buffer.compare(delivered[0], payload(size)), `${size} B split at ${split}`).toBe(0);
        // Assembled only when the payload really was split; then the message is the last buffer
        // made (a larger one may have grown through smaller ones).
        const spans = size > 40_000 || (split >= frame.length - size && split < frame.length);
        if (spans) expect(delivered[0], `${size} B split at ${split}`).toBe(given.at(-1));
        else expect(given.length, `${size} B split at ${split}`).toBe(0);
      }
    }
  });

  it('grows a large binary frame with what arrives (never past twice that, or 4 KiB), and keeps text in pieces', () => {
    const allocations: [size: number, arrived: number][] = [];
    let arrived = 0;
    const memory: FrameMemory = { allocate: (size) => (allocations.push([size, arrived]), new Uint8Array(size)) };
    const { decoder, events } = reader({ maxPayload: 4 << 20, maxFragments: 100 }, memory);
    const text = clientFrame(0x81, 'ab'.repeat(50_000));
    decoder.push(text.subarray(0, 5000));
    decoder.push(text.subarray(5000));
    expect(allocations).toEqual([]);

    const length = (3 << 20) + 1;
    const big = clientFrame(0x82, Buffer.alloc(length, 9));
    const header = big.length - length;
    for (let at = 0; at < big.length; at += at === 0 ? header + 10 : 250_000) {
      const piece = big.subarray(at, at === 0 ? header + 10 : at + 250_000);
      arrived += Math.max(0, Math.min(at + piece.length, big.length) - Math.max(at, header));
      decoder.push(piece);
    }
    expect(allocations[0]).toEqual([4 * 1024, 10]);
    // Each buffer at most twice the payload that has arrived, the last one the frame's length.
    for (const [size, arrivedThen] of allocations) expect(size).toBeLessThanOrEqual(Math.max(2 * arrivedThen, 4 * 1024));
    expect(allocations.at(-1)![0]).toBe(length);
    expect(events.map(([kind, value]) => [kind, typeof value === 'string' ? value.length : value[0]])).toEqual([
      ['text', 100_000],
      ['binary', length],
    ]);
  });

  it('keeps its records when a message handler makes another decoder read (nested pushes)', () => {
    const inner = reader();
    const seen: string[] = [];
    const outer = new FrameDecoder(
      new MessageReader(
        {
          ...sinkOf(() => {}),
          // The first message makes the other decoder read several frames while this read's
          // later records are still to be handed out.
          text: (data) => {
            seen.push(data);
            if (data === 'a1') inner.decoder.push(Buffer.concat(['b1', 'b2', 'b3'].map((text) => clientFrame(0x81, text))));
          },
        },
        { maxPayload: 1 << 20, maxFragments: 100 },
      ),
      { maxFrame: 1 << 20 },
    );
    outer.push(Buffer.concat(['a1', 'a2', 'a3', 'a4'].map((text) => clientFrame(0x81, text))));
    expect(seen).toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(inner.events).toEqual([
      ['text', 'b1'],
      ['text', 'b2'],
      ['text', 'b3'],
    ]);
  });

  it('reads thousands of frames in one push (more than one call of records)', () => {
    const many = Buffer.concat(Array.from({ length: 1000 }, (_, i) => clientFrame(0x81, String(i))));
    const { decoder, events } = reader();
    decoder.push(many);
    expect(events.length).toBe(1000);
    expect(events[999]).toEqual(['text', '999']);
  });

  it('holds a message to maxPayload across fragments, from the headers (1009)', () => {
    const { decoder } = reader({ maxPayload: 10, maxFragments: 100 });
    const error = errorOf(() => decoder.push(Buffer.concat([clientFrame(0x01, '123456'), clientFrame(0x80, '78901').subarray(0, 6)])));
    expect(error).toBeInstanceOf(WebSocketError);
    expect([error?.code, error?.closeCode]).toEqual(['ERR_WS_MESSAGE_TOO_BIG', 1009]);
  });

  it('limits the fragments of one message (1008)', () => {
    const { decoder } = reader({ maxPayload: 1000, maxFragments: 3 });
    const frames = [clientFrame(0x01, 'a'), clientFrame(0x00, 'b'), clientFrame(0x00, 'c'), clientFrame(0x80, 'd')];
    const error = errorOf(() => decoder.push(Buffer.concat(frames)));
    expect([error?.code, error?.closeCode]).toEqual(['ERR_WS_TOO_MANY_FRAGMENTS', 1008]);
  });

  it('fails invalid UTF-8 in the first piece that holds it (1007)', () => {
    const { decoder, events } = reader();
    const frame = clientFrame(0x81, Buffer.concat([Buffer.from('ok '), Buffer.from([0xc0, 0xaf]), Buffer.alloc(50, 65)]));
    const error = errorOf(() => decoder.push(frame.subarray(0, 2 + 4 + 5)));
    expect([error?.code, error?.closeCode]).toEqual(['ERR_WS_INVALID_UTF8', 1007]);
    expect(events).toEqual([]);
  });

  it('hands on the frames before a bad one in the same read, in order, then fails', () => {
    const { decoder, events } = reader();
    const read = Buffer.concat([
      clientFrame(0x81, 'first'),
      clientFrame(0x89, 'p'),
      clientFrame(0x01, 'sec'),
      clientFrame(0x80, 'ond'),
      clientFrame(0xa1, 'reserved bit'),
      clientFrame(0x81, 'never'),
    ]);
    const error = errorOf(() => decoder.push(read));
    expect([error?.code, error?.closeCode]).toEqual(['ERR_WS_RESERVED_BITS', 1002]);
    expect(events).toEqual([
      ['text', 'first'],
      ['ping', [0x70]],
      ['text', 'second'],
    ]);
  });

  it.each([
    ['unmasked', 'ERR_WS_UNMASKED', 1002, clientFrame(0x81, 'x', { mask: false })],
    ['reserved opcode', 'ERR_WS_RESERVED_OPCODE', 1002, clientFrame(0x86, '')],
    ['RSV1', 'ERR_WS_RESERVED_BITS', 1002, clientFrame(0xc1, 'x')],
    ['long control', 'ERR_WS_CONTROL_TOO_LONG', 1002, clientFrame(0x8a, Buffer.alloc(126))],
    ['fragmented control', 'ERR_WS_CONTROL_FRAGMENTED', 1002, clientFrame(0x08, '')],
    ['lone continuation', 'ERR_WS_UNEXPECTED_CONTINUATION', 1002, clientFrame(0x80, 'x')],
    ['non-minimal length', 'ERR_WS_NON_MINIMAL_LENGTH', 1002, clientFrame(0x82, 'x', { lengthBytes: 8 })],
    ['close code 1006', 'ERR_WS_INVALID_CLOSE_CODE', 1002, closeFrame(1006)],
    ['frame over the limit', 'ERR_WS_TOO_BIG', 1009, clientFrame(0x82, Buffer.alloc(2 << 20)).subarray(0, 10)],
  ])('refuses a %s frame: %s, close code %i', (_name, code, closeCode, bytes) => {
    const { decoder } = reader();
    const error = errorOf(() => decoder.push(bytes));
    expect([error?.code, error?.closeCode]).toEqual([code, closeCode]);
  });
});

describe('messages that come a byte at a time (1-byte reads, or 1-byte HTTP/2 DATA frames of a WebSocket over HTTP/2)', () => {
  /** Feeds one `length`-byte message of 'a's to a reader a byte at a time; its text or bytes, and the heap it held before its last byte. */
  function byteByByte(first: number, length: number) {
    let received: string | Uint8Array | null = null;
    const sink: MessageSink = { ...sinkOf(() => undefined), text: (data) => (received = data), binary: (data) => (received = data) };
    const limits = { maxPayload: 1 << 23, maxFragments: 10, inflate: (data: Uint8Array) => data };
    const decoder = new FrameDecoder(new MessageReader(sink, limits), { maxFrame: limits.maxPayload, options: OPT_RSV1 });
    const frame = clientFrame(first, Buffer.alloc(length, 'a'));
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < frame.length - 1; i++) decoder.push(frame.subarray(i, i + 1));
    const heldMB = (process.memoryUsage().heapUsed - before) / 1e6;
    decoder.push(frame.subarray(frame.length - 1));
    return { received: received as string | Uint8Array | null, heldMB };
  }

  it('holds text in about its size, not a 32-byte rope node per byte (4 MiB held 120 MB)', () => {
    const { received, heldMB } = byteByByte(0x81, 4 << 20);
    expect(typeof received === 'string' && received.length === 4 << 20 && /^a+$/.test(received)).toBe(true);
    expect(heldMB).toBeLessThan(40);
  });

  it('holds a compressed message in about its size, not a typed array per byte (2 MiB held 320 MB)', () => {
    // The test's inflate passes the bytes on as they are: what counts is what is held before it.
    // A text one: a binary frame is put together in one buffer as it comes, compressed or not.
    const { received, heldMB } = byteByByte(0xc1, 2 << 20);
    expect(typeof received === 'string' && received.length === 2 << 20 && /^a+$/.test(received)).toBe(true);
    expect(heldMB).toBeLessThan(40);
  });
});

describe('frames the server writes', () => {
  it('uses the shortest length form, unmasked (§5.2)', () => {
    expect([...frameHeader(1, 125)]).toEqual([0x81, 125]);
    expect([...frameHeader(2, 126)]).toEqual([0x82, 126, 0, 126]);
    expect([...frameHeader(2, 65_535)]).toEqual([0x82, 126, 255, 255]);
    expect([...frameHeader(2, 65_536)]).toEqual([0x82, 127, 0, 0, 0, 0, 0, 1, 0, 0]);
    expect([...frameHeader(2, 2 ** 32 + 5)]).toEqual([0x82, 127, 0, 0, 0, 1, 0, 0, 0, 5]);
    expect([...frameHeader(0, 1, { fin: false })]).toEqual([0x00, 1]);
    expect([...encodeFrame(9, Uint8Array.of(7))]).toEqual([0x89, 1, 7]);
  });

  it('a whole frame is its header then its payload, at every length form and flag, every byte written', () => {
    for (const length of [0, 125, 126, 65_535, 65_536]) {
      const payload = Uint8Array.from({ length }, (_, i) => (i * 7) & 0xff);
      for (const options of [undefined, { fin: false }, { compressed: true }, { fin: false, compressed: true }]) {
        // Into memory that is not zeroed (Node's transport gives Buffer.allocUnsafe): every byte is written.
        const frame = encodeFrame(2, payload, options, { allocate: (size) => new Uint8Array(size).fill(0xee) });
        const header = frameHeader(2, length, options);
        expect(frame.length, `${length} ${JSON.stringify(options)}`).toBe(header.length + length);
        expect([...frame.subarray(0, header.length)]).toEqual([...header]);
        expect(frame.subarray(header.length)).toEqual(payload);
      }
    }
  });

  it('close payloads: code then reason; a received one is checked (§5.5.1, §7.4)', () => {
    expect([...closePayload(1000, 'ok')]).toEqual([0x03, 0xe8, 0x6f, 0x6b]);
    expect(closePayload(undefined).length).toBe(0);
    expect(parseClosePayload(closePayload(4000, 'é'))).toEqual({ code: 4000, reason: 'é' });
    expect(parseClosePayload(new Uint8Array(0))).toEqual({ code: 1005, reason: '' });
    for (const code of [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999]) {
      expect(isValidWireCloseCode(code), String(code)).toBe(true);
    }
    for (const code of [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535]) {
      expect(isValidWireCloseCode(code), String(code)).toBe(false);
    }
  });
});

describe('the handshake', () => {
  const request = (method: string, fields: Record<string, string>) => ({ method, headers: new Headers(fields) });
  const valid = {
    upgrade: 'websocket',
    connection: 'keep-alive, Upgrade',
    'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
    'sec-websocket-version': '13',
  };

  it('computes the RFC 6455 example accept value (§1.3) in wasm', () => {
    expect(acceptValue('dGhlIHNhbXBsZSBub25jZQ==')).toBe('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
  });

  it('accepts a valid upgrade with tokens in any case and lists', () => {
    expect(checkHandshake(request('GET', { ...valid, upgrade: 'WebSocket', 'sec-websocket-protocol': 'a, b' }), false)).toEqual({
      key: valid['sec-websocket-key'],
      protocols: ['a', 'b'],
    });
  });

  it.each([
    ['POST', valid, 400],
    ['GET', { ...valid, upgrade: 'h2c' }, 400],
    ['GET', { ...valid, connection: 'close' }, 400],
    ['GET', { ...valid, 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ' }, 400],
    ['GET', { ...valid, 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZR==' }, 400],
    ['GET', { ...valid, 'sec-websocket-version': '8' }, 426],
    ['GET', { ...valid, 'sec-websocket-protocol': 'a, a' }, 400],
    ['GET', { ...valid, 'sec-websocket-protocol': 'a b' }, 400],
  ])('refuses %s %j with %d', (method, fields, status) => {
    let error: unknown;
    try {
      checkHandshake(request(method, fields), false);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(WebSocketHandshakeError);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as WebSocketHandshakeError).status).toBe(status);
  });

  it('reads offered subprotocols in order', () => {
    expect(offeredProtocols(null)).toEqual([]);
    expect(offeredProtocols('chat ,  superchat')).toEqual(['chat', 'superchat']);
  });
});

describe('permessage-deflate negotiation (RFC 7692 §7.1)', () => {
  const answer = 'permessage-deflate; server_no_context_takeover; client_no_context_takeover';

  it.each([
    ['permessage-deflate', answer, 15],
    ['permessage-deflate; client_max_window_bits', answer, 15],
    ['permessage-deflate; client_max_window_bits=10; server_no_context_takeover', answer, 15],
    ['permessage-deflate; server_max_window_bits=10', `${answer}; server_max_window_bits=10`, 10],
    ['permessage-deflate; server_max_window_bits="12"', `${answer}; server_max_window_bits=12`, 12],
    ['x-webkit-deflate-frame, permessage-deflate', answer, 15],
    // Unacceptable first offers are skipped for the next one.
    ['permessage-deflate; server_max_window_bits=8, permessage-deflate', answer, 15],
    ['permessage-deflate; unknown, permessage-deflate; client_max_window_bits', answer, 15],
  ])('%s → %s', (offer, expected, bits) => {
    expect(negotiateDeflate(offer)).toEqual({ answer: expected, serverWindowBits: bits });
  });

  it.each([
    null,
    '',
    'x-webkit-deflate-frame',
    'permessage-deflate; server_max_window_bits',
    'permessage-deflate; server_max_window_bits=16',
    'permessage-deflate; client_max_window_bits=7',
    'permessage-deflate; server_no_context_takeover=1',
    'permessage-deflate; server_no_context_takeover; server_no_context_takeover',
    'permessage-deflate; mystery=1',
  ])('declines %j', (offer) => {
    expect(negotiateDeflate(offer)).toBeNull();
  });
});

describe('upgradeWebSocket options', () => {
  it.each([
    ['maxFragments', 0],
    ['maxFragments', 1.5],
    ['maxPayload', 0],
    ['idleTimeout', -1],
    ['maxBufferedAmount', 0],
    ['maxBufferedAmount', -Infinity],
    ['maxBufferedAmount', Number.NaN],
  ])('refuses %s = %s (ERR_OPTION_OUT_OF_RANGE, naming it) before looking at the request', (name, value) => {
    expect(() => upgradeWebSocket(new Request('http://localhost/'), { [name]: value })).toThrow(
      expect.objectContaining({ code: 'ERR_OPTION_OUT_OF_RANGE', option: name }),
    );
  });
});
