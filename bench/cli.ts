#!/usr/bin/env node
// wirespeed CLI. `bench` runs suites and writes a result file (schema in bench/README.md).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SingleBar, Presets } from 'cli-progress';
import { DEFAULT_OPTIONS, QUICK_OPTIONS, runCase, type RunOptions } from './harness/runner.js';
import { detectRuntime, serverFingerprint } from './harness/fingerprint.js';
import { checkResultFile } from './harness/schema.js';
import { RESULT_SCHEMA, type BenchCase, type CaseResult, type ResultFile } from './harness/types.js';
import { SUITES } from './suites/index.js';
import { startDashboard } from './dashboard/server.js';
import { compareRuns, toMarkdown, toText } from './harness/compare.js';
import { REPORTS } from './reports/index.js';

const USAGE = `usage: wirespeed bench [--suite parser[,...]] [--out FILE] [--quick] [--isolate] [--filter TEXT] [--push URL]
       wirespeed compare A.json B.json [...] [--baseline N] [--format text|markdown|json] [--noise 0.05]
       wirespeed dashboard [--port N] [--host H] [--results DIR[,DIR...]]
       wirespeed report NAME [--quick] [--filter TEXT] [--out FILE.json] [--markdown FILE.md]

  --suite    suites to run (default: all): ${Object.keys(SUITES).join(', ')}
  --out      result file (default: bench/results/<suites>-<runtime>-<time>.json)
  --quick    a smoke run in seconds instead of a real run in minutes
  --isolate  run each case in a fresh process (JIT state of one case cannot skew another)
  --filter   only cases whose "group / impl" contains TEXT (or matches /REGEXP/)
  --push     also send the result file to the dashboard at URL (http://host:port), for comparing machines

  compare    per case: median [95% CI] in each run, ratio to the baseline run (default the first),
             Mann-Whitney U at alpha 0.05 ("~" when not significant or within the noise band),
             "x-machine" instead of a verdict when the fingerprints differ; geometric-mean row
  dashboard  serves the dashboard and the result files (default port 8787, results bench/results)
  report     re-runs a classic report's measurements on this machine (each case in a fresh process)
             and prints its tables as Markdown: ${Object.keys(REPORTS).join(', ')}`;

function compare(argv: string[]): void {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      baseline: { type: 'string', default: '0' },
      format: { type: 'string', default: 'text' },
      noise: { type: 'string', default: '0.05' },
    },
  });
  const runs = positionals.map((path) => {
    const file = checkResultFile(JSON.parse(readFileSync(path, 'utf8')));
    return { label: path.split('/').pop()!, file };
  });
  const comparison = compareRuns(runs, { baseline: Number(values.baseline), noise: Number(values.noise) });
  for (const warning of new Set(comparison.warnings)) console.error(`warning: ${warning}`);
  if (values.format === 'json') console.log(JSON.stringify(comparison, null, 1));
  else if (values.format === 'markdown') console.log(toMarkdown(comparison));
  else if (values.format === 'text') console.log(toText(comparison));
  else throw new Error(`unknown format "${values.format}" (text, markdown, json)`);
}

async function dashboard(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      results: { type: 'string', default: 'bench/results' },
    },
  });
  const staticDir = new URL('../dashboard/', import.meta.url).pathname;
  const resultsDirs = values.results.split(',');
  const server = await startDashboard({ port: Number(values.port), hostname: values.host, staticDir, resultsDirs });
  console.log(
    `wirespeed dashboard on ${server.url}/ (results from ${resultsDirs.map((d) => resolve(d)).join(', ')}; uploads go to the first)`,
  );
}

async function selectCases(suites: string[], filter: string | undefined): Promise<BenchCase[]> {
  const runtime = detectRuntime();
  const cases: BenchCase[] = [];
  // "/…/" is a regular expression; anything else a substring.
  const pattern = filter && filter.length > 2 && filter.startsWith('/') && filter.endsWith('/') ? new RegExp(filter.slice(1, -1)) : null;
  for (const name of suites) {
    const suite = SUITES[name];
    if (!suite) throw new Error(`unknown suite "${name}" (have: ${Object.keys(SUITES).join(', ')})`);
    for (const c of await suite.cases(runtime)) {
      const id = `${c.group} / ${c.impl}`;
      if (!filter || (pattern ? pattern.test(id) : id.includes(filter))) cases.push(c);
    }
  }
  return cases;
}

/** Runs case `index` of the selection in a child process and returns its result. */
function runIsolated(args: string[], index: number): CaseResult {
  const out = execFileSync(process.execPath, [process.argv[1], 'bench', ...args, '--case-index', String(index)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out) as CaseResult;
}

/** A progress bar with an ETA on a terminal; one line per case in a log. */
function startProgress(total: number) {
  if (!process.stderr.isTTY) {
    let index = 0;
    return { next: (name: string) => process.stderr.write(`[${++index}/${total}] ${name}\n`), done: () => undefined };
  }
  const bar = new SingleBar(
    { format: '{bar} {value}/{total} cases | ETA {eta_formatted} | {name}', stream: process.stderr, etaBuffer: 8 },
    Presets.shades_classic,
  );
  bar.start(total, 0, { name: '' });
  let started = false;
  return {
    next(name: string) {
      if (started) bar.increment(1, { name });
      else bar.update(0, { name });
      started = true;
    },
    done: () => (bar.update(total, { name: 'done' }), bar.stop()),
  };
}

function printSummary(results: CaseResult[]): void {
  const rows = results.map((r) => {
    const baseline = results.find((b) => b.suite === r.suite && b.group === r.group && b.baseline);
    return {
      case: `${r.suite} / ${r.group}`,
      impl: r.impl,
      'median ns': Number(r.stats.median.toFixed(1)),
      '95% CI': `${r.stats.ciLow.toFixed(1)}–${r.stats.ciHigh.toFixed(1)}`,
      p99: Number(r.stats.p99.toFixed(1)),
      'x baseline': baseline ? Number((r.stats.median / baseline.stats.median).toFixed(3)) : '',
    };
  });
  console.table(rows);
}

async function bench(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      suite: { type: 'string' },
      out: { type: 'string' },
      quick: { type: 'boolean', default: false },
      isolate: { type: 'boolean', default: false },
      filter: { type: 'string' },
      push: { type: 'string' },
      'case-index': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return console.log(USAGE);
  const suites = values.suite ? values.suite.split(',') : Object.keys(SUITES);
  const options: RunOptions = values.quick ? QUICK_OPTIONS : DEFAULT_OPTIONS;
  const cases = await selectCases(suites, values.filter);

  // Child of --isolate: run one case, print its result, nothing else.
  if (values['case-index'] !== undefined) {
    const result = await runCase(cases[Number(values['case-index'])], options);
    process.stdout.write(JSON.stringify(result));
    return;
  }

  const { file, out } = await runBench({
    suites,
    options,
    quick: values.quick,
    isolate: values.isolate,
    filter: values.filter,
    suiteArg: values.suite,
    out: values.out,
  });
  printSummary(file.cases);
  console.log(
    `\n${file.cases.length} cases on ${file.fingerprint.cpuModel} (${file.fingerprint.runtime} ${file.fingerprint.runtimeVersion}) → ${out}`,
  );
  if (values.push) await push(values.push, readFileSync(out, 'utf8'));
}

interface BenchRun {
  suites: string[];
  options: RunOptions;
  quick: boolean;
  isolate: boolean;
  filter?: string;
  /** The --suite argument as given (forwarded to isolated children). */
  suiteArg?: string;
  out?: string;
}

/** Runs the cases of `suites` and writes the result file; returns it and where it went. */
async function runBench(run: BenchRun): Promise<{ file: ResultFile; out: string }> {
  const cases = await selectCases(run.suites, run.filter);
  const forwarded = [
    '--suite',
    run.suiteArg ?? run.suites.join(','),
    ...(run.quick ? ['--quick'] : []),
    ...(run.filter ? ['--filter', run.filter] : []),
  ];
  const results: CaseResult[] = [];
  const progress = startProgress(cases.length);
  for (const [i, c] of cases.entries()) {
    progress.next(`${c.suite} / ${c.group} / ${c.impl}`);
    results.push(run.isolate ? runIsolated(forwarded, i) : await runCase(c, run.options));
  }
  progress.done();
  const file: ResultFile = {
    schema: RESULT_SCHEMA,
    createdAt: new Date().toISOString(),
    fingerprint: await serverFingerprint(),
    options: { quick: run.quick, isolate: run.isolate, warmupMs: run.options.warmupMs, minTimeMs: run.options.minTimeMs },
    cases: results,
  };
  const out = resolve(
    run.out ?? `bench/results/${run.suites.join('+')}-${file.fingerprint.runtime}-${file.createdAt.replace(/[:.]/g, '-')}.json`,
  );
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(file, null, 1));
  return { file, out };
}

/** `wirespeed report NAME`: re-runs a report's measurements here and prints its tables. */
async function report(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      quick: { type: 'boolean', default: false },
      filter: { type: 'string' },
      out: { type: 'string' },
      markdown: { type: 'string' },
    },
  });
  const name = positionals[0];
  const definition = name ? REPORTS[name] : undefined;
  if (!definition) throw new Error(`unknown report "${name ?? ''}" (have: ${Object.keys(REPORTS).join(', ')})`);
  const options = values.quick ? QUICK_OPTIONS : DEFAULT_OPTIONS;
  // Each case in a fresh process, as the README's numbers are measured.
  const { file, out } = await runBench({
    suites: definition.suites,
    options,
    quick: values.quick,
    isolate: true,
    filter: values.filter ?? definition.filter,
    out: values.out,
  });
  const markdown = definition.render(file, out);
  if (values.markdown) writeFileSync(resolve(values.markdown), markdown);
  console.log(markdown);
}

/** POSTs a result file to a dashboard; a refusal is an error (the file stays on disk). */
async function push(url: string, text: string): Promise<void> {
  const endpoint = new URL('/api/results', url);
  const response = await fetch(endpoint, { method: 'POST', body: text, headers: { 'content-type': 'application/json' } });
  const answer = (await response.json().catch(() => ({}))) as { name?: string; error?: string };
  if (!response.ok) throw new Error(`${endpoint} refused the result (${response.status}): ${answer.error ?? response.statusText}`);
  console.log(`pushed to ${endpoint}: ${response.status === 201 ? 'stored as' : 'already there as'} ${answer.name}`);
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  switch (command) {
    case 'bench':
      return bench(rest);
    case 'compare':
      return compare(rest);
    case 'dashboard':
      return dashboard(rest);
    case 'report':
      return report(rest);
    case undefined:
    case 'help':
    case '--help':
      return console.log(USAGE);
    default:
      console.error(`wirespeed: "${command}" is not available in this version.\n\n${USAGE}`);
      process.exitCode = 2;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
});
