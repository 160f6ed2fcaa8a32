// Random programs run alike on a class of ours and on the runtime's (LightResponse and Response,
// the lazy Request and Request): what each step gives is compared, its value or its error's class.
// Runtime-neutral: the differentials run them under vitest on Node and as scripts on Deno.
import { rng } from '../http1/corpus.js';

/** A program's steps by name, each working on the program's state. */
export type Operations<State> = Record<string, (state: State) => unknown>;

/** How long a step may take before it counts as one that never ends (every step here is in memory). */
const STEP_TIMEOUT_MS = 2000;
const NEVER_ENDS = Symbol('never ends');

/** The step's result, or NEVER_ENDS when it has not settled in STEP_TIMEOUT_MS. */
async function settled(result: unknown): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise((resolve) => (timer = setTimeout(resolve, STEP_TIMEOUT_MS, NEVER_ENDS)));
  try {
    return await Promise.race([result, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What each step gives: `name=value`, or `name!ErrorClass`; a state that cannot be made gives
 * `new!ErrorClass`. A step that never settles gives `name?never ends` and ends the program (so a
 * hang is a difference, not a stalled test).
 */
export async function runProgram<State>(make: () => State, operations: Operations<State>, steps: readonly string[]): Promise<string[]> {
  let state: State;
  try {
    state = make();
  } catch (error) {
    return [`new!${(error as Error).constructor.name}`];
  }
  const out: string[] = [];
  for (const step of steps) {
    try {
      const value = await settled(operations[step]!(state));
      if (value === NEVER_ENDS) return [...out, `${step}?never ends`];
      out.push(`${step}=${JSON.stringify(value) ?? 'undefined'}`);
    } catch (error) {
      out.push(`${step}!${(error as Error).constructor.name}`);
    }
  }
  return out;
}

/** Bytes as latin1 text (the bodies of the programs are small). */
export const latin1 = (bytes: ArrayBuffer | Uint8Array) => String.fromCharCode(...new Uint8Array(bytes));

/** A body's stream read to its end, as latin1 text (null when there is none); a read that fails throws. */
export async function readBodyStream(holder: { readonly body: ReadableStream<Uint8Array> | null }): Promise<string | null> {
  const reader = holder.body?.getReader();
  if (!reader) return null;
  let out = '';
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) out += latin1(chunk.value);
  return out;
}

/**
 * A body's first bytes read from its stream, the reader then let go: `[done, text]` (null when
 * there is no body). Empty chunks are passed over (Deno's stream of an empty body gives one).
 */
async function readFirstChunk(holder: BodyHolder) {
  const reader = holder.body?.getReader();
  if (!reader) return null;
  let chunk = await reader.read();
  while (!chunk.done && chunk.value.length === 0) chunk = await reader.read();
  reader.releaseLock();
  return [chunk.done, chunk.value ? latin1(chunk.value) : null];
}

/**
 * Cancels a body's stream: how it went (`cancelled`, or the error's class) and `bodyUsed` after.
 * Not awaited past a turn: the standard's `clone()` tees the stream, and a cancelled branch
 * settles only once its twin is cancelled too (undici's does; a copied body settles at once).
 */
async function cancelBodyStream(holder: BodyHolder) {
  const body = holder.body;
  if (body === null) return null;
  const cancelled = body.cancel().then(
    () => 'cancelled',
    (error: Error) => error.constructor.name,
  );
  const outcome = await Promise.race([cancelled, new Promise((resolve) => setTimeout(resolve, 0, 'cancelled'))]);
  return [outcome, holder.bodyUsed];
}

/** What the body-stream operations work on: a Request or a Response. */
type BodyHolder = { readonly body: ReadableStream<Uint8Array> | null; readonly bodyUsed: boolean };

/**
 * The body stream handled without a read (a reader taken and kept, or let go, or the stream
 * cancelled), or read in part: what a later read of the body gives then (the standard calls a
 * locked or disturbed body unusable). For the program's Request or Response, `holder` of its state.
 */
export function bodyStreamOperations<State>(holder: (state: State) => BodyHolder): Operations<State> {
  return {
    'lock the body stream': (state) => void holder(state).body?.getReader(),
    'take a reader and let it go': (state) => void holder(state).body?.getReader().releaseLock(),
    'cancel the body stream': (state) => cancelBodyStream(holder(state)),
    'read a chunk, then let the reader go': (state) => readFirstChunk(holder(state)),
  };
}

/** A body read with a BYOB reader (it must be a byte stream), `size` bytes a read: the pieces, as latin1. */
export async function readBodyByob(body: ReadableStream<Uint8Array>, size = 3): Promise<string[]> {
  const reader = body.getReader({ mode: 'byob' });
  const pieces: string[] = [];
  for (let read = await reader.read(new Uint8Array(size)); !read.done; read = await reader.read(new Uint8Array(size)))
    pieces.push(latin1(read.value));
  return pieces;
}

/** A program whose steps gave different results on our class and the runtime's. */
export interface Difference {
  program: string;
  ours: string[];
  runtime: string[];
}

/** A drawn program's subject: its name, and the state it starts from on each class. */
export interface ProgramSubject<State> {
  name: string;
  ours: () => State;
  runtime: () => State;
}

export interface CompareOptions {
  seed: number;
  count: number;
  /** The most steps of a program (at least one). */
  mostSteps: number;
  /** How many differing programs to keep (10). */
  keep?: number;
  /** Operations left out (a known defect of a runtime, said where it is left out). */
  without?: readonly string[];
}

/**
 * `count` random programs (from `seed`) run on both classes: the first `keep` that differ, how many
 * differ, and how many of those that agreed reached an error (a check that the programs go where
 * errors are, not only where values are).
 */
export async function comparePrograms<State>(
  operations: Operations<State>,
  draw: (random: () => number) => ProgramSubject<State>,
  { seed, count, mostSteps, keep = 10, without = [] }: CompareOptions,
  normalize: (step: string) => string = (step) => step,
): Promise<{ differences: Difference[]; differing: number; errors: number }> {
  const random = rng(seed);
  const names = Object.keys(operations).filter((name) => !without.includes(name));
  const differences: Difference[] = [];
  let differing = 0;
  let errors = 0;
  for (let n = 0; n < count; n++) {
    const subject = draw(random);
    const steps = Array.from({ length: 1 + Math.floor(random() * mostSteps) }, () => names[Math.floor(random() * names.length)]!);
    const ours = (await runProgram(subject.ours, operations, steps)).map(normalize);
    const runtime = (await runProgram(subject.runtime, operations, steps)).map(normalize);
    if (ours.join('\n') !== runtime.join('\n')) {
      differing++;
      if (differences.length < keep) differences.push({ program: `${subject.name}: ${steps.join(', ')}`, ours, runtime });
    } else if (ours.some((step) => step.includes('!'))) errors++;
  }
  return { differences, differing, errors };
}
