// Date pickers, read in the page: the field an agent names — a native date input, a field typed in
// sections (MUI's), or an input that opens a calendar — with the control that opens it, and what
// the field shows afterwards; the calendar itself is read by date-calendar.ts. The Node side
// (dom/choose-date.ts) does every press and key.

import { sectionKind, type DateSectionKind } from '../shared/index.js';
import { holdsDays, markCalendars, pageMonthNames, readCalendar } from './date-calendar.js';
import { daysIn } from './date-text.js';
import { isHtml, isVisible } from './dom-describe.js';
import { cachedName, cachedRole, parentOrHost, refContext, refOf } from './element-query.js';
import { heldElement, holdElement, targetName } from './locate.js';
import { syncCounters, type Counters } from './ref-map.js';

export { markCalendars, readCalendar };
export type { CalendarLook, CalendarRequest, DatePickerState, NavKind, Pressable } from './date-calendar.js';

export type DateFieldKind = 'native' | 'sections' | 'calendar';

export type DateField =
  | {
      ok: true;
      kind: DateFieldKind;
      /** The field as a person sees it (held): a hidden input stands for the visible one beside it. */
      handle: number;
      name: string;
      disabled: boolean;
      readOnly: boolean;
      /** The control that opens the calendar: a button of the field's own, else the field. */
      opener?: string;
      /** Its calendar shows already: the opener says so, or the field is an inline calendar. */
      expanded: boolean;
      /** A native input's bounds. */
      min?: string;
      max?: string;
      counters: Counters;
    }
  | { ok: false; name: string; type: string };

const FACE = 'input:not([type=hidden]), [role=group], [role=combobox], [role=textbox], button';
const OPENER = /calendar|date|picker|datum|fecha|calendrier|kalender|data/i;

/** Up to three levels out: the nearest ancestor holding typed sections, else undefined. */
function sectionsBox(el: Element): Element | undefined {
  for (let e: Element | null = el, up = 0; e && up < 4; e = parentOrHost(e), up++)
    if (e.querySelector('[role=spinbutton]') && e.matches('[role=group], div, span')) return e;
  return undefined;
}

/** The visible face of a field: itself, its typed sections' group, or the visible input next to a hidden one (flatpickr's alt input). */
function faceOf(el: Element): Element {
  const box = sectionsBox(el);
  if (box) return box.closest('[role=group]') ?? box;
  if (isVisible(el) && !(isHtml(el, 'input') && el.type === 'hidden')) return el;
  for (let s = el.nextElementSibling; s; s = s.nextElementSibling) if (s.matches(FACE) && isVisible(s)) return s;
  return el;
}

const otherFields = (box: Element, face: Element): number =>
  Array.from(box.querySelectorAll(FACE)).filter(
    (e) => e !== face && !face.contains(e) && isVisible(e) && !e.matches('button'),
  ).length;

/** A button of the field's own that opens its calendar, looked for in the field and a few levels around it. */
function openerOf(face: Element): Element | undefined {
  for (let box: Element | null = face, up = 0; box && up < 4; box = parentOrHost(box), up++) {
    if (up > 0 && otherFields(box, face) > 1) return undefined;
    for (const b of Array.from(box.querySelectorAll('button, [role=button]'))) {
      if (b === face || !isVisible(b)) continue;
      const words = `${b.getAttribute('aria-label') ?? ''} ${b.getAttribute('title') ?? ''}`;
      if (
        b.hasAttribute('data-mui-picker-open-button') ||
        /^(dialog|grid|true)$/.test(b.getAttribute('aria-haspopup') ?? '') ||
        OPENER.test(words)
      )
        return b;
    }
  }
  return undefined;
}

/**
 * A label whose field is a hidden input (flatpickr's altInput hides the labelled one behind a visible
 * copy): the hidden input, held, which dateField turns into the visible face. Others are found by locate.
 */
export function hiddenFieldByLabel(name: string, exact: boolean): number | undefined {
  const want = name.replace(/\s+/g, ' ').trim().toLowerCase();
  for (const label of Array.from(document.querySelectorAll('label'))) {
    const text = (label.textContent ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
    if (exact ? text !== want : !text.includes(want)) continue;
    const target = label.htmlFor ? document.getElementById(label.htmlFor) : label.querySelector('input');
    if (target && isHtml(target, 'input') && target.type === 'hidden') return holdElement(target);
  }
  return undefined;
}

/** The date field `handle` names: its kind, its face and what opens its calendar. */
export function dateField(handle: number, counters: Counters | undefined): DateField {
  const el = heldElement(handle);
  if (!el?.isConnected) return { ok: false, name: 'the field', type: 'gone' };
  if (isHtml(el, 'input') && /^(datetime-local|month|week|time)$/.test(el.type))
    return { ok: false, name: targetName(el), type: el.type };
  const ctx = refContext(counters);
  const native = isHtml(el, 'input') && el.type === 'date';
  const face = native ? el : faceOf(el);
  const kind: DateFieldKind = native ? 'native' : sectionsOf(face).length ? 'sections' : 'calendar';
  const opener = native ? undefined : (openerOf(face) ?? face);
  const input = isHtml(face, 'input') ? face : isHtml(el, 'input') ? el : undefined;
  const role = opener ? cachedRole(ctx, opener) : '';
  return {
    ok: true,
    kind,
    handle: holdElement(face),
    name: targetName(face),
    disabled: (input?.disabled ?? false) || face.getAttribute('aria-disabled') === 'true',
    readOnly: native && (input?.readOnly ?? false),
    ...(opener ? { opener: refOf(ctx, opener, role, cachedName(ctx, opener, role)).ref } : {}),
    expanded: !native && (opener?.getAttribute('aria-expanded') === 'true' || holdsDays(face)),
    ...(native && input?.min ? { min: input.min } : {}),
    ...(native && input?.max ? { max: input.max } : {}),
    counters: syncCounters(undefined),
  };
}

export interface DateSection {
  kind: DateSectionKind;
  ref: string;
}

function sectionsOf(face: Element): Element[] {
  return Array.from(face.querySelectorAll('[role=spinbutton]')).filter((s) => isVisible(s));
}

/** A sectioned field's sections in the order shown, each told day, month or year by its range. */
export function dateSections(
  handle: number,
  counters: Counters | undefined,
): { sections: DateSection[]; counters: Counters } {
  const face = heldElement(handle);
  const ctx = refContext(counters);
  const sections: DateSection[] = [];
  for (const s of face ? sectionsOf(face) : []) {
    const kind = sectionKind(Number(s.getAttribute('aria-valuemin') ?? 0), Number(s.getAttribute('aria-valuemax')));
    const role = cachedRole(ctx, s);
    if (kind) sections.push({ kind, ref: refOf(ctx, s, role, cachedName(ctx, s, role)).ref });
  }
  return { sections, counters: syncCounters(undefined) };
}

/** What the field shows: its value, or its text; a range's two inputs (antd's RangePicker) both. */
function shownBy(face: Element): string {
  const sections = sectionsOf(face);
  if (sections.length) {
    // The sections' own line (MUI's section list), without the label its outline repeats.
    let line = sections[0]!.parentElement;
    while (line && line !== face && !sections.every((s) => line!.contains(s))) line = line.parentElement;
    return (line?.textContent ?? '').replace(/\s+/g, ' ').trim();
  }
  if (!isHtml(face, 'input')) return (face.textContent ?? '').replace(/\s+/g, ' ').trim();
  const box = face.parentElement?.parentElement;
  const inputs = box ? Array.from(box.querySelectorAll('input:not([type=hidden])')).filter((i) => isVisible(i)) : [];
  if (inputs.length === 2 && inputs.includes(face))
    return inputs.map((i) => (i as HTMLInputElement).value).join(' \u2013 ');
  return face.value;
}

export interface FieldReading {
  shows: string;
  /** The field names every wanted day. */
  takes: boolean;
  /** The days read in what it shows. */
  read: string[];
  /** The field marks its value invalid (aria-invalid, a native input's validity). */
  invalid: boolean;
}

/** What the field shows now, the days read in it, and whether it marks them invalid. */
export function readDateField(handle: number, wants: string[]): FieldReading {
  const face = heldElement(handle);
  if (!face?.isConnected) return { shows: '', takes: false, read: [], invalid: false };
  const shows = shownBy(face).slice(0, 200);
  const invalid =
    !!face.closest('[aria-invalid=true]') ||
    !!face.querySelector('[aria-invalid=true]') ||
    (isHtml(face, 'input') && !face.validity.valid);
  const read = isHtml(face, 'input') && face.type === 'date' ? [face.value] : [...daysIn(shows, pageMonthNames())];
  return { shows, takes: wants.every((w) => read.includes(w)), read: read.filter(Boolean), invalid };
}

/** A point on the left of a native date input's text, where its first section is: a click there focuses it. */
export function nativeFirstSection(handle: number): { x: number; y: number } | undefined {
  const el = heldElement(handle);
  if (!el || !isVisible(el)) return undefined;
  el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  const r = el.getBoundingClientRect();
  const s = getComputedStyle(el);
  return {
    x: r.left + Number.parseFloat(s.borderLeftWidth) + Number.parseFloat(s.paddingLeft) + 4,
    y: r.top + r.height / 2,
  };
}
