// The server suite on Node, in this process.
import { launchNode } from './launchers.js';
import { serverSuite } from './suite.js';

serverSuite('node', launchNode);
