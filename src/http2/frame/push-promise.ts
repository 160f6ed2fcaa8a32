// PUSH_PROMISE (RFC 9113 §6.6). A server never sends it (push is off), and a client cannot: a
// server receiving one treats it as a connection error PROTOCOL_ERROR (§8.4).
import { ConnectionError } from '../errors.js';

/** PUSH_PROMISE from a client is a connection error (§8.4). */
export function rejectPushPromise(): never {
  throw new ConnectionError('PROTOCOL_ERROR', 'a client sent PUSH_PROMISE');
}
