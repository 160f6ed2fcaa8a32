// src/utf8.ts on both of its paths: Buffer's methods where the runtime has them (Node, Deno, Bun)
// and TextEncoder/TextDecoder where it has not (browsers: the dashboard runs the IPC suite there).
import { describe, expect, it } from 'vitest';

type Utf8 = typeof import('../../src/utf8.js');

/** The module loaded afresh with `Buffer` hidden, so it picks its portable path. */
async function withoutBuffer(): Promise<Utf8> {
  const saved = globalThis.Buffer;
  Reflect.deleteProperty(globalThis, 'Buffer');
  try {
    return (await import(/* @vite-ignore */ `../../src/utf8.js?portable=${Date.now()}`)) as Utf8;
  } finally {
    globalThis.Buffer = saved;
  }
}

const TEXTS = ['', 'ascii only', 'é ü ß', '€ and 😀', '中文字', 'a\ud800b', '\udfff', 'x'.repeat(5000)];

describe('UTF-8 in place', async () => {
  const paths: [string, Utf8][] = [
    ['native (Buffer)', await import('../../src/utf8.js')],
    ['portable (TextEncoder)', await withoutBuffer()],
  ];

  it.each(paths)('%s: writes what TextEncoder makes, at an offset, within the room promised', (_name, utf8) => {
    for (const text of TEXTS) {
      const expected = new TextEncoder().encode(text);
      const bytes = new Uint8Array(7 + utf8.maxUtf8Length(text) + 5).fill(0xaa);
      const written = utf8.writeUtf8(bytes, 7, text);
      expect(written).toBe(expected.length);
      expect(bytes.subarray(7, 7 + written)).toEqual(expected);
      expect(bytes.subarray(0, 7).every((b) => b === 0xaa)).toBe(true); // nothing before the offset
      expect(bytes.subarray(7 + written).every((b) => b === 0xaa)).toBe(true); // nor after the text
    }
  });

  it.each(paths)('%s: with too little room, writes whole characters and leaves less than a character unused', (_name, utf8) => {
    for (const text of ['é'.repeat(9), '中'.repeat(9), '😀'.repeat(9), 'a😀é中'.repeat(4)]) {
      const full = new TextEncoder().encode(text);
      for (let room = 0; room < full.length; room++) {
        const bytes = new Uint8Array(room);
        const written = utf8.writeUtf8(bytes, 0, text);
        expect(room - written).toBeLessThan(utf8.MAX_UTF8_CHARACTER);
        expect(bytes.subarray(0, written)).toEqual(full.subarray(0, written)); // a prefix of whole characters
        expect(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, written))).toBe(
          new TextDecoder().decode(full.subarray(0, written)),
        );
      }
    }
  });

  it.each(paths)(
    '%s: counts the bytes TextEncoder makes (a lone surrogate as U+FFFD), the text length exactly for ASCII',
    (_name, utf8) => {
      const mixed = ['\ud83d', '\ude00', '😀', 'a', '\x7f', '\x80', '\u07ff', '\u0800', '\uffff', '中'];
      const texts = [...TEXTS, '😀'.repeat(3), '\ud83d\ud83d\ude00', '\ude00\ud83d', 'a\ud83d'];
      for (let i = 0; i < 200; i++) texts.push(Array.from({ length: i % 13 }, (_, k) => mixed[(i * 7 + k * 3) % mixed.length]).join(''));
      for (const text of texts) expect(utf8.utf8Length(text), JSON.stringify(text)).toBe(new TextEncoder().encode(text).length);
    },
  );

  it.each(paths)('%s: reads a range as TextDecoder does, malformed bytes as U+FFFD', (_name, utf8) => {
    for (const text of TEXTS) {
      const bytes = new Uint8Array([0xff, 0xfe, ...new TextEncoder().encode(text), 0xc3]);
      expect(utf8.utf8Range(bytes, 2, bytes.length - 1)).toBe(new TextDecoder().decode(bytes.subarray(2, bytes.length - 1)));
    }
    expect(utf8.utf8Range(Uint8Array.of(0x61, 0xff, 0xc3, 0x62), 0, 4)).toBe('a\ufffd\ufffdb');
  });
});
