// Random frames after a client's preface, over real sockets to each adapter's h2c server: real and
// broken header blocks, DATA, RST_STREAM, WINDOW_UPDATE, PING, SETTINGS, GOAWAY, PRIORITY,
// CONTINUATION, PUSH_PROMISE, unknown types and plain junk, on streams the client may and may not
// use, then a half-close. Whatever the frames, each connection ends within a bound (with a GOAWAY
// of a known code, or closed after the client's end), and the server serves on.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { Flag, frame, FrameType } from '../../src/http2/frame/header.js';
import { CLIENT_PREFACE, encodeSettings, FrameReader, type RawFrame } from '../../src/http2/frame/index.js';
import { HpackEncoder } from '../../src/hpack/index.js';
import { rng } from '../http1/corpus.js';
import { launchDeno, launchNode } from '../server/launchers.js';
import { useServer, type Launcher } from '../server/suite.js';

/** Connections per adapter, how many at once, how long one may take after the client's end. */
const CONNECTIONS = 800;
const AT_ONCE = 10;
const CLOSE_WITHIN_MS = 3000;
/** RFC 9113 §7: the error codes there are. */
const ERROR_CODES = 0xd;
const PATHS = ['/hello', '/echo', '/stream', '/throw', '/slow?ms=5', '/repeat?n=70000&unit=x', '/missing'];
const STREAM_IDS = [0, 1, 1, 3, 3, 5, 2, 0x7fff_ffff];
const SETTING_IDS = [1, 2, 3, 4, 5, 6, 8, 9, 0x77];
const SETTING_VALUES = [0, 1, 100, 16_384, 65_535, 16_777_215, 2 ** 31, 2 ** 32 - 1];
const WINDOW_INCREMENTS = [0, 1, 1000, 65_535, 0x7fff_ffff, 0x8000_0000];

function randomFrames(random: () => number): Uint8Array[] {
  const below = (n: number) => Math.floor(random() * n);
  const pick = <T>(list: readonly T[]) => list[below(list.length)]!;
  const junk = (n: number) => Uint8Array.from({ length: n }, () => below(256));
  const u32 = (value: number) => Uint8Array.of(value >>> 24, value >>> 16, value >>> 8, value);
  const hpack = new HpackEncoder();
  const headers = (id: number, broken: boolean) => {
    const fields: [string, string][] = [
      [':method', pick(['GET', 'POST', 'HEAD', 'CONNECT', ''])],
      [':scheme', 'http'],
      [':path', pick(PATHS)],
      [':authority', 'localhost'],
    ];
    if (random() < 0.2) fields.push(['content-length', String(below(100))]);
    if (random() < 0.1) fields.push(['connection', 'close']);
    if (random() < 0.1) fields.splice(below(fields.length), 1);
    let block = hpack.encode(fields);
    if (broken) block = block.subarray(0, below(block.length));
    let flags = (random() < 0.7 ? Flag.END_HEADERS : 0) | (random() < 0.5 ? Flag.END_STREAM : 0);
    if (random() < 0.1) {
      flags |= Flag.PADDED;
      block = Uint8Array.from([below(20), ...block, ...junk(below(20))]);
    }
    return frame(FrameType.HEADERS, flags, id, block);
  };
  const frames: Uint8Array[] = [];
  for (let n = 1 + below(8); n > 0; n--) {
    const id = pick(STREAM_IDS);
    const settings = Array.from({ length: below(4) }, () => [pick(SETTING_IDS), pick(SETTING_VALUES)] as [number, number]);
    frames.push(
      [
        () => headers(id, random() < 0.1),
        () => headers(pick([1, 3, 5, 7, 9]), false), // a well-formed request
        () => frame(FrameType.DATA, random() < 0.5 ? Flag.END_STREAM : 0, id, junk(below(200))),
        () => frame(FrameType.RST_STREAM, 0, id, junk(pick([4, 4, 3, 5]))),
        () => frame(FrameType.WINDOW_UPDATE, 0, id, random() < 0.9 ? u32(pick(WINDOW_INCREMENTS)) : junk(below(6))),
        () => frame(FrameType.PING, random() < 0.3 ? Flag.ACK : 0, random() < 0.9 ? 0 : id, junk(random() < 0.9 ? 8 : below(12))),
        () => frame(FrameType.SETTINGS, random() < 0.2 ? Flag.ACK : 0, random() < 0.9 ? 0 : id, encodeSettings(settings).subarray(9)),
        () => frame(FrameType.CONTINUATION, random() < 0.5 ? Flag.END_HEADERS : 0, id, junk(below(30))),
        () => frame(FrameType.PRIORITY, 0, id, junk(pick([5, 5, 4]))),
        () => frame(FrameType.GOAWAY, 0, random() < 0.9 ? 0 : id, junk(8 + below(10))),
        () => frame(pick([FrameType.PUSH_PROMISE, 0xa, 0xff]), below(256), id, junk(below(30))),
        () => junk(below(20)),
      ][below(12)]!(),
    );
  }
  return frames;
}

interface Outcome {
  frames: string;
  closed: boolean;
  goaway: number | null;
}

function connection(port: number, frames: Uint8Array[], random: () => number): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const reader = new FrameReader(16_777_215, { preface: false });
    let goaway: number | null = null;
    let readable = true;
    let timer: NodeJS.Timeout | undefined;
    const sent = frames.map((f) => (f.length >= 9 ? `type ${f[3]} flags ${f[4]} length ${f.length - 9}` : 'junk')).join(', ');
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ frames: sent, closed, goaway });
    };
    socket.on('data', (chunk: Buffer) => {
      if (!readable) return;
      try {
        for (const { header, payload } of reader.push(chunk) as RawFrame[])
          if (header.type === FrameType.GOAWAY)
            goaway = ((payload[4]! << 24) | (payload[5]! << 16) | (payload[6]! << 8) | payload[7]!) >>> 0;
      } catch {
        readable = false; // the server's frames are its own to get right: frames.test.ts checks them
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => done(true));
    socket.on('connect', async () => {
      for (const piece of [CLIENT_PREFACE, encodeSettings([]), ...frames]) {
        if (socket.destroyed) return;
        socket.write(piece);
        if (random() < 0.3) await new Promise((r) => setTimeout(r, 1));
      }
      socket.end();
      timer = setTimeout(() => done(false), CLOSE_WITHIN_MS);
    });
  });
}

function fuzz(adapter: string, launch: Launcher): void {
  describe(`${adapter}: random HTTP/2 frames over real sockets`, () => {
    const server = useServer(launch, { http2: true });
    it(`ends ${CONNECTIONS} connections of random frames within ${CLOSE_WITHIN_MS} ms, with known error codes, and serves on`, async () => {
      const random = rng(adapter === 'node' ? 3 : 4);
      const outcomes: Outcome[] = [];
      let started = 0;
      await Promise.all(
        Array.from({ length: AT_ONCE }, async () => {
          while (started++ < CONNECTIONS) outcomes.push(await connection(server.port, randomFrames(random), random));
        }),
      );
      expect(
        outcomes.filter((o) => !o.closed).map((o) => o.frames),
        'left open',
      ).toEqual([]);
      const codes = new Map<number, number>();
      for (const { goaway } of outcomes) if (goaway !== null) codes.set(goaway, (codes.get(goaway) ?? 0) + 1);
      expect(
        [...codes.keys()].filter((code) => code > ERROR_CODES),
        'unknown error codes',
      ).toEqual([]);
      // The frames reach the checks: protocol errors and clean ends are both common.
      expect(codes.get(1)).toBeGreaterThan(CONNECTIONS / 10); // PROTOCOL_ERROR
      expect(outcomes.filter((o) => o.goaway === null || o.goaway === 0).length).toBeGreaterThan(CONNECTIONS / 10);
      expect(await (await fetch(`${server.url}/hello`)).text()).toBe('Hello World!');
    });
  });
}

fuzz('node', launchNode);
fuzz('deno', launchDeno);
