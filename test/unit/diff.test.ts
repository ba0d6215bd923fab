// Viewport diff: added/removed/changed, caps, focus noise, and the wording of the summary line.
import { describe, expect, it } from 'vitest';
import { actionVerb, diffViewport } from '../../src/diff/index.js';
import type { DiffEntry } from '../../src/diff/index.js';

function entry(key: string, states: DiffEntry['states'] = {}, role = 'button', name = key): DiffEntry {
  return { key, role, name, states, line: `- ${role} "${name}" [ref=${key}]` };
}
function refs(from: number, to: number): DiffEntry[] {
  return Array.from({ length: to - from + 1 }, (_, i) => entry(`s1e${from + i}`));
}

describe('diffViewport', () => {
  it('returns undefined when nothing was added, removed or changed', () => {
    const page = [entry('s1e1', { checked: 'false' }), entry('s1e2')];
    expect(diffViewport(page, page.map((e) => ({ ...e })), ['click'])).toBeUndefined();
    expect(diffViewport([], [], [])).toBeUndefined();
  });

  it('ignores role and name changes: only state fields count', () => {
    expect(diffViewport([entry('s1e1', {}, 'button', 'A')], [entry('s1e1', {}, 'link', 'B')], [])).toBeUndefined();
  });

  it('reports added, removed and changed with the spec example summary', () => {
    const before = [entry('s1e1'), entry('s1e2'), entry('s1e3', { expanded: 'false' }), entry('s1e4', { expanded: 'true' })];
    const after = [entry('s1e1'), entry('s1e3', { expanded: 'true' }), entry('s1e4', { expanded: 'false' }),
      entry('s1e5'), entry('s1e6'), entry('s1e7')];
    expect(diffViewport(before, after, ['click'])).toEqual({
      summary: 'Clicked. 3 added (s1e5, s1e6, s1e7). 1 removed (s1e2). 2 expanded/collapsed (s1e3, s1e4).',
      added: ['- button "s1e5" [ref=s1e5]', '- button "s1e6" [ref=s1e6]', '- button "s1e7" [ref=s1e7]'],
      removed: ['- button "s1e2" [ref=s1e2]'],
      changed: [
        { ref: 's1e3', field: 'expanded', from: 'false', to: 'true' },
        { ref: 's1e4', field: 'expanded', from: 'true', to: 'false' },
      ],
    });
  });

  it('records absent states as undefined and omits empty lists', () => {
    const result = diffViewport([entry('s1e9'), entry('s1e8', { value: 'a' })], [entry('s1e9', { checked: 'true' }), entry('s1e8')], ['fill']);
    expect(result).toEqual({
      summary: 'Filled. 1 checked (s1e9). 1 value changed (s1e8).',
      changed: [
        { ref: 's1e9', field: 'checked', from: undefined, to: 'true' },
        { ref: 's1e8', field: 'value', from: 'a', to: undefined },
      ],
    });
  });

  it('emits one record per differing field, in field order', () => {
    const result = diffViewport([entry('s1e1', { focused: 'true', value: 'x' })], [entry('s1e1', { value: 'y', disabled: 'true', expanded: 'true' })], []);
    expect(result?.changed?.map((c) => c.field)).toEqual(['expanded', 'disabled', 'value', 'focused']);
    expect(result?.summary).toBe('Done. 1 expanded (s1e1). 1 disabled (s1e1). 1 value changed (s1e1). focus lost (s1e1).');
  });

  it('words toggles by direction: all on, all off, or mixed', () => {
    const before = [entry('s1e1', { checked: 'true' }), entry('s1e2', { pressed: 'true' }), entry('s1e3', { disabled: 'true' }), entry('s1e4', { checked: 'false' })];
    const after = [entry('s1e1', { checked: 'false' }), entry('s1e2'), entry('s1e3'), entry('s1e4', { checked: 'mixed' })];
    expect(diffViewport(before, after, ['click'])?.summary)
      .toBe('Clicked. 2 checked/unchecked (s1e1, s1e4). 1 released (s1e2). 1 enabled (s1e3).');
    expect(diffViewport([entry('s1e1'), entry('s1e2', { selected: 'true' })], [entry('s1e1', { selected: 'true' }), entry('s1e2')], [])?.summary)
      .toBe('Done. 2 selected/deselected (s1e1, s1e2).');
  });

  it('caps each list at 10 while the summary counts everything', () => {
    const before = [...refs(1, 12), ...refs(100, 111).map((e) => ({ ...e, states: { checked: 'false' } }))];
    const after = [...refs(50, 64), ...refs(100, 111).map((e) => ({ ...e, states: { checked: 'true' } }))];
    const result = diffViewport(before, after, ['scroll'])!;
    expect(result.added).toHaveLength(10);
    expect(result.removed).toHaveLength(10);
    expect(result.changed).toHaveLength(10);
    expect(result.summary).toBe('Scrolled. 15 added (s1e50, s1e51, s1e52, s1e53, s1e54, …). '
      + '12 removed (s1e1, s1e2, s1e3, s1e4, s1e5, …). 12 checked (s1e100, s1e101, s1e102, s1e103, s1e104, …).');
  });

  it('orders added by appearance in after, removed by appearance in before', () => {
    const before = [entry('s1e9'), entry('s1e3'), entry('s1e7'), entry('s1e1')];
    const after = [entry('s1e1'), entry('s1e20'), entry('s1e12'), entry('s1e15')];
    const result = diffViewport(before, after, [])!;
    expect(result.added).toEqual(['- button "s1e20" [ref=s1e20]', '- button "s1e12" [ref=s1e12]', '- button "s1e15" [ref=s1e15]']);
    expect(result.removed).toEqual(['- button "s1e9" [ref=s1e9]', '- button "s1e3" [ref=s1e3]', '- button "s1e7" [ref=s1e7]']);
    expect(result.summary).toBe('Done. 3 added (s1e20, s1e12, s1e15). 3 removed (s1e9, s1e3, s1e7).');
  });

  it('orders changed records by appearance in after', () => {
    const before = [entry('s1e1', { checked: 'false' }), entry('s1e2', { checked: 'false' })];
    const after = [entry('s1e2', { checked: 'true' }), entry('s1e1', { checked: 'true' })];
    expect(diffViewport(before, after, [])?.changed?.map((c) => c.ref)).toEqual(['s1e2', 's1e1']);
  });
});

describe('focus changes', () => {
  it('reports only the element that gained focus when focus moved', () => {
    const result = diffViewport([entry('s1e1', { focused: 'true' }), entry('s1e2')], [entry('s1e1'), entry('s1e2', { focused: 'true' })], ['press']);
    expect(result).toEqual({
      summary: 'Pressed. focus moved (s1e2).',
      changed: [{ ref: 's1e2', field: 'focused', from: undefined, to: 'true' }],
    });
  });

  it('drops the focus loss when focus landed on a newly added element', () => {
    const result = diffViewport([entry('s1e1', { focused: 'true' })], [entry('s1e1'), entry('s1e5', { focused: 'true' })], ['click']);
    expect(result).toEqual({ summary: 'Clicked. 1 added (s1e5).', added: ['- button "s1e5" [ref=s1e5]'] });
  });

  it('keeps a focus loss when nothing else gained focus', () => {
    const result = diffViewport([entry('s1e1', { focused: 'true' })], [entry('s1e1')], ['press']);
    expect(result).toEqual({
      summary: 'Pressed. focus lost (s1e1).',
      changed: [{ ref: 's1e1', field: 'focused', from: 'true', to: undefined }],
    });
  });
});

describe('live regions', () => {
  const status = (text: string | undefined, key = 'status#0') => entry(key, text === undefined ? {} : { text }, 'status', '');

  it('quotes the new text of a live region', () => {
    const result = diffViewport([entry('s1e1'), status('Saving…')], [entry('s1e1'), status('Saved')], ['click']);
    expect(result).toEqual({
      summary: 'Clicked. status: "Saved".',
      changed: [{ ref: 'status#0', field: 'text', from: 'Saving…', to: 'Saved' }],
    });
  });

  it('quotes a live region that appeared, and counts it as added', () => {
    const result = diffViewport([entry('s1e1')], [entry('s1e1'), entry('alert#0', { text: 'Card declined' }, 'alert', '')], ['submit']);
    expect(result?.summary).toBe('Submitted. 1 added (alert#0). alert: "Card declined".');
  });

  it('recognises a ref-bearing element with a live role', () => {
    const result = diffViewport([entry('s1e4', { text: 'a' }, 'alert')], [entry('s1e4', { text: 'Oops' }, 'alert')], []);
    expect(result?.summary).toBe('Done. alert: "Oops".');
  });

  it('counts text changes of ordinary elements without quoting them', () => {
    const result = diffViewport([entry('s1e3', { text: 'a' })], [entry('s1e3', { text: 'b' })], []);
    expect(result?.summary).toBe('Done. 1 text changed (s1e3).');
  });

  it('collapses whitespace and caps the quote at 80 characters with an ellipsis', () => {
    const long = `Saved  \n ${'x'.repeat(200)}`;
    const summary = diffViewport([status('')], [status(long)], [])!.summary;
    const quoted = JSON.parse(summary.slice('Done. status: '.length, -1)) as string;
    expect(Array.from(quoted)).toHaveLength(80);
    expect(quoted).toBe(`Saved ${'x'.repeat(73)}…`);
  });

  it('leaves text of exactly 80 characters whole', () => {
    const text = 'y'.repeat(80);
    expect(diffViewport([status('')], [status(text)], [])?.summary).toBe(`Done. status: "${text}".`);
  });

  it('tells two regions of the same role apart by key', () => {
    const result = diffViewport([status('a', 'status#0'), status('b', 'status#1')], [status('A', 'status#0'), status('B', 'status#1')], []);
    expect(result?.summary).toBe('Done. status#0: "A". status#1: "B".');
  });
});

describe('action verb', () => {
  it('uses the last acting step, skipping observation and supporting steps', () => {
    expect(actionVerb(['click', 'fill', 'snapshot', 'query'])).toBe('Filled');
    expect(actionVerb(['goto', 'wait'])).toBe('Navigated');
    expect(actionVerb(['click', 'click', 'pageFunction', 'screenshot'])).toBe('Clicked');
    expect(actionVerb(['wait'])).toBe('Waited');
    expect(actionVerb(['selectOption'])).toBe('Selected');
    expect(actionVerb(['back'])).toBe('Went back');
    expect(actionVerb(['pageFunction', 'extract'])).toBe('Ran script');
    expect(actionVerb(['viewport'])).toBe('Resized');
  });

  it('falls back to "Done"', () => {
    expect(actionVerb([])).toBe('Done');
    expect(actionVerb(['snapshot', 'toString', 'constructor'])).toBe('Done');
  });

  it('prefixes the summary', () => {
    const before = [entry('s1e1')];
    const after = [entry('s1e1'), entry('s1e2')];
    expect(diffViewport(before, after, ['hover', 'drag'])?.summary).toBe('Dragged. 1 added (s1e2).');
    expect(diffViewport(before, after, ['type', 'press', 'getDom'])?.summary).toBe('Pressed. 1 added (s1e2).');
    expect(diffViewport(before, after, ['reload'])?.summary).toBe('Reloaded. 1 added (s1e2).');
  });
});
