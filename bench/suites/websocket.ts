// Suite `websocket`: WebSocket echo servers under a closed-loop client (bench/peers/ws-load.ts),
// each in its own process pinned apart from the client: round trips per second, latency, server
// CPU per message (one in, one out) and peak RSS. Peers: the `ws` package on node:http (the
// baseline: what Node users install), Deno.upgradeWebSocket on Deno.serve, Bun's server.upgrade.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWebSocketLoad, type WebSocketLoadSpec } from '../harness/load.js';
import type { BenchCase, LoadRuns, Suite } from '../harness/types.js';
import { bunBinary, denoBinary, measureServer } from './server.js';

const here = dirname(fileURLToPath(import.meta.url));
const nodeServers = join(here, '../peers/servers/node-servers.js');
const denoServers = join(here, '../peers/servers/deno-servers.js');
const bunServers = join(here, '../peers/servers/bun-servers.js');

interface Impl {
  name: string;
  command(port: number): string[];
  baseline?: boolean;
}

function implementations(): Impl[] {
  const node = (name: string, baseline = false): Impl => ({
    name,
    baseline,
    command: (port) => [process.execPath, nodeServers, name, String(port)],
  });
  const impls = [node('wirespeed-node-ws'), node('ws-node', true)];
  const deno = denoBinary();
  if (deno) {
    for (const name of ['wirespeed-deno-ws', 'deno-ws']) {
      impls.push({ name, command: (port) => [deno, 'run', '--quiet', '-A', '--no-lock', denoServers, name, String(port)] });
    }
  }
  const bun = bunBinary();
  if (bun) impls.push({ name: 'bun-ws', command: (port) => [bun, bunServers, 'bun-ws', String(port)] });
  return impls;
}

const GROUPS: { group: string; spec: Omit<WebSocketLoadSpec, 'durationSec'> }[] = [
  { group: 'echo 16 B text, 1 connection', spec: { connections: 1, size: 16, kind: 'text' } },
  { group: 'echo 16 B text, 100 connections', spec: { connections: 100, size: 16, kind: 'text' } },
  { group: 'echo 1 KB binary, 100 connections', spec: { connections: 100, size: 1024, kind: 'binary' } },
  { group: 'echo 64 KB binary, 10 connections', spec: { connections: 10, size: 64 * 1024, kind: 'binary' } },
];

function measure(impl: Impl, spec: Omit<WebSocketLoadSpec, 'durationSec'>, runs: LoadRuns) {
  return measureServer(impl.command, runs, (server, port, durationSec) => runWebSocketLoad(server, port, { ...spec, durationSec }), {
    connections: spec.connections,
    messageBytes: spec.size,
  });
}

export const websocketSuite: Suite = {
  name: 'websocket',
  description: 'WebSocket echo servers under a closed-loop client (round trips/s, latency, server CPU per message, peak RSS)',
  async cases(runtime) {
    if (runtime !== 'node') return [];
    const cases: BenchCase[] = [];
    for (const { group, spec } of GROUPS) {
      for (const impl of implementations()) {
        cases.push({
          suite: 'websocket',
          group,
          impl: impl.name,
          baseline: impl.baseline,
          setup: () => () => undefined,
          load: (runs) => measure(impl, spec, runs),
        });
      }
    }
    return cases;
  },
};
