// Dragging as a person does, judged by its effect: real SortableJS lists (native and mouse
// fallback), a mouse-event list, native HTML5 drop zones, a range slider — each drag happens once,
// and a drag the page ignores is reported as such, never as a success.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const events = (tab: string): Promise<string[]> => h.value(tab, 'window.__events');
const texts = (tab: string, selector: string): Promise<string[]> =>
  h.value(
    tab,
    `[...document.querySelectorAll(${JSON.stringify(selector)})].map((e) => e.firstChild.textContent.trim())`,
  );
const box = (tab: string, selector: string): Promise<{ left: number; top: number; width: number; height: number }> =>
  h.value(
    tab,
    `(({ left, top, width, height }) => ({ left, top, width, height }))(document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect())`,
  );

describe('drag: sortable lists', () => {
  it('reorders a SortableJS list in its default native HTML5 mode, with trusted drag events', async () => {
    const tab = await h.open('drag-sortable.html');
    const r = await h.cli({
      tab,
      steps: [{ drag: { source: '#native li:nth-child(1)', target: '#native li:nth-child(3)' } }],
    });
    expect(r.out.status).toBe('ok');
    expect(r.out.steps[0].output).toEqual({
      dragged: true,
      method: 'html5',
      source: 'li "A1"',
      target: 'li "A3"',
      steps: 10,
      dropped: true,
    });
    expect(await texts(tab, '#native li')).toEqual(['A2', 'A3', 'A1', 'A4']);
    expect(await events(tab)).toEqual(['native:0>2']);
  });

  it('reorders a SortableJS list in its mouse-event fallback mode', async () => {
    const tab = await h.open('drag-sortable.html');
    const r = await h.cli({
      tab,
      steps: [{ drag: { source: '#fallback li:nth-child(1)', target: '#fallback li:nth-child(3)' } }],
    });
    expect(r.out.steps[0].output).toEqual({
      dragged: true,
      method: 'mouse',
      source: 'li "B1"',
      target: 'li "B3"',
      steps: 10,
      dropped: true,
    });
    expect(await texts(tab, '#fallback li')).toEqual(['B2', 'B3', 'B1', 'B4']);
    expect(await events(tab)).toEqual(['fallback:0>2']);
  });

  it('reorders a list driven only by mousedown/mousemove/mouseup, moving through intermediate points', async () => {
    const tab = await h.open('drag-mouse.html');
    const r = await h.cli({
      tab,
      steps: [{ drag: { source: '#list li:nth-child(1)', target: '#list li:nth-child(3)', steps: 5 } }],
    });
    expect(r.out.steps[0].output).toEqual({
      dragged: true,
      method: 'mouse',
      source: 'li "One"',
      target: 'li "Three"',
      steps: 5,
      dropped: true,
    });
    expect(await texts(tab, '#list li')).toEqual(['Two', 'Three', 'One', 'Four']);
    expect((await events(tab)).filter((e) => !e.startsWith('input'))).toEqual([
      'mousedown:1',
      'start:1',
      'drop:1:moved',
    ]);
  });

  it('takes refs from a snapshot for both ends, and offsets from the centre', async () => {
    const tab = await h.open('drag-mouse.html');
    const snap = await h.cli({ tab, steps: [{ snapshot: true }] });
    const ref = (name: string): string =>
      new RegExp(`"${name}" \\[ref=(s\\d+e\\d+)\\]`).exec(snap.out.steps[0].output.yaml)![1]!;
    // 10px above the centre of "One" is its upper half: "Four" goes before it.
    const r = await h.cli({
      tab,
      steps: [{ drag: { source: ref('Four'), target: { ref: ref('One'), offsetY: -10 } } }],
    });
    expect(r.out.steps[0].output).toMatchObject({
      dragged: true,
      method: 'mouse',
      source: 'li "Four"',
      target: 'li "One"',
      dropped: true,
    });
    expect(await texts(tab, '#list li')).toEqual(['Four', 'One', 'Two', 'Three']);
  });
});

describe('drag: HTML5 drag and drop', () => {
  it('drops a draggable card into a zone with trusted events, dragstart…dragend exactly once', async () => {
    const tab = await h.open('drag-html5.html');
    const r = await h.cli({ tab, steps: [{ drag: { source: '#card-a', target: '#done' } }] });
    expect(r.out.steps[0].output).toEqual({
      dragged: true,
      method: 'html5',
      source: 'div#card-a.card "Card A (a)"',
      target: 'div#done.zone "Done"',
      steps: 10,
      dropped: true,
    });
    expect(await h.value(tab, '[...document.querySelectorAll("#done .card")].map((c) => c.id)')).toEqual(['card-a']);
    expect(await events(tab)).toEqual(['dragstart:a:true', 'dragenter', 'dragover', 'drop:a:true', 'dragend:a:move']);
  });

  it('says so when the zone does not accept the drop, and the card stays', async () => {
    const tab = await h.open('drag-html5.html');
    const r = await h.cli({ tab, steps: [{ drag: { source: '#card-b', target: '#inert', method: 'html5' } }] });
    expect(r.out.status).toBe('ok');
    expect(r.out.steps[0].output).toMatchObject({ dragged: true, method: 'html5', dropped: false });
    expect(r.out.steps[0].warning).toBe(
      'no drop event fired: div#inert.zone "Archive" did not accept the drop (its dragover handler must call preventDefault)',
    );
    expect(await h.value(tab, 'document.querySelector("#card-b").parentElement.id')).toBe('pool');
    // On its way the card crossed the Done zone, as a hand would.
    expect(await events(tab)).toEqual(['dragstart:b:true', 'dragenter', 'dragover', 'dragend:b:none']);
  });

  it('falls back to synthesized DragEvents for html5 from an element Chrome cannot drag, and says so', async () => {
    const tab = await h.open('drag-html5.html');
    const r = await h.cli({ tab, steps: [{ drag: { source: '#card-c', target: '#done', method: 'html5' } }] });
    expect(r.out.steps[0].output).toMatchObject({ dragged: true, method: 'html5', synthetic: true, dropped: true });
    expect(r.out.steps[0].warning).toMatch(/is not draggable.*synthesized DragEvents \(isTrusted false\)/);
    expect(await events(tab)).toEqual(['dragstart:c:false', 'dragenter', 'dragover', 'drop:c:false', 'dragend:c:none']);
  });
});

describe('drag: ends far apart', () => {
  it('scrolls so that both ends are on screen when they fit together', async () => {
    const tab = await h.open('drag-html5.html');
    expect(await h.value(tab, 'document.querySelector("#later").getBoundingClientRect().bottom > innerHeight')).toBe(
      true,
    );
    const r = await h.cli({ tab, steps: [{ drag: { source: '#card-a', target: '#later' } }] });
    expect(r.out.steps[0].output).toMatchObject({ method: 'html5', dropped: true });
    expect(await h.value(tab, 'document.querySelector("#card-a").parentElement.id')).toBe('later');
  });

  it('refuses, without moving anything, when the ends cannot be on screen together', async () => {
    const tab = await h.open('drag-html5.html');
    const r = await h.cli({ tab, steps: [{ drag: { source: '#card-a', target: '#far' } }] });
    expect(r.out.steps[0].status).toBe('error');
    expect(r.out.steps[0].error).toMatch(
      /^Cannot drag div#card-a\.card "Card A \(a\)" to div#far\.zone "Far away": the drag (source|target) \(.*\) is outside the \d+×\d+ viewport/,
    );
    expect(await events(tab)).toEqual([]);
  });
});

describe('drag: range inputs and coordinates', () => {
  it('sets a slider from the target x, firing input and change', async () => {
    const tab = await h.open('drag-mouse.html');
    const b = await box(tab, '#vol');
    const r = await h.cli({
      tab,
      steps: [
        {
          drag: {
            source: '#vol',
            target: { x: Math.round(b.left + b.width * 0.75), y: Math.round(b.top + b.height / 2) },
          },
        },
      ],
    });
    expect(r.out.steps[0].output).toMatchObject({ dragged: true, method: 'range', source: 'input#vol', value: '75' });
    expect(await events(tab)).toEqual(['input:75', 'change:75']);
  });

  it('drags a slider found by coordinates to an offset of itself', async () => {
    const tab = await h.open('drag-mouse.html');
    const b = await box(tab, '#vol');
    const at = { x: Math.round(b.left + b.width / 2), y: Math.round(b.top + b.height / 2) };
    const r = await h.cli({ tab, steps: [{ drag: { source: at, target: { selector: '#vol', offsetX: -50 } } }] });
    expect(r.out.steps[0].output).toMatchObject({ method: 'range', source: `(${at.x}, ${at.y})`, value: '25' });
    expect(await h.value(tab, 'document.querySelector("#vol").value')).toBe('25');
  });
});

describe('drag: range with a real mouse', () => {
  it('moves a slider thumb with trusted mouse events when asked for the mouse, reporting the value it took', async () => {
    const tab = await h.open('drag-mouse.html');
    const r = await h.cli({
      tab,
      steps: [{ drag: { source: '#vol', target: { selector: '#vol', offsetX: 60 }, method: 'mouse' } }],
    });
    const out = r.out.steps[0].output;
    expect(out).toMatchObject({ dragged: true, method: 'mouse', dropped: true });
    const value = await h.value(tab, 'document.querySelector("#vol").value');
    expect(out.value).toBe(value);
    expect(Number(value)).toBeGreaterThan(75);
    const evs = await events(tab);
    expect(evs.filter((e) => e.startsWith('change'))).toEqual([`change:${value}`]);
    expect(evs.filter((e) => e.startsWith('input')).length).toBeGreaterThan(2);
  });
});

describe('drag: failures', () => {
  it('fails fast with ElementNotFoundError when the source does not exist', async () => {
    const tab = await h.open('drag-mouse.html');
    const r = await h.cli({ tab, steps: [{ drag: { source: '#nope', target: '#inert', timeout: 300 } }] });
    expect(r.out.steps[0]).toMatchObject({ status: 'error', errorType: 'ElementNotFoundError' });
    expect(r.out.steps[0].error).toMatch(/No element matches "#nope" \(waited \d+ms\)/);
    expect(r.ms).toBeLessThan(5_000);
  });

  it('refuses to move a disabled slider', async () => {
    const tab = await h.open('drag-mouse.html');
    const r = await h.cli({
      tab,
      steps: [{ drag: { source: '#locked', target: { selector: '#locked', offsetX: 50 }, timeout: 300 } }],
    });
    expect(r.out.steps[0].status).toBe('error');
    expect(r.out.steps[0].error).toMatch(/^input#locked is disabled \(waited \d+ms\)/);
    expect(await h.value(tab, 'document.querySelector("#locked").value')).toBe('10');
  });

  it('reports a mouse drag onto something that ignores it as not dropped', async () => {
    const tab = await h.open('drag-mouse.html');
    const r = await h.cli({ tab, steps: [{ drag: { source: 'h1', target: '#inert' } }] });
    expect(r.out.status).toBe('ok');
    expect(r.out.steps[0].output).toMatchObject({ dragged: true, method: 'mouse', dropped: false });
    expect(r.out.steps[0].warning).toMatch(
      /^nothing changed: h1 "Tasks" did not move and div#inert "Nothing happens here" did not change/,
    );
  });

  it('rejects a drag without a target before anything runs', async () => {
    const tab = await h.open('drag-mouse.html');
    const r = await h.cli({ tab, steps: [{ drag: { source: '#vol' } }] });
    expect(r.out.status).toBe('error');
    expect(JSON.stringify(r.out)).toMatch(/drag needs \\"target\\"/);
  });
});
