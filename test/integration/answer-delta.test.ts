// Answers that carry nothing twice (issue 13): `context` gives only what changed since the tab's
// previous answer (whole after openTab, connectTab and a navigation; a field that went away is
// null), `fullSnapshot` is left out while the page's full snapshot is what the file already holds,
// the interactive snapshot drops wrappers of one element and the inline view lifts list items
// around one element. The oracle is the page itself, read over this test's own CDP socket.
import { readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdpTo, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** A page expression's value read over our own socket (the CLI's answers are not consulted). */
async function pageValue(urlPart: string, expression: string, type = 'page'): Promise<any> {
  const client = await cdpTo(h.port, (t) => t.type === type && t.url.includes(urlPart), urlPart);
  try {
    return await client.value(expression);
  } finally {
    client.close();
  }
}

describe('context says what changed', () => {
  it('is whole after openTab, absent when nothing changed, and names only the changed fields after', async () => {
    const opened = await h.cli({ steps: [{ openTab: { url: `${h.baseUrl}/actions.html?delta=1`, port: h.port } }] });
    const tab = opened.out.tab;
    expect(opened.out.context).toMatchObject({
      url: `${h.baseUrl}/actions.html?delta=1`,
      title: await pageValue('delta=1', 'document.title'),
      scroll: { y: 0 },
      viewport: { width: await pageValue('delta=1', 'innerWidth') },
    });
    // A read-only call on the unchanged page: the context is the one the agent has.
    const read = await h.cli({ tab, steps: [{ query: { selector: 'h1' } }] });
    expect(read.out.status).toBe('ok');
    expect(read.out.context).toBeUndefined();
    // A scroll: the scroll field, and nothing the page did not change.
    const scrolled = await h.cli({ tab, steps: [{ scroll: { deltaY: 400 } }] });
    const y = await pageValue('delta=1', 'Math.round(scrollY)');
    expect(y).toBeGreaterThan(0);
    expect(scrolled.out.context.scroll.y).toBe(y);
    expect(scrolled.out.context.url).toBeUndefined();
    expect(scrolled.out.context.title).toBeUndefined();
    expect(scrolled.out.context.viewport).toBeUndefined();
    // Focus: the field that came is given; a later blur gives null for it.
    const filled = await h.cli({ tab, steps: [{ fill: { label: 'Full name', value: 'Ann' } }] });
    expect(await pageValue('delta=1', 'document.activeElement.id')).toBe('name');
    expect(filled.out.context.activeElement).toMatchObject({ selector: '#name', value: 'Ann' });
    const blurred = await h.cli({ tab, steps: [{ pageFunction: 'document.activeElement.blur()' }] });
    expect(await pageValue('delta=1', 'document.activeElement === document.body')).toBe(true);
    expect(blurred.out.context).toEqual({ activeElement: null });
  });

  it('gives a modal that closed as null, and the whole context after a navigation', async () => {
    const opened = await h.cli({ steps: [{ openTab: { url: `${h.baseUrl}/dialog.html?delta=2`, port: h.port } }] });
    const tab = opened.out.tab;
    const open = await h.cli({ tab, steps: [{ click: '#open-modal' }] });
    expect(await pageValue('delta=2', 'document.getElementById("modal").open')).toBe(true);
    expect(open.out.context.modal).toEqual({ title: 'Settings' });
    const closed = await h.cli({ tab, steps: [{ click: { text: 'Close' } }] });
    expect(await pageValue('delta=2', 'document.getElementById("modal").open')).toBe(false);
    expect(closed.out.context.modal).toBeNull();
    const moved = await h.cli({ tab, steps: [{ goto: `${h.baseUrl}/page2.html?delta=2` }] });
    expect(moved.out.navigated).toBe(true);
    expect(moved.out.context).toMatchObject({
      url: `${h.baseUrl}/page2.html?delta=2`,
      title: await pageValue('page2.html?delta=2', 'document.title'),
      scroll: { y: 0 },
    });
    expect(moved.out.context.viewport).toBeTruthy();
  });

  it('is whole again for connectTab', async () => {
    const tab = await h.open('basic.html?delta=3');
    expect((await h.cli({ tab, steps: [{ query: 'h1' }] })).out.context).toBeUndefined();
    const again = await h.cli({ steps: [{ connectTab: tab }] });
    expect(again.out.context).toMatchObject({
      url: `${h.baseUrl}/basic.html?delta=3`,
      title: await pageValue('basic.html?delta=3', 'document.title'),
    });
  });
});

describe('files and YAML that carry nothing new', () => {
  it('leaves fullSnapshot out while the file already holds the page, and gives it again when the page changes', async () => {
    const tab = await h.open('actions.html?delta=4');
    // The page adds a button 400 ms after load: the file compared against is written after it came
    // (under load it came after the click's answer, and the scroll's answer rightly gave the file again).
    for (let i = 0; i < 100 && !(await pageValue('delta=4', '!!document.getElementById("late")')); i++)
      await new Promise((r) => setTimeout(r, 50));
    const first = await h.cli({ tab, steps: [{ click: '#save' }] });
    const path = first.out.fullSnapshot ?? `${h.tmp}/cdp-skill/${tab}.after.yaml`;
    const written = statSync(path).mtimeMs;
    // A scroll changes the view, not the page's full snapshot.
    const scrolled = await h.cli({ tab, steps: [{ scroll: { deltaY: 300 } }] });
    expect(await pageValue('delta=4', 'scrollY')).toBeGreaterThan(0);
    expect(scrolled.out.screenshot).toBeTruthy();
    expect(scrolled.out.fullSnapshot).toBeUndefined();
    expect(statSync(path).mtimeMs).toBe(written);
    // The file still holds the page as it is: the focused Save button the page has now.
    expect(await pageValue('delta=4', 'document.activeElement.id')).toBe('save');
    expect(readFileSync(path, 'utf8')).toMatch(/button "Save" \[focused\]/);
    const filled = await h.cli({ tab, steps: [{ fill: { label: 'Full name', value: 'Zed' } }] });
    expect(await pageValue('delta=4', 'document.getElementById("name").value')).toBe('Zed');
    expect(filled.out.fullSnapshot).toBe(path);
    expect(readFileSync(path, 'utf8')).toMatch(/textbox "Full name" \[focused\] \[name=name\] \[ref=s\d+e\d+\]: "Zed"/);
  });

  it('the interactive snapshot names every button of a list without a list item around each', async () => {
    const tab = await h.open('actions.html?delta=5');
    const r = await h.cli({ tab, steps: [{ snapshot: { detail: 'interactive' } }] });
    const yaml: string = r.out.steps[0].output.yaml;
    const items: string[] = await pageValue(
      'delta=5',
      '[...document.querySelectorAll("li > button")].map((b) => b.textContent.trim())',
    );
    expect(items.length).toBeGreaterThan(10);
    for (const name of items) expect(yaml).toMatch(new RegExp(`\\n\\s+- button "${name}" \\[ref=s\\d+e\\d+\\]`));
    expect(yaml).not.toContain('listitem');
    expect(yaml).toMatch(/- list:\n/);
  });

  it('the inline view lifts a list item around one element, and the file keeps the list items', async () => {
    const opened = await h.cli({ steps: [{ openTab: { url: `${h.baseUrl}/actions.html?delta=6`, port: h.port } }] });
    const view: string = opened.out.viewportSnapshot;
    expect(view).toMatch(/- list:\n\s+- button "Item 1" \[ref=s\d+e\d+\]\n\s+- button "Item 2"/);
    expect(view).not.toContain('listitem');
    expect(readFileSync(opened.out.fullSnapshot, 'utf8')).toMatch(/- listitem:\n\s+- button "Item 1"/);
  });
});

describe('out-of-process frames', () => {
  it('tells changes inside a cross-origin frame under its frame', async () => {
    const tab = await h.open('xframes.html');
    // The payment frame is another site (localhost vs 127.0.0.1): Chrome runs it out of process.
    expect(await pageValue('xframe-pay.html', 'document.getElementById("save").checked', 'iframe')).toBe(false);
    const r = await h.cli({
      tab,
      steps: [{ frame: '#pay' }, { click: '#save' }, { click: '#pay-button' }, { frame: 'top' }],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await pageValue('xframe-pay.html', 'document.getElementById("save").checked', 'iframe')).toBe(true);
    expect(await pageValue('xframe-pay.html', 'document.getElementById("done").hidden', 'iframe')).toBe(false);
    const frameName = await pageValue('xframes.html', 'document.getElementById("pay").name');
    expect(r.out.changes.appeared).toContain(`in frame '${frameName}': status 'Payment accepted'`);
    // The checkbox has the ref the frame's snapshot handed out (frame-qualified: f1s1e7).
    const shown = readFileSync(r.out.fullSnapshot, 'utf8').match(/checkbox "Save card".*\[ref=(f\d+s\d+e\d+)\]/)?.[1];
    expect(shown).toBeDefined();
    expect(r.out.changes.changed).toContainEqual({
      ref: shown,
      field: 'checked',
      from: 'false',
      to: 'true',
    });
    expect(r.out.changes.summary).toMatch(new RegExp(`in frame '${frameName}': status: 'Payment accepted'`));
  });
});
