// Issue 22 item 10: `frame "#profile-frame"` where that iframe is inside another frame. A selector is
// looked for in the whole frame tree; a path of selectors reaches a frame level by level, through
// same-origin and cross-origin (out-of-process) frames alike. Each effect is read in the frame's own
// document over the test's CDP socket, never through the CLI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdpTo, cdpToPage, startHarness, type CdpClient, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** The value of `#name` in the profile frame the top document's `#outer` holds. */
const OUTER_PROFILE_NAME =
  "document.querySelector('#outer').contentDocument.querySelector('#profile-frame').contentDocument.querySelector('#name').value";
/** The same, in the cross-origin `#xouter`'s own document (its target). */
const XOUTER_PROFILE = "document.querySelector('#profile-frame').contentDocument";

/** Opens the page and waits until every frame, the cross-origin ones too, has its profile form. */
async function openNested(): Promise<string> {
  const tab = await h.open('nested-frames.html');
  const r = await h.cli({
    tab,
    steps: [
      { frame: ['#xouter', '#profile-frame'] },
      { wait: '#name' },
      { frame: 'top' },
      { frame: ['#outer', '#xprofile'] },
      { wait: '#name' },
      { frame: 'top' },
    ],
  });
  expect(r.out.status, r.stdout).toBe('ok');
  return tab;
}

/** The test's own CDP client on the out-of-process frame whose URL has `marker`. */
function frameTarget(marker: string): Promise<CdpClient> {
  return cdpTo(h.port, (t) => t.type === 'iframe' && t.url.includes(marker), `the frame ${marker}`);
}

describe('frames nested in frames', () => {
  it('chooses an iframe inside another frame by its selector alone, and acts inside it', async () => {
    const tab = await openNested();
    const r = await h.cli({
      tab,
      // observe runs after the step, where steps run now: in the frame just chosen.
      steps: [
        { frame: '#profile-frame', observe: '() => location.search' },
        { fill: { selector: '#name', value: 'Ada' } },
      ],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].observation).toEqual({ type: 'string', value: '?in=outer-profile' });
    const chosen = r.out.steps[0].output;
    expect(chosen.url).toMatch(/nested-profile\.html\?in=outer-profile$/);
    expect(chosen.foundIn).toMatch(/nested-outer\.html\?in=outer$/);
    const top = await cdpToPage(h.port, `${h.baseUrl}/nested-frames.html`);
    const xouter = await frameTarget('in=xouter');
    try {
      expect(await top.value(OUTER_PROFILE_NAME)).toBe('Ada');
      // The same id in the cross-origin frame's own profile frame is left alone.
      expect(await xouter.value(`${XOUTER_PROFILE}.querySelector('#name').value`)).toBe('');
    } finally {
      top.close();
      xouter.close();
    }
    // The choice stays with the tab: the next call acts in the nested frame too.
    const again = await h.cli({ tab, steps: [{ fill: { selector: '#name', value: 'Ada L.' } }] });
    expect(again.out.status, again.stdout).toBe('ok');
    const check = await cdpToPage(h.port, `${h.baseUrl}/nested-frames.html`);
    expect(await check.value(OUTER_PROFILE_NAME)).toBe('Ada L.');
    check.close();
  });

  it('follows a path through a cross-origin frame to the frame it holds', async () => {
    const tab = await openNested();
    const r = await h.cli({
      tab,
      steps: [
        { frame: ['#xouter', '#profile-frame'] },
        { fill: { selector: '#name', value: 'Grace' } },
        { click: '#save' },
      ],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output.url).toMatch(/localhost:\d+\/nested-profile\.html\?in=xouter-profile$/);
    expect(r.out.steps[2].output).toMatchObject({ method: 'cdp', targetReceived: true });
    const xouter = await frameTarget('in=xouter');
    const top = await cdpToPage(h.port, `${h.baseUrl}/nested-frames.html`);
    try {
      expect(await xouter.value(`${XOUTER_PROFILE}.querySelector('#name').value`)).toBe('Grace');
      expect(await xouter.value(`${XOUTER_PROFILE}.querySelector('#saved').hidden`)).toBe(false);
      expect(await top.value(OUTER_PROFILE_NAME)).toBe('');
    } finally {
      xouter.close();
      top.close();
    }
  });

  it('reaches a cross-origin frame nested in a same-origin one, by path and by its selector alone', async () => {
    const tab = await openNested();
    const byPath = await h.cli({
      tab,
      steps: [{ frame: { path: ['#outer', '#xprofile'] } }, { fill: { selector: '#name', value: 'Linus' } }],
    });
    expect(byPath.out.status, byPath.stdout).toBe('ok');
    expect(byPath.out.steps[0].output).toMatchObject({ crossOrigin: true });
    const x = await frameTarget('in=outer-x');
    try {
      expect(await x.value("document.querySelector('#name').value")).toBe('Linus');
      const alone = await h.cli({
        tab,
        steps: [{ frame: 'top' }, { frame: '#xprofile' }, { fill: { selector: '#name', value: 'Ken' } }],
      });
      expect(alone.out.status, alone.stdout).toBe('ok');
      expect(alone.out.steps[1].output.foundIn).toMatch(/nested-outer\.html\?in=outer$/);
      expect(await x.value("document.querySelector('#name').value")).toBe('Ken');
    } finally {
      x.close();
    }
  });

  it('refuses a malformed path, and says at which level a frame was missing', async () => {
    const tab = await openNested();
    for (const [frame, message] of [
      [[], /a frame path is a list of 1 to 10 <iframe> selectors/],
      [['#outer', 3], /frame path entry 1 must be a CSS selector of an <iframe>, got number 3/],
      [{ path: ['#outer', 's1e4'] }, /frame path entry 1 is a ref \("s1e4"\)/],
      [{ path: ['#outer'], name: 'x' }, /exactly one of/],
    ] as const) {
      const r = await h.cli({ tab, steps: [{ frame }] });
      expect(r.out.status, r.stdout).toBe('error');
      expect(r.out.error.type).toBe('VALIDATION');
      expect(r.out.error.message).toMatch(message);
    }
    const missing = await h.cli({
      tab,
      stopOnError: false,
      steps: [
        { frame: ['#outer', '#nope'], timeout: 3000 },
        { frame: '#nowhere', timeout: 3000 },
      ],
    });
    expect(missing.out.steps[0].error).toMatch(
      /No element matches "#nope" inside the frame \["#outer"\] leads to \(.*nested-outer\.html\?in=outer\)/,
    );
    expect(missing.out.steps[0].nextStep).toEqual({ frame: { list: true } });
    expect(missing.out.steps[1].error).toMatch(
      /No element matches "#nowhere" in this document or any frame of the tab/,
    );
  });
});
