// HPACK conformance: RFC 7541 Appendix C and the hpack-test-case corpus (vendored in ./corpus).
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { hpackJsDecoder, hpackJsEncoder } from '../../bench/peers/hpack-js.js';
import { HpackDecoder, HpackEncoder } from '../../src/hpack/index.js';

const corpus = new URL('./corpus/', import.meta.url);
const json = <T>(path: string): T => JSON.parse(readFileSync(new URL(path, corpus), 'utf8')) as T;
const hex = (text: string) => Uint8Array.from(Buffer.from(text, 'hex'));
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

interface Block {
  name?: string;
  hex: string;
  headers: [string, string][];
  dynamicTable: [string, string][];
  tableSize: number;
  neverIndexed?: string[];
  tableSizeLimit?: number;
}
interface Sequence {
  name: string;
  tableSizeLimit: number;
  blocks: Block[];
}
const appendixC = json<{ C2: Block[]; C3: Sequence; C4: Sequence; C5: Sequence; C6: Sequence }>('rfc7541-appendix-c.json');

describe('RFC 7541 Appendix C', () => {
  it.each(appendixC.C2.map((b) => [b.name!, b] as const))('%s', (_name, block) => {
    const decoder = new HpackDecoder({ maxTableSize: block.tableSizeLimit });
    const fields = decoder.decodeFields(hex(block.hex));
    expect(fields.map((f) => [f.name, f.value])).toEqual(block.headers);
    expect(fields.filter((f) => f.neverIndex).map((f) => f.name)).toEqual(block.neverIndexed ?? []);
    expect(decoder.dynamicTable()).toEqual({ entries: block.dynamicTable, size: block.tableSize });
  });

  for (const key of ['C3', 'C4', 'C5', 'C6'] as const) {
    const sequence = appendixC[key];
    it(`${sequence.name}: every block, with the dynamic table after each`, () => {
      const decoder = new HpackDecoder({ maxTableSize: sequence.tableSizeLimit });
      for (const block of sequence.blocks) {
        expect(decoder.decode(hex(block.hex))).toEqual(block.headers);
        expect(decoder.dynamicTable()).toEqual({ entries: block.dynamicTable, size: block.tableSize });
      }
    });
  }

  it('our encoder writes the RFC bytes for C.3 (no Huffman) and C.4 (Huffman)', () => {
    for (const [sequence, huffman] of [
      [appendixC.C3, 'never'],
      [appendixC.C4, 'always'],
    ] as const) {
      const encoder = new HpackEncoder({ huffman });
      for (const block of sequence.blocks) expect(toHex(encoder.encode(block.headers))).toBe(block.hex);
      expect(encoder.dynamicTable().size).toBe(sequence.blocks.at(-1)!.tableSize);
    }
  });
});

interface Story {
  cases: { wire?: string; headers: Record<string, string>[]; header_table_size?: number }[];
}
/** The stories of one directory of hpack-test-case, in name order. */
const stories = (impl: string): [file: string, story: Story][] => {
  const bundle = JSON.parse(gunzipSync(readFileSync(new URL(`hpack-test-case-${impl}.json.gz`, corpus))).toString('utf8')) as Record<
    string,
    Story
  >;
  return Object.entries(bundle).sort(([a], [b]) => (a < b ? -1 : 1));
};
const pairs = (headers: Record<string, string>[]) => headers.map((h) => Object.entries(h)[0]);

describe('hpack-test-case corpus', () => {
  for (const impl of ['nghttp2', 'go-hpack', 'python-hpack']) {
    it(`decodes every block of every ${impl} story exactly (one decoder per story)`, () => {
      let blocks = 0;
      for (const [file, story] of stories(impl)) {
        const decoder = new HpackDecoder({ maxHeaderListSize: 1 << 20 });
        for (const c of story.cases) {
          if (c.header_table_size !== undefined) decoder.setTableLimit(c.header_table_size);
          expect(decoder.decode(hex(c.wire!)), `${impl}/${file}`).toEqual(pairs(c.headers));
          blocks++;
        }
        decoder.free();
      }
      expect(blocks).toBeGreaterThan(3000);
    });
  }

  it('re-encodes every raw-data story; our decoder and hpack.js both read it back; fewer bytes than hpack.js', () => {
    let ours = 0;
    let theirs = 0;
    let blocks = 0;
    for (const [file, story] of stories('raw-data')) {
      const encoder = new HpackEncoder();
      const decoder = new HpackDecoder({ maxHeaderListSize: 1 << 20 });
      const peerDecode = hpackJsDecoder();
      const peerEncode = hpackJsEncoder();
      for (const c of story.cases) {
        const headers = pairs(c.headers);
        const block = encoder.encode(headers);
        expect(decoder.decode(block), file).toEqual(headers);
        expect(peerDecode(block), file).toEqual(headers);
        ours += block.length;
        theirs += peerEncode(headers).length;
        blocks++;
      }
    }
    console.log(`raw-data corpus: ${blocks} blocks, wirespeed ${ours} B, hpack.js ${theirs} B (${((ours / theirs) * 100).toFixed(1)}%)`);
    expect(blocks).toBeGreaterThan(1000);
    expect(ours).toBeLessThanOrEqual(theirs);
  });
});
