// Issue 22 items 8 and 11: answers that are true about what agents met on developer-workflow tasks
// (agent-tasks.html). A role=form container is a form; a failure behind an open alertdialog lists the
// dialog's own buttons; names are cut between words, never inside a value; a whole-page snapshot is
// sent once; `wait {selector, text}` waits for that element showing that text; aria-modal alone is
// not modal. Oracles: the DOM read by the test, Chrome's own accessibility tree over the test's CDP
// socket, and what the page's hit testing says is on top — never our answer read back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdpToPage, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('formState on a role=form container', () => {
  it('reads the fields of form "Workspace settings", as the DOM holds them', async () => {
    const tab = await h.open('agent-tasks.html');
    expect(await h.value(tab, 'document.forms.length')).toBe(0);
    const r = await h.cli({ tab, steps: [{ formState: true }] });
    expect(r.out.status, r.stdout).toBe('ok');
    const out = r.out.steps[0].output;
    expect(out.form).toContain('form "Workspace settings"');
    const truth = await h.value(
      tab,
      '[...document.querySelectorAll("#settings input, #settings select")].map((e) => e.type === "checkbox" ? e.checked : e.value)',
    );
    expect(out.fieldCount).toBe(truth.length);
    expect(JSON.stringify(out.fields)).toContain(truth[0]);
    expect(JSON.stringify(out.fields)).toContain(truth[1]);
  });
});

describe('a failure behind an open alertdialog', () => {
  it("lists the dialog's own buttons, not the page's behind its backdrop", async () => {
    const tab = await h.open('agent-tasks.html');
    const open = await h.cli({ tab, steps: [{ click: '#delete' }] });
    expect(open.out.status, open.stdout).toBe('ok');
    expect(open.out.context?.modal, open.stdout).toEqual({ title: 'Delete workspace?' });
    // DOM truth: the backdrop takes a click on the page's Publish button; the dialog's buttons are on top.
    const onTop = await h.value(
      tab,
      '(() => { const b = document.getElementById("publish").getBoundingClientRect(); return document.elementFromPoint(b.x + 5, b.y + 5).id; })()',
    );
    expect(onTop).toBe('backdrop');
    const dialogButtons = await h.value(
      tab,
      '[...document.querySelectorAll("#confirm button")].map((b) => b.textContent)',
    );
    const r = await h.cli({ tab, steps: [{ click: { text: 'Remove for good' }, timeout: 1500 }] });
    expect(r.out.status).toBe('error');
    const names = r.out.steps[0].context.visibleButtons.map((b: { name: string }) => b.name);
    expect(names.slice().sort()).toEqual(dialogButtons.slice().sort());
  });
});

describe('names cut between words', () => {
  it('a long row name is a word-boundary prefix of the name Chrome computes', async () => {
    const tab = await h.open('agent-tasks.html');
    const r = await h.cli({ tab, steps: [{ snapshot: true }] });
    expect(r.out.status, r.stdout).toBe('ok');
    const line = (r.out.steps[0].output.yaml as string).split('\n').find((l) => l.includes('Order #40211'));
    const ours = /"(Order #40211[^"]*)"/.exec(line ?? '')?.[1];
    expect(ours, line).toBeDefined();
    const url = `${h.baseUrl}/agent-tasks.html`;
    const client = await cdpToPage(h.port, url);
    try {
      const { nodes } = await client.send('Accessibility.getFullAXTree', {});
      const full = nodes
        .map((n: { name?: { value?: string } }) => n.name?.value ?? '')
        .find((n: string) => n.startsWith('Order #40211') && n.length > 100);
      expect(full).toBeDefined();
      expect(ours!.endsWith(' …')).toBe(true);
      const kept = ours!.slice(0, -2);
      expect(full.startsWith(kept)).toBe(true);
      // Cut where a word ends: the next character of the whole name is a space (no "$1,…").
      expect(full[kept.length]).toBe(' ');
    } finally {
      client.close();
    }
  });
});

describe('snapshot {root: "body"}', () => {
  it('sends the page once: no viewportSnapshot beside the inline YAML', async () => {
    // A command whose action changed the view's structure (a dialog opened) carries the viewportSnapshot; a snapshot of a part
    // (root: a form) keeps it.
    const first = await h.open('agent-tasks.html');
    const part = await h.cli({ tab: first, steps: [{ click: '#delete' }, { snapshot: { root: '#settings' } }] });
    expect(part.out.status, part.stdout).toBe('ok');
    expect(part.out.viewportSnapshot, part.stdout).toBeDefined();
    const tab = await h.open('agent-tasks.html');
    const r = await h.cli({ tab, steps: [{ click: '#delete' }, { snapshot: { root: 'body' } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[1].output.yaml).toContain('Workspace settings');
    expect(r.out.viewportSnapshot).toBeUndefined();
  });
});

describe('wait {selector, text}', () => {
  it('waits for that element to show that text, not another element with it', async () => {
    const tab = await h.open('agent-tasks.html');
    const r = await h.cli({
      tab,
      steps: [
        { click: '#save' },
        { wait: { selector: '#status', text: 'Saved' } },
        { pageFunction: 'document.getElementById("status").textContent' },
      ],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    // The other .status already says "Saved earlier"; #status said "Saving…" until 400 ms later.
    expect(r.out.steps[2].output.value).toBe('Saved');
    const miss = await h.cli({ tab, steps: [{ wait: { selector: '#status', text: 'Published' }, timeout: 800 }] });
    expect(miss.out.status).toBe('error');
    expect(miss.out.steps[0].errorType).toBe('TimeoutError');
  });
});

describe('modal means modal (item 8)', () => {
  it('two small aria-modal rows with nothing blocked are not a modal; a <dialog> shown modally is', async () => {
    const tab = await h.open('agent-tasks.html');
    // Two unnamed colour rows appear, both marked aria-modal (as Excalidraw's picker after drawing).
    const colours = await h.cli({ tab, steps: [{ click: '#colours' }] });
    expect(colours.out.status, colours.stdout).toBe('ok');
    expect(
      await h.value(tab, '[...document.querySelectorAll("[aria-modal=true]")].filter((e) => !e.hidden).length'),
    ).toBe(2);
    // They are told apart (or counted once), never "dialog appeared; dialog appeared".
    const summary: string = colours.out.changes.summary;
    expect(summary).not.toMatch(/dialog appeared; dialog appeared/);
    // Each row (swatches with no text, as in Excalidraw) is told by its buttons' names, read from the DOM.
    const names = await h.value(
      tab,
      '[...document.querySelectorAll(".swatches")].map((e) => e.querySelector("button").getAttribute("aria-label"))',
    );
    for (const name of names) expect(JSON.stringify(colours.out.changes)).toContain(name);
    expect(colours.out.context?.modal, colours.stdout).toBeUndefined();
    // DOM truth: the rows claim aria-modal, yet the page beside them takes clicks.
    const hit = await h.value(
      tab,
      '(() => { const b = document.getElementById("publish").getBoundingClientRect(); return document.elementFromPoint(b.x + 5, b.y + 5).id; })()',
    );
    expect(hit).toBe('publish');
    const r = await h.cli({ tab, steps: [{ click: '#publish' }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.context?.modal).toBeUndefined();
    const shown = await h.cli({
      tab,
      steps: [{ pageFunction: '(document.getElementById("native").showModal(), true)' }, { click: '#native-ok' }],
    });
    expect(await h.value(tab, 'document.getElementById("native").matches(":modal")')).toBe(true);
    expect(shown.out.context?.modal, shown.stdout).toEqual({ title: 'Rename workspace' });
  });
});

describe('poll after a message arrived between calls', () => {
  it('tells the message, since the page was last shown (not "Nothing changed on the page.")', async () => {
    const tab = await h.open('agent-tasks.html');
    const shownAt = await h.value(tab, '(window.__deliverMessage(300), performance.now())');
    await new Promise((r) => setTimeout(r, 800));
    const before = await h.value(tab, 'performance.now()');
    // Page truth: the message arrived after the tab was last shown (openTab's answer)…
    expect(await h.value(tab, 'window.__msgAt')).toBeGreaterThan(shownAt);
    // …and before this call began.
    expect(await h.value(tab, 'window.__msgAt')).toBeLessThan(before);
    const r = await h.cli({ tab, steps: [{ poll: '() => !!document.getElementById("msg")' }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output.resolved).toBe(true);
    expect(r.out.changes?.summary).not.toBe('Nothing changed on the page.');
    expect(r.out.changes?.summary, r.stdout).toMatch(/^Since the page was last shown: .*New message from Ana/);
    expect(r.out.changes?.since).toBe('lastShown');
  });
});

describe("a Copy button's transient status", () => {
  it('tells "Copied!", which the page showed for 1.2 s', async () => {
    const tab = await h.open('agent-tasks.html');
    const r = await h.cli({ tab, steps: [{ click: '#copy' }] });
    expect(r.out.status, r.stdout).toBe('ok');
    // Page truth: the status said "Copied!" after the click.
    expect(await h.value(tab, 'typeof window.__copiedShownAt')).toBe('number');
    expect(JSON.stringify(r.out.changes)).toContain('Copied!');
    expect(r.out.changes.summary).not.toMatch(/^(No visible change|Nothing changed on the page)\.$/);
  });
});

describe('Excalidraw after drawing (item 8, the real library)', () => {
  it('its two aria-modal colour rows block nothing, and no modal is claimed', async () => {
    const tab = await h.open('excalidraw.html');
    const ready = await h.cli({
      tab,
      steps: [{ poll: '() => window.excalidrawAPI && document.querySelector("canvas.interactive")' }],
    });
    expect(ready.out.status, ready.stdout).toBe('ok');
    const tool = await h.cli({ tab, steps: [{ click: { text: 'Rectangle' } }] });
    expect(tool.out.context?.modal).toBeUndefined();
    const r = await h.cli({ tab, steps: [{ drag: { source: { x: 300, y: 200 }, target: { x: 450, y: 300 } } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await h.value(tab, 'excalidrawAPI.getSceneElements().length')).toBe(1);
    // DOM truth: two small rows now say aria-modal, and the canvas beside them still takes the pointer.
    const rows = await h.value(
      tab,
      '[...document.querySelectorAll("[role=dialog][aria-modal=true]")].map((e) => Math.round(e.getBoundingClientRect().width * e.getBoundingClientRect().height))',
    );
    expect(rows.length).toBeGreaterThanOrEqual(1);
    for (const area of rows) expect(area).toBeLessThan(20_000);
    expect(await h.value(tab, 'document.elementFromPoint(innerWidth / 2, innerHeight / 2).localName')).toBe('canvas');
    // Context is sent as what changed: a modal that appeared would be in it.
    expect(r.out.context?.modal, r.stdout).toBeUndefined();
    const look = await h.cli({ tab, steps: [{ click: { text: 'Selection' } }] });
    expect(look.out.context?.modal, look.stdout).toBeUndefined();
  });
});
