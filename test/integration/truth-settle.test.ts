// Issue 22 item 6, "a read after an action sees the page after it", on the real Leaflet: clicking a
// marker opens its popup while the last one fades out; a step that reads the popup right after the
// click must read this marker's. Oracles: Leaflet's own model (marker.isPopupOpen(), through the
// page's openPopupFor()) evaluated with each read, and the popup left in the DOM afterwards, read
// over the test's own CDP socket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdpToPage, startHarness, type CdpClient, type Harness } from './harness.js';

let h: Harness;
let tab: string;
let page: CdpClient;
const HARBOURS = ['Ushuaia', 'Puerto Williams', 'Puerto Almanza'];
/** What a person reads in the popup now, beside what Leaflet says is open. */
const READ_POPUP =
  "() => ({ shown: [...document.querySelectorAll('.leaflet-popup-content b')].map((b) => b.textContent), open: window.openPopupFor() })";

beforeAll(async () => {
  h = await startHarness();
  tab = await h.open('leaflet-map.html');
  page = await cdpToPage(h.port, `${h.baseUrl}/leaflet-map.html`);
});
afterAll(async () => {
  page?.close();
  await h?.close();
});

describe('a step after an acting step starts once the page settled (issue 22 item 6)', () => {
  it('reads each marker’s popup right after its click, in one command, never the one before', async () => {
    const markers = ['A', 'B', 'C', 'A'];
    const r = await h.cli({
      tab,
      steps: markers.flatMap((m) => [
        { click: { selector: `.leaflet-marker-icon[title="${HARBOURS['ABC'.indexOf(m)]}"]` } },
        { pageFunction: READ_POPUP },
      ]),
    });
    expect(r.out.status, r.stdout).toBe('ok');
    const reads = r.out.steps.filter((s: any) => s.action === 'pageFunction').map((s: any) => s.output.value);
    // Each read shows one popup, the one Leaflet has open, of the marker just clicked.
    expect(reads).toEqual(
      markers.map((m) => ({ shown: [HARBOURS['ABC'.indexOf(m)]], open: HARBOURS['ABC'.indexOf(m)] })),
    );
    // Leaflet pans the map to fit a popup frame by frame: on a loaded machine that may outlast the
    // settle's bound, which the step then says; the read is right either way.
    for (const s of r.out.steps) if (s.warning) expect(s.warning).toMatch(/^the page was still changing after step \d/);
    // After the command: Leaflet's model and the DOM agree on the last one.
    expect(await page.value('window.openPopupFor()')).toBe('Ushuaia');
    expect(
      await page.value("[...document.querySelectorAll('.leaflet-popup-content b')].map((b) => b.textContent)"),
    ).toEqual(['Ushuaia']);
  });

  it('says so when the page was still changing when the next step began', async () => {
    const r = await h.cli({
      tab,
      steps: [
        {
          pageFunction:
            "() => { const p = document.createElement('p'); p.id = 'ticker'; document.body.append(p); let n = 0; window.__ticker = setInterval(() => { p.textContent = String(++n); }, 10); return true; }",
        },
        { pageFunction: "() => document.querySelector('#ticker').textContent.length > 0" },
      ],
    });
    await page.value('(clearInterval(window.__ticker), true)');
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[1].warning).toMatch(/^the page was still changing after step 1 \(DOM changes, for \d+ms\)/);
    expect(r.out.steps[1].output.value).toBe(true);
  });
});
