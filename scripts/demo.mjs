#!/usr/bin/env node
// The README's first command: serve the bundled demo page, open it in Chrome (launched if
// needed), act on it, print cdp-skill's JSON answers, and close the tab again.

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startFixtureServer } from '../test/fixtures/server.mjs';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const server = await startFixtureServer();

// Asynchronous on purpose: the fixture server lives in this process and must keep answering.
async function cdpSkill(command) {
  process.stdout.write(`\n$ cdp-skill '${JSON.stringify(command)}'\n`);
  let out;
  try {
    ({ stdout: out } = await promisify(execFile)(process.execPath, [cli, JSON.stringify(command)], {
      encoding: 'utf8',
    }));
  } catch (err) {
    out = err.stdout || String(err);
  }
  process.stdout.write(out);
  return JSON.parse(out);
}

try {
  const opened = await cdpSkill({ steps: [{ openTab: `${server.url}/demo.html` }] });
  if (opened.status !== 'ok') process.exitCode = 1;
  else {
    const acted = await cdpSkill({
      tab: opened.tab,
      steps: [
        { click: { text: 'Increment' } },
        { click: '#inc' },
        { pageFunction: "document.querySelector('#count').value" },
        { screenshot: { selector: '#langs', padding: 8 } },
      ],
    });
    await cdpSkill({ steps: [{ closeTab: opened.tab }] });
    if (acted.status !== 'ok') process.exitCode = 1;
  }
} finally {
  await server.close();
}
