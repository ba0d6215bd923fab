#!/usr/bin/env node
// Choosing options (issue 23 item 1): for each widget family, the calls an agent needs to reach the
// goal with the steps it had before `choose` (the shortest sequence: open the control, read the
// option's ref from the answer, click it, level by level; a snapshot only when an answer did not show
// the ref) against one `choose` — both played through the CLI, one process per call, each from a
// fresh tab, and the app's own state checked over our own CDP socket. Then the agent's turns for
// "choose Location and Time zone, then save" on the antd form. Usage: node bench/choose.mjs

import { execFile } from 'node:child_process';
import { benchSession, formatTable, loadAverage, pageValue, runBench, CLI } from './lib.mjs';

/**
 * One call's answer, an error answer included: an agent reads it and goes on (today's click on a
 * widget that opens on pointerdown answers "no effect" while its `changes` list the opened popup).
 */
function call(command, env) {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, JSON.stringify(command)],
      { env, timeout: 90_000, maxBuffer: 8 << 20 },
      (err, stdout) => {
        try {
          resolve(JSON.parse(stdout));
        } catch {
          reject(err ?? new Error(`unparsable answer: ${stdout}`));
        }
      },
    );
  });
}

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A player for one tab: counts calls and finds refs in answers (a snapshot call when none shows it). */
function player(tab, env) {
  const p = {
    calls: 0,
    errors: 0,
    async play(steps) {
      p.calls++;
      const answer = await call({ tab, steps }, env);
      if (answer.status !== 'ok') p.errors++;
      p.last = answer;
      return answer;
    },
    async ref(role, name) {
      const re = new RegExp(`${role} "${escapeRegExp(name)}[^"\\n]*"[^\\n]*?\\[ref=(s\\d+e\\d+)\\]`);
      const inAnswer = re.exec(
        JSON.stringify(p.last ?? {})
          .replaceAll('\\"', '"')
          .replaceAll('\\n', '\n'),
      );
      if (inAnswer) return inAnswer[1];
      const look = await p.play([{ snapshot: { root: 'body' } }]);
      const found = re.exec(look.steps?.[0]?.output?.yaml ?? '');
      if (!found) throw new Error(`no ${role} "${name}" to click`);
      return found[1];
    },
  };
  return p;
}

const READY = (selector) => ({ wait: selector });

/** Each row: a goal, how it was reached before (with today's other steps), the one choose, and the app state that proves it. */
const ROWS = [
  {
    family: 'native <select>',
    page: 'choose-native.html',
    ready: '#country',
    before: async (p) => p.play([{ selectOption: { selector: '#country', label: 'Portugal' } }]),
    after: [{ choose: { field: 'Country', option: 'Portugal' } }],
    check: 'document.getElementById("country").value === "pt"',
  },
  {
    family: 'MUI Select',
    page: 'choose-mui.html',
    ready: '#status',
    before: async (p) => {
      await p.play([{ click: { selector: '#status', nativeOnly: true } }]);
      await p.play([{ click: await p.ref('option', 'Paused') }]);
    },
    after: [{ choose: { field: { label: 'Status' }, option: 'Paused' } }],
    check: '__state.status === "paused"',
  },
  {
    family: 'MUI Autocomplete, same names',
    page: 'choose-mui.html',
    ready: '#customer',
    before: async (p) => {
      await p.play([{ click: '#customer' }]);
      await p.play([{ click: await p.ref('option', 'Northwind Traders C-2210') }]);
    },
    after: [{ choose: { field: { label: 'Customer' }, option: 'Northwind Traders \u2014 C-2210 \u00b7 closed' } }],
    check: '__state.customer === "C-2210"',
  },
  {
    family: 'MUI Autocomplete, search',
    page: 'choose-mui.html',
    ready: '#city',
    before: async (p) => {
      await p.play([{ click: '#city' }, { type: 'Porto Al' }, { wait: { text: 'Porto Alegre' } }]);
      await p.play([{ click: await p.ref('option', 'Porto Alegre') }]);
    },
    after: [{ choose: { field: { label: 'City' }, option: 'Porto Alegre' } }],
    check: '__state.city === "Porto Alegre"',
  },
  {
    family: 'MUI Autocomplete, multiple',
    page: 'choose-mui.html',
    ready: '#tags',
    before: async (p) => {
      await p.play([{ click: '#tags' }]);
      const [billing, sales] = [await p.ref('option', 'Billing'), await p.ref('option', 'Sales')];
      await p.play([{ click: billing }, { click: '#tags' }, { click: sales }]);
    },
    after: [{ choose: { field: { label: 'Tags' }, options: ['Billing', 'Sales'] } }],
    check: 'JSON.stringify(__state.tags) === \'["Billing","Sales"]\'',
  },
  {
    family: 'antd Cascader (3 levels)',
    page: 'choose-antd.html',
    ready: '#office_location',
    before: async (p) => {
      await p.play([{ click: '#office_location' }]);
      for (const level of ['South America', 'Argentina', 'Ushuaia'])
        await p.play([{ click: await p.ref('menuitemcheckbox', level) }]);
    },
    after: [{ choose: { field: { label: 'Location' }, option: ['South America', 'Argentina', 'Ushuaia'] } }],
    check: '__state.office.location?.join("/") === "sa/ar/ushuaia"',
  },
  {
    family: 'antd Select (virtualised)',
    page: 'choose-antd.html',
    ready: '#office_timezone',
    before: async (p) => {
      // Only the rows in view exist: scroll until the row shows in an answer (back up once when an
      // answer already shows rows past it, as an agent reading the names would), then click it.
      const want = 'America/Argentina/Ushuaia';
      const names = () => [...JSON.stringify(p.last).matchAll(/'([A-Z][\w-]*\/[\w/+-]+)'/g)].map((m) => m[1]);
      const scroll = (deltaY) => p.play([{ scroll: { container: '.ant-select-dropdown-list-holder', deltaY } }]);
      await p.play([{ click: '#office_timezone' }]);
      for (let i = 0; i < 40 && !names().includes(want); i++) {
        if (names().some((n) => n > want)) {
          await scroll(-115);
          break;
        }
        await scroll(230);
      }
      await p.play([{ click: { text: want } }]);
    },
    after: [{ choose: { field: 'Time zone', option: 'America/Argentina/Ushuaia' } }],
    check: '__state.office.timezone === "America/Argentina/Ushuaia"',
  },
  {
    family: 'Radix DropdownMenu submenu',
    page: 'choose-radix.html',
    ready: 'button',
    before: async (p) => {
      await p.play([{ click: { text: 'Actions', nativeOnly: true } }]);
      await p.play([{ click: await p.ref('menuitem', 'Share with team') }]);
      await p.play([{ click: await p.ref('menuitem', 'Finance') }]);
    },
    after: [{ choose: { field: { text: 'Actions' }, option: ['Share with team', 'Finance'] } }],
    check: '__state.action === "Finance"',
  },
  {
    family: 'Headless UI Combobox',
    page: 'choose-headless.html',
    ready: 'input',
    before: async (p) => {
      await p.play([{ click: { selector: 'input[role=combobox]' } }, { type: 'Bened' }]);
      await p.play([{ click: await p.ref('option', 'Benedict Kessler') }]);
    },
    after: [{ choose: { field: { label: 'Reviewer' }, option: 'Benedict Kessler' } }],
    check: '__state.reviewer === "Benedict Kessler"',
  },
  {
    family: 'react-select, async',
    page: 'choose-react-select.html',
    ready: '#planet',
    before: async (p) => {
      await p.play([{ click: '#planet' }, { type: 'Satu' }, { wait: { text: 'Saturn' } }]);
      await p.play([{ click: await p.ref('option', 'Saturn') }]);
    },
    after: [{ choose: { field: { label: 'Planet' }, option: 'Saturn' } }],
    check: '__state.planet === "saturn"',
  },
];

/** Plays `row` from a fresh tab one way; calls, wall time, whether the app's state is right. */
async function playRow(session, row, way) {
  const { server, env, port } = session;
  const url = `${server.url}/${row.page}`;
  const opened = await call({ steps: [{ openTab: { url, port } }, READY(row.ready)] }, env);
  const p = player(opened.tab, env);
  const started = Date.now();
  let failed;
  try {
    if (way === 'before') await row.before(p);
    else await p.play(row.after);
  } catch (err) {
    failed = err.message;
  }
  const ms = Date.now() - started;
  const right =
    !failed &&
    (await pageValue(port, url, `(() => { try { return ${row.check}; } catch { return false; } })()`)) === true;
  await call({ tab: opened.tab, steps: [{ closeTab: opened.tab }] }, env);
  return { calls: p.calls, errors: p.errors, ms, right, failed };
}

/** Calls made, how many answered with an error, and whether the goal was reached. */
const callsCell = (r) =>
  `${r.calls}${r.errors ? ` (${r.errors} answered error)` : ''}${r.right ? '' : ' (not reached)'}`;

/** The antd form goal, as agent turns: before, each call a turn; after, one turn with three steps. */
async function formTurns(session) {
  const form = {
    page: 'choose-antd.html',
    ready: '#office_location',
    before: async (p) => {
      await ROWS.find((r) => r.family.startsWith('antd Cascader')).before(p);
      await ROWS.find((r) => r.family.startsWith('antd Select')).before(p);
      await p.play([{ click: { text: 'Save' } }]);
    },
    after: [
      { choose: { field: { label: 'Location' }, option: ['South America', 'Argentina', 'Ushuaia'] } },
      { choose: { field: 'Time zone', option: 'America/Argentina/Ushuaia' } },
      { click: { text: 'Save' } },
    ],
    check:
      'document.getElementById("saved").textContent === "Saved office" && __state.office.timezone === "America/Argentina/Ushuaia"',
  };
  const before = await playRow(session, form, 'before');
  const after = await playRow(session, form, 'after');
  const saved = await (await fetch(`${session.server.url}/choose/submitted?form=office`)).json();
  const right = saved.values?.timezone === 'America/Argentina/Ushuaia' && saved.values?.location?.[2] === 'ushuaia';
  return { before, after, right };
}

async function main() {
  const session = await benchSession();
  try {
    const rows = [];
    let allRight = true;
    for (const row of ROWS) {
      const before = await playRow(session, row, 'before');
      const after = await playRow(session, row, 'after');
      allRight &&= after.right;
      rows.push([
        row.family,
        callsCell(before),
        callsCell(after),
        `${(before.ms / 1000).toFixed(1)}s`,
        `${(after.ms / 1000).toFixed(1)}s`,
        after.right ? 'yes' : 'NO',
      ]);
    }
    const form = await formTurns(session);
    allRight &&= form.after.right && form.right;
    console.log(
      `cdp-skill choose (issue 23) — calls per goal, before vs one choose; node ${process.version}, load ${await loadAverage()}\n`,
    );
    console.log(formatTable(['widget family', 'calls before', 'calls now', 'time before', 'time now', 'right'], rows));
    const total = (k) => rows.reduce((n, r) => n + (typeof r[k] === 'number' ? r[k] : Number.parseInt(r[k], 10)), 0);
    console.log(`\nall rows: ${total(1)} calls before, ${total(2)} now`);
    console.log(
      `antd form "choose Location and Time zone, then save": ${callsCell(form.before)} turns before, ${callsCell(form.after)} now (${(form.before.ms / 1000).toFixed(1)}s vs ${(form.after.ms / 1000).toFixed(1)}s; saved values right: ${form.right ? 'yes' : 'NO'})`,
    );
    if (!allRight) {
      console.log('a row ended in the wrong app state');
      process.exitCode = 1;
    }
  } finally {
    await session.close();
  }
}

runBench(main);
