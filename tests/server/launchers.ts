// Start the test app (tests/server/app.ts) on each adapter: Node in this process, Deno in a
// `deno run` child that prints its URL and closes gracefully on "close" from stdin.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { serve } from '../../src/server/node.js';
import { appOptions } from './app.js';
import { fixture } from './clients.js';
import type { Launched, TestServerOptions } from './suite.js';

export async function launchNode({ tls, ...limits }: TestServerOptions): Promise<Launched> {
  const server = serve({ ...appOptions(), ...limits, tls: tls ? { cert: fixture('cert.pem'), key: fixture('key.pem') } : undefined });
  await server.ready;
  return { url: server.url, port: server.port, close: () => server.close() };
}

const deno = createRequire(import.meta.url).resolve('deno/bin.cjs');
const script = new URL('./deno-server.ts', import.meta.url).pathname;

/**
 * Node's argv for `deno run` of `file` with the permissions the test servers need: net, read, env,
 * write in the temporary directory (where the tests put Unix sockets: Deno asks write access to a
 * socket's path), and the host's name (the AI SDK reads it when loaded).
 */
export function denoRunArgs(file: string, ...args: string[]): string[] {
  const permissions = ['--allow-net', '--allow-read', '--allow-env', `--allow-write=${tmpdir()}`, '--allow-sys=hostname'];
  return [deno, 'run', '--quiet', ...permissions, '--no-lock', '--sloppy-imports', file, ...args];
}

export function launchDeno(options: TestServerOptions): Promise<Launched> {
  const child = spawn(process.execPath, denoRunArgs(script, JSON.stringify(options)), {
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
