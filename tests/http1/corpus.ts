// A seeded generator of HTTP/1.1 requests for differential testing: valid ones with random
// methods, targets, fields, bodies, chunking and split points, and mutations of them. Its PRNG
// (`rng`, mulberry32) is the one every seeded suite uses.

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Case {
  input: string;
  /** Where the input is cut into chunks. */
  splits: number[];
  mutated: boolean;
  /** The requests the input was made of, before any mutation: method, target, and the body's bytes (unframed). */
  requests: { method: string; target: string; body: string }[];
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];
const PATH_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/";
const NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~";
const NAMES = ['Host', 'Accept', 'User-Agent', 'Cookie', 'X-Request-Id', 'Accept-Language', 'Cache-Control', 'Referer'];

/** What a generated request may be held to, for a server that routes them (the default: anything). */
export interface CorpusOptions {
  /** The paths targets are picked from (a query and the usual oddities may follow). */
  paths?: readonly string[];
  /** A Host field every request starts with (and no other). */
  host?: string;
}

export function generate(random: () => number, count: number, options: CorpusOptions = {}): Case[] {
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)];
  const text = (chars: string, min: number, max: number) => {
    let out = '';
    for (let n = min + int(max - min + 1); n > 0; n--) out += chars[int(chars.length)];
    return out;
  };
  const value = () => {
    let out = '';
    for (let n = int(40); n > 0; n--) out += String.fromCharCode(0x20 + int(0x5f));
    return out.trim();
  };

  const valid = (): { text: string; method: string; target: string; body: string } => {
    const method = pick(METHODS);
    let target = options.paths ? pick(options.paths) : '/' + text(PATH_CHARS, 0, 30);
    if (random() < 0.3) target += '?' + text(PATH_CHARS + '?', 1, 20);
    if (random() < 0.1) target = `%${int(16).toString(16)}${int(16).toString(16)}` + target;
    // What a URL parser reinterprets: a backslash (read as '/') and a fragment (cut off).
    if (random() < 0.05) {
      const at = 1 + int(target.length);
      target = target.slice(0, at) + pick(['#', '\\']) + target.slice(at);
    }
    const version = random() < 0.1 ? '1.0' : '1.1';
    const fields: string[] = options.host === undefined ? [] : [`Host: ${options.host}`];
    for (let n = int(20); n > 0; n--) {
      const name = random() < 0.5 ? pick(NAMES) : text(NAME_CHARS, 1, 16);
      if (/^(content-length|transfer-encoding|connection|upgrade|expect)$/i.test(name)) continue;
      if (options.host !== undefined && /^host$/i.test(name)) continue;
      fields.push(`${name}:${random() < 0.8 ? ' ' : ''}${value()}`);
    }
    if (random() < 0.2) fields.push(`Connection: ${pick(['close', 'keep-alive', 'Keep-Alive, foo'])}`);
    let body = '';
    let data = '';
    const kind = method === 'GET' || method === 'HEAD' ? int(2) : int(3);
    if (kind === 1) {
      const payload = text(PATH_CHARS + ' \r\n', 0, 60);
      fields.splice(int(fields.length + 1), 0, `Content-Length: ${payload.length}`);
      body = data = payload;
    } else if (kind === 2 && version === '1.1') {
      fields.splice(int(fields.length + 1), 0, 'Transfer-Encoding: chunked');
      for (let n = int(4); n > 0; n--) {
        const chunk = text(PATH_CHARS, 1, 40);
        const ext = random() < 0.3 ? `;${text(NAME_CHARS, 1, 5)}=${text(NAME_CHARS, 1, 5)}` : '';
        body += `${chunk.length.toString(16)}${ext}\r\n${chunk}\r\n`;
        data += chunk;
      }
      body += '0\r\n';
      if (random() < 0.3) body += `X-Trailer: ${value()}\r\n`;
      body += '\r\n';
    }
    const head = `${method} ${target} HTTP/${version}\r\n${fields.map((f) => f + '\r\n').join('')}\r\n`;
    return { text: head + body, method, target, body: data };
  };

  const BAD = ['\r', '\n', '\x00', ' ', '\t', ':', '\x7f', '\x80', '\xff', 'a', '0', ',', '"', ';', '\x01'];
  const mutate = (input: string): string => {
    const at = int(input.length);
    switch (int(3)) {
      case 0:
        return input.slice(0, at) + pick(BAD) + input.slice(at);
      case 1:
        return input.slice(0, at) + input.slice(at + 1);
      default:
        return input.slice(0, at) + pick(BAD) + input.slice(at + 1);
    }
  };

  const cases: Case[] = [];
  for (let i = 0; i < count; i++) {
    const mutated = random() < 0.5;
    const requests = [valid()];
    if (random() < 0.2) requests.push(valid());
    let input = requests.map((request) => request.text).join('');
    if (mutated) input = mutate(input);
    const splits = Array.from({ length: int(4) }, () => int(input.length + 1)).sort((a, b) => a - b);
    cases.push({ input, splits, mutated, requests: requests.map(({ method, target, body }) => ({ method, target, body })) });
  }
  return cases;
}

export function chunksOf(bytes: Uint8Array, splits: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let from = 0;
  for (const at of [...splits, bytes.length]) {
    out.push(bytes.slice(from, at));
    from = at;
  }
  return out;
}

/**
 * The feeds of each case that give another outcome than the case fed whole (the first 10, as
 * JSON), and how many feeds were tried: each case cut in two at every byte boundary, then fed a
 * byte at a time. A parser must read an input alike however it arrives.
 */
export function splitDifferences<C>(
  cases: readonly C[],
  bytesOf: (c: C) => Uint8Array,
  outcome: (c: C, pieces: Uint8Array[]) => unknown,
): { differing: string[]; feeds: number } {
  const differing: string[] = [];
  let feeds = 0;
  for (const c of cases) {
    const bytes = bytesOf(c);
    const whole = JSON.stringify(outcome(c, [bytes]));
    const cuts = Array.from({ length: bytes.length - 1 }, (_, i) => chunksOf(bytes, [i + 1]));
    for (const pieces of [...cuts, chunksOf(bytes, [...bytes.keys()].slice(1))]) {
      feeds++;
      const split = JSON.stringify(outcome(c, pieces));
      if (split !== whole && differing.length < 10)
        differing.push(JSON.stringify({ case: c, pieces: pieces.map((piece) => piece.length), whole, split }));
    }
  }
  return { differing, feeds };
}

/** Whether `a`'s messages are the first of `b`'s (the same, or fewer where `a` stopped): for differential allow-lists. */
export function isPrefix(a: { messages: string[] }, b: { messages: string[] }): boolean {
  return JSON.stringify(a.messages) === JSON.stringify(b.messages.slice(0, a.messages.length));
}
