// Deno's fetch as a caller of the server (deno-client/main.ts): reqwest and hyper underneath, a
// third, independent HTTP/1.1 and HTTP/2 client (after node's and Go's), as Deno services and edge
// functions call an API. On both adapters: HTTPS with HTTP/2 by ALPN, HTTPS with HTTP/1.1 only,
// cleartext HTTP/2 with prior knowledge and cleartext HTTP/1.1. Each run asks a hello, 20 and 50
// requests at once, a 5 MiB echo, an upload of unknown length, a streamed body, a 4 MiB download, a
// 2 MiB download read slowly, a download cancelled half way and a 4 KB request field.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { denoRunArgs, launchDeno, launchNode } from './launchers.js';
import { useServer, type Launched, type Launcher } from './suite.js';

const run = promisify(execFile);
/** The CA that signed the test certificate (for 127.0.0.1 and localhost). */
const CA_FILE = new URL('./fixtures/ca.pem', import.meta.url).pathname;
const client = new URL('./deno-client/main.ts', import.meta.url).pathname;

/** What every run must see: the app's answers, whole, over the connections the protocol uses. */
const expected = (connections: 'one' | 'several') => ({
  hello: [200, 'Hello World!'],
  connections,
  concurrent: 0, // no wrong body of 50
  echo5MiB: [5 * 1024 * 1024, true],
  unknownLength: '100000',
  stream: 'part 0;part 1;part 2;part 3;',
  big: [4096 * 1024, true],
  slowRead: 2048 * 1024,
  afterCancel: 'Hello World!',
  headers: [4000, 'b'],
});

async function ask(server: Launched, protocol: 'h1' | 'h2', ca = ''): Promise<unknown> {
  const { stdout } = await run(process.execPath, denoRunArgs(client, server.url, ca, protocol), { timeout: 60_000 });
  return JSON.parse(stdout);
}

function withDenoFetch(adapter: string, launch: Launcher): void {
  describe(`${adapter}: Deno's fetch`, () => {
    const tls = useServer(launch, { tls: true, http2: true });
    const plain = useServer(launch, { http2: true });

    it('over HTTPS, HTTP/2 by ALPN', async () => {
      expect(await ask(tls, 'h2', CA_FILE)).toEqual(expected('one'));
    });
    it('over HTTPS, HTTP/1.1 only', async () => {
      expect(await ask(tls, 'h1', CA_FILE)).toEqual(expected('several'));
    });
    it('over cleartext HTTP/2 with prior knowledge (h2c)', async () => {
      expect(await ask(plain, 'h2')).toEqual(expected('one'));
    });
    it('over cleartext HTTP/1.1', async () => {
      expect(await ask(plain, 'h1')).toEqual(expected('several'));
    });
  });
}

withDenoFetch('node', launchNode);
withDenoFetch('deno', launchDeno);
