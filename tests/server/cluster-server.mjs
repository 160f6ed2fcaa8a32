// A cluster entry script (built code: each worker runs this file again with plain node): the primary and every worker run it. Prints the URL once listening;
// closes gracefully when "close" arrives on stdin (primary only). With an argument, listens on that Unix socket path.
// PORT: the port (default: any free one). BROKEN_FLAG: a file whose presence makes a worker throw before it serves.
import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import { serve } from '../../dist/src/server/node.js';

const path = process.argv[2];
const flag = process.env.BROKEN_FLAG;
if (cluster.isWorker && flag && existsSync(flag)) throw new Error('this worker cannot start');
const port = Number(process.env.PORT ?? 0);
const server = serve({ workers: 2, ...(path ? { path } : { port }), fetch: () => new Response(String(process.pid)) });
let failed = false;
try {
  await server.ready;
} catch (error) {
  if (!cluster.isPrimary) throw error;
  // The primary ends once nothing is left running: no worker, no timer.
  console.log(`failed: ${error.message}`);
  failed = true;
}
if (process.send === undefined && !failed) {
  console.log(server.url);
  process.stdin.on('data', async (data) => {
    if (!String(data).includes('close')) return;
    await server.close();
    console.log('closed');
    process.stdin.pause();
  });
}
