// serve() checks its options when called, with the same error class, code and option name on
// Node and on Deno (the table is option-cases.ts).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { serve } from '../../src/server/node.js';
import { describeError, optionCases } from './option-cases.js';

const denoCli = createRequire(import.meta.url).resolve('deno/bin.cjs');

describe('serve() options', () => {
  const deno = (): { what: string; error: string; code: string; option: string; message: string }[] => {
    const script = new URL('./deno-options.ts', import.meta.url).pathname;
    const out = execFileSync(
      process.execPath,
      [denoCli, 'run', '--quiet', '--allow-net', '--allow-read', '--allow-env', '--no-lock', '--sloppy-imports', script],
      { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
    );
    return JSON.parse(out) as ReturnType<typeof deno>;
  };

  it.each(optionCases.map((c) => [c.what, c] as const))('node: %s', (_, c) => {
    let thrown: unknown;
    try {
      serve(c.options() as Parameters<typeof serve>[0]);
    } catch (error) {
      thrown = error;
    }
    expect(describeError(thrown)).toMatchObject({ error: c.error, code: c.code, option: c.option });
  });

  it('deno: the same error for every case', () => {
    const results = deno();
    for (const c of optionCases) {
      const seen = results.find((r) => r.what === c.what)!;
      expect(seen).toMatchObject({ what: c.what, error: c.error, code: c.code, option: c.option });
    }
  });

  it('says what to do: the option, the value, and the name meant for a typo', () => {
    expect(() => serve({ fetch: () => new Response(), prot: 8080 } as never)).toThrow(
      'serve() has no option "prot" (did you mean "port"?)',
    );
    expect(() => serve({ fetch: () => new Response(), port: 'abc' as never })).toThrow('port must be a number, got "abc"');
    expect(() => serve({ fetch: () => new Response(), workers: 0 })).toThrow(RangeError);
  });
});
