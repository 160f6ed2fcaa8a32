// The compiled matcher must answer exactly as the walk (its reference) on any tree and any path:
// the same route and the same captured values. Random trees from a small alphabet make the
// collisions that exercise priority and backtracking (static before compound before param before
// wildcard, an empty segment, a prefix of another segment).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compileMatcher } from '../../src/router/compile.js';
import { paramNames, parsePattern } from '../../src/router/pattern.js';
import { Node, walk, type Handler } from '../../src/router/tree.js';
import { rng as random } from '../http1/corpus.js';

const PATTERN_SEGMENTS = ['a', 'b', 'ab', 'ba', '', ':p', ':n.json', 'v:ver', ':x-:y', '*'];
const PATH_SEGMENTS = ['a', 'b', 'ab', 'ba', '', 'x', 'a.json', 'x.json', 'v2', 'v', 'k-l-m', 'a%2Fb', '.json'];

function pick<X>(next: () => number, items: X[]): X {
  return items[Math.floor(next() * items.length)];
}

/** Builds a tree the way the router does: one node per segment, the route at the end. */
function treeOf(patterns: string[]): { root: Node<number>; handlers: Handler<number>[] } {
  const root = new Node<number>();
  const handlers: Handler<number>[] = [];
  for (const pattern of patterns) {
    const segments = parsePattern(pattern);
    const names = paramNames(segments);
    const handler: Handler<number> = {
      value: handlers.length,
      method: 'GET',
      names,
      build: () => ({}),
      match: { value: handlers.length, params: {} },
    };
    handlers.push(handler);
    let node = root;
    let wildcard = false;
    for (const segment of segments) {
      if (segment.kind === 'wildcard') {
        node.wildcard ??= handler;
        wildcard = true;
        break;
      }
      node = node.child(segment);
    }
    if (!wildcard) node.route ??= handler;
  }
  return { root, handlers };
}

function randomPattern(next: () => number): string {
  const depth = 1 + Math.floor(next() * 4);
  const segments: string[] = [];
  for (let i = 0; i < depth; i++) {
    const segment = pick(next, PATTERN_SEGMENTS);
    if (segment === '*' && i < depth - 1) continue;
    segments.push(segment);
    if (segment === '*') break;
  }
  // Param names must differ within a pattern.
  let k = 0;
  return '/' + segments.map((s) => s.replace(/:([a-z]+)/g, (_, name: string) => `:${name}${k++}`)).join('/');
}

function randomPath(next: () => number): string {
  const depth = 1 + Math.floor(next() * 5);
  return '/' + Array.from({ length: depth }, () => pick(next, PATH_SEGMENTS)).join('/');
}

/** Both answers for `path`: the route's value and the values it captured. */
function answers(root: Node<number>, path: string) {
  const walked: string[] = [];
  const compiledValues: string[] = [];
  const byWalk = walk(root, path, 1, walked, 0);
  const byCode = compileMatcher(root)(path, compiledValues);
  const n = byWalk?.names.length ?? 0;
  return {
    walk: { value: byWalk?.value ?? null, values: walked.slice(0, n) },
    code: { value: byCode?.value ?? null, values: compiledValues.slice(0, n) },
  };
}

describe('router: compiled matcher against the walk', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('answers as the walk on 400 random trees × 60 paths each', () => {
    let compared = 0;
    let found = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const next = random(seed);
      const patterns = [...new Set(Array.from({ length: 1 + Math.floor(next() * 12) }, () => randomPattern(next)))];
      const { root } = treeOf(patterns);
      const match = compileMatcher(root);
      for (let i = 0; i < 60; i++) {
        const path = randomPath(next);
        const walked: string[] = [];
        const coded: string[] = [];
        const byWalk = walk(root, path, 1, walked, 0);
        const byCode = match(path, coded);
        const n = byWalk?.names.length ?? 0;
        const context = `seed ${seed}, routes ${JSON.stringify(patterns)}, path ${path}`;
        expect(byCode?.value ?? null, context).toBe(byWalk?.value ?? null);
        expect(coded.slice(0, n), context).toEqual(walked.slice(0, n));
        compared++;
        if (byWalk) found++;
      }
    }
    // The alphabet must make both outcomes common, or the comparison proves little.
    expect(compared).toBe(24_000);
    expect(found / compared).toBeGreaterThan(0.15);
    expect(found / compared).toBeLessThan(0.85);
  });

  it('hands a node with many static children to the walk, and answers the same', () => {
    const patterns = Array.from({ length: 100 }, (_, i) => `/s${i}/:id`).concat(['/:other/x', '/*']);
    const { root } = treeOf(patterns);
    for (const path of ['/s42/7', '/s99/a', '/s42', '/s100/7', '/q/x', '/s5/x', '/a/b/c']) {
      const { walk: w, code } = answers(root, path);
      expect(code, path).toEqual(w);
    }
    expect(answers(root, '/s42/7').code).toEqual({ value: 42, values: ['7'] });
  });

  it('hands the nodes past its code budget to the walk, and answers the same', () => {
    // 300 branches of 3 nodes each: far past the budget of nodes written as code.
    const patterns = Array.from({ length: 300 }, (_, i) => `/${'abcdefghij'[i % 10]}${Math.floor(i / 10)}/:id/end${i % 7}`);
    const { root } = treeOf(patterns);
    for (let i = 0; i < 300; i += 7) {
      const path = `/${'abcdefghij'[i % 10]}${Math.floor(i / 10)}/x/end${i % 7}`;
      const { walk: w, code } = answers(root, path);
      expect(code, path).toEqual(w);
      expect(code.value, path).toBe(i);
    }
  });

  it('falls back to the walk where new Function is forbidden (a content security policy)', () => {
    const { root } = treeOf(['/users/:id', '/users/:id/posts', '/files/*']);
    vi.stubGlobal('Function', function forbidden() {
      throw new EvalError('Refused to evaluate a string as JavaScript');
    });
    const match = compileMatcher(root);
    const values: string[] = [];
    expect(match('/users/7/posts', values)?.value).toBe(1);
    expect(values[0]).toBe('7');
    expect(match('/files/a/b', values)?.value).toBe(2);
    expect(values[0]).toBe('a/b');
    expect(match('/nope', values)).toBeNull();
  });
});
