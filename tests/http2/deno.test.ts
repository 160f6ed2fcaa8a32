// The HTTP/2 suite on Deno (npm package `deno`), the server in a Deno process.
import { launchDeno } from '../server/launchers.js';
import { http2Suite } from './suite.js';

http2Suite('deno', launchDeno);
