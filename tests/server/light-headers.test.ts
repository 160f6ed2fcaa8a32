// LightHeaders against the runtime's own Headers: the same operations, in random sequences, must
// give the same results, the same errors (TypeError) and the same lists. Then what the server and
// a light response do with it.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fieldList } from '../../src/fields.js';
import { LightHeaders, useLightHeaders } from '../../src/server/light-headers.js';
import { LightResponse } from '../../src/server/light-response.js';
import { rng as random } from '../http1/corpus.js';

useLightHeaders(); // as serve() on Node does
const NativeHeaders = globalThis.Headers;
const Light = LightHeaders as unknown as typeof Headers;

const NAMES: unknown[] = ['a', 'A', 'b', 'set-cookie', 'Set-Cookie', 'x-y', 'Content-Type', 'bad name', '', 'é', 'a\u0100', 42, 'z'];
const VALUES: unknown[] = [
  '1',
  ' v ',
  '\tv\t',
  'a\nb',
  'a\0b',
  '\r\n',
  'é',
  '€',
  '',
  '  ',
  'x, y',
  'c=1; Path=/',
  42,
  null,
  undefined,
  '\x01',
];

/** What an operation gave: its value, or the class of what it threw. */
function outcome(run: () => unknown): unknown {
  try {
    const value = run();
    return { value: value === undefined ? 'undefined' : value };
  } catch (error) {
    return { threw: (error as Error).constructor.name };
  }
}

/** Everything a reader can see of `headers`. */
function view(headers: Headers) {
  return {
    entries: [...headers],
    keys: [...headers.keys()],
    values: [...headers.values()],
    cookies: headers.getSetCookie(),
    each: (() => {
      const seen: string[][] = [];
      headers.forEach((value, name) => seen.push([name, value]));
      return seen;
    })(),
    got: NAMES.map((name) => outcome(() => headers.get(name as string))),
    has: NAMES.map((name) => outcome(() => headers.has(name as string))),
  };
}

type Operation = (headers: Headers) => unknown;

function operation(next: () => number): [string, Operation] {
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
  const name = pick(NAMES) as string;
  const value = pick(VALUES) as string;
  switch (Math.floor(next() * 5)) {
    case 0:
      return [`append(${String(name)}, ${String(value)})`, (h) => h.append(name, value)];
    case 1:
      return [`set(${String(name)}, ${String(value)})`, (h) => h.set(name, value)];
    case 2:
      return [`delete(${String(name)})`, (h) => h.delete(name)];
    case 3:
      return [`get(${String(name)})`, (h) => h.get(name)];
    default:
      return [`has(${String(name)})`, (h) => h.has(name)];
  }
}

describe('LightHeaders', () => {
  it('does what the runtime Headers does, over 3,000 random sequences of append, set, delete, get and has', () => {
    for (let seed = 1; seed <= 3000; seed++) {
      const next = random(seed);
      const native = new NativeHeaders();
      const light = new Light();
      const done: string[] = [];
      for (let step = 0; step < 12; step++) {
        const [label, run] = operation(next);
        done.push(label);
        expect(
          outcome(() => run(light)),
          `seed ${seed}: ${done.join('; ')}`,
        ).toEqual(outcome(() => run(native)));
      }
      expect(view(light), `seed ${seed}: ${done.join('; ')}`).toEqual(view(native));
    }
  });

  it('is made from pairs, records and Headers as the runtime Headers is, refusing what it refuses', () => {
    const inits: unknown[] = [
      undefined,
      [],
      [
        ['B', '2'],
        ['a', ' 1 '],
        ['Set-Cookie', 'c=1'],
        ['set-cookie', 'd=2'],
        ['a', '3'],
      ],
      { 'Content-Type': 'text/plain', 'x-n': 42 },
      new NativeHeaders({ a: '1', b: '2' }),
      new Light({ a: '1', b: '2' }),
      new Map([['m', 'v']]),
      [['only-name']],
      [['a', 'b', 'c']],
      ['ab'],
      [['bad name', 'v']],
      { 'a\nb': 'v' },
      { a: 'x\ny' },
      { a: '€' },
      Object.assign(Object.create({ inherited: 'no' }) as object, { own: 'yes' }),
      null,
      'a=1',
      42,
    ];
    for (const init of inits) {
      const made = (Class: typeof Headers) => outcome(() => view(new Class(init as HeadersInit)));
      expect(made(Light), inspect(init)).toEqual(made(NativeHeaders));
    }
  });

  it('shows changes made while it is iterated, as the standard iterators do', () => {
    for (const Class of [NativeHeaders, Light]) {
      const headers = new Class({ a: '1', c: '3' });
      const keys = headers.keys();
      headers.append('b', '2');
      const listed = [...keys];
      const seen: string[] = [];
      headers.forEach((_value, name) => {
        seen.push(name);
        if (name === 'a') headers.append('aa', '0');
      });
      expect([listed, seen]).toEqual([
        ['a', 'b', 'c'],
        ['a', 'aa', 'b', 'c'],
      ]);
    }
  });

  it('passes for a Headers, and the runtime takes it as an init', async () => {
    const headers = new Light([
      ['X-One', '1'],
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
    ]);
    expect(headers).toBeInstanceOf(NativeHeaders);
    expect(Object.prototype.toString.call(headers)).toBe('[object Headers]');
    expect(Object.prototype.toString.call(headers.entries())).toBe('[object Headers Iterator]');
    expect(headers.constructor.name).toBe('Headers');
    expect(inspect(headers)).toContain("'x-one': '1'");
    expect([...new NativeHeaders(headers)]).toEqual([...headers]);
    const response = new (LightResponse as unknown as { [key: symbol]: typeof Response })[Symbol.for('wirespeed.NativeResponse')]('x', {
      headers,
    });
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(() => Reflect.apply(headers.forEach, headers, [null])).toThrow(TypeError);
    expect(() => Reflect.apply(headers.get, headers, [])).toThrow(TypeError);
  });

  it('gives the server its fields as given: order, names and one entry per field', () => {
    const headers = new Light([
      ['X-B', '2'],
      ['x-a', '1'],
      ['Set-Cookie', 'c=1'],
      ['x-b', '3'], // named as the first X-B was, as the standard's header list does
    ]);
    headers.set('Vary', 'accept');
    expect(fieldList(headers)).toEqual([
      ['X-B', '2'],
      ['x-a', '1'],
      ['Set-Cookie', 'c=1'],
      ['X-B', '3'],
      ['Vary', 'accept'],
    ]);
    headers.set('x-b', '4'); // the first X-B takes the value; the second goes
    expect(fieldList(headers)).toEqual([
      ['X-B', '4'],
      ['x-a', '1'],
      ['Set-Cookie', 'c=1'],
      ['Vary', 'accept'],
    ]);
  });

  it('is what a light response and its clone show and write', () => {
    const response = new LightResponse('hi', { headers: { 'X-Mine': 'a' } });
    response.headers.append('x-mine', 'b');
    response.headers.set('ETag', '"e"');
    expect(response.headers).toBeInstanceOf(LightHeaders);
    expect(response.headers).toBeInstanceOf(NativeHeaders);
    expect(response.headers.get('x-mine')).toBe('a, b');
    const copy = response.clone();
    expect([...copy.headers]).toEqual([...response.headers]);
    copy.headers.delete('etag');
    expect(response.headers.get('etag')).toBe('"e"'); // a clone's headers are its own
  });
});
