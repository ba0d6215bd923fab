import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each integration file runs its own Chromium: three at a time on two cores keep the CPU busy
    // (a clean clone in 9 min 45 s against 10 min 32 s – 10 min 50 s with two; docs/develop.md).
    maxWorkers: 3,
    minWorkers: 1,
    // Longest files first: a long file started last would run alone on one worker at the end.
    sequence: { sequencer: LongestFirst },
    reporters: ['default'],
  },
});
