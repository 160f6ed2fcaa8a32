// The two load clients of the server suite measure the same thing: a real server process under
// wrk and under autocannon (the fallback where wrk is missing), GET and POST, pipelined or not.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runAutocannon, runH2load, runWrk, ServerProcess, type LoadSpec } from '../../bench/harness/load.js';
import { ORDER } from '../../bench/peers/servers/app.js';

const servers = new URL('../../dist/bench/peers/servers/node-servers.js', import.meta.url).pathname;
let PORT = 0;
let server: ServerProcess;

beforeAll(async () => {
  PORT = await freePort();
  server = await ServerProcess.start({ command: [process.execPath, join(servers), 'wirespeed-node', String(PORT)], port: PORT });
});
afterAll(async () => server?.stop());

describe('load clients', () => {
  const specs: [string, LoadSpec][] = [
    ['GET', { path: '/hello', connections: 8, durationSec: 1, pipeline: 1 }],
    ['GET pipelined x4', { path: '/hello', connections: 8, durationSec: 1, pipeline: 4 }],
    ['POST 1 KB', { path: '/echo', connections: 8, durationSec: 1, pipeline: 1, postBody: 'x'.repeat(1024) }],
    ['GET, a new connection each', { path: '/hello', connections: 8, durationSec: 1, pipeline: 1, newConnectionEach: true }],
  ];
  it.each(specs)('wrk and autocannon both load the server: %s', async (_, spec) => {
    for (const run of [runWrk, runAutocannon]) {
      const r = await run(server, PORT, spec);
      expect(r.errors, run.name).toBe(0);
      expect(r.requestsPerSec, run.name).toBeGreaterThan(100);
      expect(r.serverCpuUsPerReq, run.name).toBeGreaterThan(0);
      expect(Number.isFinite(r.latencyP50Ms), run.name).toBe(true);
      // wrk gives no high percentile at times (NaN: see wrkPercentile in bench/harness/load.ts);
      // one it gives is in order.
      if (!Number.isNaN(r.latencyP99Ms)) expect(r.latencyP99Ms, run.name).toBeGreaterThanOrEqual(r.latencyP50Ms);
      expect(r.clientCpuShare, run.name).toBeGreaterThan(0);
      // How close it is to 1 depends on timing (a check for the bench report, not for a test).
      expect(Number.isFinite(r.littleRatio) && r.littleRatio > 0, run.name).toBe(true);
    }
  });
});

describe('load clients posting JSON', () => {
  it('wrk and autocannon send the POST body and its type as given (the hono app checks both: 415, 400 or 500 else)', async () => {
    const port = await freePort();
    const hono = await ServerProcess.start({ command: [process.execPath, servers, 'wirespeed-node-hono', String(port)], port });
    try {
      const spec: LoadSpec = {
        path: '/orders',
        connections: 4,
        durationSec: 1,
        pipeline: 1,
        postBody: JSON.stringify(ORDER),
        postType: 'application/json',
      };
      for (const run of [runWrk, runAutocannon]) {
        const r = await run(hono, port, spec);
        expect([r.errors, r.requestsPerSec > 100], run.name).toEqual([0, true]);
      }
      // The same route refuses another type: the check above could fail.
      const wrong = await runWrk(hono, port, { ...spec, postType: 'text/plain' });
      expect(wrong.errors).toBeGreaterThan(100);
    } finally {
      await hono.stop();
    }
  });
});

describe('load clients over TLS', () => {
  it('wrk and autocannon both load an HTTPS server (the bench certificate, unchecked), and h2load an HTTP/2 one', async () => {
    const port = await freePort();
    const tls = await ServerProcess.start({ command: [process.execPath, servers, 'wirespeed-node-h2-tls', String(port)], port });
    try {
      const spec: LoadSpec = { path: '/hello', connections: 8, durationSec: 1, pipeline: 1, tls: true };
      for (const run of [runWrk, runAutocannon]) {
        const r = await run(tls, port, spec);
        expect([r.errors, r.requestsPerSec > 100], run.name).toEqual([0, true]);
      }
      const h2 = await runH2load(tls, port, { path: '/hello', clients: 2, streams: 4, requests: 2000, tls: true });
      expect([h2.errors, h2.requestsPerSec > 100]).toEqual([0, true]);
    } finally {
      await tls.stop();
    }
  });
});
