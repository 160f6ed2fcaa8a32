// The same request over HTTP/1.1 and over HTTP/2, to each adapter: generated methods, paths,
// authorities and fields, most of them valid, some with one character a field, method, scheme or
// authority may not hold, some padded to a head limit give or take a few bytes or fields, some
// with a body (declared or not: chunked on HTTP/1.1, cut into random pieces, at the body limit
// give or take a few bytes). Whatever the request, both protocols take it or both refuse it
// (malformed: HTTP/1.1's 400, HTTP/2's RST_STREAM PROTOCOL_ERROR; over a limit: the same 413, 414
// or 431 on both), and a request taken reaches the handler with the same method, URL, fields and
// body. It found HTTP/2 requests taken
// that HTTP/1.1 refuses: a method that is no token (or empty), a field name with a colon or
// another non-token character, a control character in a value, two Host fields (the URL took the
// last), a :scheme that is no URI scheme, and a :path of another scheme that is not origin-form
// (its URL could not be made: 500); and a request over two limits refused for another one.
import { describe, expect, it } from 'vitest';
import { Flag, frame, FrameType, uint32Bytes } from '../../src/http2/frame/header.js';
import { HpackDecoder } from '../../src/hpack/index.js';
import { rng } from '../http1/corpus.js';
import { SHOW_REQUEST } from '../server/app.js';
import { raw, responsesOf } from '../server/clients.js';
import { launchDeno, launchNode } from '../server/launchers.js';
import { useServer, type Launcher } from '../server/suite.js';
import { RawHttp2Client } from './raw-client.js';

const REQUESTS = 2000;
/** Head limits small enough for the draws to reach, and to straddle (as HTTP/1.1 would write the request). */
const LIMITS = { maxHeadBytes: 1024, maxHeaders: 12, maxTargetBytes: 128, maxBodyBytes: 1000 };
/** How far a request padded to a limit falls either side of it. */
const STRADDLE = 3;
/** How long one answer may take. */
const ANSWER_WITHIN_MS = 3000;
/** RFC 9113 §7: PROTOCOL_ERROR. */
const PROTOCOL_ERROR = 1;
/** What the client saw of a GOAWAY ENHANCE_YOUR_CALM. */
const ENHANCE_YOUR_CALM = 'GOAWAY 11';
/** RFC 9113 §6.9.1: the largest window, and the connection's first (the responses are read at once, never held). */
const MAX_WINDOW = 2 ** 31 - 1;
const FIRST_WINDOW = 65_535;

// Methods with a body in the answer (not HEAD), and what a method may not be (RFC 9110 §9.1: a token).
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND', 'get', 'X-Custom'];
const ODD_METHODS = ['', 'G(T', 'G:T', 'G"T', 'G/T', 'G\x01T', 'G\x7fT', 'G\xc9T', 'G@T', 'G{T'];
const TOKEN_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+-.^_`|~";
// Lowercase only: an uppercase name is malformed in HTTP/2 (RFC 9113 §8.2.1) and fine in HTTP/1.1.
// No colon: HTTP/1.1 reads `a:b: 1` as the field `a` (request-fields.test.ts has it for HTTP/2).
const NOT_TOKEN_CHARS = ['(', ')', '"', '/', '@', '{', '[', '=', ',', ';', '?', '\\', '\x01', '\x7f', '\xe9'];
/** Fields each protocol treats in its own way (framing, hop-by-hop, Host, cookie crumbs), never generated. */
const OWN_FIELDS = new Set([
  'host',
  'te',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'upgrade',
  'cookie',
  'expect',
  SHOW_REQUEST,
]);
const VALUE_CHARS = Array.from({ length: 0x5e }, (_, i) => String.fromCharCode(0x21 + i)).join('') + '  ';
/** Inside a value: tab and obs-text are fine on both, a control character or DEL on neither (RFC 9110 §5.5). */
const ODD_VALUE_CHARS = ['\t', '\x80', '\xe9', '\xff', '\x00', '\x01', '\x1f', '\x7f'];
const PATH_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/";
const ODD_PATH_PARTS = [
  '#',
  '\\',
  '\x01',
  '\x7f',
  '\xe9',
  '"',
  '<',
  '>',
  '{',
  '}',
  '|',
  '^',
  '`',
  '%',
  '%zz',
  '%2F',
  '//',
  '/../',
  '/./',
  '[',
  ']',
];
const AUTHORITIES = ['localhost', 'localhost:8080', 'LocalHost', '127.0.0.1:1', '[::1]', '[::1]:80', 'xn--caf-dma.test', 'a.b.c', 'ev%41l'];
const ODD_AUTHORITIES = ['', 'a b', 'user@localhost', 'x/y', 'x?y', 'x#y', 'caf\xe9', 'x:99999', '[::1', 'x\\y', 'x\x01'];
// Not https: a request's URL takes https from :scheme, where HTTP/1.1 over cleartext has http.
const SCHEMES = ['http', 'http', 'http', 'foo', 'a+b.c-d'];
const ODD_SCHEMES = ['', 'ht tp', '1http', 'h_t', 'h\xe9', 'h:'];

interface Drawn {
  method: string;
  scheme: string;
  /** A :scheme that is no URI scheme: HTTP/2 refuses it, and HTTP/1.1 has no scheme to send. */
  oddScheme: boolean;
  path: string;
  authority: string;
  /** A second Host field (HTTP/2: both as host fields, with no :authority). */
  secondHost: string | null;
  /** HTTP/2 only: the authority as a host field rather than :authority (RFC 9113 §8.3.1 allows both). */
  hostField: boolean;
  fields: [string, string][];
  body: Body | null;
}

interface Body {
  text: string;
  /** Sent with a Content-Length (else HTTP/1.1 sends it chunked, HTTP/2 with no length). */
  declared: boolean;
  /** The lengths it is cut into: HTTP/1.1's chunks (when chunked) or writes, HTTP/2's DATA frames. */
  pieces: number[];
}

function draw(random: () => number): Drawn {
  const below = (n: number) => Math.floor(random() * n);
  const pick = <T>(list: readonly T[]): T => list[below(list.length)]!;
  const odd = () => random() < 0.04;
  const chars = (pool: string, min: number, max: number) =>
    Array.from({ length: min + below(max - min + 1) }, () => pick([...pool])).join('');
  const insert = (text: string, part: string, from = 0) => {
    const at = from + below(text.length - from + 1);
    return text.slice(0, at) + part + text.slice(at);
  };
  let method = odd() ? pick(ODD_METHODS) : pick(METHODS);
  let path = '/' + chars(PATH_CHARS, 0, 12) + (random() < 0.3 ? '?' + chars(PATH_CHARS + '?', 1, 10) : '');
  if (random() < 0.15) path = insert(path, pick(ODD_PATH_PARTS), 1);
  if (random() < 0.02) path = path.slice(1); // not origin-form
  if (random() < 0.02) [method, path] = ['OPTIONS', '*'];
  const straddle = () => below(2 * STRADDLE + 1) - STRADDLE;
  if (random() < 0.05) path = path.padEnd(LIMITS.maxTargetBytes + straddle(), 'p');
  const [padHead, manyFields] = [random() < 0.05, random() < 0.05];
  const fields: [string, string][] = [];
  for (let n = manyFields ? LIMITS.maxHeaders - 2 + straddle() : below(6); n > 0; n--) {
    let name = chars(TOKEN_CHARS, 1, 10);
    if (odd()) name = insert(name, pick(NOT_TOKEN_CHARS));
    if (OWN_FIELDS.has(name)) continue;
    let value = chars(VALUE_CHARS, 0, 20).trim();
    if (random() < 0.1) value = `[${insert(value, pick(ODD_VALUE_CHARS))}]`;
    fields.push([name, value]);
  }
  const authority = odd() ? pick(ODD_AUTHORITIES) : pick(AUTHORITIES);
  const oddScheme = odd();
  const drawn = {
    method,
    scheme: oddScheme ? pick(ODD_SCHEMES) : pick(SCHEMES),
    oddScheme,
    path,
    authority,
    secondHost: random() < 0.03 ? pick([authority, ...AUTHORITIES]) : null,
    hostField: random() < 0.2,
    fields,
    // A head at a limit has no Transfer-Encoding line, which HTTP/1.1 would count and HTTP/2 cannot.
    // No body for GET: the Fetch standard gives the handler none to read, so it may answer before
    // the body is over its limit, on either protocol.
    body: method !== 'GET' && random() < 0.3 ? drawBody(random, padHead || manyFields) : null,
  };
  if (padHead) {
    // A field that brings the head to the byte limit, give or take a few.
    const pad: [string, string] = ['x-pad', ''];
    fields.push(pad);
    pad[1] = 'v'.repeat(Math.max(0, LIMITS.maxHeadBytes - http1Request(drawn).length + straddle()));
  }
  return drawn;
}

/** A body mostly small, sometimes at the body limit give or take a few bytes, now and then far over it. */
function drawBody(random: () => number, declared: boolean): Body {
  const below = (n: number) => Math.floor(random() * n);
  const size = [() => below(200), () => LIMITS.maxBodyBytes - STRADDLE + below(2 * STRADDLE + 1), () => 5 * LIMITS.maxBodyBytes][
    random() < 0.6 ? 0 : random() < 0.9 ? 1 : 2
  ]!();
  const text = Array.from({ length: size }, () => PATH_CHARS[below(PATH_CHARS.length)]).join('');
  const pieces: number[] = [];
  for (let left = size; left > 0; left -= pieces.at(-1)!) pieces.push(1 + below(Math.min(left, random() < 0.3 ? 10 : 400)));
  return { text, declared: declared || random() < 0.5, pieces: pieces.length ? pieces : [0] };
}

/** `text` cut into the lengths of `pieces`. */
function cut(text: string, pieces: number[]): string[] {
  let at = 0;
  return pieces.map((length) => text.slice(at, (at += length)));
}

/** The head as HTTP/1.1 writes the request (its framing field included). */
function http1Request({ method, path, authority, secondHost, fields, body }: Drawn): string {
  const lines = [`${method} ${path} HTTP/1.1`, `host: ${authority}`];
  if (secondHost !== null) lines.push(`host: ${secondHost}`);
  for (const [name, value] of fields) lines.push(`${name}: ${value}`);
  if (body) lines.push(body.declared ? `content-length: ${body.text.length}` : 'transfer-encoding: chunked');
  lines.push(`${SHOW_REQUEST}: 1`);
  return lines.join('\r\n') + '\r\n\r\n';
}

/** The request's bytes in the writes HTTP/1.1 sends them in: the head, then the body's pieces (as chunks when not declared). */
function http1Writes(drawn: Drawn): Buffer[] {
  const head = http1Request(drawn);
  const { body } = drawn;
  if (!body) return [Buffer.from(head, 'latin1')];
  const pieces = cut(body.text, body.pieces).filter((piece) => piece.length);
  const writes = body.declared ? pieces : [...pieces.map((piece) => `${piece.length.toString(16)}\r\n${piece}\r\n`), '0\r\n\r\n'];
  return [head, ...writes].map((write) => Buffer.from(write, 'latin1'));
}

function http2Fields({ method, scheme, path, authority, secondHost, hostField, fields, body }: Drawn): [string, string][] {
  const pseudo: [string, string][] = [
    [':method', method],
    [':scheme', scheme],
    [':path', path],
  ];
  const hosts: [string, string][] =
    secondHost !== null
      ? [
          ['host', authority],
          ['host', secondHost],
        ]
      : [hostField ? ['host', authority] : [':authority', authority]];
  const length: [string, string][] = body?.declared ? [['content-length', String(body.text.length)]] : [];
  return [...pseudo, ...hosts, ...fields, ...length, [SHOW_REQUEST, '1']];
}

/** The request's frames: HEADERS, then a DATA frame per piece of the body, the last with END_STREAM. */
function http2Frames(id: number, drawn: Drawn): Uint8Array[] {
  const block = literalBlock(http2Fields(drawn));
  const { body } = drawn;
  if (!body) return [frame(FrameType.HEADERS, Flag.END_HEADERS | Flag.END_STREAM, id, block)];
  const pieces = cut(body.text, body.pieces);
  return [
    frame(FrameType.HEADERS, Flag.END_HEADERS, id, block),
    ...pieces.map((piece, i) => frame(FrameType.DATA, i === pieces.length - 1 ? Flag.END_STREAM : 0, id, Buffer.from(piece, 'latin1'))),
  ];
}

/** An HPACK block of literal fields, never indexed, of any bytes (RFC 7541 §6.2.2; the encoder refuses what is not a valid field). */
function literalBlock(fields: [string, string][]): Uint8Array {
  const integer = (value: number): number[] => {
    if (value < 0x7f) return [value];
    const out = [0x7f];
    for (value -= 0x7f; value >= 0x80; value >>>= 7) out.push((value & 0x7f) | 0x80);
    return [...out, value];
  };
  const string = (text: string) => {
    const bytes = Buffer.from(text, 'latin1');
    return [...integer(bytes.length), ...bytes];
  };
  return Uint8Array.from(fields.flatMap(([name, value]) => [0, ...string(name), ...string(value)]));
}

/** A request refused as malformed: HTTP/1.1's 400, HTTP/2's RST_STREAM PROTOCOL_ERROR. */
const MALFORMED = 'malformed';
/** A request refused for a limit, with its status and text (413, 414, 431). */
const OVER_LIMIT = 'over a limit:';

/**
 * The same outcome on both. A request both malformed and over a limit may be refused for either:
 * HTTP/1.1 counts the head as it reads it, HTTP/2 checks the decoded list first.
 */
function agree(http1: string, http2: string): boolean {
  if (http1 === http2) return true;
  const kinds = [http1, http2].map((outcome) =>
    outcome === MALFORMED ? MALFORMED : outcome.startsWith(OVER_LIMIT) ? OVER_LIMIT : outcome,
  );
  return kinds.includes(MALFORMED) && kinds.includes(OVER_LIMIT);
}

/** Fields one protocol has and the other cannot: Host (HTTP/2's :authority) and HTTP/1.1's chunked framing. */
const FRAMING_FIELDS = new Set(['host', 'transfer-encoding']);

/**
 * What a request got: refused, or the request as the handler saw it (its fields but those of
 * FRAMING_FIELDS), or anything else (a refusal for a limit: its status and text). `body`: latin1,
 * as the raw HTTP/1.1 client reads it.
 */
function outcome(status: number, body: string): string {
  if (status === 400) return MALFORMED;
  if (status === 413 || status === 414 || status === 431) return `${OVER_LIMIT} ${body.trim()}`;
  if (status !== 200) return `${status} ${body.slice(0, 200)}`;
  const seen = JSON.parse(body) as { headers: [string, string][] };
  return JSON.stringify({ ...seen, headers: seen.headers.filter(([name]) => !FRAMING_FIELDS.has(name)) });
}

async function overHttp1(port: number, drawn: Drawn): Promise<string> {
  const { text } = await raw(port, http1Writes(drawn), { wait: ANSWER_WITHIN_MS, end: true });
  const [response] = responsesOf(text);
  return response ? outcome(response.status, response.body) : `no answer: ${JSON.stringify(text.slice(0, 200))}`;
}

/** One HTTP/2 connection, requests sent one at a time (a connection error opens a new one). */
class Http2Requests {
  private client: RawHttp2Client;
  private decoder = new HpackDecoder();
  private read = 0;
  private nextId = 1;

  constructor(private readonly port: number) {
    this.client = this.connect();
  }

  async send(drawn: Drawn): Promise<string> {
    const id = this.nextId;
    this.nextId += 2;
    for (const bytes of http2Frames(id, drawn)) this.client.write(bytes);
    let status = 0;
    let body = '';
    for (;;) {
      const more = await this.client.until(() => this.client.frames.length > this.read, ANSWER_WITHIN_MS);
      if (!more) return this.reconnect(this.client.closed ? 'connection closed' : 'no answer');
      const { type, flags, streamId, payload } = this.client.frames[this.read++]!;
      // Every header block is decoded, in order, to keep the decoder's table as the server's encoder has it.
      if (type === FrameType.HEADERS) {
        const list = this.decoder.decode(payload);
        if (streamId === id) status = Number(list.find(([name]) => name === ':status')?.[1]);
      }
      if (type === FrameType.DATA && streamId === id) body += Buffer.from(payload).toString('latin1');
      if (type === FrameType.GOAWAY) return this.reconnect(`GOAWAY ${payload[7]}`);
      if (type === FrameType.RST_STREAM && streamId === id) return payload[3] === PROTOCOL_ERROR ? MALFORMED : `RST_STREAM ${payload[3]}`;
      if (streamId === id && flags & Flag.END_STREAM && (type === FrameType.DATA || type === FrameType.HEADERS))
        return outcome(status, body);
    }
  }

  close(): void {
    this.client.close();
  }

  private connect(): RawHttp2Client {
    const client = new RawHttp2Client(this.port);
    client.send(FrameType.WINDOW_UPDATE, 0, 0, uint32Bytes(MAX_WINDOW - FIRST_WINDOW));
    return client;
  }

  private reconnect(what: string): string {
    this.client.close();
    this.client = this.connect();
    this.decoder = new HpackDecoder();
    this.read = 0;
    this.nextId = 1;
    return what;
  }
}

function parity(adapter: string, launch: Launcher): void {
  describe(`${adapter}: the same request over HTTP/1.1 and HTTP/2`, () => {
    const server = useServer(launch, { http2: true, ...LIMITS });
    it(`takes or refuses ${REQUESTS} generated requests alike on both, and a request taken reaches the handler alike`, async () => {
      const random = rng(adapter === 'node' ? 5 : 6);
      const h2 = new Http2Requests(server.port);
      const differences: { request: string; http1: string; http2: string }[] = [];
      let taken = 0;
      let malformed = 0;
      let overLimit = 0;
      try {
        for (let n = 0; n < REQUESTS; n++) {
          const drawn = draw(random);
          const http1 = drawn.oddScheme ? MALFORMED : await overHttp1(server.port, drawn);
          let http2 = await h2.send(drawn);
          // The reset limit (rapid reset, CVE-2023-44487) ends a connection that draws refusals
          // quickly: the request goes again, on a new one.
          if (http2 === ENHANCE_YOUR_CALM) http2 = await h2.send(drawn);
          if (!agree(http1, http2)) differences.push({ request: JSON.stringify(drawn), http1, http2 });
          else if (http1 === MALFORMED) malformed++;
          else if (http1.startsWith(OVER_LIMIT)) overLimit++;
          else taken++;
        }
      } finally {
        h2.close();
      }
      expect(differences).toEqual([]);
      // The draws reach both sides of the checks.
      expect(taken).toBeGreaterThan(REQUESTS / 2);
      expect(malformed).toBeGreaterThan(REQUESTS / 10);
      expect(overLimit).toBeGreaterThan(REQUESTS / 100);
    });
  });
}

parity('node', launchNode);
parity('deno', launchDeno);
