// The Router against a reference written from its documented rules, not from its code: every
// route of a random set is tried against the path on its own (a segment at a time), and of those
// that match, the one with the most specific segments wins (static, then in-segment params, then a
// param, then the wildcard, compared from the first segment on), then the route of the method
// itself (HEAD's own route before GET's, either before ALL's). This checks what compile.test.ts
// (compiled code against the walk) cannot: the static routes' hash beside the tree, the method
// tables, HEAD and ALL, and the 405's Allow list.
import { describe, expect, it } from 'vitest';
import { Router } from '../../src/router/index.js';
import { rng } from '../http1/corpus.js';

const PATTERN_SEGMENTS = ['a', 'b', 'ab', '', ':p', ':n.json', 'v:ver', ':x-:y', '*'];
const PATH_SEGMENTS = ['a', 'b', 'ab', '', 'x', 'a.json', 'x.json', 'v2', 'v', 'k-l-m', '.json'];
const ROUTE_METHODS = ['GET', 'POST', 'HEAD', 'ALL'];
const REQUEST_METHODS = ['GET', 'POST', 'HEAD', 'PUT'];

/** Segment ranks, most specific first. */
const STATIC = 0;
const COMPOUND = 1;
const PARAM = 2;
const WILDCARD = 3;

interface Route {
  method: string;
  pattern: string;
  value: number;
}

interface RouteMatch {
  ranks: number[];
  values: string[];
}

/** One pattern segment against one path segment: its rank and what it captures, or null. */
function matchSegment(pattern: string, segment: string): RouteMatch | null {
  if (!pattern.includes(':')) return pattern === segment ? { ranks: [STATIC], values: [] } : null;
  if (/^:\w+$/.test(pattern)) return segment !== '' ? { ranks: [PARAM], values: [segment] } : null;
  // In-segment params: each takes at least one char, up to the first place the next literal follows.
  const parts = pattern.split(/(:[a-z]+\d+)/).filter((part) => part !== '');
  const values: string[] = [];
  let at = 0;
  for (let i = 0; i < parts.length; i++) {
    if (!parts[i].startsWith(':')) {
      if (!segment.startsWith(parts[i], at)) return null;
      at += parts[i].length;
      continue;
    }
    const stop = i + 1 < parts.length ? segment.indexOf(parts[i + 1], at + 1) : segment.length;
    if (stop <= at) return null; // not found (-1), or nothing to take
    values.push(segment.slice(at, stop));
    at = stop;
  }
  return at === segment.length ? { ranks: [COMPOUND], values } : null;
}

/** A route's pattern against the whole path: a rank per segment and the values, or null. */
function matchRoute(pattern: string, path: string): RouteMatch | null {
  const patternSegments = pattern.slice(1).split('/');
  const pathSegments = path.slice(1).split('/');
  const match: RouteMatch = { ranks: [], values: [] };
  for (let i = 0; i < patternSegments.length; i++) {
    if (patternSegments[i] === '*') {
      // The rest, slashes and all ('' for a path that ends at the wildcard's slash).
      if (pathSegments.length <= i) return null;
      return { ranks: [...match.ranks, WILDCARD], values: [...match.values, pathSegments.slice(i).join('/')] };
    }
    const segment = i < pathSegments.length ? matchSegment(patternSegments[i], pathSegments[i]) : null;
    if (!segment) return null;
    match.ranks.push(...segment.ranks);
    match.values.push(...segment.values);
  }
  return patternSegments.length === pathSegments.length ? match : null;
}

/** How well a route's method answers `method`: its own first, GET's for HEAD, then ALL; -1 never. */
function methodRank(routeMethod: string, method: string): number {
  if (routeMethod === method) return 0;
  if (method === 'HEAD' && routeMethod === 'GET') return 1;
  return routeMethod === 'ALL' ? 2 : -1;
}

/** Negative when `a` is more specific than `b` (a shorter list of equal ranks is a path that ended sooner: never equal lengths here). */
function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** What the rules say `lookup(method, path)` answers. */
function expected(routes: Route[], method: string, path: string) {
  let best: { route: Route; match: RouteMatch; methodRank: number } | null = null;
  for (const route of routes) {
    const rank = methodRank(route.method, method);
    const match = rank < 0 ? null : matchRoute(route.pattern, path);
    if (!match) continue;
    const order = best ? compareRanks(match.ranks, best.match.ranks) || rank - best.methodRank : -1;
    if (order < 0) best = { route, match, methodRank: rank };
  }
  if (best) return { status: 'found', value: best.route.value, values: best.match.values };
  const allowed = new Set<string>();
  for (const route of routes) {
    if (!matchRoute(route.pattern, path)) continue;
    allowed.add(route.method);
    if (route.method === 'GET') allowed.add('HEAD');
  }
  return allowed.size ? { status: 'method-not-allowed', allowed: [...allowed].sort() } : { status: 'not-found' };
}

function randomPattern(next: () => number): string {
  const pick = <X>(items: X[]) => items[Math.floor(next() * items.length)];
  const segments: string[] = [];
  for (let i = 0, depth = 1 + Math.floor(next() * 4); i < depth; i++) {
    const segment = pick(PATTERN_SEGMENTS);
    if (segment === '*' && i < depth - 1) continue;
    segments.push(segment);
    if (segment === '*') break;
  }
  let k = 0; // param names differ within a pattern
  return '/' + segments.map((s) => s.replace(/:([a-z]+)/g, (_, name: string) => `:${name}${k++}`)).join('/');
}

describe('router: against a reference of its documented rules', () => {
  it('answers as the reference on 600 random route sets × 40 requests (route, param values, 404, 405 and Allow)', () => {
    const tally = { found: 0, 'method-not-allowed': 0, 'not-found': 0 };
    for (let seed = 1; seed <= 600; seed++) {
      const next = rng(seed);
      const pick = <X>(items: X[]) => items[Math.floor(next() * items.length)];
      const router = new Router<number>();
      const routes: Route[] = [];
      for (let i = 0, count = 1 + Math.floor(next() * 24); i < count; i++) {
        const route = { method: pick(ROUTE_METHODS), pattern: randomPattern(next), value: routes.length };
        try {
          router.add(route.method, route.pattern, route.value);
          routes.push(route);
        } catch {
          // The same method and pattern twice: the first one stays.
        }
      }
      for (let i = 0; i < 40; i++) {
        const method = pick(REQUEST_METHODS);
        const path = '/' + Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(PATH_SEGMENTS)).join('/');
        const want = expected(routes, method, path);
        const got = router.lookup(method, path);
        const context = `seed ${seed}: ${method} ${path} with ${routes.map((r) => `${r.value}: ${r.method} ${r.pattern}`).join(', ')}`;
        if (got.status === 'found') {
          expect({ status: got.status, value: got.value, values: Object.values(got.params) }, context).toEqual(want);
          expect(router.find(method, path)?.value, context).toBe(got.value);
        } else if (got.status === 'method-not-allowed') {
          expect({ status: got.status, allowed: [...got.allowed].sort() }, context).toEqual(want);
        } else expect(got, context).toEqual(want);
        tally[want.status as keyof typeof tally]++;
      }
    }
    // Every outcome must be common, or the comparison proves little.
    expect(tally.found).toBeGreaterThan(3000);
    expect(tally['method-not-allowed']).toBeGreaterThan(500);
    expect(tally['not-found']).toBeGreaterThan(3000);
  });
});
