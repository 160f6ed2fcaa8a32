import type { Context, Hono, MiddlewareHandler } from 'hono';

/** What app.mjs passes a static file middleware (a subset of @hono/node-server's options). */
export interface StaticOptions {
  root: string;
  rewriteRequestPath(path: string): string;
  onFound(path: string, c: Context): void;
}

/** What a server's getConnInfo gives ipRestriction. */
export type ConnInfoOf = (c: Context) => { remote: { address?: string; addressType?: 'IPv4' | 'IPv6' | 'unknown' } };

/** The test app of app.mjs, with the static file middleware and getConnInfo of its server. */
export function createApp(options?: { staticFiles?: (options: StaticOptions) => MiddlewareHandler; connInfo?: ConnInfoOf }): Hono;

/** The secret of the app's JWT routes. */
export const JWT_SECRET: string;
/** The token of the app's bearerAuth routes. */
export const BEARER_TOKEN: string;
