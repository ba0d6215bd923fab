// choose {field, date} (issue 23 item 3) on the real date-picker libraries: each test reads the
// picker's own state — flatpickr's selectedDates, the app's React state rendered as text, the form's
// values as the fixture server received them — over the test's own CDP socket or HTTP, never our
// answer alone. Navigation is counted by the picker's own month-change handler (window.__months).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdpTo, closeChrome, freePort, startHarness, type Harness } from './harness.js';

let h: Harness;
const tabs: Record<string, string> = {};
beforeAll(async () => {
  h = await startHarness();
  // The fixture server bundles each app on its first request: all at once, before the first page needs one.
  await Promise.all(['mui', 'antd', 'day-picker'].map((b) => fetch(`${h.baseUrl}/bundle/dates-${b}.js`)));
}, 180_000);
afterAll(async () => {
  await h?.close();
});

/** Opens `dates-<page>.html` once and waits for `ready`; the tab's alias. */
async function page(name: string, ready = 'main'): Promise<string> {
  if (!tabs[name]) {
    const url = `${h.baseUrl}/dates-${name}.html`;
    const r = await h.cli({
      steps: [{ openTab: { url, port: h.port } }, { wait: { selector: ready }, timeout: 30_000 }],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    tabs[name] = r.out.tab;
  }
  return tabs[name]!;
}

/** A page expression's value read over this test's own CDP socket (the oracle). */
async function pageValue(name: string, expression: string): Promise<any> {
  const client = await cdpTo(h.port, (t) => t.type === 'page' && t.url.includes(`dates-${name}.html`));
  try {
    return await client.value(expression);
  } finally {
    client.close();
  }
}

async function choose(name: string, params: Record<string, unknown>, ready?: string) {
  const tab = await page(name, ready);
  const r = await h.cli({ tab, steps: [{ choose: params }] });
  return { r, step: r.out.steps?.[0], output: r.out.steps?.[0]?.output };
}

/** Each month from April 2026 to May 2027, in order: what 14 presses of a next-month control show. */
const APRIL_2026_TO_MAY_2027 = Array.from({ length: 14 }, (_, i) =>
  new Date(Date.UTC(2026, 3 + i, 1)).toISOString().slice(0, 7),
);

/** flatpickr's own selected days, as YYYY-MM-DD. */
const fpDays = (picker: string) =>
  pageValue('flatpickr', `window.pickers.${picker}.selectedDates.map((d) => pickers.${picker}.formatDate(d, 'Y-m-d'))`);

describe('flatpickr', () => {
  it('picks a day in the month it opens on', async () => {
    const { r, output } = await choose('flatpickr', { field: 'Check-in', date: '2026-03-12' });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await fpDays('checkin')).toEqual(['2026-03-12']);
    expect(output).toMatchObject({ chosen: ['2026-03-12'], shows: '2026-03-12', via: 'calendar' });
    expect(await pageValue('flatpickr', 'window.__months.checkin')).toEqual([]);
  });

  it('goes 14 months ahead by its own next-month button, one month at a time', async () => {
    const { r, output } = await choose('flatpickr', { field: 'Check-in', date: '2027-05-14' });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await fpDays('checkin')).toEqual(['2027-05-14']);
    // The picker's own onMonthChange ran 14 times, a month at a time.
    expect(await pageValue('flatpickr', 'window.__months.checkin')).toEqual(APRIL_2026_TO_MAY_2027);
    expect(output.shows).toBe('2027-05-14');
  });

  it('refuses a disabled day, saying so, and leaves the field as it was', async () => {
    const { r, step } = await choose('flatpickr', { field: 'Check-in', date: '2026-03-20' });
    expect(r.out.status).toBe('error');
    expect(step.error).toMatch(/disabled|refuse|not available/i);
    expect(await fpDays('checkin')).toEqual(['2027-05-14']);
    // The calendar the step opened is closed again (flatpickr's own isOpen).
    expect(await pageValue('flatpickr', 'window.pickers.checkin.isOpen')).toBe(false);
  });

  it('picks a range in a range picker', async () => {
    const { r, output } = await choose('flatpickr', { field: 'Stay', date: ['2026-03-12', '2026-03-15'] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await fpDays('stay')).toEqual(['2026-03-12', '2026-03-15']);
    expect(output).toMatchObject({ chosen: ['2026-03-12', '2026-03-15'], via: 'calendar' });
    expect(output.shows).toBe(await pageValue('flatpickr', 'document.getElementById("stay").value'));
  });

  it('finds the visible alt input of a labelled hidden field, and answers what it shows', async () => {
    const { r, output } = await choose('flatpickr', { field: 'Departure', date: '2026-04-02' });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await fpDays('departure')).toEqual(['2026-04-02']);
    expect(output.shows).toBe('April 2, 2026');
  });
});

describe('flatpickr, far and unreadable', () => {
  it('jumps years by typing in its own year box, then takes the day', async () => {
    const { r, output } = await choose('flatpickr', { field: 'Departure', date: '2031-07-04' });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await fpDays('departure')).toEqual(['2031-07-04']);
    // flatpickr's own onYearChange ran for 2031 (its year box), not five years of month presses.
    expect(await pageValue('flatpickr', 'window.__years.departure')).toContain('2031-04');
    expect(output.turns).toBeLessThan(12);
  });

  it('refuses a year its year box does not take, at once, and leaves the field as it was', async () => {
    const { r, step } = await choose('flatpickr', { field: 'Check-in', date: '2031-03-12' });
    expect(r.out.status).toBe('error');
    expect(step).toMatchObject({ category: 'disabled' });
    expect(step.error).toContain('refuses 2031-03-12');
    expect(await fpDays('checkin')).toEqual(['2027-05-14']);
    expect(await pageValue('flatpickr', 'window.pickers.checkin.isOpen')).toBe(false);
  });

  it('fails on a field that opens no calendar, saying what it saw, with a runnable next step', async () => {
    const { r, step } = await choose('flatpickr', { field: 'Note', date: '2026-03-12' });
    expect(r.out.status).toBe('error');
    expect(step.error).toMatch(/No calendar .* appeared .*Seen instead/);
    expect(step.nextStep).toEqual({ snapshot: true });
    expect(await pageValue('flatpickr', 'document.getElementById("note").value')).toBe('');
  });
});

describe('native <input type=date>', () => {
  it('types the day into its sections, and the form posts it', async () => {
    const a = await choose('native', { field: 'Check-in', date: '2026-03-12' });
    expect(a.r.out.status, a.r.stdout).toBe('ok');
    expect(a.output).toMatchObject({ chosen: ['2026-03-12'], via: 'keys' });
    const b = await choose('native', { field: 'Check-out', date: '2027-05-14' });
    expect(b.r.out.status, b.r.stdout).toBe('ok');
    const tab = await page('native');
    const r = await h.cli({ tab, steps: [{ click: { text: 'Book' } }, { wait: { text: 'Booked' } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    const sent = await (await fetch(`${h.baseUrl}/dates/submitted`)).json();
    expect(sent).toEqual({ checkin: '2026-03-12', checkout: '2027-05-14' });
  });

  it('types day first in a French Chrome (its locale order read from the input), and the form posts the day', async () => {
    // Chromium on Linux takes its locale from LANGUAGE: a second browser, French, for this case only.
    const fr = { LANGUAGE: 'fr', LANG: 'fr_FR.UTF-8' };
    const port = await freePort();
    try {
      const url = `${h.baseUrl}/dates-native.html`;
      const launch = await h.cli({ steps: [{ chromeStatus: { port } }] }, { env: fr });
      expect(launch.out.status, launch.stdout).toBe('ok');
      const open = await h.cli({ steps: [{ openTab: { url, port } }] });
      expect(open.out.status, open.stdout).toBe('ok');
      const r = await h.cli({
        tab: open.out.tab,
        steps: [
          { choose: { field: 'Check-in', date: '2026-03-12' } },
          { click: { text: 'Book' } },
          { wait: { text: 'Booked' } },
        ],
      });
      expect(r.out.status, r.stdout).toBe('ok');
      expect(r.out.steps[0].output).toMatchObject({ chosen: ['2026-03-12'], shows: '12/03/2026', via: 'keys' });
      const sent = await (await fetch(`${h.baseUrl}/dates/submitted`)).json();
      expect(sent.checkin).toBe('2026-03-12');
    } finally {
      await closeChrome(port);
    }
  }, 60_000);

  it('refuses a day outside min/max, saying so', async () => {
    await h.cli({ tab: await page('native'), steps: [{ goto: `${h.baseUrl}/dates-native.html` }] });
    const { r, step } = await choose('native', { field: 'Check-in', date: '2029-01-01' });
    expect(r.out.status).toBe('error');
    expect(step.error).toMatch(/invalid|refuse|range|max/i);
    // One native input holds one day: a range is refused before any key, and the input stays empty.
    const range = await choose('native', { field: 'Check-in', date: ['2026-03-12', '2026-03-15'] });
    expect(range.r.out.status).toBe('error');
    expect(range.step.error).toContain('holds one day');
    expect(await pageValue('native', 'document.getElementById("checkin").value')).toBe('');
  });
});

/** The app's own state for a picker: the JSON its <output id="state-…"> shows. */
async function appState(name: string, field: string): Promise<any> {
  return JSON.parse(await pageValue(name, `document.getElementById('state-${field}').textContent`));
}

describe('MUI X DatePicker', () => {
  it('picks a day in the month it opens on', async () => {
    const { r, output } = await choose('mui', { field: 'Check-in', date: '2026-03-12' }, 'main');
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await appState('mui', 'checkin')).toBe('2026-03-12');
    expect(output).toMatchObject({ chosen: ['2026-03-12'], shows: '03/12/2026' });
    expect(['calendar', 'keys']).toContain(output.via);
  });

  it('goes 14 months ahead, each month shown by its own handler', async () => {
    const { r, output } = await choose('mui', { field: 'Check-in', date: '2027-05-14' });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await appState('mui', 'checkin')).toBe('2027-05-14');
    // MUI's own onMonthChange ran for each month on the way (the first pick stayed in March).
    expect(await pageValue('mui', 'window.__months.checkin')).toEqual(APRIL_2026_TO_MAY_2027);
    expect(output.turns).toBe(14);
  });

  it('refuses a disabled day, and the app keeps its value', async () => {
    const { r, step } = await choose('mui', { field: 'Check-in', date: '2026-03-20' });
    expect(r.out.status).toBe('error');
    expect(step.error).toMatch(/disabled|refuse|invalid/i);
    expect(await appState('mui', 'checkin')).toBe('2027-05-14');
    expect(await pageValue('mui', 'document.querySelectorAll("[role=dialog]").length')).toBe(0);
  });

  it('reaches a far year (1985) in the desktop variant', async () => {
    const { r, output } = await choose('mui', { field: 'Birthday', date: '1985-11-03' });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await appState('mui', 'birthday')).toBe('1985-11-03');
    expect(output.shows).toBe('11/03/1985');
  });
});

describe('antd DatePicker', () => {
  it('picks a day in the month it opens on', async () => {
    const { r, output } = await choose('antd', { field: 'Check-in', date: '2026-03-12' }, 'main');
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await appState('antd', 'checkin')).toBe('2026-03-12');
    expect(output).toMatchObject({ chosen: ['2026-03-12'], shows: '2026-03-12', via: 'calendar' });
  });

  it('goes 14 months ahead by its own buttons', async () => {
    const { r } = await choose('antd', { field: 'Check-in', date: '2027-05-14' });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await appState('antd', 'checkin')).toBe('2027-05-14');
    // antd's own onPanelChange ran for each month on the way.
    expect(await pageValue('antd', 'window.__months.checkin')).toEqual(APRIL_2026_TO_MAY_2027);
  });

  it('refuses a disabled day, and the app keeps its value', async () => {
    const { r, step } = await choose('antd', { field: 'Check-in', date: '2026-03-20' });
    expect(r.out.status).toBe('error');
    expect(step.error).toMatch(/disabled|refuse/i);
    expect(await appState('antd', 'checkin')).toBe('2027-05-14');
    const open = '.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)';
    expect(await pageValue('antd', `document.querySelectorAll('${open}').length`)).toBe(0);
  });

  it('picks a range in a RangePicker', async () => {
    const { r, output } = await choose('antd', { field: 'Stay', date: ['2026-03-12', '2026-03-15'] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await appState('antd', 'stay')).toEqual(['2026-03-12', '2026-03-15']);
    expect(output.chosen).toEqual(['2026-03-12', '2026-03-15']);
  });
});

describe('react-day-picker', () => {
  it('picks a day in the month it opens on', async () => {
    const { r, output } = await choose('day-picker', { field: 'Check-in', date: '2026-03-12' }, 'main');
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await appState('day-picker', 'checkin')).toBe('2026-03-12');
    expect(output).toMatchObject({ shows: 'March 12, 2026', via: 'calendar' });
    expect(await pageValue('day-picker', 'window.__months?.checkin ?? []')).toEqual([]);
  });

  it('goes 14 months ahead by its own next-month button, one month at a time', async () => {
    const { r } = await choose('day-picker', { field: 'Check-in', date: '2027-05-14' });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await appState('day-picker', 'checkin')).toBe('2027-05-14');
    expect(await pageValue('day-picker', 'window.__months.checkin')).toEqual(APRIL_2026_TO_MAY_2027);
  });

  it('refuses a disabled day', async () => {
    const { r, step } = await choose('day-picker', { field: 'Check-in', date: '2026-03-20' });
    expect(r.out.status).toBe('error');
    expect(step.error).toMatch(/disabled|refuse/i);
    expect(await appState('day-picker', 'checkin')).toBe('2027-05-14');
    expect(await pageValue('day-picker', 'document.querySelectorAll("[role=dialog]").length')).toBe(0);
  });

  it('picks a range across its two months', async () => {
    const { r } = await choose('day-picker', { field: 'Stay', date: ['2026-03-28', '2026-04-03'] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await appState('day-picker', 'stay')).toEqual(['2026-03-28', '2026-04-03']);
  });
});
