// Suite `ipc`: message codecs (JSON vs MessagePack through msgpackr), frame cost, and real round
// trips over each transport, framed channel against the raw transport carrying the same bytes.
import { items, LARGE, MEDIUM, SMALL } from '../peers/ipc-messages.js';
import { messageChannelFramed, messageChannelRaw, type RoundTrip } from '../peers/ipc-message-channel.js';
import { encodeFrame, FrameDecoder, IpcFrameType, jsonCodec, type Codec } from '../../src/ipc/index.js';
import { optionalPeer } from '../harness/peers.js';
import type { BenchCase, Suite } from '../harness/types.js';
import { loadNodePeers } from './node-peers.js';

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

    type Make = (message: unknown) => Promise<RoundTrip>;
    const trips: [string, Make, Make][] = [['MessageChannel (same thread)', messageChannelFramed, messageChannelRaw]];
    if (runtime !== 'browser') {
      const transports = await loadNodePeers<typeof import('../peers/ipc-transports.js')>('../peers/ipc-transports.js');
      trips.push(
        ['Unix socket', transports.socketFramed, transports.socketRaw],
        ['Worker MessagePort', transports.workerFramed, transports.workerRaw],
        ['Worker SharedArrayBuffer ring', transports.ringFramed, transports.ringRaw],
        ['child process stdio', transports.childFramed, transports.childRaw],
      );
    }
    for (const [transport, framed, raw] of trips) {
      for (const [impl, make, baseline] of [
        ['raw transport, same bytes', raw, true],
        ['IpcChannel request', framed, false],
      ] as const) {
        let trip: RoundTrip | undefined;
        add(
          `round trip (small) over ${transport}`,
          impl,
          async () => {
            trip = await make(SMALL);
            return () => trip!.run();
          },
          baseline,
          async () => trip?.close(),
        );
      }
    }
    return cases;
  },
};
