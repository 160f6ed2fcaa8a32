// What a protocol connection (HTTP/1.1, HTTP/2, next WebSocket) needs from the server it belongs
// to: the one seam between the protocol connections and the server core (server-core.ts).
import type { ConnectionInfo, ResolvedServeOptions } from './options.js';
import type { Transport } from './transport.js';

export interface ConnectionHost {
  readonly options: ResolvedServeOptions;
  /** Runs the handler (routes, fetch, onError): a Response or a promise of one, never a throw. */
  respond(request: Request, info: ConnectionInfo): Response | Promise<Response>;
  /** The server is shutting down: finish what is in flight, take nothing new. */
  readonly closing: boolean;
  /** The connection on `transport` is closed. */
  connectionClosed(transport: Transport): void;
  /** An error after the response began (its body stream failed): no response can say it any more. */
  reportError(error: unknown, request: Request | null): void;
}
