// Suite `router`: route lookup, wirespeed against find-my-way, rou3, memoirist, hono's routers and
// koa-tree-router, on the cases of the ZapJS report plus a realistic API (GitHub's REST routes).
import { GITHUB_REQUESTS, GITHUB_ROUTES } from '../peers/github-routes.js';
import { ROUTERS, type Build, type Find, type Routes } from '../peers/routers.js';
import { LeftOutError, optionalPeer } from '../harness/peers.js';
import type { BenchCase, Suite } from '../harness/types.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];

export interface RouterScenario {
  group: string;
  routes: Routes;
  requests: [method: string, path: string][];
  /** The value each request must resolve to (route index, or null for 404/405). */
  expected: (number | null)[];
}

const staticRoutes = (n: number): Routes => Array.from({ length: n }, (_, i) => ['GET', `/static/route-${i}/page`]);

export const SCENARIOS: RouterScenario[] = [
  ...[10, 100, 1000, 10000].map((n) => ({
    group: `static, ${n} routes`,
    routes: staticRoutes(n),
    requests: [['GET', `/static/route-${Math.floor(n / 2)}/page`]] as [string, string][],
    expected: [Math.floor(n / 2)],
  })),
  {
    group: '1 param',
    routes: [
      ['GET', '/users'],
      ['GET', '/users/:id'],
      ['GET', '/posts/:id'],
    ],
    requests: [['GET', '/users/12345']],
    expected: [1],
  },
  {
    group: '2 params',
    routes: [
      ['GET', '/users/:id'],
      ['GET', '/users/:id/posts/:postId'],
      ['GET', '/users/:id/posts'],
    ],
    requests: [['GET', '/users/12345/posts/67890']],
    expected: [1],
  },
  {
    group: '3 params',
    routes: [
      ['GET', '/repos/:owner/:repo'],
      ['GET', '/repos/:owner/:repo/issues/:number'],
      ['GET', '/repos/:owner/:repo/issues'],
    ],
    requests: [['GET', '/repos/nodejs/node/issues/51234']],
    expected: [1],
  },
  {
    group: 'wildcard, short path',
    routes: [
      ['GET', '/assets/*'],
      ['GET', '/api/items'],
    ],
    requests: [['GET', '/assets/app.js']],
    expected: [0],
  },
  {
    group: 'wildcard, long path',
    routes: [
      ['GET', '/assets/*'],
      ['GET', '/api/items'],
    ],
    requests: [['GET', '/assets/vendor/lib/dist/esm/components/ui/forms/inputs/text/index.js']],
    expected: [0],
  },
  {
    group: 'every method',
    routes: METHODS.map((m) => [m, '/resource/:id']),
    requests: METHODS.map((m) => [m, '/resource/42']),
    expected: METHODS.map((_, i) => i),
  },
  {
    group: '404, different path',
    routes: [
      ['GET', '/users/:id'],
      ['GET', '/posts/:id/comments'],
      ['GET', '/health'],
    ],
    requests: [['GET', '/nothing/here/at/all']],
    expected: [null],
  },
  {
    group: 'wrong method',
    routes: [
      ['GET', '/users/:id'],
      ['GET', '/health'],
    ],
    requests: [['POST', '/users/42']],
    expected: [null],
  },
  {
    group: 'almost matching path',
    routes: [
      ['GET', '/users/:id/posts'],
      ['GET', '/users/:id/comments'],
    ],
    requests: [['GET', '/users/12345/postsx']],
    expected: [null],
  },
  {
    group: 'GitHub API (286 routes, 10 requests)',
    routes: GITHUB_ROUTES,
    requests: GITHUB_REQUESTS,
    expected: GITHUB_REQUESTS.map(([method, path]) => expectedGithub(method, path)),
  },
];

/** The GitHub route each request was written for. */
function expectedGithub(method: string, path: string): number {
  const patterns: Record<string, string> = {
    '/user/repos': '/user/repos',
    '/users/octocat': '/users/:username',
    '/repos/nodejs/node': '/repos/:owner/:repo',
    '/repos/nodejs/node/issues/51234': '/repos/:owner/:repo/issues/:issue_number',
    '/repos/nodejs/node/issues/51234/comments': '/repos/:owner/:repo/issues/:issue_number/comments',
    '/repos/nodejs/node/pulls/49000/reviews/1234567': '/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id',
    '/repos/nodejs/node/contents/lib/internal/http.js': '/repos/:owner/:repo/contents/*',
    '/orgs/github/teams/core/members': '/orgs/:org/teams/:team_slug/members',
    '/search/repositories': '/search/repositories',
    '/gists/aa5a315d61ae9438b18d/star': '/gists/:gist_id/star',
  };
  return GITHUB_ROUTES.findIndex(([m, p]) => m === method && p === patterns[path]);
}

/**
 * The lookups of one scenario as one operation (the sum keeps the work observable). A single
 * request is read at each call from an index that changes, as a server's requests do: from
 * constants (or any input the loop does not change) V8 hoists a lookup that needs no call out of
 * the loop, and "wrong method" measured 0.3-0.5 ns for the routers that end it at a method check.
 */
export function scenarioOperation(find: Find, requests: [string, string][]): () => number {
  if (requests.length === 1) {
    const turns = [requests[0], requests[0]];
    let turn = 0;
    return () => {
      turn ^= 1;
      return find(turns[turn][0], turns[turn][1]) ?? -1;
    };
  }
  return () => {
    let sum = 0;
    for (let i = 0; i < requests.length; i++) sum += find(requests[i][0], requests[i][1]) ?? -1;
    return sum;
  };
}

export const routerSuite: Suite = {
  name: 'router',
  description: 'route lookup (value + params) per request',
  async cases(): Promise<BenchCase[]> {
    const cases: BenchCase[] = [];
    const routers: { name: string; build: Build }[] = [];
    for (const peer of ROUTERS) {
      const build = await optionalPeer(peer.name, () => peer.load());
      if (build) routers.push({ name: peer.name, build });
    }
    for (const scenario of SCENARIOS) {
      for (const peer of routers) {
        cases.push({
          suite: 'router',
          group: scenario.group,
          impl: peer.name,
          baseline: peer.name === 'find-my-way',
          // Built when the case runs, so listing the suite (as each --isolate child does) is cheap.
          setup() {
            let find: Find;
            try {
              find = peer.build(scenario.routes);
            } catch (error) {
              throw new LeftOutError(`${peer.name} cannot express these routes (${(error as Error).message})`);
            }
            return scenarioOperation(find, scenario.requests);
          },
        });
      }
    }
    return cases;
  },
};
