import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each integration file runs its own Chromium. A file mostly waits (the page, its settle windows,
    // Chrome's answers): on two cores two files kept them about half busy, three fill them better. Grid
    // set-up waits for the grid to render, not a fixed time, so a busier machine does not break it.
    maxWorkers: 3,
    minWorkers: 1,
    // Longest files first: a long file started last would run alone on one worker at the end.
    sequence: { sequencer: LongestFirst },
    reporters: ['default'],
  },
});
