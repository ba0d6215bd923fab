// Every `cdp-skill '…'` line of EXAMPLES.md runs, in order, against the fixture server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examples } from './examples-md.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

it('finds the examples', () => {
  expect(examples().length).toBeGreaterThanOrEqual(15);
});

// One test per example, in the file's order (vitest runs a file's tests one after another; later
// examples use the tab the first one opened): each has its own timeout (testTimeout), so a loaded machine that
// makes the 43 calls slow as a whole fails none of them, and a failure names its example.
describe('runs every example in EXAMPLES.md', () => {
  examples().forEach((ex, i) => {
    it(`${i + 1}: ${ex.command.slice(0, 90)}`, async () => {
      const command = ex.command.replaceAll('http://localhost:8080', h.baseUrl);
      const r = await h.cli(command, { env: { CDP_SKILL_PORT: String(h.port) } });
      expect(r.out.status, `${ex.command}\n→ ${r.stdout}`).toBe(ex.expectError ? 'error' : 'ok');
      expect(r.code).toBe(ex.expectError ? 1 : 0);
    });
  });
});
