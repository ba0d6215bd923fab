// Issue 22 items 3, 4 and 5 on the real libraries. Radix DropdownMenu opens on pointerdown: the click
// answers ok with what followed, never "nothing followed" beside changes that say the menu appeared.
// Lexical's checklist: a click ticks the item where its drawn box is and says `checked`, a click that
// left it unchanged is an error, and turning paragraphs into checklist items or ticking one is a
// change. antd's Tabs and Switch: the click says `selected`/`checked` after, and a switch the app
// keeps off is an error. Oracles: the apps' own state (Radix's open count and picked item; Lexical's
// editor state, editor.getEditorState(); antd's app state), Chrome's accessibility tree and the DOM,
// read over the test's own socket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdpToPage, startHarness, type CdpClient, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** Chrome's accessibility nodes (its own tree): role, name and checked state. */
async function axNodes(page: CdpClient, role: string): Promise<{ name: string; checked?: string }[]> {
  const { nodes } = await page.send('Accessibility.getFullAXTree');
  return nodes
    .filter((n: any) => n.role?.value === role && !n.ignored)
    .map((n: any) => {
      const checked = n.properties?.find((p: any) => p.name === 'checked')?.value?.value;
      return { name: String(n.name?.value ?? ''), ...(checked !== undefined ? { checked: String(checked) } : {}) };
    });
}

/** An answer never contradicts itself: a step that says nothing followed sits beside changes that say so too. */
function expectNoContradiction(out: Record<string, any>): void {
  for (const s of out.steps ?? [])
    if (s.category === 'no-effect' && /nothing followed/.test(s.error ?? ''))
      expect(out.changes?.summary, JSON.stringify(out)).toMatch(/^(No visible change|Nothing changed on the page)\.$/);
}

describe('Radix DropdownMenu: a press that opens the menu is the click (issue 22 item 3)', () => {
  let tab: string;
  let page: CdpClient;
  beforeAll(async () => {
    tab = await h.open('radix-menu.html');
    page = await cdpToPage(h.port, `${h.baseUrl}/radix-menu.html`);
  });
  afterAll(() => page?.close());

  it('answers ok with what the press did, once, and changes agree', async () => {
    const r = await h.cli({ tab, steps: [{ click: { text: 'File actions' } }] });
    expectNoContradiction(r.out);
    expect(r.out.status, r.stdout).toBe('ok');
    const step = r.out.steps[0];
    expect(step.output.method).toBe('cdp');
    expect(step.output.fallback).toBeUndefined();
    expect(step.output.effect).toMatch(/acted on the press/);
    expect(step.output.expanded).toBe(true);
    expect(JSON.stringify(r.out.changes)).toMatch(/menu 'Open Rename… Pinned Delete' appeared/);
    // The app opened its menu exactly once (no untrusted click after the press), and it is open.
    expect(await page.value('window.__opened')).toBe(1);
    expect(await page.value("document.querySelector('#file-actions').getAttribute('aria-expanded')")).toBe('true');
    expect((await axNodes(page, 'menuitem')).map((n) => n.name)).toEqual(['Open', 'Rename…', 'Delete']);
  });

  it('then picks an item of the open menu', async () => {
    const r = await h.cli({ tab, steps: [{ click: { text: 'Rename…' } }] });
    expectNoContradiction(r.out);
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await page.value('window.__picked')).toBe('Rename');
    expect(await axNodes(page, 'menuitem')).toEqual([]);
  });
});

describe('Lexical checklist: the click ticks where the box is drawn (issue 22 items 4 and 5)', () => {
  let tab: string;
  let page: CdpClient;
  const model = (): Promise<any> => page.value('window.lexicalModel()');
  beforeAll(async () => {
    tab = await h.open('lexical-checklist.html');
    page = await cdpToPage(h.port, `${h.baseUrl}/lexical-checklist.html`);
  });
  afterAll(() => page?.close());

  it('tells paragraphs that became checklist items as a change', async () => {
    const r = await h.cli({ tab, steps: [{ click: { text: 'Check list' } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    // The library's model and Chrome's tree: three unchecked checklist items.
    expect(await model()).toEqual([
      {
        type: 'list',
        listType: 'check',
        items: [
          { text: 'Buy milk', checked: false },
          { text: 'Call the plumber', checked: false },
          { text: 'Water the plants', checked: false },
        ],
      },
    ]);
    expect((await axNodes(page, 'checkbox')).map((n) => n.name)).toEqual([
      'Buy milk',
      'Call the plumber',
      'Water the plants',
    ]);
    const roles = (r.out.changes.changed ?? []).filter((c: any) => c.field === 'role');
    expect(roles.map((c: any) => [c.from, c.to])).toEqual([
      ['paragraph', 'checkbox'],
      ['paragraph', 'checkbox'],
      ['paragraph', 'checkbox'],
    ]);
    expect(r.out.changes.summary).toMatch(/checkbox 'Buy milk' \[ref=\w+\] \(was paragraph\)/);
  });

  it('ticks an item at its drawn box, says checked, and tells the tick and the strike-through', async () => {
    const r = await h.cli({ tab, steps: [{ click: { text: 'Buy milk' } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output.checked).toBe(true);
    expect((await model())[0].items[0]).toEqual({ text: 'Buy milk', checked: true });
    expect((await axNodes(page, 'checkbox'))[0]).toEqual({ name: 'Buy milk', checked: 'true' });
    // DOM truth: the item is drawn struck through now.
    expect(
      await page.value("getComputedStyle(document.querySelector('li[aria-checked=true]')).textDecorationLine"),
    ).toBe('line-through');
    const fields = (r.out.changes.changed ?? []).map((c: any) => `${c.field}:${c.from}->${c.to}`);
    expect(fields).toEqual(expect.arrayContaining(['checked:false->true', 'struck:false->true']));
    expect(r.out.changes.summary).not.toMatch(/No visible change/);
  });

  it('unticks it again, and says so', async () => {
    const r = await h.cli({ tab, steps: [{ click: { text: 'Buy milk' } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output.checked).toBe(false);
    expect((await model())[0].items[0].checked).toBe(false);
  });

  it('fails a click that left the item unchecked (a locked editor), saying where it clicked', async () => {
    const lock = await h.cli({ tab, steps: [{ click: { text: 'Lock' } }] });
    expect(lock.out.status).toBe('ok');
    const r = await h.cli({ tab, steps: [{ click: { text: 'Call the plumber' } }] });
    expect(r.out.status).toBe('error');
    const step = r.out.steps[0];
    expect(step.category).toBe('no-effect');
    expect(step.error).toMatch(
      /checkbox "Call the plumber" is still unchecked after the click: a trusted click at \(\d+, \d+\), its drawn box/,
    );
    expect((await model())[0].items[1]).toEqual({ text: 'Call the plumber', checked: false });
    expect((await axNodes(page, 'checkbox'))[1]).toEqual({ name: 'Call the plumber', checked: 'false' });
  });
});

describe('antd Tabs and Switch: a click says the state after, and a switch left off is no ok (issue 22 item 4)', () => {
  let tab: string;
  let page: CdpClient;
  const state = async (role: string, name: string): Promise<string | undefined> => {
    const { nodes } = await page.send('Accessibility.getFullAXTree');
    const n = nodes.find((x: any) => x.role?.value === role && x.name?.value === name && !x.ignored);
    const prop = n?.properties?.find((p: any) => p.name === (role === 'tab' ? 'selected' : 'checked'));
    return prop === undefined ? undefined : String(prop.value.value);
  };
  beforeAll(async () => {
    tab = await h.open('antd-toggles.html');
    page = await cdpToPage(h.port, `${h.baseUrl}/antd-toggles.html`);
  });
  afterAll(() => page?.close());

  it('selects a tab and says selected', async () => {
    const r = await h.cli({ tab, steps: [{ click: { text: 'Billing' } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output.selected).toBe(true);
    expect(await page.value('window.__tab')).toBe('billing');
    expect(await state('tab', 'Billing')).toBe('true');
  });

  it('turns a switch on and says checked', async () => {
    const r = await h.cli({ tab, steps: [{ click: '[aria-labelledby=alerts-label]' }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output.checked).toBe(true);
    expect(await page.value('window.__alerts')).toBe(true);
    expect(await state('switch', 'Email alerts')).toBe('true');
  });

  it('fails the click on a switch the app keeps off, once', async () => {
    const r = await h.cli({ tab, steps: [{ click: '[aria-labelledby=audit-label]' }] });
    expect(r.out.status).toBe('error');
    expect(r.out.steps[0].category, r.stdout).toBe('no-effect');
    expect(r.out.steps[0].error).toMatch(/switch "Audit log" is still unchecked after the click/);
    // The app got the one trusted click (never a second through element.click()) and kept it off.
    expect(await page.value('window.__auditClicks')).toBe(1);
    expect(await state('switch', 'Audit log')).toBe('false');
  });
});
