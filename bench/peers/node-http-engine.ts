// node:http's own writer and header access, without a socket: a ServerResponse that has no socket
// yet keeps what it writes in memory (as it does until a socket is assigned), so what is measured
// is building the head and queuing the body.
import http from 'node:http';
import net from 'node:net';

const socket = new net.Socket();

interface Queued {
  data: string | Uint8Array;
  encoding?: BufferEncoding;
}

/**
 * Writes a 200 with `type` and `body` the way a node:http handler does, then turns what it queued
 * into the bytes a socket would send (as the socket's write does); returns their count.
 */
export function nodeWrite(type: string, body: string): () => number {
  const request = new http.IncomingMessage(socket);
  return () => {
    const response = new http.ServerResponse(request);
    response.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    response.end(body);
    let bytes = 0;
    for (const { data, encoding } of (response as unknown as { outputData: Queued[] }).outputData) {
      bytes += (typeof data === 'string' ? Buffer.from(data, encoding ?? 'latin1') : data).length;
    }
    return bytes;
  };
}

/**
 * `req.headers[name]` on a request given `rawHeaders` as node:http's parser gives them
 * (`_addHeaderLines`, as in lib/_http_common.js); node builds the object on first access.
 */
export function nodeHeaderLookup(rawHeaders: string[], name: string): () => number {
  return () => {
    const request = new http.IncomingMessage(socket) as http.IncomingMessage & { _addHeaderLines(headers: string[], n: number): void };
    request._addHeaderLines(rawHeaders, rawHeaders.length);
    return (request.headers[name] as string | undefined)?.length ?? 0;
  };
}
