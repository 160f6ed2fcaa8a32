// The `fetch` serve() installs as the global one (unless `overrideGlobalObjects: false`): the
// runtime's own, which takes the server's lazy requests as input too, as it takes its own
// Requests. A runtime's fetch makes a Request of its input with its own class, which reads the
// private state a lazy request does not have: a proxy forwarding what it got, `fetch(request)`,
// failed on Node ("Cannot read properties of undefined (reading 'window')", as on
// @hono/node-server) and on Deno ("Argument 1 is not of type Request"), where Deno.serve's own
// requests are taken. The request goes as its real Request: its body streamed on, its signal
// aborting the upstream when the client leaves; a body read already is refused, as for any Request.
import { runtimeInput } from './request.js';

/**
 * The fetch this one hands every call to: the global one when it was installed, so a wrapper
 * installed before serve() (an APM's, a test's mock) keeps seeing every call.
 */
let innerFetch: typeof fetch = globalThis.fetch;

// (async: a request that cannot go, its body read already, rejects as fetch does, never throws.)
async function serverFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  return innerFetch(runtimeInput(input, init), init);
}

Object.defineProperty(serverFetch, 'name', { value: 'fetch' });

/** The runtime's fetch, taking the server's requests as input too; typed as fetch. */
export const ServerFetch: typeof fetch = serverFetch;

/** Replaces the global fetch with ServerFetch, which calls the one it replaces (once; idempotent). */
export function installServerFetch(): void {
  if (globalThis.fetch === ServerFetch) return;
  innerFetch = globalThis.fetch;
  globalThis.fetch = ServerFetch;
}
