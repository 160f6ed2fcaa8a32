import { describe, expect, it } from 'vitest';
import { CheckedStrings } from '../src/checked-strings.js';
import { checkField } from '../src/fields.js';

/** A CheckedStrings over "no digits", counting how often its test runs. */
function counted() {
  const calls: string[] = [];
  const strings = new CheckedStrings((text) => (calls.push(text), !/\d/.test(text)));
  return { strings, calls };
}

describe('CheckedStrings', () => {
  it('answers as its test does, and tests a string that passed only once', () => {
    const { strings, calls } = counted();
    expect([strings.passes('text/plain'), strings.passes('text/plain'), strings.passes('text/plain')]).toEqual([true, true, true]);
    expect(calls).toEqual(['text/plain']);
    // A string made afresh with the same content is the same string to the set.
    expect(strings.passes(['text', 'plain'].join('/'))).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it('tests a failing string every time (a refusal is never remembered as a pass)', () => {
    const { strings, calls } = counted();
    expect([strings.passes('a1'), strings.passes('a1')]).toEqual([false, false]);
    expect(calls).toEqual(['a1', 'a1']);
  });

  it('tests long strings every time, and values that are not strings as the test takes them', () => {
    const { strings, calls } = counted();
    const long = 'x'.repeat(129);
    expect([strings.passes(long), strings.passes(long)]).toEqual([true, true]);
    expect(calls).toHaveLength(2);
    expect(strings.passes(7 as unknown as string)).toBe(false);
    expect(strings.passes(undefined as unknown as string)).toBe(true);
    expect(calls).toHaveLength(4);
  });

  it('keeps at most 1024 strings: after that the memory starts over', () => {
    const { strings, calls } = counted();
    const names = Array.from(
      { length: 3000 },
      (_, i) => `name-${'abcdefghij'[i % 10]}-${String.fromCharCode(97 + (i % 26))}${i.toString(36).replace(/\d/g, 'z')}`,
    );
    for (const name of names) strings.passes(name);
    const size = (strings as unknown as { passed: Set<string> }).passed.size;
    expect(size).toBeGreaterThan(0);
    expect(size).toBeLessThanOrEqual(1024);
    // The newest are remembered: no new test for the last one.
    const before = calls.length;
    strings.passes(names[names.length - 1]);
    expect(calls.length).toBe(before);
  });
});

describe('checkField with remembered names', () => {
  it('still refuses a bad name, and tests every value, after good names were remembered', () => {
    for (let i = 0; i < 3; i++) expect(() => checkField('content-type', 'text/plain')).not.toThrow();
    expect(() => checkField('content type', 'text/plain')).toThrow(expect.objectContaining({ code: 'ERR_INVALID_HEADER_NAME' }));
    expect(() => checkField('content-type', 'text/plain\r\nx: y')).toThrow(expect.objectContaining({ code: 'ERR_INVALID_HEADER_VALUE' }));
    expect(() => checkField('content-type', 'text/plain\0')).toThrow(expect.objectContaining({ code: 'ERR_INVALID_HEADER_VALUE' }));
  });
});
