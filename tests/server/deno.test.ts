// The server suite on Deno (npm package `deno`): the same tests, the server in a Deno process.
import { launchDeno } from './launchers.js';
import { serverSuite } from './suite.js';

serverSuite('deno', launchDeno);
