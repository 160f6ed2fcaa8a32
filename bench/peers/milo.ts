// Milo: a Rust HTTP/1.1 parser compiled to wasm, with offset callbacks. Its package's
// index-with-wasm.js carries the wasm inline (index.js reads it with node:fs), so the same module
// runs on Node, Deno and in browsers.
import miloPackage from '@perseveranza-pets/milo/index-with-wasm.js';
import { latin1Range } from '../../src/latin1.js';
import type { ParserDriver } from './wirespeed-parsers.js';

interface Milo {
  alloc(len: number): number;
  create(): number;
  parse(parser: number, data: number, length: number): number;
  getMethod(parser: number): number;
  memory: WebAssembly.Memory;
  Methods: Record<number, string>;
  MESSAGE_TYPE_REQUEST: number;
  setMode(parser: number, mode: number): void;
  setOnUrl(parser: number, cb: (p: number, at: number, len: number) => void): void;
  setOnMethod(parser: number, cb: (p: number, at: number, len: number) => void): void;
  setOnHeaderName(parser: number, cb: (p: number, at: number, len: number) => void): void;
  setOnHeaderValue(parser: number, cb: (p: number, at: number, len: number) => void): void;
  setOnData(parser: number, cb: (p: number, at: number, len: number) => void): void;
  setOnTrailerName(parser: number, cb: (p: number, at: number, len: number) => void): void;
  setOnTrailerValue(parser: number, cb: (p: number, at: number, len: number) => void): void;
}

export const milo: ParserDriver = (input) => {
  const m = (miloPackage as { milo: Milo }).milo;
  let sink = 0;
  const text = (at: number, len: number) => latin1Range(input, at, at + len);
  const parser = m.create();
  m.setMode(parser, m.MESSAGE_TYPE_REQUEST);
  m.setOnMethod(parser, (_p, at, len) => (sink += text(at, len).length));
  m.setOnUrl(parser, (_p, at, len) => (sink += text(at, len).length));
  m.setOnHeaderName(parser, (_p, at, len) => (sink += text(at, len).length));
  m.setOnHeaderValue(parser, (_p, at, len) => (sink += text(at, len).length));
  m.setOnData(parser, (_p, _at, len) => (sink += len));
  m.setOnTrailerName(parser, (_p, at, len) => (sink += text(at, len).length));
  m.setOnTrailerValue(parser, (_p, at, len) => (sink += text(at, len).length));
  const data = m.alloc(input.length);
  return () => {
    new Uint8Array(m.memory.buffer, data, input.length).set(input);
    const consumed = m.parse(parser, data, input.length);
    if (consumed !== input.length) throw new Error(`milo consumed ${consumed} of ${input.length}`);
    return sink;
  };
};
