// The server suite on Node, in this process.
import { serve } from '../../src/server/node.js';
import { appOptions } from './app.js';
import { fixture } from './clients.js';
import { serverSuite, type TestServerOptions } from './suite.js';

async function launch({ tls, ...limits }: TestServerOptions) {
  const server = serve({ ...appOptions(), ...limits, tls: tls ? { cert: fixture('cert.pem'), key: fixture('key.pem') } : undefined });
  await server.ready;
  return { url: server.url, port: server.port, close: () => server.close() };
}

serverSuite('node', launch);
