// The field vocabulary every protocol shares (src/fields.ts).
import { describe, expect, it } from 'vitest';
import { joinCookieFields, type HeaderList } from '../src/fields.js';

describe('joinCookieFields (RFC 9113 §8.2.3, RFC 6265 §5.4)', () => {
  it('makes several Cookie fields one, joined by "; ", where the first was, in any case of name', () => {
    const list: HeaderList = [
      ['Host', 'a'],
      ['Cookie', 'a=1'],
      ['accept', '*/*'],
      ['cookie', 'b=2'],
      ['COOKIE', 'c=3'],
      ['x-after', 'z'],
    ];
    expect(joinCookieFields(list)).toEqual([
      ['Host', 'a'],
      ['Cookie', 'a=1; b=2; c=3'],
      ['accept', '*/*'],
      ['x-after', 'z'],
    ]);
    // The input is left as it was.
    expect(list).toHaveLength(6);
  });

  it('returns the same list when there is no second Cookie field', () => {
    const one: HeaderList = [
      ['cookie', 'a=1'],
      ['cookies', 'not one'],
      ['x-cookie', 'nor this'],
    ];
    expect(joinCookieFields(one)).toBe(one);
    const none: HeaderList = [['host', 'a']];
    expect(joinCookieFields(none)).toBe(none);
  });
});
