// A peer that completes the handshake and then sends frames of every type with random ids and
// random payloads (well-formed and not, of every shape), over bytes with JSON and MessagePack and
// as cloned values over a MessagePort. Whatever it sends, the channel fails with a coded IpcError
// or goes on, and a request and a stream this side has open always settle: no TypeError, no hang.
import { PassThrough } from 'node:stream';
import { MessageChannel } from 'node:worker_threads';
import { pack, Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import {
  encodeFrame,
  IpcChannel,
  IpcError,
  IpcFrameType,
  jsonCodec,
  PROTOCOL_VERSION,
  portTransport,
  streamTransport,
  type Codec,
} from '../../src/ipc/index.js';
import { msgpackCodec, msgpackrRecordsCodec } from '../../src/ipc/msgpack.js';

/** A records packer of the peer's own, whose shapes the channel never saw defined in order. */
const recordPacker = new Packr({ useRecords: true, sequential: true });
/** Channels per transport and codec (each gets 1 to 4 random frames). */
const ROUNDS = 250;
const TYPES = Object.values(IpcFrameType).filter((type) => type !== IpcFrameType.HELLO);
/** Ids the frames use: none, the open request's and stream's (1 and 2), one never used. */
const IDS = [0, 1, 2, 3, 99];
const ATOMS: unknown[] = [null, 0, -1, 1.5, 2 ** 40, 'm', 's', '', true, {}, [], { message: 'x' }, { message: 5 }, 'x'.repeat(100)];

/** A seeded generator of random values, so a failure replays. */
function randomSource(seed: number) {
  const below = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const value = (depth = 0): unknown => {
    const kind = below(4);
    if (depth > 2 || kind === 0 || kind === 3) return ATOMS[below(ATOMS.length)];
    if (kind === 1) return Array.from({ length: below(5) }, () => value(depth + 1));
    return { message: value(depth + 1), name: value(depth + 1), code: value(depth + 1) };
  };
  const bytes = () => Uint8Array.from({ length: below(12) }, () => below(256));
  return { below, value, bytes, pick: <T>(list: readonly T[]) => list[below(list.length)]! };
}

/** How a request or stream read ended: 'ok', an IpcError's code, or what else was thrown. */
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (error instanceof IpcError ? error.code : `not an IpcError: ${String(error)}`),
  );

/** Opens a request and a stream on `channel` (ids 1 and 2), lets `attack` run, then checks they settled. */
async function survive(channel: IpcChannel, attack: () => void, tally: Map<string, number>): Promise<void> {
  channel
    .handle('m', (x) => x)
    .handle('s', function* () {
      yield 1;
    });
  channel.on('m', () => {});
  await channel.ready;
  const request = outcome(channel.request('m', null, { timeout: Infinity }));
  const stream = outcome(channel.stream('s').getReader().read());
  attack();
  await new Promise((resolve) => setTimeout(resolve, 2));
  channel.close(); // what is still open now settles with ERR_CLOSED
  const hang = new Promise<string>((resolve) => setTimeout(() => resolve('hang'), 1000));
  for (const result of [await Promise.race([request, hang]), await Promise.race([stream, hang])])
    tally.set(result, (tally.get(result) ?? 0) + 1);
}

describe('IPC against a peer that sends random frames after its Hello', () => {
  it.each([
    ['JSON', () => jsonCodec, (value: unknown) => new TextEncoder().encode(JSON.stringify(value) ?? 'null')],
    ['MessagePack', () => msgpackCodec, (value: unknown) => pack(value)],
    // Records: the peer's plain MessagePack is valid input for them; a record of another shape is garbage.
    ['msgpackr records', msgpackrRecordsCodec, (value: unknown) => recordPacker.pack(value)],
  ] as const)('over bytes with %s: every outcome is an IpcError or an answer, and nothing hangs', async (name, makeCodec, encode) => {
    const random = randomSource(name.length);
    const tally = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++) {
      const [incoming, outgoing] = [new PassThrough(), new PassThrough()];
      outgoing.resume();
      const codec: Codec<unknown> = makeCodec(); // records keep state: one per channel
      const channel = new IpcChannel(streamTransport(incoming, outgoing), { codec });
      const hello = { version: PROTOCOL_VERSION, maxFrame: 1 << 20, codec: codec.name, maxConcurrent: 4 };
      incoming.write(encodeFrame(IpcFrameType.HELLO, 0, new TextEncoder().encode(JSON.stringify(hello))));
      await survive(
        channel,
        () => {
          for (let frames = 1 + random.below(4); frames > 0; frames--) {
            const payload = random.below(6) === 0 ? random.bytes() : encode(random.value());
            incoming.write(encodeFrame(random.pick(TYPES), random.pick(IDS), payload));
          }
        },
        tally,
      );
    }
    expect([...tally.keys()].filter((key) => !/^(ok|ERR_[A-Z_]+)$/.test(key))).toEqual([]);
    // The attack reached the checks, not only the close: corrupt frames and bad payloads were seen.
    expect(tally.get('ERR_CORRUPT_FRAME')).toBeGreaterThan(0);
    expect(tally.get('ERR_DECODE')).toBeGreaterThan(0);
  });

  it('as cloned values over a MessagePort: every outcome is an IpcError or an answer, and nothing hangs', async () => {
    const random = randomSource(7);
    const tally = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++) {
      const { port1, port2 } = new MessageChannel();
      const channel = new IpcChannel(portTransport(port1));
      const hello = { version: PROTOCOL_VERSION, maxFrame: 1 << 20, codec: 'structured-clone', maxConcurrent: 4 };
      port2.postMessage(encodeFrame(IpcFrameType.HELLO, 0, new TextEncoder().encode(JSON.stringify(hello))));
      await survive(
        channel,
        () => {
          for (let frames = 1 + random.below(4); frames > 0; frames--) {
            // Mostly [type, id, payload]; sometimes a message of another shape entirely.
            const message = random.below(8) === 0 ? random.value() : [random.pick(TYPES), random.pick(IDS), random.value()];
            port2.postMessage(message);
          }
        },
        tally,
      );
      port2.close();
    }
    expect([...tally.keys()].filter((key) => !/^(ok|ERR_[A-Z_]+)$/.test(key))).toEqual([]);
    expect(tally.get('ERR_CORRUPT_FRAME')).toBeGreaterThan(0);
  });
});
