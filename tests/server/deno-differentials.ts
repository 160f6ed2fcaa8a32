// The differentials of LightResponse and the lazy Request on Deno (run by
// deno-differentials.test.ts): serve() installs both there too, so they must do what Deno's own
// Response and Request do. Takes `[kind, options]` as JSON; prints the comparison as one JSON line.
import { LightResponse, RuntimeResponse } from '../../src/server/light-response.js';
import { compareResponsePrograms } from './light-response-programs.js';
import { compareRequestPrograms } from './request-programs.js';

declare const Deno: { args: string[] };

const [kind, options] = JSON.parse(Deno.args[0]!);
const result =
  kind === 'response' ? await compareResponsePrograms(LightResponse, RuntimeResponse, options) : await compareRequestPrograms(options);
console.log(JSON.stringify(result));
