// Words the page's view diff (injected/view-diff.ts) as `changes`: what matters first (alerts,
// status, dialogs, headings, the acted-on element's neighbourhood), each list capped, the rest
// counted, live-region messages once, and a one-line summary naming the biggest change. Pure.
import { actionVerb, stateWord } from './summary.js';
import type { ObservedChange, ObservedDiff } from '../shared/index.js';
import type { StepVerb, ViewportChanges } from './types.js';

/** The summary of an answer whose steps changed nothing the agent can see. */
export const NO_VISIBLE_CHANGE = 'No visible change.';

/** Lines listed over all lists; the rest are counted in `more`. */
export const MAX_LINES = 12;
/** Of which leftView, and of which enteredView (scrolling moves everything: a few names say enough). */
const MAX_VIEW_LINES = 2;
const MAX_QUOTE_CHARS = 80;
const SUMMARY_PHRASES = 3;
const ARROW = ' \u2192 ';

type Kind = ObservedChange['kind'];
type ListField = 'appeared' | 'gone' | 'text' | 'moved' | 'rows' | 'leftView' | 'enteredView';
const LIST_OF: Record<Exclude<Kind, 'state'>, ListField> = {
  appeared: 'appeared',
  gone: 'gone',
  text: 'text',
  moved: 'moved',
  reordered: 'moved',
  rows: 'rows',
  leftView: 'leftView',
  enteredView: 'enteredView',
};

/** Higher first: what an agent must not miss. */
export function salience(c: ObservedChange): number {
  const base: Record<Kind, number> = {
    rows: 70,
    appeared: 60,
    gone: 60,
    moved: 55,
    reordered: 55,
    text: 50,
    state: 40,
    enteredView: 11,
    leftView: 10,
  };
  let s = base[c.kind];
  if (c.kind === 'leftView' || c.kind === 'enteredView') return s;
  if (c.role === 'alert' || c.role === 'alertdialog') s += 50;
  else if (c.live) s += 40;
  if (c.role === 'dialog') s += 35;
  if (c.role === 'heading') s += 25;
  if (c.near) s += 20;
  if (c.field === 'focused') s -= 40; // clicking a button focuses it: rarely news
  return s;
}

export function quote(text: string): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  const cut = chars.length > MAX_QUOTE_CHARS ? `${chars.slice(0, MAX_QUOTE_CHARS - 1).join('')}\u2026` : chars.join('');
  return `'${cut}'`;
}

/** `button 'Save' [ref=s1e4]`; role-less text is just its quote. */
export function describe(c: ObservedChange, withLabel = true): string {
  const parts: string[] = [];
  if (c.frame) parts.push(`in frame ${quote(c.frame)}:`);
  if (c.role !== 'text' || !withLabel || !c.label) parts.push(c.role === 'text' ? 'text' : c.role);
  if (withLabel && c.label) parts.push(quote(c.label));
  if (c.ref) parts.push(`[ref=${c.ref}]`);
  return parts.join(' ');
}

function ordinal(n: string): string {
  const v = Number(n);
  const s = v % 100 >= 11 && v % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][v % 10] ?? 'th');
  return `${v}${s}`;
}

/** One change as a line of its list. */
export function line(c: ObservedChange): string {
  switch (c.kind) {
    case 'text':
      return `${describe(c, false)}: ${quote(c.from ?? '')}${ARROW}${quote(c.to ?? '')}`;
    case 'moved':
      if (c.into !== undefined)
        return `${describe(c)} moved${c.outOf ? ` out of ${quote(c.outOf)}` : ''} into ${c.into ? quote(c.into) : 'another list'}, ${ordinal(c.to!)}`;
      return `${describe(c)} from ${ordinal(c.from!)} to ${ordinal(c.to!)}`;
    case 'reordered':
      return `${describe(c)} reordered (${c.inside} moved)${c.first ? `, first now ${quote(c.first)}` : ''}`;
    case 'rows':
      return `${describe(c)}: rows ${c.from}${ARROW}${c.to}${c.first ? `, first row now ${quote(c.first)}` : ''}`;
    default:
      return `${describe(c)}${c.inside ? ` (+${c.inside} inside)` : ''}`;
  }
}

const inFrame = (c: ObservedChange): string => (c.frame ? `in frame ${quote(c.frame)}: ` : '');

/** The few words the summary gives one change. */
export function phrase(c: ObservedChange): string {
  switch (c.kind) {
    case 'text':
      return c.live || c.role === 'alert'
        ? `${inFrame(c)}${c.role === 'text' ? 'message' : c.role}: ${quote(c.to ?? '')}`
        : `${describe(c, false)} now ${quote(c.to ?? '')}`;
    case 'appeared':
      return c.live && c.label ? `${inFrame(c)}${c.role}: ${quote(c.label)}` : `${describe(c)} appeared`;
    case 'gone':
      return `${describe(c)} gone`;
    case 'state':
      // A paragraph that became a checklist item: named as it is now, with what it was.
      if (c.field === 'role') return `${describe(c)} (was ${c.from === 'text' ? 'text' : c.from})`;
      return `${describe(c)} ${stateWord(c.field!, c.to, quote)}`;
    default:
      return line(c);
  }
}

export interface TellInput {
  diff: ObservedDiff;
  /** The verbs of the command's steps that have one, in order (the runner reads them from the step definitions). */
  actions: readonly StepVerb[];
  /** Live-region messages recorded while the steps ran. */
  live: string[];
  /** Text of the page now: a recorded message still shown is not "briefly shown". */
  shownNow: string;
}

export function tellChanges({ diff, actions, live, shownNow }: TellInput): ViewportChanges {
  const ranked = diff.changes
    .map((c, i) => ({ c, i, s: salience(c) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.c);
  const out: ViewportChanges = { summary: '' };
  const listed = new Map<Kind, number>();
  let lines = 0;
  for (const c of ranked) {
    const viewKind = c.kind === 'leftView' || c.kind === 'enteredView';
    if (lines >= MAX_LINES || (viewKind && (listed.get(c.kind) ?? 0) >= MAX_VIEW_LINES)) continue;
    lines++;
    listed.set(c.kind, (listed.get(c.kind) ?? 0) + 1);
    if (c.kind === 'state')
      (out.changed ??= []).push({
        ...(c.ref ? { ref: c.ref } : { of: describe(c) }),
        field: c.field!,
        from: c.from,
        to: c.to,
      });
    else (out[LIST_OF[c.kind]] ??= []).push(line(c));
  }
  const more: Record<string, number> = {};
  for (const [kind, count] of Object.entries(diff.counts) as [Kind, number][]) {
    const rest = count - (listed.get(kind) ?? 0);
    if (rest > 0) more[kind] = rest;
  }
  if (Object.keys(more).length) out.more = more;
  const said = diff.changes.flatMap((c) => [c.to ?? '', c.label]).filter(Boolean);
  const transient = live.filter(
    (t) => !said.some((s) => s.includes(t.slice(0, 60)) || t.includes(s)) && !shownNow.includes(t.slice(0, 60)),
  );
  if (transient.length) out.transient = transient;
  out.summary = summaryLine(actions, ranked, diff, transient);
  return out;
}

/** The same words twice say nothing new: once, counted (`dialog appeared (×2)`). */
function countRepeats(words: string[]): string[] {
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts].map(([w, n]) => (n > 1 ? `${w} (\u00d7${n})` : w));
}

function summaryLine(
  actions: readonly StepVerb[],
  ranked: ObservedChange[],
  diff: ObservedDiff,
  transient: string[],
): string {
  const total = Object.values(diff.counts).reduce((a, b) => a + b, 0);
  if (!total && !transient.length) return NO_VISIBLE_CHANGE;
  const notView = ranked.filter((c) => c.kind !== 'leftView' && c.kind !== 'enteredView');
  // Focus moving onto what was clicked, and screen-reader-only announcements (told in their list),
  // are named in the summary only when nothing else changed.
  const unfocused = notView.filter((c) => c.field !== 'focused' && !c.sr);
  const top = (unfocused.length ? unfocused : notView).slice(0, SUMMARY_PHRASES);
  const words = countRepeats(top.map(phrase));
  const scrolled = (diff.counts.leftView ?? 0) + (diff.counts.enteredView ?? 0);
  if (scrolled)
    words.push(
      [
        diff.counts.enteredView && `${diff.counts.enteredView} entered view`,
        diff.counts.leftView && `${diff.counts.leftView} left view`,
      ]
        .filter(Boolean)
        .join(', '),
    );
  const focusOnly = notView.length - unfocused.length;
  const rest = total - top.length - scrolled - (unfocused.length ? focusOnly : 0);
  if (rest > 0) words.push(`+${rest} more`);
  let text = words.length ? `${actionVerb(actions)}. ${words.join('; ')}` : actionVerb(actions);
  if (transient.length) text += `. Briefly shown: ${transient.map(quote).join(', ')}`;
  return `${text}.`;
}
