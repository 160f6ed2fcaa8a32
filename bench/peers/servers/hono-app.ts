// The hono app of the `server` suite's hono groups, the same on every server that runs it
// (wirespeed on Node and Deno, @hono/node-server, Deno.serve): what a hono user writes.
//   GET /hello → c.text, GET /json → c.json,
//   GET /mw/items/:id → a route param through cors + etag + secureHeaders (hono re-wraps the
//   response after each header-setting middleware).
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { etag } from 'hono/etag';
import { secureHeaders } from 'hono/secure-headers';
import { HELLO, JSON_BODY } from './app.js';

export function honoApp(): Hono {
  const app = new Hono();
  app.get('/hello', (c) => c.text(HELLO));
  app.get('/json', (c) => c.json(JSON_BODY));
  app.use('/mw/*', cors(), etag(), secureHeaders());
  app.get('/mw/items/:id', (c) => c.json({ item: c.req.param('id'), ...JSON_BODY }));
  return app;
}
