// Closed shadow roots (issue 14 item 14): real Lit components with shadowRootOptions mode 'closed'
// (test/fixtures/bundles/closed-lit.js). Snapshot, elementsAt and acting reach their content; names
// are checked against Chrome's own accessibility tree and actions against the components' own state,
// both read over this test's own CDP socket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axNodeOfRef, cdpToPage, startHarness, type CdpClient, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const PAGE = 'closed-shadow.html';

async function openPage(): Promise<{ tab: string; client: CdpClient }> {
  const tab = await h.open(PAGE);
  const client = await cdpToPage(h.port, `${h.baseUrl}/${PAGE}`);
  await client.value(
    'Promise.all(["x-counter", "x-login", "x-outer", "x-inner"].map((n) => customElements.whenDefined(n)))',
  );
  // What page scripts (and our world, unaided) see: the hosts, no roots.
  expect(await client.value('[counter.shadowRoot, login.shadowRoot, outer.shadowRoot]')).toEqual([null, null, null]);
  return { tab, client };
}

/** The top-viewport centre of the element Chrome finds by `match` in the pierced DOM tree. */
async function centreOf(client: CdpClient, match: (n: any) => boolean): Promise<{ x: number; y: number }> {
  const { root } = await client.send('DOM.getDocument', { depth: -1, pierce: true });
  const found: any[] = [];
  const walk = (n: any): void => {
    if (match(n)) found.push(n);
    for (const c of [...(n.children ?? []), ...(n.shadowRoots ?? [])]) walk(c);
  };
  walk(root);
  expect(found).toHaveLength(1);
  const { model } = await client.send('DOM.getBoxModel', { backendNodeId: found[0].backendNodeId });
  const q = model.content as number[];
  return { x: (q[0]! + q[4]!) / 2, y: (q[1]! + q[5]!) / 2 };
}

const attr = (n: any, name: string): string | undefined => {
  const a: string[] = n.attributes ?? [];
  const i = a.indexOf(name);
  return i >= 0 && i % 2 === 0 ? a[i + 1] : undefined;
};

describe('closed shadow roots (item 14)', () => {
  it('shows closed content in the snapshot, marked, with roles and names as in Chrome', async () => {
    const { tab, client } = await openPage();
    try {
      const r = await h.cli({ tab, steps: [{ snapshot: true }] });
      expect(r.out.status, r.stdout).toBe('ok');
      const yaml: string = r.out.steps[0].output.yaml;
      // Each host keeps a line of its own, marked; its content sits under it (two levels for the nested one).
      expect(yaml.match(/\[closed-shadow\]/g)).toHaveLength(4);
      expect(yaml).toMatch(/- generic \[closed-shadow\]:\n\s+- heading "Counter"/);
      expect(yaml).toMatch(/- generic \[closed-shadow\]:\n\s+- button "Deep action" \[ref=/);
      const ours = [...yaml.matchAll(/^\s*- (\w+)(?: "((?:[^"\\]|\\.)*)")?.*\[ref=(s\d+e\d+)\]/gm)].map((m) => ({
        role: m[1]!,
        name: m[2] ? (JSON.parse(`"${m[2]}"`) as string) : '',
        ref: m[3]!,
      }));
      expect(ours.map((o) => `${o.role} ${o.name}`)).toEqual([
        'button Increment counter',
        'textbox User name',
        'checkbox Remember me',
        'button Sign in',
        'button Deep action',
        'button Plain button',
      ]);
      // Chrome's own tree: every ref'd element, found through our world's ref map, has that role and name.
      await client.send('DOM.getDocument', { depth: 0 });
      const { frameTree } = await client.send('Page.getFrameTree');
      const { executionContextId: contextId } = await client.send('Page.createIsolatedWorld', {
        frameId: frameTree.frame.id,
        worldName: 'cdp-skill',
      });
      for (const { role, name, ref } of ours) {
        const ax = await axNodeOfRef(client, contextId, ref);
        expect(`${ref} ${ax.role?.value} "${ax.name?.value ?? ''}"`).toBe(`${ref} ${role} "${name}"`);
      }
      // And the full tree has what we show inside the closed roots.
      const { nodes: all } = await client.send('Accessibility.getFullAXTree');
      const named = new Set(all.map((n: any) => `${n.role?.value} ${n.name?.value ?? ''}`));
      for (const o of ours) expect(named.has(`${o.role} ${o.name}`), `${o.role} ${o.name}`).toBe(true);
    } finally {
      client.close();
    }
  });

  it('clicks, fills and types inside closed roots, by ref and by text, and the components see it', async () => {
    const { tab, client } = await openPage();
    try {
      const snap = await h.cli({ tab, steps: [{ snapshot: true }] });
      const yaml: string = snap.out.steps[0].output.yaml;
      const refOf = (line: RegExp): string => yaml.match(line)![1]!;
      const inc = refOf(/button "Increment counter" \[ref=(s\d+e\d+)\]/);
      const user = refOf(/textbox "User name" \[ref=(s\d+e\d+)\]/);
      const r = await h.cli({
        tab,
        steps: [
          { click: inc },
          { fill: { ref: user, value: 'ann' } },
          { click: user },
          { type: 'e-marie' },
          { click: { text: 'Remember me' } },
          { click: { text: 'Sign in' } },
          { click: { text: 'Deep action' } },
        ],
      });
      expect(r.out.status, r.stdout).toBe('ok');
      for (const i of [0, 4, 5, 6])
        expect(r.out.steps[i].output, `step ${i}`).toMatchObject({ method: 'cdp', targetReceived: true });
      expect(r.out.steps[0].output.target).toBe('button "Increment counter"');
      expect(r.out.steps[6].output.target).toBe('button "Deep action"');
      // The components' own state (the counter and the inner button count trusted clicks only).
      expect(
        await client.value(
          '[counter.count, login.user, login.remember, login.signedIn, globalThis.__innerPressed, document.activeElement.id]',
        ),
      ).toEqual([1, 'anne-marie', true, true, 1, 'outer']); // focus: the last click's button, two closed roots deep
    } finally {
      client.close();
    }
  });

  it('shows closed content in the first look after a navigation, with refs that act', async () => {
    const tab = await h.open('basic.html');
    const r = await h.cli({ tab, steps: [{ goto: `${h.baseUrl}/${PAGE}` }] });
    expect(r.out.status, r.stdout).toBe('ok');
    const view: string = r.out.viewportSnapshot;
    expect(view).toMatch(/\[closed-shadow\]/);
    const ref = view.match(/button "Sign in" \[ref=(s\d+e\d+)\]/)![1]!;
    const client = await cdpToPage(h.port, `${h.baseUrl}/${PAGE}`);
    try {
      const click = await h.cli({ tab, steps: [{ click: ref }] });
      expect(click.out.steps[0].output, click.stdout).toMatchObject({ method: 'cdp', targetReceived: true });
      expect(await client.value('login.signedIn')).toBe(true);
    } finally {
      client.close();
    }
  });

  it('finds closed content at a point with elementsAt, and its ref acts on it', async () => {
    const { tab, client } = await openPage();
    try {
      const at = await centreOf(
        client,
        (n) => n.localName === 'button' && attr(n, 'aria-label') === 'Increment counter',
      );
      const r = await h.cli({ tab, steps: [{ elementsAt: at }] });
      expect(r.out.status, r.stdout).toBe('ok');
      const found = r.out.steps[0].output;
      expect(found).toMatchObject({ tag: 'button', clickable: true });
      const click = await h.cli({ tab, steps: [{ click: found.ref }] });
      expect(click.out.steps[0].output, click.stdout).toMatchObject({ method: 'cdp', targetReceived: true });
      expect(await client.value('counter.count')).toBe(1);
    } finally {
      client.close();
    }
  });
});
