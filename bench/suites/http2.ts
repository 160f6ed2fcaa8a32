// Suite `http2`: HTTP/2 servers under h2load (h2c with prior knowledge, and over TLS), one at a time, each in
// its own process pinned apart from the client. Peers: Node's http2 server (nghttp2, baseline),
// Deno.serve; wirespeed on Node and on Deno, with the runtime's Response and with LightResponse.
// Cases as issue 5 measured them: `-n 50000 -c 10 -m 10` and `-n 50000 -c 1 -m 100`; and one
// request at a time, for the latency of a request (the HTTP/1.1 vs HTTP/2 report).
import { HpackDecoder, HpackEncoder } from '../../src/hpack/index.js';
import { ReceiveWindow, SendWindow } from '../../src/http2/flow-control.js';
import { encodeData, Flag, FrameReader, FrameType, parseFrame } from '../../src/http2/frame/index.js';
import { FrameWriter } from '../../src/server/http2/frame-writer.js';
import type { Transport } from '../../src/server/connection.js';
import { hasCommand, runH2load, type H2LoadSpec } from '../harness/load.js';
import { BROWSER_REQUEST, RESPONSE } from '../peers/hpack-inputs.js';
import type { BenchCase, LoadRuns, Suite } from '../harness/types.js';
import { measureServer } from './server.js';
import { denoServers, loadCase, nodeServer, type ServerImpl } from './server-processes.js';
import { noteLeftOut } from '../harness/peers.js';

function implementations(): ServerImpl[] {
  return [
    nodeServer('node-http2', { baseline: true }),
    nodeServer('wirespeed-node-h2'),
    nodeServer('wirespeed-node-runtime-h2'),
    ...denoServers('deno-serve', 'wirespeed-deno-h2', 'wirespeed-deno-runtime-h2'),
  ];
}

/** Over TLS (ALPN h2): each runtime's own server beside wirespeed, on the bench's certificate. */
function tlsImplementations(): ServerImpl[] {
  return [
    nodeServer('node-http2-tls', { baseline: true }),
    nodeServer('wirespeed-node-h2-tls'),
    ...denoServers('deno-serve-tls', 'wirespeed-deno-h2-tls'),
  ];
}

const TLS_GROUPS: { group: string; spec: Omit<H2LoadSpec, 'requests'> }[] = [
  { group: 'h2 hello over TLS, 10 connections x 10 streams', spec: { path: '/hello', clients: 10, streams: 10, tls: true } },
];

const GROUPS: { group: string; spec: Omit<H2LoadSpec, 'requests'> }[] = [
  { group: 'h2 hello, 10 connections x 10 streams', spec: { path: '/hello', clients: 10, streams: 10 } },
  { group: 'h2 hello, 1 connection x 100 streams', spec: { path: '/hello', clients: 1, streams: 100 } },
  { group: 'h2 JSON, 10 connections x 10 streams', spec: { path: '/json', clients: 10, streams: 10 } },
  { group: 'h2 hello, 1 connection x 1 stream (sequential)', spec: { path: '/hello', clients: 1, streams: 1 } },
];

/** 50,000 requests for a full run (the count; a tenth of it one at a time); fewer for --quick. */
const requestsFor = (durationSec: number, concurrency: number) =>
  Math.round((durationSec >= 3 ? 50_000 : Math.max(2_000, durationSec * 10_000)) / (concurrency === 1 ? 10 : 1));

function measure(impl: ServerImpl, spec: Omit<H2LoadSpec, 'requests'>, runs: LoadRuns) {
  return measureServer(
    impl.command,
    runs,
    (server, port, durationSec) => runH2load(server, port, { ...spec, requests: requestsFor(durationSec, spec.clients * spec.streams) }),
    {
      connections: spec.clients,
      streams: spec.streams,
    },
  );
}

/** The per-request work of the HTTP/2 connection, one piece at a time (any runtime). */
function microCases(): BenchCase[] {
  const add = (group: string, setup: () => () => unknown): BenchCase => ({ suite: 'http2', group, impl: 'wirespeed', setup });
  const data = encodeData(1, new Uint8Array(1024), true);
  return [
    add('DATA frame (1 KB) read and parse', () => {
      const reader = new FrameReader(16_384, { preface: false });
      return () => {
        const [raw] = reader.push(data);
        return parseFrame(raw.header, raw.payload).type;
      };
    }),
    add('flow control: receive, release, send bookkeeping per 1 KB DATA', () => {
      const receive = new ReceiveWindow(1, 65_535);
      const send = new SendWindow(1, 65_535);
      return () => {
        receive.receive(1024);
        const increment = receive.release(1024);
        send.consume(1024);
        if (send.available < 1024) send.increase(65_535 - send.size);
        return increment;
      };
    }),
    add('HPACK per request: decode a browser request (warm table), encode a response', () => {
      const client = new HpackEncoder();
      const decoder = new HpackDecoder();
      const encoder = new HpackEncoder();
      decoder.decode(client.encode(BROWSER_REQUEST));
      const block = client.encode(BROWSER_REQUEST);
      return () => decoder.decode(block).length + encoder.encode(RESPONSE).length;
    }),
    add('HEADERS + DATA of a response gathered into one write', () => {
      const block = new HpackEncoder().encode(RESPONSE);
      const body = new TextEncoder().encode('Hello World!');
      let written = 0;
      // A transport that only counts: what is measured is the gathering, not a socket.
      const writer = new FrameWriter({
        write: (bytes: Uint8Array | string) => ((written += bytes.length), true),
        needsDrain: false,
      } as unknown as Transport);
      return () => {
        writer.frame(FrameType.HEADERS, Flag.END_HEADERS, 1, block);
        writer.frame(FrameType.DATA, Flag.END_STREAM, 1, body);
        writer.flush();
        return written;
      };
    }),
  ];
}

export const http2Suite: Suite = {
  name: 'http2',
  description:
    'HTTP/2: frame, flow-control and HPACK work per request; servers under h2load, h2c and TLS (req/s, latency, server CPU per request, peak RSS)',
  async cases(runtime) {
    const cases = microCases();
    if (runtime !== 'node') return cases;
    if (!hasCommand('h2load')) {
      noteLeftOut('h2load is not installed (apt install nghttp2-client)', 'the http2 server cases');
      return cases;
    }
    for (const { group, spec } of GROUPS) {
      for (const impl of implementations()) cases.push(loadCase('http2', group, impl, (runs) => measure(impl, spec, runs)));
    }
    for (const { group, spec } of TLS_GROUPS) {
      for (const impl of tlsImplementations()) cases.push(loadCase('http2', group, impl, (runs) => measure(impl, spec, runs)));
    }
    return cases;
  },
};
