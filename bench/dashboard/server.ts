// Serves the built dashboard (dist/dashboard) and the result files (bench/results) over HTTP.
// node:http for now; it moves onto wirespeed's own server adapter once that exists (issue #4).
import { createServer, type Server, type ServerResponse } from 'node:http';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { ResultFile } from '../harness/types.js';
import { RESULT_SCHEMA } from '../harness/types.js';

export interface DashboardOptions {
  port: number;
  hostname: string;
  /** The built app (index.html and assets). */
  staticDir: string;
  /** Folders of result files, searched in order (names are unique per server: first one wins). */
  resultsDirs: string[];
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
};

// Cross-origin isolation gives the in-browser benchmarks high-resolution timers.
const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

function send(res: ServerResponse, status: number, body: string | Buffer, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), ...ISOLATION });
  res.end(body);
}

/** `root`/`relative` when it stays inside `root`, else null (no path traversal). */
function inside(root: string, relative: string): string | null {
  const path = resolve(root, '.' + sep + relative);
  return path === root || path.startsWith(root + sep) ? path : null;
}

/** name → path of every result file in `dirs` (the first folder holding a name wins). */
async function resultFiles(dirs: string[]): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const dir of dirs) {
    let names: string[] = [];
    try {
      names = (await readdir(dir)).filter((n) => n.endsWith('.json'));
    } catch {
      // A folder that does not exist yet holds no results.
    }
    for (const name of names) if (!files.has(name)) files.set(name, join(dir, name));
  }
  return files;
}

async function listResults(dirs: string[]) {
  const items = [];
  for (const [name, path] of await resultFiles(dirs)) {
    try {
      const file = JSON.parse(await readFile(path, 'utf8')) as ResultFile;
      if (file.schema !== RESULT_SCHEMA) continue;
      items.push({
        name,
        createdAt: file.createdAt,
        cpuModel: file.fingerprint.cpuModel,
        runtime: file.fingerprint.runtime,
        runtimeVersion: file.fingerprint.runtimeVersion,
        suites: [...new Set(file.cases.map((c) => c.suite))],
        cases: file.cases.length,
      });
    } catch {
      // A file that is not a result file is not listed.
    }
  }
  return items.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

export function startDashboard(options: DashboardOptions): Promise<Server> {
  const staticDir = resolve(options.staticDir);
  const resultsDirs = options.resultsDirs.map((dir) => resolve(dir));
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed');
      if (url.pathname === '/api/results') return send(res, 200, JSON.stringify(await listResults(resultsDirs)), TYPES['.json']);
      if (url.pathname.startsWith('/api/results/')) {
        const name = decodeURIComponent(url.pathname.slice('/api/results/'.length));
        if (!/^[\w.+-]+\.json$/.test(name) || name.startsWith('.')) return send(res, 400, 'bad result name');
        const path = (await resultFiles(resultsDirs)).get(name);
        if (!path) return send(res, 404, 'no such result');
        return send(res, 200, await readFile(path), TYPES['.json']);
      }
      const path = inside(staticDir, url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname));
      if (!path) return send(res, 400, 'bad path');
      try {
        if (!(await stat(path)).isFile()) return send(res, 404, 'not found');
        return send(res, 200, await readFile(path), TYPES[extname(path)] ?? 'application/octet-stream');
      } catch {
        return send(res, 404, 'not found');
      }
    })().catch((error: unknown) => send(res, 500, String(error)));
  });
  return new Promise((resolveStart, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.hostname, () => resolveStart(server));
  });
}
