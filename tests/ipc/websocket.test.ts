// IpcChannel over a WebSocket (webSocketTransport): wirespeed's own server side (upgradeWebSocket)
// and the `ws` package's client, as a browser or a service would connect; frames as binary
// messages, a text message refused, and a reader that stops reading held to the connection.
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { encodeFrame, IpcChannel, IpcFrameType, jsonCodec, webSocketTransport } from '../../src/ipc/index.js';
import { serve, upgradeWebSocket, type Server } from '../../src/server/node.js';
import { clientFrame, RawWebSocket } from '../websocket/raw-client.js';
import { helloFrame } from './raw-peer.js';
import { serveTestMethods } from './test-methods.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let server: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server whose every WebSocket is an IpcChannel set up by `serveOn`. */
async function ipcServer(serveOn: (channel: IpcChannel) => void): Promise<{ url: string; port: number; channels: IpcChannel[] }> {
  const channels: IpcChannel[] = [];
  server = serve({
    fetch(request) {
      const { socket, response } = upgradeWebSocket(request);
      const channel = new IpcChannel(webSocketTransport(socket));
      channels.push(channel);
      serveOn(channel);
      return response;
    },
  });
  await server.ready;
  return { url: server.url.replace(/^http/, 'ws'), port: server.port, channels };
}

describe('IPC over a WebSocket', () => {
  it('requests both ways, bytes and strings, streams and remote errors, with the ws client', async () => {
    const { url, channels } = await ipcServer(serveTestMethods);
    const client = new IpcChannel(webSocketTransport(new WebSocket(url))); // frames wait for the socket to open
    client.handle('whoami', () => 'the client');
    const value = { text: 'é ✓ 😀', list: Array.from({ length: 300 }, (_, i) => ({ i })) };
    expect(await client.request('echo', value)).toEqual(value);
    expect(await client.request('bytes')).toEqual(Uint8Array.of(0, 1, 255));
    const items: unknown[] = [];
    for await (const item of client.stream('items', 5000) as unknown as AsyncIterable<unknown>) items.push(item);
    expect(items).toHaveLength(5000);
    expect(items.slice(0, 3)).toEqual([Uint8Array.of(0), 'item 1 ✓', Uint8Array.of(2)]);
    await expect(client.request('fail')).rejects.toMatchObject({ code: 'ERR_REMOTE', cause: { name: 'RangeError', code: 'E_FAR' } });
    expect(await channels[0]!.request('whoami')).toBe('the client');
    // Closing one side's channel closes the socket: the other side's channel fails.
    client.close();
    await expect(channels[0]!.request('whoami')).rejects.toMatchObject({ code: 'ERR_CLOSED' });
  });

  it('a text message is not frames: the channel fails and the socket closes', async () => {
    const { url, channels } = await ipcServer(() => {});
    const ws = new WebSocket(url);
    await new Promise((resolve) => ws.once('open', resolve));
    const closed = new Promise((resolve) => ws.once('close', resolve));
    ws.send('hello');
    await expect(channels[0]!.ready).rejects.toMatchObject({ code: 'ERR_CORRUPT_FRAME', message: /a text message/ });
    expect(await closed).toBe(1000);
  });

  it('a reader that grants credit and stops reading holds a stream to the connection, not the server’s memory', async () => {
    let made = 0;
    const { port } = await ipcServer((channel) =>
      channel.handle('endless', function* () {
        for (;;) {
          made++;
          yield 'x'.repeat(1024);
        }
      }),
    );
    // A hostile client: the largest window there is (64 Ki items, 1 GiB), then it reads no more.
    const window = [65_536, 1024 * 1024 * 1024];
    const credit = new Uint8Array(8);
    new DataView(credit.buffer).setUint32(0, window[0]!);
    new DataView(credit.buffer).setUint32(4, window[1]!);
    const frames = Buffer.concat([
      helloFrame(),
      encodeFrame(IpcFrameType.STREAM, 1, jsonCodec.encode(['endless', null, ...window])),
      encodeFrame(IpcFrameType.CREDIT, 1, credit),
    ]);
    const raw = await RawWebSocket.open(port, '/', { after: Buffer.from(clientFrame(0x82, frames)) });
    expect(raw.status).toBe(101);
    raw.socket.pause();
    await sleep(600);
    // The kernel's buffers both ways on loopback and the transport's 256 KiB, not the 64 MiB the window allows.
    expect(made * 1024).toBeLessThan(16 * 1024 * 1024);
    expect(made).toBeGreaterThan(10);
    const held = made;
    raw.socket.resume(); // reads at last: the stream goes on
    await expect.poll(() => made, { timeout: 5000 }).toBeGreaterThan(held + 1000);
    raw.destroy();
  });
});
