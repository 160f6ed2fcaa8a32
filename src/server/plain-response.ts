// The short text responses the server writes itself (408, 413, 500, 501, ...), the same on every
// protocol: the status line's reason phrase, and the error code when there is one.
import { STATUS_REASONS } from '../http1/status.js';

/** The fields of every plain response. */
export const PLAIN_FIELDS: readonly [string, string][] = [['content-type', 'text/plain; charset=utf-8']];

/** `413 Content Too Large (ERR_BODY_TOO_LARGE)\n`: the body of a plain response (ASCII). */
export function plainText(status: number, code?: string): string {
  return `${status} ${STATUS_REASONS[status] ?? ''}${code ? ` (${code})` : ''}\n`;
}

/** A plain text/plain response, with `extra` fields. */
export function plainResponse(status: number, code?: string, extra: [string, string][] = []): Response {
  return new Response(plainText(status, code), { status, headers: [...PLAIN_FIELDS, ...extra] });
}
