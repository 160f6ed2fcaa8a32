// Request smuggling through what a handler leaves of a body. Random pipelines of POSTs (and GETs
// with a body) framed by Content-Length or chunked (sizes in any case and with leading zeros,
// extensions, trailers, `Expect: 100-continue`), whose bodies are made of other requests' bytes,
// go to a route whose handler does one thing with the body: reads none of it, only asks whether
// there is one, reads it whole or as a stream, reads its first chunk only, cancels it, or looks at
// its first chunk and reads on (tests/server/app.ts, /body-action). The bytes go in random pieces
// (a byte at a time for short pipelines), then the client half-closes. Whatever the handler left,
// the server must answer exactly the requests sent, in order (a response whose id was not sent is
// a request smuggled out of a body), each handler must have read a prefix of its body (all of it
// when it read on to the end), and the connection may end early only after a response that says
// `Connection: close` to a request whose body was left unread (README: one past the 64 KiB the
// server drains, or chunked, whose length is not known when the response goes).
import { describe, expect, it } from 'vitest';
import { chunksOf, rng } from '../http1/corpus.js';
import { checksum } from './app.js';
import { exchangeInPieces, responsesOf, type HalfClosedExchange, type WireResponse } from './clients.js';
import { launchDeno, launchNode } from './launchers.js';
import { useServer, type Launcher } from './suite.js';

/** Connections per adapter, how many run at once, how long one may take after the client's end. */
const CONNECTIONS = 400;
const AT_ONCE = 10;
const CLOSE_WITHIN_MS = 5000;
/** How long some handlers wait before they act on the body. */
const WAIT_MS = 5;
/** The most requests pipelined on one connection. */
const MOST_REQUESTS = 4;
/** A pipeline at most this long is sometimes written a byte at a time. */
const BYTE_AT_A_TIME_BYTES = 1500;
/** Body lengths: none, small, past one socket read, past the 64 KiB a server drains of an unread body. */
const LENGTHS = [0, 1, 7, 300, 5000, 20_000, 70_000];
const ACTIONS = ['none', 'check', 'all', 'stream', 'first', 'cancel', 'peek'] as const;
type Action = (typeof ACTIONS)[number];
/** Actions that read the body to its end. */
const READS_ALL: ReadonlySet<Action> = new Set(['all', 'stream', 'peek']);
/** What bodies are made of: requests a server that lost its place in the input would answer. */
const SMUGGLED = [
  'GET /body-action?id=smuggled&do=none HTTP/1.1\r\nHost: a\r\n\r\n',
  'POST /body-action?id=smuggled&do=all HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello',
  '0\r\n\r\nGET /body-action?id=smuggled HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
  '5\r\nhello\r\n',
];

interface Sent {
  id: string;
  method: string;
  action: Action;
  body: Uint8Array;
  chunked: boolean;
}

interface Pipeline {
  requests: Sent[];
  wire: Uint8Array;
  /** Where the wire is cut into writes. */
  splits: number[];
}

function drawPipeline(random: () => number, connection: number): Pipeline {
  const below = (n: number) => Math.floor(random() * n);
  const pick = <T>(list: readonly T[]): T => list[below(list.length)]!;
  const encoder = new TextEncoder();
  const requests: Sent[] = [];
  const parts: Uint8Array[] = [];
  for (let n = 1 + below(MOST_REQUESTS); n > 0; n--) {
    const length = pick(LENGTHS);
    const body =
      random() < 0.2
        ? Uint8Array.from({ length }, () => below(256))
        : encoder.encode(Array.from({ length: Math.ceil(length / 20) + 1 }, () => pick(SMUGGLED)).join('')).slice(0, length);
    const chunked = random() < 0.5;
    const sent: Sent = {
      id: `${connection}.${requests.length}`,
      method: pick(['POST', 'PUT', 'GET']),
      action: pick(ACTIONS),
      body,
      chunked,
    };
    requests.push(sent);
    // Field values in the forms RFC 9112 lets a client write them: any case for the coding, leading zeros in a length.
    const framing = chunked
      ? `Transfer-Encoding: ${pick(['chunked', 'Chunked', 'CHUNKED'])}`
      : `Content-Length: ${random() < 0.2 ? '00' : ''}${length}`;
    const fields = ['Host: a', framing];
    if (random() < 0.2) fields.push('Expect: 100-continue');
    // Some handlers wait a little first, so more of the body arrives (and is held) before they act.
    const target = `/body-action?id=${sent.id}&do=${sent.action}&ms=${random() < 0.3 ? WAIT_MS : 0}`;
    parts.push(encoder.encode(`${sent.method} ${target} HTTP/1.1\r\n${fields.join('\r\n')}\r\n\r\n`));
    parts.push(...(chunked ? chunkedFraming(body, random) : [body]));
  }
  const wire = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) wire.set(part, (at += part.length) - part.length);
  const splits =
    wire.length <= BYTE_AT_A_TIME_BYTES && random() < 0.3
      ? Array.from({ length: wire.length - 1 }, (_, i) => i + 1)
      : Array.from({ length: below(8) }, () => 1 + below(wire.length - 1)).sort((a, b) => a - b);
  return { requests, wire, splits };
}

/** `body` as chunks of random sizes (RFC 9112 §7.1), with the size's forms a parser must take. */
function chunkedFraming(body: Uint8Array, random: () => number): Uint8Array[] {
  const below = (n: number) => Math.floor(random() * n);
  const encoder = new TextEncoder();
  const sizeLine = (size: number) => {
    let hex = size.toString(16);
    if (random() < 0.3) hex = hex.toUpperCase();
    if (random() < 0.2) hex = '0'.repeat(1 + below(3)) + hex;
    const extension = random() < 0.2 ? [';a=1', ';name', ';q="x;y\\"z"'][below(3)]! : '';
    return encoder.encode(`${hex}${extension}\r\n`);
  };
  const out: Uint8Array[] = [];
  for (let at = 0; at < body.length;) {
    const size = Math.min(body.length - at, 1 + below(random() < 0.5 ? 16 : 30_000));
    out.push(sizeLine(size), body.subarray(at, at + size), encoder.encode('\r\n'));
    at += size;
  }
  out.push(sizeLine(0), encoder.encode(random() < 0.2 ? 'X-Trailer: 1\r\n\r\n' : '\r\n'));
  return out;
}

/** Writes the pipeline in its pieces (short pauses between a few of them), half-closes, and collects what comes back. */
function exchange(port: number, { wire, splits }: Pipeline, random: () => number): Promise<HalfClosedExchange> {
  const pieces = chunksOf(wire, splits);
  return exchangeInPieces(port, pieces, () => (pieces.length < 20 && random() < 0.5 ? 1 : 0), CLOSE_WITHIN_MS);
}

/** Whether a handler that did `action` read what it should of `body`: all of it, its first chunk (some of it), or none. */
function readAsOwed(action: Action, body: Uint8Array, read: number): boolean {
  if (READS_ALL.has(action)) return read === body.length;
  if (action === 'first') return body.length === 0 ? read === 0 : read > 0 && read <= body.length;
  return read === 0;
}

/** What is wrong with the answers (`responses`, the 100s left out) to `requests`: nothing (an empty list), or each fault found. */
function faults(requests: Sent[], closed: boolean, responses: WireResponse[]): string[] {
  const found: string[] = [];
  if (!closed) found.push('left open');
  const closing = responses.findIndex(({ head }) => /\r\nconnection: close(\r\n|$)/i.test(head));
  const owed = closing < 0 ? requests.length : Math.min(requests.length, closing + 1);
  if (responses.length !== owed) found.push(`${responses.length} responses to ${requests.length} requests, ${owed} owed`);
  responses.forEach((response: WireResponse, i) => {
    const sent = requests[i];
    let answer: { id?: string; read?: number; sum?: number } = {};
    try {
      answer = JSON.parse(response.body) as typeof answer;
    } catch {
      // the checks below name it
    }
    if (response.status !== 200 || !sent || answer.id !== sent.id) {
      found.push(`response ${i}: ${response.status} ${response.body.slice(0, 80)} to ${sent?.id ?? 'no request'}`);
      return;
    }
    // GET has no body stream (the server skips the bytes), so its handler reads nothing.
    const body = sent.method === 'GET' ? new Uint8Array(0) : sent.body;
    const read = answer.read ?? -1;
    if (!readAsOwed(sent.action, body, read) || answer.sum !== checksum(body.subarray(0, read)))
      found.push(`request ${sent.id} (${sent.method}, ${sent.action}, ${sent.body.length} bytes): read ${read}, sum ${answer.sum}`);
    // The server may close behind a body left unread: past what it drains, or chunked (its length unknown).
    const leftUnread = (sent.body.length > 0 || sent.chunked) && !(READS_ALL.has(sent.action) && sent.method !== 'GET');
    if (i === closing && i < requests.length - 1 && !leftUnread)
      found.push(`request ${sent.id} (${sent.action}): closed after a body read to its end`);
  });
  return found;
}

function fuzz(adapter: string, launch: Launcher): void {
  describe(`${adapter}: pipelines of bodies a handler reads in part, over real sockets`, () => {
    const server = useServer(launch);
    it(`answers ${CONNECTIONS} connections' requests exactly, in order, with what each handler read, and serves on`, async () => {
      // Each connection draws from its own generator: a failure names its connection, which the same seed draws again.
      const seed = adapter === 'node' ? 11 : 12;
      const failures: { requests: string[]; faults: string[] }[] = [];
      const tally = { requests: 0, answered: 0, closedEarly: 0 };
      let next = 0;
      await Promise.all(
        Array.from({ length: AT_ONCE }, async () => {
          while (next < CONNECTIONS) {
            const connection = next++;
            const random = rng(seed * 1_000_000 + connection);
            const pipeline = drawPipeline(random, connection);
            const outcome = await exchange(server.port, pipeline, random);
            const responses = responsesOf(outcome.text).filter(({ status }) => status !== 100); // 100 Continue comes before an answer
            const found = faults(pipeline.requests, outcome.closed, responses);
            const answered = responses.filter(({ status }) => status === 200).length;
            tally.requests += pipeline.requests.length;
            tally.answered += answered;
            if (answered < pipeline.requests.length) tally.closedEarly++;
            if (found.length)
              failures.push({
                requests: pipeline.requests.map(
                  (r) => `${r.id} ${r.method} ${r.action} ${r.chunked ? 'chunked' : 'length'} ${r.body.length}`,
                ),
                faults: found,
              });
          }
        }),
      );
      expect(failures.slice(0, 5), `${failures.length} connections answered wrong`).toEqual([]);
      // Both kinds of connection are common: answered whole, and closed after an unread body.
      expect(tally.answered).toBeGreaterThan(tally.requests / 2);
      expect(tally.closedEarly).toBeGreaterThan(CONNECTIONS / 20);
      expect(await (await fetch(`${server.url}/hello`)).text()).toBe('Hello World!');
    });
  });
}

fuzz('node', launchNode);
fuzz('deno', launchDeno);
