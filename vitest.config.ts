import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each integration file runs its own Chromium: two at a time is what two cores carry.
    maxWorkers: 2,
    minWorkers: 1,
    // Longest files first: a long file started last would run alone on one worker at the end.
    sequence: { sequencer: LongestFirst },
    reporters: ['default'],
  },
});
