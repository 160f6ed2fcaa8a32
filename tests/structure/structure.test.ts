// The shape of src/ that docs/architecture.md promises: imports run one way (adapters → server
// core → protocols → wasm, with the neutral root modules below all), no protocol imports
// another, and every export carries a JSDoc comment.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = new URL('../../src/', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'pkg' ? [] : files(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const PROTOCOLS = ['http1', 'http2', 'hpack', 'router', 'ipc', 'websocket'];
const ADAPTERS = ['server/node.ts', 'server/node-cluster.ts', 'server/deno.ts', 'server/deno-globals.ts'];

/** The layer of a file under src/: its first folder, or 'root' for the neutral modules. */
function layer(file: string): string {
  const path = relative(src, file);
  if (ADAPTERS.includes(path)) return 'adapter';
  const folder = path.includes('/') ? path.slice(0, path.indexOf('/')) : 'root';
  return folder;
}

/** The files `file` imports from src/ (relative imports, type-only ones included). */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from '(\.[^']+)'/g)].map((m) => join(file, '..', m[1]).replace(/\.js$/, '.ts'));
}

describe('src/ structure', () => {
  const all = files(src);

  it('imports run one way: no protocol imports another protocol, the server or an adapter; wasm imports nothing above it', () => {
    const wrong: string[] = [];
    for (const file of all) {
      const from = layer(file);
      for (const target of imports(file)) {
        const to = layer(target);
        if (from === to) continue;
        const name = `${relative(src, file)} → ${relative(src, target)}`;
        if (PROTOCOLS.includes(from) && to !== 'wasm' && to !== 'root') wrong.push(name);
        if (from === 'wasm' && to !== 'root') wrong.push(name);
        if (from === 'root' && relative(src, file) !== 'index.ts' && to !== 'root') wrong.push(name);
        if (from === 'server' && to === 'adapter') wrong.push(name);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('every export has a JSDoc comment', () => {
    const undocumented: string[] = [];
    for (const file of all) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (!/^export (default )?(async )?(abstract )?(function|class|const|let|interface|type|enum)\b/.test(line)) return;
        if (/^export type \{/.test(line)) return;
        if (!/\*\/\s*$/.test(lines[i - 1] ?? '')) undocumented.push(`${relative(src, file)}:${i + 1}`);
      });
    }
    expect(undocumented).toEqual([]);
  });
});
