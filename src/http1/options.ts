import { checkOptionNames, InvalidOptionError, OptionRangeError, typeName } from '../errors.js';
import { MAX_HEADERS_LIMIT, OPT_ALLOW_BARE_LF, OPT_ALLOW_OBS_FOLD } from '../wasm/abi.js';

/** Parser limits and lenient switches. Every limit has a safe default (Node's where it has one). */
export interface ParserOptions {
  /** Largest head (start line + fields) in bytes; also bounds a trailer section. Default 16 KiB (Node). */
  maxHeadBytes?: number;
  /** Most field lines in a head. Default 100. At most 1024. */
  maxHeaders?: number;
  /** Longest request-target in bytes (414 when over). Default 8 KiB. */
  maxTargetBytes?: number;
  /** Longest chunk extension per chunk line. Default 1 KiB. */
  maxChunkExtensionBytes?: number;
  /** Largest body in bytes (Content-Length or de-chunked). Default: no limit (the caller streams). */
  maxBodyBytes?: number;
  /**
   * Lenient: accept a bare LF as a line ending. RFC 9112 §2.2 allows a recipient to; some embedded
   * HTTP clients and hand-written scripts send LF-only heads. Off by default (smuggling risk when a
   * proxy in front disagrees).
   */
  allowBareLF?: boolean;
  /**
   * Lenient, responses only: accept obs-fold continuation lines (RFC 9112 §5.2 lets a user agent
   * replace them with SP). Some old servers still fold. Off by default.
   */
  allowObsFold?: boolean;
}

/** ParserOptions with every default filled in and the flags for wasm. */
export interface ResolvedOptions {
  maxHeadBytes: number;
  maxHeaders: number;
  maxTargetBytes: number;
  maxChunkExtensionBytes: number;
  maxBodyBytes: number;
  /** OPT_* bits for the wasm calls. */
  flags: number;
}

function limit(name: string, value: number | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new OptionRangeError(name, `${name} must be an integer in 0..${max}, got ${String(value)}`);
  }
  return value;
}

/** The names of ParserOptions. */
export const PARSER_OPTIONS: readonly string[] = [
  'maxHeadBytes',
  'maxHeaders',
  'maxTargetBytes',
  'maxChunkExtensionBytes',
  'maxBodyBytes',
  'allowBareLF',
  'allowObsFold',
];

function flag(name: string, value: unknown): boolean {
  if (value !== undefined && typeof value !== 'boolean')
    throw new InvalidOptionError(name, `${name} must be a boolean, got ${typeName(value)}`);
  return value === true;
}

/**
 * Checks `options` (names, ranges, types) and fills in the defaults. `names`: the option names the
 * parser takes (the response parser adds `requestMethod`, which it checks itself).
 */
export function resolveOptions(options: ParserOptions = {}, names: readonly string[] = PARSER_OPTIONS): ResolvedOptions {
  checkOptionNames(options, names, 'the HTTP/1.1 parser');
  const u32 = 0xffff_ffff;
  return {
    maxHeadBytes: limit('maxHeadBytes', options.maxHeadBytes, 16 * 1024, 0x7fff_ffff),
    maxHeaders: limit('maxHeaders', options.maxHeaders, 100, MAX_HEADERS_LIMIT),
    maxTargetBytes: limit('maxTargetBytes', options.maxTargetBytes, 8 * 1024, u32),
    maxChunkExtensionBytes: limit('maxChunkExtensionBytes', options.maxChunkExtensionBytes, 1024, u32),
    maxBodyBytes:
      options.maxBodyBytes === undefined
        ? Number.MAX_SAFE_INTEGER
        : limit('maxBodyBytes', options.maxBodyBytes, 0, Number.MAX_SAFE_INTEGER),
    flags:
      (flag('allowBareLF', options.allowBareLF) ? OPT_ALLOW_BARE_LF : 0) |
      (flag('allowObsFold', options.allowObsFold) ? OPT_ALLOW_OBS_FOLD : 0),
  };
}
