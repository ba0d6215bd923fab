#!/usr/bin/env node
// Picking dates (issue 23 item 3): for each date picker, the calls an agent needs to reach the goal
// with the steps it had before `choose {date}` — the shortest sequence: open the picker, press its
// next-month control as many times as needed (all in one call, the count being known), read the
// day's ref from the answer (a snapshot call when no answer showed it), press it — against one
// `choose`; both played through the CLI, one process per call, each from a fresh tab, and the
// picker's own state checked over our own CDP socket. Usage: node bench/dates.mjs [picker name part]

import {
  answerOf as call,
  benchSession,
  formatTable,
  loadAverage,
  pageValue,
  refPlayer as player,
  runBench,
} from './lib.mjs';

const times = (n, step) => Array.from({ length: n }, () => step);
const fp = (id, day) =>
  `window.pickers.${id}.selectedDates.map((d) => pickers.${id}.formatDate(d, 'Y-m-d')).join() === '${day}'`;
const state = (name, value) =>
  `document.getElementById('state-${name}').textContent === ${JSON.stringify(JSON.stringify(value))}`;

const ROWS = [
  {
    picker: 'flatpickr, this month',
    page: 'dates-flatpickr.html',
    before: async (p) => {
      await p.play([{ click: '#checkin' }]);
      await p.play([{ click: await p.ref('generic', 'March 12, 2026') }]);
    },
    after: { field: 'Check-in', date: '2026-03-12' },
    check: fp('checkin', '2026-03-12'),
  },
  {
    picker: 'flatpickr, 14 months on',
    page: 'dates-flatpickr.html',
    before: async (p) => {
      // flatpickr opens on the press, so the click step reports the release landing on its calendar:
      // the next-month presses go in a call of their own.
      await p.play([{ click: '#checkin' }]);
      await p.play(times(14, { click: '.flatpickr-calendar.open .flatpickr-next-month' }));
      await p.play([{ click: await p.ref('generic', 'May 14, 2027') }]);
    },
    after: { field: 'Check-in', date: '2027-05-14' },
    check: fp('checkin', '2027-05-14'),
  },
  {
    picker: 'flatpickr, range',
    page: 'dates-flatpickr.html',
    before: async (p) => {
      await p.play([{ click: '#stay' }]);
      await p.play([
        { click: await p.ref('generic', 'March 12, 2026') },
        { click: await p.ref('generic', 'March 15, 2026') },
      ]);
    },
    after: { field: 'Stay', date: ['2026-03-12', '2026-03-15'] },
    check: fp('stay', '2026-03-12,2026-03-15'),
  },
  {
    picker: 'native <input type=date>',
    page: 'dates-native.html',
    // Before, fill reached it by setting the value in JavaScript ("nativeSetter"); now real keys in Chrome's sections.
    before: async (p) => p.play([{ fill: { selector: '#checkin', value: '2026-03-12' } }]),
    after: { field: 'Check-in', date: '2026-03-12' },
    check: `document.getElementById('checkin').value === '2026-03-12'`,
  },
  {
    picker: 'MUI DatePicker, this month',
    page: 'dates-mui.html',
    before: async (p) => {
      await p.play([{ click: { text: 'Choose date' } }]);
      await p.play([{ click: await p.ref('gridcell', '12') }, { click: { text: 'OK' } }]);
    },
    after: { field: 'Check-in', date: '2026-03-12' },
    check: state('checkin', '2026-03-12'),
  },
  {
    picker: 'MUI DatePicker, 14 months on',
    page: 'dates-mui.html',
    before: async (p) => {
      await p.play([{ click: { text: 'Choose date' } }, ...times(14, { click: { text: 'Next month' } })]);
      await p.play([{ click: await p.ref('gridcell', '14') }, { click: { text: 'OK' } }]);
    },
    after: { field: 'Check-in', date: '2027-05-14' },
    check: state('checkin', '2027-05-14'),
  },
  {
    picker: 'antd DatePicker, this month',
    page: 'dates-antd.html',
    before: async (p) => {
      await p.play([{ click: '#checkin' }]);
      await p.play([{ click: 'td[title="2026-03-12"]' }]);
    },
    after: { field: 'Check-in', date: '2026-03-12' },
    check: state('checkin', '2026-03-12'),
  },
  {
    picker: 'antd RangePicker',
    page: 'dates-antd.html',
    before: async (p) => {
      await p.play([{ click: '#stay' }]);
      // After the start, antd shows the end's panels (April and May): a look, then back a month.
      await p.play([{ click: 'td[title="2026-03-12"]' }]);
      await p.play([{ snapshot: { root: 'body' } }]);
      await p.play([{ click: { text: 'Previous month' } }, { click: 'td[title="2026-03-15"]' }]);
    },
    after: { field: 'Stay', date: ['2026-03-12', '2026-03-15'] },
    check: state('stay', ['2026-03-12', '2026-03-15']),
  },
  {
    picker: 'react-day-picker, 14 months on',
    page: 'dates-day-picker.html',
    before: async (p) => {
      await p.play([{ click: '#checkin' }, ...times(14, { click: { text: 'Go to the Next Month' } })]);
      await p.play([{ click: await p.ref('button', 'Friday, May 14th, 2027') }]);
    },
    after: { field: 'Check-in', date: '2027-05-14' },
    check: state('checkin', '2027-05-14'),
  },
];

/** Plays `row` from a fresh tab one way; calls, wall time, whether the picker's state is right. */
async function playRow(session, row, way) {
  const { server, env, port } = session;
  const url = `${server.url}/${row.page}`;
  const opened = await call({ steps: [{ openTab: { url, port } }, { wait: 'main' }] }, env);
  const p = player(opened.tab, env);
  const started = Date.now();
  let failed;
  try {
    if (way === 'before') await row.before(p);
    else await p.play([{ choose: row.after }]);
  } catch (err) {
    failed = err.message;
  }
  const ms = Date.now() - started;
  const check = `(() => { try { return ${row.check}; } catch { return false; } })()`;
  const right = !failed && (await pageValue(port, url, check)) === true;
  await call({ tab: opened.tab, steps: [{ closeTab: opened.tab }] }, env);
  return { calls: p.calls, errors: p.errors, ms, right, failed };
}

async function main() {
  const session = await benchSession();
  try {
    // The fixture server bundles each app on its first request: before the first timed row.
    await Promise.all(['mui', 'antd', 'day-picker'].map((b) => fetch(`${session.server.url}/bundle/dates-${b}.js`)));
    const rows = [];
    let allRight = true;
    const only = process.argv[2];
    for (const row of ROWS.filter((r) => !only || r.picker.includes(only))) {
      const before = await playRow(session, row, 'before');
      const after = await playRow(session, row, 'after');
      allRight &&= after.right;
      rows.push([
        row.picker,
        before.right
          ? before.calls
          : `${before.calls} (not reached${before.failed ? `: ${before.failed.slice(0, 80)}` : ''})`,
        before.errors,
        after.calls,
        `${(before.ms / 1000).toFixed(1)}s`,
        `${(after.ms / 1000).toFixed(1)}s`,
        after.right ? 'yes' : `NO${after.failed ? `: ${after.failed}` : ''}`,
      ]);
    }
    console.log(
      `cdp-skill choose {date} (issue 23 item 3) — calls per goal, before vs one choose; node ${process.version}, load ${await loadAverage()}\n`,
    );
    console.log(
      formatTable(
        ['picker', 'calls before', 'error answers before', 'calls now', 'time before', 'time now', 'right'],
        rows,
      ),
    );
    const total = (k) => rows.reduce((n, r) => n + Number.parseInt(r[k], 10), 0);
    console.log(`\nall rows: ${total(1)} calls before (${total(2)} answered an error), ${total(3)} now`);
    if (!allRight) {
      console.log('a row ended in the wrong picker state');
      process.exitCode = 1;
    }
  } finally {
    await session.close();
  }
}

runBench(main);
