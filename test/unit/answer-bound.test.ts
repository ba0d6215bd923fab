// Issue 15 item 7: one answer's ceiling and the dialog list's cap (runner/answer-bound.ts).
import { describe, expect, it } from 'vitest';
import { boundAnswer, MAX_ANSWER_BYTES, summarizeDialogs } from '../../src/runner/answer-bound.js';

describe('boundAnswer', () => {
  it('leaves an answer under the ceiling as it is (the same object)', () => {
    const answer = { status: 'ok', steps: [{ output: 'x'.repeat(1000) }] };
    expect(boundAnswer(answer)).toBe(answer);
  });

  it('cuts long strings and lists until the answer fits, marks each cut and says so first', () => {
    const answer = {
      status: 'ok',
      context: { title: 'short' },
      steps: [
        { output: 'y'.repeat(1_000_000) },
        { output: Array.from({ length: 5000 }, (_, i) => `item ${i} ${'z'.repeat(100)}`) },
      ],
    };
    const out = boundAnswer(answer) as any;
    expect(Buffer.byteLength(JSON.stringify(out))).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
    expect(Object.keys(out).slice(0, 2)).toEqual(['status', 'cut']);
    expect(out.cut).toMatch(
      /^This answer was \d+ bytes, over the 262144-byte ceiling: 1 strings cut to 32768 characters and 1 lists to 500 items/,
    );
    expect(out.context).toEqual({ title: 'short' });
    expect(out.steps[0].output).toBe(`${'y'.repeat(32_768)}…[cut: ${1_000_000 - 32_768} more characters]`);
    expect(out.steps[1].output.length).toBe(501);
    expect(out.steps[1].output[500]).toBe('…[cut: 4500 more items]');
  });

  it('keeps at least the status when nothing else can be made to fit (huge keys)', () => {
    const keys = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`${'k'.repeat(200)}${i}`, 1]));
    expect(boundAnswer({ status: 'error', steps: [{ output: keys }] })).toMatchObject({
      status: 'error',
      cut: expect.stringMatching(/could not be cut/),
    });
  });
});

describe('summarizeDialogs', () => {
  const d = (message: string, step = 1) => ({ type: 'alert', message, action: 'accepted', step });
  it('folds a run of one dialog into one entry with times, keeps distinct ones in order', () => {
    expect(summarizeDialogs([d('a'), d('a'), d('a'), d('b'), d('a')])).toEqual([
      { ...d('a'), times: 3 },
      d('b'),
      d('a'),
    ]);
  });
  it('lists 20 entries, then counts the rest', () => {
    const list = Array.from({ length: 25 }, (_, i) => d(`m${i}`));
    const out = summarizeDialogs(list)!;
    expect(out.length).toBe(21);
    expect(out[20]).toBe('…[cut: 5 more dialogs; 25 in all]');
  });
  it('gives nothing for no dialogs', () => {
    expect(summarizeDialogs([])).toBeUndefined();
  });
});
