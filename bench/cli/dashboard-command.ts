// `wirespeed dashboard`: serves the dashboard and the result files it plots.
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startDashboard } from '../dashboard/server.js';
import { CliError, numberOption, HELP_OPTION, parsingArgs } from './args.js';
import { defaultResultsDir } from './results-dir.js';

export const DASHBOARD_USAGE = `usage: wirespeed dashboard [--port N] [--host H] [--results DIR[,DIR...]]

Serves the dashboard (charts, comparisons, runs in the browser) and the result files in DIR.
Uploads (\`wirespeed bench --push\`) go to the first DIR. Ctrl-C stops it.

  --port     default 8787
  --host     default 127.0.0.1 (0.0.0.0 to let other machines push)
  --results  default ${defaultResultsDir()}, where \`wirespeed bench\` writes`;

export async function dashboardCommand(argv: string[]): Promise<void> {
  const { values } = parsingArgs(() =>
    parseArgs({
      args: argv,
      options: {
        port: { type: 'string', default: '8787' },
        host: { type: 'string', default: '127.0.0.1' },
        results: { type: 'string' },
        help: HELP_OPTION,
      },
    }),
  );
  if (values.help) return console.log(DASHBOARD_USAGE);
  const port = numberOption('port', values.port, { min: 0, integer: true });
  const staticDir = new URL('../../dashboard/', import.meta.url).pathname;
  if (!existsSync(staticDir)) throw new CliError(`the dashboard is not built (${staticDir} is missing): run \`npm run build\``);
  const resultsDirs = (values.results ?? defaultResultsDir()).split(',').filter(Boolean);
  let server;
  try {
    server = await startDashboard({ port, hostname: values.host, staticDir, resultsDirs });
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'EADDRINUSE') throw new CliError(`port ${port} is in use on ${values.host}: pick another with --port`);
    throw new CliError(`cannot start the dashboard: ${message}`);
  }
  console.log(
    `wirespeed dashboard on ${server.url}/ (results from ${resultsDirs.map((d) => resolve(d)).join(', ')}; uploads go to the first)`,
  );
}
