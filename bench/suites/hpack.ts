// Suite `hpack`: HPACK decode and encode, wirespeed (Rust → wasm) against hpack.js, same run.
import { FIRST_BLOCKS } from '../peers/hpack-first-blocks.js';
import { BROWSER_REQUEST, FIFTY_FIELDS, RESPONSE } from '../peers/hpack-inputs.js';
import { HpackDecoder, HpackEncoder } from '../../src/hpack/index.js';
import type { BenchCase, Runtime, Suite } from '../harness/types.js';
import { optionalPeer } from '../harness/peers.js';

export const hpackSuite: Suite = {
  name: 'hpack',
  description: 'HPACK header block decode and encode (names and values as strings)',
  async cases(runtime: Runtime): Promise<BenchCase[]> {
    const cases: BenchCase[] = [];
    const add = (group: string, impl: string, setup: () => () => unknown, baseline = false) =>
      cases.push({ suite: 'hpack', group, impl, baseline, setup });
    // hpack.js needs Node's Buffer and process: a browser gets them from node-globals.ts first.
    if (runtime === 'browser') await import('../peers/node-globals.js');
    const hpackJs = await optionalPeer('hpack.js', () => import('../peers/hpack-js.js'));
    const peers = hpackJs !== null;
    const hpackJsEncoder = () => hpackJs!.hpackJsEncoder();
    const hpackJsDecoder = () => hpackJs!.hpackJsDecoder();

    for (const [name, list] of [
      ['browser request', BROWSER_REQUEST],
      ['50 fields', FIFTY_FIELDS],
      ['response', RESPONSE],
    ] as const) {
      const block = FIRST_BLOCKS[name];
      // A first block needs a fresh table: each operation makes a decoder, decodes, drops it.
      add(`decode first block: ${name}`, 'wirespeed', () => () => {
        const decoder = new HpackDecoder();
        const out = decoder.decode(block);
        decoder.free();
        return out.length;
      });
      if (peers) add(`decode first block: ${name}`, 'hpack.js', () => () => hpackJsDecoder()(block).length, true);

      add(`encode first block: ${name}`, 'wirespeed', () => () => {
        const encoder = new HpackEncoder();
        const out = encoder.encode(list);
        encoder.free();
        return out.length;
      });
      if (peers) add(`encode first block: ${name}`, 'hpack.js', () => () => hpackJsEncoder()(list).length, true);
    }

    // Warm: the same request again on the same connection, so every field is indexed.
    add('decode warm block (all indexed)', 'wirespeed', () => {
      const encoder = new HpackEncoder();
      const decoder = new HpackDecoder();
      decoder.decode(encoder.encode(BROWSER_REQUEST));
      const warm = encoder.encode(BROWSER_REQUEST);
      return () => decoder.decode(warm).length;
    });
    if (peers) {
      add(
        'decode warm block (all indexed)',
        'hpack.js',
        () => {
          const encode = hpackJsEncoder();
          const decode = hpackJsDecoder();
          decode(encode(BROWSER_REQUEST));
          const warm = encode(BROWSER_REQUEST);
          return () => decode(warm).length;
        },
        true,
      );
    }
    add('encode warm block (all indexed)', 'wirespeed', () => {
      const encoder = new HpackEncoder();
      encoder.encode(BROWSER_REQUEST);
      return () => encoder.encode(BROWSER_REQUEST).length;
    });
    if (peers) {
      add(
        'encode warm block (all indexed)',
        'hpack.js',
        () => {
          const encode = hpackJsEncoder();
          encode(BROWSER_REQUEST);
          return () => encode(BROWSER_REQUEST).length;
        },
        true,
      );
    }

    // A connection's codecs made and freed while many other connections keep theirs (10,000
    // HTTP/2 connections hold 20,000): the cost must not grow with the number alive.
    for (const alive of [0, 20_000]) {
      add(`codec pair new + free, ${alive} others alive`, 'wirespeed', () => {
        const others = Array.from({ length: alive / 2 }, () => [new HpackDecoder(), new HpackEncoder()]);
        return () => {
          const decoder = new HpackDecoder();
          const encoder = new HpackEncoder();
          decoder.free();
          encoder.free();
          return others.length;
        };
      });
    }
    return cases;
  },
};
