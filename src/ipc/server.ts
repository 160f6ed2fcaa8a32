// The serving half of a channel: handlers by method, the requests and streams they are running
// (so a CANCEL aborts the right one's signal), fed by the REQUEST, STREAM, CANCEL and CREDIT
// frames. Every error goes back as one kind of ERROR payload (link.ts `errorPayload`).
import { IpcError } from './errors.js';
import { IpcFrameType } from './frame.js';
import { readCredit } from './credit.js';
import { DEFAULT_STREAM_WINDOW, errorPayload, MAX_STREAM_WINDOW, type ChannelFrame, type ChannelLink, type StreamWindow } from './link.js';
import { StreamSender } from './stream-sender.js';

/** A method's handler: its result (or a promise, or for a stream an iterable) goes back to the caller. */
export type Handler = (params: unknown, context: { signal: AbortSignal }) => unknown;

/**
 * The context a handler gets. Making an AbortController for every request was 10% of a round trip,
 * so it is made the first time the handler reads `signal` (already aborted if the caller gave up).
 */
class Serving {
  private controller: AbortController | null = null;
  private reason: unknown = undefined;
  aborted = false;

  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.aborted && !this.controller.signal.aborted) this.controller.abort(this.reason);
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}

const EMPTY = new Uint8Array(0);
const NO_HANDLER = 'ERR_NO_HANDLER';

/** The serving half of an IpcChannel. */
export class Server {
  readonly handlers = new Map<string, Handler>();
  /** Requests being served; their AbortController is made only if the handler reads `signal`. */
  private readonly running = new Map<number, Serving>();
  private readonly senders = new Map<number, StreamSender>();

  constructor(private readonly link: ChannelLink) {}

  /** A frame for this half (REQUEST, STREAM, CANCEL, CREDIT). */
  receive(frame: ChannelFrame): void {
    switch (frame.type) {
      case IpcFrameType.REQUEST:
        return this.serve(frame.id, this.link.codec.decode(frame.payload) as [string, unknown]);
      case IpcFrameType.STREAM:
        return this.serveStream(frame.id, this.link.codec.decode(frame.payload) as [string, unknown, number, number]);
      case IpcFrameType.CANCEL:
        this.running.get(frame.id)?.abort(new IpcError('ERR_CANCELLED', 'the caller cancelled'));
        this.running.delete(frame.id);
        this.senders.get(frame.id)?.stop();
        return;
      case IpcFrameType.CREDIT: {
        const { items, bytes } = readCredit(frame.payload);
        return this.senders.get(frame.id)?.grant(Math.min(items, MAX_STREAM_WINDOW.items), Math.min(bytes, MAX_STREAM_WINDOW.bytes));
      }
    }
  }

  /** The transport's pipe took its backlog: streams waiting on it go on. */
  drained(): void {
    for (const sender of this.senders.values()) sender.drained();
  }

  /** The channel failed: running handlers' signals abort, streams stop. */
  fail(error: Error): void {
    for (const serving of this.running.values()) serving.abort(error);
    this.running.clear();
    for (const sender of this.senders.values()) sender.stop();
    this.senders.clear();
  }

  private serve(id: number, [method, params]: [string, unknown]): void {
    const handler = this.handlers.get(method);
    if (!handler) return this.replyError(id, `no handler for ${method}`, NO_HANDLER);
    const serving = new Serving();
    const fail = (error: unknown) => {
      if (!serving.aborted) this.replyError(id, error);
    };
    let result: unknown;
    try {
      result = handler(params, serving);
    } catch (error) {
      return fail(error);
    }
    const thenable = result !== null && typeof (result as PromiseLike<unknown> | undefined)?.then === 'function';
    if (!thenable) return this.reply(id, result ?? null);
    // Asynchronous handlers can be cancelled while they run.
    this.running.set(id, serving);
    Promise.resolve(result)
      .then((value) => {
        if (!serving.aborted) this.reply(id, value ?? null);
      }, fail)
      .finally(() => this.running.delete(id));
  }

  private serveStream(id: number, [method, params, items, bytes]: [string, unknown, number, number]): void {
    const handler = this.handlers.get(method);
    if (!handler) return this.replyError(id, `no handler for ${method}`, NO_HANDLER);
    const window = { items: windowPart(items, 'items'), bytes: windowPart(bytes, 'bytes') };
    const serving = new Serving();
    const sender = new StreamSender(window, {
      item: (value) => this.quietly(IpcFrameType.DATA, id, this.link.codec.encode(value)),
      backlogged: () => this.link.backlogged(),
      end: () => this.quietly(IpcFrameType.END, id, EMPTY),
      error: (error) => this.replyError(id, error),
    });
    this.running.set(id, serving);
    this.senders.set(id, sender);
    let source: unknown;
    try {
      source = handler(params, serving);
    } catch (error) {
      source = Promise.reject(error);
    }
    void sender.pump(source).finally(() => {
      this.running.delete(id);
      this.senders.delete(id);
    });
  }

  /** The handler's result; one too large for a frame (or not encodable) becomes an error for the caller. */
  private reply(id: number, value: unknown): void {
    if (this.link.failure()) return;
    try {
      this.link.send(IpcFrameType.RESPONSE, id, this.link.codec.encode(value));
    } catch (error) {
      this.replyError(id, error);
    }
  }

  private replyError(id: number, error: unknown, code?: string): void {
    this.quietly(IpcFrameType.ERROR, id, errorPayload(this.link.codec, error, code));
  }

  /** A frame this half may skip once the channel failed; returns its payload's size (0 if skipped). */
  private quietly(type: IpcFrameType, id: number, payload: unknown): number {
    return this.link.failure() ? 0 : this.link.send(type, id, payload);
  }
}

/** A STREAM frame's window, items or bytes: the caller's if it is a positive integer, at most the largest. */
function windowPart(asked: unknown, part: keyof StreamWindow): number {
  return Number.isInteger(asked) && (asked as number) > 0
    ? Math.min(asked as number, MAX_STREAM_WINDOW[part])
    : DEFAULT_STREAM_WINDOW[part];
}
