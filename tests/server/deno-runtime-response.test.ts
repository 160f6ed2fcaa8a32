// The server suite on Deno with `overrideGlobalObjects: false`: handlers return Deno's own
// Response, which the server reads through its public API only (body stream, headers).
import { launchDeno } from './launchers.js';
import { serverSuite } from './suite.js';

serverSuite('deno (runtime Response)', (options) => launchDeno({ ...options, overrideGlobalObjects: false }), { globalsReplaced: false });
