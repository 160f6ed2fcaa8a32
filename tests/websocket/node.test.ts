// The WebSocket suite on Node: the server in this process.
import { launchNode } from '../server/launchers.js';
import { webSocketSuite } from './suite.js';

webSocketSuite('node', launchNode);
