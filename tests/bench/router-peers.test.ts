// The router benchmark is fair only if every router resolves every request of a scenario to the
// same route (or to nothing).
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTERS, type Build } from '../../bench/peers/routers.js';
import { SCENARIOS } from '../../bench/suites/router.js';

describe('router benchmark peers', () => {
  let peers: { name: string; build: Build }[] = [];
  beforeAll(async () => {
    peers = await Promise.all(ROUTERS.map(async (peer) => ({ name: peer.name, build: await peer.load() })));
  });

  it('the GitHub scenario has ~300 routes and its requests each name a route', () => {
    const github = SCENARIOS.find((s) => s.group.startsWith('GitHub'))!;
    expect(github.routes.length).toBeGreaterThan(280);
    expect(github.expected.every((v) => v !== null && v >= 0)).toBe(true);
  });

  for (const scenario of SCENARIOS) {
    it(`every router that can express "${scenario.group}" answers it the same`, () => {
      let expressed = 0;
      for (const peer of peers) {
        let find;
        try {
          find = peer.build(scenario.routes);
        } catch (error) {
          // Known limits: httprouter-style trees refuse a param beside a static segment; hono's
          // RegExpRouter refuses some sets (hono's SmartRouter then falls back to TrieRouter).
          expect(['koa-tree-router', 'hono RegExpRouter'], `${peer.name}: ${(error as Error).message}`).toContain(peer.name);
          continue;
        }
        expressed++;
        const got = scenario.requests.map(([method, path]) => find(method, path));
        expect([peer.name, got]).toEqual([peer.name, scenario.expected]);
      }
      expect(expressed).toBeGreaterThanOrEqual(5);
    });
  }
});
