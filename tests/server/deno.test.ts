// The server suite on Deno (npm package `deno`): the same tests, the server in a Deno process.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { serverSuite, type Launched, type TestServerOptions } from './suite.js';

const deno = createRequire(import.meta.url).resolve('deno/bin.cjs');
const script = new URL('./deno-server.ts', import.meta.url).pathname;

function launch(options: TestServerOptions): Promise<Launched> {
  const child = spawn(process.execPath, [deno, 'run', '--quiet', '--allow-net', '--allow-read', '--allow-env', '--no-lock', '--sloppy-imports', script, JSON.stringify(options)], {
    env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the Deno server exited with ${code} before listening`)));
    lines.once('line', (url) => {
      const port = Number(new URL(url).port);
      resolve({
        url,
        port,
        async close() {
          if (child.exitCode === null) child.stdin!.write('close\n');
          await exited;
        },
      });
    });
  });
}

serverSuite('deno', launch);
