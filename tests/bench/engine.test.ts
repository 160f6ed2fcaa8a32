// The engine report's inputs are the sizes it names, its peers do the work it says, and a real
// quick run prints every table with numbers from that run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultFile } from '../../bench/harness/types.js';
import { ENGINE_REQUESTS, ENGINE_RESPONSES } from '../../bench/peers/engine-inputs.js';
import { nodeHeaderLookup, nodeWrite } from '../../bench/peers/node-http-engine.js';

const cli = new URL('../../dist/bench/cli.js', import.meta.url).pathname;
const size = (text: string) => Buffer.byteLength(text, 'latin1');

describe('engine report', () => {
  it('uses inputs of the sizes the report names', () => {
    expect(Object.values(ENGINE_REQUESTS).map(size)).toEqual([78, 124, 296]);
    expect(Object.values(ENGINE_RESPONSES).map((r) => size(r.body))).toEqual([13, 57, 1024, 10 * 1024]);
  });

  it("measures node:http's writer and header access doing their whole job", () => {
    const { type, body } = ENGINE_RESPONSES['write 57 B JSON response'];
    // Head (status line, content-type, content-length, date, connection) plus the body.
    expect(nodeWrite(type, body)()).toBeGreaterThan(body.length + 80);
    expect(nodeHeaderLookup(['Host', 'a', 'Content-Type', 'application/json'], 'content-type')()).toBe('application/json'.length);
  });

  it('prints every table of a real quick run, allocations included', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirespeed-engine-'));
    const markdown = execFileSync(
      process.execPath,
      [cli, 'report', 'engine', '--quick', '--filter', '/^(parse simple GET|write 1 KB|header lookup)/', '--out', join(dir, 'run.json')],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    const result = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as ResultFile;
    expect(result.cases.filter((c) => c.group.startsWith('parse')).map((c) => c.impl)).toEqual([
      'node:http (llhttp)',
      'wirespeed',
      'undici llhttp-wasm',
      'http-parser-js',
    ]);
    for (const c of result.cases) {
      expect(c.metrics?.heapBytesPerOp).toBeGreaterThanOrEqual(0);
      // V8's young generation: at least its smallest size (two 1 MiB semi-spaces on 64-bit Node).
      expect(c.metrics?.newSpaceBytes).toBeGreaterThanOrEqual(2 * 1024 * 1024);
    }
    const mbs = markdown.split('\n').find((line) => line.startsWith('| write 1 KB response (MB/s) |'))!;
    const wirespeed = result.cases.find((c) => c.group === 'write 1 KB response (MB/s)' && c.impl === 'wirespeed')!;
    expect(mbs).toContain(`${((1024 / wirespeed.stats.median) * 1000).toFixed(0)} MB/s`);
    expect(markdown).toContain('## Bytes allocated per operation');
  });
});
