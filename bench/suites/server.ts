// Suite `server`: whole HTTP/1.1 servers under wrk, one at a time, each in its own process pinned
// apart from the client. Peers: node:http (baseline), a raw `net` server answering fixed bytes (the
// socket layer's ceiling; raw-deno is the same on Deno), hono's node-server, fastify, Deno.serve,
// Bun.serve; wirespeed on Node (defaults, and with Node's own Response) and on Deno (Deno's
// Response, and LightResponse). Over TLS: node:https and Deno.serve.
// The `hono` groups run one hono app (hono-app.ts) on wirespeed and on the servers hono users run
// it on today: @hono/node-server (the baseline) and Deno.serve. The `h3` groups run one h3 app
// (h3-app.ts) on wirespeed and on h3's own server, srvx (the baseline); the `Elysia` groups one
// Elysia app (elysia-app.ts) on wirespeed and on Elysia's Node adapter (the baseline); the `GraphQL
// Yoga` group one Yoga app (yoga-app.ts) on wirespeed and on node:http, Yoga's own Node path.
import { freePort, loadClient, peakRss, runLoad, ServerProcess, type LoadRun, type LoadSpec } from '../harness/load.js';
import { quantile } from '../harness/stats.js';
import type { BenchCase, LoadRuns, Suite } from '../harness/types.js';
import { bunServers, denoServers, loadCase, needing, nodeServer, type ServerImpl } from './server-processes.js';
import { noteLeftOut } from '../harness/peers.js';
import { ORDER } from '../peers/servers/app.js';

/** The servers of the plain fetch handler (app.ts). */
function implementations(): ServerImpl[] {
  return [
    nodeServer('wirespeed-node'),
    nodeServer('wirespeed-node-runtime'),
    nodeServer('node-http', { baseline: true }),
    nodeServer('raw-net', { helloOnly: true }),
    ...needing(['@hono/node-server'], [nodeServer('hono-node')]),
    ...needing(['fastify'], [nodeServer('fastify')]),
    ...denoServers('wirespeed-deno', 'wirespeed-deno-runtime', 'deno-serve'),
    ...denoServers('raw-deno').map((impl) => ({ ...impl, helloOnly: true })),
    ...bunServers('bun-serve'),
  ];
}

/** The servers of the HTTPS group: wirespeed and each runtime's own server, on the bench's certificate. */
function tlsImplementations(): ServerImpl[] {
  return [
    nodeServer('wirespeed-node-tls'),
    nodeServer('node-https', { baseline: true }),
    ...denoServers('wirespeed-deno-tls', 'deno-serve-tls'),
  ];
}

/** The servers of the hono app (hono-app.ts): wirespeed against what hono users run today. */
function honoImplementations(): ServerImpl[] {
  return needing(
    ['hono'],
    [nodeServer('wirespeed-node-hono'), ...needing(['@hono/node-server'], [nodeServer('hono-node-hono', { baseline: true })])],
  ).concat(needing(['hono'], denoServers('wirespeed-deno-hono', 'deno-serve-hono')));
}

const CONNECTIONS = 50;
const GROUPS: { group: string; spec: Omit<LoadSpec, 'durationSec'>; hello?: boolean }[] = [
  { group: 'hello text', spec: { path: '/hello', connections: CONNECTIONS, pipeline: 1 }, hello: true },
  { group: 'JSON', spec: { path: '/json', connections: CONNECTIONS, pipeline: 1 } },
  { group: '1 KB body', spec: { path: '/1kb', connections: CONNECTIONS, pipeline: 1 } },
  { group: '10 KB body', spec: { path: '/10kb', connections: CONNECTIONS, pipeline: 1 } },
  { group: 'POST echo 1 KB', spec: { path: '/echo', connections: CONNECTIONS, pipeline: 1, postBody: 'x'.repeat(1024) } },
  { group: 'hello pipelined x16', spec: { path: '/hello', connections: CONNECTIONS, pipeline: 16 }, hello: true },
  // One client, one request at a time: the latency of a request, not the server's throughput.
  { group: 'hello, 1 connection (sequential)', spec: { path: '/hello', connections: 1, pipeline: 1 }, hello: true },
  // Clients without keep-alive (health checks, scripts, some proxies): the cost of a connection.
  {
    group: 'hello, a new connection per request',
    spec: { path: '/hello', connections: CONNECTIONS, pipeline: 1, newConnectionEach: true },
    hello: true,
  },
];

/** HTTPS, where Node or Deno terminates TLS itself (wrk does not check the certificate). */
const TLS_GROUPS: { group: string; spec: Omit<LoadSpec, 'durationSec'> }[] = [
  { group: 'hello over TLS (HTTPS)', spec: { path: '/hello', connections: CONNECTIONS, pipeline: 1, tls: true } },
];

const HONO_GROUPS: { group: string; spec: Omit<LoadSpec, 'durationSec'> }[] = [
  { group: 'hono: hello (c.text)', spec: { path: '/hello', connections: CONNECTIONS, pipeline: 1 } },
  { group: 'hono: JSON (c.json)', spec: { path: '/json', connections: CONNECTIONS, pipeline: 1 } },
  { group: 'hono: cors + etag + secureHeaders, route param', spec: { path: '/mw/items/42', connections: CONNECTIONS, pipeline: 1 } },
  { group: 'hono: 20 KB bytes (c.body)', spec: { path: '/bytes', connections: CONNECTIONS, pipeline: 1 } },
  { group: 'hono: 20 KB file streamed from disk', spec: { path: '/file', connections: CONNECTIONS, pipeline: 1 } },
  { group: 'hono: 20 KB file (serveStatic)', spec: { path: '/static/file.bin', connections: CONNECTIONS, pipeline: 1 } },
  { group: 'hono: 200 KB file (serveStatic)', spec: { path: '/static/large.bin', connections: CONNECTIONS, pipeline: 1 } },
  { group: 'hono: HTML page streamed in 100 writes (stream())', spec: { path: '/page', connections: CONNECTIONS, pipeline: 1 } },
  {
    group: 'hono: POST JSON (c.req.json, c.json)',
    spec: { path: '/orders', connections: CONNECTIONS, pipeline: 1, postBody: JSON.stringify(ORDER), postType: 'application/json' },
  },
];

/**
 * Framework apps on wirespeed/node against the Node server each ships (the baseline): the packages
 * they need, the two servers (node-servers.ts), and their groups' paths.
 */
const FRAMEWORKS: { packages: string[]; ours: string; theirs: string; others?: ServerImpl[]; groups: [group: string, path: string][] }[] = [
  {
    packages: ['h3'],
    ours: 'wirespeed-node-h3',
    theirs: 'srvx-node-h3',
    groups: [
      ['h3: hello (a string)', '/hello'],
      ['h3: JSON (an object)', '/json'],
      ['h3: route param (JSON)', '/items/42'],
      ['h3: a Response of the handler', '/response'],
    ],
  },
  {
    packages: ['elysia', '@elysiajs/node'],
    ours: 'wirespeed-node-elysia',
    theirs: 'elysia-node-elysia',
    groups: [
      ['Elysia: hello (a string)', '/hello'],
      ['Elysia: JSON (an object)', '/json'],
      ['Elysia: route param (JSON)', '/items/42'],
    ],
  },
  {
    packages: ['graphql-yoga'],
    ours: 'wirespeed-node-yoga',
    theirs: 'node-http-yoga',
    groups: [['GraphQL Yoga: a query (GET)', '/graphql?query=%7Bhello%7D']],
  },
  {
    // React's server rendering: theirs is React's own Node path (renderToPipeableStream on
    // node:http); the same fetch handler on @hono/node-server beside it, and on Deno.
    packages: ['react', 'react-dom'],
    ours: 'wirespeed-node-react',
    theirs: 'node-http-react',
    others: [
      ...needing(['@hono/node-server'], [nodeServer('hono-node-react')]),
      ...denoServers('wirespeed-deno-react', 'deno-serve-react'),
    ],
    groups: [
      ['React SSR: a 100-row page', '/page'],
      ['React SSR: a page with a Suspense part', '/suspense'],
    ],
  },
];

const median = (values: number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

/**
 * Starts `command` (a server printing "ready"), warms it up with one short run, then measures
 * `runs.count` runs of `runOnce`: per-run ns per request as samples, medians of the rest as metrics.
 */
export async function measureServer(
  command: (port: number) => string[],
  runs: LoadRuns,
  runOnce: (server: ServerProcess, port: number, durationSec: number) => Promise<LoadRun>,
  extra: Record<string, number>,
) {
  const port = await freePort();
  const server = await ServerProcess.start({ command: command(port), port });
  try {
    await runOnce(server, port, 1); // warm-up: let the JIT settle
    const results: LoadRun[] = [];
    for (let i = 0; i < runs.count; i++) results.push(await runOnce(server, port, runs.durationSec));
    // Over the runs that reported it (wrk may give no high percentile: NaN).
    const metric = (key: keyof LoadRun) => median(results.map((r) => r[key]).filter((value) => !Number.isNaN(value)));
    const measured: Record<string, number> = {
      requestsPerSec: metric('requestsPerSec'),
      latencyMeanMs: metric('latencyMeanMs'),
      latencyP50Ms: metric('latencyP50Ms'),
      latencyP75Ms: metric('latencyP75Ms'),
      latencyP90Ms: metric('latencyP90Ms'),
      latencyP99Ms: metric('latencyP99Ms'),
      transferBytesPerSec: metric('transferBytesPerSec'),
      serverCpuUsPerReq: metric('serverCpuUsPerReq'),
      clientCpuShare: metric('clientCpuShare'),
      clientBound: metric('clientCpuShare') > 0.9 ? 1 : 0,
      littleRatio: metric('littleRatio'),
      openConnections: Math.max(...results.map((r) => r.openConnections)),
      errors: results.reduce((sum, r) => sum + r.errors, 0),
      peakRssBytes: peakRss(server.pid),
      ...extra,
    };
    // A metric a client could not report (NaN) is left out: result files hold finite numbers only.
    const metrics = Object.fromEntries(Object.entries(measured).filter(([, value]) => Number.isFinite(value)));
    return { samples: results.map((r) => 1e9 / r.requestsPerSec), metrics };
  } finally {
    await server.stop();
  }
}

function measure(client: 'wrk' | 'autocannon', impl: ServerImpl, spec: Omit<LoadSpec, 'durationSec'>, runs: LoadRuns) {
  // clientWrk 1: wrk drove the load, 0: autocannon (numbers of the two are not comparable).
  return measureServer(impl.command, runs, (server, port, durationSec) => runLoad(client, server, port, { ...spec, durationSec }), {
    connections: spec.connections,
    clientWrk: client === 'wrk' ? 1 : 0,
  });
}

export const serverSuite: Suite = {
  name: 'server',
  description: 'HTTP/1.1 servers under wrk or autocannon (req/s, latency, server CPU per request, peak RSS)',
  async cases(runtime) {
    if (runtime !== 'node') return [];
    const client = loadClient();
    if (!client) {
      noteLeftOut('neither wrk nor autocannon is installed (apt install wrk, or npm install --save-dev autocannon)', 'suite server');
      return [];
    }
    const cases: BenchCase[] = [];
    const add = (group: string, impl: ServerImpl, spec: Omit<LoadSpec, 'durationSec'>) =>
      cases.push(loadCase('server', group, impl, (runs) => measure(client, impl, spec, runs)));
    for (const { group, spec, hello } of GROUPS) {
      for (const impl of implementations()) if (!impl.helloOnly || hello) add(group, impl, spec);
    }
    for (const { group, spec } of TLS_GROUPS) for (const impl of tlsImplementations()) add(group, impl, spec);
    for (const { group, spec } of HONO_GROUPS) for (const impl of honoImplementations()) add(group, impl, spec);
    for (const { packages, ours, theirs, others = [], groups } of FRAMEWORKS) {
      for (const [group, path] of groups) {
        for (const impl of needing(packages, [nodeServer(ours), nodeServer(theirs, { baseline: true }), ...others]))
          add(group, impl, { path, connections: CONNECTIONS, pipeline: 1 });
      }
    }
    return cases;
  },
};
