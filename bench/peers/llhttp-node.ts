// Node's own llhttp (the native binding behind node:http), driven the way node:http drives it
// (lib/_http_common.js): headers may arrive in batches of 32 through kOnHeaders, trailers after the
// body through kOnHeaders too.
import { createRequire } from 'node:module';

interface NodeHTTPParser {
  initialize(type: number, resource: object, maxHeaderSize?: number, lenient?: number): void;
  execute(data: Uint8Array): number | Error;
  finish(): number | Error | undefined;
  close(): void;
  [key: number]: unknown;
}
interface NodeHTTPParserClass {
  new (): NodeHTTPParser;
  REQUEST: number;
  RESPONSE: number;
  kOnHeaders: number;
  kOnHeadersComplete: number;
  kOnBody: number;
  kOnMessageComplete: number;
}

const require = createRequire(import.meta.url);
const common = require('_http_common') as { HTTPParser: NodeHTTPParserClass; methods: string[] };
export const HTTPParser = common.HTTPParser;
export const methods = common.methods;

export interface LlhttpMessage {
  method: string;
  url: string;
  /** A response's status code (0 for a request). */
  status: number;
  versionMinor: number;
  /** Flat [name, value, name, value, ...] as llhttp reports them. */
  rawHeaders: string[];
  body: Uint8Array[];
  rawTrailers: string[];
  keepAlive: boolean;
  upgrade: boolean;
}

/**
 * What node:http answers llhttp once a head is read: 0 to read the body the head frames, 1 to
 * read none (a response to HEAD), 2 to stop for a new protocol (a 2xx answer to CONNECT).
 */
type AfterHead = (status: number) => 0 | 1 | 2;

/** llhttp over one stream of messages, collecting each (the same work node:http does). */
class LlhttpParser {
  readonly messages: LlhttpMessage[] = [];
  private readonly parser = new HTTPParser();
  private pendingHeaders: string[] = [];
  private pendingUrl = '';
  private current: LlhttpMessage | undefined;

  constructor(type: number, keep: boolean, afterHead: AfterHead) {
    const p = this.parser;
    p.initialize(type, {});
    p[HTTPParser.kOnHeaders] = (headers: string[], url: string) => {
      for (let i = 0; i < headers.length; i++) this.pendingHeaders.push(headers[i]);
      this.pendingUrl += url;
    };
    p[HTTPParser.kOnHeadersComplete] = (
      _major: number,
      minor: number,
      headers: string[] | undefined,
      method: number,
      url: string | undefined,
      status: number | undefined,
      _reason: unknown,
      upgrade: boolean,
      keepAlive: boolean,
    ) => {
      const rawHeaders = headers ?? this.pendingHeaders;
      this.current = {
        method: methods[method],
        url: url ?? this.pendingUrl,
        status: status ?? 0,
        versionMinor: minor,
        rawHeaders,
        body: [],
        rawTrailers: [],
        keepAlive,
        upgrade,
      };
      this.pendingHeaders = [];
      this.pendingUrl = '';
      return afterHead(status ?? 0);
    };
    p[HTTPParser.kOnBody] = (chunk: Uint8Array, start?: number, length?: number) => {
      const piece = start === undefined ? chunk : chunk.subarray(start, start + length!);
      if (keep) this.current!.body.push(piece.slice());
    };
    p[HTTPParser.kOnMessageComplete] = () => {
      const message = this.current!;
      message.rawTrailers = this.pendingHeaders;
      // As node:http does: a trailer flush carries the old URL, so drop it with the trailers.
      this.pendingHeaders = [];
      this.pendingUrl = '';
      if (keep) this.messages.push(message);
    };
  }

  /** Throws the llhttp error (with its HPE_* code) on bad input. */
  execute(data: Uint8Array): void {
    const result = this.parser.execute(data);
    if (result instanceof Error) throw result;
  }

  finish(): void {
    const result = this.parser.finish();
    if (result instanceof Error) throw result;
  }

  close(): void {
    this.parser.close();
  }
}

/** A request parser over llhttp. */
export class LlhttpRequestParser extends LlhttpParser {
  constructor(keep = true) {
    super(HTTPParser.REQUEST, keep, () => 0);
  }
}

/**
 * A response parser over llhttp, told the request's method as node:http's client tells it
 * (lib/_http_client.js): one method for every response, or one per request answered in turn
 * (pipelined requests; an interim 1xx answers none).
 */
export class LlhttpResponseParser extends LlhttpParser {
  constructor(requestMethod: string | readonly string[] = 'GET') {
    let answered = 0;
    super(HTTPParser.RESPONSE, true, (status) => {
      const method = typeof requestMethod === 'string' ? requestMethod : (requestMethod[answered] ?? 'GET');
      if (status >= 200) answered++;
      return method === 'HEAD' ? 1 : method === 'CONNECT' && status >= 200 && status < 300 ? 2 : 0;
    });
  }
}
