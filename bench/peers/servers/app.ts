// The bench servers' routes, the same for every implementation (`wrk` hits one per case):
//   GET /hello → 13-byte text, GET /json → a small JSON object, GET /1kb and /10kb → bytes,
//   GET /10kb-utf8 → 10 KB of text with one char past ASCII, POST /echo → the request body back.
export const HELLO = 'Hello, World!';
export const JSON_BODY = { message: 'Hello, World!', id: 42, tags: ['a', 'b'] };
export const KB1 = 'x'.repeat(1024);
export const KB10 = 'x'.repeat(10 * 1024);
/** 10 KB of text that is not all ASCII (one euro sign: a page with a quote mark or an accent is UTF-8 as a whole). */
export const KB10_UTF8 = 'x'.repeat(5 * 1024) + '€' + 'x'.repeat(5 * 1024 - 1);
/** A request that asks the raw servers to close after their answer (a client without keep-alive). */
export const RAW_CLOSE_REQUEST = 'Connection: close';
/** What the raw ceilings (raw-net, raw-deno) answer to every request: the hello, with no HTTP work. */
export const RAW_HELLO_RESPONSE = `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${HELLO.length}\r\n\r\n${HELLO}`;

/** What the hono app's POST /orders takes. */
export interface Order {
  item: string;
  lines: { sku: string; price: number; quantity: number }[];
}

/** An order as a client posts it (257 bytes of JSON). */
export const ORDER: Order = {
  item: 'order-1',
  lines: Array.from({ length: 5 }, (_, i) => ({ sku: `sku-${1000 + i}`, price: 9.99 + i, quantity: 1 + (i % 3) })),
};

/** The routes as a fetch handler (wirespeed, Deno.serve, hono's node-server). */
export async function fetchApp(request: Request): Promise<Response> {
  if (request.method === 'POST' && pathOf(request.url) === '/echo') {
    return new Response(await request.arrayBuffer(), { headers: { 'content-type': 'application/octet-stream' } });
  }
  return syncRoute(request);
}

/** A request URL's path and query (what the routes match), without making a URL. */
export const pathOf = (url: string) => url.slice(url.indexOf('/', url.indexOf('//') + 2));

/** Synchronous where the route allows it: a fetch handler may return a Response directly. */
export function fetchAppSync(request: Request): Response | Promise<Response> {
  return request.method === 'POST' ? fetchApp(request) : syncRoute(request);
}

function syncRoute(request: Request): Response {
  switch (pathOf(request.url)) {
    case '/hello':
      return new Response(HELLO, { headers: { 'content-type': 'text/plain' } });
    case '/json':
      return Response.json(JSON_BODY);
    case '/1kb':
      return new Response(KB1, { headers: { 'content-type': 'text/plain' } });
    case '/10kb':
      return new Response(KB10, { headers: { 'content-type': 'text/plain' } });
    case '/10kb-utf8':
      return new Response(KB10_UTF8, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  return new Response('not found', { status: 404 });
}
