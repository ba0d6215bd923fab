import { describe, expect, it } from 'vitest';
import { differsInIdentifier, identifiers } from '../../src/runner/near-match.js';
import { nextStep } from '../../src/runner/next-step.js';

describe('near matches that name another thing (issue 14 item 15)', () => {
  it('finds identifiers: codes, numbers, emails', () => {
    expect(identifiers('Edit order ORD-04711 for ann@example.com (12.50 EUR)')).toEqual([
      'ord-04711',
      'ann@example.com',
      '12.50',
    ]);
    expect(identifiers('Save draft')).toEqual([]);
  });

  it('says a near match differs when an identifier the agent named is not in it', () => {
    expect(differsInIdentifier('ORD-04711', 'ORD-00211')).toBe(true);
    expect(differsInIdentifier('ann@example.com', 'anne@example.com')).toBe(true);
    expect(differsInIdentifier('Invoice 2024-17', 'Invoice 2024-71')).toBe(true);
    expect(differsInIdentifier('ORD-04711', 'Order ORD-04711 (open)')).toBe(false);
    expect(differsInIdentifier('Submit', 'Submit order')).toBe(false);
  });

  it('never offers such a near match as the next step, but still offers one that only differs in words', async () => {
    const failure = (value: string) => ({
      category: 'selector-not-found' as const,
      details: { target: { by: 'text', value } },
      message: '',
    });
    const context = { nearMatches: [{ ref: 's1e9', role: 'row', name: 'ORD-00211 Ann Smith', score: 70 }] };
    expect(
      await nextStep({
        action: 'click',
        raw: { text: 'ORD-04711' },
        failure: failure('ORD-04711'),
        context,
        timeoutMs: 30_000,
      }),
    ).toEqual({ snapshot: true });
    const words = { nearMatches: [{ ref: 's1e3', role: 'button', name: 'Submit order', score: 70 }] };
    expect(
      await nextStep({
        action: 'click',
        raw: { text: 'Submit' },
        failure: failure('Submit'),
        context: words,
        timeoutMs: 30_000,
      }),
    ).toEqual({ click: { ref: 's1e3' } });
  });

  it('offers scrollUntilVisible only where the page can still scroll down', async () => {
    const failure = { category: 'selector-not-found' as const, details: {}, message: '' };
    const at = (y: number) => ({ scrollPosition: { x: 0, y, maxY: 900, percentY: 0 } });
    expect(await nextStep({ action: 'click', raw: '#go', failure, context: at(0), timeoutMs: 30_000 })).toEqual({
      click: { selector: '#go', scrollUntilVisible: true },
    });
    expect(await nextStep({ action: 'click', raw: '#go', failure, context: at(900), timeoutMs: 30_000 })).toEqual({
      snapshot: true,
    });
  });
});
