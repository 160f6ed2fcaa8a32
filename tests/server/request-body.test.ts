// The request body's own bookkeeping, fed as a connection feeds it, with many tiny pieces: what
// a client sending 1-byte chunks (HTTP/1.1) or 1-byte DATA frames (HTTP/2) makes of it.
import { describe, expect, it } from 'vitest';
import { RequestBody } from '../../src/server/request-body.js';

/** A connection's side that records when it was told to stop reading. */
function flow() {
  const calls = { paused: false, pauses: 0 };
  return {
    calls,
    pause: () => ((calls.paused = true), calls.pauses++),
    resume: () => (calls.paused = false),
    sendContinue: () => undefined,
  };
}

const ONE = new Uint8Array([97]);

describe('RequestBody with tiny pieces', () => {
  it('stops the socket for a lagging reader once 64 KiB wait, holding 1-byte pieces joined, not an object each', async () => {
    // One piece per turn, as a client sending a byte per packet makes them.
    const connection = flow();
    const body = new RequestBody(connection, false);
    const reader = body.readable().getReader();
    let pushed = 0;
    while (!connection.calls.paused && pushed < 100_000) {
      body.push(ONE);
      pushed++;
      await Promise.resolve();
    }
    // (Each piece held counts 256 bytes for its objects besides its bytes: here 4 runs of joined bytes.)
    expect(pushed).toBeGreaterThan(60 * 1024);
    expect(pushed).toBeLessThanOrEqual(64 * 1024);
    // What waited comes in a few chunks of 16 KiB: a queue of 64 Ki one-byte arrays would hold
    // some 100 bytes of objects per byte.
    body.end();
    const sizes: number[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) sizes.push(read.value.length);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(pushed);
    expect(sizes.length).toBeLessThanOrEqual(4);
  });

  it('hands pieces that came before the stream was asked for joined: 60,000 1-byte pieces in a few chunks', async () => {
    const body = new RequestBody(flow(), false);
    for (let i = 0; i < 60_000; i++) body.push(ONE);
    body.end();
    const chunks: Uint8Array[] = [];
    const reader = body.readable().getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    expect(chunks.reduce((sum, chunk) => sum + chunk.length, 0)).toBe(60_000);
    expect(chunks.length).toBeLessThanOrEqual(4);
  });

  it('hands a stream being read the small pieces of a turn joined: 60,000 1-byte pieces in a few chunks', async () => {
    const body = new RequestBody(flow(), false);
    const reader = body.readable().getReader();
    for (let i = 0; i < 60_000; i++) body.push(ONE);
    body.push(new Uint8Array(2048).fill(98)); // a large piece comes after the small ones before it
    body.end();
    const chunks: Uint8Array[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    const bytes = Buffer.concat(chunks);
    const inOrder = bytes.subarray(0, 60_000).every((byte) => byte === 97) && bytes.subarray(60_000).every((byte) => byte === 98);
    expect([bytes.length, inOrder]).toEqual([62_048, true]);
    expect(chunks.length).toBeLessThanOrEqual(5);
  });

  it('collects a million 1-byte pieces whole', async () => {
    const body = new RequestBody(flow(), false);
    const collected = body.collect();
    for (let i = 0; i < 1_000_000; i++) body.push(ONE);
    body.end();
    const bytes = await collected;
    expect(bytes.length).toBe(1_000_000);
    expect(bytes.every((byte) => byte === 97)).toBe(true);
  });

  it('reads a body whose stream was asked for first (if (request.body) ... text()) whole, over many tiny chunks', async () => {
    const body = new RequestBody(flow(), false);
    body.readable();
    const collected = body.collect();
    for (let i = 0; i < 10_000; i++) body.push(ONE);
    body.end();
    expect((await collected).length).toBe(10_000);
  });
});
