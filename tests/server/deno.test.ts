// The server suite on Deno (npm package `deno`): the same tests, the server in a Deno process.
import { describe, expect, it } from 'vitest';
import { curl, socketPath } from './clients.js';
import { launchDeno } from './launchers.js';
import { serverSuite, useServer } from './suite.js';

serverSuite('deno', launchDeno);

describe('deno: handler info as Deno.serve gives it', () => {
  const server = useServer(launchDeno);

  it('has remoteAddr, so code written for Deno.serve and hono/deno’s getConnInfo keep working', async () => {
    const remoteAddr = (await (await fetch(`${server.url}/deno/remote-addr`)).json()) as { port: number };
    expect(remoteAddr).toEqual({ transport: 'tcp', hostname: '127.0.0.1', port: expect.any(Number) });
    expect(remoteAddr.port).toBeGreaterThan(0);
    const info = (await (await fetch(`${server.url}/deno/conninfo`)).json()) as { remote: { port: number } };
    expect(info).toEqual({ remote: { address: '127.0.0.1', port: expect.any(Number), transport: 'tcp' } });
  });
});

describe('deno: handler info on a Unix socket, as Deno.serve gives it', () => {
  const path = socketPath();
  useServer(launchDeno, { path });

  it('has the peer as a Deno.UnixAddr, and hono/deno’s getConnInfo reads it', async () => {
    const remoteAddr = JSON.parse((await curl(['--unix-socket', path, 'http://localhost/deno/remote-addr'])).stdout) as unknown;
    expect(remoteAddr).toEqual({ transport: 'unix', path: null });
    const info = JSON.parse((await curl(['--unix-socket', path, 'http://localhost/deno/conninfo'])).stdout) as unknown;
    expect(info).toEqual({ remote: { transport: 'unix' } });
  });
});
