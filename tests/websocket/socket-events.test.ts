// The handler's WebSocket as an EventTarget (WHATWG WebSocket, HTML §8.1.8.1 event handler
// attributes): what code written for a browser's or Deno's WebSocket relies on. The connection's
// side is driven directly (socketControl), as a connection drives it.
import { describe, expect, it } from 'vitest';
import { ServerWebSocket, socketControl, type SocketLink } from '../../src/server/websocket/socket.js';

function openSocket(): { socket: ServerWebSocket; reported: unknown[] } {
  const reported: unknown[] = [];
  const link: SocketLink = {
    sendMessage() {},
    sendText() {},
    reportError: (error) => reported.push(error),
    startClose() {},
    bufferedAmount: 0,
  };
  const socket = new ServerWebSocket('ws://a/', '');
  socketControl.open(socket, link);
  return { socket, reported };
}

describe('ServerWebSocket events', () => {
  it('is an EventTarget whose events name it as their target, with the WHATWG constants', () => {
    const { socket } = openSocket();
    expect(socket).toBeInstanceOf(EventTarget);
    expect([ServerWebSocket.OPEN, socket.OPEN, socket.readyState]).toEqual([1, 1, 1]);
    const seen: [unknown, unknown, unknown][] = [];
    socket.addEventListener('message', (event) => seen.push([(event as MessageEvent).data, event.target, event.currentTarget]));
    socketControl.message(socket, 'hello');
    expect(seen).toEqual([['hello', socket, socket]]);
  });

  it('calls attribute handlers and listeners in the order they were added; a replaced handler keeps its place', () => {
    const { socket } = openSocket();
    const calls: string[] = [];
    socket.addEventListener('message', () => calls.push('listener 1'));
    socket.onmessage = () => calls.push('old handler');
    socket.addEventListener('message', () => calls.push('listener 2'));
    socket.onmessage = function (this: ServerWebSocket, event) {
      calls.push(`new handler, this is the socket: ${this === socket}, data ${String(event.data)}`);
    };
    socketControl.message(socket, 'x');
    expect(calls).toEqual(['listener 1', 'new handler, this is the socket: true, data x', 'listener 2']);
    socket.onmessage = null;
    expect(socket.onmessage).toBeNull();
    socketControl.message(socket, 'y');
    expect(calls.slice(3)).toEqual(['listener 1', 'listener 2']);
  });

  it('honours once, removeEventListener and handleEvent objects', () => {
    const { socket } = openSocket();
    const calls: string[] = [];
    const removed = () => calls.push('removed');
    socket.addEventListener('message', () => calls.push('once'), { once: true });
    socket.addEventListener('message', removed);
    socket.addEventListener('message', { handleEvent: (event: Event) => calls.push(`object ${(event as MessageEvent).data}`) });
    socket.removeEventListener('message', removed);
    socketControl.message(socket, '1');
    socketControl.message(socket, '2');
    expect(calls).toEqual(['once', 'object 1', 'object 2']);
  });

  it('reports a throwing handler to the server instead of throwing into the connection', () => {
    const { socket, reported } = openSocket();
    const error = new Error('handler bug');
    socket.onmessage = () => {
      throw error;
    };
    expect(() => socketControl.message(socket, 'x')).not.toThrow();
    expect(reported).toEqual([error]);
  });

  it('gives the close event its code, reason and wasClean, and the state CLOSED', () => {
    const { socket } = openSocket();
    const closes: [number, string, boolean, number][] = [];
    socket.onclose = (event) => closes.push([event.code, event.reason, event.wasClean, socket.readyState]);
    socketControl.closed(socket, 1000, 'bye', true);
    socketControl.closed(socket, 1006, 'again', false);
    expect(closes).toEqual([[1000, 'bye', true, 3]]);
  });
});
