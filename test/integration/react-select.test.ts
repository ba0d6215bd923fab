// react-select (the real library, bundled by the fixture server) as the issue-13 agents met it: its
// live region's "N results available…" chatter is told once, not in summary, transient and changed
// over again; choosing an option tells the value change and the app's own message, checked against
// the app's state read over this test's own CDP socket.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cdpTo, startHarness, type Harness } from './harness.js';

let h: Harness;
let tab: string;
beforeAll(async () => {
  h = await startHarness();
  tab = await h.open('react-select.html');
});
afterAll(async () => {
  await h?.close();
});

async function appValue(expression: string): Promise<any> {
  const client = await cdpTo(h.port, (t) => t.type === 'page' && t.url.includes('react-select.html'));
  try {
    return await client.value(expression);
  } finally {
    client.close();
  }
}

const count = (text: string, part: string): number => text.split(part).length - 1;

it('tells the live region once while typing, and the menu that opened', async () => {
  expect(await appValue('document.querySelectorAll("#dest-input").length')).toBe(1);
  const r = await h.cli({ tab, steps: [{ click: '#dest-input' }, { type: 'zea' }] });
  expect(r.out.status, r.stdout).toBe('ok');
  // The app shows one option for "zea", and its live region said how many results there are.
  const shown: string[] = await appValue(
    '[...document.querySelectorAll("[id^=react-select][id*=option]")].map((o) => o.textContent)',
  );
  expect(shown).toEqual(['New Zealand']);
  const live: string = await appValue('document.querySelector("[aria-live]")?.textContent ?? ""');
  expect(live).toMatch(/1 result available/);
  const changes = JSON.stringify(r.out.changes);
  expect(count(changes, 'result available') + count(changes, 'results available')).toBeLessThanOrEqual(1);
  expect(changes).toMatch(/New Zealand/); // the option that appeared
  expect(r.out.changes.summary).not.toBe('No visible change.');
});

it('tells the chosen value and the app message, as the app has them', async () => {
  const r = await h.cli({ tab, steps: [{ press: 'Enter' }] });
  expect(r.out.status, r.stdout).toBe('ok');
  expect(await appValue('window.__destination')).toBe('New Zealand');
  expect(await appValue('document.getElementById("chosen").textContent')).toBe('Selected: New Zealand');
  const c = r.out.changes;
  expect(c.text, JSON.stringify(c)).toContain("paragraph: 'No destination selected' → 'Selected: New Zealand'");
  // Every text line is true of the page now: its new text is on the page.
  const body: string = await appValue('document.body.innerText');
  for (const line of c.text as string[]) {
    const to = /→ '(.*)'$/.exec(line)?.[1];
    if (to) expect(body, line).toContain(to.replace(/…$/, ''));
  }
  const all = JSON.stringify(c);
  expect(count(all, 'results available')).toBe(0); // the menu's chatter is not news of the choice
  // The menu and its option left the page; the value shown is another element, not the option
  // "turned into text": no role change is told for it.
  expect(await appValue('document.querySelectorAll("[role=listbox], [role=option]").length')).toBe(0);
  expect(await appValue('document.querySelector("[class*=singleValue]")?.textContent')).toBe('New Zealand');
  expect(
    (c.changed ?? []).filter((x: { field: string }) => x.field === 'role'),
    all,
  ).toEqual([]);
  expect(all).toMatch(/(option|listbox) 'New Zealand'[^"]*gone|"gone":\[[^\]]*New Zealand/);
});
