// `wirespeed compare`: result files side by side, with verdicts where the runs allow them.
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { compareRuns, NothingToCompareError, toMarkdown, toText } from '../harness/compare.js';
import { checkResultFile, ResultFileError } from '../harness/schema.js';
import type { ResultFile } from '../harness/types.js';
import { CliError, numberOption, UsageError, HELP_OPTION, parsingArgs } from './args.js';

export const COMPARE_USAGE = `usage: wirespeed compare A.json B.json [...] [--baseline N] [--format text|markdown|json] [--noise 0.05]

Per case: the median [95% CI] in each run and the ratio to the baseline run (default the first).
A Mann-Whitney U test at alpha 0.05 decides "faster"/"SLOWER"; "~" when it is not significant or
the difference is inside the noise band. No verdict, only the ratio, when the machines differ
("x-machine") or a run is a --quick run ("(quick)"). The last row is the geometric mean.

  --baseline  index of the baseline run among the files (default 0)
  --format    text (default), markdown or json
  --noise     differences smaller than this fraction are "~" (default 0.05)`;

const FORMATS = ['text', 'markdown', 'json'];

/** Reads and checks one result file; the error names the file and what is wrong with it. */
function readResult(path: string): ResultFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    );
  }
  try {
    return checkResultFile(JSON.parse(text));
  } catch (error) {
    if (error instanceof SyntaxError) throw new CliError(`${path} is not JSON: ${error.message}`);
    if (error instanceof ResultFileError) throw new CliError(`${path}: ${error.message}`);
    throw error;
  }
}

export function compareCommand(argv: string[]): void {
  const { values, positionals } = parsingArgs(() =>
    parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        baseline: { type: 'string', default: '0' },
        format: { type: 'string', default: 'text' },
        noise: { type: 'string', default: '0.05' },
        help: HELP_OPTION,
      },
    }),
  );
  if (values.help) return console.log(COMPARE_USAGE);
  if (positionals.length < 2) throw new UsageError('compare needs at least two result files');
  if (!FORMATS.includes(values.format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not "${values.format}"`);
  const baseline = numberOption('baseline', values.baseline, { min: 0, integer: true });
  if (baseline >= positionals.length)
    throw new UsageError(`--baseline ${baseline}: there are only ${positionals.length} files (0 to ${positionals.length - 1})`);
  const noise = numberOption('noise', values.noise, { min: 0 });
  const runs = positionals.map((path) => ({ label: path.split('/').pop()!, file: readResult(path) }));
  let comparison;
  try {
    comparison = compareRuns(runs, { baseline, noise });
  } catch (error) {
    if (error instanceof NothingToCompareError) throw new CliError(error.message);
    throw error;
  }
  for (const warning of new Set(comparison.warnings)) console.error(`warning: ${warning}`);
  if (values.format === 'json') console.log(JSON.stringify(comparison, null, 1));
  else if (values.format === 'markdown') console.log(toMarkdown(comparison));
  else console.log(toText(comparison));
}
