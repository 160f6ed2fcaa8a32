// Suite `ipc`: message codecs (JSON vs MessagePack through msgpackr), frame cost, and real round
// trips over each transport, framed channel against the raw transport carrying the same bytes.
import { items, LARGE, MEDIUM, SMALL } from '../peers/ipc-messages.js';
import {
  iterate,
  messageChannelBirpc,
  messageChannelBufferComlink,
  messageChannelBufferFramed,
  messageChannelBufferRaw,
  messageChannelComlink,
  messageChannelFramed,
  messageChannelFramedJson,
  messageChannelRaw,
  messageChannelStream,
  messageChannelStreamRaw,
  messageChannelStreamRawReadable,
  type MakeBufferTrip,
  type MakeRoundTrip,
  type MakeStream,
  type RoundTrip,
} from '../peers/ipc-message-channel.js';
import { encodeFrame, FrameDecoder, IpcFrameType, jsonCodec, type Codec } from '../../src/ipc/index.js';
import { optionalPeer } from '../harness/peers.js';
import type { BenchCase, Suite } from '../harness/types.js';
import { loadNodePeers } from './node-peers.js';

/** The transports that carry values: their raw case posts the channel's message, cloned. */
const PORTS = new Set(['MessageChannel (same thread)', 'Worker MessagePort']);

/** Items per measured stream, and the items: strings of 16 B and 1 KB, and 1 KB of bytes (a file's chunks, say). */
const STREAM_LENGTH = 1000;
const STREAM_ITEMS: [string, string | Uint8Array][] = [
  ['16 B', 'x'.repeat(16)],
  ['1 KB', 'x'.repeat(1024)],
  ['1 KB of bytes', new Uint8Array(1024).fill(0x78)],
];

/** A buffer sent to a worker and back (an image of 1024 x 1024 RGBA), cloned each way or moved. */
const BUFFER_BYTES = 4 * 1024 * 1024;

/** One request at a time (latency), and many out at once (throughput; time per batch). */
const ROUND_TRIPS_IN_FLIGHT = [1, 64];

export const ipcSuite: Suite = {
  name: 'ipc',
  description: 'IPC codecs, framing and round trips',
  async cases(runtime): Promise<BenchCase[]> {
    const cases: BenchCase[] = [];
    const add = (group: string, impl: string, setup: BenchCase['setup'], baseline = false, teardown?: () => Promise<void>) =>
      cases.push({ suite: 'ipc', group, impl, baseline, setup, teardown });

    // MessagePack is wirespeed/ipc/msgpack, over msgpackr (an optional peer dependency).
    const msgpack = await optionalPeer('MessagePack (msgpackr)', () => import('../../src/ipc/msgpack.js'));
    const codecs: [string, Codec, boolean][] = [['JSON', jsonCodec, true]];
    if (msgpack) codecs.push(['MessagePack (msgpackr)', msgpack.msgpackCodec, false]);
    for (const [size, message] of [
      ['small', SMALL],
      ['medium', MEDIUM],
      ['large (100 items)', LARGE],
    ] as const) {
      for (const [name, codec, baseline] of codecs) {
        add(`encode ${size}`, name, () => () => codec.encode(message).length, baseline);
        const bytes = codec.encode(message);
        add(`decode ${size}`, name, () => () => codec.decode(bytes), baseline);
      }
      if (!msgpack) continue;
      const { msgpackrRecordsCodec } = msgpack;
      // msgpackr records in a channel's steady state: the shapes were sent once already.
      add(`encode ${size}`, 'msgpackr records (ordered stream)', () => {
        const codec = msgpackrRecordsCodec();
        codec.encode(message);
        return () => codec.encode(message).length;
      });
      add(`decode ${size}`, 'msgpackr records (ordered stream)', () => {
        const sender = msgpackrRecordsCodec();
        const receiver = msgpackrRecordsCodec();
        receiver.decode(sender.encode(message));
        const steady = sender.encode(message);
        return () => receiver.decode(steady);
      });
    }
    for (const n of [10, 100, 1000, 10000]) {
      const message = { items: items(n) };
      for (const [name, codec, baseline] of codecs) {
        add(`encode + decode ${n} items`, name, () => () => codec.decode(codec.encode(message)), baseline);
      }
    }
    const payload = jsonCodec.encode(SMALL);
    add('frame: encode header + copy', 'wirespeed', () => () => encodeFrame(IpcFrameType.REQUEST, 7, payload).length);
    const frame = encodeFrame(IpcFrameType.REQUEST, 7, payload);
    add('frame: parse', 'wirespeed', () => {
      const decoder = new FrameDecoder();
      return () => decoder.push(frame).length;
    });

    // Per transport: the raw transport carrying what the channel's request carries (baseline: the
    // same bytes on byte pipes; on ports the same value, cloned, as IpcChannel's default codec
    // there sends it), IpcChannel, and where they run the RPC libraries JS users reach for:
    // birpc (on ports, and on a socket with JSON lines, as its users frame it) and comlink (ports).
    const trips: [string, [string, MakeRoundTrip][]][] = [
      [
        'MessageChannel (same thread)',
        [
          ['IpcChannel request', messageChannelFramed],
          ['IpcChannel request (JSON bytes)', messageChannelFramedJson],
          ['birpc', messageChannelBirpc],
          ['comlink', messageChannelComlink],
        ],
      ],
    ];
    const raws = new Map<string, MakeRoundTrip>([['MessageChannel (same thread)', messageChannelRaw]]);
    if (runtime !== 'browser') {
      const t = await loadNodePeers<typeof import('../peers/ipc-transports.js')>('../peers/ipc-transports.js');
      trips.push(
        [
          'Unix socket',
          [
            ['IpcChannel request', t.socketFramed],
            ['birpc (JSON lines)', t.socketBirpc],
          ],
        ],
        [
          'Worker MessagePort',
          [
            ['IpcChannel request', t.workerFramed],
            ['IpcChannel request (JSON bytes)', t.workerFramedJson],
            ['birpc', t.workerBirpc],
            ['comlink', t.workerComlink],
          ],
        ],
        ['Worker SharedArrayBuffer ring', [['IpcChannel request', t.ringFramed]]],
        ['child process stdio', [['IpcChannel request', t.childFramed]]],
        [
          'child process IPC channel (fork)',
          [
            ['IpcChannel request', t.forkFramed],
            ['IpcChannel request (advanced serialization, values cloned)', t.forkFramedValues],
            ['birpc', t.forkBirpc],
          ],
        ],
        [
          'WebSocket (wirespeed server, ws client)',
          [
            ['IpcChannel request', t.webSocketFramed],
            ['birpc (JSON messages)', t.webSocketBirpc],
          ],
        ],
      );
      raws.set('Unix socket', t.socketRaw).set('Worker MessagePort', t.workerRaw);
      raws.set('Worker SharedArrayBuffer ring', t.ringRaw).set('child process stdio', t.childRaw);
      raws.set('child process IPC channel (fork)', t.forkRaw).set('WebSocket (wirespeed server, ws client)', t.webSocketRaw);
    }
    for (const [transport, impls] of trips) {
      for (const inFlight of ROUND_TRIPS_IN_FLIGHT) {
        const group =
          inFlight === 1 ? `round trip (small) over ${transport}` : `${inFlight} round trips in flight (small) over ${transport}`;
        const raw = PORTS.has(transport) ? 'raw port, same message' : 'raw transport, same bytes';
        for (const [impl, make, baseline] of [[raw, raws.get(transport)!, true] as const, ...impls]) {
          let trip: RoundTrip | undefined;
          add(
            group,
            impl,
            async () => {
              trip = await make(SMALL, inFlight);
              return () => trip!.run();
            },
            baseline === true,
            async () => trip?.close(),
          );
        }
      }
    }
    // A large buffer there and back over a port: cloned (the default), or moved with `transfer` (as
    // comlink's `Comlink.transfer`), against the raw port doing the same.
    const bufferTrips: [string, MakeBufferTrip][] = [
      ['raw port', messageChannelBufferRaw],
      ['IpcChannel request', messageChannelBufferFramed],
      ['comlink', messageChannelBufferComlink],
    ];
    for (const moved of [false, true]) {
      for (const [impl, make] of bufferTrips) {
        let trip: RoundTrip | undefined;
        add(
          'round trip of 4 MiB of bytes over MessageChannel (same thread)',
          `${impl}, ${moved ? 'moved (transfer)' : 'cloned'}`,
          async () => {
            trip = await make(BUFFER_BYTES, moved);
            return () => trip!.run();
          },
          impl === 'raw port' && !moved,
          async () => trip?.close(),
        );
      }
    }
    // Streams: items/s of `stream` with the default credit window against the raw transport
    // carrying the same DATA messages (bytes on the socket) with no flow control at all. Over the
    // socket also with MessagePack (strings and bytes go as they are with either codec, so the
    // two differ only in the frames around them).
    const streams: [string, MakeStream, MakeStream, MakeStream?][] = [
      ['MessageChannel (same thread)', messageChannelStream, messageChannelStreamRaw],
    ];
    if (runtime !== 'browser') {
      const t = await loadNodePeers<typeof import('../peers/ipc-transports.js')>('../peers/ipc-transports.js');
      streams.push(['Unix socket', t.socketStream, t.socketStreamRaw, msgpack ? t.socketStreamWith(msgpack.msgpackCodec) : undefined]);
    }
    for (const [transport, framed, raw, framedMsgpack] of streams) {
      for (const [size, item] of STREAM_ITEMS) {
        const impls: [string, MakeStream, boolean][] = [
          [PORTS.has(transport) ? 'raw port, same messages' : 'raw transport, same bytes', raw, true],
          ['IpcChannel stream', framed, false],
          ['IpcChannel stream, for await', (item, count) => framed(item, count, iterate), false],
        ];
        if (framedMsgpack) impls.push(['IpcChannel stream, MessagePack', framedMsgpack, false]);
        // What a ReadableStream costs by itself: the floor of the API (over the port; a socket's
        // raw bytes would need framing to be items).
        if (PORTS.has(transport)) impls.push(['raw port into a ReadableStream', messageChannelStreamRawReadable, false]);
        for (const [impl, make, baseline] of impls) {
          let trip: RoundTrip | undefined;
          add(
            `stream ${STREAM_LENGTH} items of ${size} over ${transport}`,
            impl,
            async () => {
              trip = await make(item, STREAM_LENGTH);
              return () => trip!.run();
            },
            baseline,
            async () => trip?.close(),
          );
        }
      }
    }
    return cases;
  },
};
