// A response body stream read for writing, over HTTP/1.1 or HTTP/2 alike: only Uint8Array chunks,
// empty ones skipped, and never more (nor, at the end, fewer) bytes than a declared length.

/** A stream body broke or did not match its declared length: the response cannot finish. */
export class ResponseBodyError extends Error {}

/**
 * The chunks of `stream`, checked as they come. `length`: the declared Content-Length, or null.
 * Throws ResponseBodyError (a failing stream's error is its cause); the stream is cancelled when
 * a check fails or the consumer stops early.
 */
export async function* bodyChunks(stream: ReadableStream<Uint8Array>, length: number | null): AsyncGenerator<Uint8Array, void, undefined> {
  const reader = stream.getReader();
  let written = 0;
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!(value instanceof Uint8Array)) throw new ResponseBodyError('a response body stream must yield Uint8Array chunks');
      if (value.length === 0) continue;
      written += value.length;
      if (length !== null && written > length) throw new ResponseBodyError(`the response body is longer than its Content-Length ${length}`);
      yield value;
    }
    finished = true;
    if (length !== null && written !== length) throw new ResponseBodyError(`the response body ended at ${written} of its Content-Length ${length} bytes`);
  } catch (error) {
    finished = true;
    void reader.cancel(error).catch(() => undefined);
    throw error instanceof ResponseBodyError ? error : new ResponseBodyError('the response body stream failed', { cause: error });
  } finally {
    // The consumer stopped early (the connection or stream went away).
    if (!finished) void reader.cancel().catch(() => undefined);
  }
}
