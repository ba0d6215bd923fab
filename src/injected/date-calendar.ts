// A calendar's days and controls, read in the page: every visible element that carries a day (in
// data-day, data-date, data-timestamp, a title or its accessible name) and shows that day's number;
// the months shown whole; and the calendar's own controls to turn months and years, its year list
// and its OK button. date-picker.ts serves these to the Node side (dom/date-calendar.ts presses them).

import { dayOfAttribute, dayOfWords, monthNames, shownDayNumber, type MonthNames } from './date-text.js';
import { isHtml, isVisible, textSnippet } from './dom-describe.js';
import { cachedName, cachedRole, parentOrHost, refContext, refOf, type RefContext } from './element-query.js';
import { heldElement, holdElement } from './locate.js';
import { deepElements, syncCounters, type Counters } from './ref-map.js';
import { state } from './state.js';

/** What the runtime keeps between calls of one choose step: the day cells shown before the calendar opened. */
export interface DatePickerState {
  before: WeakSet<Element>;
  names: MonthNames;
}

export type NavKind = 'prevMonth' | 'nextMonth' | 'prevYear' | 'nextYear' | 'yearView' | 'yearInput';

export interface Pressable {
  ref: string;
  disabled: boolean;
  /** A year box's own bounds (its min and max attributes), when it has them. */
  min?: number;
  max?: number;
}

export interface CalendarRequest {
  /** The calendar found before (a held element), looked in again while it is in the page. */
  root?: number;
  /** The days wanted: each one in view is answered with its ref. */
  wants: string[];
  /** Only days that appeared since markCalendars: the calendar this step opened, not one shown before. */
  fresh?: boolean;
  /** A year whose entry in an open year list is wanted. */
  year?: number;
  counters?: Counters;
}

export interface CalendarLook {
  /** The calendar, held for the next look; undefined when no calendar shows. */
  root?: number;
  /** The months shown whole (YYYY-MM), in order. */
  months: string[];
  days: (Pressable & { date: string; selected: boolean })[];
  nav: Partial<Record<NavKind, Pressable>>;
  yearOption?: Pressable;
  /** The calendar's button that accepts the choice (a dialog's OK). */
  commit?: string;
  /** What showed instead, when no calendar could be read. */
  seen?: string;
  counters: Counters;
}

interface DayCell {
  el: Element;
  date: string;
}

function pickerState(): DatePickerState {
  state.datePicker ??= {
    before: new WeakSet(),
    names: monthNames([document.documentElement.lang, navigator.language, 'en'].filter(Boolean)),
  };
  return state.datePicker;
}

const DAY_ATTRIBUTES = ['data-day', 'data-date', 'data-value', 'datetime', 'data-timestamp', 'data-iso'];

function cellDate(el: Element, names: MonthNames): string | undefined {
  for (const a of DAY_ATTRIBUTES) {
    const v = el.getAttribute(a);
    const d = v ? dayOfAttribute(v) : undefined;
    if (d) return d;
  }
  for (const a of ['title', 'aria-label']) {
    const v = el.getAttribute(a);
    const d = v ? (dayOfAttribute(v) ?? dayOfWords(v, names)) : undefined;
    if (d) return d;
  }
  return undefined;
}

/** The month names of the page's language, its browser's and English. */
export function pageMonthNames(): MonthNames {
  return pickerState().names;
}

/** Visible elements that carry a day and show its number; of a cell and the button in it, the cell. */
function dayCells(within: Element | Document): DayCell[] {
  const names = pickerState().names;
  const found: DayCell[] = [];
  for (const el of deepElements(within)) {
    if (!el.hasAttributes()) continue;
    const date = cellDate(el, names);
    if (!date || shownDayNumber(el.textContent ?? '') !== +date.slice(8) || !isVisible(el)) continue;
    found.push({ el, date });
  }
  return found.filter((c) => !found.some((o) => o !== c && o.date === c.date && o.el.contains(c.el)));
}

/** Whether `el` shows days itself (an inline calendar named as the field). */
export function holdsDays(el: Element): boolean {
  return dayCells(el).length >= 28;
}

/** Remembers the days shown before the calendar opens: what appears afterwards is the calendar. */
export function markCalendars(): void {
  pickerState().before = new WeakSet(dayCells(document).map((c) => c.el));
}

const daysInMonth = (ym: string): number => new Date(+ym.slice(0, 4), +ym.slice(5, 7), 0).getDate();

/** The months every day of which is shown; a grid's leading and trailing days of other months are not. */
function monthsInView(cells: DayCell[]): string[] {
  const byMonth = new Map<string, Set<string>>();
  for (const c of cells) {
    const ym = c.date.slice(0, 7);
    if (!byMonth.has(ym)) byMonth.set(ym, new Set());
    byMonth.get(ym)!.add(c.date);
  }
  return [...byMonth]
    .filter(([ym, days]) => days.size >= daysInMonth(ym))
    .map(([ym]) => ym)
    .sort();
}

function commonAncestor(els: Element[]): Element | undefined {
  const chain: Element[] = [];
  for (let e: Element | null = els[0] ?? null; e; e = parentOrHost(e)) chain.push(e);
  let i = 0;
  for (const el of els.slice(1)) while (i < chain.length && !chain[i]!.contains(el)) i++;
  return chain[i];
}

const CELL_OFF = /(^|[\s_-])(disabled|unavailable|blocked)([\s_-]|$)/i;
const CELL_ON = /(^|[\s_-])(selected|range[-_]?start|range[-_]?end|startrange|endrange)([\s_-]|$)/i;

/** A day, or a control, the picker will not take: disabled in any of the ways libraries say it. */
function isOff(el: Element): boolean {
  return [el, ...Array.from(el.querySelectorAll('*')).slice(0, 4)].some(
    (e) =>
      (e as HTMLButtonElement).disabled === true ||
      e.getAttribute('aria-disabled') === 'true' ||
      e.getAttribute('data-disabled') === 'true' ||
      CELL_OFF.test(e.getAttribute('class') ?? ''),
  );
}

function isOn(el: Element): boolean {
  return [el, ...Array.from(el.querySelectorAll('*')).slice(0, 4)].some(
    (e) =>
      e.getAttribute('aria-selected') === 'true' ||
      e.getAttribute('aria-pressed') === 'true' ||
      e.getAttribute('data-selected') === 'true' ||
      CELL_ON.test(e.getAttribute('class') ?? ''),
  );
}

/** Which of the calendar's own controls `el` is, by its name, title, class or arrow glyph. */
export function navKind(el: Element): NavKind | undefined {
  const label = `${el.getAttribute('aria-label') ?? ''} ${el.getAttribute('title') ?? ''}`.toLowerCase();
  const words = `${label} ${(el.getAttribute('class') ?? '').toLowerCase()}`;
  if (/decade|century/.test(words)) return undefined;
  if (isHtml(el, 'input')) return /year/.test(words) && /^(number|text)$/.test(el.type) ? 'yearInput' : undefined;
  if (!el.matches('button, a, [role=button]') && !/(^|[^a-z])(prev|next)/.test(words)) return undefined;
  const glyph = (el.textContent ?? '').trim();
  const next = /(^|[^a-z])next([^a-z]|$)|forward/.test(words) || /^[\u203a\u00bb>\u2192]$/.test(glyph);
  const prev = /(^|[^a-z])(prev|previous|last|back)([^a-z]|$)/.test(words) || /^[\u2039\u00ab<\u2190]$/.test(glyph);
  if (next === prev) return !next && /year view|choose a year|select (a )?year/.test(label) ? 'yearView' : undefined;
  const year = /year|super/.test(words) || /^[\u00ab\u00bb]$/.test(glyph);
  return next ? (year ? 'nextYear' : 'nextMonth') : year ? 'prevYear' : 'prevMonth';
}

function navIn(root: Element, ctx: RefContext): CalendarLook['nav'] {
  const nav: CalendarLook['nav'] = {};
  for (const el of deepElements(root)) {
    const kind = navKind(el);
    if (!kind || nav[kind] || !isVisible(el)) continue;
    nav[kind] = pressable(ctx, el);
  }
  return nav;
}

function pressable(ctx: RefContext, el: Element): Pressable {
  const role = cachedRole(ctx, el);
  const out: Pressable = { ref: refOf(ctx, el, role, cachedName(ctx, el, role)).ref, disabled: isOff(el) };
  const bound = (name: string): number => Number.parseInt(el.getAttribute(name) ?? '', 10);
  if (isHtml(el, 'input') && Number.isFinite(bound('min'))) out.min = bound('min');
  if (isHtml(el, 'input') && Number.isFinite(bound('max'))) out.max = bound('max');
  return out;
}

/** The calendar: from the days' common ancestor up to the one that holds its month controls. */
function calendarRoot(cells: DayCell[]): Element | undefined {
  const base = commonAncestor(cells.map((c) => c.el));
  let e: Element | null | undefined = base;
  for (let up = 0; e && up < 8 && e !== document.body; up++, e = parentOrHost(e)) {
    for (const el of deepElements(e)) {
      const kind = navKind(el);
      if ((kind === 'nextMonth' || kind === 'prevMonth') && isVisible(el)) return e;
    }
  }
  return base;
}

const COMMIT = /^(ok|done|apply|accept|confirm)$/i;

/** A year list's entry (MUI's year view) and a dialog's OK, near the calendar. */
function extras(root: Element, ctx: RefContext, year: number | undefined): Pick<CalendarLook, 'yearOption' | 'commit'> {
  const out: Pick<CalendarLook, 'yearOption' | 'commit'> = {};
  let box: Element = root;
  // Up to the popup or dialog the calendar is in, never into the page around it.
  for (let up = 0; up < 6 && box.parentElement && box.parentElement !== document.body; up++) {
    if (box.matches('[role=dialog], [aria-modal=true]') || /^(absolute|fixed)$/.test(getComputedStyle(box).position))
      break;
    box = box.parentElement;
  }
  for (const el of deepElements(box)) {
    if (!el.matches('button, [role=button], [role=radio], [role=option], [role=gridcell]') || !isVisible(el)) continue;
    const text = (el.textContent ?? '').trim();
    if (year !== undefined && !out.yearOption && text === String(year) && root.contains(el))
      out.yearOption = pressable(ctx, el);
    if (!out.commit && COMMIT.test(text) && !isOff(el)) out.commit = pressable(ctx, el).ref;
  }
  return out;
}

/** What showed when no calendar could be read: the last visible popup-like element's text. */
function seenInstead(): string {
  const popups = Array.from(
    document.querySelectorAll('[role=dialog], [role=grid], [role=listbox], [class*=calendar i], [class*=picker i]'),
  ).filter((e) => isVisible(e));
  const last = popups[popups.length - 1];
  return last ? textSnippet(last, 200) : 'no calendar, dialog or grid appeared';
}

/** The calendar the field opened (the days that appeared since markCalendars, or the one held), read. */
export function readCalendar(req: CalendarRequest): CalendarLook {
  const ctx = refContext(req.counters);
  const held = req.root !== undefined ? heldElement(req.root) : undefined;
  const kept = held?.isConnected && isVisible(held) ? held : undefined;
  let cells = kept ? dayCells(kept) : [];
  if (!kept) {
    const all = dayCells(document);
    const before = pickerState().before;
    cells = req.fresh ? all.filter((c) => !before.has(c.el)) : all;
  }
  const months = monthsInView(cells);
  const shown = cells.filter((c) => months.includes(c.date.slice(0, 7)));
  // A calendar showing its year list has no days: the one held is still the calendar.
  const root = kept ?? (shown.length ? calendarRoot(shown) : undefined);
  if (!root) return { months: [], days: [], nav: {}, seen: seenInstead(), counters: syncCounters(undefined) };
  const days = shown
    .filter((c) => req.wants.includes(c.date))
    .map((c) => ({ date: c.date, ...pressable(ctx, c.el), selected: isOn(c.el) }));
  return {
    root: kept && req.root !== undefined ? req.root : holdElement(root),
    months,
    days,
    nav: navIn(root, ctx),
    ...extras(root, ctx, req.year),
    counters: syncCounters(undefined),
  };
}
