// The load suites' ceilings (raw-net on Node and raw-deno on Deno for HTTP, raw-ws for WebSocket
// echo) parse nothing, but each must still answer everything it is sent, one response per
// request or frame, pipelined ones included: otherwise the load client would count a ceiling that
// did less work than the servers beside it.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, ServerProcess } from '../../bench/harness/load.js';
import { denoBinary } from '../../bench/suites/server-processes.js';

const servers = new URL('../../dist/bench/peers/servers/', import.meta.url).pathname;
const RESPONSE = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!';
const GET = 'GET /hello HTTP/1.1\r\nHost: a\r\n\r\n';

/** Quiet this long, the server has sent all it will for the request. */
const QUIET_MS = 500;

/** Between the parts of a request written apart (so the server reads them apart). */
const PART_GAP_MS = 50;

/**
 * What the server sends back for `request` (latin1; an array: parts written apart): once `bytes`
 * bytes came, or it went quiet.
 */
function exchange(port: number, request: string | string[], bytes = Infinity): Promise<string> {
  const parts = typeof request === 'string' ? [request] : request;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () =>
      parts.forEach((part, i) => setTimeout(() => socket.write(part, 'latin1'), i * PART_GAP_MS)),
    );
    let text = '';
    const done = () => resolve((socket.destroy(), clearTimeout(quiet), text));
    let quiet = setTimeout(done, QUIET_MS);
    socket.setEncoding('latin1').on('data', (chunk: string) => {
      text += chunk;
      clearTimeout(quiet);
      quiet = setTimeout(done, QUIET_MS);
      if (text.length >= bytes) done();
    });
    socket.on('error', reject);
  });
}

const ceilings: [string, (port: number) => string[]][] = [
  ['raw-net', (port) => [process.execPath, `${servers}node-servers.js`, 'raw-net', String(port)]],
  ['raw-deno', (port) => [denoBinary()!, 'run', '--quiet', '-A', '--no-lock', `${servers}deno-servers.js`, 'raw-deno', String(port)]],
];

describe('the server suite ceilings', () => {
  it.each(ceilings)('%s answers one hello per request, pipelined ones too', async (_, command) => {
    const port = await freePort();
    const server = await ServerProcess.start({ command: command(port), port });
    try {
      expect(await exchange(port, GET, RESPONSE.length)).toBe(RESPONSE);
      expect(await exchange(port, GET.repeat(16), 16 * RESPONSE.length)).toBe(RESPONSE.repeat(16));
    } finally {
      await server.stop();
    }
  });

  // The "new connection per request" group: a ceiling that kept the connection would be measured
  // without the accept and close the servers beside it pay for.
  it.each(ceilings)('%s closes the connection after answering a request with Connection: close', async (_, command) => {
    const port = await freePort();
    const server = await ServerProcess.start({ command: command(port), port });
    try {
      const closed = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /hello HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'));
        let text = '';
        const timer = setTimeout(() => resolve((socket.destroy(), `still open after ${text}`)), 2000);
        socket.setEncoding('latin1').on('data', (chunk: string) => (text += chunk));
        socket.on('close', () => resolve((clearTimeout(timer), text))).on('error', reject);
      });
      expect(closed).toBe(RESPONSE);
    } finally {
      await server.stop();
    }
  });
});

describe('the websocket suite ceiling (raw-ws)', () => {
  const HANDSHAKE =
    'GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n';
  /** A masked client text frame of 16 bytes (the mask is zero: the payload reads as sent). */
  const FRAME = String.fromCharCode(0x81, 0x80 | 16, 0, 0, 0, 0) + 'x'.repeat(16);
  const ECHO_BYTES = 2 + 16;

  it('accepts the handshake (RFC 6455 sample key) and answers one echo-sized frame per frame, however they arrive', async () => {
    const port = await freePort();
    const server = await ServerProcess.start({ command: [process.execPath, `${servers}node-servers.js`, 'raw-ws', String(port)], port });
    try {
      // The handshake with three frames after it, the third cut in two, then three more at once.
      const all = HANDSHAKE + FRAME.repeat(3);
      const text = await exchange(port, [all.slice(0, -10), all.slice(-10), FRAME.repeat(3)]);
      const head = text.slice(0, text.indexOf('\r\n\r\n') + 4);
      expect(head).toMatch(/^HTTP\/1\.1 101 [^]*Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK\+xOo=\r\n/);
      const echoes = text.slice(head.length);
      expect(echoes.length).toBe(6 * ECHO_BYTES);
      expect(echoes.charCodeAt(0)).toBe(0x81);
      expect(echoes.charCodeAt(1)).toBe(16);
    } finally {
      await server.stop();
    }
  });
});
