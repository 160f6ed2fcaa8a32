// Deno's fetch (reqwest and hyper underneath: a Rust HTTP/1.1 and HTTP/2 client) against the test
// app, for tests/server/deno-client.test.ts. Args: the server's URL, the CA file ("" for none) and
// the protocols the client may use (h2: HTTP/2 only, by ALPN over TLS or with prior knowledge over
// cleartext; h1: HTTP/1.1 only). Prints what it saw as one JSON object.
declare const Deno: {
  args: string[];
  readTextFile(path: string): Promise<string>;
  createHttpClient(options: { caCerts?: string[]; http1: boolean; http2: boolean }): { close(): void };
};

const [base, caFile, mode] = Deno.args;
const caCerts = caFile ? [await Deno.readTextFile(caFile)] : undefined;
const client = Deno.createHttpClient({ caCerts, http1: mode === 'h1', http2: mode !== 'h1' });
const out: Record<string, unknown> = {};
const go = (path: string, init: RequestInit = {}) => fetch(base + path, { ...init, client } as RequestInit);
const sha = async (b: Uint8Array<ArrayBuffer>) => new Uint8Array(await crypto.subtle.digest('SHA-256', b)).join(',');

let r = await go('/hello');
out.hello = [r.status, await r.text()];

// Which connections 20 requests at once came on: one for HTTP/2, several for HTTP/1.1.
const ports = await Promise.all(Array.from({ length: 20 }, async () => (await go('/remote-port')).text()));
out.connections = new Set(ports).size === 1 ? 'one' : 'several';

const wrong = (
  await Promise.all(
    Array.from({ length: 50 }, async (_, i) => {
      const body = await (await go(`/repeat?id=${i}&n=1000&unit=ab`)).text();
      return body === `${i}:${'ab'.repeat(1000)}` ? 0 : 1;
    }),
  )
).reduce((a: number, b: number) => a + b, 0);
out.concurrent = wrong;

const sent = new Uint8Array(5 << 20);
for (let i = 0; i < sent.length; i += 65536) crypto.getRandomValues(sent.subarray(i, i + 65536));
r = await go('/echo', { method: 'POST', body: sent });
const echoed = new Uint8Array(await r.arrayBuffer());
out.echo5MiB = [echoed.length, (await sha(echoed)) === (await sha(sent))];

let n = 0;
const unknown = new ReadableStream<Uint8Array>({
  pull(c) {
    if (n++ === 100) return c.close();
    c.enqueue(new Uint8Array(1000).fill(120));
  },
});
r = await go('/count-body', { method: 'POST', body: unknown });
out.unknownLength = await r.text();

out.stream = await (await go('/stream?parts=4')).text();
const big = new Uint8Array(await (await go('/big?kb=4096')).arrayBuffer());
out.big = [big.length, big.every((b) => b === 97)];

// A response read slowly: the server must wait for the window, not drop or hold everything.
r = await go('/big?kb=2048');
const reader = r.body!.getReader();
let slow = 0;
for (let i = 0; ; i++) {
  const { done, value } = await reader.read();
  if (done) break;
  slow += value.length;
  if (i % 8 === 0) await new Promise((res) => setTimeout(res, 5));
}
out.slowRead = slow;

// A download abandoned half way, then the connection used again.
r = await go('/big?kb=4096');
const half = r.body!.getReader();
await half.read();
await half.cancel();
out.afterCancel = await (await go('/hello')).text();

out.headers = await (
  await go('/headers', { headers: { 'x-many': 'a'.repeat(4000), 'x-two': 'b' } })
)
  .json()
  .then((h) => [h['x-many']?.length, h['x-two']]);
client.close();
console.log(JSON.stringify(out));
