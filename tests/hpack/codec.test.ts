// The HPACK codec against a real peer (hpack.js) on random header lists, on random bytes, under
// HPACK bombs, and through its lifecycle (free, failure, traps).
import { describe, expect, it, vi } from 'vitest';
import { hpackJsDecoder, hpackJsEncoder } from '../../bench/peers/hpack-js.js';
import { HpackDecoder, HpackEncoder, HpackError } from '../../src/hpack/index.js';
import { EncoderIndex } from '../../src/hpack/encoder-index.js';
import { STATIC_TABLE } from '../../src/hpack/static-table.js';
import { WasmTrapError, wasmCore } from '../../src/wasm/module.js';
import { rng } from '../http1/corpus.js';
import { errorCode } from '../helpers.js';

const NAMES = [':method', ':path', ':authority', 'user-agent', 'accept', 'cookie', 'authorization', 'x-request-id', 'content-type', 'etag'];

function randomList(random: () => number): [string, string][] {
  const int = (n: number) => Math.floor(random() * n);
  const text = (min: number, max: number, top: number) =>
    Array.from({ length: min + int(max - min + 1) }, () => String.fromCharCode(0x20 + int(top - 0x20))).join('');
  return Array.from({ length: 1 + int(15) }, () => {
    const name =
      random() < 0.7
        ? NAMES[int(NAMES.length)]
        : 'x-' +
          text(1, 12, 0x7f)
            .toLowerCase()
            .replace(/[^a-z0-9-]/g, 'a');
    return [name, text(0, random() < 0.1 ? 600 : 40, random() < 0.2 ? 0x100 : 0x7f)] as [string, string];
  });
}

describe('HPACK against hpack.js', () => {
  it('each side decodes what the other encodes, over 300 connections of random lists', () => {
    const random = rng(42);
    let blocks = 0;
    for (let connection = 0; connection < 300; connection++) {
      const size = [4096, 256, 0, 65536][connection % 4];
      const ours = new HpackEncoder({
        maxTableSize: Math.min(size, 4096),
        huffman: (['auto', 'always', 'never'] as const)[connection % 3],
      });
      const ourDecoder = new HpackDecoder({ maxHeaderListSize: 1 << 20 });
      const peerDecode = hpackJsDecoder();
      const peerEncode = hpackJsEncoder();
      for (let i = 0; i < 10; i++) {
        const list = randomList(random);
        expect(peerDecode(ours.encode(list))).toEqual(list);
        expect(ourDecoder.decode(peerEncode(list))).toEqual(list);
        blocks++;
      }
      ours.free();
      ourDecoder.free();
    }
    expect(blocks).toBe(3000);
  });

  it('random bytes are decoded or refused with an HpackError, never a trap', () => {
    const random = rng(7);
    const generation = wasmCore().generation;
    let refused = 0;
    for (let i = 0; i < 20_000; i++) {
      const block = Uint8Array.from({ length: Math.floor(random() * 48) }, () => Math.floor(random() * 256));
      const decoder = new HpackDecoder();
      try {
        decoder.decode(block);
      } catch (error) {
        expect(error).toBeInstanceOf(HpackError);
        refused++;
      }
      decoder.free();
    }
    expect(refused).toBeGreaterThan(10_000);
    expect(wasmCore().generation).toBe(generation);
  });
});

describe('HPACK limits', () => {
  it('a block that references a big entry thousands of times fails at the list limit', () => {
    const encoder = new HpackEncoder({ maxTableSize: 4096 });
    const first = encoder.encode([['x-big', 'y'.repeat(3000)]]);
    const bomb = new Uint8Array(first.length + 100_000);
    bomb.set(first);
    bomb.fill(0xbe, first.length); // index 62: the entry just added
    const decoder = new HpackDecoder({ maxHeaderListSize: 65535, maxFields: 1_000_000 });
    expect(errorCode(() => decoder.decode(bomb))).toBe('ERR_HPACK_HEADER_LIST_TOO_LARGE');
  });

  it('a block of a million empty fields fails at the field limit', () => {
    const decoder = new HpackDecoder({ maxFields: 128, maxHeaderListSize: 1 << 30 });
    expect(errorCode(() => decoder.decode(new Uint8Array(1_000_000).fill(0x81)))).toBe('ERR_HPACK_TOO_MANY_FIELDS');
  });

  it('maxHeaderListSize counts name + value + 32 per field: accepted at the limit, refused one past it', () => {
    const block = new HpackEncoder({ huffman: 'never' }).encode([['a', 'b'.repeat(10)]]); // 1 + 10 + 32 = 43
    expect(new HpackDecoder({ maxHeaderListSize: 43 }).decode(block)).toEqual([['a', 'b'.repeat(10)]]);
    expect(errorCode(() => new HpackDecoder({ maxHeaderListSize: 42 }).decode(block))).toBe('ERR_HPACK_HEADER_LIST_TOO_LARGE');
  });

  it.each([
    ['3f', 'ERR_HPACK_TRUNCATED'],
    ['80', 'ERR_HPACK_INVALID_INDEX'],
    ['be', 'ERR_HPACK_INVALID_INDEX'],
    ['ff80808080808000', 'ERR_HPACK_INTEGER_OVERFLOW'],
    ['3fe21f', 'ERR_HPACK_TABLE_SIZE_TOO_LARGE'],
    ['8220', 'ERR_HPACK_TABLE_SIZE_UPDATE_MISPLACED'],
    ['4082', 'ERR_HPACK_TRUNCATED'],
    ['00811800', 'ERR_HPACK_HUFFMAN_PADDING'],
    ['0084ffffffff00', 'ERR_HPACK_HUFFMAN_EOS'],
  ])('block %s → %s', (block, code) => {
    expect(errorCode(() => new HpackDecoder().decode(Uint8Array.from(Buffer.from(block, 'hex'))))).toBe(code);
  });

  it('after SETTINGS lowers the table size, the next block must start with a size update', () => {
    const decoder = new HpackDecoder();
    decoder.decode(Uint8Array.from(Buffer.from('400161016200'.slice(0, 10), 'hex')));
    decoder.setTableLimit(0);
    expect(errorCode(() => decoder.decode(Uint8Array.of(0x82)))).toBe('ERR_HPACK_TABLE_SIZE_UPDATE_MISSING');
    const fresh = new HpackDecoder();
    fresh.setTableLimit(0);
    expect(fresh.decode(Uint8Array.of(0x20, 0x82))).toEqual([[':method', 'GET']]);
  });

  it('the encoder announces a smaller table, and both sides evict alike', () => {
    const encoder = new HpackEncoder();
    const decoder = new HpackDecoder();
    encoder.encode([['x-a', 'one']]);
    decoder.decode(new HpackEncoder().encode([['x-a', 'one']]));
    encoder.setTableLimit(40);
    decoder.setTableLimit(40);
    const block = encoder.encode([['x-b', 'two']]);
    expect(block[0] & 0xe0).toBe(0x20);
    expect(decoder.decode(block)).toEqual([['x-b', 'two']]);
    expect(decoder.dynamicTable()).toEqual(encoder.dynamicTable());
  });

  it('refuses characters that are not octets', () => {
    expect(errorCode(() => new HpackEncoder().encode([['x-a', 'snow ☃']]))).toBe('ERR_HPACK_INVALID_FIELD');
    expect(new HpackDecoder().decode(new HpackEncoder().encode([['x-a', 'caf\xe9']]))).toEqual([['x-a', 'caf\xe9']]);
  });
});

describe('HPACK static table', () => {
  it('the JS copy equals what the wasm decoder returns for every static index', () => {
    const decoder = new HpackDecoder();
    const block = Uint8Array.from({ length: 61 }, (_, i) => 0x81 + i);
    expect(decoder.decode(block)).toEqual(STATIC_TABLE.slice(1).map(([n, v]) => [n, v]));
  });
});

describe('HPACK dynamic entries', () => {
  it('a long connection keeps resolving indexed fields while entries are evicted', () => {
    const encoder = new HpackEncoder({ maxTableSize: 200 });
    const decoder = new HpackDecoder();
    for (let i = 0; i < 2000; i++) {
      const list: [string, string][] = [
        ['x-n', String(i % 7)],
        ['x-m', String(i % 13)],
        [':path', `/${i % 5}`],
      ];
      expect(decoder.decode(encoder.encode(list))).toEqual(list);
    }
  });
});

describe('HPACK blocks of indexed fields, written without wasm', () => {
  /** Forces every block through wasm: a never-index name that no list uses changes no output. */
  const THROUGH_WASM = { neverIndex: ['x-not-in-any-list'] };
  const allIndexed = (block: Uint8Array, fields: number) => block.length >= fields && block.every((b, i) => i >= fields || b >= 0x80);

  it('equal to the wasm encoder byte for byte, through evictions, re-insertions and table size changes', () => {
    const random = rng(99);
    const int = (n: number) => Math.floor(random() * n);
    let indexedBlocks = 0;
    let blocks = 0;
    let jsBlocks = 0;
    const writtenInJs = vi.spyOn(EncoderIndex.prototype, 'encode');
    for (let connection = 0; connection < 100; connection++) {
      // A small pool of lists, so blocks repeat (the case the JS path takes), and small tables,
      // so entries are evicted and added again under new ids.
      const small = () =>
        randomList(random)
          .filter(([name]) => name !== 'cookie' && name !== 'authorization')
          .slice(0, 1 + int(6))
          .map(([name, value]): [string, string] => [name, value.slice(0, 12)]);
      const pool = Array.from({ length: 1 + int(4) }, small);
      pool.push(randomList(random));
      pool.push([
        [':method', 'GET'],
        ['authorization', ''],
        ['cookie', ''],
        ['proxy-authorization', ''],
      ]);
      const size = [4096, 300, 120, 0, 1000][connection % 5];
      const fast = new HpackEncoder({ maxTableSize: size });
      const reference = new HpackEncoder({ maxTableSize: size });
      const peerDecode = hpackJsDecoder();
      for (let i = 0; i < 40; i++) {
        if (random() < 0.03) {
          const limit = [0, 256, 4096, 4096][int(4)];
          fast.setTableLimit(limit);
          reference.setTableLimit(limit);
        }
        const list = pool[int(pool.length)];
        const block = fast.encode(list);
        expect(block).toEqual(reference.encode(list, THROUGH_WASM));
        expect(peerDecode(block)).toEqual(list);
        if (allIndexed(block, list.length)) indexedBlocks++;
        blocks++;
        if (writtenInJs.mock.results.at(-1)?.value) jsBlocks++;
      }
      expect(fast.dynamicTable()).toEqual(reference.dynamicTable());
    }
    writtenInJs.mockRestore();
    expect(blocks).toBe(4000);
    // The JS path ran, often, and only for blocks of indexed fields.
    expect(jsBlocks).toBeGreaterThan(400);
    expect(jsBlocks).toBeLessThanOrEqual(indexedBlocks);
  });

  it('a block of full matches is written without wasm, also for older entries of a name', () => {
    const writtenInJs = vi.spyOn(EncoderIndex.prototype, 'encode');
    const encoder = new HpackEncoder();
    encoder.encode([[':path', '/a']]);
    encoder.encode([[':path', '/b']]);
    encoder.encode([[':path', '/c']]);
    const block = encoder.encode([
      [':path', '/a'],
      [':path', '/c'],
      [':method', 'GET'],
    ]);
    expect(writtenInJs.mock.results.at(-1)?.value).toBe(block);
    writtenInJs.mockRestore();
    expect(block).toEqual(Uint8Array.of(0x80 | 64, 0x80 | 62, 0x82));
  });

  it('indexes past 126 take more than one octet', () => {
    const size = 65536;
    const fast = new HpackEncoder({ maxTableSize: size });
    const reference = new HpackEncoder({ maxTableSize: size });
    fast.setTableLimit(size);
    reference.setTableLimit(size);
    const peerDecode = hpackJsDecoder(size);
    const list = Array.from({ length: 300 }, (_, i): [string, string] => [`x-${i}`, String(i)]);
    const first = fast.encode(list);
    expect(first).toEqual(reference.encode(list, THROUGH_WASM));
    expect(peerDecode(first)).toEqual(list);
    const warm = fast.encode(list);
    expect(warm).toEqual(reference.encode(list, THROUGH_WASM));
    // Indexes 62..361: one octet up to 126, two up to 254 (0xff then one), three beyond.
    expect(warm.length).toBe(65 + 128 * 2 + 107 * 3);
    expect(peerDecode(warm)).toEqual(list);
  });

  it('still refuses a malformed list when the rest of it is indexed', () => {
    const encoder = new HpackEncoder();
    encoder.encode([['x-a', 'one']]);
    encoder.encode([['x-a', 'one']]);
    const bad = [['x-a', 'one'], 'x-aone'] as unknown as [string, string][];
    expect(errorCode(() => encoder.encode(bad))).toBe('ERR_HPACK_INVALID_FIELD');
    expect(
      errorCode(() =>
        encoder.encode([
          ['x-a', 'one'],
          ['X-A', 'one'],
        ]),
      ),
    ).toBe('ERR_HPACK_INVALID_FIELD');
  });

  it('a never-indexed name is never sent indexed, even when the table holds it', () => {
    const encoder = new HpackEncoder();
    encoder.encode([['x-token', 'secret-value']]);
    expect(encoder.encode([['x-token', 'secret-value']])).toEqual(Uint8Array.of(0x80 | 62));
    const block = encoder.encode([['x-token', 'secret-value']], { neverIndex: ['x-token'] });
    expect(block[0] & 0xf0).toBe(0x10);
    expect(
      new HpackDecoder().decodeFields(new HpackEncoder().encode([['x-token', 'secret-value']], { neverIndex: ['x-token'] }))[0].neverIndex,
    ).toBe(true);
  });

  it('a freed encoder refuses even a block it could write without wasm', () => {
    const encoder = new HpackEncoder();
    encoder.encode([[':method', 'GET']]);
    encoder.free();
    expect(errorCode(() => encoder.encode([[':method', 'GET']]))).toBe('ERR_HPACK_FREED');
  });
});

describe('HPACK blocks copied out of wasm', () => {
  it('a block kept by the caller stays as it was while later blocks fill and replace the shared slab', () => {
    // Blocks over 64 bytes are views of a shared slab: none may be overwritten by a later encode.
    const next = rng(7);
    const kept: { block: Uint8Array; copy: Uint8Array; list: [string, string][] }[] = [];
    for (let i = 0; i < 400; i++) {
      const list: [string, string][] = Array.from({ length: 1 + Math.floor(next() * 12) }, (_, k) => [
        `x-field-${k}-${Math.floor(next() * 1000)}`,
        'v'.repeat(Math.floor(next() * 300)),
      ]);
      const encoder = new HpackEncoder();
      const block = encoder.encode(list);
      encoder.free();
      kept.push({ block, copy: Uint8Array.from(block), list });
    }
    expect(kept.some(({ block }) => block.length > 64)).toBe(true);
    expect(kept.reduce((sum, { block }) => sum + block.length, 0)).toBeGreaterThan(4 * 16 * 1024);
    for (const { block, copy, list } of kept) {
      expect(block).toEqual(copy);
      expect(new HpackDecoder().decode(block)).toEqual(list);
    }
  });
});

describe('HPACK codec lifecycle', () => {
  it('the encoder refuses what HTTP/2 forbids, with a coded error, and encodes nothing', () => {
    const encoder = new HpackEncoder();
    const decoder = new HpackDecoder();
    const bad: [unknown, RegExp][] = [
      [[['content-length', 1234]], /field \d must be a \[name, value\] pair of strings, got \["content-length", the number 1234\]/],
      [[['x-a', undefined]], /field \d must be a \[name, value\] pair of strings/],
      [['x-a'], /field \d must be a \[name, value\] pair of strings, got a string/],
      [[['Content-Type', 'text/plain']], /invalid field name "Content-Type": HTTP\/2 names are lowercase tokens/],
      [[['x-a', 'line\r\nx-b: injected']], /invalid byte 0x0d in the value of "x-a" at offset 4/],
      [[['x-a', 'nul\0']], /invalid byte 0x00 in the value of "x-a" at offset 3/],
    ];
    for (const [headers, message] of bad) {
      expect(errorCode(() => encoder.encode(headers as [string, string][]))).toBe('ERR_HPACK_INVALID_FIELD');
      expect(() => encoder.encode([['x-ok', '1'], ...(headers as [string, string][])])).toThrow(message);
    }
    // Nothing of a refused block reached the table: the encoder and a decoder are still in step.
    expect(encoder.dynamicTable().entries).toEqual([]);
    expect(decoder.decode(encoder.encode([['x-ok', '1']]))).toEqual([['x-ok', '1']]);
  });

  it('decode() takes bytes only, with a TypeError that says so', () => {
    const decoder = new HpackDecoder();
    for (const input of [new ArrayBuffer(1), new DataView(new ArrayBuffer(1)), '\x82', null]) {
      expect(() => decoder.decode(input as unknown as Uint8Array)).toThrow(TypeError);
      expect(errorCode(() => decoder.decode(input as unknown as Uint8Array))).toBe('ERR_INVALID_ARG_TYPE');
    }
    expect(decoder.decode(Uint8Array.of(0x82))).toEqual([[':method', 'GET']]);
  });

  it('reuses freed codec slots, once each, however often a handle is freed', () => {
    const handleOf = (codec: object) => (codec as unknown as { handle: number }).handle;
    const a = new HpackDecoder();
    const b = new HpackEncoder();
    const freed = handleOf(a);
    a.free();
    // A second free of the same handle (straight through the ABI) must not free the slot twice.
    wasmCore().call((e) => e.hpack_free(freed));
    const c = new HpackDecoder();
    const d = new HpackDecoder();
    expect(handleOf(c)).toBe(freed);
    expect(handleOf(d)).not.toBe(freed);
    // Each codec has its own table.
    const encoder = new HpackEncoder();
    expect(c.decode(encoder.encode([['x-c', '1']]))).toEqual([['x-c', '1']]);
    expect(d.dynamicTable().entries).toEqual([]);
    expect(b.encode([[':method', 'GET']])).toEqual(Uint8Array.of(0x82));
  });

  it('a decoder that failed stays failed; a freed one says so', () => {
    const decoder = new HpackDecoder();
    expect(errorCode(() => decoder.decode(Uint8Array.of(0x80)))).toBe('ERR_HPACK_INVALID_INDEX');
    // The next call, even with a valid block, says the decoder failed before, and why.
    expect(errorCode(() => decoder.decode(Uint8Array.of(0x82)))).toBe('ERR_HPACK_DECODER_FAILED');
    expect(() => decoder.decode(Uint8Array.of(0x82))).toThrow(/failed earlier \(ERR_HPACK_INVALID_INDEX\)/);
    const other = new HpackDecoder();
    other.free();
    expect(errorCode(() => other.decode(Uint8Array.of(0x82)))).toBe('ERR_HPACK_FREED');
  });

  it('codecs made before a trap report it; new ones work', () => {
    const before = new HpackDecoder();
    expect(() => wasmCore().reserve(0xffff_ffff)).toThrow(WasmTrapError);
    expect(errorCode(() => before.decode(Uint8Array.of(0x82)))).toBe('ERR_WASM_TRAP');
    expect(new HpackDecoder().decode(Uint8Array.of(0x82))).toEqual([[':method', 'GET']]);
  });

  it('keeps the never-indexed mark for intermediaries', () => {
    const block = new HpackEncoder().encode(
      [
        ['x-token', 'abc'],
        ['x-plain', 'abc'],
      ],
      { neverIndex: ['x-token'] },
    );
    expect(new HpackDecoder().decodeFields(block).map((f) => f.neverIndex)).toEqual([true, false]);
  });
});
