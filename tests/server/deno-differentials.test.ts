// LightResponse and the lazy Request against Deno's own Response and Request, on the random
// programs light-response-differential and request-differential run against undici's on Node:
// serve() installs both as the globals on Deno too.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { denoRunArgs } from './launchers.js';
import type { CompareOptions, Difference } from './programs.js';

const PROGRAMS = 4000;
const script = new URL('./deno-differentials.ts', import.meta.url).pathname;

/** The programs of `kind` run on Deno. */
function onDeno(kind: 'response' | 'request', options: Omit<CompareOptions, 'mostSteps'>): { differences: Difference[]; errors: number } {
  const args = denoRunArgs(script, JSON.stringify([kind, { keep: PROGRAMS, ...options }]));
  return JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } }));
}

/**
 * Deno 2.9's Response lets both holders of a re-wrapped body read it (`new Response(old.body,
 * old)`, then `old.text()` and the new one's `text()` both give the text): the standard and undici
 * give the stream to the first reader. LightResponse follows them, so the step is left out here.
 */
const DENO_READS_TWICE = 're-wrap, read both';

/**
 * Deno 2.9's Response loses a body's default Content-Type in clone() when the init is an empty
 * object (`new Response('x', {}).clone().headers` is empty; with no init, or `{ status }`, it is
 * kept). LightResponse keeps it, as the standard and undici do: such a program differs only there.
 */
function isDenoCloneDefect({ program, ours, runtime }: Difference): boolean {
  if (!program.includes(', empty: ')) return false;
  return ours.every(
    (step, i) => step === runtime[i] || (step.startsWith('clone: fields=[["content-type",') && runtime[i] === 'clone: fields=[]'),
  );
}

/**
 * A stream not made by a light response, read from or cancelled and then given to a Response
 * (`new Response(old.body, old)` after a read): the runtime refuses it as disturbed, which no
 * public API tells on Deno (Node's `Readable.isDisturbed` does, and LightResponse refuses it
 * there), so LightResponse takes it and sends what is left. Such a program differs only at a
 * re-wrap after a step that disturbs the stream.
 */
function isDisturbedElsewhere({ program, ours, runtime }: Difference): boolean {
  const disturbs = /read a chunk, then let the reader go|cancel the body stream/.exec(program);
  if (!disturbs || program.indexOf('re-wrap', disturbs.index) < 0) return false;
  return ours.every((step, i) => step === runtime[i] || (step.startsWith('re-wrap=') && runtime[i] === 're-wrap!TypeError'));
}

describe('on Deno, against its own Response and Request, on random programs', () => {
  it(`LightResponse does what Deno's Response does, step for step, on ${PROGRAMS} programs`, () => {
    const { differences, errors } = onDeno('response', { seed: 0xde0, count: PROGRAMS, without: [DENO_READS_TWICE] });
    const unexplained = differences.filter((difference) => !isDenoCloneDefect(difference) && !isDisturbedElsewhere(difference));
    expect(unexplained.slice(0, 10)).toEqual([]);
    expect(errors).toBeGreaterThan(PROGRAMS / 4);
  });

  it(`the lazy Request does what Deno's Request does, step for step, on ${PROGRAMS} programs`, () => {
    const { differences, errors } = onDeno('request', { seed: 0xde1, count: PROGRAMS });
    expect(differences.slice(0, 10)).toEqual([]);
    expect(errors).toBeGreaterThan(PROGRAMS / 5);
  });
});
