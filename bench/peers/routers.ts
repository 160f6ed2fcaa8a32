// Every router of the benchmark behind one shape: build(routes) returns find(method, path), which
// returns the registered value (or null) after the router made its params (each router's own fast
// path: hono's routers return param positions, the others a params object). Peers' modules load
// when the suite is listed, so a missing package leaves out that router only (harness/peers.ts).
import { Router } from '../../src/router/index.js';

export type Routes = [method: string, pattern: string][];
export type Find = (method: string, path: string) => number | null;
/** Registers route i with value i; throws if the router cannot express the set. */
export type Build = (routes: Routes) => Find;

export interface RouterPeer {
  name: string;
  /** Loads the router's package and returns its build. */
  load(): Promise<Build>;
}

/** '/x/*' in each router's own syntax. */
export const wildcard = (pattern: string, rest: string) => (pattern.endsWith('/*') ? pattern.slice(0, -1) + rest : pattern);

/** The routers that run anywhere (browsers too); node-routers.ts has the Node-only ones. */
export const ROUTERS: RouterPeer[] = [
  {
    name: 'wirespeed',
    load: async () => (routes) => {
      const router = new Router<number>();
      routes.forEach(([m, p], i) => router.add(m, p, i));
      return (method, path) => router.find(method, path)?.value ?? null;
    },
  },
  {
    name: 'rou3',
    async load() {
      const { addRoute, createRouter, findRoute } = await import('rou3');
      return (routes) => {
        const router = createRouter<number>();
        routes.forEach(([m, p], i) => addRoute(router, m, wildcard(p, '**:rest'), i));
        return (method, path) => findRoute(router, method, path)?.data ?? null;
      };
    },
  },
  {
    name: 'memoirist',
    async load() {
      const { Memoirist } = await import('memoirist');
      return (routes) => {
        const router = new Memoirist<number>();
        routes.forEach(([m, p], i) => router.add(m, p, i));
        return (method, path) => router.find(method, path)?.store ?? null;
      };
    },
  },
  {
    name: 'hono RegExpRouter',
    async load() {
      const { RegExpRouter } = await import('hono/router/reg-exp-router');
      return (routes) => {
        const router = new RegExpRouter<number>();
        routes.forEach(([m, p], i) => router.add(m, p, i));
        router.match('GET', '/'); // builds its regular expressions
        return (method, path) => router.match(method, path)[0][0]?.[0] ?? null;
      };
    },
  },
  {
    name: 'hono TrieRouter',
    async load() {
      const { TrieRouter } = await import('hono/router/trie-router');
      return (routes) => {
        const router = new TrieRouter<number>();
        routes.forEach(([m, p], i) => router.add(m, p, i));
        return (method, path) => router.match(method, path)[0][0]?.[0] ?? null;
      };
    },
  },
];
