// Suite `parser`: HTTP/1.1 request parsing, wirespeed against Node's llhttp, undici's llhttp wasm,
// Milo (Rust → wasm) and http-parser-js, on the same inputs in the same run.
import { latin1Encode, PARSER_INPUTS } from '../peers/http1-inputs.js';
import * as parsers from '../peers/http1-parsers.js';
import type { BenchCase, Runtime, Suite } from '../harness/types.js';

const IMPLS: { impl: string; driver: parsers.ParserDriver; baseline?: boolean; runtimes: Runtime[] }[] = [
  { impl: 'llhttp (node:http)', driver: parsers.llhttpNode, baseline: true, runtimes: ['node'] },
  { impl: 'wirespeed', driver: parsers.wirespeedStrings, runtimes: ['node', 'deno', 'browser'] },
  { impl: 'wirespeed (lazy, no strings)', driver: parsers.wirespeedLazy, runtimes: ['node', 'deno', 'browser'] },
  { impl: 'undici llhttp-wasm', driver: parsers.undiciWasm, runtimes: ['node', 'deno'] },
  { impl: 'milo (wasm)', driver: parsers.milo, runtimes: ['node', 'deno'] },
  { impl: 'http-parser-js', driver: parsers.httpParserJs, runtimes: ['node', 'deno'] },
];

export const parserSuite: Suite = {
  name: 'parser',
  description: 'HTTP/1.1 request parsing + method, url and all headers as strings',
  async cases(runtime: Runtime): Promise<BenchCase[]> {
    const cases: BenchCase[] = [];
    for (const [group, text] of Object.entries(PARSER_INPUTS)) {
      const input = latin1Encode(text);
      for (const { impl, driver, baseline, runtimes } of IMPLS) {
        if (!runtimes.includes(runtime)) continue;
        cases.push({ suite: 'parser', group, impl, baseline, setup: () => driver(input) });
      }
    }
    return cases;
  },
};
