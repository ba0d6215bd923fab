// The diff oracle (issue 13): seeded random DOM changes (text edits, inserts, removals, reorders,
// hiding and showing, checkbox states, scrolls, frame content, and what a block is with the same text:
// its role, aria-checked, a strike-through — issue 22 item 5; items moved between two lists) and, for
// each, the truth computed by this test from Chrome's own DOM snapshots and accessibility tree
// (DOMSnapshot.captureSnapshot and Accessibility.getFullAXTree over its own socket, elements known by
// backendNodeId): every line of `changes` must be true, and every visible change must be listed or counted.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cdpToPage, startHarness, type CdpClient, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

type Send = CdpClient['send'];

/** One tracked element as Chrome lays it out. */
interface Seen {
  text: string;
  rendered: boolean;
  inView: boolean;
  checked?: boolean;
  row?: true;
  /** Chrome's accessibility role, and its checked state for a role=checkbox element. */
  role?: string;
  ariaChecked?: string;
  /** Its own computed text-decoration-line draws a line through. */
  struck?: boolean;
  /** A list item's list (its parent's id). */
  list?: string;
}
interface Truth {
  els: Map<number, Seen>;
  listOrder: number[];
}

const TRACKED = new Set(['LI', 'P', 'TD', 'TR', 'H1', 'TABLE', 'INPUT']);

/** Tracked elements of the page and its frame: text, rendered (has a layout box), on screen. */
async function truth(send: Send): Promise<Truth> {
  const [snap, metrics] = await Promise.all([
    send('DOMSnapshot.captureSnapshot', { computedStyles: ['text-decoration-line'] }),
    send('Page.getLayoutMetrics'),
  ]);
  const vw = metrics.cssLayoutViewport.clientWidth;
  const vh = metrics.cssLayoutViewport.clientHeight;
  const str = (i: number): string => (i >= 0 ? snap.strings[i] : '');
  const els = new Map<number, Seen>();
  let listOrder: number[] = [];
  // The frame's document is on screen where its iframe is.
  const frameBox = new Map<number, { y: number; h: number; inView: boolean }>();
  snap.documents.forEach((doc: any, di: number) => {
    const n = doc.nodes;
    const box = new Map<number, number[]>();
    const struck = new Set<number>();
    doc.layout.nodeIndex.forEach((ni: number, li: number) => {
      box.set(ni, doc.layout.bounds[li]);
      if (str(doc.layout.styles[li]?.[0] ?? -1).includes('line-through')) struck.add(ni);
    });
    const kids = new Map<number, number[]>();
    n.parentIndex.forEach((p: number, i: number) => {
      if (p >= 0) kids.set(p, [...(kids.get(p) ?? []), i]);
    });
    const textOf = (i: number): string =>
      (kids.get(i) ?? [])
        .map((k) => (n.nodeType[k] === 3 ? str(n.nodeValue[k]) : n.nodeType[k] === 1 ? ` ${textOf(k)} ` : ''))
        .join('')
        .replace(/\s+/g, ' ')
        .trim();
    const attr = (i: number, name: string): string | undefined => {
      const a = n.attributes[i];
      for (let k = 0; k < a.length; k += 2) if (str(a[k]) === name) return str(a[k + 1]);
      return undefined;
    };
    const frame = frameBox.get(di);
    const scrollY = doc.scrollOffsetY ?? 0;
    (n.contentDocumentIndex?.index ?? []).forEach((ni: number, k: number) => {
      const b = box.get(ni);
      if (b)
        frameBox.set(n.contentDocumentIndex.value[k], {
          y: b[1]! - scrollY,
          h: b[3]!,
          inView: b[1]! - scrollY < vh && b[1]! + b[3]! - scrollY > 0,
        });
    });
    const checked = new Set<number>(n.inputChecked?.index ?? []);
    n.nodeName.forEach((nameIdx: number, i: number) => {
      const tag = str(nameIdx);
      if (!TRACKED.has(tag)) return;
      const b = box.get(i);
      const top = b ? (frame ? b[1]! : b[1]! - scrollY) : 0;
      const inView =
        !!b &&
        b[2]! > 0 &&
        b[3]! > 0 &&
        (frame ? frame.inView && top < frame.h : top < vh && top + b[3]! > 0 && b[0]! < vw);
      const text =
        tag === 'INPUT' ? textOf(n.parentIndex[i]) : tag === 'TABLE' ? (attr(i, 'aria-label') ?? '') : textOf(i);
      els.set(n.backendNodeId[i], {
        text,
        rendered: !!b,
        inView,
        ...(tag === 'INPUT' ? { checked: checked.has(i) } : {}),
        ...(tag === 'TR' ? { row: true as const } : {}),
        ...(struck.has(i) ? { struck: true } : {}),
        ...(tag === 'LI' ? { list: attr(n.parentIndex[i], 'id') ?? '' } : {}),
      });
    });
    if (di === 0) {
      const ul = n.nodeName.findIndex((x: number, i: number) => str(x) === 'UL' && attr(i, 'id') === 'list');
      listOrder = (kids.get(ul) ?? [])
        .filter((k) => str(n.nodeName[k]) === 'LI' && box.has(k))
        .map((k) => n.backendNodeId[k]);
    }
  });
  await addRoles(send, els);
  return { els, listOrder };
}

/** Chrome's own role (and aria-checked state) of each tracked element, from its accessibility tree. */
async function addRoles(send: Send, els: Map<number, Seen>): Promise<void> {
  const { nodes } = await send('Accessibility.getFullAXTree');
  for (const n of nodes as any[]) {
    const seen = n.backendDOMNodeId !== undefined ? els.get(n.backendDOMNodeId) : undefined;
    if (!seen || n.ignored) continue;
    seen.role = String(n.role?.value ?? '');
    const checked = n.properties?.find((p: any) => p.name === 'checked')?.value?.value;
    if (seen.role === 'checkbox' && checked !== undefined) seen.ariaChecked = String(checked);
  }
}

/** What a block is that changed with it still on screen: role, struck-through, aria-checked (issue 22 item 5). */
function kindChanges(
  a: Truth,
  b: Truth,
): { kinds: { field: string; from: string; to: string; text: string }[]; ariaChecks: number } {
  const kinds: { field: string; from: string; to: string; text: string }[] = [];
  let ariaChecks = 0;
  const shown = (s?: Seen): s is Seen => !!s && s.rendered && s.inView && s.text !== '';
  for (const [id, after] of b.els) {
    const before = a.els.get(id);
    if (!shown(before) || !shown(after) || after.checked !== undefined) continue;
    if (before.role && after.role && before.role !== after.role)
      kinds.push({ field: 'role', from: before.role, to: after.role, text: after.text });
    if (!!before.struck !== !!after.struck)
      kinds.push({ field: 'struck', from: String(!!before.struck), to: String(!!after.struck), text: after.text });
    if (before.ariaChecked && after.ariaChecked && before.ariaChecked !== after.ariaChecked) ariaChecks++;
  }
  return { kinds, ariaChecks };
}

interface Expected {
  kind: string;
  text: string;
  to?: string;
}

/** What changed on screen between two truths, in the kinds `changes` uses. */
function visibleChanges(a: Truth, b: Truth): { expected: Expected[]; moved: Set<string>; checks: number } {
  const expected: Expected[] = [];
  const visible = (s?: Seen): boolean => !!s && s.rendered && s.inView && s.text !== '';
  for (const [id, before] of a.els) {
    if (!visible(before)) continue;
    const after = b.els.get(id);
    if (!after || !after.rendered) expected.push({ kind: 'gone', text: before.text });
    else if (!after.inView) expected.push({ kind: 'leftView', text: before.text });
    // A row's text is its cells': the cell's line tells it.
    else if (after.text !== before.text && after.text && !after.row)
      expected.push({ kind: 'text', text: before.text, to: after.text });
  }
  for (const [id, after] of b.els) {
    if (!visible(after)) continue;
    const before = a.els.get(id);
    if (before?.rendered && !before.inView) expected.push({ kind: 'enteredView', text: after.text });
    else if (!before?.rendered) expected.push({ kind: 'appeared', text: after.text });
  }
  // Items whose order against another item flipped: any of them may be the one that "moved".
  const moved = new Set<string>();
  const common = b.listOrder.filter((id) => a.listOrder.includes(id));
  for (let i = 0; i < common.length; i++) {
    for (let j = i + 1; j < common.length; j++) {
      if (a.listOrder.indexOf(common[i]!) > a.listOrder.indexOf(common[j]!)) {
        for (const id of [common[i]!, common[j]!])
          if (visible(a.els.get(id)) || visible(b.els.get(id))) moved.add(b.els.get(id)!.text);
      }
    }
  }
  let checks = 0;
  for (const [id, after] of b.els)
    if (
      after.checked !== undefined &&
      after.inView &&
      a.els.get(id)?.inView &&
      a.els.get(id)?.checked !== after.checked
    )
      checks++;
  return { expected, moved, checks };
}

const quotes = (line: string): string[] =>
  [...line.replace(/^in frame '[^']*': /, '').matchAll(/'([^']*)'/g)].map((m) => m[1]!);

it('reports every visible change of 60 seeded random mutation batches, and nothing false', async () => {
  const tab = await h.open('diff-oracle.html');
  const client = await cdpToPage(h.port, `${h.baseUrl}/diff-oracle.html`);
  const falseReports: string[] = [];
  const missed: string[] = [];
  let truths = 0;
  let listed = 0;
  try {
    let before = await truth(client.send);
    for (let seed = 1; seed <= 60; seed++) {
      const r = await h.cli({ tab, steps: [{ pageFunction: `() => window.mutate(${seed}, ${1 + (seed % 3)})` }] });
      const after = await truth(client.send);
      const { expected, moved, checks: inputChecks } = visibleChanges(before, after);
      const { kinds, ariaChecks } = kindChanges(before, after);
      const checks = inputChecks + ariaChecks;
      before = after;
      const c = r.out.changes ?? {};
      const applied = JSON.stringify(r.out.steps[0].output?.value);
      const why = (s: string): string => `seed ${seed} (${applied}): ${s}`;
      // Every line is true.
      for (const kind of ['appeared', 'gone', 'text', 'leftView', 'enteredView']) {
        for (const line of (c[kind] ?? []) as string[]) {
          const [first, second] = quotes(line);
          const ok = expected.some(
            (e) => e.kind === kind && (kind === 'text' ? e.text === first && e.to === second : e.text === first),
          );
          if (!ok) falseReports.push(why(`${kind}: ${line}`));
        }
      }
      for (const line of (c.moved ?? []) as string[])
        if (!moved.has(quotes(line)[0]!) && !/reordered/.test(line)) falseReports.push(why(`moved: ${line}`));
      for (const line of (c.rows ?? []) as string[]) falseReports.push(why(`rows: ${line}`)); // no rows come or go here
      const changed = (c.changed ?? []) as { field: string; from?: string; to?: string; of?: string }[];
      const checked = changed.filter((x) => x.field === 'checked').length;
      if (checked > checks) falseReports.push(why(`${checked} checked changes, ${checks} true`));
      // A role or a strike-through told is one Chrome shows (an element without a ref is named by its text).
      const unmatched = [...kinds];
      for (const x of changed.filter((x) => x.field === 'role' || x.field === 'struck')) {
        const at = unmatched.findIndex(
          (k) => k.field === x.field && k.from === x.from && k.to === x.to && (!x.of || x.of.includes(k.text)),
        );
        if (at < 0) falseReports.push(why(`${x.field}: ${JSON.stringify(x)}`));
        else unmatched.splice(at, 1);
      }
      truths += kinds.length;
      listed += kinds.length - unmatched.length;
      if (unmatched.length && !c.more?.state)
        missed.push(why(`kinds ${JSON.stringify(unmatched)} | ${JSON.stringify(c)}`));
      // Every visible change is listed or counted.
      for (const e of expected) {
        truths++;
        const lines = (c[e.kind] ?? []) as string[];
        if (lines.some((l) => quotes(l)[0] === e.text)) {
          listed++;
          continue;
        }
        const inRow =
          e.kind !== 'text' &&
          (c[e.kind] ?? []).some((l: string) => / \(\+\d+ inside\)$/.test(l) && quotes(l)[0]!.includes(e.text));
        if (inRow || (c.more?.[e.kind] ?? 0) > 0) continue;
        missed.push(why(`${e.kind}: ${e.text}${e.to ? ` -> ${e.to}` : ''} | ${JSON.stringify(c)}`));
      }
      if (moved.size && !(c.moved ?? []).length) missed.push(why(`a reorder among ${[...moved].join(', ')}`));
      if (checks > checked && !c.more?.state) missed.push(why(`${checks - checked} checkbox changes`));
      if (!expected.length && !moved.size && !checks && !kinds.length && r.out.changes)
        expect(r.out.changes.summary, why('nothing visible changed')).toMatch(
          /^(No visible change|Nothing changed on the page)\.$/,
        );
    }
  } finally {
    client.close();
  }
  console.log(
    `diff oracle: ${truths} visible changes, ${listed} listed, ${missed.length} missed, ${falseReports.length} false reports`,
  );
  expect(falseReports).toEqual([]);
  expect(missed).toEqual([]);
  expect(truths).toBeGreaterThan(40);
}, 240_000);

it('tells items moved between two lists as moved, never gone and appeared, never silent (24 seeds)', async () => {
  const tab = await h.open('diff-oracle.html?moves');
  const client = await cdpToPage(h.port, `${h.baseUrl}/diff-oracle.html?moves`);
  const falseReports: string[] = [];
  const missed: string[] = [];
  let crossings = 0;
  try {
    await h.cli({ tab, steps: [{ pageFunction: '() => window.transfer(0, 0)' }] });
    let before = await truth(client.send);
    for (let seed = 1; seed <= 24; seed++) {
      const r = await h.cli({ tab, steps: [{ pageFunction: `() => window.transfer(${seed}, ${1 + (seed % 2)})` }] });
      const after = await truth(client.send);
      const shown = (x?: Seen): x is Seen => !!x && x.rendered && x.inView && x.text !== '';
      // Chrome's DOM: items on screen before and after whose list is another now.
      const crossed = new Set<string>();
      for (const [id, a] of after.els) {
        const b = before.els.get(id);
        if (a.list !== undefined && shown(a) && shown(b) && b.list !== a.list) crossed.add(a.text);
      }
      before = after;
      crossings += crossed.size;
      const c = r.out.changes ?? {};
      const why = (x: string): string => `seed ${seed} (${JSON.stringify(r.out.steps[0].output?.value)}): ${x}`;
      const movedLines = (c.moved ?? []) as string[];
      for (const line of movedLines) if (!crossed.has(quotes(line)[0]!)) falseReports.push(why(`moved: ${line}`));
      for (const kind of ['gone', 'appeared', 'leftView', 'enteredView'])
        for (const line of (c[kind] ?? []) as string[])
          if (crossed.has(quotes(line)[0]!)) falseReports.push(why(`${kind}: ${line}`));
      for (const text of crossed)
        if (!movedLines.some((l) => quotes(l)[0] === text) && !(c.more?.moved > 0))
          missed.push(why(`${text} moved | ${JSON.stringify(c)}`));
    }
  } finally {
    client.close();
  }
  console.log(
    `cross-list moves: ${crossings} items moved, ${missed.length} missed, ${falseReports.length} false reports`,
  );
  expect({ falseReports, missed }).toEqual({ falseReports: [], missed: [] });
  expect(crossings).toBeGreaterThan(20);
}, 180_000);
