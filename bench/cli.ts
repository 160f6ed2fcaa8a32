#!/usr/bin/env node
// wirespeed CLI: `bench` runs suites and writes a result file (schema in bench/README.md),
// `compare` sets result files side by side, `pair` loads two servers at once for a steady ratio,
// `report` re-runs a report, `dashboard` serves them.
// Every command has --help; errors are one line saying what went wrong and what to do.
import { readFileSync } from 'node:fs';
import { CliError, UsageError } from './cli/args.js';
import { BENCH_USAGE, benchCommand } from './cli/bench-command.js';
import { COMPARE_USAGE, compareCommand } from './cli/compare-command.js';
import { DASHBOARD_USAGE, dashboardCommand } from './cli/dashboard-command.js';
import { PAIR_USAGE, pairCommand } from './cli/pair-command.js';
import { REPORT_USAGE, reportCommand } from './cli/report-command.js';

const COMMANDS: Record<string, { run(argv: string[]): unknown; usage: string; summary: string }> = {
  bench: { run: benchCommand, usage: BENCH_USAGE, summary: 'run benchmark suites, write a result file' },
  compare: { run: compareCommand, usage: COMPARE_USAGE, summary: 'compare result files, with verdicts' },
  pair: { run: pairCommand, usage: PAIR_USAGE, summary: 'two servers side by side: their CPU per request, as a ratio' },
  report: { run: reportCommand, usage: REPORT_USAGE, summary: "re-run a report's measurements, print its tables" },
  dashboard: { run: dashboardCommand, usage: DASHBOARD_USAGE, summary: 'serve the dashboard and the result files' },
};

const USAGE = `usage: wirespeed <command> [options]

${Object.entries(COMMANDS)
  .map(([name, { summary }]) => `  ${name.padEnd(10)} ${summary}`)
  .join('\n')}

  wirespeed <command> --help   the command's options
  wirespeed --version          the version`;

function version(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    const topic = command === 'help' ? COMMANDS[rest[0]] : undefined;
    return console.log(topic ? topic.usage : USAGE);
  }
  if (command === '--version' || command === '-v' || command === 'version') return console.log(version());
  const entry = COMMANDS[command];
  if (!entry) throw new UsageError(`unknown command "${command}" (the commands: ${Object.keys(COMMANDS).join(', ')})`);
  await entry.run(rest);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const command = COMMANDS[process.argv[2]] ? ` ${process.argv[2]}` : '';
  if (error instanceof UsageError) {
    console.error(`wirespeed${command}: ${error.message} (see wirespeed${command} --help)`);
    process.exitCode = 2;
  } else if (error instanceof CliError) {
    console.error(`wirespeed${command}: ${error.message}`);
    process.exitCode = 1;
  } else {
    // A bug, not a user's mistake: one line, and the stack when asked for.
    const message = error instanceof Error ? error.message : String(error);
    console.error(
      `wirespeed${command}: ${message}${process.env.WIRESPEED_DEBUG ? `\n${(error as Error).stack}` : ' (WIRESPEED_DEBUG=1 prints the stack)'}`,
    );
    process.exitCode = 1;
  }
});
