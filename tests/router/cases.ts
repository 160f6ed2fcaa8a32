// The shared router case table (in the style of hono's common.case.test.ts): each case registers
// routes, then expects a lookup result. Every router implementation we keep runs all of it.
export interface RouterUnderTest {
  add(method: string, pattern: string, value: string): void;
  /** 'value' plus params, 405 with allowed methods, or 404. */
  lookup(method: string, path: string): { value: string; params: Record<string, string> } | { allowed: string[] } | null;
}

export interface RouterCase {
  name: string;
  routes: [method: string, pattern: string][];
  options?: { ignoreTrailingSlash?: boolean; caseSensitive?: boolean };
  expect: [
    method: string,
    path: string,
    result: string | { params: Record<string, string>; route: string } | { allowed: string[] } | null,
  ][];
}

const route = (r: string, params: Record<string, string> = {}) => ({ route: r, params });

export const CASES: RouterCase[] = [
  {
    name: 'static paths',
    routes: [
      ['GET', '/'],
      ['GET', '/health'],
      ['GET', '/a/b/c'],
    ],
    expect: [
      ['GET', '/', route('GET /')],
      ['GET', '/health', route('GET /health')],
      ['GET', '/a/b/c', route('GET /a/b/c')],
      ['GET', '/a/b', null],
      ['GET', '/healthz', null],
      ['GET', '/health/', null],
    ],
  },
  {
    name: 'trailing slash policy',
    options: { ignoreTrailingSlash: true },
    routes: [
      ['GET', '/health'],
      ['GET', '/users/:id/'],
    ],
    expect: [
      ['GET', '/health/', route('GET /health')],
      ['GET', '/users/1', route('GET /users/:id/', { id: '1' })],
      ['GET', '/users/1/', route('GET /users/:id/', { id: '1' })],
    ],
  },
  {
    name: 'case policy',
    options: { caseSensitive: false },
    routes: [
      ['GET', '/About'],
      ['GET', '/users/:id'],
    ],
    expect: [
      ['GET', '/about', route('GET /About')],
      ['GET', '/ABOUT', route('GET /About')],
      ['GET', '/USERS/AbC', route('GET /users/:id', { id: 'abc' })],
    ],
  },
  {
    name: 'named params',
    routes: [
      ['GET', '/users/:id'],
      ['GET', '/repos/:owner/:repo/issues/:n'],
      ['GET', '/users/:userId/posts/:postId'],
    ],
    expect: [
      ['GET', '/users/42', route('GET /users/:id', { id: '42' })],
      ['GET', '/repos/nodejs/node/issues/7', route('GET /repos/:owner/:repo/issues/:n', { owner: 'nodejs', repo: 'node', n: '7' })],
      ['GET', '/users/7/posts/9', route('GET /users/:userId/posts/:postId', { userId: '7', postId: '9' })],
      ['GET', '/users/', null],
      ['GET', '/users', null],
      ['GET', '/repos/a/b/issues', null],
    ],
  },
  {
    name: 'params inside a segment',
    routes: [
      ['GET', '/files/:name.:ext'],
      ['GET', '/api/v:version/status'],
      ['GET', '/at/:hour-:minute'],
    ],
    expect: [
      ['GET', '/files/report.pdf', route('GET /files/:name.:ext', { name: 'report', ext: 'pdf' })],
      ['GET', '/files/archive.tar.gz', route('GET /files/:name.:ext', { name: 'archive', ext: 'tar.gz' })],
      ['GET', '/files/noext', null],
      ['GET', '/files/.hidden', null],
      ['GET', '/api/v2/status', route('GET /api/v:version/status', { version: '2' })],
      ['GET', '/at/10-30', route('GET /at/:hour-:minute', { hour: '10', minute: '30' })],
    ],
  },
  {
    name: 'wildcard rest',
    routes: [
      ['GET', '/assets/*'],
      ['GET', '/assets/logo.svg'],
      ['GET', '/docs/:section/*'],
    ],
    expect: [
      ['GET', '/assets/css/site.css', route('GET /assets/*', { '*': 'css/site.css' })],
      ['GET', '/assets/', route('GET /assets/*', { '*': '' })],
      ['GET', '/assets/logo.svg', route('GET /assets/logo.svg')],
      ['GET', '/assets', null],
      ['GET', '/docs/api/a/b', route('GET /docs/:section/*', { section: 'api', '*': 'a/b' })],
    ],
  },
  {
    name: 'priority: static, then in-segment params, then params, then wildcard, with backtracking',
    routes: [
      ['GET', '/users/new'],
      ['GET', '/users/:id'],
      ['GET', '/users/new/edit'],
      ['GET', '/users/:id/posts'],
      ['GET', '/users/:id.json'],
      ['GET', '/*'],
    ],
    expect: [
      ['GET', '/users/new', route('GET /users/new')],
      ['GET', '/users/5', route('GET /users/:id', { id: '5' })],
      ['GET', '/users/5.json', route('GET /users/:id.json', { id: '5' })],
      ['GET', '/users/new/posts', route('GET /users/:id/posts', { id: 'new' })],
      ['GET', '/users/new/edit', route('GET /users/new/edit')],
      ['GET', '/other/thing', route('GET /*', { '*': 'other/thing' })],
    ],
  },
  {
    name: 'methods: dispatch, ALL, HEAD falls back to GET, 405 with Allow',
    routes: [
      ['GET', '/items'],
      ['POST', '/items'],
      ['DELETE', '/items/:id'],
      ['ALL', '/any'],
      ['PUT', '/any'],
    ],
    expect: [
      ['GET', '/items', route('GET /items')],
      ['POST', '/items', route('POST /items')],
      ['HEAD', '/items', route('GET /items')],
      ['PATCH', '/items', { allowed: ['GET', 'HEAD', 'POST'] }],
      ['GET', '/items/3', { allowed: ['DELETE'] }],
      ['PATCH', '/any', route('ALL /any')],
      ['PUT', '/any', route('PUT /any')],
      ['GET', '/missing', null],
    ],
  },
  {
    name: 'a method on one route does not hide another route for it',
    routes: [
      ['GET', '/users/me'],
      ['DELETE', '/users/:id'],
      ['GET', '/posts/:id'],
      ['POST', '/posts/:id/like'],
    ],
    expect: [
      ['DELETE', '/users/me', route('DELETE /users/:id', { id: 'me' })],
      ['POST', '/posts/1', { allowed: ['GET', 'HEAD'] }],
    ],
  },
  {
    name: 'methods: the most specific path wins before the nearest method (ALL on a static path beats GET on a param)',
    routes: [
      ['GET', '/a/:x'],
      ['ALL', '/a/b'],
      ['HEAD', '/h/:x'],
      ['GET', '/h/:x'],
      ['GET', '/w/*'],
      ['ALL', '/w/x/:y'],
    ],
    expect: [
      ['GET', '/a/b', route('ALL /a/b')],
      ['GET', '/a/c', route('GET /a/:x', { x: 'c' })],
      ['HEAD', '/a/c', route('GET /a/:x', { x: 'c' })],
      ['POST', '/a/c', { allowed: ['GET', 'HEAD'] }],
      ['HEAD', '/h/1', route('HEAD /h/:x', { x: '1' })],
      ['GET', '/h/1', route('GET /h/:x', { x: '1' })],
      ['GET', '/w/x/1', route('ALL /w/x/:y', { y: '1' })],
      ['GET', '/w/x', route('GET /w/*', { '*': 'x' })],
      ['DELETE', '/w/x', { allowed: ['GET', 'HEAD'] }],
    ],
  },
  {
    name: 'methods: routes added in any order (ALL before and after a method, HEAD after GET, a new method after ALL)',
    routes: [
      ['ALL', '/early/:id'],
      ['GET', '/late'],
      ['ALL', '/late'],
      ['GET', '/x/:id'],
      ['HEAD', '/x/:id'],
      ['PURGE', '/cache/:key'],
      ['ALL', '/cache/*'],
    ],
    expect: [
      ['GET', '/early/1', route('ALL /early/:id', { id: '1' })],
      ['PURGE', '/early/1', route('ALL /early/:id', { id: '1' })],
      ['GET', '/late', route('GET /late')],
      ['POST', '/late', route('ALL /late')],
      ['HEAD', '/late', route('GET /late')],
      ['HEAD', '/x/1', route('HEAD /x/:id', { id: '1' })],
      ['PURGE', '/cache/k', route('PURGE /cache/:key', { key: 'k' })],
      ['GET', '/cache/k', route('ALL /cache/*', { '*': 'k' })],
      ['OPTIONS', '/x/1', { allowed: ['GET', 'HEAD'] }],
    ],
  },
  {
    name: 'methods and paths are client input: names of Object.prototype members are plain names',
    routes: [
      ['GET', '/a'],
      ['GET', '/b/:id'],
      ['GET', '/__proto__'],
    ],
    expect: [
      ['GET', '/__proto__', route('GET /__proto__')],
      ['GET', '/constructor', null],
      ['GET', '/toString', null],
      ['__proto__', '/a', { allowed: ['GET', 'HEAD'] }],
      ['constructor', '/b/1', { allowed: ['GET', 'HEAD'] }],
      ['toString', '/nowhere', null],
      ['hasOwnProperty', '/a', { allowed: ['GET', 'HEAD'] }],
    ],
  },
  {
    name: 'percent-decoded params',
    routes: [
      ['GET', '/users/:name'],
      ['GET', '/raw/*'],
    ],
    expect: [
      ['GET', '/users/caf%C3%A9', route('GET /users/:name', { name: 'café' })],
      ['GET', '/users/a%2Fb', route('GET /users/:name', { name: 'a/b' })],
      ['GET', '/raw/a%20b/c', route('GET /raw/*', { '*': 'a b/c' })],
    ],
  },
  {
    name: 'paths that are not origin-form',
    routes: [
      ['GET', '/'],
      ['GET', '/*'],
    ],
    expect: [
      ['OPTIONS', '*', null],
      ['GET', '', null],
    ],
  },
];
