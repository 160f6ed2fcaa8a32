// The React app of the `server` suite's React groups: a server-rendered page, streamed.
//   GET /page → a document with a 100-row table, all ready at once;
//   GET /suspense → the same with a part behind a Suspense boundary whose data comes a turn later
//   (the shell goes out first, the part after it).
// On wirespeed (Node and Deno), @hono/node-server and Deno.serve: `renderToReadableStream` in a
// fetch handler (what React Router, TanStack Start and Next.js do on the server). On node:http:
// `renderToPipeableStream` piped into the ServerResponse, React's own Node path. The servers start
// it with NODE_ENV set to production first: React's development build is several times slower and
// is not what is served.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setImmediate } from 'node:timers';
import { createElement, Suspense, use, type ReactNode } from 'react';
import { renderToPipeableStream, renderToReadableStream } from 'react-dom/server';
import { pathOf } from './app.js';

const ROWS = Array.from({ length: 100 }, (_, i) => ({ id: i, name: `Item ${i}`, price: ((i * 137) / 100).toFixed(2) }));
const HTML = { 'content-type': 'text/html; charset=utf-8' };

function Late({ data }: { data: Promise<string> }): ReactNode {
  return createElement('p', null, use(data));
}

function Page({ late }: { late?: Promise<string> }): ReactNode {
  const rows = ROWS.map((row) =>
    createElement(
      'tr',
      { key: row.id },
      createElement('td', null, row.id),
      createElement('td', null, row.name),
      createElement('td', null, row.price),
    ),
  );
  const table = createElement('table', null, createElement('tbody', null, rows));
  const part = late
    ? createElement(Suspense, { fallback: createElement('p', null, 'loading') }, createElement(Late, { data: late }))
    : null;
  return createElement(
    'html',
    null,
    createElement('head', null, createElement('title', null, 'Items')),
    createElement('body', null, createElement('h1', null, 'Items'), table, part),
  );
}

/** The page for `path`: its part's data comes on the next turn of the event loop. */
function pageFor(path: string | undefined): ReactNode {
  const late = path === '/suspense' ? new Promise<string>((resolve) => setImmediate(() => resolve('late'))) : undefined;
  return createElement(Page, { late });
}

/** The fetch handler, as React Router's template writes it: the request's signal stops a render whose client left. */
export async function reactFetch(request: Request): Promise<Response> {
  const stream = await renderToReadableStream(pageFor(pathOf(request.url)), { signal: request.signal });
  return new Response(stream, { headers: HTML });
}

/** node:http's request listener, as React's docs write it for Node; a client that leaves stops the render here too. */
export function reactListener(req: IncomingMessage, res: ServerResponse): void {
  const { pipe, abort } = renderToPipeableStream(pageFor(req.url), {
    onShellReady() {
      res.writeHead(200, HTML);
      pipe(res);
    },
    onShellError() {
      res.writeHead(500).end();
    },
  });
  res.once('close', () => abort());
}
