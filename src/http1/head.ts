import {
  BODY_CHUNKED,
  BODY_LENGTH,
  BODY_NONE,
  BODY_UNTIL_CLOSE,
  FLAG_ASCII,
  FLAG_EXPECT_CONTINUE,
  FLAG_KEEP_ALIVE,
  FLAG_UPGRADE,
  Head,
} from '../wasm/abi.js';
import { copyWords, wasmCore, type TableReader } from '../wasm/module.js';
import type { HeaderList } from '../fields.js';
import { latin1Range } from '../latin1.js';
import { Slab } from '../bytes.js';

export type { HeaderList };

/** How the message body is framed (RFC 9112 §6.3). */
export type BodyKind = 'none' | 'length' | 'chunked' | 'until-close';
const BODY_KINDS: Record<number, BodyKind> = {
  [BODY_NONE]: 'none',
  [BODY_LENGTH]: 'length',
  [BODY_CHUNKED]: 'chunked',
  [BODY_UNTIL_CLOSE]: 'until-close',
};

/**
 * Field records of 64 words (16 fields) or more are copied into a slab: a word copied into an array costs
 * ~3.5 ns here (50 fields: 735 ns), a slab copy ~180 ns. A head kept alive keeps its 16 KiB slab,
 * as it keeps the chunk its bytes came in.
 */
const SLAB_MIN_WORDS = 64;
const records = new Slab((length) => new Uint32Array(length), 4096);
const NO_WORDS: readonly number[] = [];
const LOWER_A = 0x61;
const LOWER_Z = 0x7a;
/** The bit that tells an ASCII letter's lower case from its upper case. */
const CASE_BIT = 0x20;

/**
 * A parsed head that makes strings only when asked: it keeps the input bytes and the parser's
 * offset record; the first field read decodes the whole head once and every field is a slice of
 * that string. The record is read in place from the wasm result table until the next parse
 * overwrites it. Then it is dropped, not copied: most heads are never read after the next parse
 * (a handler reads what it needs at once), and copying every record out was a quarter of a lazy
 * 10-field parse. A head read later parses its own bytes again (`parseAgain`).
 */
export abstract class MessageHead implements TableReader {
  private text: string | undefined;
  private headerList: HeaderList | undefined;
  /**
   * The fixed words of the wasm head record (layout in src/wasm/abi.ts `Head`), read at once:
   * copying them out of the table later, when the next parse reclaims it, was a tenth of a
   * one-shot parse here (an array and ten word copies).
   */
  private readonly flags: number;
  private readonly bodyFraming: number;
  private readonly framedLength: number;
  private readonly fieldCount: number;
  private readonly minor: number;
  protected readonly aOffset: number;
  protected readonly aLength: number;
  protected readonly bOffset: number;
  protected readonly bLength: number;
  /**
   * The field records (4 words each, from `Head.FIELDS`): the live table, a copy of them, or null
   * once the table moved on to the next parse (`records()` parses the head again).
   */
  private words: ArrayLike<number> | null;
  /** Where the field records start in `words`: `Head.FIELDS` in the table, 0 in a copy. */
  private recordsAt: number = Head.FIELDS;

  constructor(
    private readonly input: Uint8Array,
    private readonly start: number,
    private readonly end: number,
    table: Uint32Array,
    /** The OPT_* bits this head was parsed with, to parse it again the same way. */
    private readonly parseOptions: number,
  ) {
    this.words = table;
    this.flags = table[Head.FLAGS];
    this.minor = table[Head.VERSION_MINOR];
    this.bodyFraming = table[Head.BODY];
    this.framedLength = table[Head.LENGTH_HI] * 0x1_0000_0000 + table[Head.LENGTH_LO];
    this.aOffset = table[Head.A_OFF];
    this.aLength = table[Head.A_LEN];
    this.bOffset = table[Head.B_OFF];
    this.bLength = table[Head.B_LEN];
    this.fieldCount = table[Head.FIELD_COUNT];
  }

  /**
   * The result table is about to be reused: the field records in it are dropped (read later, they
   * are parsed again); once the fields were read as a list (`headers`), that list answers for them.
   */
  detach(): void {
    this.words = this.headerList ? NO_WORDS : null;
  }

  /** The field records, parsed again from the head's bytes if the table moved on since. */
  private records(): ArrayLike<number> {
    return this.words ?? this.parseAgain();
  }

  /**
   * Parses the head's bytes again (they were accepted with these options, so the records come out
   * the same) and copies the records out of the table at once: the next parse may be anywhere.
   */
  private parseAgain(): ArrayLike<number> {
    if (this.fieldCount === 0) return (this.words = NO_WORDS);
    const core = wasmCore();
    const length = this.end - this.start;
    core.load(this.input.subarray(this.start, this.end));
    const rc = core.parseHead(0, length, this.fieldCount, length, length, this.parseOptions);
    if (rc !== length) throw new Error(`a head parsed before did not parse again (${rc} of ${length} bytes)`);
    const count = 4 * this.fieldCount;
    const table = core.table;
    this.recordsAt = 0;
    return (this.words =
      count >= SLAB_MIN_WORDS ? records.copy(table, Head.FIELDS, Head.FIELDS + count) : copyWords(table, Head.FIELDS, count));
  }

  /** The head's bytes (start line through the empty line). */
  get raw(): Uint8Array {
    return this.input.subarray(this.start, this.end);
  }

  /** The whole head as one string, decoded once. */
  private headText(): string {
    return (this.text ??= latin1Range(this.input, this.start, this.end, (this.flags & FLAG_ASCII) !== 0));
  }

  protected slice(offset: number, length: number): string {
    return this.headText().slice(offset, offset + length);
  }

  get versionMajor(): number {
    return 1;
  }
  get versionMinor(): number {
    return this.minor;
  }
  /** RFC 9112 §9.3: persistent unless `close` (1.1) or no `keep-alive` (1.0). */
  get keepAlive(): boolean {
    return (this.flags & FLAG_KEEP_ALIVE) !== 0;
  }
  /** Protocol switch: Upgrade + Connection: upgrade, CONNECT, a 101 or a 2xx to CONNECT. */
  get upgrade(): boolean {
    return (this.flags & FLAG_UPGRADE) !== 0;
  }
  get expectContinue(): boolean {
    return (this.flags & FLAG_EXPECT_CONTINUE) !== 0;
  }
  /** How the body is framed (RFC 9112 §6.3). */
  get bodyKind(): BodyKind {
    return BODY_KINDS[this.bodyFraming];
  }
  /** The Content-Length when `bodyKind` is 'length', else -1. */
  get contentLength(): number {
    return this.bodyFraming === BODY_LENGTH ? this.framedLength : -1;
  }

  /** Once `headers` was read, its list is the head's fields (headerCount, headerName, get read it). */
  get headerCount(): number {
    return this.headerList ? this.headerList.length : this.fieldCount;
  }
  /** Field name `i` in its original case. */
  headerName(i: number): string {
    if (this.headerList) return this.headerList[i][0];
    const words = this.records();
    const at = this.recordsAt + 4 * i;
    return this.slice(words[at], words[at + 1]);
  }
  headerValue(i: number): string {
    if (this.headerList) return this.headerList[i][1];
    const words = this.records();
    const at = this.recordsAt + 4 * i;
    return this.slice(words[at + 2], words[at + 3]);
  }
  /** Whether field `i`'s value is exactly `bytes` (latin1), compared without making its string. */
  headerValueEquals(i: number, bytes: Uint8Array): boolean {
    const list = this.headerList;
    if (list) {
      const value = list[i][1];
      if (value.length !== bytes.length) return false;
      for (let k = 0; k < value.length; k++) if (value.charCodeAt(k) !== bytes[k]) return false;
      return true;
    }
    const words = this.records();
    const at = this.recordsAt + 4 * i;
    const length = words[at + 3];
    if (length !== bytes.length) return false;
    const input = this.input;
    const from = this.start + words[at + 2];
    for (let k = 0; k < length; k++) if (input[from + k] !== bytes[k]) return false;
    return true;
  }
  /** All fields in wire order, original case: the head's own list, made once (from then on the head reads its fields from it). */
  get headers(): HeaderList {
    if (this.headerList) return this.headerList;
    // One pass over the record, slicing the decoded head (the hot loop of parseRequest).
    const words = this.records();
    const text = this.headText();
    const list: HeaderList = new Array(this.fieldCount);
    for (let i = 0, at = this.recordsAt; i < list.length; i++, at += 4) {
      const name = words[at];
      const value = words[at + 2];
      list[i] = [text.slice(name, name + words[at + 1]), text.slice(value, value + words[at + 3])];
    }
    return (this.headerList = list);
  }
  /**
   * The index of the first field at or after `from` named `lowerName` (lower case; compared
   * case-insensitively), or -1. Names of another length are passed over without making a string.
   */
  indexOfField(lowerName: string, from = 0): number {
    const list = this.headerList;
    const words = list ? NO_WORDS : this.records();
    const count = this.headerCount;
    for (let i = from, at = this.recordsAt + 4 * from; i < count; i++, at += 4) {
      if (list) {
        const name = list[i][0];
        if (name.length === lowerName.length && name.toLowerCase() === lowerName) return i;
      } else if (words[at + 1] === lowerName.length && this.nameBytesAre(words[at], lowerName)) return i;
    }
    return -1;
  }
  /**
   * Whether the name at `offset` (of `lowerName`'s length) is `lowerName` in any case, read from
   * the bytes: a server asks for Host on every request, and making the name's string to lower-case
   * it was a slice, a lower-cased copy and a string comparison each time.
   */
  private nameBytesAre(offset: number, lowerName: string): boolean {
    const input = this.input;
    const from = this.start + offset;
    for (let k = 0; k < lowerName.length; k++) {
      const wanted = lowerName.charCodeAt(k);
      const byte = input[from + k];
      // ASCII letters differ from their upper case in bit 0x20 alone; any other byte must be equal.
      if (byte !== wanted && !(wanted >= LOWER_A && wanted <= LOWER_Z && (byte | CASE_BIT) === wanted)) return false;
    }
    return true;
  }
  /** The value of field `name` (case-insensitive); repeated fields joined with ", " as by Headers#get. */
  get(name: string): string | undefined {
    const wanted = name.toLowerCase();
    let found: string | undefined;
    for (let i = this.indexOfField(wanted); i >= 0; i = this.indexOfField(wanted, i + 1)) {
      found = found === undefined ? this.headerValue(i) : `${found}, ${this.headerValue(i)}`;
    }
    return found;
  }
}

/** A parsed request head: method and target besides the fields. */
export class RequestHead extends MessageHead {
  get method(): string {
    return this.slice(this.aOffset, this.aLength);
  }
  /** The request-target as sent (origin-form, absolute-form, authority-form or `*`). */
  get url(): string {
    return this.slice(this.bOffset, this.bLength);
  }
}

/** A parsed response head: status and reason besides the fields. */
export class ResponseHead extends MessageHead {
  get status(): number {
    return this.bOffset;
  }
  get reason(): string {
    return this.slice(this.aOffset, this.aLength);
  }
}
