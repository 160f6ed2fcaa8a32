// The server suite's ceilings (raw-net on Node, raw-deno on Deno) parse no HTTP, but each must
// still answer every request it is sent, one response per request, pipelined ones included:
// otherwise wrk would count a ceiling that did less work than the servers beside it.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, ServerProcess } from '../../bench/harness/load.js';
import { denoBinary } from '../../bench/suites/server-processes.js';

const servers = new URL('../../dist/bench/peers/servers/', import.meta.url).pathname;
const RESPONSE = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!';
const GET = 'GET /hello HTTP/1.1\r\nHost: a\r\n\r\n';

/** Quiet this long, the server has sent all it will for the request. */
const QUIET_MS = 500;

/** What the server sends back for `request`: once `responses` responses came, or it went quiet. */
function exchange(port: number, request: string, responses: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    const done = () => resolve((socket.destroy(), clearTimeout(quiet), text));
    let quiet = setTimeout(done, QUIET_MS);
    socket.setEncoding('latin1').on('data', (chunk: string) => {
      text += chunk;
      clearTimeout(quiet);
      quiet = setTimeout(done, QUIET_MS);
      if (text.length >= responses * RESPONSE.length) done();
    });
    socket.on('error', reject);
  });
}

const ceilings: [string, (port: number) => string[]][] = [
  ['raw-net', (port) => [process.execPath, `${servers}node-servers.js`, 'raw-net', String(port)]],
  ['raw-deno', (port) => [denoBinary()!, 'run', '--quiet', '-A', '--no-lock', `${servers}deno-servers.js`, 'raw-deno', String(port)]],
];

describe('the server suite ceilings', () => {
  it.each(ceilings)('%s answers one hello per request, pipelined ones too', async (_, command) => {
    const port = await freePort();
    const server = await ServerProcess.start({ command: command(port), port });
    try {
      expect(await exchange(port, GET, 1)).toBe(RESPONSE);
      expect(await exchange(port, GET.repeat(16), 16)).toBe(RESPONSE.repeat(16));
    } finally {
      await server.stop();
    }
  });
});
