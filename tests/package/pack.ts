// The package as npm ships it: `npm pack` of the built repository, unpacked as
// node_modules/wirespeed of a new project in the temp folder (nothing of the repo around it).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = new URL('../../', import.meta.url).pathname;

/** `npm pack` into a temp folder; the tarball's path. */
export function packTarball(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wirespeed-pack-'));
  const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return join(dir, out.trim().split('\n').at(-1)!);
}

/** A new ESM project (in the temp folder) with the packed package unpacked as node_modules/wirespeed. */
export function packProject(prefix: string, tarball = packTarball()): string {
  const project = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  mkdirSync(join(project, 'node_modules'));
  execFileSync('tar', ['xzf', tarball, '-C', join(project, 'node_modules')]);
  renameSync(join(project, 'node_modules', 'package'), join(project, 'node_modules', 'wirespeed'));
  return project;
}
