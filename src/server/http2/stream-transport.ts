// A WebSocket's Transport on one HTTP/2 stream (RFC 8441 §5): its bytes go out as DATA within the
// stream's windows, reading pauses by holding back WINDOW_UPDATE, ending is END_STREAM and
// destroying is RST_STREAM CANCEL. The WebSocket connection cannot tell it from a socket.
import { latin1Out } from '../../out-bytes.js';
import type { Transport } from '../connection.js';
import { STREAM_HIGH_WATER_MARK, type Send } from './send.js';
import type { Http2Stream } from './stream.js';
import type { StreamTable } from './streams.js';

/** An HTTP/2 stream as a WebSocket's Transport. */
export class StreamTransport implements Transport {
  readonly alpnProtocol = 'h2';
  readonly remoteAddress: string;
  readonly remotePort: number;
  readonly encrypted: boolean;
  private ended = false;

  constructor(
    private readonly stream: Http2Stream,
    private readonly send: Send,
    private readonly streams: StreamTable,
    /** The connection's own transport (its backpressure counts too). */
    private readonly connection: Transport,
  ) {
    this.remoteAddress = connection.remoteAddress;
    this.remotePort = connection.remotePort;
    this.encrypted = connection.encrypted;
  }

  write(data: Uint8Array | string): boolean {
    if (this.ended || !this.stream.state.canSend) return false;
    this.send.data(this.stream, typeof data === 'string' ? latin1Out(data) : data);
    return !this.needsDrain;
  }

  // The connection corks its socket around each read already; frames are batched by its writer.
  cork(): void {}
  uncork(): void {}

  pause(): void {
    this.stream.pause();
  }

  resume(): void {
    this.stream.resume();
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.stream.state.canSend) this.send.end(this.stream, null);
  }

  destroy(): void {
    if (this.streams.get(this.stream.id)) this.streams.resetOutsideFrames(this.stream.id, 'CANCEL');
  }

  get needsDrain(): boolean {
    return this.stream.outbound.bytes >= STREAM_HIGH_WATER_MARK || this.connection.needsDrain;
  }

  get bufferedAmount(): number {
    return this.stream.outbound.bytes;
  }
}
