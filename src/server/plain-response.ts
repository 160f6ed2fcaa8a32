// The short text responses the server writes itself (408, 413, 500, 501, ...), the same on every
// protocol: the status line's reason phrase, and the error code when there is one.
import { STATUS_REASONS } from '../http1/status.js';

/** `413 Content Too Large (ERR_BODY_TOO_LARGE)\n` as a text/plain response, with `extra` fields. */
export function plainResponse(status: number, code?: string, extra: [string, string][] = []): Response {
  const text = `${status} ${STATUS_REASONS[status] ?? ''}${code ? ` (${code})` : ''}\n`;
  return new Response(text, { status, headers: [['content-type', 'text/plain; charset=utf-8'], ...extra] });
}
