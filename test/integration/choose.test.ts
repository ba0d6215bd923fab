// The choose step (issue 23 item 1) on the real libraries: each test reads the widget's own state —
// the app's React state rendered as text, the element's value, the form's values as the fixture
// server received them — over the test's own CDP socket or HTTP, never our answer alone, and checks
// that the answer's `chosen`/`shows` agree with it. Failures: an option not found (near matches, a
// runnable nextStep), same-named options without their secondary text, a disabled option.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdpTo, startHarness, type Harness } from './harness.js';

let h: Harness;
const tabs: Record<string, string> = {};
beforeAll(async () => {
  h = await startHarness();
  // The fixture server bundles each app on its first request: all at once, before the first page needs one.
  await Promise.all(
    ['mui', 'antd', 'radix', 'headless', 'react-select'].map((b) => fetch(`${h.baseUrl}/bundle/choose-${b}.js`)),
  );
}, 120_000);
afterAll(async () => {
  await h?.close();
});

/** Opens `choose-<page>.html` once and waits for its app; the tab's alias. */
async function page(name: string, ready = 'main'): Promise<string> {
  if (!tabs[name]) {
    // Opened and waited for in one command, as agents do.
    const url = `${h.baseUrl}/choose-${name}.html`;
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
  const client = await cdpTo(h.port, (t) => t.type === 'page' && t.url.includes(`choose-${name}.html`));
  try {
    return await client.value(expression);
  } finally {
    client.close();
  }
}

/** The app's own state for a field: the JSON its <output id="state-…"> shows. */
async function appState(name: string, field: string): Promise<any> {
  return JSON.parse(await pageValue(name, `document.getElementById('state-${field}').textContent`));
}

async function choose(name: string, params: Record<string, unknown>) {
  const tab = await page(name);
  const r = await h.cli({ tab, steps: [{ choose: params }] });
  return { r, step: r.out.steps?.[0], output: r.out.steps?.[0]?.output };
}

describe('MUI', () => {
  it('chooses in a Select, and the answer says what the app now holds', async () => {
    const { r, output } = await choose('mui', { field: { label: 'Status' }, option: 'Paused' });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await appState('mui', 'status')).toBe('paused');
    expect(output).toMatchObject({ chosen: ['Paused'], shows: 'Paused', field: 'combobox "Status"' });
    expect(r.out.changes.summary).toMatch(/^Chose\./);
  });

  it('fails on two same-named options, listing both, and takes the one named with its secondary text', async () => {
    const bad = await choose('mui', { field: { label: 'Customer' }, option: 'Northwind Traders' });
    expect(bad.r.out.status).toBe('error');
    expect(bad.step.error).toContain('Northwind Traders \u2014 C-1043 \u00b7 active');
    expect(bad.step.error).toContain('Northwind Traders \u2014 C-2210 \u00b7 closed');
    expect(await appState('mui', 'customer')).toBeNull();
    expect(await pageValue('mui', 'document.querySelectorAll("[role=listbox]").length')).toBe(0); // closed again
    const good = await choose('mui', {
      field: { label: 'Customer' },
      option: 'Northwind Traders \u2014 C-2210 \u00b7 closed',
    });
    expect(good.r.out.status, good.r.stdout).toBe('ok');
    expect(await appState('mui', 'customer')).toBe('C-2210');
    expect(good.output).toMatchObject({ chosen: ['Northwind Traders'], shows: 'Northwind Traders' });
  });

  it('picks several options of a multiple Autocomplete', async () => {
    const { r, output } = await choose('mui', { field: { label: 'Tags' }, options: ['Billing', 'Sales'] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await appState('mui', 'tags')).toEqual(['Billing', 'Sales']);
    expect(output).toMatchObject({ chosen: ['Billing', 'Sales'], shows: 'Billing, Sales' });
  });

  it('waits for options loaded when the list opens ("Loading…")', async () => {
    const { r, output } = await choose('mui', { field: { label: 'Country' }, option: 'Peru' });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await appState('mui', 'country')).toBe('Peru');
    expect(output.shows).toBe('Peru');
  });

  it('types into a search whose options exist only once typed', async () => {
    const { r, output } = await choose('mui', { field: { label: 'City' }, option: 'Porto Alegre' });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await appState('mui', 'city')).toBe('Porto Alegre');
    expect(output).toMatchObject({ chosen: ['Porto Alegre'], shows: 'Porto Alegre', typed: 'Porto Alegre' });
  });

  it('fails on a disabled option, and the app keeps its value', async () => {
    const { r, step } = await choose('mui', { field: { label: 'Status' }, option: 'Deleted' });
    expect(r.out.status).toBe('error');
    expect(step.error).toMatch(/"Deleted" is disabled/);
    expect(await appState('mui', 'status')).toBe('paused');
  });

  it('fails on an option not there with the options seen, nearest first, and a nextStep that runs', async () => {
    const { r, step } = await choose('mui', { field: { label: 'Status' }, option: 'Archivd' });
    expect(r.out.status).toBe('error');
    expect(step.error).toMatch(/No option matches "Archivd"\. Options seen, nearest first: "Archived"/);
    expect(step.nextStep).toEqual({ choose: { field: { label: 'Status' }, option: 'Archived' } });
    const again = await h.cli({ tab: tabs.mui, steps: [step.nextStep] });
    expect(again.out.status, again.stdout).toBe('ok');
    expect(await appState('mui', 'status')).toBe('archived');
  });
});

describe('antd', () => {
  it('chooses Location (a three-level Cascader) and Time zone (a virtualised list), then saves', async () => {
    const tab = await page('antd');
    const r = await h.cli({
      tab,
      steps: [
        { choose: { field: { label: 'Location' }, option: ['South America', 'Argentina', 'Ushuaia'] } },
        { choose: { field: 'Time zone', option: 'America/Argentina/Ushuaia' } },
        { click: { text: 'Save' } },
      ],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    const [location, zone] = r.out.steps.map((s: { output: unknown }) => s.output);
    expect(location).toMatchObject({
      chosen: ['South America', 'Argentina', 'Ushuaia'],
      shows: 'South America / Argentina / Ushuaia',
    });
    expect(zone).toMatchObject({ chosen: ['America/Argentina/Ushuaia'], shows: 'America/Argentina/Ushuaia' });
    expect(zone.scrolled).toBeGreaterThan(0); // only the rows in view were rendered
    await expect.poll(() => pageValue('antd', 'document.getElementById("saved").textContent')).toBe('Saved office');
    const saved = await (await fetch(`${h.baseUrl}/choose/submitted?form=office`)).json();
    expect(saved.values).toEqual({
      location: ['sa', 'ar', 'ushuaia'],
      timezone: 'America/Argentina/Ushuaia',
      plan: 'Basic',
    });
  });

  it('chooses in a Segmented control, a searchable Select and a multiple Select', async () => {
    const plan = await choose('antd', { field: { label: 'Plan' }, option: 'Enterprise' });
    expect(plan.r.out.status, plan.r.stdout).toBe('ok');
    expect((await appState('antd', 'office')).plan).toBe('Enterprise');
    expect(plan.output.shows).toBe('Enterprise');
    const who = await choose('antd', { field: { label: 'Assignee' }, option: 'Grace Hopper' });
    expect(who.r.out.status, who.r.stdout).toBe('ok');
    expect(await appState('antd', 'assignee')).toBe('Grace Hopper');
    const many = await choose('antd', { field: { label: 'Watchers' }, options: ['Alan Turing', 'Ken Thompson'] });
    expect(many.r.out.status, many.r.stdout).toBe('ok');
    expect(await appState('antd', 'watchers')).toEqual(['Alan Turing', 'Ken Thompson']);
    expect(many.output.shows).toBe('Alan Turing, Ken Thompson');
  });

  it('fails on a disabled option and a misspelt city, leaving the values as they were', async () => {
    const east = await choose('antd', { field: { label: 'Region' }, option: 'East' });
    expect(east.step.error).toMatch(/"East" is disabled/);
    expect(await appState('antd', 'region')).toBeNull();
    const city = await choose('antd', { field: { label: 'Location' }, option: ['Europe', 'Spain', 'Sevilla'] });
    expect(city.step.error).toMatch(/No option matches "Sevilla"\. Options seen, nearest first: "Seville"/);
    expect(city.step.nextStep).toEqual({
      choose: { field: { label: 'Location' }, option: ['Europe', 'Spain', 'Seville'] },
    });
    expect((await appState('antd', 'office')).location).toEqual(['sa', 'ar', 'ushuaia']);
  });
});

describe('Radix', () => {
  it('chooses in a Select that opens on pointerdown', async () => {
    const { r, output } = await choose('radix', { field: { label: 'Fruit' }, option: 'Blueberry' });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await appState('radix', 'fruit')).toBe('blueberry');
    expect(output).toMatchObject({ chosen: ['Blueberry'], shows: 'Blueberry' });
  });

  it('goes through a submenu, and toggles a checkbox item by its text', async () => {
    const sub = await choose('radix', { field: { text: 'Actions' }, option: ['Share with team', 'Finance'] });
    expect(sub.r.out.status, sub.r.stdout).toBe('ok');
    expect(await appState('radix', 'action')).toBe('Finance');
    expect(sub.output.chosen).toEqual(['Share with team', 'Finance']);
    const pin = await choose('radix', { field: { text: 'Actions' }, option: 'Pin to sidebar' });
    expect(pin.r.out.status, pin.r.stdout).toBe('ok');
    expect(await appState('radix', 'pinned')).toBe(true);
    expect(pin.output).toMatchObject({ chosen: ['Pin to sidebar'], wasChecked: false });
  });

  it('fails on a disabled menu item and a disabled option', async () => {
    const del = await choose('radix', { field: { text: 'Actions' }, option: 'Delete' });
    expect(del.step.error).toMatch(/"Delete" is disabled/);
    expect(await appState('radix', 'action')).toBe('Finance');
    const grapes = await choose('radix', { field: { label: 'Fruit' }, option: 'Grapes' });
    expect(grapes.step.error).toMatch(/"Grapes" is disabled/);
    expect(await appState('radix', 'fruit')).toBe('blueberry');
  });
});

describe('Headless UI and Downshift', () => {
  it('chooses in a Listbox, a Combobox that opens by typing, and both Downshift hooks', async () => {
    const cases: [string, string, string][] = [
      ['Assignee', 'Therese Wunsch', 'assignee'],
      ['Reviewer', 'Benedict Kessler', 'reviewer'],
      ['Book', 'Middlemarch', 'book'],
      ['Color', 'Green', 'color'],
    ];
    for (const [label, option, state] of cases) {
      const { r, output } = await choose('headless', { field: { label }, option });
      expect(r.out.status, r.stdout).toBe('ok');
      expect(await appState('headless', state)).toBe(option);
      expect(output).toMatchObject({ chosen: [option], shows: option });
    }
  });

  it('fails on a disabled option', async () => {
    const { step } = await choose('headless', { field: { label: 'Assignee' }, option: 'Kenton Towne' });
    expect(step.error).toMatch(/"Kenton Towne" is disabled/);
    expect(await appState('headless', 'assignee')).toBe('Therese Wunsch');
  });
});

describe('react-select', () => {
  it('chooses in single, multi, 2,000-option and async selects', async () => {
    const size = await choose('react-select', { field: { label: 'Size' }, option: 'Large' });
    expect(size.output).toMatchObject({ chosen: ['Large'], shows: 'Large' });
    expect(await appState('react-select', 'size')).toBe('large');
    const flavours = await choose('react-select', { field: { label: 'Flavours' }, options: ['Mint', 'Vanilla'] });
    expect(flavours.output).toMatchObject({ chosen: ['Mint', 'Vanilla'], shows: 'Mint, Vanilla' });
    expect(await appState('react-select', 'flavours')).toEqual(['mint', 'vanilla']);
    const part = await choose('react-select', { field: { label: 'Part' }, option: 'Part 1777' });
    expect(part.output).toMatchObject({ chosen: ['Part 1777'], shows: 'Part 1777' });
    expect(await appState('react-select', 'part')).toBe('part-1777');
    const planet = await choose('react-select', { field: { label: 'Planet' }, option: 'Saturn' });
    expect(planet.output).toMatchObject({ chosen: ['Saturn'], shows: 'Saturn', typed: 'Saturn' });
    expect(await appState('react-select', 'planet')).toBe('saturn');
  });
});

describe('native and custom elements', () => {
  it('chooses in a <select> by trusted keys, and in a multiple <select> by Control-clicks', async () => {
    const c = await choose('native', { field: 'Country', option: 'Portugal' });
    expect(c.output).toMatchObject({ chosen: ['Portugal'], shows: 'Portugal' });
    expect(await pageValue('native', 'document.getElementById("country").value')).toBe('pt');
    const log = await pageValue('native', 'window.__log');
    expect(log.length).toBeGreaterThan(0);
    expect(log.every((e: { trusted: boolean }) => e.trusted)).toBe(true);
    const t = await choose('native', { field: { label: 'Toppings' }, options: ['Ham', 'Pineapple'] });
    expect(t.output).toMatchObject({ chosen: ['Ham', 'Pineapple'], shows: 'Ham, Pineapple' });
    expect(
      await pageValue('native', '[...document.getElementById("toppings").selectedOptions].map((o) => o.text)'),
    ).toEqual(['Ham', 'Pineapple']);
    const canada = await choose('native', { field: '#country', option: 'Canada' });
    expect(canada.step.error).toMatch(/"Canada" is disabled/);
    expect(await pageValue('native', 'document.getElementById("country").value')).toBe('pt');
  });

  it('chooses in a radio group, a Shoelace sl-select and a listbox in a shadow root', async () => {
    const ship = await choose('native', { field: { label: 'Shipping' }, option: 'Express' });
    expect(ship.output).toMatchObject({ chosen: ['Express'], shows: 'Express' });
    expect(await pageValue('native', 'document.querySelector("input[name=ship]:checked").value')).toBe('exp');
    const size = await choose('native', { field: { label: 'Shirt size' }, option: 'Large' });
    expect(size.output).toMatchObject({ chosen: ['Large'], shows: 'Large' });
    expect(await pageValue('native', 'document.getElementById("size").value')).toBe('l');
    const mood = await choose('native', { field: { label: 'Mood' }, option: 'Calm' });
    expect(mood.output).toMatchObject({ chosen: ['Calm'], shows: 'Calm' });
    expect(await pageValue('native', 'window.__mood')).toBe('Calm');
  });
});
