// `wirespeed bench`: runs suites and writes one result file.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { leftOutLines } from '../harness/peers.js';
import { DEFAULT_OPTIONS, QUICK_OPTIONS } from '../harness/runner.js';
import { SUITES } from '../suites/index.js';
import { CliError, UsageError, HELP_OPTION, parsingArgs } from './args.js';
import { defaultResultsDir, newResultPath } from './results-dir.js';
import { caseId } from './output.js';
import { runBench, runHere, selectCases } from './run.js';
import { push } from './push.js';

export const BENCH_USAGE = `usage: wirespeed bench [--suite NAME[,NAME...]] [--filter TEXT|/REGEXP/] [--quick] [--isolate]
                       [--out FILE] [--results DIR] [--push URL] [--list]

Runs benchmark suites and writes one result file. Each case prints as it finishes; a summary per
group follows. Peers that are not installed are left out, and the end of the run says which and
how to install them.

  --suite    suites to run (default: all): ${Object.keys(SUITES).join(', ')}
  --filter   only cases whose "group / impl" contains TEXT (or matches /REGEXP/); none matching is an error
  --quick    a smoke run: 60 ms warm-up and 120 ms per case (load cases: one 1 s run), in seconds
             per suite; too short for verdicts, so \`compare\` gives ratios only
  --isolate  each case in a fresh process, so JIT state left by one case cannot skew the next
  --out      the result file (default: DIR/<suites>-<runtime>-<time>.json)
  --results  DIR for the default file name (default: ${defaultResultsDir()}; set WIRESPEED_RESULTS to change it)
  --push     also send the result file to the dashboard at URL (http://host:port), for comparing machines
  --list     print the selected cases, run nothing

The file is rewritten after every case, so an interrupted run keeps what it measured.`;

/** `bench`; exits 1 if a case failed. */
export async function benchCommand(argv: string[]): Promise<void> {
  const { values } = parsingArgs(() =>
    parseArgs({
      args: argv,
      options: {
        suite: { type: 'string' },
        filter: { type: 'string' },
        quick: { type: 'boolean', default: false },
        isolate: { type: 'boolean', default: false },
        out: { type: 'string' },
        results: { type: 'string' },
        push: { type: 'string' },
        list: { type: 'boolean', default: false },
        // Internal: an --isolate child runs the one case of this id and prints its outcome as JSON.
        case: { type: 'string' },
        help: HELP_OPTION,
      },
    }),
  );
  if (values.help) return console.log(BENCH_USAGE);
  const suites = values.suite ? values.suite.split(',').filter(Boolean) : Object.keys(SUITES);
  const options = values.quick ? QUICK_OPTIONS : DEFAULT_OPTIONS;

  if (values.case !== undefined) {
    const c = (await selectCases(suites, undefined)).find((candidate) => caseId(candidate) === values.case);
    if (!c) throw new UsageError(`no case "${values.case}" in ${suites.join(', ')}`);
    process.stdout.write(JSON.stringify(await runHere(c, options)));
    return;
  }
  if (values.list) {
    for (const c of await selectCases(suites, values.filter, { required: true })) console.log(caseId(c));
    for (const line of leftOutLines()) console.error(line);
    return;
  }

  const out = values.out ? resolve(values.out) : newResultPath(suites.join('+'), values.results);
  const { file, failed } = await runBench({ suites, options, quick: values.quick, isolate: values.isolate, filter: values.filter, out });
  if (!file) throw new CliError(`no case produced a result; nothing was written`);
  console.log(
    `\n${file.cases.length} cases on ${file.fingerprint.cpuModel} (${file.fingerprint.runtime} ${file.fingerprint.runtimeVersion}) → ${out}`,
  );
  if (values.push) await push(values.push, out);
  if (failed > 0) throw new CliError(`${failed} case${failed === 1 ? '' : 's'} failed (above); the others are in ${out}`);
}
