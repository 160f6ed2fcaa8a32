// `--push URL`: sends a result file to a dashboard, so runs of many machines meet in one place.
import { readFileSync } from 'node:fs';
import { CliError, UsageError } from './args.js';

/** POSTs the result file at `path` to the dashboard at `url`; a failure says where and why. */
export async function push(url: string, path: string): Promise<void> {
  let endpoint: URL;
  try {
    endpoint = new URL('/api/results', url);
  } catch {
    throw new UsageError(`--push needs the dashboard's URL (http://host:port), not "${url}"`);
  }
  let response: Response;
  try {
    response = await fetch(endpoint, { method: 'POST', body: readFileSync(path, 'utf8'), headers: { 'content-type': 'application/json' } });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new CliError(
      `could not push to ${endpoint}: ${cause?.code ?? cause?.message ?? (error as Error).message} (is \`wirespeed dashboard\` running there?); the result stays in ${path}`,
    );
  }
  const answer = (await response.json().catch(() => ({}))) as { name?: string; error?: string };
  if (!response.ok)
    throw new CliError(`${endpoint} refused the result (${response.status}): ${answer.error ?? response.statusText}; it stays in ${path}`);
  console.log(`pushed to ${endpoint}: ${response.status === 201 ? 'stored as' : 'already there as'} ${answer.name}`);
}
