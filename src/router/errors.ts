import { CodedError } from '../errors.js';

/** A route that cannot be added, or a path that cannot be matched. */
export class RouterError extends CodedError<
  'ERR_INVALID_PATTERN' | 'ERR_INVALID_METHOD' | 'ERR_ROUTE_CONFLICT' | 'ERR_INVALID_PERCENT_ENCODING'
> {}
