import { plainResponse } from './plain-response.js';

/** The 500 for an error no handler turned into a response; the error goes to the log. */
export function internalError(error: unknown): Response {
  console.error(error);
  return plainResponse(500);
}
