import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // The dashboard app (dashboard/) builds into dist/dashboard, served by `npm start`.
  root: here('./dashboard'),
  plugins: [react()],
  // The benchmark worker imports the suites as ES modules.
  worker: { format: 'es' },
  build: { outDir: here('./dist/dashboard'), emptyOutDir: true },
  test: {
    root: here('.'),
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
