// `wirespeed pair A B`: two servers of the load suites side by side, loaded at the same time, for
// a ratio of their CPU per request that the machine's drift does not move. One server after the
// other (the `server` suite) lets a VM's slow and fast phases, seconds long, fall on one of them:
// on the reference VM a server's CPU per request moved ±20% from one run to the next, and a 10%
// change could not be told from noise. Side by side both servers share the server core and live
// through the same phases; a server against itself gave ratios of 0.96-1.00. The order alternates
// from run to run: in a first script the server started first came out up to ~5% cheaper.
import { parseArgs } from 'node:util';
import { freePort, loadClient, runWrk, ServerProcess, type LoadRun, type LoadSpec } from '../harness/load.js';
import { quantile } from '../harness/stats.js';
import { denoServers, nodeServer, type ServerImpl } from '../suites/server-processes.js';
import { CliError, HELP_OPTION, numberOption, parsingArgs, UsageError } from './args.js';

export const PAIR_USAGE = `usage: wirespeed pair SERVER_A SERVER_B [--path /hello] [--runs 6] [--seconds 6] [--connections 25] [--pipeline 1]

Runs two servers of the load suites side by side (both on the server core, each loaded by its own
wrk from the client core at the same time) and prints each one's server CPU per request and
req/s, and B's CPU per request over A's, per run and as the median of the runs. The order they
start in alternates from run to run. Servers are named as in the server suite's cases:
wirespeed-node, node-http, wirespeed-node-hono, hono-node-hono, wirespeed-deno, deno-serve, ...

  --path         the path both are asked (default /hello)
  --runs         measured runs (default 6), each after a 2 s warm-up of both
  --seconds      each measured run's length (default 6)
  --connections  each server's connections (default 25: 50 in all, as the server suite opens)
  --pipeline     requests each connection sends at once (default 1; 16 as the suite's pipelined case)`;

/** Each run starts with this much load on both, unmeasured (JIT warm-up). */
const WARM_UP_SEC = 2;

interface PairRun {
  a: LoadRun;
  b: LoadRun;
  /** B's server CPU per request over A's. */
  ratio: number;
  aFirst: boolean;
}

export async function pairCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parsingArgs(() =>
    parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        path: { type: 'string', default: '/hello' },
        runs: { type: 'string', default: '6' },
        seconds: { type: 'string', default: '6' },
        connections: { type: 'string', default: '25' },
        pipeline: { type: 'string', default: '1' },
        help: HELP_OPTION,
      },
    }),
  );
  if (values.help) return console.log(PAIR_USAGE);
  if (positionals.length !== 2) throw new UsageError('pair needs two servers, SERVER_A and SERVER_B');
  if (!values.path.startsWith('/')) throw new UsageError(`--path must start with "/", not "${values.path}"`);
  const runs = numberOption('runs', values.runs, { min: 1, integer: true });
  const spec: LoadSpec = {
    path: values.path,
    connections: numberOption('connections', values.connections, { min: 1, integer: true }),
    durationSec: numberOption('seconds', values.seconds, { min: 1, integer: true }),
    pipeline: numberOption('pipeline', values.pipeline, { min: 1, integer: true }),
  };
  if (loadClient() !== 'wrk') throw new CliError('pair needs wrk (npm run setup installs it)');
  const [a, b] = positionals.map(serverNamed);
  const done: PairRun[] = [];
  for (let run = 0; run < runs; run++) {
    const aFirst = run % 2 === 0;
    const [first, second] = await startBoth(aFirst ? [a, b] : [b, a]);
    try {
      const both = (durationSec: number) =>
        Promise.all([first, second].map(({ server, port }) => runWrk(server, port, { ...spec, durationSec })));
      await both(WARM_UP_SEC);
      const [firstRun, secondRun] = await both(spec.durationSec);
      const [aRun, bRun] = aFirst ? [firstRun, secondRun] : [secondRun, firstRun];
      const result = { a: aRun, b: bRun, ratio: bRun.serverCpuUsPerReq / aRun.serverCpuUsPerReq, aFirst };
      console.log(describeRun(run + 1, result));
      const [aStarted, bStarted] = aFirst ? [first, second] : [second, first];
      const faults = [
        ['A', faultOf(aStarted.server, aRun)],
        ['B', faultOf(bStarted.server, bRun)],
      ].flatMap(([side, fault]) => (fault ? [`${side} ${fault}`] : []));
      // A run where a server failed requests, or stopped answering, compares nothing: left out.
      if (faults.length) console.log(`run ${run + 1} left out: ${faults.join('; ')}`);
      else done.push(result);
    } finally {
      await Promise.all([first.server.stop(), second.server.stop()]);
    }
  }
  if (!done.length) throw new CliError(`no run of the ${runs} was clean (above: what failed in each)`);
  const ratios = done.map((r) => r.ratio).sort((x, y) => x - y);
  const counted = done.length === runs ? `${runs} run${runs === 1 ? '' : 's'}` : `${done.length} clean runs of ${runs}`;
  console.log(
    `${b.name} / ${a.name}, server CPU per request on ${values.path}${spec.pipeline > 1 ? ` (${spec.pipeline} pipelined)` : ''}: median ${quantile(ratios, 0.5).toFixed(3)}` +
      ` (${ratios[0].toFixed(3)}-${ratios.at(-1)!.toFixed(3)} over ${counted})`,
  );
}

/** What went wrong in a server's run, if anything: it exited, answered nothing, or wrk counted errors. */
function faultOf(server: ServerProcess, run: LoadRun): string | null {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return 'exited during the run (its error is above)';
  if (!(run.requestsPerSec > 0))
    return `answered no request (it held ${run.openConnections} connections; wrk counted ${run.errors} errors)`;
  return run.errors > 0 ? `had ${run.errors} errors (socket errors and non-2xx/3xx answers, as wrk counts them)` : null;
}

/** A server of node-servers.ts, or of deno-servers.ts for a name with "deno" in it. */
function serverNamed(name: string): ServerImpl {
  if (!/deno/.test(name)) return nodeServer(name);
  const [impl] = denoServers(name);
  if (!impl) throw new CliError(`${name} needs Deno (the npm package deno; npm run setup installs it)`);
  return impl;
}

interface Started {
  impl: ServerImpl;
  server: ServerProcess;
  port: number;
}

async function startBoth(impls: ServerImpl[]): Promise<Started[]> {
  const started: Started[] = [];
  try {
    for (const impl of impls) {
      const port = await freePort();
      const server = await ServerProcess.start({ command: impl.command(port), port }).catch((error: Error) => {
        throw new CliError(
          `${impl.name} did not start (${error.message}): its error is above (a name no load suite has, or a package it needs not installed)`,
        );
      });
      started.push({ impl, server, port });
    }
    return started;
  } catch (error) {
    await Promise.all(started.map(({ server }) => server.stop()));
    throw error;
  }
}

function describeRun(run: number, { a, b, ratio, aFirst }: PairRun): string {
  const side = (label: string, r: LoadRun) =>
    `${label} ${r.serverCpuUsPerReq.toFixed(2)} µs/req ${(r.requestsPerSec / 1000).toFixed(1)}k/s`;
  return `run ${run} (${aFirst ? 'A' : 'B'} started first): ${side('A', a)}, ${side('B', b)}, B/A ${ratio.toFixed(3)}`;
}
