// How much a channel runs at once for the other side: its `maxConcurrent` (the caller queues past
// it, a peer that does not is cut), and answers held to the pipe while the other side reads none.
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { socketPair } from '../../bench/peers/ipc-transports.js';
import { FrameDecoder, IpcChannel, IpcFrameType, portTransport, streamTransport, type ChannelOptions } from '../../src/ipc/index.js';
import { helloFrame, requestFrame } from './raw-peer.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A channel pair: `a` calls, `b` serves with `options`. */
const transports: [string, (options: ChannelOptions) => Promise<{ a: IpcChannel; b: IpcChannel; close(): void }>][] = [
  [
    'a Unix domain socket',
    async (options) => {
      const pair = await socketPair();
      const a = new IpcChannel(streamTransport(pair.client));
      const b = new IpcChannel(streamTransport(pair.server), options);
      return { a, b, close: () => (a.close(), pair.close()) };
    },
  ],
  [
    'a MessageChannel, values cloned',
    async (options) => {
      const { port1, port2 } = new MessageChannel();
      const a = new IpcChannel(portTransport(port1));
      const b = new IpcChannel(portTransport(port2), options);
      return { a, b, close: () => (a.close(), b.close()) };
    },
  ],
];

/** A handler that waits to be released, counting how many wait at once. */
function gate() {
  const waiting: (() => void)[] = [];
  const state = { running: 0, most: 0, calls: [] as unknown[] };
  const handler = (params: unknown) => {
    state.calls.push(params);
    state.most = Math.max(state.most, ++state.running);
    return new Promise((resolve) =>
      waiting.push(() => {
        state.running--;
        resolve(params);
      }),
    );
  };
  /** Releases the oldest waiting call, once one waits. */
  const release = async () => {
    await expect.poll(() => waiting.length).toBeGreaterThan(0);
    waiting.shift()!();
  };
  return { handler, release, state };
}

describe.each(transports)('IPC maxConcurrent over %s', (_, connect) => {
  it('the caller sends at most the other side’s maxConcurrent and queues the rest, in order', async () => {
    const { a, b, close } = await connect({ maxConcurrent: 2 });
    const { handler, release, state } = gate();
    b.handle('wait', handler);
    const answers = Promise.all(Array.from({ length: 6 }, (_, i) => a.request('wait', i)));
    await sleep(30);
    expect(state.calls).toEqual([0, 1]); // the other four wait on this side
    for (let i = 0; i < 6; i++) await release();
    expect(await answers).toEqual([0, 1, 2, 3, 4, 5]);
    expect(state.calls).toEqual([0, 1, 2, 3, 4, 5]);
    expect(state.most).toBe(2);
    close();
  });

  it('a stream holds a slot until it ends; a request cancelled or timed out frees its slot, one waiting for a slot never goes', async () => {
    const { a, b, close } = await connect({ maxConcurrent: 1 });
    const { handler, release, state } = gate();
    b.handle('wait', handler);
    let second!: () => void;
    b.handle('two', async function* () {
      yield 1;
      await new Promise<void>((resolve) => (second = resolve));
      yield 2;
    });
    const reader = a.stream('two').getReader();
    expect(await reader.read()).toEqual({ value: 1, done: false });
    // The stream has the only slot: this request waits here, and times out without being sent.
    await expect(a.request('wait', 'never', { timeout: 30 })).rejects.toMatchObject({ code: 'ERR_TIMEOUT' });
    const controller = new AbortController();
    const aborted = a.request('wait', 'aborted', { signal: controller.signal });
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ code: 'ERR_CANCELLED' });
    const unread = a.stream('two'); // waits for the slot too, and is cancelled before it goes
    await unread.cancel();
    second();
    expect(await reader.read()).toEqual({ value: 2, done: false });
    expect(await reader.read()).toEqual({ done: true, value: undefined }); // the stream's END frees the slot
    // A running request that times out frees its slot by its CANCEL: the next one runs.
    await expect(a.request('wait', 'slow', { timeout: 30 })).rejects.toMatchObject({ code: 'ERR_TIMEOUT' });
    const next = a.request('wait', 'next');
    // 'slow' still runs (ignoring its signal is the handler's choice), and 'next' runs beside it.
    await expect.poll(() => state.calls).toEqual(['slow', 'next']);
    expect(state.running).toBe(2);
    await release();
    await release();
    expect(await next).toBe('next');
    close();
  });

  it('refuses a maxConcurrent that is not a positive integer', async () => {
    await expect(connect({ maxConcurrent: 0 })).rejects.toThrow(RangeError);
    await expect(connect({ maxConcurrent: 1.5 })).rejects.toThrow('maxConcurrent must be an integer from 1 to 4294967295');
  });
});

describe('IPC maxConcurrent against a peer that breaks it', () => {
  it('one request more than the limit fails the channel (ERR_TOO_MANY_REQUESTS)', async () => {
    const pair = await socketPair();
    const b = new IpcChannel(streamTransport(pair.server), { maxConcurrent: 3 });
    let calls = 0;
    b.handle('hang', () => (calls++, new Promise(() => {})));
    b.handle('now', () => 'now'); // answered at once: never holds a slot
    pair.client.write(helloFrame());
    for (let id = 1; id <= 3; id++) pair.client.write(requestFrame(id, 'hang'));
    for (let id = 4; id <= 10; id++) pair.client.write(requestFrame(id, 'now'));
    pair.client.write(requestFrame(11, 'hang'));
    await expect(b.ready).resolves.toBeUndefined();
    await expect
      .poll(() => b.request('x', null, { timeout: 10 }).catch((error: unknown) => error))
      .toMatchObject({
        code: 'ERR_TOO_MANY_REQUESTS',
        message: 'the other side sent more than the 3 requests and streams it may have here at once (maxConcurrent)',
      });
    expect(calls).toBe(3);
    pair.close();
  });

  it('an id that is still running, used again, fails the channel (ERR_CORRUPT_FRAME)', async () => {
    const pair = await socketPair();
    const b = new IpcChannel(streamTransport(pair.server));
    b.handle('hang', () => new Promise(() => {}));
    pair.client.write(helloFrame());
    pair.client.write(requestFrame(7, 'hang'));
    pair.client.write(requestFrame(7, 'hang'));
    await expect
      .poll(() => b.request('x', null, { timeout: 10 }).catch((error: unknown) => error))
      .toMatchObject({
        code: 'ERR_CORRUPT_FRAME',
        message: 'the other side reused id 7, which is still running',
      });
    pair.close();
  });

  it('a Hello without a valid maxConcurrent fails the handshake', async () => {
    for (const maxConcurrent of [undefined, 0, -1, 2.5, '4']) {
      const pair = await socketPair();
      const a = new IpcChannel(streamTransport(pair.client));
      pair.server.write(helloFrame({ maxConcurrent }));
      await expect(a.ready).rejects.toMatchObject({ code: 'ERR_HANDSHAKE', message: expect.stringMatching(/maxConcurrent/) });
      pair.close();
    }
  });
});

describe('IPC answers held to the pipe', () => {
  it('a peer that sends requests and reads no answers gets no more answers made than the pipe holds; they all come once it reads', async () => {
    const pair = await socketPair();
    const REQUESTS = 40_000;
    const b = new IpcChannel(streamTransport(pair.server), { maxConcurrent: REQUESTS });
    let calls = 0;
    b.handle('kb', () => (calls++, 'x'.repeat(1024)));
    pair.client.write(helloFrame());
    // 40,000 answers of 1 KB would be 40 MB queued here.
    pair.client.write(Buffer.concat(Array.from({ length: REQUESTS }, (_, i) => requestFrame(i + 1, 'kb'))));
    await sleep(300);
    // What the socket's buffers hold (the kernel's both ways), and the answers of one read's requests.
    expect(calls * 1024).toBeLessThan(8 * 1024 * 1024);
    let answers = 0;
    const decoder = new FrameDecoder(1 << 20);
    pair.client.on('data', (chunk: Uint8Array) => decoder.read(chunk, (type) => type === IpcFrameType.RESPONSE_TEXT && answers++)); // a string answer goes as is
    await expect.poll(() => answers, { timeout: 5000 }).toBe(REQUESTS);
    expect(calls).toBe(REQUESTS);
    pair.close();
  });

  it('two sides sending each other large requests at once both finish (reading never stops, so neither waits on the other)', async () => {
    const pair = await socketPair();
    const a = new IpcChannel(streamTransport(pair.client));
    const b = new IpcChannel(streamTransport(pair.server));
    for (const side of [a, b]) side.handle('echo', (text) => text);
    const big = 'y'.repeat(256 * 1024);
    const each = (side: IpcChannel) => Promise.all(Array.from({ length: 64 }, () => side.request('echo', big)));
    const [fromA, fromB] = await Promise.all([each(a), each(b)]);
    expect(fromA.every((text) => text === big) && fromB.every((text) => text === big)).toBe(true);
    a.close();
    pair.close();
  });
});
