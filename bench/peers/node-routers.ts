// The routers of the benchmark that need Node (find-my-way uses node:assert; koa-tree-router is
// CommonJS loaded through require).
import { createRequire } from 'node:module';
import { wildcard, type RouterPeer } from './routers.js';

const require = createRequire(import.meta.url);

export const NODE_ROUTERS: RouterPeer[] = [
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
    name: 'koa-tree-router',
    async load() {
      const KoaTreeRouter = require('koa-tree-router') as new () => {
        on(method: string, path: string, handler: () => number): void;
        find(method: string, path: string): { handle: (() => number)[] | null; params: unknown };
      };
      return (routes) => {
        const router = new KoaTreeRouter();
        routes.forEach(([m, p], i) => router.on(m, wildcard(p, '*rest'), () => i));
        return (method, path) => router.find(method, path).handle?.[0]() ?? null;
      };
    },
  },
];
