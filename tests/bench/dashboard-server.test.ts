// The dashboard's server and store over real HTTP: uploads validated, stored atomically, kept
// across restarts; `wirespeed bench --push` reaching it from another process.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { startDashboard } from '../../bench/dashboard/server.js';
import type { ResultFile } from '../../bench/harness/types.js';
import type { Server } from '../../src/server/node.js';

const root = new URL('../..', import.meta.url).pathname;
const cli = join(root, 'dist/bench/cli.js');
// Async: the server under test runs in this process and must keep answering.
const run = promisify(execFile);
const reference = JSON.parse(readFileSync(join(root, 'docs/results/server.json'), 'utf8')) as ResultFile;

/** A small valid result: the reference run cut to one case, stamped `createdAt`. */
function resultFile(createdAt: string, cpuModel = 'Test CPU'): ResultFile {
  return { ...reference, createdAt, fingerprint: { ...reference.fingerprint, cpuModel }, cases: reference.cases.slice(0, 2) };
}

let servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function start(dir: string, maxUploadBytes?: number): Promise<Server> {
  const server = await startDashboard({
    port: 0,
    hostname: '127.0.0.1',
    staticDir: join(root, 'dist/dashboard'),
    resultsDirs: [dir],
    maxUploadBytes,
  });
  servers.push(server);
  return server;
}

const upload = (server: Server, body: string) =>
  fetch(`${server.url}/api/results`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });

describe('dashboard server', () => {
  it('stores a valid upload once, lists it, serves it, and keeps it across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirespeed-store-'));
    const server = await start(dir);
    const text = JSON.stringify(resultFile('2026-11-20T10:00:00.000Z'));
    const first = await upload(server, text);
    expect(first.status).toBe(201);
    const { name } = (await first.json()) as { name: string };
    expect(name).toMatch(/^2026-11-20T10-00-00-000Z-node-[0-9a-f]{16}\.json$/);
    expect((await upload(server, text)).status).toBe(200);
    expect(readdirSync(dir)).toEqual([name]);
    expect(await (await fetch(`${server.url}/api/results/${name}`)).text()).toBe(text);
    await server.close();
    const again = await start(dir);
    const list = (await (await fetch(`${again.url}/api/results`)).json()) as { name: string; cpuModel: string; cases: number }[];
    expect(list).toMatchObject([{ name, cpuModel: 'Test CPU', cases: 2 }]);
  });

  it('refuses bad uploads with 400 and the reason, too-large ones with 413, and loses nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirespeed-store-'));
    const server = await start(dir, 64 * 1024);
    expect((await upload(server, JSON.stringify(resultFile('2026-11-20T10:00:00.000Z')))).status).toBe(201);
    const stored = readdirSync(dir);
    const cases: [string, string, RegExp][] = [
      ['not JSON', '{"schema": ', /not JSON/],
      [
        'another schema',
        JSON.stringify({ ...resultFile('2026-11-20T11:00:00.000Z'), schema: 'other/1' }),
        /\/schema must be equal to constant/,
      ],
      [
        'a sample that is not a number',
        JSON.stringify({ ...resultFile('2026-11-20T11:00:00.000Z'), cases: [{ ...reference.cases[0], samples: ['fast'] }] }),
        /\/cases\/0\/samples\/0 must be number/,
      ],
      ['no cases', JSON.stringify({ ...resultFile('2026-11-20T11:00:00.000Z'), cases: [] }), /\/cases must NOT have fewer than 1 items/],
      [
        'a case twice',
        JSON.stringify({ ...resultFile('2026-11-20T11:00:00.000Z'), cases: [reference.cases[0], reference.cases[0]] }),
        /appears twice/,
      ],
      [
        'no fingerprint',
        JSON.stringify({ ...resultFile('2026-11-20T11:00:00.000Z'), fingerprint: undefined }),
        /must have required property 'fingerprint'/,
      ],
    ];
    for (const [what, body, reason] of cases) {
      const response = await upload(server, body);
      expect(response.status, what).toBe(400);
      expect(((await response.json()) as { error: string }).error, what).toMatch(reason);
    }
    const big = await upload(server, JSON.stringify({ ...resultFile('2026-11-20T12:00:00.000Z'), padding: 'x'.repeat(100 * 1024) }));
    expect(big.status).toBe(413);
    expect(readdirSync(dir)).toEqual(stored);
    // A broken file dropped into the folder by hand is skipped, not fatal.
    writeFileSync(join(dir, 'broken.json'), '{"half');
    expect(((await (await fetch(`${server.url}/api/results`)).json()) as unknown[]).length).toBe(1);
  });

  it('takes concurrent uploads without losing or mixing any', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirespeed-store-'));
    const server = await start(dir);
    const files = Array.from({ length: 12 }, (_, i) =>
      JSON.stringify(resultFile(`2026-11-20T10:00:${String(i).padStart(2, '0')}.000Z`, `CPU ${i % 3}`)),
    );
    // Each file twice, all at once.
    const responses = await Promise.all([...files, ...files].map((text) => upload(server, text)));
    expect(responses.every((r) => r.status === 201 || r.status === 200)).toBe(true);
    const names = readdirSync(dir).sort();
    expect(names).toHaveLength(12);
    const stored = names.map((name) => readFileSync(join(dir, name), 'utf8')).sort();
    expect(stored).toEqual([...files].sort());
  });

  it('receives `wirespeed bench --push` from another process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirespeed-store-'));
    const server = await start(dir);
    const out = join(mkdtempSync(join(tmpdir(), 'wirespeed-push-')), 'run.json');
    const args = [cli, 'bench', '--suite', 'router', '--quick', '--filter', 'static, 10 routes', '--out', out, '--push'];
    const { stdout } = await run(process.execPath, [...args, server.url]);
    expect(stdout).toMatch(/pushed to .*\/api\/results: stored as .*\.json/);
    const [name] = readdirSync(dir);
    expect(readFileSync(join(dir, name), 'utf8')).toBe(readFileSync(out, 'utf8'));
    // A URL fetch refuses: the CLI fails in one line naming it (the file is still written).
    await expect(run(process.execPath, [...args, 'http://127.0.0.1:1'])).rejects.toThrow(
      /wirespeed bench: could not push to http:\/\/127\.0\.0\.1:1\/api\/results: bad port/,
    );
  });
});
