// Where result files go when no --out is given: a per-user data folder, never the current project
// (a benchmark run should not drop files into the repository it was started in). WIRESPEED_RESULTS
// overrides it; `wirespeed dashboard` serves the same folder by default.
import { homedir, platform } from 'node:os';
import { join, resolve } from 'node:path';
import { detectRuntime } from '../harness/fingerprint.js';

/** The default results folder: $WIRESPEED_RESULTS, else the platform's user data folder + wirespeed/results. */
export function defaultResultsDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.WIRESPEED_RESULTS) return env.WIRESPEED_RESULTS;
  const data =
    platform() === 'win32'
      ? (env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'))
      : platform() === 'darwin'
        ? join(homedir(), 'Library', 'Application Support')
        : (env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'));
  return join(data, 'wirespeed', 'results');
}

/** A new result file's path: `<dir>/<name>-<runtime>-<time>.json` (dir: `defaultResultsDir()` unless given). */
export function newResultPath(name: string, dir: string = defaultResultsDir()): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return resolve(dir, `${name}-${detectRuntime()}-${stamp}.json`);
}
