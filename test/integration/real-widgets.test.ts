// Claims checked against the real libraries apps are built from (issues 13 and 14): an Excalidraw
// drawing, a FullCalendar event moved by pointer, keys in a Handsontable cell, typing in TinyMCE's
// iframe. Each test reads the library's own model (its API, through a pageFunction) — not our answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** Opens `page` and waits (in the page) until `ready` is truthy. */
async function openReady(page: string, ready: string): Promise<string> {
  const tab = await h.open(page);
  const poll = `new Promise((ok, fail) => { const t0 = Date.now(); const f = () => (${ready}) ? ok(true) : Date.now() - t0 > 20000 ? fail(new Error('not ready')) : setTimeout(f, 50); f(); })`;
  const r = await h.cli({ tab, steps: [{ pageFunction: poll }] });
  expect(r.out.status, r.stdout).toBe('ok');
  return tab;
}

describe('Excalidraw (issue 14 item 15)', () => {
  it('draws a rectangle of the dragged size with the Rectangle tool, with no false "ignored" advice', async () => {
    const tab = await openReady(
      'excalidraw.html',
      'window.excalidrawAPI && document.querySelector("canvas.interactive")',
    );
    // The tool is a hidden <input type=radio aria-label="Rectangle"> drawn by its <label>: by its name.
    const tool = await h.cli({ tab, steps: [{ click: { text: 'Rectangle' } }] });
    expect(tool.out.status, tool.stdout).toBe('ok');
    expect(tool.out.steps[0].output.target).toBe('radio "Rectangle"');
    expect(await h.value(tab, 'excalidrawAPI.getAppState().activeTool.type')).toBe('rectangle');
    const r = await h.cli({ tab, steps: [{ drag: { source: { x: 300, y: 200 }, target: { x: 450, y: 300 } } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output.dropped).not.toBe(false);
    expect(r.stdout).not.toMatch(/html5|ignored the drag/);
    const els = await h.value(
      tab,
      'excalidrawAPI.getSceneElements().map((e) => ({ type: e.type, width: e.width, height: e.height }))',
    );
    expect(els).toHaveLength(1);
    expect(els[0].type).toBe('rectangle');
    expect(Math.abs(els[0].width - 150)).toBeLessThan(10);
    expect(Math.abs(els[0].height - 100)).toBeLessThan(10);
  });
});

describe('FullCalendar', () => {
  it('moves an event one hour later by pointer, and says nothing of html5', async () => {
    const tab = await openReady('fullcalendar.html', 'document.querySelector(".fc-event")');
    const geo = await h.value(
      tab,
      `(() => {
        const ev = document.querySelector('.fc-event').getBoundingClientRect();
        const at = (t) => document.querySelector('td.fc-timegrid-slot-lane[data-time="' + t + '"]').getBoundingClientRect().y;
        return { x: ev.x + ev.width / 2, y: ev.y + 6, hour: at('10:00:00') - at('09:00:00') };
      })()`,
    );
    const r = await h.cli({
      tab,
      steps: [{ drag: { source: { x: geo.x, y: geo.y }, target: { x: geo.x, y: geo.y + geo.hour } } }],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output.dropped).not.toBe(false);
    expect(r.stdout).not.toMatch(/html5|ignored the drag|did not move/);
    expect(r.out.steps[0].output.dropped).toBe(true);
    expect(await h.value(tab, 'calendar.getEvents().map((e) => e.start.toISOString())')).toEqual([
      '2026-03-10T10:00:00.000Z',
    ]);
    expect(await h.value(tab, '__drops')).toEqual(['2026-03-10T10:00:00.000Z']);
    // Again by names, as an agent writes it: the event by its text onto the 11:00 slot. FullCalendar's
    // slot table is aria-hidden, so the target waits out its timeout and is auto-forced (said in a warning).
    const again = await h.cli({
      tab,
      steps: [
        {
          drag: {
            source: { text: 'Standup' },
            target: { selector: 'td.fc-timegrid-slot-lane[data-time="11:00:00"]' },
            timeout: 1500,
          },
        },
      ],
    });
    expect(again.out.status, again.stdout).toBe('ok');
    expect(again.out.steps[0].output.dropped, again.stdout).toBe(true);
    expect(again.out.steps[0].warning).toMatch(/auto-forced: .* is aria-hidden/);
    expect(again.stdout).not.toMatch(/html5|ignored the drag|did not move/);
    expect(await h.value(tab, 'calendar.getEvents().map((e) => e.start.toISOString())')).toEqual([
      '2026-03-10T11:00:00.000Z',
    ]);
  });
});

describe('Handsontable (issue 14 item 13)', () => {
  it('types into the clicked cell and Enter commits it; the answers name what took the keys; no other cell changes', async () => {
    const tab = await openReady('handsontable.html', 'window.hot && document.querySelector(".handsontable td")');
    const before = await h.value(tab, 'hot.getData()');
    const r = await h.cli({ tab, steps: [{ click: { text: '450' } }, { type: '975' }, { press: 'Enter' }] });
    expect(r.out.status, r.stdout).toBe('ok');
    // The keys went to the cell, then Handsontable's editor took the Enter: each answer names it.
    expect(r.out.steps[1].output.target).toBe('gridcell "450"');
    expect(r.out.steps[2].output.target).toMatch(/^textbox/);
    expect(await h.value(tab, 'hot.getDataAtCell(2, 2)')).toBe('975');
    const after = await h.value(tab, 'hot.getData()');
    after[2][2] = before[2][2];
    expect(after).toEqual(before);
  });

  it('sends no key after a click Handsontable ignored, and fails keys that reach only the page body; no cell changes', async () => {
    const tab = await openReady('handsontable.html', 'window.hot && document.querySelector(".handsontable td")');
    const before = await h.value(tab, 'hot.getData()');
    // element.click() is no mousedown: Handsontable selects nothing and focus stays on the body.
    const r = await h.cli({
      tab,
      steps: [{ click: { text: '450', jsClick: true } }, { type: '975' }, { press: 'Enter' }],
    });
    expect(r.out.status, r.stdout).toBe('error');
    expect(r.out.steps.map((s: { status: string }) => s.status)).toEqual(['ok', 'error']);
    expect(r.out.steps[1].error).toMatch(/No key was sent.*page body/);
    // Keys with nothing focused: refused as going nowhere, not answered ok.
    const k = await h.cli({ tab, steps: [{ type: '31' }] });
    expect(k.out.status, k.stdout).toBe('error');
    expect(k.out.steps[0].error).toMatch(/went to the page body/);
    expect(await h.value(tab, 'hot.getData()')).toEqual(before);
    expect(await h.value(tab, 'hot.getSelected() ?? null')).toBeNull();
  });
});

describe('TinyMCE (issue 13)', () => {
  it('types inside its iframe and the answer reports the typed text as a change', async () => {
    const tab = await openReady('tinymce.html', 'window.tinymce?.activeEditor?.initialized');
    const r = await h.cli({
      tab,
      steps: [
        { frame: 'iframe.tox-edit-area__iframe' },
        { click: { selector: 'body p' } },
        { press: 'End' },
        { type: ' world, typed here' },
      ],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    // The keys went to the editor's body (an editable <body>, not "the page body"), and the answer's
    // changes carry the typed text.
    expect(r.out.steps[3].output.target).toBe('textbox "Rich Text Area"');
    expect(JSON.stringify(r.out.changes)).toMatch(/Hello world, typed here/);
    await h.cli({ tab, steps: [{ frame: 'top' }] });
    expect(await h.value(tab, 'tinymce.activeEditor.getContent()')).toBe('<p>Hello world, typed here</p>');
    // TinyMCE's iframe is of the page's own origin (the page reads its document): not told as cross-origin.
    expect(await h.value(tab, 'document.querySelector("iframe.tox-edit-area__iframe").contentDocument !== null')).toBe(
      true,
    );
    expect(r.out.steps[0].output.crossOrigin).toBeUndefined();
  });

  it('types from the top page into the editor a click put focus in, and names the editor as what took the keys', async () => {
    const tab = await openReady('tinymce.html', 'window.tinymce?.activeEditor?.initialized');
    const r = await h.cli({
      tab,
      steps: [{ click: { selector: 'iframe.tox-edit-area__iframe' } }, { press: 'Control+End' }, { type: '!' }],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    // A trusted click, received inside the frame: no element.click() fallback on the <iframe>.
    expect(r.out.steps[0].output).toMatchObject({ method: 'cdp', targetReceived: true });
    expect(r.out.steps[2].output.target).toBe('textbox "Rich Text Area"');
    expect(JSON.stringify(r.out.changes)).toMatch(/Hello!/);
    expect(await h.value(tab, 'tinymce.activeEditor.getContent()')).toBe('<p>Hello!</p>');
  });
});
