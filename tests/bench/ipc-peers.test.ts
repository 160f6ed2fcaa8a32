// The ipc suite's peers do what their names say: every RPC peer echoes the message back (one at a
// time and 64 in flight), every raw peer completes its round trip, and every stream peer delivers
// all its items. A peer that hung or answered wrong would make the suite's numbers meaningless.
// From dist, as the suite runs them: the Worker, ring and child peers load the built modules.
import { afterEach, describe, expect, it } from 'vitest';
import * as channel from '../../dist/bench/peers/ipc-message-channel.js';
import * as transports from '../../dist/bench/peers/ipc-transports.js';
import type { MakeRoundTrip, MakeStream, RoundTrip } from '../../dist/bench/peers/ipc-message-channel.js';

/** A message with what a line-based framing must escape: a newline, and non-ASCII text. */
const MESSAGE = { type: 'health', ok: true, text: 'line one\nline two ✓ 😀', n: [1, 2, 3] };
const IN_FLIGHT = 64;

const rpcPeers: [string, MakeRoundTrip][] = [
  ['IpcChannel over a MessageChannel', channel.messageChannelFramed],
  ['IpcChannel over a MessageChannel, JSON bytes', channel.messageChannelFramedJson],
  ['birpc over a MessageChannel', channel.messageChannelBirpc],
  ['comlink over a MessageChannel', channel.messageChannelComlink],
  ['IpcChannel over a Unix socket', transports.socketFramed],
  ['birpc over a Unix socket (JSON lines)', transports.socketBirpc],
  ['IpcChannel to a Worker', transports.workerFramed],
  ['birpc to a Worker', transports.workerBirpc],
  ['comlink to a Worker', transports.workerComlink],
  ['IpcChannel over a shared ring', transports.ringFramed],
  ['IpcChannel to a child process', transports.childFramed],
  ['IpcChannel over a forked child’s process channel', transports.forkFramed],
  ['IpcChannel over a forked child’s process channel, values cloned', transports.forkFramedValues],
  ['birpc over a forked child’s process channel', transports.forkBirpc],
  ['IpcChannel over a WebSocket', transports.webSocketFramed],
  ['birpc over a WebSocket', transports.webSocketBirpc],
];
const rawPeers: [string, MakeRoundTrip][] = [
  ['raw MessageChannel', channel.messageChannelRaw],
  ['raw Unix socket', transports.socketRaw],
  ['raw Worker port', transports.workerRaw],
  ['raw shared ring', transports.ringRaw],
  ['raw child stdio', transports.childRaw],
  ['raw process channel', transports.forkRaw],
  ['raw WebSocket', transports.webSocketRaw],
];
const streamPeers: [string, MakeStream][] = [
  ['IpcChannel stream over a MessageChannel', channel.messageChannelStream],
  ['raw MessageChannel stream', channel.messageChannelStreamRaw],
  ['raw MessageChannel into a ReadableStream', channel.messageChannelStreamRawReadable],
  ['IpcChannel stream over a Unix socket', transports.socketStream],
  ['raw Unix socket stream', transports.socketStreamRaw],
];

let open: RoundTrip | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe('ipc suite peers', () => {
  it.each(rpcPeers)('%s echoes the message, one at a time and 64 in flight', async (_name, make) => {
    for (const inFlight of [1, IN_FLIGHT]) {
      open = await make(MESSAGE, inFlight);
      for (let run = 0; run < 3; run++) {
        const back = await open.run();
        expect(back).toEqual(inFlight === 1 ? MESSAGE : Array.from({ length: inFlight }, () => MESSAGE));
      }
      await open.close();
      open = undefined;
    }
  });

  it.each(rawPeers)('%s completes its round trips, one at a time and 64 in flight', async (_name, make) => {
    for (const inFlight of [1, IN_FLIGHT]) {
      open = await make(MESSAGE, inFlight);
      for (let run = 0; run < 3; run++) await open.run();
      await open.close();
      open = undefined;
    }
  });

  it.each(streamPeers)('%s delivers every item, strings and bytes', async (name, make) => {
    for (const item of ['x'.repeat(1024), new Uint8Array(1024).fill(0x78)]) {
      open = await make(item, 100);
      for (let run = 0; run < 3; run++) {
        const items = await open.run();
        if (!name.startsWith('raw ') || name.endsWith('ReadableStream')) expect(items).toBe(100); // the others count bytes or posts themselves
      }
      await open.close();
      open = undefined;
    }
  });
});
