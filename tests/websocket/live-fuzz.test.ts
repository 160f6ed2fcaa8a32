// Random client frames over real sockets, sent alike to each adapter's WebSocket echo and to the
// `ws` package's server (the reference: Node's most used WebSocket server), written in pieces cut
// at random points: text, binary, fragmented messages with control frames between their parts,
// pings, closes with every kind of code and reason, unmasked frames, reserved bits and opcodes,
// oversized control frames, invalid UTF-8, messages over maxPayload and plain junk; with
// permessage-deflate, compressed messages too (whole and fragmented, bombs, data that does not
// inflate, RSV1 where it may not be). Each server must answer every connection as ws does (the
// same echoed messages and pongs, in order, then the same close code, or none), end it within a
// bound after the client's end (at once after its last byte, or a little later), and serve on.
// The same frames over an RFC 8441 stream must get the same answers as over HTTP/1.1.
// (A length not in its shortest form is never sent: wirespeed fails it, §5.2, and ws takes it;
// tests/websocket/suite.ts has that case.)
import { isUtf8 } from 'node:buffer';
import { once } from 'node:events';
import http2 from 'node:http2';
import net from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { rng } from '../http1/corpus.js';
import { launchDeno, launchNode } from '../server/launchers.js';
import { useServer, type Launcher } from '../server/suite.js';
import { CloseCode } from '../../src/websocket/close.js';
import { Opcode as Op } from '../../src/websocket/frame.js';
import { clientFrame, extendedConnect, frameAt } from './raw-client.js';

/** Connections per adapter (with permessage-deflate, whose clients wait longer, half as many), how many at once, how long one may take to end after the client's last byte. */
const CONNECTIONS = 400;
const AT_ONCE = 8;
const END_WITHIN_MS = 3000;
/** A client that waits for the answers to stop before its end: for this long (ws's inflating takes longer), at most this long. */
const QUIET_MS = 20;
const DEFLATE_QUIET_MS = 100;
const QUIET_LIMIT_MS = 2000;
/** Both servers' maxPayload: a 64-bit length below it is a message, above it 1009. */
const MAX_PAYLOAD = 70_000;
/** Each message compressed on its own both ways, so the client compresses and inflates it alone too. */
const DEFLATE_EXTENSION = 'permessage-deflate; server_no_context_takeover; client_no_context_takeover';
const DEFLATE_OFFER = `Sec-WebSocket-Extensions: ${DEFLATE_EXTENSION}\r\n`;
const HANDSHAKE = (path: string, deflate: boolean) =>
  `GET ${path} HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
  `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n${deflate ? DEFLATE_OFFER : ''}\r\n`;
/** RFC 7692 §7.2.1: a message's compressed data ends without the empty block's last 4 bytes. */
const EMPTY_BLOCK_TAIL = Buffer.from([0x00, 0x00, 0xff, 0xff]);
const compress = (data: Uint8Array) => zlib.deflateRawSync(data, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).subarray(0, -4);
const RSV1 = 0x40;
/** A server's compressed message, inflated (what could not be is shown as such). */
function inflate(data: Buffer): Buffer {
  try {
    return zlib.inflateRawSync(Buffer.concat([data, EMPTY_BLOCK_TAIL]), { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  } catch {
    return Buffer.from('(did not inflate)');
  }
}
const CLOSE_CODES = [1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1011, 1012, 1014, 1015, 1016, 2999, 3000, 4999, 5000, 999, 0];
/** Text is made of these: one to four bytes of UTF-8 each, the edges of each length among them. */
const CHARS = ['a', 'é', '€', '𝄞', ' ', 'z', '\u0000', '\u007f', '\u0080', '\u07ff', '\u0800', '\uffff', '\u{10ffff}'];
/** The test app's echo answers these words otherwise (tests/websocket/app.ts): never sent. */
const APP_WORDS = new Set(['close-me', 'blob', 'throw', 'url', 'remote-port', 'push']);

const FIN = 0x80;

/** One connection's frames, as the bytes a client writes (with permessage-deflate agreed or not). */
function randomFrames(random: () => number, deflate: boolean): Buffer {
  const below = (n: number) => Math.floor(random() * n);
  const pick = <T>(list: readonly T[]) => list[below(list.length)]!;
  const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => below(256)));
  const text = (n: number) => {
    const chars: string[] = [];
    for (let length = 0; length < n;) {
      const char = pick(CHARS);
      chars.push(char);
      length += Buffer.byteLength(char);
    }
    const s = chars.join('');
    return APP_WORDS.has(s) ? `${s}!` : s;
  };
  const size = () => pick([0, 1, 5, 40, 125, 126, 200, 1000, 65_535, 66_000, MAX_PAYLOAD + 1]);
  const payload = (op: number) => {
    const n = size();
    if (op === Op.TEXT && random() < 0.85) return Buffer.from(text(n));
    return n <= 256 ? bytes(n) : Buffer.alloc(n, below(256));
  };
  const frame = (first: number, data: Uint8Array, mask = random() > 0.03) => clientFrame(first, data, { mask });
  const control = () => {
    const op = pick([Op.PING, Op.PING, Op.PONG, Op.PING | 0x70 /* RSV */, 0xb]);
    const fin = random() < 0.95 ? FIN : 0;
    return frame(fin | op, bytes(random() < 0.9 ? below(126) : 126));
  };
  const frames: Buffer[] = [];
  for (let n = 1 + below(6); n > 0; n--) {
    switch (below(10)) {
      case 0:
      case 1:
      case 2: {
        // A whole message: compressed (a bomb past maxPayload now and then) or not.
        const op = pick([Op.TEXT, Op.BINARY]);
        const rsv = random() < 0.03 ? pick([RSV1, 0x20, 0x10]) : 0;
        if (deflate && random() < 0.6) {
          const data = random() < 0.05 ? Buffer.alloc(MAX_PAYLOAD * 3) : payload(op);
          frames.push(frame(FIN | RSV1 | op, random() < 0.05 ? bytes(1 + below(40)) : compress(data)));
        } else frames.push(frame(FIN | rsv | op, payload(op)));
        break;
      }
      case 3:
      case 4: {
        // A fragmented message, control frames between its parts, sometimes a part missing or too
        // many; compressed, the compressed bytes are cut into the parts (RSV1 on the first only).
        const op = pick([Op.TEXT, Op.BINARY]);
        const compressed = deflate && random() < 0.6;
        const data = op === Op.TEXT ? Buffer.from(text(below(300))) : bytes(below(300));
        const whole = compressed ? compress(data) : data;
        const parts = 1 + below(4);
        for (let i = 0; i < parts; i++) {
          const part = whole.subarray(Math.floor((whole.length * i) / parts), Math.floor((whole.length * (i + 1)) / parts));
          const last = i === parts - 1;
          const rsv = (compressed && i === 0) || (deflate && random() < 0.03) ? RSV1 : 0;
          frames.push(frame((last && random() < 0.9 ? FIN : 0) | rsv | (i === 0 && random() < 0.95 ? op : Op.CONTINUATION), part));
          if (!last && random() < 0.4) frames.push(random() < 0.8 ? control() : frame(FIN | pick([Op.TEXT, Op.BINARY]), bytes(3)));
        }
        break;
      }
      case 5:
      case 6:
        frames.push(control());
        break;
      case 7: {
        // A close: a code (valid or not) and a reason (valid UTF-8 or not), none, or one byte.
        const shape = below(10);
        const code = pick(CLOSE_CODES);
        const reason = shape < 6 ? Buffer.from(text(below(40))) : shape < 8 ? Buffer.from([0x61, 0xff, 0xfe]) : Buffer.alloc(0);
        const body =
          shape === 8 ? Buffer.alloc(0) : shape === 9 ? Buffer.from([3]) : Buffer.concat([Buffer.from([code >> 8, code & 0xff]), reason]);
        frames.push(frame(FIN | Op.CLOSE, random() < 0.05 ? bytes(126) : body));
        if (random() < 0.5) frames.push(frame(FIN | Op.TEXT, Buffer.from('after the close')));
        break;
      }
      case 8:
        // An unknown data opcode, or invalid UTF-8 in a text message.
        frames.push(
          random() < 0.5
            ? frame(FIN | pick([3, 4, 5, 6, 7]), bytes(4))
            : frame(FIN | Op.TEXT, Buffer.from([0x68, 0xc3, 0x28, 0xed, 0xa0, 0x80])),
        );
        break;
      default:
        frames.push(bytes(1 + below(12)));
    }
  }
  return Buffer.concat(frames);
}

/** What a server answered on one connection: its messages and pongs in order, then its close code. */
interface Outcome {
  answers: string[];
  /** The close frame's code (1005 for none in it), or null when the server sent no close frame. */
  close: number | null;
  /** The server ended the connection within END_WITHIN_MS of the client's last byte. */
  ended: boolean;
}

/** Reads the server's frames: text and binary messages put together from their fragments, and inflated. */
function answersOf(bytes: Buffer): { answers: string[]; close: number | null } {
  const answers: string[] = [];
  let message: { op: number; compressed: boolean; parts: Buffer[] } | null = null;
  for (let frame = frameAt(bytes, 0); frame && frame.start + frame.length <= bytes.length;) {
    const { first, start, length } = frame;
    const data = bytes.subarray(start, start + length);
    frame = frameAt(bytes, start + length);
    const op = first & 0x0f;
    if (op === Op.CLOSE) return { answers, close: data.length >= 2 ? data.readUInt16BE(0) : 1005 };
    if (op === Op.PONG) answers.push(`pong ${data.toString('hex')}`);
    else if (op === Op.PING) answers.push(`ping ${data.toString('hex')}`);
    else {
      message ??= { op, compressed: (first & RSV1) !== 0, parts: [] };
      message.parts.push(data);
      if (first & FIN) {
        const joined = Buffer.concat(message.parts);
        const whole = message.compressed ? inflate(joined) : joined;
        answers.push(`${message.op === Op.TEXT ? 'text' : `op ${message.op}`} ${whole.length} ${whole.toString('hex').slice(0, 64)}`);
        message = null;
      }
    }
  }
  return { answers, close: null };
}

/** The client's frames as a reader of a failure wants them: FIN, RSV, opcode, length, mask, and the text's validity. */
function describeFrames(bytes: Buffer): string {
  const frames: string[] = [];
  for (let frame = frameAt(bytes, 0); frame;) {
    const { first, masked, length, start } = frame;
    const data = Buffer.from(bytes.subarray(start, start + length));
    if (masked) for (let i = 0; i < data.length; i++) data[i]! ^= bytes[start - 4 + (i & 3)]!;
    const op = first & 0x0f;
    const utf8 = op === Op.TEXT || op === Op.CONTINUATION ? (isUtf8(data) ? ' utf8' : ' NOT-UTF8') : '';
    const cut = data.length < length ? ` (cut at ${data.length})` : '';
    frames.push(
      `${first & FIN ? 'fin ' : ''}rsv${(first >> 4) & 7} op${op} len${length}${masked ? '' : ' unmasked'}${utf8}${cut} ${data.subarray(0, 16).toString('hex')}`,
    );
    frame = frameAt(bytes, start + length);
  }
  const all = frames.join(' | ');
  return all.length > 800 ? `${all.slice(0, 800)}…` : all;
}

const same = (ours: Outcome, theirs: Outcome) =>
  JSON.stringify([ours.answers, ours.close]) === JSON.stringify([theirs.answers, theirs.close]);

/**
 * Where one server finds a message's data invalid (1007) sooner than the other, which either may
 * (RFC 6455 §8.1): ws checks a text message's UTF-8 when the message is whole, wirespeed at its
 * first invalid byte (Autobahn 6.4.x checks the early one); ws inflates each part of a compressed
 * message as it comes, wirespeed the message whole. The later one may then answer pings sent
 * between the message's parts, wait for a part that never comes, or fail on a later frame first;
 * all either answers before is the same.
 */
function failedFaster(sooner: Outcome, later: Outcome): boolean {
  const prefix = later.answers.slice(0, sooner.answers.length);
  const after = later.answers.slice(sooner.answers.length);
  return (
    sooner.close === CloseCode.INVALID_DATA &&
    JSON.stringify(prefix) === JSON.stringify(sooner.answers) &&
    after.every((answer) => answer.startsWith('pong ')) &&
    (later.close === null || later.close === CloseCode.INVALID_DATA || later.close === CloseCode.PROTOCOL_ERROR)
  );
}

/** Resolves once `count()` (what came so far) has not changed for `ms`, or after at most QUIET_LIMIT_MS. */
async function quiet(count: () => number, ms: number): Promise<void> {
  const limit = Date.now() + QUIET_LIMIT_MS;
  for (let last = -1; count() !== last && Date.now() < limit;) {
    last = count();
    await new Promise((r) => setTimeout(r, ms));
  }
}

/**
 * ws compresses and inflates off the thread, and a client's end makes it end its side at once:
 * answers still being made then are lost, its Close among them (a client that waits
 * DEFLATE_QUIET_MS for quiet sees it rarely; with 20 ms, in 3% of connections). So ws may answer
 * less than wirespeed, and end without a Close.
 */
function wsLostTheEnd(ours: Outcome, theirs: Outcome): boolean {
  const prefix = ours.answers.slice(0, theirs.answers.length);
  const oursMore = ours.answers.length > theirs.answers.length || ours.close !== null;
  return theirs.close === null && oursMore && JSON.stringify(prefix) === JSON.stringify(theirs.answers);
}

/** Where a connection's frames go: a socket after its handshake, or an RFC 8441 stream after its 200. */
interface Link {
  write(bytes: Buffer): void;
  end(): void;
  readonly gone: boolean;
}

/** Writes the frames in pieces cut at random points (a few a byte long, some after a pause), then ends. */
async function sendFrames(link: Link, frames: Buffer, deflate: boolean, received: () => number, random: () => number): Promise<void> {
  for (let at = 0; at < frames.length && !link.gone;) {
    const size = random() < 0.2 ? 1 : 1 + Math.floor(random() * 3000);
    link.write(frames.subarray(at, (at += size)));
    if (random() < 0.1) await new Promise((r) => setTimeout(r, 1));
  }
  // The end right behind the last byte (often in the same read), or once the answers stopped
  // coming. With permessage-deflate always the latter: ws inflates off the thread, and what is
  // still inflating when the end comes is never answered.
  if (deflate || random() < 0.5) await quiet(received, deflate ? DEFLATE_QUIET_MS : QUIET_MS);
  link.end();
}

/** One WebSocket over HTTP/1.1: the handshake, the frames, the client's end; what the server answered. */
function connection(port: number, path: string, deflate: boolean, frames: Buffer, random: () => number): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const done = (ended: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      const all = Buffer.concat(received);
      const headEnd = all.indexOf('\r\n\r\n');
      const head = all.subarray(0, headEnd).toString('latin1');
      if (!head.startsWith('HTTP/1.1 101') || deflate !== /permessage-deflate/i.test(head)) {
        resolve({ answers: [`no upgrade, or not as asked: ${head}`], close: null, ended });
      } else resolve({ ...answersOf(all.subarray(headEnd + 4)), ended });
    };
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => done(true));
    socket.on('connect', async () => {
      socket.write(HANDSHAKE(path, deflate));
      const link = { write: (bytes: Buffer) => socket.write(bytes), end: () => socket.end(), gone: false };
      socket.once('close', () => (link.gone = true));
      await sendFrames(link, frames, deflate, () => received.length, random);
      timer = setTimeout(() => done(false), END_WITHIN_MS);
    });
  });
}

/** The same over HTTP/2 (RFC 8441): an extended CONNECT, its stream the WebSocket's; the stream closing is its end. */
async function streamConnection(port: number, path: string, deflate: boolean, frames: Buffer, random: () => number): Promise<Outcome> {
  const session = http2.connect(`http://127.0.0.1:${port}`);
  session.on('error', () => undefined);
  try {
    const { stream, headers } = await extendedConnect(
      session,
      port,
      path,
      deflate ? { 'sec-websocket-extensions': DEFLATE_EXTENSION } : {},
    );
    stream.on('error', () => undefined);
    if (Number(headers[':status']) !== 200 || deflate !== /permessage-deflate/i.test(String(headers['sec-websocket-extensions']))) {
      return { answers: [`no upgrade, or not as asked: ${JSON.stringify(headers)}`], close: null, ended: true };
    }
    const received: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => received.push(chunk));
    const closed = once(stream, 'close');
    const link = { write: (bytes: Buffer) => stream.write(bytes), end: () => stream.end(), gone: false };
    void closed.then(() => (link.gone = true));
    await sendFrames(link, frames, deflate, () => received.length, random);
    const ended = await Promise.race([closed.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), END_WITHIN_MS))]);
    return { ...answersOf(Buffer.concat(received)), ended };
  } finally {
    session.destroy();
  }
}

/** The reference: ws's server, echoing as the test app's route does. */
function useReference(deflate: boolean): { port: number } {
  const ref = { port: 0 };
  let server: WebSocketServer;
  beforeAll(async () => {
    server = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: MAX_PAYLOAD, perMessageDeflate: deflate });
    server.on('connection', (socket: WebSocket) => {
      socket.on('error', () => undefined);
      socket.on('message', (data: Buffer, isBinary) => socket.send(data, { binary: isBinary }));
    });
    await new Promise((resolve) => server.once('listening', resolve));
    ref.port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return ref;
}

function fuzz(adapter: string, launch: Launcher, deflate: boolean): void {
  const what = deflate ? 'with permessage-deflate' : 'uncompressed';
  describe(`${adapter}: random WebSocket frames over real sockets, ${what}, against ws`, () => {
    const server = useServer(launch);
    const overHttp2 = useServer(launch, { http2: true });
    const reference = useReference(deflate);
    const connections = deflate ? CONNECTIONS / 2 : CONNECTIONS;
    it(`answers ${connections} connections of random frames as ws does, ends each, and serves on`, async () => {
      const random = rng((adapter === 'node' ? 7 : 8) + (deflate ? 100 : 0));
      const differences: { frames: string; wirespeed: Outcome; ws: Outcome }[] = [];
      const streamDifferences: { frames: string; http1: Outcome; http2: Outcome }[] = [];
      const closes = new Map<number | null, number>();
      let started = 0;
      let wsLost = 0;
      await Promise.all(
        Array.from({ length: AT_ONCE }, async () => {
          while (started++ < connections) {
            const frames = randomFrames(random, deflate);
            const seed = Math.floor(random() * 2 ** 32);
            const path = `/ws/echo?maxPayload=${MAX_PAYLOAD}${deflate ? '&deflate' : ''}`;
            const [ours, theirs, ourStream] = await Promise.all([
              connection(server.port, path, deflate, frames, rng(seed)),
              connection(reference.port, '/', deflate, frames, rng(seed)),
              streamConnection(overHttp2.port, path, deflate, frames, rng(seed)),
            ]);
            // Over HTTP/2 the reader is the same: its answers are the same as over HTTP/1.1.
            if (!ourStream.ended || !same(ourStream, ours))
              streamDifferences.push({ frames: describeFrames(frames), http1: ours, http2: ourStream });
            closes.set(theirs.close, (closes.get(theirs.close) ?? 0) + 1);
            if (deflate && ours.ended && wsLostTheEnd(ours, theirs)) wsLost++;
            else if (!ours.ended || !(same(ours, theirs) || failedFaster(ours, theirs) || (deflate && failedFaster(theirs, ours))))
              differences.push({ frames: describeFrames(frames), wirespeed: ours, ws: theirs });
          }
        }),
      );
      expect(differences.slice(0, 5), `${differences.length} differ`).toEqual([]);
      expect(streamDifferences.slice(0, 5), `${streamDifferences.length} differ over HTTP/2`).toEqual([]);
      expect(wsLost, 'connections whose last answers ws lost').toBeLessThan(connections / 20);
      // The frames reach the checks: echoes to the end, protocol errors, invalid data, oversize.
      for (const code of [null, CloseCode.PROTOCOL_ERROR, CloseCode.INVALID_DATA, CloseCode.MESSAGE_TOO_BIG]) {
        expect(closes.get(code), `connections ws closed with ${code}`).toBeGreaterThan(connections / 50);
      }
      expect(await (await fetch(`${server.url}/hello`)).text()).toBe('Hello World!');
    });
  });
}

for (const deflate of [false, true]) {
  fuzz('node', launchNode, deflate);
  fuzz('deno', launchDeno, deflate);
}
