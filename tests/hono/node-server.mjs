// The peer on Node: the same hono app on @hono/node-server (its defaults: its Response installed
// as the global). Prints its URL; exits when stdin closes.
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { serveStatic } from '@hono/node-server/serve-static';
import { createApp } from './app.mjs';

const app = createApp({ staticFiles: serveStatic, connInfo: getConnInfo });
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => console.log(`http://127.0.0.1:${info.port}`));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
