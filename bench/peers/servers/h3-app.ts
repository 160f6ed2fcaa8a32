// The h3 app of the `server` suite's h3 groups, the same on wirespeed/node and on h3's own server
// (srvx, what `serve(app)` from h3 runs): what an h3 user writes.
//   GET /hello → a string, GET /json → an object (h3 makes srvx's FastResponse of both),
//   GET /items/:id → a route param as JSON, GET /response → a Response the handler makes itself.
import { H3 } from 'h3';
import { HELLO, JSON_BODY } from './app.js';

export function h3App(): H3 {
  const app = new H3();
  app.get('/hello', () => HELLO);
  app.get('/json', () => JSON_BODY);
  app.get('/items/:id', (event) => ({ item: event.context.params?.id, ...JSON_BODY }));
  app.get('/response', () => new Response(HELLO, { headers: { 'content-type': 'text/plain' } }));
  return app;
}
