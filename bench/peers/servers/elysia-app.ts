// The Elysia app of the `server` suite's Elysia groups, the same on wirespeed/node (its `fetch`)
// and on Elysia's own Node adapter (@elysiajs/node, on srvx): what an Elysia user writes.
//   GET /hello → a string, GET /json → an object, GET /items/:id → a route param as JSON.
import { Elysia, type ElysiaAdapter } from 'elysia';
import { HELLO, JSON_BODY } from './app.js';

/** The app, on `adapter` (Elysia's web-standard one when none is given). */
export function elysiaApp(adapter?: ElysiaAdapter) {
  return new Elysia(adapter ? { adapter } : {})
    .get('/hello', () => HELLO)
    .get('/json', () => JSON_BODY)
    .get('/items/:id', ({ params }) => ({ item: params.id, ...JSON_BODY }));
}
