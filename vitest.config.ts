import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each integration file runs its own Chromium: two at a time is what two cores carry.
    maxWorkers: 2,
    minWorkers: 1,
    reporters: ['default'],
  },
});
