// Streams over real transports: items in order, credit-based backpressure (a slow reader holds the
// producer back), cancellation reaching the handler, errors mid-stream, and channel failure.
import { spawn } from 'node:child_process';
import { MessageChannel } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedRingPair, sharedRingTransport } from '../../bench/peers/ipc-shared-ring.js';
import { socketPair } from '../../bench/peers/ipc-transports.js';
import { IpcChannel, jsonCodec, portTransport, streamTransport } from '../../src/ipc/index.js';

/** The length of the items of the byte-window test: 1,000 bytes on the wire too (a string goes as its UTF-8). */
const KILOBYTE_ITEM = 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A stream as `for await` and `values()` see it (the DOM lib's ReadableStream typings here lack both). */
type IterableStream<T> = AsyncIterable<T> & { values(options: { preventCancel: boolean }): AsyncIterableIterator<T> };
const iterable = <T>(stream: ReadableStream<unknown>) => stream as unknown as IterableStream<T>;

/** Reads the 'breaks' handler's stream with for await: its two items, then its failure, after which the stream stays errored. */
async function expectItemsThenBrokenSource(stream: ReadableStream<unknown>): Promise<void> {
  const seen: unknown[] = [];
  const failure = await (async () => {
    for await (const item of iterable(stream)) seen.push(item);
  })().catch((error: unknown) => error);
  expect(seen).toEqual([1, 2]);
  expect(failure).toMatchObject({ code: 'ERR_REMOTE', message: 'source broke' });
  await expect(stream.getReader().read()).rejects.toBe(failure);
}

async function readAll<T>(stream: ReadableStream<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream as unknown as AsyncIterable<T>) items.push(item);
  return items;
}

interface Pair {
  a: IpcChannel;
  b: IpcChannel;
  close(): void;
  /** Frames are values (structured clone): no frame limit applies to them. */
  cloned?: boolean;
}

const transports: [string, () => Promise<Pair>][] = [
  [
    'a Unix domain socket',
    async () => {
      const pair = await socketPair();
      const a = new IpcChannel(streamTransport(pair.client));
      const b = new IpcChannel(streamTransport(pair.server), { maxFrame: 64 * 1024 });
      return { a, b, close: () => (a.close(), pair.close()) };
    },
  ],
  [
    'a MessageChannel, frames as JSON bytes',
    async () => {
      const { port1, port2 } = new MessageChannel();
      const a = new IpcChannel(portTransport(port1), { codec: jsonCodec });
      const b = new IpcChannel(portTransport(port2), { codec: jsonCodec, maxFrame: 64 * 1024 });
      return { a, b, close: () => (a.close(), b.close()) };
    },
  ],
  [
    'a MessageChannel, values cloned (the default there)',
    async () => {
      const { port1, port2 } = new MessageChannel();
      const a = new IpcChannel(portTransport(port1));
      const b = new IpcChannel(portTransport(port2), { maxFrame: 64 * 1024 });
      return { a, b, close: () => (a.close(), b.close()), cloned: true };
    },
  ],
  [
    'a SharedArrayBuffer ring (small, so items wrap around it)',
    async () => {
      const { a: left, b: right } = sharedRingPair(256);
      const a = new IpcChannel(sharedRingTransport(left));
      const b = new IpcChannel(sharedRingTransport(right), { maxFrame: 64 * 1024 });
      return { a, b, close: () => (a.close(), b.close()) };
    },
  ],
];

describe.each(transports)('IPC streams over %s', (_, connect) => {
  const state = { produced: 0, finished: 0, aborted: 0, kilobytes: new Map<string, number>() };
  let pair: Pair;
  afterAll(() => pair?.close());

  it('delivers every item in order, from sync, async and ReadableStream sources, many streams at once', async () => {
    pair = await connect();
    const { a, b } = pair;
    b.handle('range', function* (n) {
      for (let i = 0; i < (n as number); i++) yield { i, text: `item ${i}` };
    });
    b.handle('ticks', async function* (n) {
      for (let i = 0; i < (n as number); i++) {
        await sleep(1);
        yield i;
      }
    });
    b.handle('web', () => new ReadableStream({ start: (c) => (c.enqueue('x'), c.enqueue('y'), c.close()) }));
    b.handle('counted', async function* (_n, { signal }) {
      try {
        for (let i = 0; !signal.aborted; i++) {
          state.produced++;
          yield i;
        }
      } finally {
        state.finished++;
      }
    });
    b.handle('kilobytes', function* (name) {
      for (let i = 0; ; i++) {
        state.kilobytes.set(name as string, i + 1);
        yield String(i).padEnd(KILOBYTE_ITEM, '.');
      }
    });
    b.handle('abortable', async function* (_n, { signal }) {
      signal.addEventListener('abort', () => state.aborted++);
      for (let i = 0; ; i++) {
        await sleep(2);
        yield i;
      }
    });
    b.handle('breaks', function* () {
      yield 1;
      yield 2;
      throw new Error('source broke');
    });
    b.handle('huge', function* () {
      yield 'small';
      yield 'x'.repeat(100 * 1024);
    });
    b.handle('not-iterable', () => 42);

    const [range, ticks, web] = await Promise.all([
      readAll(a.stream('range', 1000)),
      readAll(a.stream('ticks', 20, { highWaterMark: 2 })),
      readAll(a.stream('web')),
    ]);
    expect(range).toEqual(Array.from({ length: 1000 }, (_, i) => ({ i, text: `item ${i}` })));
    expect(ticks).toEqual([...Array(20).keys()]);
    expect(web).toEqual(['x', 'y']);
    expect(await readAll(a.stream('range', 0))).toEqual([]);
  });

  it('holds a producer to the credit the reader gave: a slow reader bounds what is made', async () => {
    const reader = pair.a.stream('counted', null, { highWaterMark: 8 }).getReader();
    for (let i = 0; i < 3; i++) expect((await reader.read()).value).toBe(i);
    await sleep(200);
    // 3 read + at most the window of 8 (in flight or queued) + the one being made.
    expect(state.produced).toBeLessThanOrEqual(3 + 8 + 1);
    const before = state.produced;
    for (let i = 3; i < 40; i++) expect((await reader.read()).value).toBe(i);
    expect(state.produced).toBeGreaterThan(before);
    await reader.cancel();
    await sleep(100);
    expect(state.finished).toBe(1);
  });

  it('holds a producer to the bytes of its window too (values cloned are not bytes: their count holds them)', async () => {
    const reader = pair.a.stream('kilobytes', 'small window', { highWaterMark: 1000, highWaterBytes: 4096 }).getReader();
    for (let i = 0; i < 3; i++) expect((await reader.read()).value).toHaveLength(KILOBYTE_ITEM);
    await sleep(200);
    const made = state.kilobytes.get('small window')!;
    // 3 read + 4 items' worth of window + one past it (a send needs only some byte credit left) + the one being made.
    if (pair.cloned) expect(made).toBeGreaterThan(100);
    else expect(made).toBeLessThanOrEqual(3 + 4 + 1 + 1);
    for (let i = 3; i < 40; i++) expect((await reader.read()).value).toHaveLength(KILOBYTE_ITEM);
    await reader.cancel();
    expect(() => pair.a.stream('range', 1, { highWaterBytes: 0.5 })).toThrow(RangeError);
  });

  it('by default holds a producer to 256 KiB (byte codecs) or 64 items (cloned values)', async () => {
    const reader = pair.a.stream('kilobytes', 'default window').getReader();
    expect((await reader.read()).value).toHaveLength(KILOBYTE_ITEM);
    await sleep(200);
    const made = state.kilobytes.get('default window')!;
    // 1 read + the window + one past it (bytes) + the one being made.
    if (pair.cloned) expect(made).toBeLessThanOrEqual(1 + 64 + 1);
    else expect(made).toBeLessThanOrEqual(1 + Math.floor((256 * 1024) / KILOBYTE_ITEM) + 1 + 1);
    expect(made).toBeGreaterThan(60);
    await reader.cancel();
  });

  it('cancels: by the reader or by a signal, and the handler sees it', async () => {
    const reader = pair.a.stream('abortable').getReader();
    expect((await reader.read()).value).toBe(0);
    await reader.cancel();
    await expect.poll(() => state.aborted).toBe(1);
    const controller = new AbortController();
    const stream = pair.a.stream('abortable', null, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(readAll(stream)).rejects.toMatchObject({ code: 'ERR_CANCELLED' });
    await expect.poll(() => state.aborted).toBe(2);
    expect(await pair.a.request('nope').catch((e: { code: string }) => e.code)).toBe('ERR_NO_HANDLER'); // still usable
  });

  it('reports a broken source, an oversize item, a non-iterable result and a missing handler', async () => {
    const reader = pair.a.stream('breaks').getReader();
    expect([(await reader.read()).value, (await reader.read()).value]).toEqual([1, 2]);
    await expect(reader.read()).rejects.toMatchObject({ code: 'ERR_REMOTE', message: 'source broke', cause: { name: 'Error' } });
    if (pair.cloned) {
      // A value is not bytes: the frame limit does not apply to it (README: IPC codecs).
      expect((await readAll(pair.a.stream('huge')))[1]).toHaveLength(100 * 1024);
    } else {
      await expect(readAll(pair.a.stream('huge'))).rejects.toMatchObject({
        code: 'ERR_REMOTE',
        message: expect.stringMatching(/over the 65536-byte limit/),
        cause: { name: 'IpcError', code: 'ERR_FRAME_TOO_LARGE' }, // the serving side's own refusal
      });
    }
    await expect(readAll(pair.a.stream('not-iterable'))).rejects.toMatchObject({
      code: 'ERR_REMOTE',
      message: expect.stringMatching(/must return an iterable/),
    });
    await expect(readAll(pair.a.stream('missing'))).rejects.toMatchObject({ code: 'ERR_NO_HANDLER' });
    expect(() => pair.a.stream('range', 1, { highWaterMark: 0 })).toThrow(RangeError);
  });

  it('reads with for await as a ReadableStream does: locked while it reads, items that came before it first, then the rest, then released', async () => {
    const stream = pair.a.stream('range', 300, { highWaterMark: 64 });
    // Items arrive before the loop starts (they wait in the ReadableStream's queue).
    await sleep(50);
    const seen: number[] = [];
    for await (const { i } of iterable<{ i: number }>(stream)) {
      seen.push(i);
      if (i === 0) {
        expect(stream.locked).toBe(true);
        expect(() => stream.getReader()).toThrow(TypeError);
      }
    }
    expect(seen).toEqual([...Array(300).keys()]);
    expect(stream.locked).toBe(false);
    expect(await stream.getReader().read()).toEqual({ done: true, value: undefined });
    expect(stream).toBeInstanceOf(ReadableStream);
  });

  it('reads with for await a stream that ended, or failed, before the loop began', async () => {
    const ended = pair.a.stream('range', 5);
    const failed = pair.a.stream('breaks');
    await sleep(50);
    expect((await readAll(ended)).map((item) => (item as { i: number }).i)).toEqual([0, 1, 2, 3, 4]);
    expect(await ended.getReader().read()).toEqual({ done: true, value: undefined });
    await expectItemsThenBrokenSource(failed);
  });

  it('ends a for await loop at once on a stream a reader already read to its end or its failure, and lets go of it', async () => {
    const ended = pair.a.stream('range', 2);
    const reader = ended.getReader();
    while (!(await reader.read()).done);
    reader.releaseLock();
    expect(await readAll(ended)).toEqual([]);
    expect(ended.locked).toBe(false);
    const failed = pair.a.stream('breaks');
    const failedReader = failed.getReader();
    expect([(await failedReader.read()).value, (await failedReader.read()).value]).toEqual([1, 2]);
    const failure: unknown = await failedReader.read().catch((error: unknown) => error);
    failedReader.releaseLock();
    await expect(readAll(failed)).rejects.toBe(failure);
    expect(failed.locked).toBe(false);
  });

  it('cancels the stream when for await breaks out, and the handler sees it', async () => {
    const before = state.aborted;
    const stream = pair.a.stream('abortable');
    for await (const i of iterable<number>(stream)) if (i === 2) break;
    await expect.poll(() => state.aborted).toBe(before + 1);
    expect(stream.locked).toBe(false);
    expect(await stream.getReader().read()).toEqual({ done: true, value: undefined });
  });

  it('keeps the stream, none of its items lost, when values({ preventCancel: true }) is left early', async () => {
    const stream = pair.a.stream('range', 500, { highWaterMark: 32 });
    const iterator = iterable<{ i: number }>(stream).values({ preventCancel: true });
    const seen: number[] = [];
    for (let k = 0; k < 10; k++) seen.push((await iterator.next()).value.i);
    // Items that came meanwhile wait in the iterator: leaving hands them back to the stream.
    await sleep(30);
    expect(await iterator.return!()).toEqual({ done: true, value: undefined });
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    expect(stream.locked).toBe(false);
    for await (const { i } of iterable<{ i: number }>(stream)) seen.push(i);
    expect(seen).toEqual([...Array(500).keys()]);
  });

  it('hands a for await loop the items sent before a failure, then the failure, and leaves the stream errored', async () => {
    await expectItemsThenBrokenSource(pair.a.stream('breaks'));
  });

  it('answers next() calls made at once in order, and holds the producer to the credit a slow for await loop gives', async () => {
    const iterator = iterable<number>(pair.a.stream('counted', null, { highWaterMark: 8 }))[Symbol.asyncIterator]();
    const firstProduced = state.produced;
    const results = await Promise.all([iterator.next(), iterator.next(), iterator.next()]);
    expect(results.map((r) => r.value)).toEqual([0, 1, 2]);
    await sleep(200);
    // 3 read + at most the window of 8 (in flight or queued) + the one being made.
    expect(state.produced - firstProduced).toBeLessThanOrEqual(3 + 8 + 1);
    for (let i = 3; i < 40; i++) expect((await iterator.next()).value).toBe(i);
    expect(state.produced - firstProduced).toBeGreaterThan(11);
    await iterator.return!();
    await expect.poll(() => state.finished).toBe(2);
  });

  it('errors open streams when the channel closes', async () => {
    const reader = pair.a.stream('abortable').getReader();
    await reader.read();
    pair.a.close();
    await expect(reader.read()).rejects.toMatchObject({ code: 'ERR_CLOSED' });
  });
});

describe('IPC streams to a child process', () => {
  it('reads a generator of a real child over its stdio', async () => {
    const script = new URL('./child-peer.mjs', import.meta.url).pathname;
    const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
    const channel = new IpcChannel(streamTransport(child.stdout, child.stdin));
    expect(await readAll(channel.stream('count', 5000, { highWaterMark: 32 }))).toEqual([...Array(5000).keys()]);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    channel.notify('bye');
    expect(await exited).toBe(0);
  });
});
