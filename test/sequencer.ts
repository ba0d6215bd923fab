// The order test files start in: longest first, so that on two workers no long file starts last and
// runs alone at the end. Durations come from vitest's own cache of the last run on this machine, or,
// on a clean clone (no cache), from test/durations.json (refresh it with `node test/durations.mjs`).
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds per test file, as measured by a whole run (test/durations.mjs writes it). */
const table: Record<string, number> = JSON.parse(
  readFileSync(new URL('./durations.json', import.meta.url), 'utf8'),
) as Record<string, number>;
/** A file in neither the cache nor the table: a new integration file, as long as a middling one. */
const UNKNOWN_S = 15;

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const seconds = (spec: TestSpecification): number => {
      const path = relative(root, spec.moduleId).split('\\').join('/');
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      if (cached && !cached.failed && cached.duration > 0) return cached.duration / 1000;
      return table[path] ?? UNKNOWN_S;
    };
    const cost = new Map(files.map((f) => [f, seconds(f)]));
    return [...files].sort((a, b) => cost.get(b)! - cost.get(a)!);
  }
}
