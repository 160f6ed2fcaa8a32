import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder, IpcFrameType, jsonCodec } from '../../src/ipc/index.js';
import { msgpackCodec, msgpackrRecordsCodec } from '../../src/ipc/msgpack.js';
import { errorCode } from '../helpers.js';

const frames = () => [
  encodeFrame(IpcFrameType.REQUEST, 1, msgpackCodec.encode(['add', [1, 2]])),
  encodeFrame(IpcFrameType.RESPONSE, 1, msgpackCodec.encode(3)),
  encodeFrame(IpcFrameType.EVENT, 0, new Uint8Array(0)),
  encodeFrame(IpcFrameType.REQUEST, 0xffff_fffe, new Uint8Array(1000).fill(7)),
];

const join = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
};

describe('frames', () => {
  it('decode the same whether split at every byte or joined in one chunk', () => {
    const wire = join(frames());
    const whole = new FrameDecoder().push(wire);
    expect(whole.map((f) => [f.type, f.id, f.payload.length])).toEqual([
      [2, 1, 8],
      [3, 1, 1],
      [6, 0, 0],
      [2, 0xffff_fffe, 1000],
    ]);
    expect(msgpackCodec.decode(whole[0].payload)).toEqual(['add', [1, 2]]);
    for (const step of [1, 2, 3, 7, 13, 500]) {
      const decoder = new FrameDecoder();
      const got = [];
      for (let i = 0; i < wire.length; i += step) got.push(...decoder.push(wire.subarray(i, i + step)));
      decoder.end();
      const plain = (list: typeof whole) => list.map((f) => [f.type, f.id, Array.from(f.payload)]);
      expect(plain(got)).toEqual(plain(whole));
    }
  });

  it('reassemble a frame spread over many chunks, with the next frames in its last chunk', () => {
    const big = new Uint8Array(1 << 20);
    for (let i = 0; i < big.length; i++) big[i] = i * 31;
    const wire = join([encodeFrame(IpcFrameType.DATA, 9, big), ...frames()]);
    const decoder = new FrameDecoder();
    const got = [];
    // Chunks of 4 KiB, then 3 and 2 bytes (a header cut before and after its type byte), then the rest.
    let at = 0;
    for (const size of [...Array<number>(256).fill(4096), 3, 2, 6, 1]) {
      got.push(...decoder.push(wire.subarray(at, at + size)));
      at += size;
    }
    got.push(...decoder.push(wire.subarray(at)));
    decoder.end();
    expect(got.map((f) => [f.type, f.id, f.payload.length])).toEqual([
      [IpcFrameType.DATA, 9, 1 << 20],
      [2, 1, 8],
      [3, 1, 1],
      [6, 0, 0],
      [2, 0xffff_fffe, 1000],
    ]);
    expect(Buffer.compare(got[0].payload, big)).toBe(0); // (toEqual walks a million elements slowly)
  });

  it('hold what arrived of a frame, not what its header announces', () => {
    // 200 frames announced at the 16 MiB limit, 20 bytes of each sent: 3.2 GB if allocated up front.
    const header = encodeFrame(IpcFrameType.DATA, 1, new Uint8Array(0));
    header.set([0, 0xff, 0xff, 0xf7], 0); // length: 16 MiB minus the 4 length bytes
    const before = process.memoryUsage().arrayBuffers;
    const decoders = Array.from({ length: 200 }, () => new FrameDecoder());
    for (const decoder of decoders) expect(decoder.push(join([header, new Uint8Array(11)]))).toEqual([]);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 1024 * 1024);
    expect(errorCode(() => decoders[0].end())).toBe('ERR_TRUNCATED_FRAME');
  });

  it('refuse to make a frame over the limit, before sending anything', () => {
    expect(errorCode(() => encodeFrame(IpcFrameType.EVENT, 0, new Uint8Array(100), 108))).toBe('ERR_FRAME_TOO_LARGE');
    expect(encodeFrame(IpcFrameType.EVENT, 0, new Uint8Array(99), 108).length).toBe(108);
  });

  it('reject an oversize frame from its length alone, without waiting for the payload', () => {
    const decoder = new FrameDecoder(1024);
    expect(errorCode(() => decoder.push(Uint8Array.of(0, 0, 0x10, 0)))).toBe('ERR_FRAME_TOO_LARGE');
    expect(errorCode(() => decoder.push(new Uint8Array(1)))).toBe('ERR_FRAME_TOO_LARGE');
  });

  it('say so when a refused length reads as text: a program printed to the pipe (console.log on stdout)', () => {
    const printed = new TextEncoder().encode('worker starting\n');
    const hint = '; its bytes read as text ("worker starting\\n"): did the other side print to this pipe (console.log on stdout)?';
    expect(() => new FrameDecoder().push(printed)).toThrow(`a 2003792495-byte frame is over the 16777216-byte limit${hint}`);
    // Split after 4 bytes, the length is refused from the bytes held: those are quoted.
    const split = new FrameDecoder();
    expect(split.push(printed.subarray(0, 3))).toEqual([]);
    expect(() => split.push(printed.subarray(3, 4))).toThrow('its bytes read as text ("work")');
    // A longer text is quoted in part.
    expect(() => new FrameDecoder(1 << 30).push(new TextEncoder().encode('ok\n'.repeat(10)))).toThrow(
      'its bytes read as text ("ok\\nok\\nok\\nok\\nok\\nok\\nok\\nok\\n"…)',
    );
    // Binary garbage is not quoted.
    expect(() => new FrameDecoder().push(Uint8Array.of(0xff, 0xfe, 0x20, 0x20))).toThrow(/limit$/);
    expect(() => new FrameDecoder().push(Uint8Array.of(0, 0, 0, 2, 1, 0))).toThrow(/header$/);
  });

  it('reject a corrupt length, an unknown type and a truncated end', () => {
    expect(errorCode(() => new FrameDecoder().push(Uint8Array.of(0, 0, 0, 2, 1, 0)))).toBe('ERR_CORRUPT_FRAME');
    expect(errorCode(() => new FrameDecoder().push(Uint8Array.of(0, 0, 0, 5, 99, 0, 0, 0, 0)))).toBe('ERR_UNKNOWN_MESSAGE_TYPE');
    const decoder = new FrameDecoder();
    decoder.push(frames()[0].subarray(0, 6));
    expect(errorCode(() => decoder.end())).toBe('ERR_TRUNCATED_FRAME');
  });

  it('codecs round-trip and refuse garbage with a clear error', () => {
    const value = { id: 7, tags: ['a', 'b'], nested: { ok: true, n: null }, text: 'é☃' };
    expect(jsonCodec.decode(jsonCodec.encode(value))).toEqual(value);
    expect(msgpackCodec.decode(msgpackCodec.encode(value))).toEqual(value);
    expect(errorCode(() => jsonCodec.decode(Uint8Array.of(0x7b)))).toBe('ERR_DECODE');
    // msgpackr records: shapes are described once and referenced after, in order.
    const sender = msgpackrRecordsCodec();
    const receiver = msgpackrRecordsCodec();
    for (let i = 0; i < 300; i++) {
      const message = i % 3 ? { id: i, name: `n${i}`, nested: { ok: i % 2 === 0 } } : { other: [i, 'x'], id: i };
      expect(receiver.decode(sender.encode(message))).toEqual(message);
    }
    expect(errorCode(() => msgpackCodec.decode(Uint8Array.of(0x92, 0x01)))).toBe('ERR_DECODE'); // an array cut short
  });
});
