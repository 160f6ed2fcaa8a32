// The Autobahn testsuite's cases for a server (autobahn-cases.ts: sections 1-7 and 10) against the
// test app's echo route, each on a connection of its own, on wirespeed/node and wirespeed/deno,
// over HTTP/1.1 and over HTTP/2 (RFC 8441). A case passes when the server gives
// the suite's strict ("OK") outcome: the echoes and pongs in order, then the close code it names.
import { once } from 'node:events';
import http2 from 'node:http2';
import { describe, expect, it } from 'vitest';
import { launchDeno, launchNode } from '../server/launchers.js';
import { useServer, type Launcher } from '../server/suite.js';
import { AUTOBAHN_CASES, type AutobahnCase, type Event } from './autobahn-cases.js';
import { closeFrame, RawWebSocket } from './raw-client.js';

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
  });
}

function autobahnOverHttp2(name: string, launch: Launcher): void {
  describe(`Autobahn cases on ${name}, HTTP/2 (RFC 8441)`, () => {
    const server = useServer(launch, { http2: true });
    it.each(AUTOBAHN_CASES.map((c) => [c.id, c] as const))('case %s', async (_, c) => {
      const session = http2.connect(`http://127.0.0.1:${server.port}`);
      try {
        await once(session, 'remoteSettings');
        const stream = session.request({
          ':method': 'CONNECT',
          ':protocol': 'websocket',
          ':scheme': 'http',
          ':path': '/ws/echo',
          ':authority': `127.0.0.1:${server.port}`,
          'sec-websocket-version': '13',
        });
        const [headers] = (await once(stream, 'response')) as [http2.IncomingHttpHeaders];
        expect(headers[':status']).toBe(200);
        // The server ends its side of the stream after the close; a client then ends its own.
        stream.once('end', () => stream.end());
        expectOutcome(c, await play(RawWebSocket.over(stream), c));
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
