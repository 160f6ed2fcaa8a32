// The package as a user gets it: `npm install` of the packed tarball into a new project, nothing
// else. A library install brings only the library; every subpath imports; the CLI runs from it,
// leaves out the peers that are not installed and says so, and writes its results outside the
// project.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packTarball, ROOT } from './pack.js';

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  exports: Record<string, unknown>;
  dependencies: Record<string, string>;
};

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

describe('the installed package', () => {
  let project = '';
  let installLog = '';
  const cli = () => join(project, 'node_modules', '.bin', 'wirespeed');

  beforeAll(() => {
    const tarball = packTarball();
    project = mkdtempSync(join(tmpdir(), 'wirespeed-install-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    // The registry's packages come from npm's cache when they are there (CI filled it with npm ci).
    const install = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
      cwd: project,
      encoding: 'utf8',
    });
    installLog = install.stdout + install.stderr;
    expect(install.status, installLog).toBe(0);
  }, 120_000);

  it('brings only the library and its one dependency, with no install scripts', () => {
    const installed = readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'));
    expect(installed.sort()).toEqual(['wirespeed', ...Object.keys(manifest.dependencies)].sort());
    expect(installLog).not.toMatch(/install-scripts|allowScripts/);
  });

  it('ships its licence and the documents the README links, and no source maps or build info', () => {
    const files = filesUnder(join(project, 'node_modules', 'wirespeed'));
    for (const file of ['LICENSE', 'README.md', 'docs/architecture.md', 'docs/numbers.md', 'bench/README.md', 'package.json'])
      expect(files).toContain(file);
    expect(files.filter((f) => f.endsWith('.map') || f.endsWith('.tsbuildinfo'))).toEqual([]);
    const readme = readFileSync(join(project, 'node_modules', 'wirespeed', 'README.md'), 'utf8');
    // A link to a place in a file (`docs/numbers.md#react...`) needs the file.
    for (const [, link] of readme.matchAll(/\]\(((?!https?:|#)[^)#]+)[^)]*\)/g)) expect(files, link).toContain(link);
  });

  it('every subpath imports; those of optional peers say which package they need', () => {
    const script = `
      const results = {};
      for (const path of ${JSON.stringify(Object.keys(manifest.exports))}) {
        const specifier = path === '.' ? 'wirespeed' : 'wirespeed' + path.slice(1);
        const attributes = path.endsWith('.json') ? { with: { type: 'json' } } : undefined;
        try { await import(specifier, attributes); results[path] = 'ok'; } catch (e) { results[path] = e.code + ' ' + e.message.split('\\n')[0]; }
      }
      console.log(JSON.stringify(results));`;
    const results = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' }));
    const optional: Record<string, string> = { './hono': 'hono', './ipc/msgpack': 'msgpackr' };
    for (const path of Object.keys(manifest.exports)) {
      if (optional[path]) expect(results[path], path).toMatch(new RegExp(`ERR_MODULE_NOT_FOUND Cannot find package '${optional[path]}'`));
      else expect(results[path], path).toBe('ok');
    }
  });

  it('npx wirespeed: the version, help, and a run that leaves out missing peers and says how to get them', () => {
    expect(execFileSync(cli(), ['--version'], { encoding: 'utf8' }).trim()).toBe(manifest.version);
    expect(execFileSync(cli(), ['bench', '--help'], { encoding: 'utf8' })).toMatch(/^usage: wirespeed bench/);
    const results = mkdtempSync(join(tmpdir(), 'wirespeed-results-'));
    const run = spawnSync(cli(), ['bench', '--suite', 'parser,router', '--quick', '--filter', '/simple GET|static, 10 routes/'], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, WIRESPEED_RESULTS: results },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/parser \/ simple GET \(78 B\) \/ wirespeed\s+\d/);
    expect(run.stdout).toMatch(/router \/ static, 10 routes \/ wirespeed\s+\d/);
    // node:http's llhttp is part of Node: it runs. The npm peers are not installed: each is said once.
    expect(run.stdout).toContain('parser / simple GET (78 B) / llhttp (node:http)');
    expect(run.stderr).toContain('left out undici llhttp-wasm: undici is not installed');
    expect(run.stderr).toContain('left out rou3: rou3 is not installed');
    const install = run.stderr.split('\n').find((line) => line.startsWith('to run them too: npm install --save-dev '))!;
    for (const name of ['undici', 'rou3', 'find-my-way', 'http-parser-js']) expect(install.split(' '), name).toContain(name);
    expect(run.stderr.match(/undici is not installed/g)).toHaveLength(1);
    // The file went to the results folder, and was said; nothing landed in the project.
    const [file] = readdirSync(results);
    expect(run.stdout).toContain(`→ ${join(results, file)}`);
    expect(readdirSync(project).sort()).toEqual(['node_modules', 'package-lock.json', 'package.json']);
    expect(existsSync(join(project, 'bench'))).toBe(false);
  }, 60_000);
});
