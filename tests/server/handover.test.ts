// The seam where one connection takes a socket over from another (core `handOver`): the adapter's
// events go to the new connection, and the one before is let go. An idle WebSocket lives for
// hours; it must not keep the HTTP/1.1 connection it was upgraded from.
import { describe, expect, it } from 'vitest';
import { ServerCore } from '../../src/server/server-core.js';
import { Http1Connection } from '../../src/server/http1/connection.js';
import { WebSocketConnection } from '../../src/server/websocket/connection.js';
import { upgradeWebSocket } from '../../src/server/websocket/upgrade.js';
import { ServerWebSocket } from '../../src/server/websocket/socket.js';
import { collectGarbage } from '../helpers.js';
import { RecordingTransport } from './recording-transport.js';

const HANDSHAKE =
  'GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n';
/** A masked text frame "hi" (mask 1,2,3,4). */
const MASKED_HI = Buffer.from([0x81, 0x82, 1, 2, 3, 4, 0x68 ^ 1, 0x69 ^ 2]);

describe('handing a socket over', () => {
  it('sends the socket to the WebSocket after an upgrade and lets the HTTP/1.1 connection go', async () => {
    const messages: string[] = [];
    const core = new ServerCore({
      fetch(request) {
        const { socket, response } = upgradeWebSocket(request);
        socket.onmessage = (event) => messages.push(event.data as string);
        return response;
      },
    });
    const transport = new RecordingTransport();
    expect(core.accept(transport)).toBe(transport.events);
    const http1 = new WeakRef(transport.events!);
    expect(http1.deref()).toBeInstanceOf(Http1Connection);

    // The handshake and the first frame in one read: the frame is the WebSocket's.
    transport.events!.onData(Buffer.concat([Buffer.from(HANDSHAKE), MASKED_HI]));
    expect(transport.written).toMatch(/^HTTP\/1\.1 101 Switching Protocols\r\n/);
    expect(transport.events).toBeInstanceOf(WebSocketConnection);
    expect(messages).toEqual(['hi']);
    transport.events!.onData(MASKED_HI);
    expect(messages).toEqual(['hi', 'hi']);

    // Nothing holds the HTTP/1.1 connection any more (a WeakRef is cleared by a full GC).
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectGarbage();
    expect(http1.deref()).toBeUndefined();

    transport.destroy();
    expect(core.connectionCount).toBe(0);
  });

  it('sends a sniffed connection to the protocol found (h2c on, HTTP/1.1 request)', async () => {
    const core = new ServerCore({ http2: true, fetch: () => new Response('sniffed') });
    const transport = new RecordingTransport();
    const sniffer = core.accept(transport);
    expect(transport.events).toBe(sniffer);
    transport.events!.onData(Buffer.from('GET / HTTP/1.1\r\nHost: a\r\n\r\n'));
    expect(transport.events).toBeInstanceOf(Http1Connection);
    // The runtime's Response reads its body asynchronously.
    for (let i = 0; i < 50 && !transport.written.endsWith('sniffed'); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(transport.written).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nsniffed$/);
  });

  it('keeps a closed connection out of the set when it is handed over afterwards', () => {
    const core = new ServerCore({ fetch: () => new Response('x') });
    const transport = new RecordingTransport();
    const first = core.accept(transport)!;
    transport.destroy();
    expect(core.connectionCount).toBe(0);
    core.handOver(transport, first);
    expect(core.connectionCount).toBe(0);
  });

  it('gives every socket the WHATWG constants on its prototype, not as fields of its own', () => {
    const socket = new ServerWebSocket('ws://a/', '');
    expect([socket.CONNECTING, socket.OPEN, socket.CLOSING, socket.CLOSED]).toEqual([0, 1, 2, 3]);
    expect(Object.keys(socket)).not.toContain('OPEN');
    expect(Object.getOwnPropertyDescriptor(ServerWebSocket.prototype, 'OPEN')).toMatchObject({
      value: 1,
      enumerable: true,
      writable: false,
    });
  });
});
