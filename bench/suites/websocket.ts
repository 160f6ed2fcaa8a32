// Suite `websocket`: WebSocket echo servers under a closed-loop client (bench/peers/ws-load.ts),
// each in its own process pinned apart from the client: round trips per second, latency, server
// CPU per message (one in, one out) and peak RSS. Peers: the `ws` package on node:http (the
// baseline: what Node users install), Deno.upgradeWebSocket on Deno.serve, Bun's server.upgrade;
// raw-ws, a socket that answers each client frame with an echo-sized frame, is the ceiling.
import { runWebSocketLoad, type WebSocketLoadSpec } from '../harness/load.js';
import type { BenchCase, LoadRuns, Suite } from '../harness/types.js';
import { measureServer } from './server.js';
import { bunServers, denoServers, loadCase, needing, nodeServer, type ServerImpl } from './server-processes.js';

function implementations(): ServerImpl[] {
  return [
    nodeServer('wirespeed-node-ws'),
    ...needing(['ws'], [nodeServer('ws-node', { baseline: true })]),
    nodeServer('raw-ws'),
    ...denoServers('wirespeed-deno-ws', 'deno-ws'),
    ...bunServers('bun-ws'),
  ];
}

const GROUPS: { group: string; spec: Omit<WebSocketLoadSpec, 'durationSec'> }[] = [
  { group: 'echo 16 B text, 1 connection', spec: { connections: 1, size: 16, kind: 'text' } },
  { group: 'echo 16 B text, 100 connections', spec: { connections: 100, size: 16, kind: 'text' } },
  { group: 'echo 1 KB binary, 100 connections', spec: { connections: 100, size: 1024, kind: 'binary' } },
  { group: 'echo 64 KB binary, 10 connections', spec: { connections: 10, size: 64 * 1024, kind: 'binary' } },
];

function measure(impl: ServerImpl, spec: Omit<WebSocketLoadSpec, 'durationSec'>, runs: LoadRuns) {
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
      for (const impl of implementations()) cases.push(loadCase('websocket', group, impl, (runs) => measure(impl, spec, runs)));
    }
    return cases;
  },
};
