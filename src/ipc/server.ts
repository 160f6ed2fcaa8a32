// The serving half of a channel: handlers by method, the requests and streams they are running
// (so a CANCEL aborts the right one's signal), fed by the REQUEST, STREAM, CANCEL and CREDIT
// frames. Every error goes back as one kind of ERROR payload (error-payload.ts).
//
// Two bounds hold what the other side can make this side keep. It may run at most `maxConcurrent`
// requests and streams at once (it learns the number from the Hello and queues the rest at home),
// so a peer past it is broken or hostile and fails the channel. And while the transport has a
// backlog (the other side is not reading its answers), new requests wait instead of running, as
// node:http holds pipelined requests while a response waits for `drain`: answers never pile up
// here faster than the other side takes them. Reading goes on, so two channels that both wait on
// each other cannot deadlock.
import { IpcError } from './errors.js';
import { corruptPayload, IpcFrameType, isNamed } from './frame.js';
import { readCredit } from './credit.js';
import { errorPayload } from './error-payload.js';
import { DEFAULT_STREAM_WINDOW, MAX_STREAM_WINDOW, type ChannelFrame, type ChannelLink, type StreamWindow } from './link.js';
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

/** A REQUEST or STREAM frame, decoded. */
interface Opening {
  type: typeof IpcFrameType.REQUEST | typeof IpcFrameType.STREAM;
  id: number;
  message: unknown;
}

const EMPTY = new Uint8Array(0);

/** The serving half of an IpcChannel. */
export class Server {
  readonly handlers = new Map<string, Handler>();
  /**
   * Requests and streams being served and not yet answered (a request whose handler returned a
   * value is answered at once and never here); their AbortController is made only if the handler
   * reads `signal`.
   */
  private readonly running = new Map<number, Serving>();
  private readonly senders = new Map<number, StreamSender>();
  /** Requests and streams waiting for the transport's backlog to clear, by id, oldest first. */
  private readonly held = new Map<number, Opening>();

  constructor(
    private readonly link: ChannelLink,
    /** How many requests and streams the other side may have here at once (ChannelOptions.maxConcurrent). */
    private readonly maxConcurrent: number,
  ) {}

  /** A frame for this half (REQUEST, STREAM, CANCEL, CREDIT). */
  receive(frame: ChannelFrame): void {
    switch (frame.type) {
      case IpcFrameType.REQUEST:
      case IpcFrameType.STREAM: {
        this.admit(frame.id);
        const message = this.link.codec.decode(frame.payload);
        if (!isNamed(message)) throw corruptPayload(frame.type, '[method, params, ...]', message);
        const opening = { type: frame.type, id: frame.id, message };
        if (this.held.size > 0 || this.link.backlogged()) this.held.set(frame.id, opening);
        else this.start(opening);
        return;
      }
      case IpcFrameType.CANCEL:
        this.running.get(frame.id)?.abort(new IpcError('ERR_CANCELLED', 'the caller cancelled'));
        this.running.delete(frame.id);
        this.senders.get(frame.id)?.stop();
        this.held.delete(frame.id);
        return;
      case IpcFrameType.CREDIT: {
        const { items, bytes } = readCredit(frame.payload);
        return this.senders.get(frame.id)?.grant(Math.min(items, MAX_STREAM_WINDOW.items), Math.min(bytes, MAX_STREAM_WINDOW.bytes));
      }
    }
  }

  /** The transport's pipe took its backlog: streams waiting on it go on, held requests start. */
  drained(): void {
    for (const sender of this.senders.values()) sender.drained();
    for (const [id, opening] of this.held) {
      if (this.link.backlogged() || this.link.failure()) return;
      this.held.delete(id);
      this.start(opening);
    }
  }

  /** The channel failed: running handlers' signals abort, streams stop. */
  fail(error: Error): void {
    for (const serving of this.running.values()) serving.abort(error);
    this.running.clear();
    for (const sender of this.senders.values()) sender.stop();
    this.senders.clear();
    this.held.clear();
  }

  /** Checks a REQUEST or STREAM against what the other side agreed to; a breach fails the channel. */
  private admit(id: number): void {
    if (this.running.has(id) || this.held.has(id))
      throw new IpcError('ERR_CORRUPT_FRAME', `the other side reused id ${id}, which is still running`);
    if (this.running.size + this.held.size >= this.maxConcurrent)
      throw new IpcError(
        'ERR_TOO_MANY_REQUESTS',
        `the other side sent more than the ${this.maxConcurrent} requests and streams it may have here at once (maxConcurrent)`,
      );
  }

  private start({ type, id, message }: Opening): void {
    if (type === IpcFrameType.REQUEST) this.serve(id, message as [string, unknown]);
    else this.serveStream(id, message as [string, unknown, number, number]);
  }

  private serve(id: number, [method, params]: [string, unknown]): void {
    const handler = this.handlers.get(method);
    if (!handler) return this.replyError(id, `no handler for ${method}`, 'ERR_NO_HANDLER');
    const serving = new Serving();
    let result: unknown;
    try {
      result = handler(params, serving);
    } catch (error) {
      return this.replyError(id, error);
    }
    const thenable = result !== null && typeof (result as PromiseLike<unknown> | undefined)?.then === 'function';
    if (!thenable) return this.reply(id, result ?? null);
    // Asynchronous handlers can be cancelled while they run.
    this.running.set(id, serving);
    Promise.resolve(result).then(
      (value) => {
        if (this.finish(id, serving)) this.reply(id, value ?? null);
      },
      (error) => {
        if (this.finish(id, serving)) this.replyError(id, error);
      },
    );
  }

  private serveStream(id: number, [method, params, items, bytes]: [string, unknown, number, number]): void {
    const handler = this.handlers.get(method);
    if (!handler) return this.replyError(id, `no handler for ${method}`, 'ERR_NO_HANDLER');
    const window = { items: windowPart(items, 'items'), bytes: windowPart(bytes, 'bytes') };
    const serving = new Serving();
    const sender = new StreamSender(window, {
      item: (value) => (this.link.failure() ? 0 : this.link.sendValue(IpcFrameType.DATA, id, value)),
      backlogged: () => this.link.backlogged(),
      end: () => {
        if (this.finish(id, serving)) this.quietly(IpcFrameType.END, id, EMPTY);
      },
      error: (error) => {
        if (this.finish(id, serving)) this.replyError(id, error);
      },
    });
    this.running.set(id, serving);
    this.senders.set(id, sender);
    let source: unknown;
    try {
      source = handler(params, serving);
    } catch (error) {
      source = Promise.reject(error);
    }
    void sender.pump(source).finally(() => this.senders.delete(id));
  }

  /**
   * A request or stream is answered: it leaves the running set before its last frame goes, so the
   * other side, which counts it until that frame arrives, never sees fewer slots than this side
   * does. False if it was cancelled (or the channel failed) first: then nothing is sent.
   */
  private finish(id: number, serving: Serving): boolean {
    if (serving.aborted) return false;
    this.running.delete(id);
    return true;
  }

  /** The handler's result; one too large for a frame (or not encodable) becomes an error for the caller. */
  private reply(id: number, value: unknown): void {
    if (this.link.failure()) return;
    try {
      this.link.sendValue(IpcFrameType.RESPONSE, id, value);
    } catch (error) {
      this.replyError(id, error);
    }
  }

  private replyError(id: number, error: unknown, code?: 'ERR_NO_HANDLER'): void {
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
