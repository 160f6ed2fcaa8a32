// Differential test against Node's llhttp (as node:http drives it): the same generated corpus,
// split at the same points, must give the same verdict and the same fields. Each disagreement
// must be explained by an entry of the allow-list below, which names the RFC rule behind it.
import { describe, expect, it } from 'vitest';
import { LlhttpRequestParser, methods as llhttpMethods } from '../../bench/peers/llhttp-node.js';
import { RequestParser, type HeaderList } from '../../src/http1/index.js';
import { encode } from '../helpers.js';
import { chunksOf, generate, rng, splitDifferences } from './corpus.js';

interface Outcome {
  verdict: 'ok' | 'incomplete' | 'error';
  messages: string[];
  /** Ours only: the error's code. */
  code?: string;
}

const flat = (list: HeaderList) => list.flat();

function ours(chunks: Uint8Array[]): Outcome {
  const messages: string[] = [];
  let record: Record<string, unknown> = {};
  let body = '';
  const parser = new RequestParser({
    onHead(head) {
      record = { method: head.method, url: head.url, minor: head.versionMinor, headers: flat(head.headers), keepAlive: head.keepAlive };
      body = '';
    },
    onBody(chunk) {
      body += String.fromCharCode(...chunk);
    },
    onTrailers(trailers) {
      record.trailers = flat(trailers);
    },
    onComplete() {
      messages.push(JSON.stringify({ ...record, trailers: record.trailers ?? [], body }));
    },
  });
  try {
    for (const chunk of chunks) parser.execute(chunk);
    parser.finish();
    return { verdict: 'ok', messages };
  } catch (error) {
    const code = (error as { code?: string }).code;
    return { verdict: code === 'ERR_INCOMPLETE' ? 'incomplete' : 'error', messages, code };
  }
}

function llhttp(chunks: Uint8Array[]): Outcome {
  const parser = new LlhttpRequestParser();
  const messages = () =>
    parser.messages.map((m) =>
      JSON.stringify({
        method: m.method,
        url: m.url,
        minor: m.versionMinor,
        headers: m.rawHeaders,
        keepAlive: m.keepAlive,
        trailers: m.rawTrailers,
        body: m.body.map((b) => String.fromCharCode(...b)).join(''),
      }),
    );
  try {
    for (const chunk of chunks) parser.execute(chunk);
  } catch {
    return { verdict: 'error', messages: messages() };
  }
  try {
    parser.finish();
  } catch {
    return { verdict: 'incomplete', messages: messages() };
  }
  return { verdict: 'ok', messages: messages() };
}

/**
 * Documented disagreements: where llhttp accepts what RFC 9110/9112 forbid (or the reverse),
 * wirespeed follows the RFC. Each entry tells whether it explains a case.
 */
const ALLOWED: { name: string; rfc: string; applies: (input: string, ours: Outcome, theirs: Outcome) => boolean }[] = [
  {
    name: 'extension methods',
    rfc: 'RFC 9110 §9.1: any token is a method; llhttp knows a fixed list only',
    applies: (_input, o, t) =>
      t.verdict === 'error' &&
      o.messages.length > t.messages.length &&
      !llhttpMethods.includes((JSON.parse(o.messages[t.messages.length]) as { method: string }).method),
  },
  {
    name: 'an unfinished extension-method token after the last message',
    rfc: 'RFC 9110 §9.1: a lowercase token can start a method; llhttp rejects what is not in its list',
    applies: (_input, o, t) =>
      o.verdict === 'incomplete' && t.verdict === 'error' && JSON.stringify(o.messages) === JSON.stringify(t.messages),
  },
  {
    name: 'a bare LF where a request line may start',
    rfc: 'RFC 9112 §2.2: only CRLF empty lines may precede a request-line; llhttp skips a lone LF',
    applies: (input, o, t) =>
      o.verdict === 'error' && t.verdict !== 'error' && /(^|\n)\n|\r\n\r\n[^]*\n$/.test(input) && o.messages.length === t.messages.length,
  },
  {
    name: 'a bare CR before the first request line',
    rfc: 'RFC 9112 §2.2: a bare CR is invalid, and only CRLF empty lines may precede a request-line; llhttp skips it',
    applies: (input, o, t) => o.verdict === 'error' && t.verdict !== 'error' && /^\r(?!\n)/.test(input) && o.messages.length === 0,
  },
  {
    name: 'more than one SP between request-line elements',
    rfc: 'RFC 9112 §3: elements are separated by a single SP (recipients MAY relax this; wirespeed does not)',
    applies: (input, o) => o.verdict === 'error' && / {2}HTTP\/|[A-Z] {2}\//.test(input),
  },
  {
    name: 'a backslash or a fragment in the target',
    rfc: "RFC 3986 §2, RFC 9112 §3.2: no backslash in a URI, no fragment in a target (a URL parser reads '\\' as '/' and cuts at '#'); llhttp passes both on",
    applies: (input, o, t) =>
      o.verdict === 'error' &&
      JSON.stringify(o.messages) === JSON.stringify(t.messages.slice(0, o.messages.length)) &&
      /[A-Z]+ \/[^ \r\n]*[#\\][^ \r\n]* HTTP\//.test(input),
  },
  {
    name: 'HTTP/0.9 request lines',
    rfc: 'RFC 9112 §3: request-line = method SP request-target SP HTTP-version; llhttp still takes "GET /path" as HTTP/0.9',
    applies: (input, o, t) =>
      o.verdict === 'error' && t.messages.some((m) => (JSON.parse(m) as { minor: number }).minor === 9) && input.length > 0,
  },
];

/** Cases fed at every split point (each some 100-400 bytes, so some 100,000 parses). */
const SPLIT_CASES = 500;

describe('differential: wirespeed vs llhttp (node:http)', () => {
  const cases = generate(rng(0x5eed), 4000);

  it('agrees on every generated case, or the difference is allow-listed', () => {
    const unexplained: string[] = [];
    const explained = new Map<string, number>();
    let agreedValid = 0;
    let agreedRejected = 0;
    for (const c of cases) {
      const chunks = chunksOf(encode(c.input), c.splits);
      const o = ours(chunks);
      const t = llhttp(chunks);
      const same = o.verdict === t.verdict && JSON.stringify(o.messages) === JSON.stringify(t.messages);
      if (same) {
        if (o.verdict === 'ok' && o.messages.length > 0) agreedValid++;
        if (o.verdict === 'error') agreedRejected++;
        continue;
      }
      const reason = ALLOWED.find((a) => a.applies(c.input, o, t));
      if (reason) {
        explained.set(reason.name, (explained.get(reason.name) ?? 0) + 1);
      } else if (unexplained.length < 10) {
        unexplained.push(JSON.stringify({ input: c.input, ours: o, llhttp: t }));
      }
    }
    console.log(`agreed: ${agreedValid} valid, ${agreedRejected} rejected; allow-listed:`, Object.fromEntries(explained));
    expect(unexplained).toEqual([]);
    // The corpus really exercises both sides.
    expect(agreedValid).toBeGreaterThan(1500);
    expect(agreedRejected).toBeGreaterThan(300);
  });
});

describe('the parser reads an input alike however it is split', () => {
  // The corpus's own cases, each cut in two at every byte boundary and fed a byte at a time: the
  // messages, the verdict and the error's code must be those of the input fed whole.
  const cases = generate(rng(0x5b1), SPLIT_CASES);

  it(`split at every byte boundary and byte by byte, ${SPLIT_CASES} cases`, () => {
    const { differing, feeds } = splitDifferences(
      cases,
      (c) => encode(c.input),
      (_c, pieces) => ours(pieces),
    );
    expect(differing).toEqual([]);
    expect(feeds).toBeGreaterThan(SPLIT_CASES * 50);
  });
});
