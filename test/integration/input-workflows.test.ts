// Issue 21 items 5 and 6: the clipboard (a Copy button's writeText read back, Control+V pasting it
// into another page), right and middle clicks, modifiers and Control+click tabs — each checked by
// what the page recorded or showed, read over the test's own CDP socket, or by Chrome's target list.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cdpToPage, startHarness, type CdpClient, type Harness } from './harness.js';

let h: Harness;
const clients: CdpClient[] = [];
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  for (const c of clients) c.close();
  await h?.close();
});

async function openWithClient(path: string): Promise<{ tab: string; page: CdpClient }> {
  const tab = await h.open(path);
  const page = await cdpToPage(h.port, `${h.baseUrl}/${path}`);
  clients.push(page);
  return { tab, page };
}

const KEY = 'sk-live-4f9Qx7Lm2Zp8Rt6Wv3Ny';

describe('clipboard', () => {
  let copy: { tab: string; page: CdpClient };
  let paste: { tab: string; page: CdpClient };
  beforeAll(async () => {
    copy = await openWithClient('input-copy.html');
    paste = await openWithClient('input-paste.html');
  });

  it('tells the "Copied!" a Copy button shows after awaiting navigator.clipboard.writeText (issue 21)', async () => {
    const r = await h.cli({ tab: copy.tab, steps: [{ click: '#copy' }] });
    expect(r.out.status, r.stdout).toBe('ok');
    // The page's own DOM and record: the write resolved and the status says so.
    expect(await copy.page.value('document.getElementById("status").textContent')).toBe('Copied! (1)');
    expect(await copy.page.value('window.__copied')).toEqual([KEY]);
    expect(JSON.stringify(r.out.changes)).toContain('Copied! (1)');
    // A second click: the pointer is already on the button (no mouseover), only the text changes.
    const again = await h.cli({ tab: copy.tab, steps: [{ click: '#copy' }] });
    expect(await copy.page.value('document.getElementById("status").textContent')).toBe('Copied! (2)');
    expect(JSON.stringify(again.out.changes)).toContain('Copied! (2)');
  });

  it('tells a "Copied!" that follows a slow clipboard write (60 ms later)', async () => {
    const r = await h.cli({ tab: copy.tab, steps: [{ click: '#copy-slow' }] });
    expect(await copy.page.value('document.getElementById("status-slow").textContent')).toBe('Copied! (3)');
    expect(JSON.stringify(r.out.changes), r.stdout).toContain('Copied! (3)');
  });

  it('reads what the Copy button put there: a link as it is, the key whole in its own answer and nowhere else', async () => {
    const link = await h.cli({ tab: copy.tab, steps: [{ clipboard: 'read' }] });
    const copied = await copy.page.value('window.__copied');
    expect(link.out.steps[0].output).toEqual({ text: copied[copied.length - 1] });
    expect(link.out.screenshot).toBeUndefined(); // reading the clipboard changes nothing

    const cwd = join(h.tmp, 'debug-cwd');
    mkdirSync(cwd, { recursive: true });
    const command = JSON.stringify({ tab: copy.tab, steps: [{ click: '#copy' }, { clipboard: 'read' }] });
    const run = spawnSync(process.execPath, [CLI, '--debug', command], { cwd, env: h.env, encoding: 'utf8' });
    const out = JSON.parse(run.stdout);
    expect(out.steps[1].output).toEqual({ text: KEY, secret: true });
    // Only there: not in changes, context, the full snapshot file or the --debug log.
    const { steps, ...rest } = out;
    expect(JSON.stringify(rest)).not.toContain(KEY);
    expect(JSON.stringify(steps[0])).not.toContain(KEY);
    if (out.fullSnapshot) expect(readFileSync(out.fullSnapshot, 'utf8')).not.toContain(KEY);
    const logs = readdirSync(join(cwd, 'log'));
    expect(logs.length).toBe(1);
    expect(readFileSync(join(cwd, 'log', logs[0]!), 'utf8')).not.toContain(KEY);
  });

  it('pastes it into another page with Control+V: the page gets a trusted paste event with the text', async () => {
    const r = await h.cli({ tab: paste.tab, steps: [{ click: '#credential' }, { press: 'Control+V' }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await paste.page.value('document.getElementById("credential").value')).toBe(KEY);
    expect(await paste.page.value('window.__pastes')).toEqual([{ field: 'credential', text: KEY, isTrusted: true }]);
    // The key was copied in another command: the paste still keeps it out of the answer.
    expect(r.stdout).not.toContain(KEY);
    expect(JSON.stringify(r.out.changes)).toContain('••••');
  });

  it('writes text the next Control+V pastes, once', async () => {
    const text = 'Meeting at 10:30, room 4';
    const w = await h.cli({ tab: paste.tab, steps: [{ clipboard: { write: text } }] });
    expect(w.out.steps[0].output).toEqual({ written: text.length });
    const r = await h.cli({ tab: paste.tab, steps: [{ click: '#note' }, { press: 'Control+V' }] });
    expect(await paste.page.value('document.getElementById("note").value')).toBe(text);
    expect((await paste.page.value('window.__pastes')).slice(1)).toEqual([{ field: 'note', text, isTrusted: true }]);
    expect(JSON.stringify(r.out.changes)).toContain(text);
  });

  it('says why on a page that is not a secure context, and refuses bad input before running', async () => {
    const blank = await h.cli({ steps: [{ openTab: { url: 'about:blank', port: h.port } }] });
    const r = await h.cli({ tab: blank.out.tab, steps: [{ clipboard: 'read' }] });
    expect(r.out.status).toBe('error');
    expect(r.out.steps[0].error).toMatch(/secure/);
    for (const bad of ['paste', { write: 3 }, { write: 'x', read: true }, {}]) {
      const v = await h.cli({ tab: paste.tab, steps: [{ clipboard: bad }] });
      expect(v.out.error?.type, JSON.stringify(bad)).toBe('VALIDATION');
    }
  });
});

describe('mouse buttons and modifiers', () => {
  let files: { tab: string; page: CdpClient };
  beforeAll(async () => {
    files = await openWithClient('input-menu.html');
  });

  it("right-clicks open the page's own context menu (a trusted contextmenu, button 2), told in changes", async () => {
    const r = await h.cli({ tab: files.tab, steps: [{ click: { text: 'report.pdf', button: 'right' } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await files.page.value('window.__menus')).toEqual([{ file: 'report.pdf', button: 2, isTrusted: true }]);
    expect(await files.page.value('document.getElementById("menu").hidden')).toBe(false);
    expect(JSON.stringify(r.out.changes)).toMatch(/Rename/);
  });

  it('renames through the menu it opened', async () => {
    const r = await h.cli({
      tab: files.tab,
      steps: [
        { click: { text: 'Rename' } },
        { fill: { label: 'New name', value: 'q3-report.pdf' } },
        { press: 'Enter' },
      ],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await files.page.value('[...document.querySelectorAll(".file")].map((li) => li.textContent)')).toEqual([
      'q3-report.pdf',
      'notes.txt',
    ]);
  });

  it("holds modifiers during the click: the page's click handler sees them, and the keys go down and up", async () => {
    await files.page.value('(window.__clicks = [], window.__keys = [])');
    const r = await h.cli({
      tab: files.tab,
      steps: [{ click: { selector: '#probe', modifiers: ['Control', 'Shift'] } }],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await files.page.value('window.__clicks')).toEqual([
      {
        type: 'click',
        button: 0,
        detail: 1,
        isTrusted: true,
        ctrlKey: true,
        shiftKey: true,
        altKey: false,
        metaKey: false,
      },
    ]);
    expect(await files.page.value('window.__keys')).toEqual([
      'keydown:Control',
      'keydown:Shift',
      'keyup:Shift',
      'keyup:Control',
    ]);
  });

  it('middle-clicks (auxclick, button 1) and triple-clicks (detail 3)', async () => {
    await files.page.value('(window.__clicks = [])');
    const r = await h.cli({
      tab: files.tab,
      steps: [{ click: { selector: '#probe', button: 'middle' } }, { click: { selector: '#probe', clickCount: 3 } }],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    const seen = (await files.page.value('window.__clicks')).map((c: any) => `${c.type}:${c.button}:${c.detail}`);
    expect(seen).toEqual(['auxclick:1:1', 'click:0:1', 'click:0:2', 'dblclick:0:2', 'click:0:3']);
  });

  it('Control+click on a link opens it in a new tab, told in newTabs with an alias that works', async () => {
    const before = await files.page.value('location.href');
    const r = await h.cli({ tab: files.tab, steps: [{ click: { text: 'Open the docs', modifiers: ['Control'] } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    const url = `${h.baseUrl}/input-copy.html?from=menu`;
    expect(r.out.steps[0].output.newTabs).toEqual([
      { tab: expect.stringMatching(/^t\d+$/), targetId: expect.any(String), url },
    ]);
    // Chrome's own target list has it; the page itself stayed.
    const list = await (await fetch(`http://127.0.0.1:${h.port}/json/list`)).json();
    expect(list.some((t: any) => t.id === r.out.steps[0].output.newTabs[0].targetId && t.url === url)).toBe(true);
    expect(await files.page.value('location.href')).toBe(before);
    const there = await h.cli({
      tab: r.out.steps[0].output.newTabs[0].tab,
      steps: [{ pageFunction: 'location.search' }],
    });
    expect(there.out.steps[0].output.value).toBe('?from=menu');
  });

  it('a Control+click on what is no link opens no tab and waits for none', async () => {
    const r = await h.cli({ tab: files.tab, steps: [{ click: { selector: '#probe', modifiers: ['Control'] } }] });
    expect(r.out.status).toBe('ok');
    expect(r.out.steps[0].output.newTabs).toBeUndefined();
  });

  it('refuses what cannot be done before running anything', async () => {
    for (const click of [
      { selector: '#probe', button: 'back' },
      { selector: '#probe', modifiers: ['Ctrl'] },
      { selector: '#probe', button: 'right', jsClick: true },
      { selector: '#probe', clickCount: 4 },
      { selector: '#probe', doubleClick: true, clickCount: 3 },
    ]) {
      const r = await h.cli({ tab: files.tab, steps: [{ click }] });
      expect(r.out.error?.type, JSON.stringify(click)).toBe('VALIDATION');
    }
  });
});
