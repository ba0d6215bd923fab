// The call log (issue 17): what each wait under a step tried, shown at the end of a timeout, capped.
import { describe, expect, it } from 'vitest';
import { Deadline, TimeoutError } from '../../src/common/index.js';

describe('Deadline call log', () => {
  it('ends a timeout with what the waits tried, repeated entries counted', async () => {
    const d = Deadline.after(10);
    d.log('waiting for "#save" to be ready for click');
    for (let i = 0; i < 3; i++) d.log('button "Save" is covered by div.modal — retrying');
    const err = await d.race(new Promise(() => {}), 'the moon').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as Error).message).toBe(
      'Timed out after 10ms waiting for the moon. Call log: waiting for "#save" to be ready for click; ' +
        'button "Save" is covered by div.modal — retrying (×3)',
    );
  });

  it('shares the log with capped deadlines, leaves out the wait the message already names, and adds what was pending', async () => {
    const d = Deadline.after(1_000);
    d.cap(5).log('waiting for the load event of /a');
    const err = await d
      .cap(5)
      .race(new Promise(() => {}), 'the load event of /a', () => '1 request in flight: /slow.js')
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      'Timed out after 5ms waiting for the load event of /a. Call log: 1 request in flight: /slow.js',
    );
  });

  it('shows at most the last 5 entries and 300 characters', () => {
    const d = Deadline.after(1_000);
    for (let i = 1; i <= 8; i++) d.log(`step ${i} ${'x'.repeat(80)}`);
    const log = d.callLog();
    expect(log.length).toBeLessThanOrEqual(300);
    expect(log.startsWith('…')).toBe(true);
    expect(log).toContain('step 8');
    expect(log).not.toContain('step 3');
    expect(Deadline.after(5).withCallLog('nothing logged')).toBe('nothing logged');
  });
});

describe('Deadline.extended', () => {
  it('outlasts the step deadline by the grace and shares its call log', async () => {
    const step = Deadline.after(5);
    const hardStop = step.extended(10);
    expect(hardStop.totalMs).toBe(15);
    step.log('clicking');
    const err = await hardStop.race(new Promise(() => {}), 'step 1 (click)').catch((e: unknown) => e);
    expect((err as Error).message).toBe('Timed out after 15ms waiting for step 1 (click). Call log: clicking');
  });
});
