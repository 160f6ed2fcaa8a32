// Suite `parser`: HTTP/1.1 request parsing, wirespeed against Node's llhttp, undici's llhttp wasm,
// Milo (Rust → wasm) and http-parser-js, on the same inputs in the same run.
import { latin1Encode, PARSER_INPUTS } from '../peers/http1-inputs.js';
import { wirespeedLazy, wirespeedParseRequest, wirespeedStrings, type ParserDriver } from '../peers/wirespeed-parsers.js';
import type { BenchCase, Runtime, Suite } from '../harness/types.js';
import { optionalPeer } from '../harness/peers.js';
import { loadNodePeers } from './node-peers.js';

export type ParserPeers = Partial<Record<'llhttpNode' | 'undiciWasm' | 'milo' | 'httpParserJs', ParserDriver>>;

const IMPLS: { impl: string; driver: (peers: ParserPeers) => ParserDriver | undefined; baseline?: boolean; runtimes: Runtime[] }[] = [
  { impl: 'llhttp (node:http)', driver: (p) => p.llhttpNode, baseline: true, runtimes: ['node'] },
  { impl: 'wirespeed', driver: () => wirespeedStrings, runtimes: ['node', 'deno', 'browser'] },
  { impl: 'wirespeed (lazy, no strings)', driver: () => wirespeedLazy, runtimes: ['node', 'deno', 'browser'] },
  { impl: 'wirespeed parseRequest', driver: () => wirespeedParseRequest, runtimes: ['node', 'deno', 'browser'] },
  { impl: 'undici llhttp-wasm', driver: (p) => p.undiciWasm, runtimes: ['node', 'deno', 'browser'] },
  { impl: 'milo (wasm)', driver: (p) => p.milo, runtimes: ['node', 'deno', 'browser'] },
  { impl: 'http-parser-js', driver: (p) => p.httpParserJs, runtimes: ['node', 'deno', 'browser'] },
];

/** The parser peers' drivers on `runtime`: those whose packages are installed (optionalPeer notes the others). */
export async function loadParserPeers(runtime: Runtime): Promise<ParserPeers> {
  const node = runtime === 'node' ? await loadNodePeers<typeof import('../peers/http1-parsers.js')>('../peers/http1-parsers.js') : null;
  return {
    llhttpNode: node?.llhttpNode,
    undiciWasm: (await optionalPeer('undici llhttp-wasm', () => import('../peers/llhttp-wasm.js')))?.undiciWasm,
    milo: (await optionalPeer('milo (wasm)', () => import('../peers/milo.js')))?.milo,
    httpParserJs: (await optionalPeer('http-parser-js', () => import('../peers/http-parser-js.js')))?.httpParserJs,
  };
}

export const parserSuite: Suite = {
  name: 'parser',
  description: 'HTTP/1.1 request parsing + method, url and all headers as strings',
  async cases(runtime: Runtime): Promise<BenchCase[]> {
    const cases: BenchCase[] = [];
    const peers = await loadParserPeers(runtime);
    for (const [group, text] of Object.entries(PARSER_INPUTS)) {
      const input = latin1Encode(text);
      for (const { impl, driver, baseline, runtimes } of IMPLS) {
        if (!runtimes.includes(runtime)) continue;
        const make = driver(peers);
        if (!make) continue; // its package is not installed (noted by optionalPeer)
        // Without Node's own llhttp (in a browser), the same llhttp as wasm is the baseline.
        const isBaseline = runtime === 'browser' ? impl === 'undici llhttp-wasm' : baseline;
        cases.push({ suite: 'parser', group, impl, baseline: isBaseline, setup: () => make(input) });
      }
    }
    return cases;
  },
};
