// A cluster entry script (built code: each worker runs this file again with plain node): the primary and every worker run it. Prints the URL once listening;
// closes gracefully when "close" arrives on stdin (primary only). With an argument, listens on that Unix socket path.
import { serve } from '../../dist/src/server/node.js';

const path = process.argv[2];
const server = serve({ workers: 2, ...(path ? { path } : {}), fetch: () => new Response(String(process.pid)) });
await server.ready;
if (process.send === undefined) {
  console.log(server.url);
  process.stdin.on('data', async (data) => {
    if (!String(data).includes('close')) return;
    await server.close();
    console.log('closed');
  });
}
