// Suite `engine`: the HTTP/1.1 engine, piece by piece, for the engine report: parsing (wirespeed
// against llhttp as node:http runs it, undici's llhttp-wasm and http-parser-js), writing a response
// and looking up a header (against node:http's own), and the full cycle of both. Every case also
// records the bytes it allocates per operation (heap growth, where the runtime reports it).
import { writeResponseHead } from '../../src/http1/writer.js';
import { RequestParser } from '../../src/http1/index.js';
import type { BenchCase, Runtime, Suite } from '../harness/types.js';
import { ENGINE_REQUESTS, ENGINE_RESPONSES, TEN_HEADERS } from '../peers/engine-inputs.js';
import { latin1Encode, SIMPLE_GET } from '../peers/http1-inputs.js';
import { wirespeedStrings } from '../peers/wirespeed-parsers.js';
import { loadNodePeers } from './node-peers.js';
import { loadParserPeers } from './parser.js';

type NodeEngine = typeof import('../peers/node-http-engine.js');

const textEncoder = new TextEncoder();
/** A string as the bytes a socket sends: latin1 through Buffer (Node's socket write), else UTF-8 (ASCII here). */
const toBytes: (text: string) => Uint8Array =
  typeof Buffer === 'function' ? (text) => Buffer.from(text, 'latin1') : (text) => textEncoder.encode(text);

/** wirespeed's writer: the head as the server builds it, then the body, as the bytes the socket gets. */
function wirespeedWrite(type: string, body: string): () => number {
  const headers: [string, string][] = [['content-type', type]];
  return () => toBytes(writeResponseHead({ status: 200, headers, body: body.length }) + body).length;
}

/** The parsed head of `text`, kept for lookups. */
function wirespeedHeaderLookup(text: string, name: string): () => number {
  let head: { get(name: string): string | undefined } | null = null;
  const parser = new RequestParser({
    onHead(h) {
      head = h;
    },
  });
  const input = latin1Encode(text);
  return () => {
    parser.execute(input);
    return head!.get(name)?.length ?? 0;
  };
}

export const engineSuite: Suite = {
  name: 'engine',
  description: 'HTTP/1.1 engine: parse, write, header lookup and the full cycle, with bytes allocated per operation',
  async cases(runtime: Runtime): Promise<BenchCase[]> {
    const cases: BenchCase[] = [];
    const add = (group: string, impl: string, setup: () => () => unknown, baseline = false) =>
      cases.push({ suite: 'engine', group, impl, baseline, setup });
    // The engine suite runs its parser peers on Node and Deno (the browser runs the parser suite).
    const parsers = runtime === 'browser' ? null : await loadParserPeers(runtime);
    const llhttpNode = parsers?.llhttpNode;
    const node = runtime === 'node' ? await loadNodePeers<NodeEngine>('../peers/node-http-engine.js') : null;

    for (const [group, text] of Object.entries(ENGINE_REQUESTS)) {
      const input = latin1Encode(text);
      const { undiciWasm, httpParserJs } = parsers ?? {};
      if (llhttpNode) add(group, 'node:http (llhttp)', () => llhttpNode(input), true);
      add(group, 'wirespeed', () => wirespeedStrings(input));
      if (undiciWasm) add(group, 'undici llhttp-wasm', () => undiciWasm(input));
      if (httpParserJs) add(group, 'http-parser-js', () => httpParserJs(input));
    }
    for (const [group, { type, body }] of Object.entries(ENGINE_RESPONSES)) {
      if (node) add(group, 'node:http (llhttp)', () => node.nodeWrite(type, body), true);
      add(group, 'wirespeed', () => wirespeedWrite(type, body));
    }
    const cycle = 'full cycle: parse simple GET, answer 13 B text, write';
    const hello = ENGINE_RESPONSES['write 13 B text response'];
    const get = latin1Encode(SIMPLE_GET);
    if (llhttpNode && node) {
      add(
        cycle,
        'node:http (llhttp)',
        () => {
          const parse = llhttpNode(get);
          const write = node.nodeWrite(hello.type, hello.body);
          return () => parse() + write();
        },
        true,
      );
    }
    add(cycle, 'wirespeed', () => {
      const parse = wirespeedStrings(get);
      const write = wirespeedWrite(hello.type, hello.body);
      return () => parse() + write();
    });
    const lookup = 'header lookup: content-type of a 10-header request (parse + get)';
    if (llhttpNode && node) {
      const raw = TEN_HEADERS.split('\r\n')
        .slice(1, -2)
        .flatMap((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon), line.slice(colon + 1).trim()];
        });
      add(
        lookup,
        'node:http (llhttp)',
        () => {
          const parse = llhttpNode(latin1Encode(TEN_HEADERS));
          const get = node.nodeHeaderLookup(raw, 'content-type');
          return () => parse() + get();
        },
        true,
      );
    }
    add(lookup, 'wirespeed', () => wirespeedHeaderLookup(TEN_HEADERS, 'content-type'));
    return cases;
  },
};
