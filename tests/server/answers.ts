// What a client sees of a response, asked over HTTP/1.1 (undici) or HTTP/2 (h2c, node:http2's
// client), for the suites that hold one server's answers to another's (the hono app against its
// peers, apps of other frameworks over both protocols), and the peer processes they start.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { connect, type IncomingHttpHeaders } from 'node:http2';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';

/** A request of a comparison suite. */
export interface Ask {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | FormData;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Bytes on the wire (before decompression). */
  bytes: number;
}

/** Fields that differ between any two servers and say nothing about the app. */
const IGNORED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** The request's fields and body as bytes on the wire (a form encoded once, so every server gets the same boundary). */
async function requestOf(c: Ask): Promise<{ headers?: Record<string, string>; body?: string | Uint8Array }> {
  if (!(c.body instanceof FormData)) return { headers: c.headers, body: c.body };
  const encoded = new Response(c.body);
  return {
    headers: { ...c.headers, 'content-type': encoded.headers.get('content-type')! },
    body: new Uint8Array(await encoded.arrayBuffer()),
  };
}

/**
 * What a client sees of a response: the fields that matter (one string per name), the body decoded,
 * the origin masked in both. A field sent in several lines reads as one, its values joined by ", "
 * (RFC 9110 §5.3: the same field to a recipient, and what Headers.get() gives); Set-Cookie lines
 * stay apart (joined by a newline here), as the standard keeps them.
 */
function answerOf(base: string, status: number, received: Record<string, unknown>, bytes: Buffer): Answer {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(received)) {
    if (IGNORED.has(name)) continue;
    const text = Array.isArray(value) ? value.join(name === 'set-cookie' ? '\n' : ', ') : String(value);
    fields[name] = text.replaceAll(base, 'ORIGIN');
  }
  const text = (received['content-encoding'] === 'gzip' ? gunzipSync(bytes) : bytes).toString('latin1');
  return { status, headers: fields, body: text.replaceAll(base, 'ORIGIN'), bytes: bytes.length };
}

/** The request over HTTP/1.1. */
export async function ask(base: string, c: Ask): Promise<Answer> {
  const { headers, body } = await requestOf(c);
  const res = await request(`${base}${c.path}`, { method: (c.method ?? 'GET') as 'GET', headers, body });
  return answerOf(base, res.statusCode, res.headers, Buffer.from(await res.body.arrayBuffer()));
}

/** The same request over HTTP/2 (h2c, node:http2's client), one session per request. */
export async function askH2(base: string, c: Ask): Promise<Answer> {
  const { headers, body } = await requestOf(c);
  // A body's length, as the HTTP/1.1 client sends it (node:http2's client sends none of its own).
  const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
  const session = connect(base);
  try {
    return await new Promise<Answer>((resolve, reject) => {
      session.once('error', reject);
      const stream = session.request({ ':method': c.method ?? 'GET', ':path': c.path, ...length, ...headers });
      const chunks: Buffer[] = [];
      let head: IncomingHttpHeaders = {};
      stream.once('response', (received) => (head = received));
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.once('end', () => {
        const { [':status']: status, ...fields } = head;
        resolve(answerOf(base, Number(status), fields, Buffer.concat(chunks)));
      });
      stream.once('error', reject);
      stream.end(body);
    });
  } finally {
    session.close();
  }
}

/** Starts a server process that prints its URL as its first line (and exits when stdin ends). */
export function launch(command: string, args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(command, args, {
    env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code} before listening`)));
    lines.once('line', (url) => resolve({ url, child }));
  });
}
