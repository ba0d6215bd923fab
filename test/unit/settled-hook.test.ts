// settledWhen after an action (SPEC §10.1 step 4): it gets at least one evaluation while the step
// has time, and a step whose action used up its time says so rather than "did not answer within 0ms".
import { describe, expect, it } from 'vitest';
import { Deadline } from '../../src/common/index.js';
import type { Scope } from '../../src/page/index.js';
import { waitSettled } from '../../src/runner/hooks.js';

/** A scope whose every hook evaluation answers "not truthy" at once, counting the evaluations. */
function fakeScope(deadline: Deadline): { scope: Scope; calls: () => number } {
  let n = 0;
  const scope = {
    deadline,
    callInPage: async () => {
      n++;
      return { ok: false, value: { type: 'undefined' }, elapsedMs: 0 };
    },
  } as unknown as Scope;
  return { scope, calls: () => n };
}

describe('settledWhen', () => {
  it('is evaluated at least once when the action left less time than observe keeps back', async () => {
    const { scope, calls } = fakeScope(Deadline.after(400));
    // 400 ms left, observe's reserve is 500 ms: settledWhen still gets its one look.
    const warning = await waitSettled(scope, '() => window.neverSet', true);
    expect(calls()).toBeGreaterThanOrEqual(1);
    expect(warning).toMatch(/^settledWhen was not truthy after \d+ms \(last value: undefined\)$/);
  });

  it('says the step had no time left, naming the time spent, when the action used it all', async () => {
    const { scope, calls } = fakeScope(Deadline.after(1500, Date.now() - 1700));
    const warning = await waitSettled(scope, '() => window.neverSet', true);
    expect(calls()).toBe(0);
    expect(warning).toMatch(
      /^settledWhen was not evaluated: 1\d{3}ms of the step's 1500ms timeout had passed when its action was done; give the step a longer "timeout"$/,
    );
  });
});
