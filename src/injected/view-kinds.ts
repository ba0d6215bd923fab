// What an element is, as the diff tells it (issue 22 item 5): a block whose role or kind changed with
// the same text (a paragraph that became a checklist item, a row re-rendered as another element) and
// a mark that changes its meaning (struck through) are changes; an editor's blocks are told only for
// these (their text is the editor's value). Pairs of gone and appeared elements that read the same
// are one element re-rendered. Facts for view-diff.ts; runs in the page.
import { STATE_FIELDS, type ObservedChange, type ObservedKind, type StateField } from '../shared/index.js';
import type { ViewUnit } from './view-walk.js';

export interface Found {
  change: ObservedChange;
  el: Element;
  /** The unit that appeared or went (for pairing a re-rendered element with its old self). */
  unit?: ViewUnit;
}

export function describeUnit(u: ViewUnit, kind: ObservedKind): ObservedChange {
  return {
    kind,
    role: u.role,
    label: u.label,
    ...(u.frame ? { frame: u.frame } : {}),
    ...(u.live ? { live: 1 as const } : {}),
    ...(u.sr ? { sr: 1 as const } : {}),
  };
}

/** The role and the struck mark of one element, before and after: `state` changes of field role/struck. */
export function kindChanges(b: ViewUnit, a: ViewUnit, el: Element): Found[] {
  const out: Found[] = [];
  if (b.role !== a.role)
    out.push({ change: { ...describeUnit(a, 'state'), field: 'role', from: b.role, to: a.role }, el });
  if (!!b.struck !== !!a.struck)
    out.push({
      change: { ...describeUnit(a, 'state'), field: 'struck', from: String(!!b.struck), to: String(!!a.struck) },
      el,
    });
  return out;
}

/** What a popup holds: gone with it, never the same element as what shows the choice after. */
const POPUP_ROLES = new Set(['option', 'listbox', 'menu', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tooltip']);

/** State fields a re-rendered element is compared on (focus lands on new elements as a matter of course). */
const PAIR_FIELDS = STATE_FIELDS.filter((f) => f !== 'focused');

/** The states that differ between an element's two readings (or it and the one that replaced it). */
function stateChanges(b: ViewUnit, a: ViewUnit, el: Element, fields: readonly StateField[]): Found[] {
  const out: Found[] = [];
  for (const field of fields) {
    const from = b.states?.[field];
    const to = a.states?.[field];
    if (from !== to)
      out.push({
        change: {
          ...describeUnit(a, 'state'),
          field,
          ...(from !== undefined ? { from } : {}),
          ...(to !== undefined ? { to } : {}),
        },
        el,
      });
  }
  return out;
}

/**
 * What changed between two readings of an element, or an element and the one that replaced it,
 * beyond its text: its states, role and marks. A paragraph that became a checkbox is told as that,
 * not as a checkbox state that came from nowhere.
 */
export function unitChanges(b: ViewUnit, a: ViewUnit, el: Element, fields: readonly StateField[]): Found[] {
  return [...(b.role === a.role ? stateChanges(b, a, el, fields) : []), ...kindChanges(b, a, el)];
}

/**
 * A re-render replaces elements with equal ones: a gone and an appeared unit that read the same
 * (same role first, then the same text of their own under another role) are one element, told by what changed
 * between them — nothing, its role, its marks or states. Blocks inside an editor that came or went
 * otherwise are the editor's value changing, told there.
 */
export function pairReplacements(found: Found[]): Found[] {
  const dropped = new Set<Found>();
  const added: Found[] = [];
  const key = (f: Found, withRole: boolean): string =>
    `${withRole ? f.change.role : ''}|${f.change.label}|${f.change.frame ?? ''}`;
  // Under another role, only blocks whose text is their own: a list box named by the option it held,
  // or the option itself, is not the text that shows the choice afterwards.
  const ownText = (f: Found): boolean => !!f.unit?.text && !POPUP_ROLES.has(f.change.role);
  for (const withRole of [true, false]) {
    const appeared = new Map<string, Found[]>();
    for (const f of found)
      if (f.change.kind === 'appeared' && !dropped.has(f) && (withRole || (f.change.label && ownText(f))))
        appeared.set(key(f, withRole), [...(appeared.get(key(f, withRole)) ?? []), f]);
    for (const f of found) {
      if (f.change.kind !== 'gone' || dropped.has(f) || (!withRole && !ownText(f))) continue;
      const twin = appeared.get(key(f, withRole))?.find((x) => !dropped.has(x));
      if (!twin) continue;
      dropped.add(twin);
      dropped.add(f);
      if (f.unit && twin.unit) added.push(...unitChanges(f.unit, twin.unit, twin.el, PAIR_FIELDS));
    }
  }
  const kept = found.filter(
    (f) => !dropped.has(f) && !((f.change.kind === 'appeared' || f.change.kind === 'gone') && f.unit?.edit),
  );
  return [...kept, ...added];
}
