// The parser benchmark is only fair if every implementation really parses every input and makes
// the same strings: each driver counts the characters it materialised; the counts must agree.
import { describe, expect, it } from 'vitest';
import { latin1Encode, PARSER_INPUTS, SIMPLE_GET, POST_WITH_BODY, BROWSER_GET } from '../../bench/peers/http1-inputs.js';
import * as parsers from '../../bench/peers/http1-parsers.js';
import { undiciWasm } from '../../bench/peers/llhttp-wasm.js';
import { httpParserJs } from '../../bench/peers/http-parser-js.js';
import { milo } from '../../bench/peers/milo.js';
import { parseRequest } from '../../src/http1/index.js';

const PEERS = {
  llhttpNode: parsers.llhttpNode,
  httpParserJs,
  undiciWasm,
  milo,
};

describe('parser benchmark peers', () => {
  it('the inputs have the sizes the benchmark names', () => {
    expect(SIMPLE_GET.length).toBe(78);
    expect(POST_WITH_BODY.length).toBe(124);
    expect(BROWSER_GET.length).toBe(485);
    expect(parseRequest(latin1Encode(BROWSER_GET)).headers).toHaveLength(10);
  });

  it.each(Object.keys(PARSER_INPUTS))('every driver makes the same strings for %s', (group) => {
    const input = latin1Encode(PARSER_INPUTS[group]);
    const expected = parsers.wirespeedStrings(input)();
    expect(expected).toBeGreaterThan(0);
    for (const [name, driver] of Object.entries(PEERS)) {
      const op = driver(input);
      const first = op();
      // Twice: a second run on the same parser (a keep-alive connection) counts the same again.
      expect([name, first, op() - first]).toEqual([name, expected, expected]);
    }
  });
});
