// Acting on what real apps are built from (issue 14): Shoelace web components and Tom Select, served
// from node_modules. Every claim is checked against the app's own state, not read back from our answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdpTo, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function openActing(): Promise<string> {
  const tab = await h.open('acting.html');
  await h.cli({
    tab,
    steps: [
      { pageFunction: 'Promise.all(["sl-button", "sl-input", "sl-dialog"].map((n) => customElements.whenDefined(n)))' },
    ],
  });
  return tab;
}

describe('honest clicks and keys (items 4 and 13)', () => {
  it('fails a fallback click nothing followed, with a nextStep, and leaves the widget as it was', async () => {
    const tab = await openActing();
    // Tom Select hides the original <select> behind its own control: only element.click() reaches it.
    const r = await h.cli({ tab, steps: [{ click: { selector: '#fruit', timeout: 500 } }] });
    expect(r.out.status).toBe('error');
    expect(r.out.steps[0]).toMatchObject({ status: 'error', category: 'no-effect' });
    expect(r.out.steps[0].error).toMatch(/element\.click\(\) \(untrusted\).*nothing followed/);
    expect(r.out.steps[0].nextStep).toEqual({ elementsAt: { x: expect.any(Number), y: expect.any(Number) } });
    expect(await h.value(tab, '[fruit.isOpen, fruit.getValue(), document.activeElement === document.body]')).toEqual([
      false,
      '',
      true,
    ]);
  });

  it('says how a covered button was clicked and what followed, then sends no keys to where focus stayed', async () => {
    const tab = await openActing();
    await h.cli({
      tab,
      steps: [
        { pageFunction: 'document.getElementById("dlg").show()' },
        { wait: { selector: '#dlg[open]', state: 'attached' } },
      ],
    });
    const r = await h.cli({
      tab,
      steps: [{ click: { selector: '#behind', timeout: 500 } }, { type: 'abc' }, { press: 'Enter' }],
    });
    const [click, type] = r.out.steps;
    expect(click).toMatchObject({ status: 'ok', output: { method: 'jsClick-auto', target: 'button "Add row"' } });
    expect(click.output.fallback).toMatch(/^element\.click\(\) \(untrusted\) on button "Add row": it is covered by/);
    expect(click.output.effect).toMatch(/the page changed/);
    expect(type).toMatchObject({ status: 'error', category: 'no-effect' });
    expect(type.error).toMatch(/No key was sent.*dialog "Rename"/);
    expect(r.out.steps).toHaveLength(2); // the batch stopped before the keyboard steps
    // The app's state: the row was added once; the dialog's field never got the keys.
    expect(
      await h.value(tab, '[document.querySelectorAll("#rows li").length, document.getElementById("rename").value]'),
    ).toEqual([1, '']);
  });

  it('fails keys that went to the page body when nothing reacted, and names where keys went', async () => {
    const tab = await openActing();
    const lost = await h.cli({ tab, steps: [{ press: 'x' }] });
    expect(lost.out.steps[0]).toMatchObject({ status: 'error', category: 'no-effect' });
    expect(lost.out.steps[0].error).toMatch(/went to the page body/);
    // Tab from the body moves focus: the page reacted, so the step stands.
    const tabbed = await h.cli({ tab, steps: [{ press: 'Tab' }] });
    expect(tabbed.out.steps[0]).toMatchObject({
      status: 'ok',
      output: { pressed: 'Tab', target: 'the page body (no element has focus)' },
    });
    expect(await h.value(tab, 'document.activeElement !== document.body')).toBe(true);
    const typed = await h.cli({ tab, steps: [{ click: '.ts-control' }, { type: 'Cher' }] });
    expect(typed.out.steps[1].output).toEqual({ typed: 'Cher', target: 'combobox "Favourite fruit"' });
    expect(await h.value(tab, 'fruit.control_input.value')).toBe('Cher');
  });
});

describe('web components that delegate focus (item 1)', () => {
  it('clicks, types, fills and focuses Shoelace <sl-input> through its host, at any depth', async () => {
    const tab = await openActing();
    const r = await h.cli({
      tab,
      steps: [{ click: 'sl-input[name=nick]' }, { type: 'neo' }, { type: { selector: '#card', text: 'Oslo' } }],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[1].output.target).toBe('textbox "Nickname"');
    // Shoelace's own value property, and the element that holds focus, say where the keys went.
    expect(await h.value(tab, '[document.getElementById("nick").value, card.city.value]')).toEqual(['neo', 'Oslo']);
    const f = await h.cli({
      tab,
      steps: [
        { fill: { selector: 'sl-input[name=nick]', value: 'trinity' } },
        { fill: { selector: '#card', value: 'Bergen' } },
        { press: { key: 'End', selector: 'sl-input[name=nick]' } },
      ],
    });
    expect(f.out.status, f.stdout).toBe('ok');
    expect(f.out.steps[0].output).toMatchObject({ filled: true, target: 'textbox "Nickname"' });
    expect(
      await h.value(
        tab,
        '[document.getElementById("nick").value, card.city.value, document.activeElement.id, document.activeElement.shadowRoot.activeElement.localName]',
      ),
    ).toEqual(['trinity', 'Bergen', 'nick', 'input']);
  });
});

describe('saying what was acted on (item 5)', () => {
  it('prefers the Shoelace <sl-button> to the <h2> of the same text, and names it', async () => {
    const tab = await openActing();
    const r = await h.cli({ tab, steps: [{ click: { text: 'Preferences' } }] });
    expect(r.out.steps[0].output).toMatchObject({ clicked: true, method: 'cdp', target: 'button "Preferences"' });
    expect(await h.value(tab, 'document.getElementById("prefs-count").textContent')).toBe('opened 1 times');
  });
});

describe('formatted inputs (item 2)', () => {
  it('takes a value react-number-format re-formatted as success with a warning naming both, on every fill path', async () => {
    const tab = await h.open('formatted.html');
    const r = await h.cli({
      tab,
      steps: [
        { fill: { label: 'Amount', value: '1234.50', react: true } },
        { fill: { selector: '#phone', value: '5550102000' } },
      ],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output).toMatchObject({
      filled: true,
      method: 'nativeSetter',
      value: '$1,234.50',
      target: 'textbox "Amount"',
    });
    expect(r.out.steps[0].warning).toBe('the page formatted "1234.50" as "$1,234.50" in textbox "Amount"');
    expect(r.out.steps[1].output).toMatchObject({ filled: true, method: 'insertText', value: '(555) 010-2000' });
    expect(r.out.steps[1].warning).toMatch(/formatted "5550102000" as "\(555\) 010-2000"/);
    // The library's own state: the numbers it parsed out of the formatted text.
    expect(await h.value(tab, '[__state.amount.floatValue, __state.phone.value]')).toEqual([1234.5, '5550102000']);
    // The same value again (the field already shows it) and a batch fill: still success, still named.
    const again = await h.cli({
      tab,
      steps: [{ fill: { label: 'Amount', value: '1234.50' } }, { fill: { Amount: '99', '#phone': '5550102001' } }],
    });
    expect(again.out.status, again.stdout).toBe('ok');
    expect(again.out.steps[0].warning).toMatch(/formatted "1234.50" as "\$1,234.50"/);
    expect(
      await h.value(tab, '[__state.amount.floatValue, __state.phone.value, document.getElementById("amount").value]'),
    ).toEqual([99, '5550102001', '$99.00']);
  });
});

describe('no false alarms (item 15)', () => {
  it('does not call a drag on a canvas ignored, nor advise dragging again with html5', async () => {
    const tab = await h.open('canvas-drag.html');
    const box = await h.value(
      tab,
      '(() => { const r = document.getElementById("board").getBoundingClientRect(); return { x: r.x, y: r.y }; })()',
    );
    const r = await h.cli({
      tab,
      steps: [{ drag: { source: { x: box.x + 50, y: box.y + 50 }, target: { x: box.x + 200, y: box.y + 150 } } }],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output.dropped).toBeUndefined();
    expect(r.stdout).not.toMatch(/html5|ignored the drag/);
    expect(r.out.steps[0].warning).toMatch(/<canvas>/);
    expect(await h.value(tab, '__shapes.length')).toBe(1); // the app drew exactly one shape
  });

  it('offers no near match that names another order as the step to run', async () => {
    const tab = await h.open('acting.html');
    await h.cli({
      tab,
      steps: [
        {
          pageFunction:
            'document.querySelector("main").insertAdjacentHTML("beforeend", "<table><tr><td><button>ORD-00211</button></td></tr></table>")',
        },
      ],
    });
    const r = await h.cli({ tab, steps: [{ click: { text: 'ORD-04711', timeout: 300 } }] });
    expect(r.out.steps[0].category).toBe('selector-not-found');
    // The near match is there for the agent to read, but not as a step to run.
    expect(r.out.steps[0].context.nearMatches.map((m: { name: string }) => m.name)).toContain('ORD-00211');
    expect(JSON.stringify(r.out.steps[0].nextStep)).not.toMatch(/"click"/);
  });
});

describe('clicks inside iframes (item 3)', () => {
  it('lands a trusted click in a cross-origin frame and a same-origin frame partly below the fold, and none on the host', async () => {
    for (let round = 0; round < 2; round++) {
      const tab = await h.open('xframes.html');
      // Push both frames down so each shows only its top strip: their buttons start below the fold.
      await h.cli({
        tab,
        steps: [{ pageFunction: 'document.getElementById("same").style.marginTop = (innerHeight - 60) + "px"; true' }],
      });
      const r = await h.cli({
        tab,
        steps: [
          { frame: { name: 'details' } },
          { wait: '#child-button' },
          { click: '#child-button' },
          { frame: 'top' },
          { pageFunction: 'scrollTo(0, 0)' },
          { frame: { name: 'payment' } },
          { wait: '#pay-button' },
          { click: { text: 'Pay now' } },
        ],
      });
      expect(r.out.status, r.stdout).toBe('ok');
      for (const i of [2, 7])
        expect(r.out.steps[i].output, r.stdout).toMatchObject({ clicked: true, method: 'cdp', targetReceived: true });
      // The apps' own records, read over this test's own CDP sockets: the out-of-process payment
      // frame's button got exactly one trusted click, the details frame's one, the host's content none.
      const host = await cdpTo(h.port, (t) => t.type === 'page' && t.url.endsWith('/xframes.html'));
      const pay = await cdpTo(h.port, (t) => t.type === 'iframe' && t.url.includes('/xframe-pay.html'));
      try {
        expect(await pay.value('[window.__pay, document.getElementById("done").hidden]')).toEqual([
          { trusted: 1, untrusted: 0 },
          false,
        ]);
        expect(
          await host.value('[document.getElementById("same").contentWindow.__events, window.__hostInput, scrollY > 0]'),
        ).toEqual([['child'], [], true]);
      } finally {
        host.close();
        pay.close();
      }
      await h.cli({ tab, steps: [{ closeTab: tab }] });
    }
  });

  it('never says the target received a click its own handler did not get', async () => {
    const tab = await h.open('xframes.html');
    // The app moves its button away on the press (as some widgets do): the release, and so the
    // click, land beside it. A person would not have clicked it either.
    await h.cli({
      tab,
      steps: [
        {
          pageFunction:
            'const b = document.getElementById("top-button"); window.__got = { trusted: 0, untrusted: 0 }; ' +
            'b.addEventListener("mousedown", () => { b.style.transform = "translateX(400px)"; }); ' +
            'b.addEventListener("click", (e) => { __got[e.isTrusted ? "trusted" : "untrusted"]++; b.textContent = "Done"; }); true',
        },
      ],
    });
    const r = await h.cli({ tab, steps: [{ click: '#top-button' }] });
    expect(r.out.status, r.stdout).toBe('ok');
    const out = r.out.steps[0].output;
    const got = await h.value(tab, '__got');
    expect(got.trusted).toBe(0); // the app's own record: no trusted click reached it
    expect(out.targetReceived, r.stdout).toBe(false);
    expect(out.method).toBe('jsClick-auto'); // the click was completed by element.click(), and says so
    expect(out.fallback).toMatch(/trusted press reached it but the release landed/);
    expect(got.untrusted).toBe(1);
  });
});

describe('frames by name at any depth (item 8)', () => {
  it('finds a grandchild and a sibling frame by name, right after a goto, and suggests the frameId of a near name', async () => {
    const tab = await h.open('basic.html');
    const r = await h.cli({
      tab,
      steps: [
        { goto: `${h.baseUrl}/xframes.html` },
        { frame: { name: 'inner' } },
        { pageFunction: 'location.search' },
        { frame: { name: 'payment' } },
        { pageFunction: 'location.pathname' },
      ],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[2].output.value).toBe('?level=2'); // the grandchild's own document
    expect(r.out.steps[4].output.value).toBe('/xframe-pay.html');
    const miss = await h.cli({ tab, steps: [{ frame: 'top' }, { frame: { name: 'Payment' } }] });
    expect(miss.out.steps[1]).toMatchObject({ status: 'error', category: 'frame' });
    const next = miss.out.steps[1].nextStep;
    expect(next).toEqual({ frame: { frameId: expect.any(String) } });
    const ran = await h.cli({ tab, steps: [next, { pageFunction: 'location.pathname' }] });
    expect(ran.out.steps[1].output.value).toBe('/xframe-pay.html');
  });
});

describe('hover that opens things (item 6)', () => {
  it('waits for a delayed Tippy tooltip, and reopens a Tippy menu under a pointer that already rests there', async () => {
    const tab = await h.open('tippy.html');
    const tip = await h.cli({
      tab,
      steps: [{ hover: { selector: '#help', captureResult: true } }, { pageFunction: 'String(tip.state.isVisible)' }],
    });
    expect(tip.out.status, tip.stdout).toBe('ok');
    expect(JSON.stringify(tip.out.steps[0].output.capturedResult.visibleElements)).toMatch(/Opens the handbook/);
    expect(tip.out.steps[1].output.value).toBe('true'); // Tippy's own state, read in the same command
    const first = await h.cli({ tab, steps: [{ hover: { selector: '#actions', captureResult: true } }] });
    expect(JSON.stringify(first.out.steps[0].output.capturedResult.visibleElements)).toMatch(/Rename/);
    // The menu closes while the pointer stays on the button; hovering again must open it again.
    await h.cli({ tab, steps: [{ pageFunction: 'menu.hide(); menu.popper.remove(); true' }] });
    expect(await h.value(tab, 'menu.state.isVisible')).toBe(false);
    const again = await h.cli({
      tab,
      steps: [
        { hover: { selector: '#actions', captureResult: true } },
        { pageFunction: 'String(menu.state.isVisible)' },
      ],
    });
    expect(JSON.stringify(again.out.steps[0].output.capturedResult.visibleElements)).toMatch(/Rename/);
    expect(again.out.steps[1].output.value).toBe('true');
  });
});
