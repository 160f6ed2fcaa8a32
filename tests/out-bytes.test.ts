// src/out-bytes.ts (text into the shared pool for outgoing bytes) and src/latin1.ts's writer, on
// both paths: Buffer's methods where the runtime has them (Node, Deno, Bun) and TextEncoder where
// it has not (browsers).
import { describe, expect, it, vi } from 'vitest';

type OutBytes = typeof import('../src/out-bytes.js');
type Latin1 = typeof import('../src/latin1.js');

/** A module and its imports loaded afresh with `Buffer` hidden, so they pick their portable paths. */
async function withoutBuffer<T>(path: string): Promise<T> {
  const saved = globalThis.Buffer;
  Reflect.deleteProperty(globalThis, 'Buffer');
  vi.resetModules();
  try {
    return (await import(/* @vite-ignore */ path)) as T;
  } finally {
    globalThis.Buffer = saved;
    vi.resetModules();
  }
}

const paths = async <T>(path: string): Promise<[string, T][]> => [
  ['native (Buffer)', (await import(/* @vite-ignore */ path)) as T],
  ['portable (TextEncoder)', await withoutBuffer<T>(path)],
];

const TEXTS = ['', 'ascii only', 'é ü ß', '€ and 😀', '中文字', 'a\ud800b', '\udfff', 'x'.repeat(5000)];

/** Latin1 bytes the slow, obvious way. */
const latin1Of = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));

/** Latin1 strings shaped as the writers see them: frame headers before ASCII, obs-text anywhere. */
const LATIN1_TEXTS = [
  '',
  'HTTP/1.1 200 OK\r\n',
  '\x81\x05hello',
  '\x81\x7e\x01\x00' + 'a'.repeat(256),
  '\x81\x7f\x00\x00\x00\x00\x00\x01\x00\x00' + 'b'.repeat(65_536),
  '\xff'.repeat(40),
  '\x80' + 'x'.repeat(15) + '\xe9' + 'y'.repeat(40), // non-ASCII again right after a short ASCII run
  '\x81' + 'x'.repeat(16) + '\xe9' + 'y'.repeat(40) + '\xfe', // ... and after a run long enough to try natively
  'tail \xe9',
];

describe('UTF-8 for the network, in a shared pool (encodeOut)', async () => {
  it.each(await paths<OutBytes>('../src/out-bytes.js'))(
    '%s: makes what TextEncoder makes, small and past the pooled size',
    (_name, out) => {
      for (const text of [...TEXTS, 'x'.repeat(20_000), 'é'.repeat(17_000), '😀'.repeat(9_000)]) {
        expect(out.encodeOut(text)).toEqual(new TextEncoder().encode(text));
      }
    },
  );

  it.each(await paths<OutBytes>('../src/out-bytes.js'))(
    '%s: never writes over bytes it gave out, across pools, with multi-byte characters at every pool end',
    (_name, out) => {
      // Lengths and endings vary so that the texts meet the end of a pool at every distance,
      // including a 4-byte character that only partly fits; every third text is mostly multi-byte
      // (its UTF-8 up to 3x its length, so it may not fit where its length would).
      const endings = ['', 'é', '€', '😀', 'a\ud800'];
      const texts = Array.from({ length: 3000 }, (_, i) =>
        i % 3 === 0
          ? `${i}:` + '€😀é'.repeat(1 + ((i * 31) % 400))
          : `${i}:`.padEnd(1 + ((i * 7919) % 700), 'x') + endings[i % endings.length],
      );
      const given = texts.map((text) => out.encodeOut(text));
      const encoder = new TextEncoder();
      texts.forEach((text, i) => expect(given[i], `text ${i}`).toEqual(encoder.encode(text)));
      expect(new Set(given.map((bytes) => bytes.buffer)).size).toBeGreaterThan(10); // many pools were filled
    },
  );
});

describe('latin1 for the network (writeLatin1, latin1Out)', async () => {
  it.each(await paths<Latin1>('../src/latin1.js'))(
    '%s: writeLatin1 writes each char code as one byte, at an offset, nothing else (and latin1Bytes makes them)',
    (_name, latin1) => {
      for (const text of LATIN1_TEXTS) {
        const bytes = new Uint8Array(3 + text.length + 3).fill(0xaa);
        latin1.writeLatin1(text, bytes, 3);
        expect(bytes.subarray(3, 3 + text.length), JSON.stringify(text.slice(0, 30))).toEqual(latin1Of(text));
        expect([...bytes.subarray(0, 3), ...bytes.subarray(3 + text.length)]).toEqual([0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa]);
        expect(latin1.latin1Bytes(text)).toEqual(latin1Of(text));
      }
    },
  );

  it.each(await paths<OutBytes>('../src/out-bytes.js'))(
    '%s: latin1Out gives the latin1 bytes and never writes over bytes it gave out',
    (_name, out) => {
      // Frames of every length to 700 and past the pooled size, so that they meet every pool end.
      const texts = Array.from({ length: 3000 }, (_, i) =>
        `\x81${String.fromCharCode(128 + (i % 128))}${i}:`.padEnd(1 + ((i * 7919) % 700), 'z'),
      );
      texts.push(...LATIN1_TEXTS);
      const given = texts.map((text) => out.latin1Out(text));
      texts.forEach((text, i) => expect(given[i], `text ${i}`).toEqual(latin1Of(text)));
      expect(new Set(given.map((bytes) => bytes.buffer)).size).toBeGreaterThan(10);
    },
  );
});

describe('joined writes (joinInto, joinOut)', async () => {
  /** The parts of a small write as a transport queues them: a head string, a frame header, bytes. */
  const partsOf = (i: number): (string | Uint8Array)[] => [
    `HTTP/1.1 200 OK\r\nX-N: ${i}\r\n\r\n`,
    String.fromCharCode(0x81, 0x7e, i & 0xff) + 'y'.repeat(i % 300),
    Uint8Array.from({ length: i % 97 }, (_, k) => (i + k) & 0xff),
  ];
  const expected = (parts: (string | Uint8Array)[]) =>
    Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? [...latin1Of(part)] : [...part])));
  const sizeOf = (parts: (string | Uint8Array)[]) => parts.reduce((n, part) => n + part.length, 0);

  it.each(await paths<OutBytes>('../src/out-bytes.js'))(
    '%s: joinInto writes the parts one after the other at an offset, nothing else',
    (_name, out) => {
      const parts = partsOf(260);
      const bytes = new Uint8Array(5 + sizeOf(parts) + 5).fill(0xaa);
      out.joinInto(parts, bytes, 5);
      expect(bytes.subarray(5, 5 + sizeOf(parts))).toEqual(expected(parts));
      expect([...bytes.subarray(0, 5), ...bytes.subarray(5 + sizeOf(parts))].every((b) => b === 0xaa)).toBe(true);
    },
  );

  it.each(await paths<OutBytes>('../src/out-bytes.js'))('%s: joinOut never writes over a write it gave out, across pools', (_name, out) => {
    // Writes of every size to ~450 bytes, meeting the end of a pool at every distance, all kept
    // (as writes a slow socket has not sent yet) and checked after all were made.
    const all = Array.from({ length: 3000 }, (_, i) => partsOf(i));
    const given = all.map((parts) => out.joinOut(parts, sizeOf(parts)));
    all.forEach((parts, i) => expect(given[i], `write ${i}`).toEqual(expected(parts)));
    expect(new Set(given.map((bytes) => bytes.buffer)).size).toBeGreaterThan(10);
  });
});
