import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const resolvePackage = (specifier: string) => createRequire(import.meta.url).resolve(specifier);

/**
 * The Node modules the bench peers import, for the browser bundle only (not for vitest, which runs
 * on Node): find-my-way's node:assert and koa-tree-router's http (dashboard/src/run/shims), and
 * node:buffer and events as the `buffer` and `events` packages (undici's llhttp wasm module is a
 * Buffer; hpack.js's streams are EventEmitters).
 */
function browserShims(): Plugin {
  const shims: Record<string, string> = {
    'node:assert': here('./dashboard/src/run/shims/assert.cjs'),
    http: here('./dashboard/src/run/shims/http.cjs'),
    'node:buffer': resolvePackage('buffer/'),
    events: resolvePackage('events/'),
  };
  return { name: 'wirespeed-browser-shims', apply: 'build', enforce: 'pre', resolveId: (id) => shims[id] ?? null };
}

export default defineConfig({
  // The dashboard app (dashboard/) builds into dist/dashboard, served by `npm start`.
  root: here('./dashboard'),
  plugins: [react(), browserShims()],
  // The benchmark worker imports the suites as ES modules.
  worker: { format: 'es', plugins: () => [browserShims()] },
  build: { outDir: here('./dist/dashboard'), emptyOutDir: true },
  test: {
    root: here('.'),
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    globalSetup: ['tests/temp-folder.setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
