#!/usr/bin/env node
// What `changes` tells after an action (issue 13): scenarios whose changes are known by
// construction, each on a fresh tab, through the built CLI as agents call it. Prints recall
// (expected changes the answer names), false reports (lines no expected change accounts for),
// first looks ready (the openTab answer shows the page) and answer bytes.
// Targets: recall >= 98 %, 0 false reports. Usage: node bench/observe.mjs [--only name]

import { parseArgs } from 'node:util';
import { benchSession, cli, formatTable, loadAverage, runBench } from './lib.mjs';

const RECALL_TARGET = 0.98;
const LISTS = ['appeared', 'gone', 'text', 'moved', 'rows', 'leftView', 'enteredView', 'transient'];

const click = (sel) => [{ click: sel }];
const js = (body) => [{ pageFunction: `() => { ${body} }` }];
const ORACLE = 'diff-oracle.html';

/** name, page, optional setup steps (own call), the action's steps, and what must be told. */
const SCENARIOS = [
  {
    name: 'text outside refs',
    page: 'observe-cases.html',
    steps: click('#louder'),
    expect: [['text', "'Volume: 65'"]],
  },
  {
    name: 'paragraph with inline text',
    page: 'observe-cases.html',
    steps: click('#pick'),
    expect: [['text', "'Selected: New Zealand'"]],
  },
  {
    name: 'SPA route heading',
    page: 'observe-cases.html',
    steps: click('#to-billing'),
    expect: [['text', "'Billing'"]],
  },
  {
    name: 'role-less result box',
    page: 'observe-cases.html',
    steps: click('#submit-json'),
    expect: [['appeared', '"name":"Ann"']],
  },
  { name: 'second status inserted', page: 'observe-cases.html', steps: click('#add-status'), expect: [], none: true },
  {
    name: 'table sort',
    page: 'observe-cases.html',
    steps: click('#sort'),
    expect: [['rows', "first row now 'Apollo Bo Li'"]],
    allow: ['moved'],
  },
  {
    name: 'row deleted by re-render',
    page: 'observe-cases.html',
    steps: click('#delete-apollo'),
    expect: [
      ['gone', "'Apollo Bo Li'"],
      ['text', "'Project deleted'"],
      ['rows', 'rows 5'],
    ],
  },
  {
    name: 'dialog opens',
    page: 'observe-cases.html',
    steps: click('#edit'),
    expect: [['appeared', 'dialog']],
    optional: [['changed', 'focused']],
  },
  {
    name: 'save: dialog fades, row after request',
    page: 'observe-cases.html',
    setup: click('#edit'),
    steps: click('#save'),
    expect: [
      ['gone', 'dialog'],
      ['appeared', "'Vesta Fi Go'"],
      ['rows', 'rows 5'],
    ],
    optional: [['changed', 'focused']],
  },
  {
    name: 'pushed below the fold',
    page: 'observe-cases.html',
    steps: click('#push-down'),
    expect: [['leftView', "'Fade me out'"]],
  },
  {
    name: 'menu expands',
    page: 'changes.html',
    steps: click('#toggle'),
    expect: [
      ['appeared', "'Alpha'"],
      ['appeared', "'Beta'"],
      ['changed', 'expanded'],
    ],
  },
  { name: 'checkbox', page: 'changes.html', steps: click('#agree'), expect: [['changed', 'checked']] },
  {
    name: 'fill',
    page: 'changes.html',
    steps: [{ fill: { selector: '#name', value: 'Ann' } }],
    expect: [['changed', 'value']],
  },
  { name: 'button removes itself', page: 'changes.html', steps: click('#remove'), expect: [['gone', "'Remove me'"]] },
  {
    name: 'status message',
    page: 'changes.html',
    steps: js("document.getElementById('status').textContent = 'Saved';"),
    expect: [['text', "'Saved'"]],
  },
  {
    name: 'toast came and went',
    page: 'toast.html',
    steps: [{ click: '#save' }, { wait: 600 }],
    expect: [['transient', 'Settings saved']],
  },
  {
    name: 'SortableJS drag',
    page: 'drag-sortable.html',
    steps: [{ drag: { source: '#fallback li:nth-child(1)', target: '#fallback li:nth-child(3)' } }],
    expect: [['moved', "'B1' from 1st to 3rd"]],
  },
  {
    name: 'paragraph edited',
    page: ORACLE,
    steps: js("document.getElementById('p1').textContent = 'Note 1 changed';"),
    expect: [['text', "'Note 1 changed'"]],
  },
  {
    name: 'heading renamed',
    page: ORACLE,
    steps: js("document.getElementById('title').textContent = 'Renamed';"),
    expect: [['text', "'Renamed'"]],
  },
  {
    name: 'frame text',
    page: ORACLE,
    steps: js("document.getElementById('frame').contentDocument.querySelector('p').textContent = 'Framed edit';"),
    expect: [['text', "'Framed edit'"]],
  },
  {
    name: 'frame insert',
    page: ORACLE,
    steps: js(
      "const d = document.getElementById('frame').contentDocument; const p = d.createElement('p'); p.textContent = 'Framed new'; d.body.prepend(p);",
    ),
    expect: [['appeared', "'Framed new'"]],
  },
  {
    name: 'hidden paragraph',
    page: ORACLE,
    steps: js("document.getElementById('p2').hidden = true;"),
    expect: [['gone', "'Note 2 beta'"]],
    allow: ['enteredView'],
  }, // what was below moves up
  {
    name: 'list reorder',
    page: ORACLE,
    steps: js("const l = document.getElementById('list'); l.prepend(l.lastElementChild);"),
    expect: [['moved', 'from 6th to 1st']],
  },
  {
    name: 'list insert',
    page: ORACLE,
    steps: js(
      "const li = document.createElement('li'); li.textContent = 'Fresh item'; document.getElementById('list').prepend(li);",
    ),
    expect: [['appeared', "'Fresh item'"]],
  },
  {
    name: 'list remove',
    page: ORACLE,
    steps: js("document.querySelector('#list li').remove();"),
    expect: [['gone', 'item']],
    allow: ['enteredView'],
  },
  {
    name: 'cell edit',
    page: ORACLE,
    steps: js("document.querySelector('#rows td').textContent = 'Cell changed';"),
    expect: [['text', "'Cell changed'"]],
  },
  {
    name: 'row added',
    page: ORACLE,
    steps: js(
      "document.getElementById('rows').insertAdjacentHTML('beforeend', '<tr><td>New row A</td><td>New row B</td></tr>');",
    ),
    expect: [
      ['appeared', "'New row A New row B'"],
      ['rows', 'rows 4'],
    ],
  },
  {
    name: 'checkbox by label',
    page: ORACLE,
    steps: [{ click: { text: 'Option one' } }],
    expect: [['changed', 'checked']],
    optional: [['changed', 'focused']],
  },
  {
    name: 'image appears, alt changes',
    page: ORACLE,
    setup: js(
      "const i = document.createElement('img'); i.alt = 'Logo'; i.width = 40; i.height = 20; document.getElementById('title').after(i);",
    ),
    steps: js("document.querySelector('img').alt = 'Company logo';"),
    expect: [['text', "'Company logo'"]],
  },
  {
    name: 'aria-expanded',
    page: ORACLE,
    setup: js(
      "document.getElementById('title').insertAdjacentHTML('afterend', '<button id=\"x\" aria-expanded=\"false\">More</button>');",
    ),
    steps: js("document.getElementById('x').setAttribute('aria-expanded', 'true');"),
    expect: [['changed', 'expanded']],
  },
  {
    name: 'invisible DOM change',
    page: ORACLE,
    steps: js("document.body.dataset.seen = '1';"),
    expect: [],
    none: true,
  },
  {
    name: 'scroll',
    page: ORACLE,
    steps: [{ scroll: { y: 600 } }],
    expect: [['leftView', "'Diff oracle'"]],
    allow: ['leftView', 'enteredView'],
  },
  {
    name: 'react-select typing',
    page: 'react-select.html',
    steps: [{ click: '#dest-input' }, { type: 'zea' }],
    // The menu with its one option; its live region's count once (in `text`, never as transient chatter).
    expect: [
      ['appeared', "'New Zealand'"],
      ['changed', 'expanded'],
    ],
    optional: [
      ['text', '1 result available for search term zea'],
      ['gone', "'Select...'"],
      ['changed', 'value'],
    ],
  },
  {
    name: 'react-select choice',
    page: 'react-select.html',
    setup: [{ click: '#dest-input' }, { type: 'zea' }],
    steps: [{ press: 'Enter' }],
    expect: [['text', "'No destination selected' \u2192 'Selected: New Zealand'"]],
    optional: [
      ['gone', "'New Zealand'"],
      ['appeared', "'New Zealand'"],
      ['changed', 'expanded'],
      ['changed', 'value'],
      ['text', 'option New Zealand, selected'],
      ['text', "'zea'"],
    ],
  },
  {
    name: 'list scrolled in its box',
    page: 'actions.html',
    setup: [{ wait: '#late' }], // the page adds a button 400 ms after load: not this scroll's doing
    steps: [{ scroll: { container: '#list', deltaY: 72 } }],
    // Items 1-3 leave the 120 px box, items 7-9 come into it; nothing is removed.
    expect: [['leftView', "'Item 1'"]],
    allow: ['enteredView'],
    optional: [['leftView', "'Item"]],
  },
  {
    name: 'cross-origin frame',
    page: 'xframes.html',
    steps: [{ frame: '#pay' }, { click: '#save' }, { click: '#pay-button' }, { frame: 'top' }],
    expect: [
      ['appeared', "in frame 'payment': status 'Payment accepted'"],
      ['changed', 'checked'],
    ],
  },
  {
    name: 'dialog text',
    page: 'observe-cases.html',
    setup: click('#edit'),
    steps: js("document.querySelector('#dlg p').textContent = 'Edit Vesta';"),
    expect: [['text', "'Edit Vesta'"]],
  },
];

/** Whether a line of `list` (or a record of `changed`) is the expected change `[list, needle]`. */
function matches(list, item, [wantList, needle]) {
  if (list !== wantList) return false;
  return list === 'changed' ? item.field === needle : String(item).includes(needle);
}

function score(s, changes) {
  const found = s.expect.filter((want) =>
    (want[0] === 'changed' ? (changes.changed ?? []) : (changes[want[0]] ?? [])).some((item) =>
      matches(want[0], item, want),
    ),
  );
  const falses = [];
  const known = [...s.expect, ...(s.optional ?? [])];
  for (const list of [...LISTS, 'changed']) {
    if (s.allow?.includes(list)) continue;
    for (const item of changes[list] ?? [])
      if (!known.some((want) => matches(list, item, want))) falses.push(`${list}: ${JSON.stringify(item)}`);
  }
  if (s.none && changes.summary !== 'No visible change.') falses.push(`summary: ${changes.summary}`);
  return { found: found.length, falses };
}

async function main() {
  const { values } = parseArgs({ options: { only: { type: 'string' } } });
  const { server, env, port, close } = await benchSession();
  try {
    const rows = [];
    let expected = 0;
    let found = 0;
    let falseReports = 0;
    let ready = 0;
    let bytes = 0;
    const scenarios = SCENARIOS.filter((s) => !values.only || s.name === values.only);
    for (const s of scenarios) {
      const opened = await cli({ steps: [{ openTab: { url: `${server.url}/${s.page}`, port } }] }, env);
      const tab = opened.output.tab;
      // Ready: the first answer shows the page — its refs, or its heading where it has nothing to act on.
      if (/\[ref=s\d+e\d+\]|- heading /.test(opened.output.viewportSnapshot ?? '')) ready++;
      else
        console.log(
          `  first look of ${s.page} shows neither refs nor a heading: ${JSON.stringify(opened.output.viewportSnapshot ?? null)}`,
        );
      if (s.setup) await cli({ tab, steps: s.setup }, env);
      const r = await cli({ tab, steps: s.steps }, env);
      const result = score(s, r.output.changes ?? {});
      expected += s.expect.length;
      found += result.found;
      falseReports += result.falses.length;
      bytes += r.bytes;
      rows.push([s.name, s.expect.length, result.found, result.falses.length, r.bytes, Math.round(r.ms)]);
      for (const f of result.falses) console.log(`  false report in "${s.name}": ${f}`);
      if (result.found < s.expect.length) console.log(`  missed in "${s.name}": ${JSON.stringify(r.output.changes)}`);
      await cli({ steps: [{ closeTab: tab }] }, env);
    }
    const recall = expected ? found / expected : 1;
    console.log(
      `cdp-skill observe — node ${process.version}, ${scenarios.length} scenarios, load ${await loadAverage()}\n`,
    );
    console.log(formatTable(['scenario', 'expected', 'told', 'false', 'bytes', 'ms'], rows));
    console.log(
      `\nrecall ${found}/${expected} = ${(100 * recall).toFixed(1)}% (target ≥ ${100 * RECALL_TARGET}%) — ${recall >= RECALL_TARGET ? 'met' : 'NOT met'}`,
    );
    console.log(`false reports: ${falseReports} (target 0) — ${falseReports === 0 ? 'met' : 'NOT met'}`);
    console.log(
      `first looks ready (the openTab answer shows the page: refs, or a heading): ${ready}/${scenarios.length}`,
    );
    console.log(`answer bytes of the action calls: ${bytes} total, ${Math.round(bytes / scenarios.length)} per answer`);
    if (recall < RECALL_TARGET || falseReports > 0) process.exitCode = 1;
  } finally {
    await close();
  }
}

runBench(main);
