// Roles and names of every ref'd element agree with Chrome's own accessibility tree, except for
// the deliberate differences listed here (each serves agents better than Chrome's internal role).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { axNodeOfRef, cdpToPage, startHarness, type Harness } from './harness.js';

/** Our role → Chrome's internal role where we choose an ARIA role agents know. */
const DELIBERATE_ROLE: Record<string, string[]> = {
  // date/time inputs: we say textbox [type=date]; a contenteditable host (rich-text editor), which
  // Chrome calls generic, is a textbox to us so agents see where to type and get a ref for it
  textbox: ['Date', 'DateTime', 'InputTime', 'generic'],
  button: ['DisclosureTriangle', 'ColorWell'], // <summary>, <input type=color>
  generic: ['none'], // a clickable <span> (onclick or cursor: pointer) that Chrome leaves out; we give it a ref
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

it.each(['aria.html', 'changes.html', 'rerender.html', 'actions.html', 'names.html'])(
  'matches Chrome for every ref on %s',
  async (page) => {
    const tab = await h.open(page);
    const r = await h.cli({ tab, steps: [{ snapshot: { root: 'body' } }] });
    const ours = [
      ...(r.out.steps[0].output.yaml as string).matchAll(/^\s*- (\w+)(?: "((?:[^"\\]|\\.)*)")?.*\[ref=(s\d+e\d+)\]/gm),
    ].map((m) => ({ role: m[1]!, name: m[2] ? (JSON.parse(`"${m[2]}"`) as string) : '', ref: m[3]! }));
    expect(ours.length).toBeGreaterThan(3);
    const client = await cdpToPage(h.port, `${h.baseUrl}/${page}`);
    try {
      await client.send('DOM.getDocument', { depth: 0 });
      // Refs live in our isolated world (same name: Chrome hands back that world), not in the page's.
      const { frameTree } = await client.send('Page.getFrameTree');
      const { executionContextId: contextId } = await client.send('Page.createIsolatedWorld', {
        frameId: frameTree.frame.id,
        worldName: 'cdp-skill',
      });
      expect((await client.send('Runtime.evaluate', { expression: 'typeof window.__ariaRefs' })).result.value).toBe(
        'undefined',
      );
      for (const { role, name, ref } of ours) {
        const ax = await axNodeOfRef(client, contextId, ref);
        const chromeRole: string = ax.role?.value;
        const chromeName: string = ax.name?.value ?? '';
        if (!DELIBERATE_ROLE[role]?.includes(chromeRole))
          expect(`${ref} ${role}`).toBe(
            `${ref} ${chromeRole === 'generic' && role === 'generic' ? 'generic' : chromeRole}`,
          );
        if (name.endsWith('…')) expect(chromeName.startsWith(name.slice(0, -1)), `${ref} name`).toBe(true);
        else expect(`${ref} "${name}"`).toBe(`${ref} "${chromeName.replace(/\s+/g, ' ').trim()}"`);
      }
    } finally {
      client.close();
    }
  },
);

// CSS generated content is part of a name as in Chrome's tree (names.html is also in the list above,
// which compares every ref's name with Chrome's); controls with no name at all get a hint instead.
it('names from ::before/::after (Quill picker) and hints for controls with none', async () => {
  const tab = await h.open('names.html');
  const r = await h.cli({ tab, steps: [{ snapshot: { root: 'body' } }] });
  const yaml = r.out.steps[0].output.yaml as string;
  for (const line of [
    /- button "Heading 1" \[ref=/,
    /- button "Add item" \[ref=/,
    /- link "Show all \(12 more\)"/,
    /- button "Favourite" \[ref=/,
    /- button "Normal" \[collapsed\] \[ref=/,
    /- button \[ref=s\d+e\d+\] \(ql-bold\)$/m,
    /- generic \[ref=s\d+e\d+\] \(ui-slider-handle\)$/m,
    /- generic \[ref=s\d+e\d+\] \(flatpickr-prev-month\)$/m,
    /- generic \[ref=s\d+e\d+\] \(flatpickr-next-month\)$/m,
    /- button \[ref=s\d+e\d+\] \(close-panel\)$/m,
  ])
    expect(yaml).toMatch(line);
  // A hint never stands in for a name: Chrome gives these elements none either.
  const client = await cdpToPage(h.port, `${h.baseUrl}/names.html`);
  try {
    const { root } = await client.send('DOM.getDocument', { depth: 0 });
    const axName = async (selector: string): Promise<string> => {
      const { nodeId } = await client.send('DOM.querySelector', { nodeId: root.nodeId, selector });
      const { nodes } = await client.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
      return nodes[0]?.name?.value ?? '';
    };
    for (const selector of ['.flatpickr-next-month', '.ui-slider-handle', '.ql-bold', '#close-panel'])
      expect(`${selector} "${await axName(selector)}"`).toBe(`${selector} ""`);
    expect(await axName('.ql-picker-label')).toBe('Normal');
  } finally {
    client.close();
  }
});
