// Cleartext HTTP/1.1 and h2c with prior knowledge on one port (RFC 9113 §3.3): the first bytes
// decide. A connection that starts with the HTTP/2 client preface is HTTP/2; one whose first line
// ends in an HTTP/1 version is HTTP/1.1. Anything else is closed without an answer, as §3.4 asks
// of an invalid preface (a 400 in HTTP/1.1 text would be garbage to an HTTP/2 client).
import { concat } from '../bytes.js';
import { CLIENT_PREFACE, prefaceState } from '../http2/frame/reader.js';
import type { ServerConnection, Transport } from './connection.js';

/** Past this many bytes without a line end, the HTTP/1.1 parser decides (431 or 414). */
const MAX_LINE_WAIT = 8 * 1024;
const CR = 13;
const LF = 10;
/** " HTTP/" before a one-digit major version (RFC 9112 §2.3). */
const VERSION_PREFIX = [32, 72, 84, 84, 80, 47];

/** Whether `data` starts with a line ending in ` HTTP/d.d`, or more bytes are needed. */
function http1Line(data: Uint8Array): 'http1' | 'neither' | 'wait' {
  // Blank lines before a request are allowed (RFC 9112 §2.2).
  let start = 0;
  while (start < data.length && (data[start] === CR || data[start] === LF)) start++;
  const end = data.indexOf(LF, start);
  if (end < 0) return data.length - start > MAX_LINE_WAIT ? 'http1' : 'wait';
  const lineEnd = end > start && data[end - 1] === CR ? end - 1 : end;
  const at = lineEnd - 9; // " HTTP/1.1"
  if (at < start) return 'neither';
  for (let i = 0; i < VERSION_PREFIX.length; i++) if (data[at + i] !== VERSION_PREFIX[i]) return 'neither';
  return 'http1';
}

/** A cleartext connection until its first bytes say HTTP/2 or HTTP/1.1. */
export class ProtocolSniffer implements ServerConnection {
  private inner: ServerConnection | null = null;
  private held: Uint8Array | null = null;
  private readonly createdAt = Date.now();

  constructor(
    private readonly transport: Transport,
    /** Makes the connection for the protocol found (and puts it in the sniffer's place); an HTTP/2 one starts after the preface. */
    private readonly choose: (http2: boolean) => ServerConnection,
    private readonly timeout: number,
    private readonly closed: () => void,
  ) {}

  onData(chunk: Uint8Array): void {
    if (this.inner) return this.inner.onData(chunk);
    const data = this.held ? concat(this.held, chunk) : chunk;
    const preface = prefaceState(data);
    if (preface === 'partial') {
      this.held = data;
      return;
    }
    const http2 = preface === 'complete';
    if (!http2) {
      const verdict = http1Line(data);
      if (verdict === 'wait') {
        this.held = data;
        return;
      }
      if (verdict === 'neither') return this.transport.destroy();
    }
    this.held = null;
    this.inner = this.choose(http2);
    // The HTTP/2 connection is told the preface was read (see server-core.ts), so it is checked once.
    const rest = http2 ? data.subarray(CLIENT_PREFACE.length) : data;
    if (rest.length) this.inner.onData(rest);
  }

  onEnd(): void {
    if (this.inner) return this.inner.onEnd();
    this.transport.end();
  }

  onDrain(): void {
    this.inner?.onDrain();
  }

  onClose(): void {
    if (this.inner) return this.inner.onClose();
    this.closed();
  }

  checkDeadline(now: number): void {
    if (this.inner) return this.inner.checkDeadline(now);
    if (now > this.createdAt + this.timeout) this.transport.destroy();
  }

  shutdown(): void {
    if (this.inner) return this.inner.shutdown();
    this.transport.end();
  }

  destroy(error?: unknown): void {
    if (this.inner) return this.inner.destroy(error);
    this.transport.destroy();
  }
}
