// The Autobahn testsuite's compression cases for a server, sections 12 and 13 (case12_x_x.py of
// crossbario/autobahn-testsuite), as data: permessage-deflate (RFC 7692) echoes of 18 message
// sizes, whole or with the compressed message cut into frames ("auto-fragment"), of five kinds of
// data (12.1-12.5, under the default offer) and of JSON under seven offers (13.1-13.7). The suite's
// data files are not copied: each kind is generated here, of the same nature (JSON, a bitmap, German
// prose, HTML, an incompressible PDF-like mix) and long enough for the largest message. Autobahn
// echoes 1,000 messages per case; here each case echoes MESSAGES_PER_CASE, which keeps the 216 cases
// on two adapters and two protocols to seconds.
import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import { messageFrames } from './raw-client.js';

/** The bit that marks a message compressed (RFC 7692 §6). */
const RSV1 = 0x40;

/** Echoes per case (Autobahn: 1,000). */
export const MESSAGES_PER_CASE = 4;

/** (payload length, auto-fragment size: 0 sends each compressed message as one frame), in the suite's order. */
const MESSAGE_SIZES: [number, number][] = [
  [16, 0],
  [64, 0],
  [256, 0],
  [1024, 0],
  [4096, 0],
  [8192, 0],
  [16384, 0],
  [32768, 0],
  [65536, 0],
  [131072, 0],
  [8192, 256],
  [16384, 256],
  [32768, 256],
  [65536, 256],
  [131072, 256],
  [131072, 1024],
  [131072, 4096],
  [131072, 32768],
];

/** Each kind is longer than the largest message, so a message is a slice that wraps around (as in the suite). */
const DATA_BYTES = 200_000;

/** A repeatable generator (mulberry32), so every run sends the same bytes. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Text of `bytes` bytes made by `next`, cut to whole characters. */
function textOf(next: () => string): Buffer {
  const parts: string[] = [];
  let length = 0;
  while (length < DATA_BYTES) {
    const part = next();
    parts.push(part);
    length += Buffer.byteLength(part);
  }
  return Buffer.from(parts.join(''));
}

function jsonData(): Buffer {
  const r = random(1);
  let id = 0;
  return textOf(() =>
    JSON.stringify({
      id: id++,
      name: `item ${Math.floor(r() * 1e6)}`,
      price: Math.round(r() * 1e4) / 100,
      tags: ['a', 'b', 'c'].slice(0, 1 + Math.floor(r() * 3)),
    }),
  );
}

/** A 512×512 8-bit grayscale bitmap: a BMP head, then smooth shading with noise (as a photo is). */
function bitmapData(): Buffer {
  const r = random(2);
  const side = 512;
  const pixels = Buffer.alloc(side * side);
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++) pixels[y * side + x] = (128 + 90 * Math.sin(x / 40) * Math.cos(y / 55) + r() * 24) & 0xff;
  return Buffer.concat([Buffer.from('BM6\x04\x04\x00\x00\x00\x00\x006\x04\x00\x00(\x00\x00\x00', 'latin1'), pixels]);
}

const WORDS = [
  'Habe',
  'nun,',
  'ach!',
  'Philosophie,',
  'Juristerei',
  'und',
  'Medizin,',
  'leider',
  'auch',
  'Theologie',
  'durchaus',
  'studiert,',
  'mit',
  'heißem',
  'Bemühn.',
  'Da',
  'steh',
  'ich',
  'nun,',
  'ich',
  'armer',
  'Tor!',
  'Und',
  'bin',
  'so',
  'klug',
  'als',
  'wie',
  'zuvor;',
  'Größe',
  'Übel',
];

function proseData(): Buffer {
  const r = random(3);
  return textOf(() => WORDS[Math.floor(r() * WORDS.length)] + (r() < 0.1 ? '\n' : ' '));
}

function htmlData(): Buffer {
  const r = random(4);
  let row = 0;
  return textOf(
    () =>
      `<tr class="row-${row % 2}"><td id="c${row++}"><a href="/items/${Math.floor(r() * 1e5)}">Item</a></td><td>${Math.floor(r() * 1e4)}</td></tr>\n`,
  );
}

/** Mostly incompressible bytes (a PDF's compressed streams) between short runs of text. */
function pdfLikeData(): Buffer {
  const r = random(5);
  const bytes = Buffer.alloc(DATA_BYTES);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(r() * 256);
  for (let at = 0; at + 64 < bytes.length; at += 2048)
    bytes.write('endstream\nendobj\n12 0 obj\n<< /Length 2048 /Filter /FlateDecode >>\nstream\n', at, 'latin1');
  return bytes;
}

interface DataKind {
  name: string;
  data: Buffer;
  /** Sent as binary messages (else text: the data is UTF-8 and every slice of it is ASCII). */
  binary: boolean;
}

const json: DataKind = { name: 'JSON', data: jsonData(), binary: false };
/** 12.1-12.5, in the suite's order. */
const KINDS: DataKind[] = [
  json,
  { name: 'a bitmap', data: bitmapData(), binary: true },
  { name: 'German prose', data: proseData(), binary: true },
  { name: 'HTML', data: htmlData(), binary: false },
  { name: 'a PDF-like mix', data: pdfLikeData(), binary: true },
];

/** The client's offers of 13.1-13.7 (Autobahn's PerMessageDeflateOffer, as its client writes them). */
const DEFAULT_OFFER = 'permessage-deflate; client_no_context_takeover; client_max_window_bits';
const OFFERS_13 = [
  DEFAULT_OFFER,
  `${DEFAULT_OFFER}; server_no_context_takeover`,
  `${DEFAULT_OFFER}; server_max_window_bits=9`,
  `${DEFAULT_OFFER}; server_max_window_bits=15`,
  `${DEFAULT_OFFER}; server_no_context_takeover; server_max_window_bits=9`,
  `${DEFAULT_OFFER}; server_no_context_takeover; server_max_window_bits=15`,
  [
    `${DEFAULT_OFFER}; server_no_context_takeover; server_max_window_bits=9`,
    `${DEFAULT_OFFER}; server_no_context_takeover`,
    DEFAULT_OFFER,
  ].join(', '),
];

export interface DeflateCase {
  id: string;
  offer: string;
  kind: DataKind;
  /** Payload bytes of each message. */
  length: number;
  /** Bytes per frame of a compressed message, 0 for one frame. */
  fragment: number;
}

export const DEFLATE_CASES: DeflateCase[] = [
  ...KINDS.flatMap((kind, k) =>
    MESSAGE_SIZES.map(([length, fragment], i) => ({ id: `12.${k + 1}.${i + 1}`, offer: DEFAULT_OFFER, kind, length, fragment })),
  ),
  ...OFFERS_13.flatMap((offer, o) =>
    MESSAGE_SIZES.map(([length, fragment], i) => ({ id: `13.${o + 1}.${i + 1}`, offer, kind: json, length, fragment })),
  ),
];

/** The case's messages: successive slices of its data, wrapping around (the suite's payload pointer). */
export function messagesOf(c: DeflateCase): Buffer[] {
  const { data } = c.kind;
  const messages: Buffer[] = [];
  let at = 0;
  for (let m = 0; m < MESSAGES_PER_CASE; m++) {
    const end = (at + c.length) % data.length;
    messages.push(end > at ? data.subarray(at, end) : Buffer.concat([data.subarray(at), data.subarray(0, end)]));
    at = end;
  }
  return messages;
}

/** The empty uncompressed block a sync flush ends with, which a message leaves out (RFC 7692 §7.2.1). */
const TAIL = Buffer.from([0x00, 0x00, 0xff, 0xff]);

/**
 * One message compressed on its own (the server answers client_no_context_takeover), as masked
 * frames: the first has RSV1 and the opcode, the rest are continuations of `fragment` bytes.
 */
export function compressedFrames(message: Buffer, binary: boolean, fragment: number): Buffer {
  const compressed = deflateRawSync(message, { finishFlush: constants.Z_SYNC_FLUSH });
  return messageFrames(RSV1 | (binary ? 0x2 : 0x1), compressed.subarray(0, compressed.length - TAIL.length), fragment);
}

/**
 * A message the server sent: its payload put together, inflated when its first frame had RSV1,
 * with the window the server agreed to (a larger one in its output fails the inflate).
 */
export function inflateMessage(parts: Buffer[], compressed: boolean, windowBits: number): Buffer {
  const payload = Buffer.concat(parts);
  return compressed ? inflateRawSync(Buffer.concat([payload, TAIL]), { windowBits, finishFlush: constants.Z_SYNC_FLUSH }) : payload;
}

/** The server's window from its answer (`server_max_window_bits`), 15 when it names none. */
export function serverWindowBits(answer: string): number {
  return Number(/server_max_window_bits=(\d+)/.exec(answer)?.[1] ?? 15);
}
