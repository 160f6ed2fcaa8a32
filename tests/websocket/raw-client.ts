// A WebSocket client at the byte level, for what real clients never send: crafted frames (bad
// opcodes, unmasked frames, invalid UTF-8, frames split anywhere) and the server's exact answer.
import { once } from 'node:events';
import type http2 from 'node:http2';
import net from 'node:net';
import type { Duplex } from 'node:stream';

export interface ServerFrame {
  fin: boolean;
  rsv: number;
  opcode: number;
  payload: Buffer;
}

const KEY = 'dGhlIHNhbXBsZSBub25jZQ==';
const MASK = Buffer.from([0x12, 0x34, 0x56, 0x78]);

/** A masked client frame: `first` is FIN|RSV|opcode; `mask: false` leaves it unmasked (a protocol error). */
export function clientFrame(first: number, payload: Uint8Array | string, { mask = true, lengthBytes = 0 } = {}): Buffer {
  const data = typeof payload === 'string' ? Buffer.from(payload) : Buffer.from(payload);
  const length = data.length;
  const form = lengthBytes || (length < 126 ? 0 : length <= 0xffff ? 2 : 8);
  const header: number[] = [first];
  if (form === 0) header.push((mask ? 0x80 : 0) | length);
  else if (form === 2) header.push((mask ? 0x80 : 0) | 126, length >> 8, length & 0xff);
  else {
    header.push((mask ? 0x80 : 0) | 127, 0, 0, 0, 0);
    header.push((length >>> 24) & 0xff, (length >> 16) & 0xff, (length >> 8) & 0xff, length & 0xff);
  }
  if (!mask) return Buffer.concat([Buffer.from(header), data]);
  const masked = Buffer.allocUnsafe(data.length);
  for (let i = 0; i < data.length; i++) masked[i] = data[i] ^ MASK[i & 3];
  return Buffer.concat([Buffer.from(header), MASK, masked]);
}

/**
 * One message as masked frames of at most `size` payload bytes (0: one frame): `first` (the
 * opcode, and any RSV bits) on the first, continuations after it, FIN on the last. An empty
 * message is one empty frame.
 */
export function messageFrames(first: number, payload: Uint8Array, size = 0): Buffer {
  const step = size || payload.length || 1;
  const frames: Buffer[] = [];
  for (let at = 0; at < payload.length || at === 0; at += step) {
    const fin = at + step >= payload.length ? 0x80 : 0;
    frames.push(clientFrame(fin | (at === 0 ? first : 0), payload.subarray(at, at + step)));
  }
  return Buffer.concat(frames);
}

/** A close frame with `code` (none when undefined) and a reason (a string as UTF-8, or raw bytes). */
export const closeFrame = (code?: number, reason: string | Uint8Array = '') =>
  clientFrame(0x88, code === undefined ? Buffer.alloc(0) : Buffer.concat([Buffer.from([code >> 8, code & 0xff]), Buffer.from(reason)]));

/** The frame at `at`: its first byte, mask bit, payload length and where the payload starts; null when its header is cut. */
export function frameAt(bytes: Buffer, at: number): { first: number; masked: boolean; length: number; start: number } | null {
  if (at + 2 > bytes.length) return null;
  const masked = (bytes[at + 1]! & 0x80) !== 0;
  const short = bytes[at + 1]! & 0x7f;
  const extra = short === 126 ? 2 : short === 127 ? 8 : 0;
  const start = at + 2 + extra + (masked ? 4 : 0);
  if (start > bytes.length) return null;
  const length = extra === 2 ? bytes.readUInt16BE(at + 2) : extra === 8 ? Number(bytes.readBigUInt64BE(at + 2)) : short;
  return { first: bytes[at]!, masked, length, start };
}

export class RawWebSocket {
  /** The status line and fields of the handshake's answer. */
  head = '';
  ended = false;
  private buffer = Buffer.alloc(0);
  /** Chunks read after `buffer`, joined to it only once a frame can be complete (a 16 MiB echo comes in hundreds). */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private waiters: (() => void)[] = [];

  private constructor(readonly socket: Duplex) {
    socket.on('data', (chunk: Buffer) => {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      this.wake();
    });
    socket.on('close', () => {
      this.ended = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  /** Connects and sends a handshake (`extra` fields replace the defaults); `after` goes in the same write. */
  static async open(port: number, path: string, { extra = '', after = Buffer.alloc(0), more = '' } = {}): Promise<RawWebSocket> {
    const socket = net.connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const client = new RawWebSocket(socket as Duplex);
    const fields =
      extra || `Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${KEY}\r\nSec-WebSocket-Version: 13\r\n${more}`;
    socket.write(Buffer.concat([Buffer.from(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n${fields}\r\n`), after]));
    await client.until(() => client.join().indexOf('\r\n\r\n') >= 0 || client.ended);
    const end = client.join().indexOf('\r\n\r\n');
    if (end >= 0) {
      client.head = client.buffer.subarray(0, end).toString('latin1');
      client.buffer = client.buffer.subarray(end + 4);
    }
    return client;
  }

  /** A WebSocket already open on `duplex` (an HTTP/2 stream after its 200, RFC 8441). */
  static over(duplex: Duplex): RawWebSocket {
    return new RawWebSocket(duplex);
  }

  get status(): number {
    return Number(this.head.split(' ')[1]);
  }

  send(bytes: Uint8Array): void {
    this.socket.write(bytes);
  }

  /** Writes `bytes` in pieces of `size` bytes (Infinity: one write), waiting for each (1: reads split everywhere they can). */
  async sendInPieces(bytes: Uint8Array, size: number): Promise<void> {
    for (let at = 0; at < bytes.length; at += size) {
      await new Promise<void>((resolve) => this.socket.write(bytes.subarray(at, at + size), () => resolve()));
    }
  }

  /** The next frame from the server, or null once the connection closed without one. */
  async frame(timeoutMs = 5000): Promise<ServerFrame | null> {
    await this.until(() => this.parse() !== null || this.ended, timeoutMs);
    const frame = this.parse();
    if (!frame) return null;
    this.buffer = this.buffer.subarray(frame.size);
    return frame.frame;
  }

  /** Resolves once the server closed the TCP connection. */
  async closed(timeoutMs = 5000): Promise<boolean> {
    await this.until(() => this.ended, timeoutMs);
    return this.ended;
  }

  /** The close frame's code and reason. */
  static closeOf(frame: ServerFrame | null): { code: number; reason: string } | null {
    if (!frame || frame.opcode !== 8) return null;
    if (frame.payload.length < 2) return { code: 1005, reason: '' };
    return { code: frame.payload.readUInt16BE(0), reason: frame.payload.subarray(2).toString() };
  }

  destroy(): void {
    this.socket.destroy();
  }

  /** The bytes read so far, as one buffer. */
  private join(): Buffer {
    if (this.pending.length) {
      this.buffer = Buffer.concat([this.buffer, ...this.pending]);
      this.pending = [];
      this.pendingBytes = 0;
    }
    return this.buffer;
  }

  private parse(): { frame: ServerFrame; size: number } | null {
    // A frame head is at most 14 bytes: joined as soon as it can be read.
    let b = this.buffer.length < 14 ? this.join() : this.buffer;
    const head = frameAt(b, 0);
    if (!head) return null;
    if (head.masked) throw new Error('the server sent a masked frame');
    const { first, length, start } = head;
    if (b.length < start + length) {
      if (b.length + this.pendingBytes < start + length) return null;
      b = this.join();
    }
    return {
      frame: {
        fin: (first & 0x80) !== 0,
        rsv: (first >> 4) & 7,
        opcode: first & 0x0f,
        payload: Buffer.from(b.subarray(start, start + length)),
      },
      size: start + length,
    };
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private async until(done: () => boolean, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

/**
 * A WebSocket over HTTP/2 (RFC 8441): an extended CONNECT on `session`, sent once the server's
 * SETTINGS (which must allow it) have come. The stream, and the fields of the server's answer.
 */
export async function extendedConnect(session: http2.ClientHttp2Session, port: number, path: string, fields: Record<string, string> = {}) {
  await once(session, 'remoteSettings');
  const stream = session.request({
    ':method': 'CONNECT',
    ':protocol': 'websocket',
    ':scheme': 'http',
    ':path': path,
    ':authority': `127.0.0.1:${port}`,
    'sec-websocket-version': '13',
    ...fields,
  });
  const [headers] = (await once(stream, 'response')) as [http2.IncomingHttpHeaders];
  return { stream, headers };
}
