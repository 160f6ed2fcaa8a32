// The server suite on Node with `overrideGlobalObjects: false`: handlers return undici's own
// Response, which the server reads through its public API only (body stream, headers).
import { launchNode } from './launchers.js';
import { serverSuite } from './suite.js';

/** Node 24 reads a Blob's stream through I/O turns (suite.ts, `blobLengthKnown`). */
const NODE_READS_BLOBS_THROUGH_IO = Number(process.versions.node.split('.')[0]) >= 24;

serverSuite('node (runtime Response)', (options) => launchNode({ ...options, overrideGlobalObjects: false }), {
  globalsReplaced: false,
  blobLengthKnown: !NODE_READS_BLOBS_THROUGH_IO,
});
