#!/usr/bin/env node
// Acting on real components (issue 14): for each item, the calls an agent needs to reach the goal
// with yesterday's vocabulary (counted from the agent runs that filed the issue: an "ok" that was
// not true costs the calls to find out and to undo) against the calls it takes now, played through
// the CLI one process per call. The page state is checked over our own CDP socket, not our answer.
// Usage: node bench/acting.mjs

import WebSocket from 'ws';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answer, benchSession, formatTable, loadAverage, pageValue, runBench } from './lib.mjs';

const call = (command, env) => answer(command, env, 60000);

/** A small file for the upload row. */
const UPLOAD_FILE = join(mkdtempSync(join(tmpdir(), 'cdp-bench-')), 'invoice.pdf');
writeFileSync(UPLOAD_FILE, '%PDF-1.4 bench');

const READY = {
  pageFunction:
    'Promise.all(["sl-button", "sl-input", "sl-dialog"].map((n) => customElements.whenDefined(n))).then(() => true)',
};

/**
 * Each row: the goal, yesterday's calls and why, and today's calls (given the tab); `check` reads the
 * app's state. `before` counts: the acting call, the call that found out it went wrong, the call that fixed it.
 */
const ROWS = [
  {
    item: '4+13 honest clicks/keys',
    goal: 'know the click on a hidden <select> did nothing (Tom Select)',
    page: 'acting.html',
    before: 3,
    why: 'ok answer; type went nowhere; a snapshot showed no change',
    calls: [(tab) => ({ tab, steps: [READY, { click: { selector: '#fruit', timeout: 500 } }, { type: 'Cher' }] })],
    expect: (answers) =>
      answers[0].status === 'error' && answers[0].steps[1].category === 'no-effect' && answers[0].steps.length === 2,
    check: '!fruit.isOpen && fruit.getValue() === "" && document.activeElement === document.body',
  },
  {
    item: '1 delegated focus',
    goal: 'type into <sl-input> and a component wrapping one, by host',
    page: 'acting.html',
    before: 3,
    why: 'type failed "cannot take keyboard focus"; fill "not a text field"; pageFunction',
    calls: [
      (tab) => ({
        tab,
        steps: [
          READY,
          { type: { selector: 'sl-input[name=nick]', text: 'neo' } },
          { fill: { selector: '#card', value: 'Oslo' } },
        ],
      }),
    ],
    expect: (answers) => answers[0].status === 'ok',
    check: 'document.getElementById("nick").value === "neo" && card.city.value === "Oslo"',
  },
  {
    item: '2 formatted inputs',
    goal: 'fill $1,234.50 into react-number-format with react:true',
    page: 'formatted.html',
    before: 2,
    why: 'failed "did not take the value: it still shows $1,234.50"; fill again without react',
    calls: [(tab) => ({ tab, steps: [{ fill: { label: 'Amount', value: '1234.50', react: true } }] })],
    expect: (answers) => answers[0].status === 'ok' && /formatted/.test(answers[0].steps[0].warning),
    check: '__state.amount.floatValue === 1234.5',
  },
  {
    item: '15 no false hints',
    goal: 'draw one shape on a canvas by drag, no second drag',
    page: 'canvas-drag.html',
    before: 2,
    why: 'dropped:false "try html5"; following it drew a second shape',
    calls: [(tab) => ({ tab, steps: [{ drag: { source: { x: 60, y: 120 }, target: { x: 200, y: 220 } } }] })],
    expect: (answers) => answers[0].status === 'ok' && answers[0].steps[0].output.dropped === undefined,
    check: '__shapes.length === 1',
  },
  {
    item: '3 iframe clicks',
    goal: 'pay in a cross-origin frame partly below the fold',
    page: 'xframes.html',
    before: 3,
    why: 'jsClick-auto ok, targetReceived:false; a look in the frame; a coordinate click',
    calls: [
      (tab) => ({
        tab,
        steps: [
          { pageFunction: 'document.getElementById("same").style.marginTop = (innerHeight - 60) + "px"' },
          { frame: { name: 'payment' } },
          { click: { text: 'Pay now' } },
        ],
      }),
    ],
    expect: (answers) =>
      answers[0].status === 'ok' &&
      answers[0].steps[2].output.method === 'cdp' &&
      answers[0].steps[2].output.targetReceived === true,
    // The host's content got no press, release or click; the payment frame's button one trusted click.
    check: 'scrollY > 0 && __hostInput.length === 0',
    frameCheck: { url: '/xframe-pay.html', expression: '__pay.trusted === 1 && __pay.untrusted === 0' },
  },
  {
    item: '14 closed shadow roots',
    goal: 'sign in through a Lit form in a closed shadow root',
    page: 'closed-shadow.html',
    before: 5,
    why: 'snapshot showed only the host; screenshot; coordinate click + type; coordinate click; screenshot to check',
    calls: [
      (tab) => ({
        tab,
        steps: [
          { pageFunction: 'customElements.whenDefined("x-login").then(() => true)' },
          { fill: { label: 'User name', value: 'ann' } },
          { click: { text: 'Sign in' } },
        ],
      }),
    ],
    expect: (answers) => answers[0].status === 'ok' && answers[0].steps[2].output.targetReceived === true,
    check: 'login.signedIn === true && login.user === "ann"',
  },
  {
    item: '8 frames at any depth',
    goal: 'run a step in the grandchild frame "inner"',
    page: 'xframes.html',
    before: 3,
    why: '"not here", nextStep the same list; frame list; frame {frameId}',
    calls: [(tab) => ({ tab, steps: [{ frame: { name: 'inner' } }, { pageFunction: 'window.__hereInner = true' }] })],
    expect: (answers) => answers[0].status === 'ok',
    check:
      'document.querySelector("#same").contentDocument.querySelector("iframe[name=inner]").contentWindow.__hereInner === true',
  },
  {
    item: '6 hover that opens',
    goal: 'read a Tippy tooltip shown after 300 ms',
    page: 'tippy.html',
    before: 3,
    why: 'visibleElements: []; wait; a snapshot to read it',
    calls: [(tab) => ({ tab, steps: [{ hover: { selector: '#help', captureResult: true } }] })],
    expect: (answers) => /Opens the handbook/.test(JSON.stringify(answers[0].steps[0].output.capturedResult)),
    check: 'tip.state.isVisible === true',
  },
  {
    item: '5 say what was acted on',
    goal: 'open Preferences (<sl-button> next to an <h2>)',
    page: 'acting.html',
    before: 3,
    why: 'clicked the <h2>, ok; a snapshot to find out; click the ref',
    calls: [(tab) => ({ tab, steps: [READY, { click: { text: 'Preferences' } }] })],
    expect: (answers) => answers[0].steps[1].output?.target === 'button "Preferences"',
    check: 'document.getElementById("prefs-count").textContent === "opened 1 times"',
  },
  {
    item: '7 uploads through any control',
    goal: "add a file to Dropzone through its area (Dropzone's own list)",
    page: 'upload.html',
    before: 3,
    why: 'upload failed "not a file input"; its nextStep repeated it; pageFunction to find the hidden input',
    calls: [(tab) => ({ tab, steps: [{ upload: { selector: '#dz', files: UPLOAD_FILE } }] })],
    expect: (answers) => answers[0].status === 'ok' && answers[0].steps[0].output.via === 'file chooser',
    check: 'dz.files.length === 1 && dz.files[0].name === "invoice.pdf"',
  },
  {
    item: '12 virtualised lists',
    goal: 'click ticket 3001 of 10,000 in a TanStack Virtual list (~20 rendered)',
    page: 'virtual-list.html',
    before: 4,
    why: 'click {text} not found; pageFunction measuring row heights to set scrollTop; snapshot for the ref; click',
    calls: [(tab) => ({ tab, steps: [{ click: { text: 'Ticket 3001 · Facilities' } }] })],
    expect: (answers) => answers[0].status === 'ok' && answers[0].steps[0].output.scrolledToFind?.in === '#list',
    check: '__clicks.length === 1 && __clicks[0] === 3000',
  },
  {
    item: '11 effects in answers',
    goal: 'load the next page of an infinite feed and know how much came',
    page: 'feed.html',
    before: 2,
    why: 'scroll bottom said only {scrollX, scrollY}; a pageFunction to count the posts',
    calls: [(tab) => ({ tab, steps: [{ scroll: 'bottom' }] })],
    expect: (answers) => answers[0].status === 'ok' && answers[0].steps[0].output.loaded === 20,
    check: 'document.querySelectorAll("#feed .post").length === 40',
  },
  {
    item: '9 editing text in editors',
    goal: 'replace "return" in Monaco and write after "-=" in CodeMirror, by text',
    page: 'editors.html',
    before: 4,
    why: 'click {text, doubleClick} hit the centre, changed the wrong word; undo; pageFunction for the box; click x,y + type',
    calls: [
      (tab) => ({
        tab,
        steps: [
          { wait: 'body[data-monaco=ready]' },
          { caret: { text: 'return', in: '#monaco', position: 'select' } },
          { type: 'yield' },
          { caret: { text: '-=', in: '#cm' } },
          { type: ' 2 +' },
        ],
      }),
    ],
    expect: (answers) => answers[0].status === 'ok' && answers[0].steps[1].output.selected === 'return',
    check:
      'monacoEditor.getValue() === "function step(x) {\\n  x -= 1;\\n  yield x;\\n}" && cmView.state.doc.line(2).text === "count -= 2 + 1;"',
  },
  {
    item: '10 names Chrome would give',
    goal: "open Quill's header picker and flatpickr's next month from one snapshot",
    page: 'names.html',
    before: 3,
    why: 'snapshot showed nameless button [collapsed] and generic refs; getDom to tell them apart; click',
    calls: [
      (tab) => ({ tab, steps: [{ snapshot: { root: 'body' } }] }),
      (tab, answers) => {
        const yaml = answers[0].steps[0].output.yaml;
        const ref = (re) => re.exec(yaml)?.[1] ?? 'missing';
        return {
          tab,
          steps: [
            { click: ref(/\[ref=(s\d+e\d+)\] \(flatpickr-next-month\)/) },
            { click: ref(/button "Normal" \[collapsed\] \[ref=(s\d+e\d+)\]/) },
          ],
        };
      },
    ],
    expect: (answers) => answers[1].status === 'ok',
    check:
      'picker.currentMonth === 3 && document.querySelector(".ql-picker.ql-header").classList.contains("ql-expanded")',
  },
];

/** An expression's value in an out-of-process frame's own document, over our own CDP socket. */
async function frameValue(port, urlPart, expression) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const target = targets.find((t) => t.type === 'iframe' && t.url.includes(urlPart));
  if (!target) throw new Error(`no frame at ${urlPart}`);
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  try {
    return await new Promise((resolve, reject) => {
      ws.on('error', reject);
      ws.on('open', () =>
        ws.send(JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression, returnByValue: true } })),
      );
      ws.on('message', (data) => {
        const msg = JSON.parse(data.toString());
        if (msg.id === 1) resolve(msg.result?.result?.value);
      });
    });
  } finally {
    ws.close();
  }
}

async function main() {
  const { server, env, port, close } = await benchSession();
  try {
    const rows = [];
    let allRight = true;
    for (const row of ROWS) {
      const opened = await call({ steps: [{ openTab: { url: `${server.url}/${row.page}`, port } }] }, env);
      const tab = opened.tab;
      const answers = [];
      for (const c of row.calls) answers.push(await call(c(tab, answers), env));
      const right =
        row.expect(answers) &&
        (await pageValue(port, `${server.url}/${row.page}`, row.check)) === true &&
        (!row.frameCheck || (await frameValue(port, row.frameCheck.url, row.frameCheck.expression)) === true);
      allRight &&= right;
      rows.push([row.item, row.goal, row.before, row.calls.length, right ? 'yes' : 'NO', row.why]);
      await call({ tab, steps: [{ closeTab: tab }] }, env);
    }
    console.log(
      `cdp-skill acting (issue 14) — calls to reach each goal, before vs now; node ${process.version}, load ${await loadAverage()}\n`,
    );
    console.log(formatTable(['item', 'goal', 'before', 'now', 'right', 'before: why'], rows));
    if (!allRight) {
      console.log('a row ended in the wrong page state or answer');
      process.exitCode = 1;
    }
  } finally {
    await close();
  }
}

runBench(main);
