// The dashboard's server, on wirespeed's own Node adapter (dogfood): the built app, the result
// files, and uploads (`wirespeed bench --push`, the page's file drop). Every response carries
// COOP/COEP so the page is cross-origin isolated and its benchmarks get high-resolution timers.
import { readFile, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { serve, type Server } from '../../src/server/node.js';
import { ResultFileError } from '../harness/schema.js';
import { isResultName, ResultStore } from './store.js';

export interface DashboardOptions {
  port: number;
  hostname: string;
  /** The built app (index.html and assets). */
  staticDir: string;
  /** Folders of result files; uploads go into the first. */
  resultsDirs: string[];
  /** Largest upload (413 beyond). Default 16 MiB. */
  maxUploadBytes?: number;
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

const ISOLATION = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };

function respond(body: string | Uint8Array, status: number, type: string): Response {
  return new Response(body as BodyInit, { status, headers: { 'content-type': type, 'cache-control': 'no-store', ...ISOLATION } });
}
const json = (value: unknown, status = 200) => respond(JSON.stringify(value), status, TYPES['.json']);
const problem = (status: number, error: string) => json({ error }, status);

/** `root`/`relative` when it stays inside `root`, else null (no path traversal). */
function inside(root: string, relative: string): string | null {
  const path = resolve(root, '.' + sep + relative);
  return path === root || path.startsWith(root + sep) ? path : null;
}

export function startDashboard(options: DashboardOptions): Promise<Server> {
  const staticDir = resolve(options.staticDir);
  const store = new ResultStore(options.resultsDirs);

  async function staticFile(pathname: string): Promise<Response> {
    let relative: string;
    try {
      relative = decodeURIComponent(pathname === '/' ? '/index.html' : pathname);
    } catch {
      return problem(400, 'bad path');
    }
    const path = inside(staticDir, relative);
    if (!path) return problem(400, 'bad path');
    try {
      if (!(await stat(path)).isFile()) return problem(404, 'not found');
      return respond(await readFile(path), 200, TYPES[extname(path)] ?? 'application/octet-stream');
    } catch {
      return problem(404, 'not found');
    }
  }

  const server = serve({
    port: options.port,
    hostname: options.hostname,
    maxBodyBytes: options.maxUploadBytes ?? 16 * 1024 * 1024,
    routes: {
      'GET /api/results': async () => json(await store.list()),
      'GET /api/results/:name': async (_request, { params }) => {
        if (!isResultName(params.name)) return problem(400, `bad result name ${JSON.stringify(params.name)}`);
        const bytes = await store.read(params.name);
        return bytes ? respond(bytes, 200, TYPES['.json']) : problem(404, `no result named ${params.name}`);
      },
      'POST /api/results': async (request) => {
        try {
          const { summary, created } = await store.save(await request.text());
          return json(summary, created ? 201 : 200);
        } catch (error) {
          if (error instanceof ResultFileError) return problem(400, error.message);
          if (error instanceof SyntaxError) return problem(400, `not JSON: ${error.message}`);
          throw error;
        }
      },
      'GET /*': (request) => staticFile(new URL(request.url).pathname),
    },
    onError(error) {
      console.error('dashboard:', error);
      return problem(500, 'internal error');
    },
  });
  return server.ready.then(() => server);
}
