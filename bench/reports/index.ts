// The reports `wirespeed report NAME` reproduces: which suites (and cases) it runs and the tables
// it prints. The dashboard's Reports view shows the same sections from any stored run.
import type { ResultFile } from '../harness/types.js';
import { ENGINE_RESPONSES } from '../peers/engine-inputs.js';
import {
  caseRows,
  heading,
  markdownTable,
  metricRows,
  suiteRows,
  type ChartValue,
  type GroupFilter,
  type ReportTable,
} from './markdown.js';

export interface ReportSection {
  heading: string;
  /**
   * The suites whose cases fill the table (the dashboard says when a run has none): one for most
   * sections; the protocol comparison reads HTTP/1.1 rows from `server` and HTTP/2 rows from `http2`.
   */
  suites: string[];
  table(file: ResultFile): ReportTable;
}

export interface ReportDefinition {
  title: string;
  suites: string[];
  /** Only these cases (a `--filter`), when the report needs a part of its suites. */
  filter?: string;
  sections: ReportSection[];
  render(file: ResultFile, resultPath: string): string;
}

function defineReport(title: string, suites: string[], sections: ReportSection[], filter?: string): ReportDefinition {
  return {
    title,
    suites,
    filter,
    sections,
    render: (file, path) =>
      [heading(title, file, path), ...sections.flatMap((s) => [`## ${s.heading}`, '', markdownTable(s.table(file))])].join('\n'),
  };
}

/** A section of medians and ratios of one suite (of the groups `only` keeps). */
const medians = (suite: string, text: string, only?: GroupFilter): ReportSection => ({
  heading: text,
  suites: [suite],
  table: (file) => suiteRows(file, suite, only),
});
/** A section of one metric of one suite. */
const metric = (
  suite: string,
  text: string,
  format: (m: Record<string, number>) => string | null,
  chart?: ChartValue,
  only?: GroupFilter,
): ReportSection => ({
  heading: text,
  suites: [suite],
  table: (file) => metricRows(file, suite, format, only, chart),
});
/** Charts one metric of the load cases. */
const chartOf = (key: string, unit: string): ChartValue => ({ unit, value: (c) => c.metrics?.[key] });

const startsWith = (prefix: string) => (group: string) => group.startsWith(prefix);
const bytesOf = (group: string) => new TextEncoder().encode(ENGINE_RESPONSES[group]?.body ?? '').length;
/** MB/s of response body written: the body's bytes over the median time. */
const throughput: ReportSection = {
  heading: 'Writing 1 KB and 10 KB responses: body MB/s',
  suites: ['engine'],
  table: (file) =>
    caseRows(
      file,
      'engine',
      (c) => `${((bytesOf(c.group) / c.stats.median) * 1000).toFixed(0)} MB/s`,
      (g) => g.endsWith('(MB/s)'),
      {
        unit: 'MB/s of body (higher is better)',
        value: (c) => (bytesOf(c.group) / c.stats.median) * 1000,
      },
    ),
};

const ms = (value: number | undefined) => (value === undefined ? '?' : value < 10 ? value.toFixed(2) : value.toFixed(1));
const thousands = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(1)}k` : value.toFixed(0));
const mib = (bytes: number | undefined) => (bytes === undefined ? '?' : (bytes / 2 ** 20).toFixed(1));

const rate = (m: Record<string, number>) =>
  m.requestsPerSec === undefined
    ? null
    : `${thousands(m.requestsPerSec)} req/s, ${mib(m.transferBytesPerSec)} MiB/s${m.clientBound ? ' (client-bound)' : ''}`;
const latency = (m: Record<string, number>) =>
  m.latencyP50Ms === undefined ? null : [m.latencyP50Ms, m.latencyP75Ms, m.latencyP90Ms, m.latencyP99Ms].map(ms).join(' / ');
const cost = (m: Record<string, number>) =>
  m.serverCpuUsPerReq === undefined ? null : `${m.serverCpuUsPerReq.toFixed(0)} µs, ${mib(m.peakRssBytes)} MiB`;
/** WebSocket echo: round trips/s (a load case's requestsPerSec) and the client's share of a core. */
const roundTrips = (m: Record<string, number>) =>
  m.requestsPerSec === undefined ? null : `${thousands(m.requestsPerSec)} round trips/s${m.clientBound ? ' (client-bound)' : ''}`;
const messageCost = (m: Record<string, number>) =>
  m.serverCpuUsPerReq === undefined ? null : `${m.serverCpuUsPerReq.toFixed(1)} µs, ${mib(m.peakRssBytes)} MiB`;

// The HTTP/1.1 vs HTTP/2 report: wirespeed and Node's servers, each protocol one at a time and loaded.
const H1_SEQUENTIAL = 'hello, 1 connection (sequential)';
const H1_CONCURRENT = 'hello text';
const H2_SEQUENTIAL = 'h2 hello, 1 connection x 1 stream (sequential)';
const H2_CONCURRENT = 'h2 hello, 10 connections x 10 streams';
const PROTOCOL_COLUMNS: [label: string, suite: string, impl: string][] = [
  ['node:http (HTTP/1.1)', 'server', 'node-http'],
  ['wirespeed (HTTP/1.1)', 'server', 'wirespeed-node'],
  ['node:http2 (HTTP/2)', 'http2', 'node-http2'],
  ['wirespeed (HTTP/2)', 'http2', 'wirespeed-node-h2'],
];
const escape = (text: string) => text.replace(/[()]/g, '\\$&');

function protocolTable(file: ResultFile): ReportTable {
  const find = (suite: string, group: string, impl: string) =>
    file.cases.find((c) => c.suite === suite && c.group === group && c.impl === impl)?.metrics;
  const row = (label: string, sequential: boolean, format: (m: Record<string, number>) => string) => ({
    group: label,
    cells: PROTOCOL_COLUMNS.map(([, suite, impl]) => {
      const group = suite === 'server' ? (sequential ? H1_SEQUENTIAL : H1_CONCURRENT) : sequential ? H2_SEQUENTIAL : H2_CONCURRENT;
      const m = find(suite, group, impl);
      return m ? format(m) : '—';
    }),
  });
  const inFlight = (m: Record<string, number>) => (m.connections ?? 1) * (m.streams ?? 1);
  const rows = [
    row('one client, one request at a time: latency p50 / p99 (ms)', true, (m) => `${ms(m.latencyP50Ms)} / ${ms(m.latencyP99Ms)}`),
    row(
      'concurrent, connections reused (h1: 50 connections; h2: 10 × 10 streams): latency p50 / p99 (ms)',
      false,
      (m) => `${ms(m.latencyP50Ms)} / ${ms(m.latencyP99Ms)}`,
    ),
    row('concurrent: req/s', false, (m) => thousands(m.requestsPerSec)),
    row('concurrent: server CPU per request (µs)', false, (m) => m.serverCpuUsPerReq.toFixed(0)),
    row(
      'concurrent: peak RSS (MiB) / per request in flight (KiB)',
      false,
      (m) => `${mib(m.peakRssBytes)} / ${(m.peakRssBytes / inFlight(m) / 1024).toFixed(0)}`,
    ),
  ];
  const hasAny = rows.some((r) => r.cells.some((c) => c !== '—'));
  return { corner: 'measure', impls: PROTOCOL_COLUMNS.map(([label]) => label), rows: hasAny ? rows : [] };
}

export const REPORTS: Record<string, ReportDefinition> = {
  engine: defineReport(
    "HTTP/1.1 engines: wirespeed vs node:http (llhttp) vs undici's llhttp-wasm vs http-parser-js",
    ['engine'],
    [
      medians('engine', 'Parse a request (method, URL and every field as strings)', startsWith('parse ')),
      medians(
        'engine',
        'Write a response (head and body, as the bytes the socket gets)',
        (g) => g.startsWith('write ') && !g.endsWith('(MB/s)'),
      ),
      throughput,
      medians('engine', 'Full cycle and header lookup', (g) => g.startsWith('full cycle') || g.startsWith('header lookup')),
      metric(
        'engine',
        'Bytes allocated per operation (heap growth, batches without a GC)',
        (m) => (m.heapBytesPerOp === undefined ? null : `${m.heapBytesPerOp.toFixed(0)} B`),
        chartOf('heapBytesPerOp', 'bytes per operation'),
      ),
    ],
  ),
  'h1-vs-h2': defineReport(
    'HTTP/1.1 vs HTTP/2',
    ['server', 'http2'],
    [
      {
        heading: 'One client at a time and many at once, over each protocol (wrk for HTTP/1.1, h2load for HTTP/2)',
        suites: ['server', 'http2'],
        table: protocolTable,
      },
    ],
    `/^(${[H1_SEQUENTIAL, H1_CONCURRENT, H2_SEQUENTIAL, H2_CONCURRENT].map(escape).join('|')}) \\/ (${PROTOCOL_COLUMNS.map(([, , impl]) => impl).join('|')})$/`,
  ),
  micro: defineReport(
    'Router, parser and IPC micro-benchmarks',
    ['router', 'parser', 'ipc'],
    [
      medians('router', 'Router: static lookups across 10…10,000 routes, 1–3 params, wildcards, methods, 404s, the GitHub API'),
      medians('parser', 'HTTP/1.1 request parsing (all strings made; "lazy": none)'),
      medians('ipc', 'IPC: encode/decode by size and codec, size scaling, frame overhead, round trips per transport'),
    ],
  ),
  websocket: defineReport(
    'WebSocket echo: wirespeed against ws, Deno and Bun',
    ['websocket'],
    [
      metric(
        'websocket',
        'Echo round trips per second (a closed loop per connection: send, wait for the echo)',
        roundTrips,
        chartOf('requestsPerSec', 'round trips/s (higher is better)'),
      ),
      metric(
        'websocket',
        'Latency of a round trip p50 / p75 / p90 / p99 (ms)',
        latency,
        chartOf('latencyP99Ms', 'p99 latency, ms (lower is better)'),
      ),
      metric(
        'websocket',
        'Server CPU per message echoed, peak RSS',
        messageCost,
        chartOf('serverCpuUsPerReq', 'server CPU µs per message (lower is better)'),
      ),
    ],
  ),
  servers: defineReport(
    'Server throughput and latency',
    ['server', 'http2'],
    [
      metric('server', 'HTTP/1.1 (wrk -t1, keep-alive): req/s and transfer/s', rate, chartOf('requestsPerSec', 'req/s (higher is better)')),
      metric(
        'server',
        'HTTP/1.1: latency p50 / p75 / p90 / p99 (ms)',
        latency,
        chartOf('latencyP99Ms', 'p99 latency, ms (lower is better)'),
      ),
      metric(
        'server',
        'HTTP/1.1: server CPU per request, peak RSS',
        cost,
        chartOf('serverCpuUsPerReq', 'server CPU µs per request (lower is better)'),
      ),
      metric('http2', 'HTTP/2 (h2load, h2c): req/s and transfer/s', rate, chartOf('requestsPerSec', 'req/s (higher is better)')),
      metric('http2', 'HTTP/2: latency p50 / p75 / p90 / p99 (ms)', latency, chartOf('latencyP99Ms', 'p99 latency, ms (lower is better)')),
      metric(
        'http2',
        'HTTP/2: server CPU per request, peak RSS',
        cost,
        chartOf('serverCpuUsPerReq', 'server CPU µs per request (lower is better)'),
      ),
    ],
  ),
};
