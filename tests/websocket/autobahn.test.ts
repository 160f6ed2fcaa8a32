// The Autobahn testsuite's cases for a server (autobahn-cases.ts: sections 1-7 and 10;
// autobahn-performance.ts: 9, large and many messages; autobahn-deflate.ts: 12 and 13,
// permessage-deflate) against the test app's echo route, each on a connection of its own, on
// wirespeed/node and wirespeed/deno, over HTTP/1.1 and over HTTP/2 (RFC 8441). A case passes when
// the server gives the suite's strict ("OK") outcome: the echoes and pongs in order, then the
// close code it names.
import http2 from 'node:http2';
import { describe, expect, it } from 'vitest';
import { COMPRESS_THRESHOLD } from '../../src/websocket/deflate.js';
import { launchDeno, launchNode } from '../server/launchers.js';
import { useServer, type Launcher } from '../server/suite.js';
import { AUTOBAHN_CASES, type AutobahnCase, type Event } from './autobahn-cases.js';
import { compressedFrames, DEFLATE_CASES, inflateMessage, messagesOf, serverWindowBits, type DeflateCase } from './autobahn-deflate.js';
import { payloadOf, PERFORMANCE_CASES, PERFORMANCE_QUERY, type PerformanceCase } from './autobahn-performance.js';
import { closeFrame, extendedConnect, messageFrames, RawWebSocket } from './raw-client.js';

const CLOSE = 0x8;
const PING = 0x9;
const PONG = 0xa;
/** How long a case waits for what it expects before it reports what it got. */
const PATIENCE_MS = 3000;

interface Outcome {
  events: Event[];
  /** The server's close code (1005 for a close frame without one), or null if none came. */
  closeCode: number | null;
  /** Whether the server then ended the connection (the TCP connection, or the HTTP/2 stream). */
  ended: boolean;
}

/** Reads the server's frames in the background: echoes put together, pongs, and the close frame. */
function reader(ws: RawWebSocket) {
  const state = { events: [] as Event[], closeCode: null as number | null, done: false };
  const finished = (async () => {
    let message: { kind: 'text' | 'binary'; parts: Buffer[] } | null = null;
    for (;;) {
      const frame = await ws.frame(PATIENCE_MS * 2);
      if (!frame) break;
      if (frame.opcode === CLOSE) {
        state.closeCode = RawWebSocket.closeOf(frame)!.code;
        break;
      }
      if (frame.opcode === PONG) state.events.push(['pong', frame.payload]);
      else if (frame.opcode === PING) continue;
      else {
        if (frame.opcode !== 0) message = { kind: frame.opcode === 1 ? 'text' : 'binary', parts: [] };
        message?.parts.push(frame.payload);
        if (frame.fin && message) {
          state.events.push([message.kind, Buffer.concat(message.parts)]);
          message = null;
        }
      }
    }
    state.done = true;
  })();
  return { state, finished };
}

async function until(done: () => boolean, ms = PATIENCE_MS): Promise<void> {
  for (const deadline = Date.now() + ms; !done() && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 2));
}

/** Plays the case's steps on an open WebSocket and reads what the server does. */
async function play(ws: RawWebSocket, c: AutobahnCase): Promise<Outcome> {
  const { state, finished } = reader(ws);
  const open = () => state.closeCode === null && !ws.ended;
  for (const step of c.steps) {
    if ('pause' in step) await new Promise((resolve) => setTimeout(resolve, step.pause));
    else if ('mark' in step) {
      if (open()) state.events.push(['timeout', step.mark]);
    } else if (!open()) break;
    else await ws.sendInPieces(step.send, step.chop ?? Infinity);
  }
  if (c.close.by === 'client' && !c.close.clientSentClose) {
    await until(() => state.events.length >= c.events.length || !open());
    if (open()) await ws.sendInPieces(closeFrame(1000), Infinity);
  }
  await finished;
  await ws.closed(PATIENCE_MS);
  return { events: state.events, closeCode: state.closeCode, ended: ws.ended };
}

function expectOutcome(c: AutobahnCase, outcome: Outcome): void {
  expect(c.close.codes, `case ${c.id}: the server's close code`).toContain(outcome.closeCode);
  expect(outcome.ended, `case ${c.id}: the server ends the connection after the close`).toBe(true);
  if (!c.informational) expect(outcome.events, `case ${c.id}: what the server sent before its close`).toEqual(c.events);
}

/** How long section 9 waits for a frame: a 16 MiB echo is read, checked as UTF-8 and written back. */
const LARGE_PATIENCE_MS = 30_000;

/** The server's next message: its opcode, whether its first frame had RSV1, and its frames' payloads. */
async function readMessage(ws: RawWebSocket, c: { id: string }, patience = PATIENCE_MS) {
  let frame = await ws.frame(patience);
  expect(frame, `case ${c.id}: a message`).not.toBe(null);
  const { opcode, rsv } = frame!;
  const parts = [frame!.payload];
  while (!frame!.fin) {
    frame = await ws.frame(patience);
    expect(frame?.opcode, `case ${c.id}: a continuation`).toBe(0);
    parts.push(frame!.payload);
  }
  return { opcode, compressed: (rsv & 4) !== 0, parts };
}

/** The client's close (1000), the server's answer, and the end of the connection. */
async function closeNormally(ws: RawWebSocket, c: { id: string }): Promise<void> {
  await ws.sendInPieces(closeFrame(1000), Infinity);
  expect(RawWebSocket.closeOf(await ws.frame(PATIENCE_MS))?.code, `case ${c.id}: the close`).toBe(1000);
  expect(await ws.closed(PATIENCE_MS), `case ${c.id}: the server ends the connection`).toBe(true);
}

/** Section 9: sends the case's message `count` times, each once the last came back whole, then closes normally. */
async function echoLarge(ws: RawWebSocket, c: PerformanceCase): Promise<void> {
  const payload = payloadOf(c);
  const frames = messageFrames(c.opcode, payload, c.fragment);
  for (let i = 0; i < c.count; i++) {
    await ws.sendInPieces(frames, c.chop);
    const { opcode, parts } = await readMessage(ws, c, LARGE_PATIENCE_MS);
    const echoed = Buffer.concat(parts);
    expect({ message: i, opcode, length: echoed.length, same: echoed.equals(payload) }, `case ${c.id}`).toEqual({
      message: i,
      opcode: c.opcode,
      length: c.length,
      same: true,
    });
  }
  await closeNormally(ws, c);
}

/**
 * Sections 12-13: sends each message compressed, waits for its echo (inflated with the window the
 * server agreed to), then closes normally. The answer must take part in permessage-deflate with
 * client_no_context_takeover (the client compresses each message on its own), and keep to a
 * server_max_window_bits offered.
 */
async function echoCompressed(ws: RawWebSocket, c: DeflateCase, answer: string): Promise<void> {
  expect(answer, `case ${c.id}: the extension answered`).toMatch(/^permessage-deflate(;|$)/);
  expect(answer).toContain('client_no_context_takeover');
  const offered = /server_max_window_bits=(\d+)/.exec(c.offer.split(',')[0])?.[1];
  if (offered) expect(serverWindowBits(answer)).toBeLessThanOrEqual(Number(offered));
  const windowBits = serverWindowBits(answer);
  for (const [i, message] of messagesOf(c).entries()) {
    await ws.sendInPieces(compressedFrames(message, c.kind.binary, c.fragment), Infinity);
    const { opcode, compressed, parts } = await readMessage(ws, c);
    const echoed = inflateMessage(parts, compressed, windowBits);
    // The server compresses what is worth it (from COMPRESS_THRESHOLD bytes, as ws does).
    expect({ message: i, opcode, compressed, same: echoed.equals(message) }, `case ${c.id}`).toEqual({
      message: i,
      opcode: c.kind.binary ? 2 : 1,
      compressed: message.length >= COMPRESS_THRESHOLD,
      same: true,
    });
  }
  await closeNormally(ws, c);
}

function autobahnOverHttp1(name: string, launch: Launcher): void {
  describe(`Autobahn cases on ${name}, HTTP/1.1`, () => {
    const server = useServer(launch);
    it.each(AUTOBAHN_CASES.map((c) => [c.id, c] as const))('case %s', async (_, c) => {
      const ws = await RawWebSocket.open(server.port, '/ws/echo');
      expect(ws.status).toBe(101);
      try {
        expectOutcome(c, await play(ws, c));
      } finally {
        ws.destroy();
      }
    });
    it.each(PERFORMANCE_CASES.map((c) => [c.id, c] as const))('case %s (limits and performance)', async (_, c) => {
      const ws = await RawWebSocket.open(server.port, `/ws/echo?${PERFORMANCE_QUERY}`);
      try {
        expect(ws.status).toBe(101);
        await echoLarge(ws, c);
      } finally {
        ws.destroy();
      }
    });
    it.each(DEFLATE_CASES.map((c) => [c.id, c] as const))('case %s (permessage-deflate)', async (_, c) => {
      const ws = await RawWebSocket.open(server.port, '/ws/echo?deflate', { more: `Sec-WebSocket-Extensions: ${c.offer}\r\n` });
      try {
        expect(ws.status).toBe(101);
        await echoCompressed(ws, c, /\r\nsec-websocket-extensions: ([^\r]*)/i.exec(ws.head)?.[1] ?? '');
      } finally {
        ws.destroy();
      }
    });
  });
}

function autobahnOverHttp2(name: string, launch: Launcher): void {
  describe(`Autobahn cases on ${name}, HTTP/2 (RFC 8441)`, () => {
    const server = useServer(launch, { http2: true });
    /** A WebSocket over an extended CONNECT on a session of its own, and the server's answer. */
    async function connect(session: http2.ClientHttp2Session, path: string, fields: Record<string, string> = {}) {
      const { stream, headers } = await extendedConnect(session, server.port, path, fields);
      expect(headers[':status']).toBe(200);
      // The server ends its side of the stream after the close; a client then ends its own.
      stream.once('end', () => stream.end());
      return { ws: RawWebSocket.over(stream), headers };
    }

    it.each(AUTOBAHN_CASES.map((c) => [c.id, c] as const))('case %s', async (_, c) => {
      const session = http2.connect(`http://127.0.0.1:${server.port}`);
      try {
        const { ws } = await connect(session, '/ws/echo');
        expectOutcome(c, await play(ws, c));
      } finally {
        session.destroy();
      }
    });
    it.each(PERFORMANCE_CASES.map((c) => [c.id, c] as const))('case %s (limits and performance)', async (_, c) => {
      const session = http2.connect(`http://127.0.0.1:${server.port}`);
      try {
        const { ws } = await connect(session, `/ws/echo?${PERFORMANCE_QUERY}`);
        await echoLarge(ws, c);
      } finally {
        session.destroy();
      }
    });
    it.each(DEFLATE_CASES.map((c) => [c.id, c] as const))('case %s (permessage-deflate)', async (_, c) => {
      const session = http2.connect(`http://127.0.0.1:${server.port}`);
      try {
        const { ws, headers } = await connect(session, '/ws/echo?deflate', { 'sec-websocket-extensions': c.offer });
        await echoCompressed(ws, c, String(headers['sec-websocket-extensions'] ?? ''));
      } finally {
        session.destroy();
      }
    });
  });
}

autobahnOverHttp1('wirespeed/node', launchNode);
autobahnOverHttp1('wirespeed/deno', launchDeno);
autobahnOverHttp2('wirespeed/node', launchNode);
autobahnOverHttp2('wirespeed/deno', launchDeno);
