// The handler's side of a WebSocket: the WHATWG `WebSocket` interface (as Deno.upgradeWebSocket
// gives it), made by `upgradeWebSocket` before the handshake is answered and opened by the
// connection once it is. Messages, the close and errors arrive as events; `send` and `close` go
// to the connection through a SocketLink.
import { MAX_CLOSE_REASON_BYTES } from '../../websocket/close.js';
import { Opcode } from '../../websocket/frame.js';
import { closeEvent, errorEvent, messageEvent, type CloseEventShape } from './events.js';

/** What a socket asks of its connection. */
export interface SocketLink {
  sendMessage(opcode: number, payload: Uint8Array): void;
  sendText(text: string): void;
  /** Where an error thrown by an `on…` handler goes (the server's logError): one handler must not take the server down. */
  reportError(error: unknown): void;
  /** Starts the closing handshake (§7.1.2); no code sends an empty Close frame. */
  startClose(code: number | undefined, reason: string): void;
  /** Bytes sent but not yet handed to the network. */
  readonly bufferedAmount: number;
}

const CONNECTING = 0;
const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;

const encoder = new TextEncoder();

type Handler = ((this: ServerWebSocket, event: Event) => unknown) | null;
/** An `on…` attribute's value: a listener of that event's own type (as the WHATWG WebSocket's). */
type EventHandler<E extends Event> = ((this: ServerWebSocket, event: E) => unknown) | null;
type HandlerName = 'open' | 'message' | 'close' | 'error';
const HANDLER_BITS: Record<HandlerName, number> = { open: 1, message: 2, close: 4, error: 8 };

/** What the connection does to its socket; kept off the public interface. */
export interface SocketControl {
  open(socket: ServerWebSocket, link: SocketLink): void;
  message(socket: ServerWebSocket, data: string | Uint8Array): void;
  /** The closing handshake began from the client's side, or ours: the state is CLOSING. */
  closing(socket: ServerWebSocket): void;
  closed(socket: ServerWebSocket, code: number, reason: string, wasClean: boolean): void;
  error(socket: ServerWebSocket, error: unknown): void;
}

/** The connection's side of every ServerWebSocket (set by the class). */
export let socketControl: SocketControl;

/** The WHATWG WebSocket a handler holds. */
export class ServerWebSocket extends EventTarget {
  static readonly CONNECTING = CONNECTING;
  static readonly OPEN = OPEN;
  static readonly CLOSING = CLOSING;
  static readonly CLOSED = CLOSED;
  // On the prototype, as the WHATWG interface has them (not four fields in every socket).
  declare readonly CONNECTING: typeof CONNECTING;
  declare readonly OPEN: typeof OPEN;
  declare readonly CLOSING: typeof CLOSING;
  declare readonly CLOSED: typeof CLOSED;

  /** How binary messages arrive: 'blob' (the WHATWG default) or 'arraybuffer'. */
  binaryType: BinaryType = 'blob';
  #readyState = CONNECTING;
  #link: SocketLink | null = null;
  /** The on… attributes, by HandlerName (fields, not a Map: every idle WebSocket holds them). */
  #onopen: Handler = null;
  #onmessage: Handler = null;
  #onclose: Handler = null;
  #onerror: Handler = null;
  /** Which attributes have their listener added (bit per HANDLER_BITS). */
  #listening = 0;
  /** Sends wait here behind a Blob being read, so messages keep their order. */
  #queue: Promise<void> | null = null;
  #queuedBytes = 0;
  /** close() was called before the socket opened: it closes as soon as it does. */
  #closeRequest: { code: number | undefined; reason: string } | null = null;

  static {
    socketControl = {
      open(socket, link) {
        socket.#link = link;
        if (socket.#readyState !== CONNECTING) return;
        socket.#readyState = OPEN;
        socket.dispatchEvent(new Event('open'));
        const request = socket.#closeRequest;
        if (request && socket.#readyState === OPEN) {
          socket.#readyState = CLOSING;
          link.startClose(request.code, request.reason);
        }
      },
      message(socket, data) {
        if (socket.#readyState !== OPEN) return;
        const value =
          typeof data === 'string'
            ? data
            : socket.binaryType === 'arraybuffer'
              ? data.buffer.byteLength === data.length
                ? data.buffer
                : // A copy: `data` may be a Node Buffer (a view of a shared pool), whose slice() is a view.
                  new Uint8Array(data).buffer
              : new Blob([data as Uint8Array<ArrayBuffer>]);
        socket.dispatchEvent(messageEvent(value, ''));
      },
      closing(socket) {
        if (socket.#readyState < CLOSING) socket.#readyState = CLOSING;
      },
      closed(socket, code, reason, wasClean) {
        if (socket.#readyState === CLOSED) return;
        socket.#readyState = CLOSED;
        socket.dispatchEvent(closeEvent(code, reason, wasClean));
      },
      error(socket, error) {
        if (socket.#readyState === CLOSED) return;
        socket.dispatchEvent(errorEvent(error));
      },
    };
  }

  constructor(
    /** The request's URL (ws: or wss:). */
    readonly url: string,
    /** The subprotocol chosen, or ''. */
    readonly protocol: string,
    /** The extensions in use, as negotiated ('' when none). */
    readonly extensions: string = '',
  ) {
    super();
  }

  get readyState(): number {
    return this.#readyState;
  }

  get bufferedAmount(): number {
    return (this.#link?.bufferedAmount ?? 0) + this.#queuedBytes;
  }

  /** Sends a text (string) or binary message. Throws InvalidStateError before the socket opens. */
  send(data: string | ArrayBufferLike | ArrayBufferView | Blob): void {
    const state = this.#readyState;
    if (state === CONNECTING) throw new DOMException('the WebSocket is not open yet', 'InvalidStateError');
    // After close(), data is dropped (the WHATWG standard only counts it in bufferedAmount).
    if (state !== OPEN) return;
    if (data instanceof Blob || this.#queue) return this.#enqueue(data);
    this.#sendNow(data);
  }

  /**
   * Starts the closing handshake. `code` is 1000 or 3000-4999 (else InvalidAccessError); `reason`
   * at most 123 bytes of UTF-8 (else SyntaxError), as the WHATWG standard asks.
   */
  close(code?: number, reason?: string): void {
    if (code !== undefined && code !== 1000 && !(code >= 3000 && code <= 4999)) {
      throw new DOMException(`close code ${code} is neither 1000 nor in 3000-4999`, 'InvalidAccessError');
    }
    const text = reason ?? '';
    if (encoder.encode(text).length > MAX_CLOSE_REASON_BYTES) {
      throw new DOMException(`the close reason is over ${MAX_CLOSE_REASON_BYTES} bytes`, 'SyntaxError');
    }
    // A reason needs a code to go with it.
    const sent = code === undefined && text ? 1000 : code;
    if (this.#readyState >= CLOSING) return;
    if (this.#readyState === CONNECTING) {
      this.#closeRequest = { code: sent, reason: text };
      return;
    }
    this.#readyState = CLOSING;
    this.#link!.startClose(sent, text);
  }

  #sendNow(data: string | ArrayBufferLike | ArrayBufferView): void {
    if (typeof data === 'string') return this.#link!.sendText(data);
    const bytes = ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : new Uint8Array(data as ArrayBuffer);
    this.#link!.sendMessage(Opcode.BINARY, bytes);
  }

  #enqueue(data: string | ArrayBufferLike | ArrayBufferView | Blob): void {
    const size = data instanceof Blob ? data.size : typeof data === 'string' ? data.length : (data as ArrayBufferLike).byteLength;
    this.#queuedBytes += size;
    const read = data instanceof Blob ? data.arrayBuffer() : Promise.resolve(data);
    const queue = (this.#queue ?? Promise.resolve()).then(async () => {
      const value = await read;
      this.#queuedBytes -= size;
      if (this.#readyState === OPEN) this.#sendNow(value);
    });
    this.#queue = queue;
    void queue.then(() => {
      if (this.#queue === queue) this.#queue = null;
    });
  }

  get onopen(): EventHandler<Event> {
    return this.#onopen;
  }
  set onopen(handler: EventHandler<Event>) {
    this.#onopen = this.#listen('open', handler as Handler);
  }
  get onmessage(): EventHandler<MessageEvent> {
    return this.#onmessage;
  }
  set onmessage(handler: EventHandler<MessageEvent>) {
    this.#onmessage = this.#listen('message', handler as Handler);
  }
  get onclose(): EventHandler<CloseEventShape> {
    return this.#onclose;
  }
  set onclose(handler: EventHandler<CloseEventShape>) {
    this.#onclose = this.#listen('close', handler as Handler);
  }
  get onerror(): EventHandler<Event> {
    return this.#onerror;
  }
  set onerror(handler: EventHandler<Event>) {
    this.#onerror = this.#listen('error', handler as Handler);
  }

  #handler(name: HandlerName): Handler {
    return name === 'message' ? this.#onmessage : name === 'open' ? this.#onopen : name === 'close' ? this.#onclose : this.#onerror;
  }

  /**
   * The one listener behind the on… attributes of every socket (HTML §8.1.8.1): it calls the
   * handler the event's socket has set now. Shared, so an idle socket holds no closure for it.
   * The socket is `this` (the listener's this is the event's currentTarget; Node 20 itself
   * reports `event.currentTarget` as null from the second listener on).
   */
  static readonly #attributeListener = function (this: ServerWebSocket, event: Event): void {
    const current = this.#handler(event.type as HandlerName);
    if (typeof current !== 'function') return;
    try {
      current.call(this, event);
    } catch (error) {
      if (!this.#link) throw error;
      this.#link.reportError(error);
    }
  };

  /** An event handler attribute: its listener is added once, when it is first set. */
  #listen(name: HandlerName, handler: Handler): Handler {
    if (!(this.#listening & HANDLER_BITS[name])) {
      this.#listening |= HANDLER_BITS[name];
      this.addEventListener(name, ServerWebSocket.#attributeListener);
    }
    return typeof handler === 'function' ? handler : null;
  }
}

for (const [name, value] of Object.entries({ CONNECTING, OPEN, CLOSING, CLOSED })) {
  Object.defineProperty(ServerWebSocket.prototype, name, { value, enumerable: true });
}
