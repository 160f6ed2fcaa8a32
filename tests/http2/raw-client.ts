// A bare HTTP/2 client over a real socket, for what no well-behaved client sends: floods, resets,
// bombs, windows past their limits. It writes frames with the project's encoders and reads the
// server's frames with its reader.
import net from 'node:net';
import { errorCodeName } from '../../src/http2/errors.js';
import {
  CLIENT_PREFACE,
  encodeSettings,
  Flag,
  frame,
  FrameReader,
  FrameType,
  SETTINGS_ACK,
  type RawFrame,
  type Setting,
} from '../../src/http2/frame/index.js';
import { HpackEncoder } from '../../src/hpack/index.js';

export interface ReceivedFrame {
  type: number;
  flags: number;
  streamId: number;
  payload: Uint8Array;
}

export class RawHttp2Client {
  readonly frames: ReceivedFrame[] = [];
  closed = false;
  private readonly socket: net.Socket;
  private readonly reader = new FrameReader(16_777_215, { preface: false });
  private readonly hpack = new HpackEncoder();
  private waiters: (() => void)[] = [];
  readonly ready: Promise<void>;

  /**
   * `ackSettings`: acknowledge the server's SETTINGS (a client that does not is a test case);
   * `settings`: the client's own (`[SettingId.INITIAL_WINDOW_SIZE, 0]`: a client that takes no DATA).
   */
  constructor(port: number, options: { ackSettings?: boolean; ackPings?: boolean; settings?: Setting[] } = {}) {
    const { ackSettings = true, ackPings = true, settings = [] } = options;
    this.socket = net.connect({ port, host: '127.0.0.1', noDelay: true });
    this.ready = new Promise((resolve) => this.socket.once('connect', () => resolve()));
    this.socket.on('data', (chunk: Buffer) => {
      for (const { header, payload } of this.reader.push(chunk) as RawFrame[]) {
        const received = { type: header.type, flags: header.flags, streamId: header.streamId, payload: payload.slice() };
        this.frames.push(received);
        if (ackSettings && header.type === FrameType.SETTINGS && !(header.flags & Flag.ACK)) this.write(SETTINGS_ACK);
        if (ackPings && header.type === FrameType.PING && !(header.flags & Flag.ACK))
          this.write(frame(FrameType.PING, Flag.ACK, 0, received.payload));
      }
      this.wake();
    });
    this.socket.on('error', () => undefined);
    this.socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    this.write(CLIENT_PREFACE);
    this.write(encodeSettings(settings));
  }

  /** Stops reading the socket (a client that takes nothing: the server's socket queue fills). */
  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  write(bytes: Uint8Array): boolean {
    if (this.socket.destroyed) return false;
    return this.socket.write(bytes);
  }

  /** HEADERS for a request (END_HEADERS set unless `endHeaders` is false). */
  request(
    streamId: number,
    method: string,
    path: string,
    options: { endStream?: boolean; endHeaders?: boolean; extra?: [string, string][] } = {},
  ): void {
    const { endStream = method === 'GET', endHeaders = true, extra = [] } = options;
    const block = this.headerBlock([[':method', method], [':scheme', 'http'], [':authority', 'localhost'], [':path', path], ...extra]);
    this.write(frame(FrameType.HEADERS, (endStream ? Flag.END_STREAM : 0) | (endHeaders ? Flag.END_HEADERS : 0), streamId, block));
  }

  headerBlock(fields: [string, string][]): Uint8Array {
    return this.hpack.encode(fields);
  }

  send(type: number, flags: number, streamId: number, payload?: Uint8Array): boolean {
    return this.write(frame(type, flags, streamId, payload));
  }

  /** Resolves when `test` holds for what was received, or the connection closed, or `ms` passed. */
  async until(test: () => boolean, ms = 5000): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!test()) {
      if (this.closed || Date.now() > deadline) return test();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return true;
  }

  /** The error code name of the server's GOAWAY, once one arrives (or null). */
  async goaway(ms = 5000): Promise<string | null> {
    await this.until(() => this.frames.some((f) => f.type === FrameType.GOAWAY), ms);
    const goaway = this.frames.find((f) => f.type === FrameType.GOAWAY);
    if (!goaway) return null;
    const code = new DataView(goaway.payload.buffer, goaway.payload.byteOffset).getUint32(4);
    return errorCodeName(code) ?? String(code);
  }

  /** RST_STREAM codes by stream. */
  resets(): Map<number, string> {
    const out = new Map<number, string>();
    for (const f of this.frames) {
      if (f.type !== FrameType.RST_STREAM) continue;
      const code = new DataView(f.payload.buffer, f.payload.byteOffset).getUint32(0);
      out.set(f.streamId, errorCodeName(code) ?? String(code));
    }
    return out;
  }

  count(type: number, flags = 0): number {
    return this.frames.filter((f) => f.type === type && (f.flags & flags) === flags).length;
  }

  waitClosed(ms = 5000): Promise<boolean> {
    return this.until(() => this.closed, ms);
  }

  close(): void {
    this.socket.destroy();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
