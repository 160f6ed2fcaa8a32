// Small helpers for the test suites.
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
