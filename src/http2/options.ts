// The limits of an HTTP/2 connection. nghttp2 (Node's http2) is the reference where it has a
// default; the flood limits follow the token buckets nghttp2 added for CVE-2023-44487.
import { checkOptionNames, OptionRangeError } from '../errors.js';

/** The limits of `serve({ http2: { ... } })` (defaults after nghttp2). */
export interface Http2Options {
  /** SETTINGS_MAX_CONCURRENT_STREAMS: more open streams are refused (REFUSED_STREAM). Default 100. */
  maxConcurrentStreams?: number;
  /** SETTINGS_INITIAL_WINDOW_SIZE: request body bytes a stream may send ahead of the handler. Default 256 KiB. */
  initialWindowSize?: number;
  /** The connection's receive window (all streams together). Default 1 MiB. */
  connectionWindowSize?: number;
  /** SETTINGS_MAX_FRAME_SIZE this side accepts. Default 16,384 (the RFC's minimum). */
  maxFrameSize?: number;
  /** SETTINGS_HEADER_TABLE_SIZE for the peer's HPACK encoder. Default 4096. */
  headerTableSize?: number;
  /**
   * SETTINGS_MAX_HEADER_LIST_SIZE (decoded, RFC 9113 §6.5.2 accounting); also bounds the encoded
   * block across CONTINUATION frames. Default 65,535 (Node).
   */
  maxHeaderListSize?: number;
  /** Streams the client may reset per second, after a burst of `resetBurst`. Default 33 (nghttp2). */
  maxResetsPerSecond?: number;
  /** Default 1000 (nghttp2). */
  resetBurst?: number;
  /** PING, SETTINGS, PRIORITY and empty DATA/CONTINUATION frames the client may send per second, after a burst of 1000. Default 100. */
  maxControlFramesPerSecond?: number;
  /** Our SETTINGS must be acknowledged within this many ms (SETTINGS_TIMEOUT, §6.5.3). Default 10 s. */
  settingsTimeout?: number;
  /**
   * A connection with open streams that sends nothing for `keepAliveTimeout` is pinged; no PING ACK
   * within this many ms closes it. Default 10 s.
   */
  pingTimeout?: number;
  /**
   * Response bytes a connection may hold queued for a client that takes none of them (DATA its
   * windows hold back, and the socket's queue; no WINDOW_UPDATE of 16 KiB or more for 10 s, or
   * ever) before its new streams are refused with REFUSED_STREAM, so such a client cannot make
   * the server hold a large response per stream (CVE-2019-9517). Default 10 MiB (after Node's
   * maxSessionMemory).
   */
  maxQueuedBytes?: number;
}

/** Http2Options with every default filled in. */
export type ResolvedHttp2Options = Required<Http2Options>;

const MAX_WINDOW = 0x7fff_ffff;

function integer(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max)
    throw new OptionRangeError(`http2.${name}`, `http2.${name} must be an integer in [${min}, ${max}], got ${String(value)}`);
  return value;
}

/** The names of Http2Options. */
const HTTP2_OPTIONS: readonly string[] = [
  'maxConcurrentStreams',
  'initialWindowSize',
  'connectionWindowSize',
  'maxFrameSize',
  'headerTableSize',
  'maxHeaderListSize',
  'maxResetsPerSecond',
  'resetBurst',
  'maxControlFramesPerSecond',
  'settingsTimeout',
  'pingTimeout',
  'maxQueuedBytes',
];

/** Checks `options` (names and ranges) and fills in the defaults. */
export function resolveHttp2Options(options: Http2Options = {}): ResolvedHttp2Options {
  checkOptionNames(options, HTTP2_OPTIONS, 'http2', 'http2');
  return {
    maxConcurrentStreams: integer('maxConcurrentStreams', options.maxConcurrentStreams, 100, 1, 0xffff_ffff),
    initialWindowSize: integer('initialWindowSize', options.initialWindowSize, 256 * 1024, 1, MAX_WINDOW),
    connectionWindowSize: integer('connectionWindowSize', options.connectionWindowSize, 1024 * 1024, 65_535, MAX_WINDOW),
    maxFrameSize: integer('maxFrameSize', options.maxFrameSize, 16_384, 16_384, 16_777_215),
    headerTableSize: integer('headerTableSize', options.headerTableSize, 4096, 0, 0xffff_ffff),
    maxHeaderListSize: integer('maxHeaderListSize', options.maxHeaderListSize, 65_535, 1024, 0xffff_ffff),
    maxResetsPerSecond: integer('maxResetsPerSecond', options.maxResetsPerSecond, 33, 1, 1e9),
    resetBurst: integer('resetBurst', options.resetBurst, 1000, 1, 1e9),
    maxControlFramesPerSecond: integer('maxControlFramesPerSecond', options.maxControlFramesPerSecond, 100, 1, 1e9),
    settingsTimeout: integer('settingsTimeout', options.settingsTimeout, 10_000, 1, 2 ** 31 - 1),
    pingTimeout: integer('pingTimeout', options.pingTimeout, 10_000, 1, 2 ** 31 - 1),
    maxQueuedBytes: integer('maxQueuedBytes', options.maxQueuedBytes, 10 * 1024 * 1024, 65_536, Number.MAX_SAFE_INTEGER),
  };
}
