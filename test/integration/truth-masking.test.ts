// Issue 22 item 2, "mask secrets, not words", on the real antd Select: its search input carries
// autocomplete="new-password" (to stop autofill) yet what is typed there is a word the page shows
// back in its options, never masked; a real password is masked in every output of this answer and
// the next, even where the page echoes it in other text. Oracles: the input's attributes and value,
// the app's chosen zone (window.__zone) and the echo's text, read over the test's own CDP socket;
// Chrome's accessibility tree for the option the answer names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdpToPage, startHarness, type CdpClient, type Harness } from './harness.js';

let h: Harness;
let tab: string;
let page: CdpClient;
const PASSWORD = 'hunter2-Secret';
const MASK = '\u2022\u2022\u2022\u2022';

beforeAll(async () => {
  h = await startHarness();
  tab = await h.open('antd-select.html');
  page = await cdpToPage(h.port, `${h.baseUrl}/antd-select.html`);
});
afterAll(async () => {
  page?.close();
  await h?.close();
});

/** Names of Chrome's accessibility nodes with `role` (its own tree, not ours). */
async function axNames(role: string): Promise<string[]> {
  const { nodes } = await page.send('Accessibility.getFullAXTree');
  return nodes.filter((n: any) => n.role?.value === role).map((n: any) => String(n.name?.value ?? ''));
}

describe('a combobox with an autocomplete hint is no secret (issue 22 item 2)', () => {
  it('echoes what was typed into antd’s search input, and the option it found, unmasked', async () => {
    const r = await h.cli({ tab, steps: [{ click: { selector: '#tz' } }, { type: 'Ushuaia' }] });
    expect(r.out.status).toBe('ok');
    // The premise, from the DOM: antd marked the input new-password, and it holds the word.
    const input = await page.value(
      "({ ac: document.querySelector('#tz').getAttribute('autocomplete'), v: document.querySelector('#tz').value, role: document.querySelector('#tz').getAttribute('role') })",
    );
    expect(input).toEqual({ ac: 'new-password', v: 'Ushuaia', role: 'combobox' });
    expect(r.out.steps[1].output.typed).toBe('Ushuaia');
    expect(r.stdout).not.toContain(MASK);
    // The option Chrome's tree shows is named in the answer, whole.
    expect(await axNames('option')).toContain('America/Argentina/Ushuaia');
    expect(JSON.stringify(r.out.changes)).toContain('America/Argentina/Ushuaia');
  });

  it('chooses the option in the next call, and nothing of it is masked there either', async () => {
    const r = await h.cli({ tab, steps: [{ click: { text: 'America/Argentina/Ushuaia' } }] });
    expect(r.out.status).toBe('ok');
    expect(await page.value('window.__zone')).toBe('America/Argentina/Ushuaia');
    expect(r.stdout).toContain('Time zone: America/Argentina/Ushuaia');
    expect(r.stdout).not.toContain(MASK);
  });
});

describe('a secret is masked in every output of this answer and the next', () => {
  it('masks the password where the page echoes it, in the same answer', async () => {
    const r = await h.cli({
      tab,
      steps: [{ fill: { label: 'Password', value: PASSWORD } }, { click: { text: 'Show strength' } }],
    });
    expect(r.out.status).toBe('ok');
    // The page really echoed it (DOM truth), and the answer told the echo with the value masked.
    expect(await page.value("document.querySelector('#echo').textContent")).toBe(`Strength of ${PASSWORD}: good`);
    expect(r.stdout).not.toContain(PASSWORD);
    expect(r.stdout).toContain(`Strength of ${MASK}: good`);
  });

  it('masks it in the next call: in a value read from the page and in an error that quotes the page', async () => {
    const read = await h.cli({ tab, steps: [{ pageFunction: '() => document.body.innerText' }] });
    expect(read.out.steps[0].output.value).toContain(`Strength of ${MASK}`);
    expect(read.stdout).not.toContain(PASSWORD);
    const miss = await h.cli({ tab, steps: [{ assert: { text: 'Strength of hunter3' } }] });
    expect(miss.out.status).toBe('error');
    expect(miss.stdout).not.toContain(PASSWORD);
    expect(miss.stdout).toContain(`Strength of ${MASK}`);
  });

  it('still masks it after the page cleared the field (kept for the document’s life)', async () => {
    await page.value("(document.querySelector('#pw').value = '', true)");
    const read = await h.cli({ tab, steps: [{ pageFunction: "() => document.querySelector('#echo').textContent" }] });
    expect(await page.value("document.querySelector('#pw').value")).toBe('');
    expect(read.out.steps[0].output.value).toBe(`Strength of ${MASK}: good`);
    expect(read.stdout).not.toContain(PASSWORD);
  });
});
