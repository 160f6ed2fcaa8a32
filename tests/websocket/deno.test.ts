// The WebSocket suite on Deno: the server in a Deno process.
import { launchDeno } from '../server/launchers.js';
import { webSocketSuite } from './suite.js';

webSocketSuite('deno', launchDeno);
