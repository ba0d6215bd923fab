// Issue 22 item 9: a kanban card dragged to another column is told as the card's move, not only
// as the two headings' counts. kanban.html runs SortableJS (a real drag library); its onEnd events
// (__moves) and the DOM's column of the card are the oracle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('a kanban card moved to another column', () => {
  it('is told as a move into that column', async () => {
    const tab = await h.open('kanban.html');
    const r = await h.cli({
      tab,
      steps: [{ drag: { source: { text: 'Fix login timeout' }, target: { text: 'Set up CI' } } }],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    const moves = await h.value(tab, '__moves');
    expect(moves, r.stdout).toHaveLength(1);
    expect(moves[0]).toMatchObject({ card: 'Fix login timeout', from: 'todo', to: 'done' });
    expect(await h.value(tab, 'document.querySelector("#done").textContent')).toContain('Fix login timeout');
    const told = JSON.stringify(r.out.changes);
    expect(told, told).toMatch(/Fix login timeout'?[^"]* moved out of 'To do \(2\)' into 'Done \(3\)'/);
    expect(r.out.changes.summary).toContain("'Fix login timeout' moved out of 'To do (2)' into 'Done (3)'");
  });
});
