// The events a WebSocket dispatches. Deno has CloseEvent and ErrorEvent; Node 20 has neither
// (CloseEvent came in Node 23), so the same shapes are made here when the runtime lacks them.

/** What a close event carries (the runtime's CloseEvent, or ours on Node 20). */
export interface CloseEventShape extends Event {
  readonly code: number;
  readonly reason: string;
  readonly wasClean: boolean;
}

class WebSocketCloseEvent extends Event implements CloseEventShape {
  readonly code: number;
  readonly reason: string;
  readonly wasClean: boolean;
  constructor(type: string, init: { code?: number; reason?: string; wasClean?: boolean } = {}) {
    super(type);
    this.code = init.code ?? 0;
    this.reason = init.reason ?? '';
    this.wasClean = init.wasClean ?? false;
  }
}

class WebSocketErrorEvent extends Event {
  readonly error: unknown;
  readonly message: string;
  constructor(type: string, init: { error?: unknown; message?: string } = {}) {
    super(type);
    this.error = init.error;
    this.message = init.message ?? '';
  }
}

type CloseEventClass = new (type: string, init: { code: number; reason: string; wasClean: boolean }) => CloseEventShape;
type ErrorEventClass = new (type: string, init: { error: unknown; message: string }) => Event;

const CloseEventImpl: CloseEventClass = (globalThis as { CloseEvent?: CloseEventClass }).CloseEvent ?? WebSocketCloseEvent;
const ErrorEventImpl: ErrorEventClass = (globalThis as { ErrorEvent?: ErrorEventClass }).ErrorEvent ?? WebSocketErrorEvent;

/** A close event. */
export function closeEvent(code: number, reason: string, wasClean: boolean): CloseEventShape {
  return new CloseEventImpl('close', { code, reason, wasClean });
}

/** An error event carrying `error`. */
export function errorEvent(error: unknown): Event {
  return new ErrorEventImpl('error', { error, message: error instanceof Error ? error.message : String(error) });
}

/** A message event carrying `data`. */
export function messageEvent(data: unknown, origin: string): MessageEvent {
  return new MessageEvent('message', { data, origin });
}
