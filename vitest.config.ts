import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each integration file runs its own Chromium: two at a time. Files mostly wait (pages, settle windows,
    // Chrome), so three would fill two cores better, but on a loaded machine a few timing-bound tests
    // then failed (docs/develop.md); try `npx vitest run --maxWorkers=3`.
    maxWorkers: 2,
    minWorkers: 1,
    // Longest files first: a long file started last would run alone on one worker at the end.
    sequence: { sequencer: LongestFirst },
    reporters: ['default'],
  },
});
