// The server suite on Node with `overrideGlobalObjects: false`: handlers return undici's own
// Response, which the server reads through its public API only (body stream, headers).
import { launchNode } from './launchers.js';
import { serverSuite } from './suite.js';

serverSuite('node (runtime Response)', (options) => launchNode({ ...options, overrideGlobalObjects: false }), { globalsReplaced: false });
