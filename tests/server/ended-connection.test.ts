// What a client sends after its connection ended (a response that said close, before the request
// body was read): the socket is read on while it lingers, so the response is not lost to a reset,
// but nothing of it is parsed or held. Held, each read was joined to all before it: a client that
// sent on cost the server time quadratic in what it sent (19 MB took 2 s of CPU).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MessageParser } from '../../src/http1/parser.js';
import { ServerCore } from '../../src/server/server-core.js';
import { RecordingTransport } from './recording-transport.js';

const PIECE = new Uint8Array(16 * 1024).fill(0x61);
const PIECES = 100;

const bodies = {
  'a Content-Length body over the drain limit': 'Content-Length: 100000000\r\n\r\n',
  'a chunked body': 'Transfer-Encoding: chunked\r\n\r\n4000\r\n',
};

afterEach(() => vi.restoreAllMocks());

describe('a connection that ended', () => {
  for (const [name, framing] of Object.entries(bodies)) {
    it(`neither parses nor holds what the client sends after the response (${name}, left unread)`, async () => {
      const core = new ServerCore({ fetch: () => new Response('answered without reading') });
      const transport = new RecordingTransport();
      let ended = false;
      transport.end = () => void (ended = true);
      core.accept(transport);
      transport.events!.onData(new TextEncoder().encode(`POST /upload HTTP/1.1\r\nHost: a\r\n${framing}`));
      for (let i = 0; i < 100 && !ended; i++) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(transport.written).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*Connection: close\r\n[^]*answered without reading$/);
      expect(ended).toBe(true);

      const execute = vi.spyOn(MessageParser.prototype, 'execute');
      for (let i = 0; i < PIECES; i++) transport.events!.onData(PIECE);
      expect(execute).not.toHaveBeenCalled();
      transport.destroy();
    });
  }
});
