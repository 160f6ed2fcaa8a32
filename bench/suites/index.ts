import type { Suite } from '../harness/types.js';
import { hpackSuite } from './hpack.js';
import { ipcSuite } from './ipc.js';
import { parserSuite } from './parser.js';
import { routerSuite } from './router.js';
import { serverSuite } from './server.js';

/** Every suite, by name. Later suites (hpack, router, ipc, http2, server) register here. */
export const SUITES: Record<string, Suite> = {
  parser: parserSuite,
  hpack: hpackSuite,
  router: routerSuite,
  ipc: ipcSuite,
  server: serverSuite,
};
