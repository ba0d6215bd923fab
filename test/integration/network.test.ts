// Failing requests of a command are reported (SPEC §17.4): an agent otherwise never sees them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

it('reports an API call that answered 500 and one that could not connect, only in the call that made them', async () => {
  const tab = await h.open('network.html');
  const r = await h.cli({ tab, steps: [{ click: '#load' }, { wait: { text: 'Failed' } }] });
  expect(r.out.network.failed).toEqual([
    // The error page's text, not its markup (issue 21: the body says why).
    { url: `${h.baseUrl}/status/500?api=orders`, method: 'GET', status: 500, type: 'fetch', body: 'status 500 500' },
    { url: 'http://127.0.0.1:1/unreachable', method: 'GET', error: expect.stringMatching(/^net::ERR_/), type: 'fetch' },
  ]);
  const next = await h.cli({ tab, steps: [{ pageFunction: '1' }] });
  expect(next.out.network).toBeUndefined();
});
