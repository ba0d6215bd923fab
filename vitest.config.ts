import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each integration file runs its own Chromium: three at a time on two cores. Files mostly wait
    // (pages, settle windows, Chrome): with two, a third of the CPU stayed idle (docs/develop.md).
    maxWorkers: 3,
    minWorkers: 1,
    // Longest files first: a long file started last would run alone on one worker at the end.
    sequence: { sequencer: LongestFirst },
    reporters: ['default'],
  },
});
