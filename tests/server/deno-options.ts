// Entry point for `deno run`: tries every bad option of option-cases.ts on wirespeed/deno and
// prints what each threw, and what a good server's listening callback got, as JSON.
import { serve, type ListeningInfo } from '../../src/server/deno.js';
import { describeError, optionCases } from './option-cases.js';

const cases = optionCases.map((c) => {
  try {
    serve(c.options() as Parameters<typeof serve>[0], c.listener?.() as Parameters<typeof serve>[1]);
    return { what: c.what, error: 'none', code: '', option: '', message: '' };
  } catch (error) {
    return { what: c.what, ...describeError(error) };
  }
});
const calls: ListeningInfo[] = [];
const server = serve({ fetch: () => new Response('ok') }, (info) => calls.push(info));
await server.ready;
await new Promise((resolve) => setTimeout(resolve, 10));
const listening = { calls, port: server.port };
await server.close();
console.log(JSON.stringify({ cases, listening }));
