// Go's net/http client as a caller of the server (go-client/main.go): a second, independent
// HTTP/1.1 and HTTP/2 implementation, as services written in Go call an API. On both adapters:
// HTTPS with HTTP/2 by ALPN, HTTPS with HTTP/1.1 only, and cleartext HTTP/2 (h2c, prior
// knowledge). Each run asks a hello, 50 requests at once, a 5 MiB echo, an upload of unknown
// length (chunked on HTTP/1.1), Expect: 100-continue, trailers both ways, a streamed body and a
// 4 MiB download.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchDeno, launchNode } from './launchers.js';
import { useServer, type Launched, type Launcher } from './suite.js';

const run = promisify(execFile);
/** The test certificate (for 127.0.0.1 and localhost), as the CA the client trusts. */
const CA_FILE = new URL('./fixtures/ca.pem', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'wirespeed-go-client-'));
const client = join(dir, 'client');
/** Building compiles net/http once per machine (Go caches it): ~15 s cold here, ~1 s warm. */
const BUILD_TIMEOUT_MS = 180_000;

beforeAll(async () => {
  await run('go', ['build', '-o', client, new URL('./go-client/main.go', import.meta.url).pathname], { timeout: BUILD_TIMEOUT_MS });
}, BUILD_TIMEOUT_MS);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What every run must see, on every protocol: the app's answers, whole. */
const expected = (proto: string) => ({
  hello: [proto, 200, 'Hello World!'],
  concurrent: [0, 1], // no wrong body; one protocol for all 50
  echo5MiB: [5 * 1024 * 1024, true],
  unknownLength: '100000',
  expectContinue: [200, 200_000],
  trailers: ['got 12', '12', 'from-go'],
  stream: 'part 0;part 1;part 2;part 3;',
  big: [4096 * 1024, true],
});

async function ask(server: Launched, mode: string, ca = ''): Promise<unknown> {
  const { stdout } = await run(client, [server.url, ca, mode], { timeout: 60_000 });
  return JSON.parse(stdout);
}

function withGo(adapter: string, launch: Launcher): void {
  describe(`${adapter}: Go's net/http client`, () => {
    const tls = useServer(launch, { tls: true, http2: true });
    const plain = useServer(launch, { http2: true });

    it('over HTTPS, HTTP/2 by ALPN', async () => {
      expect(await ask(tls, 'h2', CA_FILE)).toEqual(expected('HTTP/2.0'));
    });
    it('over HTTPS, HTTP/1.1 only', async () => {
      expect(await ask(tls, 'h1', CA_FILE)).toEqual(expected('HTTP/1.1'));
    });
    it('over cleartext HTTP/2 with prior knowledge (h2c)', async () => {
      expect(await ask(plain, 'h2c')).toEqual(expected('HTTP/2.0'));
    });
  });
}

withGo('node', launchNode);
withGo('deno', launchDeno);
