// Responses as a handler makes them (every status a body may or may not have, string, byte and
// stream bodies, framing fields of its own, right and wrong), to GET, HEAD and POST requests
// pipelined on one connection, read back by llhttp as node:http's client reads them. Whatever the
// handler gave, each response must be framed so that a client reads exactly it: its status, its
// fields, its body (none to HEAD, or for 1xx, 204, 205 and 304), and the next response after it;
// a handler's body that breaks its own Content-Length gets a 500 before anything is sent, or a
// cut connection after.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { LlhttpResponseParser, type LlhttpMessage } from '../../bench/peers/llhttp-node.js';
import { rng } from '../http1/corpus.js';
import type { ResponseSpec } from './app.js';
import { launchDeno, launchNode } from './launchers.js';
import { useServer, type Launcher } from './suite.js';

const CONNECTIONS = 300;
const ANSWER_WITHIN_MS = 3000;
const STATUSES = [200, 200, 201, 202, 204, 205, 206, 301, 304, 400, 404, 418, 500, 503];
/** Statuses whose responses have no content, whatever the handler gave (RFC 9110 §6.4.1, §15.3.6). */
const NO_CONTENT = new Set([204, 205, 304]);
/** Text past 256 chars that is not ASCII goes out as a UTF-8 string of its own on Node, joined to its head or behind it. */
const BODIES = [null, '', 'hello', 'x'.repeat(20), 'é✓', 'é'.repeat(300), '✓😀'.repeat(150)];
const HEADER_SETS: [string, string][][] = [
  [],
  [],
  [['x-a', '1']],
  [['content-type', 'text/x']],
  [
    ['set-cookie', 'a=1'],
    ['set-cookie', 'b=2'],
  ],
  [['etag', '"x"']],
  // A value of obs-text (latin1 é): the head is not ASCII, so a UTF-8 body cannot join it.
  [['x-name', 'caf\u00e9']],
  [['content-encoding', 'gzip']],
  [['content-length', '5']],
  [['content-length', '0']],
  [['content-length', '3']],
  [['transfer-encoding', 'chunked']],
  [['connection', 'close']],
  [['connection', 'keep-alive']],
  [['trailer', 'x-t']],
];
/** Fields the server owns (framing and the connection): a handler's are checked through the framing, not copied. */
const SERVER_FIELDS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'trailer']);

interface Exchange {
  method: string;
  spec: ResponseSpec;
}

function draw(random: () => number): Exchange[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  return Array.from({ length: 1 + Math.floor(random() * 4) }, () => {
    const status = pick(STATUSES);
    // A Response with a 204, 205 or 304 status takes no body (the Fetch standard throws).
    const body = NO_CONTENT.has(status) ? null : pick(BODIES);
    return {
      method: pick(['GET', 'GET', 'HEAD', 'POST']),
      spec: { status, body, kind: pick(['string', 'stream', 'bytes']), headers: pick(HEADER_SETS) },
    };
  });
}

function requests(exchanges: Exchange[]): string {
  return exchanges
    .map(({ method, spec }) => {
      const length = method === 'POST' ? 'content-length: 0\r\n' : '';
      return `${method} /from-spec?spec=${encodeURIComponent(JSON.stringify(spec))} HTTP/1.1\r\nhost: localhost\r\n${length}\r\n`;
    })
    .join('');
}

interface Read {
  parser: LlhttpResponseParser;
  /** What llhttp said of the bytes, if it refused them. */
  error: string | null;
  wire: Buffer;
}

/**
 * Sends the requests, and reads the responses with llhttp as they come, until it has one per
 * request or one that closes the connection, or the server closes it. (The client keeps its side
 * open: a streamed response is cut when the client half-closes, as node:http and Deno.serve cut it.)
 */
function exchange(port: number, exchanges: Exchange[]): Promise<Read> {
  return new Promise((resolve) => {
    const parser = new LlhttpResponseParser(exchanges.map(({ method }) => method));
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let error: string | null = null;
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ parser, error, wire: Buffer.concat(chunks) });
    };
    const timer = setTimeout(done, ANSWER_WITHIN_MS);
    const answered = () => parser.messages.length === exchanges.length || parser.messages.some((message) => !message.keepAlive);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      try {
        parser.execute(chunk);
      } catch (e) {
        error = (e as { code?: string }).code ?? String(e);
      }
      if (error !== null || answered()) done();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      try {
        if (error === null) parser.finish();
      } catch (e) {
        error = (e as { code?: string }).code ?? String(e);
      }
      done();
    });
    socket.write(requests(exchanges));
  });
}

const fieldValues = (message: LlhttpMessage) => {
  const out: [string, string][] = [];
  for (let i = 0; i < message.rawHeaders.length; i += 2) out.push([message.rawHeaders[i]!.toLowerCase(), message.rawHeaders[i + 1]!]);
  return out;
};

/** Whether the handler's body breaks its own Content-Length where a body is sent. */
function breaksLength({ method, spec }: Exchange): boolean {
  const declared = spec.headers.find(([name]) => name === 'content-length')?.[1];
  const given = spec.body === null ? 0 : Buffer.byteLength(spec.body);
  return declared !== undefined && Number(declared) !== given && method !== 'HEAD' && !NO_CONTENT.has(spec.status);
}

/** What is wrong with the way `message` answers `exchange` (null: nothing). */
function wrongness(exchange: Exchange, message: LlhttpMessage): string | null {
  const { method, spec } = exchange;
  const body = Buffer.concat(message.body).toString();
  // A body that breaks its own Content-Length, refused before the head went out.
  if (breaksLength(exchange) && message.status === 500) return null;
  if (message.status !== spec.status) return `status ${message.status}`;
  const expected = method === 'HEAD' || NO_CONTENT.has(spec.status) ? '' : (spec.body ?? '');
  if (body !== expected) return `body ${JSON.stringify(body)}, not ${JSON.stringify(expected)}`;
  const fields = fieldValues(message);
  for (const [name, value] of spec.headers)
    if (!SERVER_FIELDS.has(name) && !fields.some(([n, v]) => n === name && v === value)) return `no ${name}: ${value}`;
  if (NO_CONTENT.has(spec.status) && spec.status !== 304 && fields.some(([name]) => name === 'transfer-encoding'))
    return 'transfer-encoding without content';
  return null;
}

function framing(adapter: string, launch: Launcher): void {
  describe(`${adapter}: responses as a handler makes them, pipelined, read by llhttp`, () => {
    const server = useServer(launch);
    it(`frames every response of ${CONNECTIONS} connections so that a client reads exactly it`, async () => {
      const random = rng(adapter === 'node' ? 7 : 8);
      const wrong: { exchanges: string; what: string; wire: string }[] = [];
      let read = 0;
      let bodiless = 0;
      for (let n = 0; n < CONNECTIONS; n++) {
        const exchanges = draw(random);
        const { parser, error, wire } = await exchange(server.port, exchanges);
        let what: string | null = null;
        // A body that breaks its declared length once its head is out: the connection is cut there.
        const cutAt = exchanges.findIndex(breaksLength);
        if (error !== null && parser.messages.length !== cutAt) what = `llhttp: ${error}`;
        const closing = parser.messages.findIndex((message) => !message.keepAlive);
        const owed = Math.min(closing < 0 ? exchanges.length : closing + 1, cutAt < 0 ? exchanges.length : cutAt);
        for (const [i, message] of parser.messages.entries()) {
          what ??= wrongness(exchanges[i]!, message);
          read++;
          if (exchanges[i]!.method === 'HEAD' || NO_CONTENT.has(message.status)) bodiless++;
        }
        if (what === null && parser.messages.length < owed) what = `${parser.messages.length} responses of ${owed}`;
        if (what !== null && wrong.length < 10)
          wrong.push({ exchanges: JSON.stringify(exchanges), what, wire: JSON.stringify(wire.toString('latin1').slice(0, 500)) });
      }
      expect(wrong).toEqual([]);
      expect(read).toBeGreaterThan(CONNECTIONS * 2);
      expect(bodiless).toBeGreaterThan(read / 5);
    });
  });
}

framing('node', launchNode);
framing('deno', launchDeno);
