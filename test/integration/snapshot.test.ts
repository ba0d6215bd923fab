// Snapshots: exact YAML, refs that persist and re-resolve, shadow DOM, frames, limits, since,
// and the viewport snapshot and diff after visual commands.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function snap(tab: string, params: unknown = true): Promise<Record<string, any>> {
  const r = await h.cli({ tab, steps: [{ snapshot: params }] });
  expect(r.out.status, r.stdout).toBe('ok');
  return r.out.steps[0].output;
}
const refOf = (yaml: string, line: RegExp): string => {
  const hit = yaml.split('\n').find((l) => line.test(l));
  const m = hit && /\[ref=(s\d+e\d+)\]/.exec(hit);
  if (!m) throw new Error(`no ref on a line matching ${line} in\n${yaml}`);
  return m[1]!;
};
const withoutRefs = (yaml: string): string => yaml.replace(/ \[ref=s\d+e\d+\]/g, '');

describe('snapshot YAML', () => {
  it('renders roles, names, states, values and text of a form page', async () => {
    const tab = await h.open('aria.html');
    const out = await snap(tab);
    expect(out.snapshotId).toMatch(/^s\d+$/);
    expect(withoutRefs(out.yaml)).toBe(
      [
        '# scoped to main; also on the page: banner, navigation "Main", contentinfo (use {"root":"body"} for all)',
        '- main:',
        '  - heading "Account settings" [level=1]',
        '  - paragraph: Manage your profile here.',
        '  - form "Profile":',
        '    - textbox "Email" [required] [name=email]: "ann@example.com"',
        '    - text: Password',
        '    - textbox "Password": "••••"',
        '    - textbox "Nickname": ""',
        '    - textbox "Phone number": ""',
        '    - searchbox "Search docs": ""',
        '    - checkbox "Subscribe" [checked]',
        '    - checkbox "Select all" [checked=mixed]',
        '    - combobox "Country": "Japan"',
        '    - textbox "Bio": "Hello"',
        '    - button "Save" [disabled]',
        '    - button "More options" [collapsed]',
        '    - button "Bold" [pressed]',
        '    - button "Send"',
        '    - textbox "Birthday" [type=date]: "2000-01-02"',
        '  - img "Logo"',
        '  - table "People":',
        '    - row "Name Age City"',
        '    - row "Ann 34 Paris"',
        '  - list:',
        '    - listitem: First',
        '    - listitem:',
        '      - link "Second" [url=/aria.html#second]',
        '  - tablist:',
        '    - tab "Tab A" [selected]',
        '    - tab "Tab B"',
        '  - generic: Clickable div',
        '  - generic: Pointer span',
        '  - link "External" [url=https://other.example/path]',
        '  - paragraph: A very long paragraph name? no — a very long link follows.',
        '  - link "This link text is deliberately very long so that its accessible name has to be cut somewhere past …" [url=/long]',
        '  - status: Ready',
      ].join('\n'),
    );
  });

  it('gives refs to interactive, onclick and pointer elements only', async () => {
    const tab = await h.open('aria.html');
    const { yaml } = await snap(tab);
    const refLines = yaml.split('\n').filter((l: string) => l.includes('[ref='));
    expect(refLines).toHaveLength(21);
    expect(yaml).not.toMatch(/heading .*\[ref=/);
    expect(yaml).not.toMatch(/Hidden by/);
  });

  it('scopes to a root selector or role, and fails fast on a bad root', async () => {
    const tab = await h.open('aria.html');
    expect(withoutRefs((await snap(tab, { root: 'role=navigation' })).yaml)).toBe(
      '- navigation "Main":\n  - link "Home" [url=/]\n  - link "Docs" [url=/docs?x=1]',
    );
    expect((await snap(tab, { root: 'body' })).yaml).toMatch(/^- banner:/);
    const bad = await h.cli({ tab, steps: [{ snapshot: { root: 'main[' } }] });
    expect(bad.out.steps[0].errorType).toBe('StepValidationError');
    const none = await h.cli({ tab, steps: [{ snapshot: { root: '#nope' } }] });
    expect(none.out.steps[0].errorType).toBe('ElementNotFoundError');
  });

  it('has interactive and summary detail levels', async () => {
    const tab = await h.open('aria.html');
    const interactive = withoutRefs((await snap(tab, { detail: 'interactive', root: 'form' })).yaml);
    expect(interactive.split('\n').slice(0, 3)).toEqual([
      '- form "Profile":',
      '  - textbox "Email" [required] [name=email]: "ann@example.com"',
      '  - textbox "Password": "••••"',
    ]);
    expect(interactive).not.toMatch(/text: Password/);
    const summary = (await snap(tab, { detail: 'summary', root: 'body' })).yaml;
    expect(summary).not.toMatch(/ref=/);
    expect(summary).toMatch(/- navigation "Main" \[interactive=2\]/);
    expect(summary).toMatch(/- heading "Account settings" \[level=1\]/);
  });

  it('answers unchanged for since when nothing changed, and a new snapshot when something did', async () => {
    const tab = await h.open('changes.html');
    const first = await snap(tab);
    expect(await snap(tab, { since: first.snapshotId })).toEqual({ unchanged: true, snapshotId: first.snapshotId });
    await h.cli({ tab, steps: [{ pageFunction: 'document.getElementById("name").value = "typed"' }] });
    const after = await snap(tab, { since: first.snapshotId });
    expect(after.unchanged).toBeUndefined();
    expect(after.yaml).toMatch(/textbox "Name" \[ref=s\d+e\d+\]: "typed"/);
  });

  it('writes a large snapshot to a file and keeps its head inline', async () => {
    const tab = await h.open('big.html?n=5000');
    const out = await snap(tab);
    expect(out.inlineTruncated).toBe(true);
    expect(Buffer.byteLength(out.yaml)).toBeLessThanOrEqual(9000);
    const full = readFileSync(out.path, 'utf8');
    expect(full.startsWith(out.yaml)).toBe(true);
    expect(full).toMatch(/button "Act 1249"/);
    const capped = await snap(tab, { maxElements: 50, inlineLimit: 100000 });
    expect(capped.truncated).toBe(true);
    expect(capped.yaml.split('\n').length).toBeLessThan(60);
  });
});

describe('refs', () => {
  it('keeps the same ref for the same element across invocations', async () => {
    const tab = await h.open('changes.html');
    const a = refOf((await snap(tab)).yaml, /button "Menu"/);
    const b = refOf((await snap(tab)).yaml, /button "Menu"/);
    expect(b).toBe(a);
  });

  it('re-resolves refs after a re-render, the right one of two identical buttons included', async () => {
    const tab = await h.open('rerender.html');
    const yaml = (await snap(tab)).yaml;
    const deletes = yaml
      .split('\n')
      .filter((l: string) => l.includes('button "Delete"'))
      .map((l: string) => /ref=(s\d+e\d+)/.exec(l)![1]!);
    expect(deletes).toHaveLength(3);
    const boxesBefore = (await h.cli({ tab, steps: [{ getBox: deletes }] })).out.steps[0].output;
    await h.cli({ tab, steps: [{ pageFunction: 'document.getElementById("rerender").click()' }] });
    const r = await h.cli({
      tab,
      steps: [
        { getBox: deletes },
        {
          pageFunction: {
            fn:
              '(refs) => [...refs.entries()].filter(([k]) => k === "' +
              deletes[1] +
              '").map(([, el]) => el.dataset.index)',
            refs: true,
          },
        },
      ],
    });
    const after = r.out.steps[0].output;
    for (const ref of deletes) {
      expect(after[ref]).toMatchObject({ reResolved: true, y: boxesBefore[ref].y, x: boxesBefore[ref].x });
    }
    // The second "Milk Delete" button is still the second one, not the first look-alike.
    expect(r.out.steps[1].output.value[0]).toBe('1');
  });

  it('refuses a ref from an earlier page and keeps counting after navigation', async () => {
    const tab = await h.open('changes.html');
    const old = refOf((await snap(tab)).yaml, /button "Menu"/);
    await h.cli({ tab, steps: [{ goto: `${h.baseUrl}/changes.html?again` }] });
    const r = await h.cli({ tab, steps: [{ getBox: old }] });
    expect(r.out.steps[0].output).toMatchObject({ error: 'earlier page' });
    expect(r.out.steps[0].output.message).toMatch(/earlier page.*new snapshot/);
    const fresh = refOf((await snap(tab)).yaml, /button "Menu"/);
    expect(Number(fresh.split('e')[1])).toBeGreaterThan(Number(old.split('e')[1]));
  });

  it('reaches elements three shadow roots deep and re-resolves them after the shadow tree re-renders', async () => {
    const tab = await h.open('shadow.html');
    const yaml = (await snap(tab)).yaml;
    expect(withoutRefs(yaml)).toMatch(/- region "Middle":\n\s+- button "Deep action"\n\s+- textbox "Deep field": ""/);
    const ref = refOf(yaml, /button "Deep action"/);
    const box = (await h.cli({ tab, steps: [{ getBox: ref }] })).out.steps[0].output;
    expect(box.width).toBeGreaterThan(0);
    await h.cli({ tab, steps: [{ pageFunction: 'rerenderLeaf()' }] });
    const again = (await h.cli({ tab, steps: [{ getBox: ref }] })).out.steps[0].output;
    expect(again).toMatchObject({ reResolved: true, x: box.x, y: box.y });
  });

  it('includes same-origin frames by default (issue 13), and not when told', async () => {
    const tab = await h.open('frames.html');
    expect((await snap(tab, { includeFrames: false })).yaml).not.toMatch(/Framed button/);
    const yaml = (await snap(tab)).yaml;
    expect(withoutRefs(yaml)).toMatch(
      /- iframe "Inner frame":\n\s+- heading "Inside the frame" \[level=2\]\n\s+- button "Framed button"/,
    );
  });
});

describe('after a visual command', () => {
  it('folds a sticky header the agent already saw into one line after scrolling', async () => {
    const tab = await h.open('sticky.html');
    const r = await h.cli({ tab, steps: [{ scroll: { y: 2400 } }] });
    const yaml: string = r.out.viewportSnapshot;
    expect(yaml.startsWith('- banner: (unchanged since your last view)\n')).toBe(true);
    expect(yaml).not.toContain('"Product 1"');
    expect(yaml).toContain('button "Buy 20"');
  });

  it('reports a toast and a status message that came and went during the command', async () => {
    const tab = await h.open('toast.html');
    const r = await h.cli({ tab, steps: [{ click: '#save' }, { click: '#flash' }, { wait: 600 }] });
    expect(r.out.changes.transient).toEqual(['Settings saved', 'Copied to clipboard']);
    expect(r.out.changes.summary).toMatch(/Briefly shown: 'Settings saved', 'Copied to clipboard'\.$/);
    expect(await h.value(tab, 'document.querySelector(".toast")')).toBeNull();
  });

  it('reports state changes and a full snapshot file, and leaves out the unchanged screen', async () => {
    const tab = await h.open('changes.html');
    const r = await h.cli({
      tab,
      steps: [
        {
          pageFunction:
            '() => { document.getElementById("agree").click(); document.getElementById("status").textContent = "Saved"; }',
        },
      ],
    });
    expect(r.out.status).toBe('ok');
    // Same document, same scroll, no element came or went: the last snapshot plus `changes` is the screen.
    expect(r.out.viewportSnapshot).toBeUndefined();
    expect(readFileSync(r.out.fullSnapshot, 'utf8')).toMatch(/checkbox "Agree" \[checked\]/);
    const c = r.out.changes;
    expect(c.summary).toMatch(/^Ran script\. status: 'Saved'; checkbox 'Agree' \[ref=s\d+e\d+\] checked\.$/);
    expect(c.text).toEqual(["status: '' \u2192 'Saved'"]);
    expect(c.changed).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'checked', from: 'false', to: 'true' })]),
    );
  });

  it('sends the screen again, last in the answer, when content appears with more inside than its line, after a scroll', async () => {
    const opened = await h.cli({
      tab: await h.open('changes.html'),
      steps: [{ pageFunction: '() => { document.getElementById("toggle").click(); }' }],
    });
    const keys = Object.keys(opened.out);
    expect(keys[keys.length - 1]).toBe('viewportSnapshot');
    expect(opened.out.viewportSnapshot).toMatch(/link "Alpha"[\s\S]*link "Beta"/);
    expect(opened.out.changes.summary).toMatch(
      /^Ran script\. listitem 'Alpha' appeared; listitem 'Beta' appeared; button 'Menu' \[ref=s\d+e\d+\] expanded\.$/,
    );
    expect(opened.out.changes.appeared).toEqual(["listitem 'Alpha' (+1 inside)", "listitem 'Beta' (+1 inside)"]);
    const scrolled = await h.cli({ tab: await h.open('big.html'), steps: [{ scroll: { y: 600 } }] });
    expect(scrolled.out.viewportSnapshot).toMatch(/\[ref=s\d+e\d+\]/);
    const many = await h.cli({
      tab: await h.open('changes.html'),
      steps: [
        {
          pageFunction:
            '() => { for (let i = 0; i < 12; i++) { const b = document.createElement("button"); b.textContent = "New " + i; document.body.prepend(b); } }',
        },
      ],
    });
    expect(many.out.changes.summary).toMatch(
      /^Ran script\. button 'New 11' \[ref=s\d+e\d+\] appeared; .*; \+9 more\.$/,
    );
    // Twelve buttons, each listed with its ref: the lines stand for the screen.
    expect(many.out.changes.appeared).toHaveLength(12);
    expect(many.out.changes.appeared[0]).toMatch(/^button 'New 11' \[ref=s\d+e\d+\]$/);
    expect(many.out.viewportSnapshot).toBeUndefined();
  });

  it('reports removed elements and value changes', async () => {
    const tab = await h.open('changes.html');
    const r = await h.cli({
      tab,
      steps: [
        {
          pageFunction:
            '() => { document.getElementById("remove").click(); document.getElementById("name").value = "Ann"; }',
        },
      ],
    });
    expect(r.out.changes.gone).toEqual([expect.stringMatching(/^button 'Remove me' \[ref=s\d+e\d+\]$/)]);
    expect(r.out.changes.changed).toEqual([expect.objectContaining({ field: 'value', from: '', to: 'Ann' })]);
  });

  it('says so when nothing visible changed, and omits changes when the page navigated', async () => {
    const tab = await h.open('changes.html');
    // A DOM change no one can see (capture by effect still looks): "No visible change."
    const hidden = await h.cli({ tab, steps: [{ pageFunction: '() => { document.body.dataset.seen = "1"; }' }] });
    expect(hidden.out.changes).toEqual({ summary: 'No visible change.' });
    // No DOM change at all: capture by effect answers without a look.
    const same = await h.cli({ tab, steps: [{ pageFunction: '1' }] });
    expect(same.out.changes).toEqual({ summary: 'Nothing changed on the page.' });
    const nav = await h.cli({ tab, steps: [{ goto: `${h.baseUrl}/page2.html` }] });
    expect(nav.out.navigated).toBe(true);
    expect(nav.out.changes).toBeUndefined();
  });

  it('shows what is on screen even when main starts below the fold', async () => {
    const r = await h.cli({ steps: [{ openTab: { url: `${h.baseUrl}/below-fold.html`, port: h.port } }] });
    expect(r.out.viewportSnapshot).toMatch(/heading "Big hero"/);
    expect(r.out.viewportSnapshot).not.toMatch(/Main button/);
  });

  it('takes no snapshot for a read-only command', async () => {
    const tab = await h.open('changes.html');
    const r = await h.cli({ tab, steps: [{ snapshot: { detail: 'summary' } }] });
    expect(r.out.viewportSnapshot).toBeUndefined();
    expect(r.out.fullSnapshot).toBeUndefined();
    expect(r.out.screenshot).toBeUndefined();
    expect(r.out.context).toBeUndefined(); // the openTab answer's, unchanged
  });
});
