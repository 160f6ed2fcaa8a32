// The HTTP/2 suite on Node, the server in this process.
import { launchNode } from '../server/launchers.js';
import { http2Suite } from './suite.js';

http2Suite('node', launchNode);
