import type { Suite } from '../harness/types.js';
import { engineSuite } from './engine.js';
import { hpackSuite } from './hpack.js';
import { http2Suite } from './http2.js';
import { ipcSuite } from './ipc.js';
import { parserSuite } from './parser.js';
import { routerSuite } from './router.js';
import { serverSuite } from './server.js';
import { websocketSuite } from './websocket.js';

/** Every suite, by name. */
export const SUITES: Record<string, Suite> = {
  parser: parserSuite,
  engine: engineSuite,
  hpack: hpackSuite,
  router: routerSuite,
  ipc: ipcSuite,
  http2: http2Suite,
  server: serverSuite,
  websocket: websocketSuite,
};
