// What hpack.js's streams (readable-stream 2) expect of Node, for a browser: a global Buffer (the
// `buffer` package, which the browser bundle gives node:buffer) and a process with nextTick. On
// Node and Deno both exist and nothing changes.
import { Buffer } from 'node:buffer';

const globals = globalThis as { Buffer?: unknown; process?: unknown };
globals.Buffer ??= Buffer;
globals.process ??= {
  browser: true,
  version: '',
  env: {},
  nextTick: (fn: (...args: unknown[]) => void, ...args: unknown[]) => queueMicrotask(() => fn(...args)),
};
