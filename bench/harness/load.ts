// Load runs: a server in its own process, `wrk` (or autocannon where wrk is missing) in another, each pinned to its own core when
// `taskset` is there. Besides req/s we record what tells a server's cost from the client's limit:
// latency percentiles, server CPU time per request and peak RSS (from /proc), the client's CPU
// share (near 100% means wrk, not the server, was the bottleneck) and a Little's-law check.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { inTemporaryFolder, removeFolder, temporaryFolder } from './temporary-folder.js';

export interface LoadTarget {
  /** argv of the server; it must print a line "ready" once listening on `port`. */
  command: string[];
  port: number;
}

export interface LoadSpec {
  path: string;
  connections: number;
  durationSec: number;
  /** Requests per write (HTTP/1.1 pipelining); 1 for none. */
  pipeline: number;
  /** A POST body instead of a GET (printable ASCII: it is written into wrk's Lua script). */
  postBody?: string;
  /** The POST body's Content-Type; application/octet-stream when not given. */
  postType?: string;
  /** Each request on a new connection (`Connection: close`), as a client without keep-alive does. */
  newConnectionEach?: boolean;
  /** HTTPS (the server serves the bench's self-signed certificate; the client does not check it). */
  tls?: boolean;
}

export interface LoadRun {
  requestsPerSec: number;
  latencyMeanMs: number;
  latencyP50Ms: number;
  latencyP75Ms: number;
  latencyP90Ms: number;
  latencyP99Ms: number;
  /** Response bytes per second as the client counted them (headers included). */
  transferBytesPerSec: number;
  /** Server CPU (user + system) per request, in µs. */
  serverCpuUsPerReq: number;
  /** Share of one core the client used: over 0.9, the run is client-bound. */
  clientCpuShare: number;
  /** Connections the server actually held open (established, at the busiest poll). */
  openConnections: number;
  /** Mean latency ÷ (connections ÷ req/s): near 1 when the numbers are consistent (Little's law). */
  littleRatio: number;
  errors: number;
}

const TICKS_PER_SEC = 100; // USER_HZ on Linux

export const hasCommand = (name: string): boolean => spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;

/** Pins to one core when taskset exists and there are at least two. */
function pinned(core: number, argv: string[]): string[] {
  return hasCommand('taskset') && availableParallelism() >= 2 ? ['taskset', '-c', String(core), ...argv] : argv;
}

function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime, stime
  } catch {
    return NaN;
  }
}

/** Peak resident set size in bytes. */
export function peakRss(pid: number): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

function parseDuration(text: string): number {
  const m = /([\d.]+)(us|ms|s|m)/.exec(text);
  if (!m) return NaN;
  const value = Number(m[1]);
  return m[2] === 'us' ? value / 1000 : m[2] === 'ms' ? value : m[2] === 's' ? value * 1000 : value * 60_000;
}

const postType = (spec: LoadSpec) => spec.postType ?? 'application/octet-stream';

/** `text` as a Lua string literal: printable ASCII only, whose JSON escapes (`\"`, `\\`) are Lua's too. */
function luaString(text: string): string {
  if (!/^[\x20-\x7e]*$/.test(text)) throw new Error('a POST body or type for wrk must be printable ASCII');
  return JSON.stringify(text);
}

function luaScript(spec: LoadSpec): string | null {
  const lines: string[] = [];
  if (spec.postBody !== undefined) {
    lines.push(
      'wrk.method = "POST"',
      `wrk.body = ${luaString(spec.postBody)}`,
      `wrk.headers["Content-Type"] = ${luaString(postType(spec))}`,
    );
  }
  if (spec.pipeline > 1) {
    lines.push(
      'init = function(args)',
      '  local r = {}',
      `  for i = 1, ${spec.pipeline} do r[i] = wrk.format(nil, "${spec.path}") end`,
      '  req = table.concat(r)',
      'end',
      'request = function() return req end',
    );
  }
  return lines.length ? lines.join('\n') + '\n' : null;
}

/** A port free on 127.0.0.1 right now, for a server process to listen on. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** A started server process. */
export class ServerProcess {
  private constructor(
    readonly child: ChildProcess,
    private readonly tmp: string,
  ) {}

  static async start(target: LoadTarget): Promise<ServerProcess> {
    const [cmd, ...args] = pinned(0, target.command);
    // The server's temp directory (TMPDIR) is a folder of its own that stop() removes: a process
    // ended by SIGKILL cleans up nothing itself (the hono app writes its static files there).
    const tmp = temporaryFolder('wirespeed-server-');
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, TMPDIR: tmp } });
    const server = new ServerProcess(child, tmp);
    const lines = createInterface({ input: child.stdout! });
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${target.command.join(' ')} did not get ready in 30 s`)), 30_000);
        child.once('exit', (code) => {
          // (Left armed, the timer held the process 30 s after a server that failed to start.)
          clearTimeout(timer);
          reject(new Error(`${target.command.join(' ')} exited with ${code}`));
        });
        lines.on('line', (line) => {
          if (line.trim() !== 'ready') return;
          clearTimeout(timer);
          resolve();
        });
      });
    } catch (error) {
      await server.stop();
      throw error;
    }
    return server;
  }

  get pid(): number {
    return this.child.pid!;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGKILL');
      await exited;
    }
    removeFolder(this.tmp);
  }
}

function autocannonCli(): string | null {
  try {
    return createRequire(import.meta.url).resolve('autocannon/autocannon.js');
  } catch {
    return null;
  }
}

/** The load generator: wrk where it is installed, else autocannon (npm) if present, else none. */
export function loadClient(): 'wrk' | 'autocannon' | null {
  return hasCommand('wrk') ? 'wrk' : autocannonCli() ? 'autocannon' : null;
}

/** One load run against a running server, with `client`. */
export function runLoad(client: 'wrk' | 'autocannon', server: ServerProcess, port: number, spec: LoadSpec): Promise<LoadRun> {
  return client === 'wrk' ? runWrk(server, port, spec) : runAutocannon(server, port, spec);
}

interface ClientRun {
  out: string;
  wallSec: number;
  /** The client's CPU seconds, and the server's during the run. */
  clientCpuSec: number;
  serverCpuSec: number;
  /** The most established connections the server held at once during the run (NaN: no /proc). */
  openConnections: number;
}

/** Inodes of the TCP sockets in state ESTABLISHED (01), from /proc/net/tcp and tcp6. */
function establishedInodes(): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === '01') inodes.add(fields[9]);
    }
  }
  return inodes;
}

/** The established TCP connections a process holds (its socket fds matched to /proc/net/tcp), or NaN without /proc. */
function openConnections(pid: number): number {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return NaN;
  }
  const established = establishedInodes();
  let count = 0;
  for (const fd of fds) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode && established.has(inode)) count++;
    } catch {
      // closed while we looked
    }
  }
  return count;
}

/** The URL a load client requests: the spec's path on the server's port, over TLS if it says so. */
function targetUrl(port: number, spec: { path: string; tls?: boolean }): string {
  return `${spec.tls ? 'https' : 'http'}://127.0.0.1:${port}${spec.path}`;
}

/** How often the client's CPU time is read while it runs. */
const CPU_POLL_MS = 100;
/**
 * The server's open connections are counted every this many CPU readings (each second), and in
 * the first second with every reading until all the client opens were seen at once (a busy
 * server may take its first second to accept them all: a one-second run's only sample came too
 * early).
 */
const CONNECTION_POLL_EVERY = 10;

/**
 * Runs a load client pinned to core 1, reading its CPU time while it runs (a finished process has
 * no /proc entry). `connections`: how many the client opens.
 */
async function runClient(server: ServerProcess, argv: string[], connections: number): Promise<ClientRun> {
  const [cmd, ...args] = pinned(1, argv);
  const cpuBefore = cpuTicks(server.pid);
  let connectionsMost = openConnections(server.pid);
  const started = performance.now();
  const client = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let clientTicks = 0;
  let polls = 0;
  const poll = setInterval(() => {
    const ticks = cpuTicks(client.pid!);
    if (Number.isFinite(ticks)) clientTicks = ticks;
    // Reading the TCP table is costly once it holds the closed connections of a run without
    // keep-alive (64 ms for 49k in TIME_WAIT): after the first second, only each second.
    const firstSecond = polls < CONNECTION_POLL_EVERY;
    if ((firstSecond && connectionsMost < connections) || polls++ % CONNECTION_POLL_EVERY === 0)
      connectionsMost = Math.max(connectionsMost, openConnections(server.pid));
  }, CPU_POLL_MS);
  let out = '';
  client.stdout!.on('data', (d: Buffer) => {
    out += d;
    // A client prints while it runs (h2load: "Main benchmark duration is started"), when all its
    // connections are open: a sample then does not depend on the poll timer getting the CPU.
    connectionsMost = Math.max(connectionsMost, openConnections(server.pid));
  });
  const code = await new Promise<number | null>((resolve) => client.once('exit', resolve));
  clearInterval(poll);
  if (code !== 0) throw new Error(`${argv[0]} failed (${code}): ${out}`);
  return {
    out,
    wallSec: (performance.now() - started) / 1000,
    clientCpuSec: clientTicks / TICKS_PER_SEC,
    serverCpuSec: (cpuTicks(server.pid) - cpuBefore) / TICKS_PER_SEC,
    openConnections: connectionsMost,
  };
}

type ClientNumbers = Pick<
  LoadRun,
  'requestsPerSec' | 'latencyMeanMs' | 'latencyP50Ms' | 'latencyP75Ms' | 'latencyP90Ms' | 'latencyP99Ms' | 'transferBytesPerSec' | 'errors'
> & { requests: number };

function loadRun(spec: LoadSpec, run: ClientRun, { requests, ...r }: ClientNumbers): LoadRun {
  return {
    ...r,
    serverCpuUsPerReq: requests ? (run.serverCpuSec * 1e6) / requests : NaN,
    openConnections: run.openConnections,
    clientCpuShare: run.clientCpuSec / Math.max(run.wallSec, spec.durationSec),
    // With pipelining, each connection has `pipeline` requests in flight.
    littleRatio: r.latencyMeanMs / (((spec.connections * spec.pipeline) / r.requestsPerSec) * 1000),
  };
}

/** "1.23MB" (wrk, h2load: binary units) in bytes. */
function parseBytes(text: string): number {
  const m = /([\d.]+)([KMG]?B)/.exec(text);
  if (!m) return NaN;
  return Number(m[1]) * ({ B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 } as Record<string, number>)[m[2]];
}

/**
 * A percentile of wrk's "Latency Distribution" block, in ms; NaN when wrk gives none. wrk prints
 * 0 when its percentile scan runs out: its correction for coordinated omission can add samples
 * below the smallest latency it saw, which the scan (from that smallest one up) never counts, so a
 * high percentile of a pipelined run came out 0 below a p50 of 75 µs. No request takes 0 µs.
 */
function wrkPercentile(distribution: string, p: number): number {
  const ms = parseDuration(new RegExp(`\\s${p}%\\s+(\\S+)`).exec(distribution)?.[1] ?? '');
  return ms > 0 ? ms : NaN;
}

/** One wrk run against a running server. */
export async function runWrk(server: ServerProcess, port: number, spec: LoadSpec): Promise<LoadRun> {
  const argv = (scriptFile?: string) => [
    'wrk',
    '-t1',
    `-c${spec.connections}`,
    `-d${spec.durationSec}s`,
    '--latency',
    ...(spec.newConnectionEach ? ['-H', 'Connection: close'] : []),
    ...(scriptFile ? ['-s', scriptFile] : []),
    targetUrl(port, spec),
  ];
  const script = luaScript(spec);
  const run =
    script === null
      ? await runClient(server, argv(), spec.connections)
      : await inTemporaryFolder('wirespeed-wrk-', (folder) => {
          const file = join(folder, 'script.lua');
          writeFileSync(file, script);
          return runClient(server, argv(file), spec.connections);
        });
  const out = run.out;
  // The percentiles are read from wrk's "Latency Distribution" block only.
  const distribution = out.slice(Math.max(0, out.indexOf('Latency Distribution')));
  const percentile = (p: number) => wrkPercentile(distribution, p);
  return loadRun(spec, run, {
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? 0),
    requestsPerSec: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    latencyMeanMs: parseDuration(/Latency\s+(\S+)/.exec(out)?.[1] ?? ''),
    latencyP50Ms: percentile(50),
    latencyP75Ms: percentile(75),
    latencyP90Ms: percentile(90),
    latencyP99Ms: percentile(99),
    transferBytesPerSec: parseBytes(/Transfer\/sec:\s+(\S+)/.exec(out)?.[1] ?? ''),
    errors:
      Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) +
      [...out.matchAll(/(?:connect|read|write|timeout) (\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0),
  });
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { mean: number; p50: number; p75: number; p90: number; p99: number };
  throughput: { average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

/** One autocannon run (its CLI in a Node child process, so it is pinned and measured like wrk). */
export async function runAutocannon(server: ServerProcess, port: number, spec: LoadSpec): Promise<LoadRun> {
  const cli = autocannonCli();
  if (!cli) throw new Error('autocannon is not installed');
  const body = spec.postBody === undefined ? [] : ['-m', 'POST', '-b', spec.postBody, '-H', `content-type=${postType(spec)}`];
  const argv = [
    process.execPath,
    cli,
    '--json',
    '-c',
    String(spec.connections),
    '-d',
    String(spec.durationSec),
    '-p',
    String(spec.pipeline),
    ...body,
    ...(spec.newConnectionEach ? ['-H', 'connection=close'] : []),
    targetUrl(port, spec),
  ];
  const run = await runClient(server, argv, spec.connections);
  const r = JSON.parse(run.out) as AutocannonResult;
  return loadRun(spec, run, {
    requests: r.requests.total,
    requestsPerSec: r.requests.average,
    latencyMeanMs: r.latency.mean,
    latencyP50Ms: r.latency.p50,
    latencyP75Ms: r.latency.p75,
    latencyP90Ms: r.latency.p90,
    latencyP99Ms: r.latency.p99,
    transferBytesPerSec: r.throughput.average,
    errors: r.errors + r.timeouts + r.non2xx,
  });
}

export interface H2LoadSpec {
  path: string;
  /** h2load -c: connections. */
  clients: number;
  /** h2load -m: concurrent streams per connection. */
  streams: number;
  /** h2load -n: requests in the run. */
  requests: number;
  /** Over TLS (ALPN h2) instead of h2c with prior knowledge. */
  tls?: boolean;
}

const h2loadArgv = (port: number, spec: H2LoadSpec, logFile: string) => [
  'h2load',
  '-n',
  String(spec.requests),
  '-c',
  String(spec.clients),
  '-m',
  String(spec.streams),
  '--log-file',
  logFile,
  targetUrl(port, spec),
];

/**
 * One h2load run (h2c with prior knowledge, or TLS) against a running server. h2load prints no
 * percentiles, so they come from its per-request log (`--log-file`: start, status, duration µs).
 */
export async function runH2load(server: ServerProcess, port: number, spec: H2LoadSpec): Promise<LoadRun> {
  const { run, log } = await inTemporaryFolder('wirespeed-h2load-', async (folder) => {
    const file = join(folder, 'requests.log');
    const run = await runClient(server, h2loadArgv(port, spec, file), spec.clients);
    return { run, log: readFileSync(file, 'utf8') };
  });
  const out = run.out;
  const finished = /finished in ([\d.]+(?:us|ms|s)), ([\d.]+) req\/s, (\S+)\/s/.exec(out);
  const counts = /requests: (\d+) total, \d+ started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout/.exec(out);
  const durations = log
    .split('\n')
    .filter(Boolean)
    .map((line) => Number(line.split('\t')[2]) / 1000)
    .sort((a, b) => a - b);
  const at = (q: number) => durations[Math.min(durations.length - 1, Math.floor(q * durations.length))] ?? NaN;
  const mean = durations.reduce((sum, d) => sum + d, 0) / durations.length;
  const requestsPerSec = Number(finished?.[2] ?? 0);
  const wallSec = finished ? parseDuration(finished[1]) / 1000 : run.wallSec;
  return loadRun({ path: spec.path, connections: spec.clients, pipeline: spec.streams, durationSec: wallSec }, run, {
    requests: Number(counts?.[3] ?? 0),
    requestsPerSec,
    latencyMeanMs: mean,
    latencyP50Ms: at(0.5),
    latencyP75Ms: at(0.75),
    latencyP90Ms: at(0.9),
    latencyP99Ms: at(0.99),
    transferBytesPerSec: finished ? parseBytes(finished[3]) : NaN,
    errors: Number(counts?.[4] ?? 0) + Number(counts?.[5] ?? 0) + Number(counts?.[6] ?? 0),
  });
}

export interface WebSocketLoadSpec {
  connections: number;
  /** Bytes per message. */
  size: number;
  kind: 'text' | 'binary';
  durationSec: number;
}

const wsLoadClient = join(dirname(fileURLToPath(import.meta.url)), '../peers/ws-load.js');

/** One WebSocket echo run (bench/peers/ws-load.ts, closed loop): a round trip counts as one request. */
export async function runWebSocketLoad(server: ServerProcess, port: number, spec: WebSocketLoadSpec): Promise<LoadRun> {
  const argv = [
    process.execPath,
    wsLoadClient,
    String(port),
    String(spec.connections),
    String(spec.size),
    spec.kind,
    String(spec.durationSec),
  ];
  const run = await runClient(server, argv, spec.connections);
  const result = JSON.parse(run.out.trim().split('\n').pop()!) as {
    roundTrips: number;
    seconds: number;
    mean: number;
    p50: number;
    p75: number;
    p90: number;
    p99: number;
    errors: number;
    bytes: number;
  };
  return loadRun({ path: '/ws', connections: spec.connections, pipeline: 1, durationSec: result.seconds }, run, {
    requests: result.roundTrips,
    requestsPerSec: result.roundTrips / result.seconds,
    latencyMeanMs: result.mean,
    latencyP50Ms: result.p50,
    latencyP75Ms: result.p75,
    latencyP90Ms: result.p90,
    latencyP99Ms: result.p99,
    transferBytesPerSec: result.bytes / result.seconds,
    errors: result.errors,
  });
}
