// What `changes` says after the actions agents saw misreported (issue 13): text outside refs, a
// heading after a route change, content without a role, a re-sorted and a re-rendered table, a
// second status region, a dialog that closes before the row it saved appears, a button pushed
// below the fold, and a SortableJS drag. Each checks the page's own state as well.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const click = async (tab: string, id: string) => (await h.cli({ tab, steps: [{ click: `#${id}` }] })).out;

it('tells text changes outside refs, a route change heading and role-less content that appeared', async () => {
  const tab = await h.open('observe-cases.html');
  expect((await click(tab, 'louder')).changes).toEqual({
    summary: "Clicked. paragraph now 'Volume: 65'.",
    text: ["paragraph: 'Volume: 20' \u2192 'Volume: 65'"],
  });
  expect((await click(tab, 'pick')).changes.text).toEqual([
    "paragraph: 'No destination selected' \u2192 'Selected: New Zealand'",
  ]);
  const route = await click(tab, 'to-billing');
  expect(route.navigated).toBe(true);
  expect(route.changes.text).toEqual(["heading: 'Overview' \u2192 'Billing'"]);
  const json = await click(tab, 'submit-json');
  expect(json.changes.appeared).toEqual([`'${await h.value(tab, 'document.querySelector(".result").textContent')}'`]);
});

it('reports no false change when a status region is inserted before another', async () => {
  const tab = await h.open('observe-cases.html');
  const r = await click(tab, 'add-status');
  expect(await h.value(tab, 'document.querySelectorAll("[role=status]").length')).toBe(2);
  expect(r.changes).toEqual({ summary: 'No visible change.' });
});

it('sums up a sorted table and names the row a re-render removed', async () => {
  const tab = await h.open('observe-cases.html');
  const sorted = await click(tab, 'sort');
  expect(sorted.changes.rows).toEqual(["table 'Projects': rows 5 \u2192 5, first row now 'Apollo Bo Li'"]);
  const deleted = await click(tab, 'delete-apollo');
  expect(await h.value(tab, 'document.getElementById("projects").rows.length')).toBe(4);
  expect(deleted.changes.summary).toBe(
    "Clicked. status: 'Project deleted'; table 'Projects': rows 5 \u2192 4, first row now 'Boreas Ed Fa'; row 'Apollo Bo Li' gone.",
  );
  expect(deleted.changes.gone).toEqual(["row 'Apollo Bo Li' (+2 inside)"]);
  expect(deleted.changes.appeared).toBeUndefined(); // the re-rendered rows that read the same are not news
});

it('waits for a closing dialog and the row its request adds, in the same call', async () => {
  const tab = await h.open('observe-cases.html');
  expect((await click(tab, 'edit')).changes.appeared).toEqual(["dialog 'Edit project Save' (+2 inside)"]);
  const saved = await click(tab, 'save');
  expect(await h.value(tab, 'window.__events')).toEqual(['saved']);
  expect(saved.changes.gone).toEqual(["dialog 'Edit project Save' (+2 inside)"]);
  expect(saved.changes.appeared).toEqual(["row 'Vesta Fi Go' (+2 inside)"]);
});

it('says a button pushed below the fold left the view, never that it was removed', async () => {
  const tab = await h.open('observe-cases.html');
  await click(tab, 'submit-json');
  const r = await click(tab, 'push-down');
  expect(await h.value(tab, 'document.getElementById("fade-out").isConnected')).toBe(true);
  expect(r.changes.leftView).toEqual(
    expect.arrayContaining([expect.stringMatching(/^button 'Fade me out' \[ref=s\d+e\d+\]$/)]),
  );
  expect(r.changes.gone).toBeUndefined();
});

it('reports a SortableJS drag as a move', async () => {
  const tab = await h.open('drag-sortable.html');
  const r = await h.cli({
    tab,
    steps: [{ drag: { source: '#fallback li:nth-child(1)', target: '#fallback li:nth-child(3)' } }],
  });
  expect(await h.value(tab, '[...document.querySelectorAll("#fallback li")].map((li) => li.textContent).join()')).toBe(
    'B2,B3,B1,B4',
  );
  expect(r.out.changes).toEqual({
    summary: "Dragged. listitem 'B1' from 1st to 3rd.",
    moved: ["listitem 'B1' from 1st to 3rd"],
  });
});

it('a failed click never opens the summary with "Clicked.": what changed meanwhile is told after the error', async () => {
  const tab = await h.open('observe-cases.html');
  const r = await h.cli({
    tab,
    steps: [
      {
        pageFunction:
          "(setTimeout(() => { document.querySelector('#louder').closest('body').querySelector('p').textContent = 'Volume: 99' }, 50), 1)",
      },
      { click: { selector: '#no-such-button', timeout: 600 } },
    ],
  });
  expect(r.out.status, r.stdout).toBe('error');
  expect(await h.value(tab, "document.querySelector('p').textContent")).toBe('Volume: 99');
  expect(r.out.changes.summary, r.stdout).toMatch(/^After the error\. .*Volume: 99/);
  // An acting step that did succeed still names the command.
  const ok = await h.cli({
    tab,
    stopOnError: false,
    steps: [{ click: '#louder' }, { click: { selector: '#no-such-button', timeout: 300 } }],
  });
  expect(ok.out.changes.summary, ok.stdout).toMatch(/^Clicked\. /);
});
