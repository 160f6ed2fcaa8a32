// The same parser under Deno (npm package `deno`): the built package must give Node's answers.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { runParserCases } from './parser-cases.js';

const deno = createRequire(import.meta.url).resolve('deno/bin.cjs');

describe('Deno', () => {
  it('parses exactly as Node does', () => {
    const script = new URL('./run-parser-cases.ts', import.meta.url).pathname;
    const out = execFileSync(process.execPath, [deno, 'run', '--quiet', '--allow-read', '--no-lock', '--sloppy-imports', script], {
      encoding: 'utf8',
      env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
    });
    const fromDeno = JSON.parse(out) as unknown[];
    expect(fromDeno).toEqual(runParserCases());
    expect(JSON.stringify(fromDeno)).toContain('ERR_CL_TE_CONFLICT');
  });
});
