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
import { optionalPeer } from '../harness/peers.js';
import { loadNodePeers } from './node-peers.js';

type NodeParsers = typeof import('../peers/http1-parsers.js');
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
    const parsers = runtime === 'browser' ? null : await loadNodePeers<NodeParsers>('../peers/http1-parsers.js');
    const llhttpWasm = parsers && (await optionalPeer('undici llhttp-wasm', () => import('../peers/llhttp-wasm.js')));
    const httpParserJs = parsers && (await optionalPeer('http-parser-js', () => import('../peers/http-parser-js.js')));
    const node = runtime === 'node' ? await loadNodePeers<NodeEngine>('../peers/node-http-engine.js') : null;

    for (const [group, text] of Object.entries(ENGINE_REQUESTS)) {
      const input = latin1Encode(text);
      if (parsers && runtime === 'node') add(group, 'node:http (llhttp)', () => parsers.llhttpNode(input), true);
      add(group, 'wirespeed', () => wirespeedStrings(input));
      if (llhttpWasm) add(group, 'undici llhttp-wasm', () => llhttpWasm.undiciWasm(input));
      if (httpParserJs) add(group, 'http-parser-js', () => httpParserJs.httpParserJs(input));
    }
    for (const [group, { type, body }] of Object.entries(ENGINE_RESPONSES)) {
      if (node) add(group, 'node:http (llhttp)', () => node.nodeWrite(type, body), true);
      add(group, 'wirespeed', () => wirespeedWrite(type, body));
    }
    const cycle = 'full cycle: parse simple GET, answer 13 B text, write';
    const hello = ENGINE_RESPONSES['write 13 B text response'];
    const get = latin1Encode(SIMPLE_GET);
    if (parsers && node && runtime === 'node') {
      add(
        cycle,
        'node:http (llhttp)',
        () => {
          const parse = parsers.llhttpNode(get);
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
    if (node) {
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
          const parse = parsers!.llhttpNode(latin1Encode(TEN_HEADERS));
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
