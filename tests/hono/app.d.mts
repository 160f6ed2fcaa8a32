import type { Hono } from 'hono';

/** The test app of app.mjs. */
export function createApp(): Hono;
