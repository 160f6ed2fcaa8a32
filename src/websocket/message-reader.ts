// Frames into messages (RFC 6455 §5.4-5.6): fragments joined, control frames taken as they come
// (also between the fragments of a message), text checked as strict UTF-8 piece by piece so bad
// bytes fail the connection as soon as they arrive (1007), sizes held to the limits before the
// payload is read (1009).
import { concatAll, JoinedPieces } from '../bytes.js';
import { CloseCode, parseClosePayload } from './close.js';
import { MessageTooBigError } from './deflate.js';
import { WebSocketError } from './errors.js';
import type { FrameSink } from './frame-decoder.js';
import { Opcode } from './frame.js';

/** What a reader reports. */
export interface MessageSink {
  text(data: string): void;
  binary(data: Uint8Array): void;
  ping(payload: Uint8Array): void;
  pong(payload: Uint8Array): void;
  /** A Close frame: its code (1005 when it had none) and reason, both checked. */
  close(code: number, reason: string): void;
}

/** The limits of a MessageReader, and its inflater once permessage-deflate was agreed. */
export interface MessageLimits {
  /** The most bytes of one message, all its fragments together (and, compressed, once inflated). */
  maxPayload: number;
  /** The most frames one message may be split into (each costs work for a byte or two). */
  maxFragments: number;
  /**
   * Inflates a compressed message (permessage-deflate was agreed): throws MessageTooBigError as
   * soon as the output passes `maxOutput`. Absent, RSV1 never reaches here (the decoder refuses it).
   */
  inflate?: (data: Uint8Array, maxOutput: number) => Uint8Array;
}

const FIN = 0x80;
const RSV1 = 0x40;
const EMPTY = new Uint8Array(0);
/** No pieces yet: a reader makes its arrays when a message has pieces (an idle socket holds none). */
const NO_PARTS: readonly Uint8Array[] = Object.freeze([]);
/**
 * Text that comes in pieces is decoded as each arrives. A piece shorter than this joins a run of
 * short ones, joined into the text TEXT_RUN pieces at a time: appended one by one, each would cost
 * a 32-byte rope node (1 MiB sent in 1-byte reads or HTTP/2 DATA frames held 34 MB).
 */
const SHORT_TEXT = 1024;
const TEXT_RUN = 1024;
/** For text that arrives whole (one frame, one read: the common case); shared, as it keeps no state between calls. */
const wholeText = new TextDecoder('utf-8', { fatal: true });
const STREAM = { stream: true };

/** Frames into messages and control frames. */
export class MessageReader implements FrameSink {
  /** The frame being read: its first byte. */
  private frame = 0;
  /** Replaced by a new array at each control frame's start, before any piece of it comes. */
  private controlParts = NO_PARTS as Uint8Array[];
  /** The data message being read: TEXT or BINARY, 0 between messages. */
  private message = 0;
  private messageBytes = 0;
  private fragments = 0;
  /** The message is compressed (RSV1 on its first frame, RFC 7692 §6): its pieces are kept whole until it ends. */
  private compressed = false;
  /** The pieces of a binary or compressed message (small ones joined: a piece per byte would take 200x the bytes). */
  private parts: JoinedPieces | null = null;
  /** The frame being read: its payload length. */
  private frameLength = 0;
  /** A message that arrived whole (one frame, one piece: the common case), taken as it is when its frame ends. */
  private whole: Uint8Array | null = null;
  private text = '';
  /** Short pieces of text not yet in `text`. */
  private textRun: string[] | null = null;
  /** Made only for text that comes in pieces (checked as each arrives), and dropped when it ends: an idle connection holds none. */
  private utf8: TextDecoder | null = null;
  // The limits are kept as fields, not as the object they came in (one object less per idle socket).
  private readonly maxPayload: number;
  private readonly maxFragments: number;
  private readonly inflate: MessageLimits['inflate'];

  constructor(
    private readonly sink: MessageSink,
    { maxPayload, maxFragments, inflate }: MessageLimits,
  ) {
    this.maxPayload = maxPayload;
    this.maxFragments = maxFragments;
    this.inflate = inflate;
  }

  frameStart(first: number, length: number): void {
    this.frame = first;
    this.frameLength = length;
    const opcode = first & 0x0f;
    if (opcode >= Opcode.CLOSE) {
      this.controlParts = [];
      return;
    }
    if (opcode !== Opcode.CONTINUATION) {
      this.message = opcode;
      this.messageBytes = this.fragments = 0;
      this.compressed = (first & RSV1) !== 0;
    }
    if (++this.fragments > this.maxFragments) {
      throw new WebSocketError(
        'ERR_WS_TOO_MANY_FRAGMENTS',
        `a message in more than ${this.maxFragments} frames`,
        CloseCode.POLICY_VIOLATION,
      );
    }
    this.messageBytes += length;
    if (this.messageBytes > this.maxPayload) {
      throw new WebSocketError('ERR_WS_MESSAGE_TOO_BIG', `a message over ${this.maxPayload} bytes`, CloseCode.MESSAGE_TOO_BIG);
    }
  }

  payload(bytes: Uint8Array): void {
    if ((this.frame & 0x0f) >= Opcode.CLOSE) this.controlParts.push(bytes);
    else if (this.frame & FIN && this.fragments === 1 && bytes.length === this.frameLength) this.whole = bytes;
    else if (this.message === Opcode.TEXT && !this.compressed) this.appendText(this.decode(bytes, true));
    else (this.parts ??= new JoinedPieces()).push(bytes);
  }

  private appendText(piece: string): void {
    if (piece.length < SHORT_TEXT) {
      const run = (this.textRun ??= []);
      run.push(piece);
      if (run.length < TEXT_RUN) return;
      this.text += run.join('');
    } else this.text += this.textRun ? this.textRun.join('') + piece : piece;
    this.textRun = null;
  }

  frameEnd(): void {
    const opcode = this.frame & 0x0f;
    if (opcode >= Opcode.CLOSE) return this.control(opcode, this.controlParts.length ? concatAll(this.controlParts) : EMPTY);
    if (!(this.frame & FIN)) return;
    const message = this.message;
    const whole = this.whole;
    this.message = 0;
    this.whole = null;
    if (this.compressed) return this.inflated(message, whole ?? this.takeParts());
    if (message === Opcode.TEXT) {
      if (whole) return this.sink.text(this.decode(whole, false, wholeText));
      const text = this.text + (this.textRun ? this.textRun.join('') : '') + (this.utf8 ? this.decode(EMPTY, false) : '');
      this.text = '';
      this.textRun = null;
      this.utf8 = null;
      return this.sink.text(text);
    }
    this.sink.binary(whole ?? this.takeParts());
  }

  /** The message's bytes, joined; none held after. */
  private takeParts(): Uint8Array {
    const parts = this.parts;
    this.parts = null;
    return parts ? parts.join() : EMPTY;
  }

  private inflated(message: number, compressed: Uint8Array): void {
    let data: Uint8Array;
    try {
      data = this.inflate!(compressed, this.maxPayload);
    } catch (error) {
      if (error instanceof MessageTooBigError) throw new WebSocketError('ERR_WS_MESSAGE_TOO_BIG', error.message, CloseCode.MESSAGE_TOO_BIG);
      throw new WebSocketError(
        'ERR_WS_INVALID_COMPRESSED_DATA',
        'a compressed message that does not inflate (RFC 7692 §6.2)',
        CloseCode.INVALID_DATA,
      );
    }
    if (message === Opcode.TEXT) return this.sink.text(this.decode(data, false, wholeText));
    this.sink.binary(data);
  }

  private control(opcode: number, payload: Uint8Array): void {
    if (opcode === Opcode.PING) return this.sink.ping(payload);
    if (opcode === Opcode.PONG) return this.sink.pong(payload);
    const { code, reason } = parseClosePayload(payload);
    this.sink.close(code, reason);
  }

  /** Strict UTF-8 (§8.1): a piece may end inside a character; `stream` false checks the end too. */
  private decode(
    bytes: Uint8Array,
    stream: boolean,
    decoder: TextDecoder = (this.utf8 ??= new TextDecoder('utf-8', { fatal: true })),
  ): string {
    try {
      return stream ? decoder.decode(bytes, STREAM) : decoder.decode(bytes);
    } catch {
      throw new WebSocketError('ERR_WS_INVALID_UTF8', 'a text message that is not valid UTF-8 (§8.1)', CloseCode.INVALID_DATA);
    }
  }
}
