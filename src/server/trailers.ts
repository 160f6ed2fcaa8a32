// Trailer fields, which the fetch API has no place for (RFC 9110 §6.5). A handler reads a request's
// trailers with `requestTrailers(request)` and gives a response trailers with `withTrailers`.
// HTTP/2 carries them both ways; HTTP/1.1 carries them on chunked bodies.

import { fieldList } from '../fields.js';
import { requestBodyOf } from './request.js';

type TrailerSource = () => HeadersInit | Promise<HeadersInit>;

const responseTrailers = new WeakMap<Response, TrailerSource>();

/**
 * Sends `trailers()` after the body of `response`: it is called once the last body byte is queued,
 * so it may report on the body (a checksum, a final status). Returns the same response.
 */
export function withTrailers(response: Response, trailers: TrailerSource): Response {
  responseTrailers.set(response, trailers);
  return response;
}

/** The trailer fields to send after `response`, or null. */
export async function trailersOf(response: Response): Promise<[string, string][] | null> {
  const source = responseTrailers.get(response);
  if (!source) return null;
  return fieldList(new Headers(await source()));
}

/** Whether withTrailers() gave `response` trailers. */
export function hasTrailers(response: Response): boolean {
  return responseTrailers.has(response);
}

/**
 * The trailer fields of a request the server received, once its body has been read to the end
 * (empty when it had none). Rejects if the body broke.
 */
export async function requestTrailers(request: Request): Promise<Headers> {
  const body = requestBodyOf(request);
  if (!body) return new Headers();
  return new Headers(await body.trailers());
}
