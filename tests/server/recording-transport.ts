// A socket's transport for tests at the core's Transport seam: it keeps what is written, and the
// writes as the network would get them, as a Node socket groups them (what is written while
// corked goes out as one, at `uncork`).
import type { SocketTransport, TransportEvents } from '../../src/server/connection.js';

export class RecordingTransport implements SocketTransport {
  events: TransportEvents | null = null;
  /** Everything written, as latin1 text. */
  written = '';
  /** Each write the socket would make (latin1 text): an uncorked write, or what a cork held. */
  flushes: string[] = [];
  /** What each write call was given: a string (latin1 text), bytes, or text to write as UTF-8 (`writeText`). */
  kinds: ('string' | 'bytes' | 'text')[] = [];
  readonly remoteAddress = '127.0.0.1';
  readonly remotePort = 40000;
  readonly encrypted = false;
  readonly alpnProtocol = null;
  readonly needsDrain = false;
  readonly bufferedAmount = 0;
  private corks = 0;
  private corked = '';

  /**
   * Whether the transport writes UTF-8 strings itself, as Node's does (`writeText`); without it, as
   * Deno's, the core encodes text to bytes first.
   */
  constructor(options: { writesText?: boolean } = {}) {
    if (!options.writesText) this.writeText = undefined;
  }

  write(data: Uint8Array | string): boolean {
    this.kinds.push(typeof data === 'string' ? 'string' : 'bytes');
    return this.send(typeof data === 'string' ? data : Buffer.from(data).toString('latin1'));
  }
  writeText?(text: string): boolean {
    this.kinds.push('text');
    return this.send(Buffer.from(text, 'utf8').toString('latin1'));
  }
  private send(latin1: string): boolean {
    this.written += latin1;
    if (this.corks) this.corked += latin1;
    else this.flushes.push(latin1);
    return true;
  }
  cork(): void {
    this.corks++;
  }
  uncork(): void {
    if (this.corks === 0 || --this.corks > 0 || !this.corked) return;
    this.flushes.push(this.corked);
    this.corked = '';
  }
  pause(): void {}
  resume(): void {}
  end(): void {}
  destroy(): void {
    this.events?.onClose();
  }
}
