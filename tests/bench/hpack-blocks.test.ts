// The stored first blocks of the hpack suite must be what hpack.js sends today.
import { describe, expect, it } from 'vitest';
import { FIRST_BLOCKS } from '../../bench/peers/hpack-first-blocks.js';
import { hpackJsEncoder } from '../../bench/peers/hpack-js.js';
import { BROWSER_REQUEST, FIFTY_FIELDS, RESPONSE } from '../../bench/peers/hpack-inputs.js';

describe('hpack suite inputs', () => {
  it.each([
    ['browser request', BROWSER_REQUEST],
    ['50 fields', FIFTY_FIELDS],
    ['response', RESPONSE],
  ] as const)('the first block of %s equals hpack.js output', (name, list) => {
    expect([...FIRST_BLOCKS[name]]).toEqual([...hpackJsEncoder()(list)]);
  });
});
