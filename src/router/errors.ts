/** A route that cannot be added, or a path that cannot be matched. `code` is stable. */
export class RouterError extends Error {
  constructor(
    readonly code: 'ERR_INVALID_PATTERN' | 'ERR_ROUTE_CONFLICT' | 'ERR_INVALID_PERCENT_ENCODING',
    message: string,
  ) {
    super(message);
    this.name = 'RouterError';
  }
}
