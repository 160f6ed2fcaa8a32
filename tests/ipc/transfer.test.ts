// Buffers moved, not copied: `transfer(value, list)` on a channel of cloned values (a MessagePort),
// for params, results, stream items and events; ignored where frames are bytes.
import { MessageChannel, Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { socketPair } from '../../bench/peers/ipc-transports.js';
import { IpcChannel, jsonCodec, portTransport, streamTransport, transfer } from '../../src/ipc/index.js';

const bytes = (length: number, fill: number) => new Uint8Array(length).fill(fill);

describe('IPC transfer over a MessageChannel (values cloned)', () => {
  it('moves marked buffers in params, results, stream items and events; unmarked ones are copied', async () => {
    const { port1, port2 } = new MessageChannel();
    const a = new IpcChannel(portTransport(port1));
    const b = new IpcChannel(portTransport(port2));
    const kept: Uint8Array[] = [];
    b.handle('invert', ({ data }: { data: Uint8Array }) => {
      const out = data.map((byte) => 255 - byte);
      kept.push(out);
      return transfer({ out }, [out.buffer]);
    });
    b.handle('chunks', function* () {
      for (let i = 0; i < 3; i++) {
        const chunk = bytes(1024, i);
        kept.push(chunk);
        yield transfer(chunk, [chunk.buffer]);
      }
    });

    const data = bytes(1 << 20, 7);
    const { out } = (await a.request('invert', transfer({ data }, [data.buffer]))) as { out: Uint8Array };
    expect(data.byteLength).toBe(0); // moved to the other side
    expect(out.length).toBe(1 << 20);
    expect(out.every((byte) => byte === 248)).toBe(true);
    expect(kept[0]!.byteLength).toBe(0); // the result moved back

    const copied = bytes(16, 1);
    await a.request('invert', { data: copied });
    expect(copied.byteLength).toBe(16); // no mark: cloned

    const items: Uint8Array[] = [];
    for await (const chunk of a.stream('chunks') as unknown as AsyncIterable<Uint8Array>) items.push(chunk);
    expect(items.map((chunk) => [chunk.length, chunk[0]])).toEqual([
      [1024, 0],
      [1024, 1],
      [1024, 2],
    ]);
    expect(kept.slice(2).map((chunk) => chunk.byteLength)).toEqual([0, 0, 0]);

    const event = new Promise<unknown>((resolve) => b.on('frame', resolve));
    const frame = bytes(64, 9);
    a.notify('frame', transfer({ frame }, [frame.buffer]));
    expect(frame.byteLength).toBe(0);
    expect(((await event) as { frame: Uint8Array }).frame).toEqual(bytes(64, 9));
    a.close();
  });

  it('a request queued for a slot moves its buffer when it is sent', async () => {
    const { port1, port2 } = new MessageChannel();
    const a = new IpcChannel(portTransport(port1));
    const b = new IpcChannel(portTransport(port2), { maxConcurrent: 1 });
    let release!: () => void;
    b.handle('wait', () => new Promise<void>((resolve) => (release = resolve)));
    b.handle('length', ({ data }: { data: Uint8Array }) => data.length);
    const first = a.request('wait');
    await a.ready;
    const data = bytes(100, 1);
    const second = a.request('length', transfer({ data }, [data.buffer]));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(data.byteLength).toBe(100); // still here: it waits for the slot
    release();
    await first;
    expect(await second).toBe(100);
    expect(data.byteLength).toBe(0);
    a.close();
  });

  it('a buffer that cannot be moved (already detached) fails its own request; the channel goes on', async () => {
    const { port1, port2 } = new MessageChannel();
    const a = new IpcChannel(portTransport(port1));
    new IpcChannel(portTransport(port2)).handle('length', ({ data }: { data: Uint8Array }) => data.length);
    const data = bytes(10, 1);
    expect(await a.request('length', transfer({ data }, [data.buffer]))).toBe(10);
    // Node 20 would drop the message silently (a request that hangs); Deno and browsers throw.
    await expect(a.request('length', transfer({ data }, [data.buffer]))).rejects.toMatchObject({
      name: 'DataCloneError',
      message: 'the ArrayBuffer at index 0 of the transfer list was moved already',
    });
    expect(await a.request('length', { data: bytes(3, 0) })).toBe(3);
    a.close();
  });

  it('moves a buffer to a real Worker and back', async () => {
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       import(${JSON.stringify(new URL('../../dist/src/ipc/index.js', import.meta.url).href)}).then(({ IpcChannel, portTransport, transfer }) => {
         parentPort.once('message', (port) => {
           new IpcChannel(portTransport(port)).handle('double', ({ data }) => {
             for (let i = 0; i < data.length; i++) data[i] *= 2;
             return transfer({ data }, [data.buffer]);
           });
         });
       });`,
      { eval: true },
    );
    const { port1, port2 } = new MessageChannel();
    worker.postMessage(port2, [port2]);
    const channel = new IpcChannel(portTransport(port1));
    const data = bytes(8 << 20, 3);
    const result = (await channel.request('double', transfer({ data }, [data.buffer]))) as { data: Uint8Array };
    expect(data.byteLength).toBe(0);
    expect(result.data.length).toBe(8 << 20);
    expect(result.data[0]).toBe(6);
    expect(result.data[(8 << 20) - 1]).toBe(6);
    channel.close();
    await worker.terminate();
  });

  it('takes an object and an array only', () => {
    expect(() => transfer(1 as unknown as object, [])).toThrow('transfer() marks an object (or array), not a primitive');
    expect(() => transfer({}, 'x' as unknown as object[])).toThrow('transfer() takes an array of transferables');
  });
});

describe('IPC transfer where frames are bytes', () => {
  it('is ignored: the codec copies the bytes into the frame, and the buffer stays', async () => {
    const pair = await socketPair();
    const a = new IpcChannel(streamTransport(pair.client));
    new IpcChannel(streamTransport(pair.server)).handle('sum', (list: number[]) => list.reduce((x, y) => x + y, 0));
    const list = [1, 2, 3];
    expect(await a.request('sum', transfer(list, []))).toBe(6);
    const { port1, port2 } = new MessageChannel();
    const c = new IpcChannel(portTransport(port1), { codec: jsonCodec });
    new IpcChannel(portTransport(port2), { codec: jsonCodec }).handle('length', ({ text }: { text: string }) => text.length);
    const buffer = new ArrayBuffer(8);
    expect(await c.request('length', transfer({ text: 'hello', buffer }, [buffer]))).toBe(5);
    expect(buffer.byteLength).toBe(8);
    a.close();
    c.close();
    pair.close();
  });
});
