// wirespeed/hono: what a hono app needs from the server besides `app.fetch`. The server passes its
// ConnectionInfo as the second argument of the handler, which hono makes `c.env`.
import type { ConnectionInfo } from '../server/connection.js';

/** hono's ConnInfo shape (hono/conninfo). */
export interface ConnInfo {
  remote: {
    address?: string;
    port?: number;
    addressType?: 'IPv4' | 'IPv6';
    transport?: 'tcp' | 'udp';
  };
}

/**
 * The client's address for a hono app served by wirespeed, as `getConnInfo` from
 * `@hono/node-server/conninfo` gives it: `app.get('/', (c) => c.text(getConnInfo(c).remote.address!))`.
 */
export function getConnInfo(c: { env: unknown }): ConnInfo {
  const info = c.env as Partial<ConnectionInfo> | undefined;
  const address = info?.remoteAddress;
  if (typeof address !== 'string')
    throw new TypeError('getConnInfo: c.env is not the ConnectionInfo of a wirespeed server (pass app.fetch to serve())');
  return { remote: { address, port: info!.remotePort, addressType: address.includes(':') ? 'IPv6' : 'IPv4', transport: 'tcp' } };
}
