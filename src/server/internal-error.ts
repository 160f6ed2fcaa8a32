/** The 500 for an error no handler turned into a response; the error goes to the log. */
export function internalError(error: unknown): Response {
  console.error(error);
  return new Response('500 Internal Server Error\n', { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}
