// wirespeed/ipc under Deno (npm package `deno`): a channel over a TCP socket through Deno's
// node:net, over a MessageChannel, over a WebSocket to wirespeed/deno, to a web Worker itself and
// over a forked child's process channel gives what it gives on Node (deno-ipc.ts runs them).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { denoRunArgs } from '../server/launchers.js';

describe('IPC on Deno', () => {
  it('requests, bytes results, remote errors and streams of strings and bytes, over a socket, a MessageChannel, a WebSocket, to a Worker and to a forked child', () => {
    const script = new URL('./deno-ipc.ts', import.meta.url).pathname;
    // --allow-run: the script forks a child (Deno runs it with the parent's permissions).
    const args = denoRunArgs(script);
    args.splice(3, 0, '--allow-run');
    const out = execFileSync(process.execPath, args, {
      encoding: 'utf8',
      env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
      timeout: 30_000,
    });
    const results = JSON.parse(out) as Record<string, unknown>;
    const bytes = (...values: number[]) => ({ bytes: values, isUint8Array: true });
    for (const transport of ['socket', 'port', 'websocket']) {
      expect(results[`${transport}: echo`]).toEqual({ a: [1, 'two', null], text: 'é 😀' });
      expect(results[`${transport}: bytes`]).toEqual(bytes(0, 1, 255));
      expect(results[`${transport}: fail`]).toEqual({ code: 'ERR_REMOTE', cause: { name: 'RangeError', code: 'E_FAR' } });
      expect(results[`${transport}: items`]).toEqual({ count: 3000, first: [bytes(0), 'item 1 ✓', bytes(2)], last: 'item 2999 ✓' });
    }
    expect(results['worker: square']).toBe(144);
    expect(results['worker: bytes']).toEqual(bytes(7, 8, 9));
    for (const serialization of ['json', 'advanced']) {
      expect(results[`fork ${serialization}: echo`]).toEqual({ text: 'é "q" \n' });
      expect(results[`fork ${serialization}: bytes`]).toEqual(bytes(0, 10, 13, 34, 92, 255));
      expect(results[`fork ${serialization}: exit`]).toBe('ERR_CLOSED');
    }
  });
});
