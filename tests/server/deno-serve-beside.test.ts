// wirespeed/deno's serve() installs LightResponse as the global Response; Deno.serve refuses any
// Response it did not construct, so a second server in the process answered 500 to everything.
// wirespeed/deno wraps Deno.serve when it loads, so that it takes them, before serve() and after.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { denoRunArgs } from './launchers.js';

describe("Deno's own APIs beside wirespeed/deno in one process", () => {
  it('Deno.serve answers with the global Response in every handler form; the Cache API and WebAssembly take it', () => {
    const script = new URL('./deno-serve-beside.ts', import.meta.url).pathname;
    const out = execFileSync(process.execPath, denoRunArgs(script), {
      encoding: 'utf8',
      env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
      timeout: 30_000,
    });
    const results = JSON.parse(out) as Record<string, string>;
    for (const form of ['(options, handler)', 'options.handler']) {
      expect(results[`a handler returning new Response() ${form}`]).toBe('200 sync sync GET /path');
      expect(results[`an async handler returning Response.json() ${form}`]).toBe('200 - {"async":true}');
      expect(results[`a handler returning a stream body ${form}`]).toBe('200 - streamed');
      expect(results[`a handler that throws, answered by onError ${form}`]).toBe('500 - onError: boom');
    }
    expect(results['wirespeed beside them']).toBe('from wirespeed');
    expect(results['a Deno.serve started before serve()']).toBe('200 before started first, yes');
    expect(results['the Cache API: put, then match']).toBe('200 cache cached body');
    expect(results['the Cache API keyed by a request of the server']).toBe('miss, hit: stored');
    expect(results['WebAssembly.compileStreaming']).toBe('true');
    expect(results['WebAssembly.instantiateStreaming of a promise']).toBe('object');
  });
});
