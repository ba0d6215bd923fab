// Snapshots that show the choices (issue 13): an antd-style radio group's radios, clickable calendar
// cells (a plain table and flatpickr), sliders' min/max/step, a same-origin iframe's content under
// its frame, a popup portal outside <main>; one YAML per answer; context.scroll names the container
// that moved and activeElement looks inside frames. Oracles: the page's own state after acting on
// the refs the snapshot gave.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let tab: string;
beforeAll(async () => {
  h = await startHarness();
  tab = await h.open('choices.html');
});
afterAll(async () => {
  await h?.close();
});

const snapshot = async (): Promise<string> =>
  (await h.cli({ tab, steps: [{ snapshot: true }] })).out.steps[0].output.yaml;
const refOf = (yaml: string, line: RegExp): string => {
  const hit = yaml.split('\n').find((l) => line.test(l));
  if (!hit) throw new Error(`no line matching ${line} in\n${yaml}`);
  return /\[ref=(s\d+e\d+)\]/.exec(hit)![1]!;
};

describe('snapshots that show the choices', () => {
  beforeEach(async () => {
    await h.cli({ tab, steps: [{ goto: `${h.baseUrl}/choices.html` }] });
  });

  it('shows each radio of a radio group with a ref that picks it', async () => {
    const yaml = await snapshot();
    expect(yaml).toMatch(
      /radiogroup "Size":\n\s+- radio "Small" \[checked\][^\n]*\[ref=s\d+e\d+\]\n\s+- radio "Medium"/,
    );
    await h.cli({ tab, steps: [{ click: refOf(yaml, /radio "Medium"/) }] });
    expect(await h.value(tab, 'document.querySelector("input[value=medium]").checked')).toBe(true);
  });

  it('gives clickable calendar cells refs: a plain table of days and flatpickr', async () => {
    const yaml = await snapshot();
    expect(yaml).toMatch(/row "1 2 3":\n\s+- cell "1" \[ref=s\d+e\d+\]/);
    await h.cli({ tab, steps: [{ click: refOf(yaml, /cell "2"/) }, { click: refOf(yaml, /"January 15, 2024"/) }] });
    expect(await h.value(tab, 'window.picked')).toEqual(['2024-01-02', ['2024-01-15']].flat());
  });

  it("shows a slider's min, max and step as the page defines them", async () => {
    const yaml = await snapshot();
    const page = await h.value(
      tab,
      '["min", "max", "step"].map((a) => document.getElementById("vol").getAttribute(a))',
    );
    expect(yaml).toContain(`slider "Volume" [min=${page[0]}] [max=${page[1]}] [step=${page[2]}]`);
    expect(yaml).toMatch(/slider "Balance" \[min=-10\] \[max=10\]/);
  });

  it("shows a same-origin iframe's content under its frame, with refs that act in it", async () => {
    const yaml = await snapshot();
    expect(yaml).toMatch(
      /- iframe:\n\s+- textbox "Card holder" \[ref=s\d+e\d+\][^\n]*\n\s+- button "Pay" \[ref=s\d+e\d+\]/,
    );
    await h.cli({ tab, steps: [{ click: refOf(yaml, /button "Pay"/) }] });
    expect(
      await h.value(tab, 'document.getElementById("inner").contentDocument.getElementById("pay").textContent'),
    ).toBe('Paid');
  });

  it('shows a popup rendered outside <main>, and returns its YAML once', async () => {
    const r = await h.cli({ tab, steps: [{ click: '#open' }, { snapshot: true }] });
    const yaml = r.out.steps[1].output.yaml;
    expect(yaml).toMatch(
      /- listbox "Fruits" \[ref=s\d+e\d+\]:\n\s+- option "Apple" \[ref=s\d+e\d+\]\n\s+- option "Banana"/,
    );
    expect(r.out.viewportSnapshot).toBeUndefined();
    expect(r.out.screenshot).toBeTruthy();
  });
});

describe('context after acting', () => {
  it('reports the container that scrolled, as the page measures it', async () => {
    const t = await h.open('effects.html');
    const r = await h.cli({ tab: t, steps: [{ scroll: { container: '#box', deltaY: 100 } }] });
    const top = await h.value(t, 'document.getElementById("box").scrollTop');
    expect(top).toBeGreaterThan(0);
    expect(r.out.context.scroll).toMatchObject({ y: top, scroller: '#box' });
    expect(r.out.screenshot).toBeTruthy();
  });

  it('names the focused element inside a same-origin frame', async () => {
    const t = await h.open('effects.html');
    const r = await h.cli({ tab: t, steps: [{ frame: '#inner' }, { click: 'body' }, { frame: 'top' }] });
    expect(await h.value(t, 'document.getElementById("inner").contentDocument.hasFocus()')).toBe(true);
    expect(r.out.context.activeElement).toMatchObject({ tag: 'body', frame: '#inner', editable: true });
  });
});
