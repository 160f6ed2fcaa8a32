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

/**
 * Every router, in the order the README's table shows them (find-my-way, the baseline, second).
 * All run in browsers too: the dashboard's bundle gives find-my-way a node:assert and
 * koa-tree-router an http with METHODS (dashboard/src/run/shims, vite.config.ts).
 */
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
    name: 'find-my-way',
    async load() {
      const { default: FindMyWay } = await import('find-my-way');
      return (routes) => {
        // find-my-way drops a falsy store (route 0), so the index is boxed.
        const router = FindMyWay();
        routes.forEach(([m, p], i) => router.on(m as 'GET', p, () => undefined, { i }));
        return (method, path) => (router.find(method as 'GET', path)?.store as { i: number } | undefined)?.i ?? null;
      };
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
  {
    name: 'koa-tree-router',
    async load() {
      const { default: KoaTreeRouter } = (await import('koa-tree-router')) as unknown as {
        default: new () => {
          on(method: string, path: string, handler: () => number): void;
          find(method: string, path: string): { handle: (() => number)[] | null; params: unknown };
        };
      };
      return (routes) => {
        const router = new KoaTreeRouter();
        routes.forEach(([m, p], i) => router.on(m, wildcard(p, '*rest'), () => i));
        return (method, path) => router.find(method, path).handle?.[0]() ?? null;
      };
    },
  },
];
