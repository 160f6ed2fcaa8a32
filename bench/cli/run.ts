// A benchmark run: select the cases, run each (in this process, or in a fresh one with --isolate),
// print each as it finishes, and rewrite the result file after every case, so an interrupted run
// keeps what it measured. Cases whose peers are not installed are left out, and said once.
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { detectRuntime, serverFingerprint } from '../harness/fingerprint.js';
import { leftOutLines, leftOutReason, noteLeftOut, noteMissing } from '../harness/peers.js';
import { runCase, type RunOptions } from '../harness/runner.js';
import { RESULT_SCHEMA, type BenchCase, type CaseResult, type ResultFile } from '../harness/types.js';
import { SUITES } from '../suites/index.js';
import { CliError, UsageError } from './args.js';
import { caseId, caseLine, Progress, summaryLines } from './output.js';

/** What became of one case: a result, left out (and why), or failed. */
export type Outcome = { result: CaseResult } | { leftOut: string; missingPackage: string | null } | { error: string };

/**
 * The cases of `suites` whose "group / impl" contains `filter` (or matches "/regexp/"); with
 * `required`, a filter that matches nothing is a CliError.
 */
export async function selectCases(suites: string[], filter: string | undefined, { required = false } = {}): Promise<BenchCase[]> {
  for (const name of suites) {
    if (!SUITES[name]) throw new UsageError(`unknown suite "${name}" (the suites: ${Object.keys(SUITES).join(', ')})`);
  }
  const pattern = filterPattern(filter);
  const cases: BenchCase[] = [];
  for (const name of suites) {
    for (const c of await SUITES[name].cases(detectRuntime())) if (pattern(`${c.group} / ${c.impl}`)) cases.push(c);
  }
  if (required && filter && cases.length === 0)
    throw new CliError(`--filter "${filter}" matches no case of ${suites.join(', ')} (list them: wirespeed bench --list)`);
  return cases;
}

function filterPattern(filter: string | undefined): (id: string) => boolean {
  if (!filter) return () => true;
  if (filter.length > 2 && filter.startsWith('/') && filter.endsWith('/')) {
    let regexp: RegExp;
    try {
      regexp = new RegExp(filter.slice(1, -1));
    } catch (error) {
      throw new UsageError(`--filter ${filter} is not a regular expression: ${(error as Error).message}`);
    }
    return (id) => regexp.test(id);
  }
  return (id) => id.includes(filter);
}

/** Runs one case here; a missing peer or a case the peer cannot express is an outcome, not a throw. */
export async function runHere(c: BenchCase, options: RunOptions): Promise<Outcome> {
  try {
    return { result: await runCase(c, options) };
  } catch (error) {
    const leftOut = leftOutReason(error);
    if (leftOut) return { leftOut: leftOut.reason, missingPackage: leftOut.missingPackage };
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** Runs one case in a fresh process (`bench --case ID`), which prints its Outcome as JSON. */
function runIsolated(c: BenchCase, quick: boolean): Outcome {
  const args = [process.argv[1], 'bench', '--suite', c.suite, '--case', caseId(c), ...(quick ? ['--quick'] : [])];
  try {
    const out = execFileSync(process.execPath, args, {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    return JSON.parse(out) as Outcome;
  } catch (error) {
    return { error: `its process failed: ${(error as Error).message.split('\n')[0]}` };
  }
}

export interface BenchRun {
  suites: string[];
  options: RunOptions;
  quick: boolean;
  isolate: boolean;
  filter?: string;
  /** The result file to (re)write. */
  out: string;
}

/** Runs the selection, printing as it goes; returns the file (null if no case produced a result). */
export async function runBench(run: BenchRun): Promise<{ file: ResultFile | null; failed: number }> {
  const cases = await selectCases(run.suites, run.filter, { required: true });
  if (cases.length === 0) {
    const lines = leftOutLines();
    throw new CliError(`no case of ${run.suites.join(', ')} can run here${lines.length ? `: ${lines.join('; ')}` : ''}`);
  }
  const file: ResultFile = {
    schema: RESULT_SCHEMA,
    createdAt: new Date().toISOString(),
    fingerprint: await serverFingerprint(),
    options: {
      quick: run.quick,
      isolate: run.isolate,
      warmupMs: run.options.warmupMs,
      minTimeMs: run.options.minTimeMs,
      ...(run.filter ? { filter: run.filter } : {}),
    },
    cases: [],
  };
  const idWidth = Math.max(...cases.map((c) => caseId(c).length));
  const progress = new Progress(cases.length);
  const failures: string[] = [];
  for (const c of cases) {
    progress.next(caseId(c));
    const outcome = run.isolate ? runIsolated(c, run.quick) : await runHere(c, run.options);
    progress.finished();
    if ('result' in outcome) {
      file.cases.push(outcome.result);
      writeAtomically(run.out, JSON.stringify(file, null, 1));
      console.log(caseLine(outcome.result, idWidth));
    } else if ('leftOut' in outcome) {
      if (outcome.missingPackage) noteMissing(outcome.missingPackage, c.impl);
      else noteLeftOut(outcome.leftOut, caseId(c));
    } else {
      failures.push(`failed ${caseId(c)}: ${outcome.error}`);
      console.log(`${caseId(c).padEnd(idWidth)}  failed: ${outcome.error}`);
    }
  }
  progress.clear();
  const summary = summaryLines(file.cases);
  if (summary.length > 0) console.log(['', 'summary', ...summary].join('\n'));
  const notes = [...leftOutLines(), ...failures];
  if (notes.length > 0) console.error(['', ...notes].join('\n'));
  return { file: file.cases.length > 0 ? file : null, failed: failures.length };
}

/** Writes through a temporary file, so a reader (or an interrupted run) never sees half a file. */
function writeAtomically(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}
