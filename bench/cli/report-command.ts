// `wirespeed report NAME`: re-runs a classic report's measurements here and prints its tables.
import { parseArgs } from 'node:util';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_OPTIONS, QUICK_OPTIONS } from '../harness/runner.js';
import { REPORTS } from '../reports/index.js';
import { CliError, UsageError, HELP_OPTION, parsingArgs } from './args.js';
import { defaultResultsDir, newResultPath } from './results-dir.js';
import { runBench } from './run.js';

export const REPORT_USAGE = `usage: wirespeed report NAME [--quick] [--filter TEXT|/REGEXP/] [--out FILE.json] [--markdown FILE.md]

Re-runs the measurements of a report on this machine, each case in a fresh process, writes the
result file and prints the report's tables as Markdown, with the machine, the date and the method.
The reports: ${Object.keys(REPORTS).join(', ')}.

  --quick     a smoke run in one process (60 ms warm-up, 120 ms per case; about 1.5 minutes for
              micro on a 2-core machine), not for publishing
  --filter    only cases whose "group / impl" contains TEXT (or matches /REGEXP/)
  --out       the result file (default: ${defaultResultsDir()}/report-NAME-<time>.json)
  --markdown  also write the tables to this file`;

export async function reportCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parsingArgs(() =>
    parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        quick: { type: 'boolean', default: false },
        filter: { type: 'string' },
        out: { type: 'string' },
        markdown: { type: 'string' },
        help: HELP_OPTION,
      },
    }),
  );
  if (values.help) return console.log(REPORT_USAGE);
  const name = positionals[0];
  if (!name) throw new UsageError(`report needs a NAME: ${Object.keys(REPORTS).join(', ')}`);
  const definition = REPORTS[name];
  if (!definition) throw new UsageError(`unknown report "${name}" (the reports: ${Object.keys(REPORTS).join(', ')})`);
  const out = values.out ? resolve(values.out) : newResultPath(`report-${name}`);
  // A real run puts each case in a fresh process, as the README's numbers are measured; a quick
  // one stays in this process (starting ~200 processes is most of a quick run's time).
  const { file, failed } = await runBench({
    suites: definition.suites,
    options: values.quick ? QUICK_OPTIONS : DEFAULT_OPTIONS,
    quick: values.quick,
    isolate: !values.quick,
    filter: values.filter ?? definition.filter,
    out,
  });
  if (!file) throw new CliError('no case produced a result; there is nothing to report');
  const markdown = definition.render(file, out);
  if (values.markdown) writeFileSync(resolve(values.markdown), markdown);
  console.log(`\n${markdown}`);
  if (failed > 0) throw new CliError(`${failed} case${failed === 1 ? '' : 's'} failed (above); the report shows the others`);
}
