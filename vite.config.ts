import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Suites that start processes or time things run alone so they do not disturb each other.
    fileParallelism: true,
    reporters: ['default'],
  },
});
