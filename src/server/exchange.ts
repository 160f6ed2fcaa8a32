// One request and its response, whatever the protocol: what the handler's signal, the request
// body and the response's progress share on HTTP/1.1 (Http1Exchange) and HTTP/2 (Http2Stream).
import type { ResponseBody } from './body-chunks.js';
import type { BodyFlow, RequestBody } from './request-body.js';
import type { PendingUpgrade } from './websocket/upgrade.js';
import type { InterruptedError } from './request-info.js';

/** How the response ended: not yet (null), sent whole (true), or why it could not be. */
type Outcome = true | Error | null;

/** One request and its response, whatever the protocol. */
export abstract class Exchange implements BodyFlow {
  /** Null for a request without a body. */
  body: RequestBody | null = null;
  /** The handler's request (null for requests the server answers itself). */
  request: Request | null = null;
  /** Something of the response went out (or is on its way): the handler can no longer answer. */
  responseStarted = false;
  /** A WebSocket handshake the handler accepted (upgradeWebSocket): the switch happens if it returns that response. */
  upgrade: PendingUpgrade | null = null;
  /** HTTP/2: the request is an extended CONNECT for a WebSocket (RFC 8441). */
  extendedConnect = false;
  /** The stream body of the response while it is being written. */
  responseBody: ResponseBody | null = null;
  private abort: AbortController | null = null;
  private outcome: Outcome = null;
  /** `info.completed`, made when first asked for, and how to settle it. */
  private completion: { promise: Promise<void>; settle: (outcome: true | Error) => void } | null = null;

  /** The handler's `request.signal`, made when first asked for. */
  signal(): AbortSignal {
    return (this.abort ??= new AbortController()).signal;
  }

  /** The client went away, or the exchange cannot finish: the body read and the signal fail with `reason`. */
  cancel(reason: Error): void {
    this.body?.fail(reason);
    // Made now if nobody asked for it yet: a handler that reads its signal later must find it
    // aborted (it found a fresh one, not aborted, when the controller was made only on demand).
    (this.abort ??= new AbortController()).abort(reason);
    this.settle(reason);
  }

  /** The response was written whole (or, for a WebSocket, its handshake's answer). */
  responseSent(): void {
    this.settle(true);
  }

  /** The handler info's `completed`: settles with the first outcome, made once. */
  completed(interrupted: InterruptedError): Promise<void> {
    if (this.completion) return this.completion.promise;
    let settle!: (outcome: true | Error) => void;
    const promise = new Promise<void>((resolve, reject) => {
      settle = (outcome) => (outcome === true ? resolve() : reject(interrupted(outcome)));
    });
    this.completion = { promise, settle };
    if (this.outcome) settle(this.outcome);
    return promise;
  }

  private settle(outcome: true | Error): void {
    if (this.outcome) return;
    this.outcome = outcome;
    this.completion?.settle(outcome);
  }

  /** The response can no longer reach the client (closed, reset): a stream body being written is cancelled. */
  abandonResponse(reason: Error): void {
    this.responseBody?.abandon(reason);
    this.responseBody = null;
  }

  // BodyFlow: how the handler's reading paces the client, which each protocol does its own way.
  abstract pause(): void;
  abstract resume(): void;
  abstract sendContinue(): void;
}
