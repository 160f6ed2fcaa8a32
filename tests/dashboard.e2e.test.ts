// The dashboard in a real browser: Debian's chromium driven by playwright-core, against the server
// `npm start` runs (`wirespeed dashboard`), showing a result file made by a real quick bench run.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const cli = join(root, 'dist/bench/cli.js');
const artifacts = join(root, 'artifacts');

let server: ChildProcess;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  const results = mkdtempSync(join(tmpdir(), 'wirespeed-dash-'));
  execFileSync(process.execPath, [cli, 'bench', '--suite', 'parser', '--quick', '--filter', 'simple GET', '--out', join(results, 'run.json')], { stdio: 'ignore' });
  // As `npm start` does: the user's results first, then the reference run of docs/results.
  const dirs = `${results},${join(root, 'docs/results')}`;
  server = spawn(process.execPath, [cli, 'dashboard', '--port', '0', '--results', dirs], { stdio: ['ignore', 'pipe', 'inherit'] });
  origin = await new Promise<string>((resolve, reject) => {
    server.stdout!.on('data', (chunk: Buffer) => {
      const match = /http:\/\/[\d.]+:\d+/.exec(chunk.toString());
      if (match) resolve(match[0]);
    });
    server.once('exit', (code) => reject(new Error(`dashboard exited with ${code}`)));
  });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
});

afterAll(async () => {
  await browser?.close();
  server?.kill();
});

describe('dashboard', () => {
  it('is served cross-origin isolated and shows the result as charts and ratio tables', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    const response = await page.goto(origin);
    expect(response?.headers()['cross-origin-opener-policy']).toBe('same-origin');
    expect(response?.headers()['cross-origin-embedder-policy']).toBe('require-corp');
    await page.getByLabel('result file').selectOption('run.json');
    await page.getByRole('heading', { name: 'parser / simple GET (78 B)' }).waitFor();
    expect(await page.locator('canvas').count()).toBe(1);
    const table = await page.locator('table').innerText();
    expect(table).toContain('wirespeed');
    expect(table).toContain('llhttp (node:http)');
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'dashboard.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  it('refuses path traversal and unknown results', async () => {
    expect((await fetch(`${origin}/api/results/..%2Fpackage.json`)).status).toBe(400);
    expect((await fetch(`${origin}/api/results/none.json`)).status).toBe(404);
    expect((await fetch(`${origin}/%2e%2e/%2e%2e/package.json`)).status).not.toBe(200);
    const list = (await (await fetch(`${origin}/api/results`)).json()) as { name: string }[];
    const reference = readdirSync(join(root, 'docs/results')).filter((n) => n.endsWith('.json'));
    expect(reference.length).toBeGreaterThan(0);
    expect(list.map((r) => r.name).sort()).toEqual([...reference, 'run.json'].sort());
  });
});
