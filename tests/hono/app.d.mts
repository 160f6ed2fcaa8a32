import type { Context, Hono, MiddlewareHandler } from 'hono';

/** What app.mjs passes a static file middleware (a subset of @hono/node-server's options). */
export interface StaticOptions {
  root: string;
  rewriteRequestPath(path: string): string;
  onFound(path: string, c: Context): void;
}

/** The test app of app.mjs, with the static file middleware its server's users take. */
export function createApp(options?: { staticFiles?: (options: StaticOptions) => MiddlewareHandler }): Hono;
