// Every router of the benchmark behind one shape: build(routes) returns find(method, path), which
// returns the registered value (or null) after the router made its params (each router's own fast
// path: hono's routers return param positions, the others a params object).
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { TrieRouter } from 'hono/router/trie-router';
import { Memoirist } from 'memoirist';
import { addRoute, createRouter, findRoute } from 'rou3';
import { Router } from '../../src/router/index.js';

export type Routes = [method: string, pattern: string][];
export type Find = (method: string, path: string) => number | null;

export interface RouterPeer {
  name: string;
  /** Registers route i with value i; throws if the router cannot express the set. */
  build(routes: Routes): Find;
}

/** '/x/*' in each router's own syntax. */
export const wildcard = (pattern: string, rest: string) => (pattern.endsWith('/*') ? pattern.slice(0, -1) + rest : pattern);

/** The routers that run anywhere (browsers too); node-routers.ts has the Node-only ones. */
export const ROUTERS: RouterPeer[] = [
  {
    name: 'wirespeed',
    build(routes) {
      const router = new Router<number>();
      routes.forEach(([m, p], i) => router.add(m, p, i));
      return (method, path) => router.find(method, path)?.value ?? null;
    },
  },
  {
    name: 'rou3',
    build(routes) {
      const router = createRouter<number>();
      routes.forEach(([m, p], i) => addRoute(router, m, wildcard(p, '**:rest'), i));
      return (method, path) => findRoute(router, method, path)?.data ?? null;
    },
  },
  {
    name: 'memoirist',
    build(routes) {
      const router = new Memoirist<number>();
      routes.forEach(([m, p], i) => router.add(m, p, i));
      return (method, path) => router.find(method, path)?.store ?? null;
    },
  },
  {
    name: 'hono RegExpRouter',
    build(routes) {
      const router = new RegExpRouter<number>();
      routes.forEach(([m, p], i) => router.add(m, p, i));
      router.match('GET', '/'); // builds its regular expressions
      return (method, path) => router.match(method, path)[0][0]?.[0] ?? null;
    },
  },
  {
    name: 'hono TrieRouter',
    build(routes) {
      const router = new TrieRouter<number>();
      routes.forEach(([m, p], i) => router.add(m, p, i));
      return (method, path) => router.match(method, path)[0][0]?.[0] ?? null;
    },
  },
];
