// The TypeScript mirror of the ABI (src/wasm/abi.ts) must match the Rust source and the module.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as abi from '../../src/wasm/abi.js';
import { WasmCore, WasmTrapError, wasmCore, wasmModule } from '../../src/wasm/module.js';
import { parseRequest, RequestParser } from '../../src/http1/index.js';
import { encode, errorCode } from '../helpers.js';

const rust = (file: string) => readFileSync(new URL(`../../wasm/src/${file}`, import.meta.url), 'utf8');
const constant = (source: string, name: string): number => {
  const match = new RegExp(`const ${name}: \\w+ = ([^;]+);`).exec(source);
  if (!match) throw new Error(`${name} not found`);
  return Number(match[1].replace(/_/g, ''));
};

describe('ABI mirror', () => {
  it('head slots, flags and options match wasm/src/http1/head.rs', () => {
    const head = rust('http1/head.rs');
    for (const [name, value] of Object.entries(abi.Head)) expect(constant(head, name), name).toBe(value);
    for (const name of ['FLAG_KEEP_ALIVE', 'FLAG_UPGRADE', 'FLAG_EXPECT_CONTINUE', 'FLAG_ASCII', 'BODY_NONE', 'BODY_LENGTH', 'BODY_CHUNKED', 'BODY_UNTIL_CLOSE', 'OPT_RESPONSE', 'OPT_REQUEST_HEAD', 'OPT_REQUEST_CONNECT', 'OPT_ALLOW_BARE_LF', 'OPT_ALLOW_OBS_FOLD', 'OPT_REPORT_ASCII', 'MAX_HEADERS_LIMIT'] as const) {
      expect(constant(head, name), name).toBe(abi[name]);
    }
    expect(abi.RESULT_WORDS).toBe(abi.Head.FIELDS + 4 * abi.MAX_HEADERS_LIMIT);
  });

  it('chunked slots and phases match wasm/src/http1/chunked.rs', () => {
    const chunked = rust('http1/chunked.rs');
    const maxSpans = constant(chunked, 'MAX_SPANS');
    for (const [name, value] of Object.entries(abi.Chunked)) {
      if (name === 'TRAILERS') expect(value).toBe(abi.Chunked.SPANS + 2 * maxSpans);
      else expect(constant(chunked, name), name).toBe(value);
    }
    expect(constant(chunked, 'DATA')).toBe(abi.PHASE_DATA);
    expect(constant(chunked, 'DATA_CR')).toBe(abi.PHASE_DATA_CR);
    expect(constant(chunked, 'DONE')).toBe(abi.PHASE_DONE);
    expect(constant(chunked, 'MAX_TRAILERS')).toBe(abi.MAX_TRAILERS);
  });

  it('error codes match wasm/src/http1/error.rs, in order', () => {
    const variants = [...rust('http1/error.rs').matchAll(/^\s+(\w+) = (\d+),/gm)];
    expect(variants.length).toBe(abi.PARSE_ERROR_CODES.length - 1);
    for (const [, name, number] of variants) {
      const code = 'ERR_' + name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
      expect(abi.PARSE_ERROR_CODES[Number(number)]).toBe(code);
    }
    expect(constant(rust('lib.rs'), 'ABI_MISUSE')).toBe(abi.ABI_MISUSE);
  });

  it('WebSocket frame slots, record bits and error codes match wasm/src/websocket', () => {
    const frame = rust('websocket/frame.rs');
    for (const [name, value] of Object.entries(abi.WsFrame)) expect(constant(frame, name), name).toBe(value);
    expect(abi.WS_STATE_WORDS).toBe(abi.WsFrame.RECORD_COUNT);
    expect(constant(frame, 'RECORD_FRAME_START')).toBe(abi.RECORD_FRAME_START);
    expect(constant(frame, 'RECORD_FRAME_END')).toBe(abi.RECORD_FRAME_END);
    expect(constant(frame, 'OPT_RSV1')).toBe(abi.OPT_RSV1);
    const variants = [...rust('websocket/error.rs').matchAll(/^\s+(\w+) = (\d+),/gm)];
    expect(variants.length).toBe(abi.WS_FRAME_ERROR_CODES.length - 1);
    for (const [, name, number] of variants) {
      const code = 'ERR_WS_' + name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
      expect(abi.WS_FRAME_ERROR_CODES[Number(number)]).toBe(code);
    }
  });

  it('HPACK result slots and answers match wasm/src/lib.rs', () => {
    const lib = rust('lib.rs');
    for (const name of ['ARENA_PTR', 'ARENA_LEN', 'FIELDS_PTR', 'TABLE_SIZE', 'OLDEST_ID', 'OUTPUT_PTR', 'INSERTED_COUNT', 'NEXT_ID', 'BAD_FIELD', 'INVALID_FIELD'] as const) {
      expect(constant(lib, `HPACK_${name}`), name).toBe(abi.Hpack[name]);
    }
    expect(abi.Hpack.INVALID_FIELD).not.toBe(abi.ABI_MISUSE);
  });

  it('the module exports exactly the typed functions and imports only what the loader provides', () => {
    const exports = WebAssembly.Module.exports(wasmModule()).map((e) => e.name);
    for (const name of ['memory', 'input_buffer', 'result_table', 'parse_head', 'decode_chunked', 'ws_decode', 'ws_accept']) {
      expect(exports).toContain(name);
    }
    const imports = WebAssembly.Module.imports(wasmModule()).map((i) => `${i.module}.${i.name}`);
    expect(imports).toEqual(['./wirespeed_wasm_bg.js.__wbindgen_init_externref_table']);
  });
});

describe('traps', () => {
  it('a trap re-creates the instance, reports WasmTrapError, and later calls work', () => {
    const core = new WasmCore();
    // Asking for a 4 GiB input buffer exhausts wasm32 memory: the allocator aborts (a trap).
    expect(() => core.reserve(0xffff_ffff)).toThrow(WasmTrapError);
    core.load(encode('GET / HTTP/1.1\r\n\r\n'));
    expect(core.parseHead(0, 18, 100, 16384, 8192, 0)).toBe(18);
  });

  it('out-of-range calls are refused, not trusted', () => {
    const core = new WasmCore();
    expect(() => core.parseHead(10, 5, 100, 16384, 8192, 0)).toThrow(RangeError);
    expect(() => core.parseHead(0, 1 << 30, 100, 16384, 8192, 0)).toThrow(RangeError);
  });

  it('after a trap in the shared instance, parsers made before and after it keep working', () => {
    const before = new RequestParser({ onHead: () => {} });
    expect(() => wasmCore().reserve(0xffff_ffff)).toThrow(WasmTrapError);
    before.execute(encode('GET / HTTP/1.1\r\n\r\n'));
    expect(parseRequest(encode('GET /after HTTP/1.1\r\n\r\n')).url).toBe('/after');
    expect(errorCode(() => parseRequest(encode('GET / HTTP/9.9\r\n\r\n')))).toBe('ERR_UNSUPPORTED_VERSION');
  });
});
