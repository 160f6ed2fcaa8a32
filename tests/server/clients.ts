// Real clients for the server tests: raw sockets (for what no well-behaved client sends), curl.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';

export const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/** A fresh path for a Unix socket in the temporary directory (well under the 108 bytes a socket address holds). */
export const socketPath = () => join(tmpdir(), `wirespeed-${process.pid}-${Math.random().toString(36).slice(2, 10)}.sock`);

export interface RawResult {
  text: string;
  /** The server closed the connection (rather than our wait ending). */
  closed: boolean;
  /** Milliseconds from connect until the server closed (or the wait ended). */
  elapsed: number;
}

export interface RawOptions {
  /** Pause between chunks (ms). */
  gap?: number;
  /** Give up waiting for the server this long after the last write (ms). */
  wait?: number;
  tls?: boolean;
  /** Stop as soon as the text received contains this many responses. */
  responses?: number;
  /** End our side after the last chunk (the server answers what it was sent, then closes). */
  end?: boolean;
}

/** Writes `chunks` to a fresh connection and collects everything the server sends. */
export function raw(port: number, chunks: (string | Uint8Array)[], options: RawOptions = {}): Promise<RawResult> {
  const { gap = 0, wait = 2000 } = options;
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = options.tls
      ? tls.connect({ port, host: '127.0.0.1', ca: fixture('ca.pem'), servername: 'localhost' })
      : net.connect(port, '127.0.0.1');
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed, elapsed: Date.now() - started });
    };
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => {
      text += data;
      if (options.responses && (text.match(/HTTP\/1\.[01] [2-5]\d\d /g)?.length ?? 0) >= options.responses) finish(false);
    });
    socket.on('close', () => finish(true));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? finish(true) : reject(error)));
    socket.on(options.tls ? 'secureConnect' : 'connect', async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) return;
        socket.write(chunk);
        if (gap) await new Promise((r) => setTimeout(r, gap));
      }
      if (options.end) socket.end();
      timer = setTimeout(() => finish(false), wait);
    });
  });
}

/** Status codes of the responses in a raw transcript, in order. */
/** A response read off the wire: its head and its body's bytes (latin1 text). */
export interface WireResponse {
  head: string;
  status: number;
  body: string;
}

/** The responses in `text`, in order, to requests of these methods (a HEAD's, a 204's and a 304's have no body). */
export function responsesOf(text: string, methods: readonly string[] = []): WireResponse[] {
  const responses: WireResponse[] = [];
  for (let at = 0; at < text.length;) {
    const headEnd = text.indexOf('\r\n\r\n', at);
    if (headEnd < 0) break;
    const head = text.slice(at, headEnd);
    const status = Number(head.slice(9, 12));
    const bodiless = methods[responses.length] === 'HEAD' || status === 204 || status === 304;
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    let body = '';
    at = headEnd + 4;
    if (!bodiless && length) {
      body = text.slice(at, at + Number(length[1]));
      at += Number(length[1]);
    } else if (!bodiless && /\r\ntransfer-encoding: *chunked/i.test(head)) {
      for (let size = -1; size !== 0 && at < text.length;) {
        const lineEnd = text.indexOf('\r\n', at);
        size = parseInt(text.slice(at, lineEnd), 16);
        body += text.slice(lineEnd + 2, lineEnd + 2 + size);
        at = lineEnd + 2 + size + 2;
      }
    }
    responses.push({ head, status, body });
  }
  return responses;
}

/** What came back on a connection the client half-closed: its bytes (latin1), and whether the server closed it in time. */
export interface HalfClosedExchange {
  text: string;
  closed: boolean;
}

/**
 * Writes `pieces` to a new connection, each after `pause()` ms (0: at once), half-closes, and
 * collects what comes back until the server closes (a reset counts as closed), or `closeWithinMs`
 * passed after the half-close.
 */
export function exchangeInPieces(
  port: number,
  pieces: Uint8Array[],
  pause: () => number,
  closeWithinMs: number,
): Promise<HalfClosedExchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed });
    };
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => (text += data));
    socket.on('error', () => undefined); // a reset is an outcome too: `closed`
    socket.on('close', () => done(true));
    socket.on('connect', async () => {
      for (const piece of pieces) {
        if (socket.destroyed) return;
        socket.write(piece);
        const ms = pause();
        if (ms) await new Promise((r) => setTimeout(r, ms));
      }
      socket.end();
      timer = setTimeout(() => done(false), closeWithinMs);
    });
  });
}

export function statuses(text: string): number[] {
  return [...text.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1]));
}

/** Runs curl; resolves with stdout (and the exit code). */
export function curl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('curl', ['--silent', '--show-error', '--max-time', '20', ...args], { encoding: 'latin1' }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
