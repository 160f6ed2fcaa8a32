// undici's llhttp compiled to wasm, driven as undici's client drives it (callbacks into JS that
// make each string; here with src/latin1.ts, Buffer's latin1Slice where the runtime has it, as
// undici does). Runs on Node, Deno and in browsers: the package's module exports the wasm bytes
// as a Buffer; a browser bundle maps node:buffer to the `buffer` package (vite.config.ts).
import bytes from 'undici/lib/llhttp/llhttp-wasm.js';
import constants from 'undici/lib/llhttp/constants.js';
import { latin1Range } from '../../src/latin1.js';
import type { ParserDriver } from './wirespeed-parsers.js';

interface LlhttpWasm {
  memory: WebAssembly.Memory;
  llhttp_alloc(type: number): number;
  malloc(size: number): number;
  llhttp_execute(parser: number, data: number, length: number): number;
  llhttp_get_method(parser: number): number;
  _initialize?(): void;
}

const methodNames: string[] = [];
for (const [name, value] of Object.entries(constants.METHODS)) methodNames[value] = name;
// Compiled on first use (a browser allows a synchronous compile of this size only off the page's thread).
let compiled: WebAssembly.Module | undefined;

export const undiciWasm: ParserDriver = (input) => {
  let sink = 0;
  // The memory's view is made once the instance exists; the callbacks only run after that.
  const memory: { view?: Uint8Array } = {};
  const text = (at: number, len: number) => latin1Range(memory.view!, at, at + len);
  compiled ??= new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>);
  const instance = new WebAssembly.Instance(compiled, {
    env: {
      wasm_on_url: (_p: number, at: number, len: number) => ((sink += text(at, len).length), 0),
      wasm_on_status: () => 0,
      wasm_on_message_begin: () => 0,
      wasm_on_header_field: (_p: number, at: number, len: number) => ((sink += text(at, len).length), 0),
      wasm_on_header_value: (_p: number, at: number, len: number) => ((sink += text(at, len).length), 0),
      wasm_on_headers_complete: (p: number) => ((sink += methodNames[llhttp.llhttp_get_method(p)].length), 0),
      wasm_on_body: (_p: number, _at: number, len: number) => ((sink += len), 0),
      wasm_on_message_complete: () => 0,
    },
  });
  const llhttp = instance.exports as unknown as LlhttpWasm;
  llhttp._initialize?.();
  const parser = llhttp.llhttp_alloc(constants.TYPE.REQUEST);
  const data = llhttp.malloc(input.length);
  const view = new Uint8Array(llhttp.memory.buffer);
  memory.view = view;
  return () => {
    view.set(input, data);
    const rc = llhttp.llhttp_execute(parser, data, input.length);
    if (rc !== 0) throw new Error(`llhttp wasm error ${rc}`);
    return sink;
  };
};
