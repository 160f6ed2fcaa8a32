// The CLI end to end: a real (quick, filtered) run writing a real result file, in a fresh process
// per case.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultFile } from '../../bench/harness/types.js';

const cli = new URL('../../dist/bench/cli.js', import.meta.url).pathname;

describe('wirespeed bench', () => {
  it('writes a result file with fingerprint, raw samples and statistics', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'wirespeed-bench-')), 'result.json');
    const stdout = execFileSync(
      process.execPath,
      [cli, 'bench', '--suite', 'parser', '--quick', '--isolate', '--filter', 'simple GET', '--out', out],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    // Each case prints as it finishes, in units a person reads, then a summary per group.
    expect(stdout).toMatch(/parser \/ simple GET \(78 B\) \/ wirespeed\s+\d+(\.\d+)? (ns|µs)\s+\(95% CI/);
    expect(stdout).toMatch(
      /summary\n {2}parser \/ simple GET \(78 B\)\n {4}wirespeed ran \d+\.\d\dx (faster|slower) than llhttp \(node:http\) \(baseline\)/,
    );
    expect(stdout).toContain(`→ ${out}`);
    const result = JSON.parse(readFileSync(out, 'utf8')) as ResultFile;
    expect(result.schema).toBe('wirespeed-bench/1');
    expect(result.options).toMatchObject({ quick: true, isolate: true });
    expect(result.fingerprint.cores).toBeGreaterThan(0);
    expect(result.fingerprint.runtime).toBe('node');
    expect(result.fingerprint.wasm.bulkMemory).toBe(true);
    expect(result.fingerprint.cpuModel).not.toBe('');
    const impls = result.cases.map((c) => c.impl);
    expect(impls).toContain('wirespeed');
    expect(impls).toContain('llhttp (node:http)');
    for (const c of result.cases) {
      expect(c.group).toBe('simple GET (78 B)');
      expect(c.samples.length).toBeGreaterThanOrEqual(16);
      expect(c.stats.median).toBeGreaterThan(0);
      expect(c.stats.ciLow).toBeLessThanOrEqual(c.stats.median);
      expect(c.stats.ciHigh).toBeGreaterThanOrEqual(c.stats.median);
    }
    expect(result.cases.filter((c) => c.baseline)).toHaveLength(1);
  });

  it('runs server load cases: wrk against each server process (wirespeed, Bun.serve), with their metrics', () => {
    const run = (filter: string) => {
      const out = join(mkdtempSync(join(tmpdir(), 'wirespeed-bench-')), 'server.json');
      execFileSync(process.execPath, [cli, 'bench', '--suite', 'server', '--quick', '--filter', filter, '--out', out], { stdio: 'ignore' });
      return (JSON.parse(readFileSync(out, 'utf8')) as ResultFile).cases;
    };
    const cases = [...run('hello text / wirespeed-'), ...run('hello text / bun-serve')];
    expect(cases.map((c) => c.impl).sort()).toEqual([
      'bun-serve',
      'wirespeed-deno',
      'wirespeed-deno-runtime',
      'wirespeed-node',
      'wirespeed-node-runtime',
    ]);
    for (const c of cases) {
      const m = c.metrics!;
      expect(m.requestsPerSec).toBeGreaterThan(1000);
      // Stored samples keep 5 significant digits.
      expect(Math.abs(c.samples[0] - 1e9 / m.requestsPerSec) / c.samples[0]).toBeLessThan(1e-4);
      expect(m.errors).toBe(0);
      expect(m.serverCpuUsPerReq).toBeGreaterThan(0);
      expect(m.peakRssBytes).toBeGreaterThan(10 * 1024 * 1024);
      expect(m.clientCpuShare).toBeGreaterThan(0);
      expect(m.latencyP99Ms).toBeGreaterThanOrEqual(m.latencyP50Ms);
      expect(m.clientWrk).toBe(1);
      // Every connection wrk asked for was open on the server side at once.
      expect(m.openConnections).toBe(m.connections);
    }
  });

  it('runs WebSocket echo cases: the load client against each server (wirespeed, ws, Deno, Bun, the raw-ws ceiling), with their metrics', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'wirespeed-bench-')), 'websocket.json');
    const filter = '16 B text, 100 connections';
    execFileSync(process.execPath, [cli, 'bench', '--suite', 'websocket', '--quick', '--filter', filter, '--out', out], {
      stdio: 'ignore',
    });
    const cases = (JSON.parse(readFileSync(out, 'utf8')) as ResultFile).cases;
    expect(cases.map((c) => c.impl).sort()).toEqual(['bun-ws', 'deno-ws', 'raw-ws', 'wirespeed-deno-ws', 'wirespeed-node-ws', 'ws-node']);
    expect(cases.filter((c) => c.baseline).map((c) => c.impl)).toEqual(['ws-node']);
    for (const c of cases) {
      const m = c.metrics!;
      expect(m.requestsPerSec, c.impl).toBeGreaterThan(1000);
      expect(m.errors, c.impl).toBe(0);
      expect(m.serverCpuUsPerReq, c.impl).toBeGreaterThan(0);
      expect(m.openConnections, c.impl).toBe(100);
    }
  });

  it("leaves nothing in the temp directory: wrk's script, h2load's log, a server's files, an IPC socket", () => {
    // The run's TMPDIR is a folder of this test's own, so whatever the run and the servers it
    // starts (killed with SIGKILL) leave there is theirs.
    const tmp = mkdtempSync(join(tmpdir(), 'wirespeed-bench-tmp-'));
    const out = join(mkdtempSync(join(tmpdir(), 'wirespeed-bench-')), 'run.json');
    const filter =
      '/POST JSON .* wirespeed-node-hono$|h2 hello, 10 connections x 10 streams / wirespeed-node-h2$|small\\) over Unix socket / IpcChannel/';
    execFileSync(process.execPath, [cli, 'bench', '--suite', 'server,http2,ipc', '--quick', '--filter', filter, '--out', out], {
      stdio: 'ignore',
      env: { ...process.env, TMPDIR: tmp },
    });
    const cases = (JSON.parse(readFileSync(out, 'utf8')) as ResultFile).cases;
    // Each kind that writes a temp file ran: wrk with a Lua script (the POST body), the hono app
    // (its static files), h2load (its request log), IPC over a Unix socket.
    expect(cases.map((c) => c.impl).sort()).toEqual([
      'IpcChannel request',
      'IpcChannel request',
      'wirespeed-node-h2',
      'wirespeed-node-hono',
    ]);
    expect(readdirSync(tmp)).toEqual([]);
  });
  it('prints a report from one real run, every number taken from that run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirespeed-report-'));
    const stdout = execFileSync(
      process.execPath,
      [
        cli,
        'report',
        'micro',
        '--quick',
        '--filter',
        'static, 10 routes',
        '--out',
        join(dir, 'run.json'),
        '--markdown',
        join(dir, 'report.md'),
      ],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    const result = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as ResultFile;
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(stdout.trim().endsWith(markdown.trim())).toBe(true);
    expect(markdown).toContain(`- Date: ${result.createdAt}`);
    expect(markdown).toContain(`${result.fingerprint.cpuModel}, ${result.fingerprint.cores} cores`);
    // A quick report is a smoke run in one process; a real one isolates every case.
    expect(markdown).toContain('all cases in one process');
    expect(markdown).toContain('QUICK RUN');
    expect(result.options).toMatchObject({ isolate: false, quick: true });
    const row = markdown.split('\n').find((line) => line.startsWith('| static, 10 routes |'))!;
    const header = markdown.split('\n').find((line) => line.startsWith('| router |'))!;
    const impls = header
      .split('|')
      .slice(2, -1)
      .map((s) => s.trim());
    const cells = row
      .split('|')
      .slice(2, -1)
      .map((s) => s.trim());
    expect(impls).toEqual(result.cases.map((c) => c.impl));
    const baseline = result.cases.find((c) => c.baseline)!;
    result.cases.forEach((c, i) => {
      const ns = c.stats.median;
      const shown = ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(1)} ns`;
      expect(cells[i].startsWith(shown)).toBe(true);
      if (c !== baseline) expect(cells[i]).toContain(`(${(ns / baseline.stats.median).toFixed(2)}x)`);
    });
  });

  it('prints the HTTP/1.1 vs HTTP/2 report from one real run of wrk and h2load', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirespeed-report-'));
    const markdown = execFileSync(process.execPath, [cli, 'report', 'h1-vs-h2', '--quick', '--out', join(dir, 'run.json')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const result = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as ResultFile;
    // Only the report's cases ran: 2 groups x 2 servers per protocol.
    expect(result.cases.map((c) => `${c.suite}/${c.impl}`).sort()).toEqual([
      'http2/node-http2',
      'http2/node-http2',
      'http2/wirespeed-node-h2',
      'http2/wirespeed-node-h2',
      'server/node-http',
      'server/node-http',
      'server/wirespeed-node',
      'server/wirespeed-node',
    ]);
    for (const c of result.cases) {
      expect(c.metrics!.errors).toBe(0);
      expect(c.metrics!.openConnections, `${c.suite} / ${c.impl} / ${c.group}`).toBe(c.metrics!.connections);
    }
    const row = markdown.split('\n').find((line) => line.startsWith('| concurrent: req/s |'))!;
    const cells = row
      .split('|')
      .slice(2, -1)
      .map((s) => s.trim());
    const h2 = result.cases.find((c) => c.impl === 'wirespeed-node-h2' && c.group.startsWith('h2 hello, 10 connections'))!;
    expect(cells[3]).toBe(`${(h2.metrics!.requestsPerSec / 1000).toFixed(1)}k`);
    expect(markdown).not.toContain('—');
  });

  it('pair: runs two servers side by side, in alternating order, and prints their CPU per request and its ratio', () => {
    const stdout = execFileSync(
      process.execPath,
      [cli, 'pair', 'wirespeed-node', 'node-http', '--runs', '2', '--seconds', '1', '--path', '/json'],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const runs = [
      ...stdout.matchAll(
        /^run (\d) \((A|B) started first\): A ([\d.]+) µs\/req ([\d.]+)k\/s, B ([\d.]+) µs\/req ([\d.]+)k\/s, B\/A ([\d.]+)$/gm,
      ),
    ];
    expect(runs.map((m) => [m[1], m[2]])).toEqual([
      ['1', 'A'],
      ['2', 'B'],
    ]);
    for (const [, , , aCpu, aRate, bCpu, bRate, ratio] of runs) {
      for (const value of [aCpu, aRate, bCpu, bRate]) expect(Number(value)).toBeGreaterThan(0);
      expect(Number(ratio)).toBeCloseTo(Number(bCpu) / Number(aCpu), 2);
    }
    const [low, high] = runs.map((m) => Number(m[7])).sort((x, y) => x - y);
    const summary =
      /^node-http \/ wirespeed-node, server CPU per request on \/json: median ([\d.]+) \(([\d.]+)-([\d.]+) over 2 runs\)$/m.exec(stdout);
    expect(summary?.slice(2).map(Number)).toEqual([low, high]);
    expect(Number(summary![1])).toBeCloseTo((low + high) / 2, 2);
  });

  it('pair: leaves out a run where a server failed requests, and fails when no run was clean', () => {
    // Both servers answer 404 on a path they do not serve: wrk counts every answer an error.
    let failure: { status: number; stdout: string; stderr: string } | undefined;
    try {
      execFileSync(process.execPath, [cli, 'pair', 'wirespeed-node', 'node-http', '--runs', '1', '--seconds', '1', '--path', '/missing'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      failure = error as typeof failure;
    }
    expect(failure?.status).toBe(1);
    const leftOut = /^run 1 left out: A had (\d+) errors [^;]*; B had (\d+) errors /m.exec(failure!.stdout);
    expect(
      leftOut
        ?.slice(1)
        .map(Number)
        .every((errors) => errors > 100),
    ).toBe(true);
    expect(failure!.stdout).not.toMatch(/median/);
    expect(failure!.stderr.trimEnd()).toBe('wirespeed pair: no run of the 1 was clean (above: what failed in each)');
  });

  it('refuses what it cannot do in one line, with what to do, and the right exit code', () => {
    const run = (args: string[]) => {
      try {
        execFileSync(process.execPath, [cli, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        return { status: 0, stderr: '' };
      } catch (error) {
        const { status, stderr } = error as { status: number; stderr: string };
        return { status, stderr };
      }
    };
    const cases: [string[], number, RegExp][] = [
      [
        ['bench', '--suite', 'nope'],
        2,
        /^wirespeed bench: unknown suite "nope" \(the suites: parser, .*\) \(see wirespeed bench --help\)$/,
      ],
      [['bench', '--bogus'], 2, /^wirespeed bench: unknown option '--bogus' \(see wirespeed bench --help\)$/],
      [['bench', '--out'], 2, /argument missing/],
      [
        ['bench', '--suite', 'parser', '--filter', 'no such case'],
        1,
        /--filter "no such case" matches no case of parser \(list them: wirespeed bench --list\)$/,
      ],
      [['bench', '--filter', '/(/'], 2, /--filter \/\(\/ is not a regular expression/],
      [['frobnicate'], 2, /^wirespeed: unknown command "frobnicate" \(the commands: bench, compare, pair, report, dashboard\)/],
      [['report', 'nope'], 2, /unknown report "nope" \(the reports: engine, h1-vs-h2, micro, websocket, servers\)/],
      [['report'], 2, /report needs a NAME/],
      [['compare', 'one.json'], 2, /compare needs at least two result files/],
      [['compare', 'one.json', 'two.json'], 1, /^wirespeed compare: cannot read one.json: no such file$/],
      [['compare', 'a.json', 'b.json', '--format', 'xml'], 2, /--format must be one of text, markdown, json, not "xml"/],
      [['dashboard', '--port', 'x'], 2, /--port must be an integer >= 0, not "x"/],
      [['pair', 'node-http'], 2, /^wirespeed pair: pair needs two servers, SERVER_A and SERVER_B \(see wirespeed pair --help\)$/],
      [['pair', 'node-http', 'node-http', '--runs', '0'], 2, /--runs must be an integer >= 1, not "0"/],
      [['pair', 'node-http', 'node-http', '--pipeline', '1.5'], 2, /--pipeline must be an integer >= 1, not "1.5"/],
    ];
    for (const [args, status, message] of cases) {
      const result = run(args);
      expect(result.status, args.join(' ')).toBe(status);
      expect(result.stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1); // one line, no stack
      expect(result.stderr.trimEnd(), args.join(' ')).toMatch(message);
    }
    // A server pair cannot start says so in one line of its own, then pair's.
    const unknown = run(['pair', 'no-such-server', 'node-http', '--runs', '1', '--seconds', '1']);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr.trimEnd().split('\n')).toEqual([
      'unknown server "no-such-server"',
      expect.stringMatching(/^wirespeed pair: no-such-server did not start \(.* exited with 2\): its error is above/),
    ]);
  });

  it('has --help on every command and --version', () => {
    const out = (args: string[]) => execFileSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(out(['--version']).trim()).toBe(version);
    expect(out(['-v']).trim()).toBe(version);
    expect(out(['--help'])).toMatch(/^usage: wirespeed <command>/);
    expect(out(['-h'])).toMatch(/^usage: wirespeed <command>/);
    for (const command of ['bench', 'compare', 'pair', 'report', 'dashboard']) {
      expect(out([command, '--help']), command).toMatch(new RegExp(`^usage: wirespeed ${command}`));
      expect(out([command, '-h']), command).toMatch(new RegExp(`^usage: wirespeed ${command}`));
      expect(out(['help', command]), command).toMatch(new RegExp(`^usage: wirespeed ${command}`));
    }
  });

  it('a failed --push names the URL and the reason, and keeps the file', async () => {
    // A port nothing listens on: opened, then closed.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const dir = mkdtempSync(join(tmpdir(), 'wirespeed-push-'));
    const out = join(dir, 'run.json');
    let stderr = '';
    try {
      execFileSync(
        process.execPath,
        [
          cli,
          'bench',
          '--suite',
          'router',
          '--quick',
          '--filter',
          'static, 10 routes / wirespeed',
          '--out',
          out,
          '--push',
          `http://127.0.0.1:${port}`,
        ],
        {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
    } catch (error) {
      stderr = (error as { stderr: string }).stderr;
    }
    const last = stderr.trimEnd().split('\n').at(-1)!;
    expect(last.startsWith(`wirespeed bench: could not push to http://127.0.0.1:${port}/api/results: ECONNREFUSED`)).toBe(true);
    expect(last).toContain(`the result stays in ${out}`);
    expect((JSON.parse(readFileSync(out, 'utf8')) as ResultFile).cases).toHaveLength(1);
  });

  it('writes the result file after every case, so an interrupted run keeps what it measured', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirespeed-interrupt-'));
    const out = join(dir, 'run.json');
    const child = spawn(process.execPath, [cli, 'bench', '--suite', 'router', '--quick', '--out', out], { stdio: 'ignore' });
    // Stop it once two cases are in the file, long before its ~100 cases are done.
    await expect
      .poll(() => (existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as ResultFile).cases.length : 0), {
        timeout: 20_000,
        interval: 50,
      })
      .toBeGreaterThanOrEqual(2);
    child.kill('SIGINT');
    await new Promise((resolve) => child.once('exit', resolve));
    const kept = JSON.parse(readFileSync(out, 'utf8')) as ResultFile;
    expect(kept.cases.length).toBeGreaterThanOrEqual(2);
    expect(kept.cases.length).toBeLessThan(90);
    expect(kept.schema).toBe('wirespeed-bench/1');
  });
});
