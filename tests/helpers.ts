// Small helpers for the test suites.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { vi } from 'vitest';
import { RequestParser, ResponseParser, type HeaderList, type RequestHead, type ResponseHead } from '../src/http1/index.js';

export const encode = (text: string): Uint8Array => {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
};
export const decode = (bytes: Uint8Array): string => String.fromCharCode(...bytes);

export interface Message {
  method?: string;
  url?: string;
  status?: number;
  headers: HeaderList;
  body: string;
  trailers: HeaderList;
  keepAlive: boolean;
  upgrade: boolean;
}

/** Everything a parser reports for `input` fed in pieces of `step` bytes (0: all at once). */
export function feed(kind: 'request' | 'response', input: string, step = 0, options = {}) {
  const messages: Message[] = [];
  let current: Message | undefined;
  const handler = {
    onHead(head: RequestHead | ResponseHead) {
      current = {
        headers: head.headers,
        body: '',
        trailers: [],
        keepAlive: head.keepAlive,
        upgrade: head.upgrade,
        ...('method' in head ? { method: head.method, url: head.url } : { status: head.status }),
      };
    },
    onBody(chunk: Uint8Array) {
      current!.body += decode(chunk);
    },
    onTrailers(trailers: HeaderList) {
      current!.trailers = trailers;
    },
    onComplete() {
      messages.push(current!);
    },
  };
  const parser = kind === 'request' ? new RequestParser(handler, options) : new ResponseParser(handler, options);
  const bytes = encode(input);
  const size = step || bytes.length || 1;
  for (let i = 0; i < bytes.length; i += size) parser.execute(bytes.slice(i, i + size));
  return { messages, parser };
}

/** The HttpParseError code thrown by `fn`, or 'none'. */
export function errorCode(fn: () => unknown): string {
  try {
    fn();
    return 'none';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

/**
 * The bytes `run` copies from one typed array to another (`set` and `slice`), but for copies into
 * a target `ignored` says to pass over: to check that input coming in many reads is copied a few
 * times over, not once per read.
 */
export function bytesCopied(run: () => void, ignored: (target: Uint8Array) => boolean = () => false): number {
  let copied = 0;
  const { set, slice } = Uint8Array.prototype;
  vi.spyOn(Uint8Array.prototype, 'set').mockImplementation(function (this: Uint8Array, source, offset) {
    if (!ignored(this)) copied += (source as ArrayLike<number>).length;
    return set.call(this, source, offset);
  });
  vi.spyOn(Uint8Array.prototype, 'slice').mockImplementation(function (this: Uint8Array, start, end) {
    const copy = slice.call(this, start, end);
    copied += copy.length;
    return copy;
  });
  try {
    run();
  } finally {
    vi.restoreAllMocks();
  }
  return copied;
}

let gc: (() => void) | undefined;

/** A full garbage collection (V8's `gc`, exposed on first use). */
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

/** Whether what `ref` holds is collected within ten turns of the event loop, each followed by a full collection. */
export async function collectedSoon(ref: WeakRef<object>): Promise<boolean> {
  for (let i = 0; i < 10 && ref.deref(); i++) {
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
  }
  return ref.deref() === undefined;
}
