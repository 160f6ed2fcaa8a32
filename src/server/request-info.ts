// What a handler gets beside its request, as Deno.serve's ServeHandlerInfo: who is on the other
// end, and `completed`, which settles once the response went out whole or could not.
import { CodedError } from '../errors.js';
import type { ConnectionInfo, RuntimeAddress } from './connection.js';
import type { Exchange } from './exchange.js';

/** The info a handler gets with each request. */
export interface RequestInfo extends ConnectionInfo {
  /**
   * Resolves once the response (its body and trailers included) has been written to the
   * connection whole: the handler's, onError's, or one the server gave itself (a 413).
   * **Rejects** when it could not be: the client left, reset its HTTP/2 stream or timed out, the
   * body stream failed, the server closed (exactly when `request.signal` aborts before the end of
   * the response). The error is a ResponseInterruptedError (on Deno `Deno.errors.Interrupted`, as
   * Deno.serve's), its `cause` the reason. Deno.serve's `completed`, for logging a request once it
   * is done or cleaning up after it: handle the rejection (`.catch()`, or `await` in `try`). Made
   * when first read.
   */
  readonly completed: Promise<void>;
}

/** `completed`'s rejection on Node: the response did not go out whole (`cause` says why). */
export class ResponseInterruptedError extends CodedError<'ERR_RESPONSE_INTERRUPTED'> {
  constructor(cause: Error) {
    super('ERR_RESPONSE_INTERRUPTED', `the response was not sent whole: ${cause.message}`, { cause });
  }
}

/** Makes `completed`'s rejection from its cause (the adapter's runtime may have its own class). */
export type InterruptedError = (cause: Error) => Error;

/**
 * One request's info. The connection's facts are own fields (so `{ ...info }` and hono's `c.env`
 * keep them); `completed` is a getter, made only when read.
 */
export class ExchangeInfo implements RequestInfo {
  readonly remoteAddress: string;
  readonly remotePort: number;
  readonly encrypted: boolean;
  // Own field only on Deno (declared, so Node's info has no `remoteAddr: undefined`).
  declare readonly remoteAddr?: RuntimeAddress;
  /** A route's params: set by the router for a route's handler (a fetch handler's info has none). */
  declare params?: Readonly<Record<string, string>>;
  readonly #exchange: Exchange;
  readonly #interrupted: InterruptedError;

  constructor(connection: ConnectionInfo, exchange: Exchange, interrupted: InterruptedError) {
    this.remoteAddress = connection.remoteAddress;
    this.remotePort = connection.remotePort;
    this.encrypted = connection.encrypted;
    if (connection.remoteAddr) (this as { remoteAddr?: RuntimeAddress }).remoteAddr = connection.remoteAddr;
    this.#exchange = exchange;
    this.#interrupted = interrupted;
  }

  get completed(): Promise<void> {
    return this.#exchange.completed(this.#interrupted);
  }
}
