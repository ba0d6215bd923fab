// `changes` from the page's view diff: salience first, capped lists with counts, live messages
// once, the one-line summary, and "No visible change." (issue 13).
import { describe, expect, it } from 'vitest';
import { actionVerb, line, tellChanges } from '../../src/diff/index.js';
import type { ObservedChange, ObservedDiff } from '../../src/diff/index.js';
import { allSteps, getStep } from '../../src/steps/index.js';
import { stepVerbs } from '../../src/runner/validate.js';

function diff(changes: ObservedChange[]): ObservedDiff {
  const counts: ObservedDiff['counts'] = {};
  for (const c of changes) counts[c.kind] = (counts[c.kind] ?? 0) + 1;
  return { changes, counts, unchanged: [] };
}
/** The verbs the runner passes for a command of these steps (read from the step definitions). */
const verbs = (steps: string[]) => stepVerbs(steps.flatMap((n) => getStep(n) ?? []));
const tell = (changes: ObservedChange[], live: string[] = [], actions = verbs(['click'])) =>
  tellChanges({ diff: diff(changes), actions, live, shownNow: '' });

describe('tellChanges', () => {
  it('says so when nothing visible changed', () => {
    expect(tell([])).toEqual({ summary: 'No visible change.' });
  });

  it('names the biggest change first: a status message before a row that went', () => {
    const c = tell([
      { kind: 'gone', role: 'row', label: 'Apollo 34 Paris' },
      { kind: 'text', role: 'status', label: '', from: '', to: 'Project deleted', live: 1 },
    ]);
    expect(c.summary).toBe("Clicked. status: 'Project deleted'; row 'Apollo 34 Paris' gone.");
    expect(c.gone).toEqual(["row 'Apollo 34 Paris'"]);
    expect(c.text).toEqual(["status: '' \u2192 'Project deleted'"]);
  });

  it('words text, moves, table rows and states', () => {
    expect(line({ kind: 'text', role: 'heading', label: 'Billing', from: 'Overview', to: 'Billing' })).toBe(
      "heading: 'Overview' \u2192 'Billing'",
    );
    expect(line({ kind: 'text', role: 'text', label: 'Volume: 65', from: 'Volume: 20', to: 'Volume: 65' })).toBe(
      "text: 'Volume: 20' \u2192 'Volume: 65'",
    );
    expect(line({ kind: 'moved', role: 'listitem', label: 'Write release notes', from: '3', to: '1' })).toBe(
      "listitem 'Write release notes' from 3rd to 1st",
    );
    expect(line({ kind: 'rows', role: 'table', label: 'People', from: '10', to: '3', first: 'Uma Jensen 41' })).toBe(
      "table 'People': rows 10 \u2192 3, first row now 'Uma Jensen 41'",
    );
    expect(line({ kind: 'appeared', role: 'dialog', label: 'Edit', inside: 6, frame: 'Editor' })).toBe(
      "in frame 'Editor': dialog 'Edit' (+6 inside)",
    );
    const c = tell([
      { kind: 'state', role: 'checkbox', label: 'Agree', ref: 's1e4', field: 'checked', from: 'false', to: 'true' },
    ]);
    expect(c).toEqual({
      summary: "Clicked. checkbox 'Agree' [ref=s1e4] checked.",
      changed: [{ ref: 's1e4', field: 'checked', from: 'false', to: 'true' }],
    });
  });

  it('caps the lists and counts the rest; scrolling is counted, with a few names', () => {
    const many = Array.from(
      { length: 30 },
      (_, i): ObservedChange => ({ kind: 'appeared', role: 'button', label: `B${i}` }),
    );
    const scrolled = Array.from(
      { length: 20 },
      (_, i): ObservedChange => ({ kind: i % 2 ? 'leftView' : 'enteredView', role: 'link', label: `L${i}` }),
    );
    const c = tell([...scrolled, ...many], [], verbs(['scroll']));
    expect(c.appeared).toHaveLength(12);
    expect(c.more).toEqual({ appeared: 18, enteredView: 10, leftView: 10 });
    expect(c.summary).toBe(
      "Scrolled. button 'B0' appeared; button 'B1' appeared; button 'B2' appeared; 10 entered view, 10 left view; +27 more.",
    );
  });

  it('tells a live message once: not again as briefly shown', () => {
    const c = tell(
      [{ kind: 'text', role: 'status', label: '', from: '', to: '3 results available', live: 1 }],
      ['3 results available', 'Saved'],
    );
    expect(c.transient).toEqual(['Saved']);
    expect(c.summary).toBe("Clicked. status: '3 results available'. Briefly shown: 'Saved'.");
  });

  it('names focus only when nothing else changed', () => {
    const focus: ObservedChange = {
      kind: 'state',
      role: 'button',
      label: 'Go',
      ref: 's1e2',
      field: 'focused',
      to: 'true',
    };
    expect(tell([focus]).summary).toBe("Clicked. button 'Go' [ref=s1e2] focused.");
    expect(tell([focus, { kind: 'text', role: 'text', label: 'x', from: 'a', to: 'b' }]).summary).toBe(
      "Clicked. text now 'b'.",
    );
  });

  it('never puts a field value in a gone line', () => {
    expect(line({ kind: 'gone', role: 'textbox', label: 'Card number', ref: 's1e9' })).toBe(
      "textbox 'Card number' [ref=s1e9]",
    );
  });
});

describe('action verb', () => {
  it('uses the last acting step, skipping observation and supporting steps', () => {
    expect(actionVerb(verbs(['click', 'fill', 'snapshot', 'query']))).toBe('Filled');
    expect(actionVerb(verbs(['goto', 'wait']))).toBe('Navigated');
    expect(actionVerb(verbs(['click', 'click', 'pageFunction', 'screenshot']))).toBe('Clicked');
    expect(actionVerb(verbs(['wait']))).toBe('Waited');
    expect(actionVerb(verbs(['selectOption']))).toBe('Selected');
    expect(actionVerb(verbs(['back']))).toBe('Went back');
    expect(actionVerb(verbs(['pageFunction', 'extract']))).toBe('Ran script');
    expect(actionVerb(verbs(['viewport']))).toBe('Resized');
  });

  it('falls back to "Done"', () => {
    expect(actionVerb(verbs([]))).toBe('Done');
    expect(actionVerb(verbs(['snapshot', 'toString', 'constructor']))).toBe('Done');
  });

  it('takes its words from the step definitions: the acting steps and the supporting ones', () => {
    const words = Object.fromEntries(allSteps().flatMap((d) => (d.verb ? [[d.name, d.verb]] : [])));
    expect(words).toEqual({
      click: 'Clicked',
      fill: 'Filled',
      type: 'Typed',
      press: 'Pressed',
      caret: 'Placed the caret',
      hover: 'Hovered',
      drag: 'Dragged',
      scroll: 'Scrolled',
      selectOption: 'Selected',
      choose: 'Chose',
      goto: 'Navigated',
      reload: 'Reloaded',
      back: 'Went back',
      forward: 'Went forward',
      wait: 'Waited',
      poll: 'Waited',
      pageFunction: 'Ran script',
      pipeline: 'Ran script',
      viewport: 'Resized',
      emulate: 'Emulated',
      upload: 'Uploaded',
      submit: 'Submitted',
    });
    const supporting = allSteps()
      .filter((d) => d.supporting)
      .map((d) => d.name);
    expect(supporting.sort()).toEqual(['emulate', 'pageFunction', 'pipeline', 'poll', 'viewport', 'wait']);
  });
});
