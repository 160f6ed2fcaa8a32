// Differential test against Node's llhttp (as node:http drives it): the same generated corpus,
// split at the same points, must give the same verdict and the same fields. Each disagreement
// must be explained by an entry of the allow-list below, which names the RFC rule behind it.
import { describe, expect, it } from 'vitest';
import { LlhttpRequestParser, methods as llhttpMethods } from '../../bench/peers/llhttp-node.js';
import { RequestParser, type HeaderList } from '../../src/http1/index.js';
import { encode } from '../helpers.js';
import { chunksOf, generate, isPrefix, rng, splitDifferences } from './corpus.js';

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

/** Whether a chunk-size line of `input` has an extension with an empty name or value (`;;`, `;=v`, `;n=`). */
function hasEmptyChunkExtension(input: string): boolean {
  for (const [, extensions] of input.matchAll(/\r\n[0-9a-f]+[ \t]*(;[^\r\n]*)\r\n/gi)) {
    if (
      extensions!
        .split(';')
        .slice(1)
        .some((extension) => /^[ \t]*(=|$)|=[ \t]*$/.test(extension))
    )
      return true;
  }
  return false;
}

/**
 * Whether the request line of llhttp's first message past ours comes right after a bare CR or LF
 * (where ours stopped, ERR_INVALID_NEWLINE).
 */
function bareNewlineBeforeNext(input: string, o: Outcome, t: Outcome): boolean {
  if (t.messages.length <= o.messages.length) return false;
  const next = JSON.parse(t.messages[o.messages.length]!) as { method: string; url: string };
  const at = input.indexOf(`${next.method} ${next.url} HTTP/`);
  return at > 0 && /(^|[^\r])\n$|\r$/.test(input.slice(0, at));
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
    name: 'a bare CR or LF before a request line llhttp reads on to',
    rfc: 'RFC 9112 §2.2: only CRLF empty lines may precede a request-line; llhttp skips a lone CR or LF',
    applies: (input, o, t) => o.code === 'ERR_INVALID_NEWLINE' && isPrefix(o, t) && bareNewlineBeforeNext(input, o, t),
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
  {
    name: 'an asterisk-form target on a method other than OPTIONS',
    rfc: 'RFC 9112 §3.2.4: the asterisk-form is only used for a server-wide OPTIONS request; llhttp takes it with any method',
    applies: (input, o, t) => o.code === 'ERR_INVALID_TARGET' && isPrefix(o, t) && /(^|\n)(?!OPTIONS )[^ \r\n]+ \* HTTP\//.test(input),
  },
  {
    name: 'Transfer-Encoding in an HTTP/1.0 request',
    rfc: 'RFC 9112 §6.1: an HTTP/1.0 message with Transfer-Encoding is treated as having faulty framing; llhttp decodes it',
    applies: (input, o, t) =>
      o.code === 'ERR_INVALID_TRANSFER_ENCODING' && isPrefix(o, t) && /HTTP\/1\.0\r\n(?:[^\r\n]+\r\n)*Transfer-Encoding:/i.test(input),
  },
  {
    name: 'a tab after a Content-Length or Transfer-Encoding value',
    rfc: 'RFC 9110 §5.5: a field value excludes the whitespace (SP and HTAB) around it; llhttp refuses a tab there',
    applies: (input, o, t) =>
      t.verdict === 'error' && isPrefix(t, o) && /\r\n(Content-Length|Transfer-Encoding):[^\r\n]*\t\r\n/i.test(input),
  },
  {
    name: 'whitespace in a chunk extension',
    rfc: 'RFC 9112 §7.1.1: chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ); llhttp refuses whitespace there',
    applies: (input, o, t) => t.verdict === 'error' && isPrefix(t, o) && /\r\n[0-9a-f]+(?=[ \t]*;)[^\r\n]*[ \t]/i.test(input),
  },
  {
    name: 'an absolute-form target whose scheme has no "//"',
    rfc: 'RFC 9112 §3.2.2: absolute-form = absolute-URI, of any scheme (RFC 3986 §4.3; a server refuses a scheme it does not serve); llhttp wants "scheme://"',
    applies: (input, o, t) =>
      t.verdict === 'error' && isPrefix(t, o) && /(^|\n)[^ \r\n]+ [A-Za-z][A-Za-z0-9+.-]*:(?!\/\/)[^ \r\n]* HTTP\//.test(input),
  },
  {
    name: 'a chunk extension without a name or a value',
    rfc: 'RFC 9112 §7.1.1: chunk-ext-name is a token and chunk-ext-val a token or quoted-string, neither empty; llhttp takes an empty one',
    applies: (input, o, t) => o.code === 'ERR_INVALID_CHUNK_EXTENSION' && isPrefix(o, t) && hasEmptyChunkExtension(input),
  },
  {
    name: 'bytes after a message that closes the connection',
    rfc: 'RFC 9112 §9.6: nothing after a request that closes the connection is processed; wirespeed reports the bytes (ERR_DATA_AFTER_CLOSE) once the message is delivered, llhttp skips CR and LF there',
    applies: (_input, o, t) =>
      o.code === 'ERR_DATA_AFTER_CLOSE' && t.verdict !== 'error' && JSON.stringify(o.messages) === JSON.stringify(t.messages),
  },
];

/** Cases compared whole (~1 s; 160,000 more on other seeds agreed or were explained, 2026-11-28). */
const GENERATED_CASES = 20_000;

/** Cases fed at every split point (each some 100-400 bytes, so some 100,000 parses). */
const SPLIT_CASES = 500;

describe('differential: wirespeed vs llhttp (node:http)', () => {
  const cases = generate(rng(0x5eed), GENERATED_CASES);

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
