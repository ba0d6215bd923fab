// A day picked in a calendar as a person picks it: the field's own opener pressed, the months turned
// by the calendar's own controls (its year controls when the day is years away), the day pressed by
// the date it carries, a dialog's OK pressed; disabled days and the calendar's ends are refused.
// The page side (injected/date-calendar.ts) reads the calendar; everything here is trusted input.

import { ExecutionError } from '../common/index.js';
import type { CalendarLook } from '../injected/index.js';
import { press } from './choose-seek.js';
import { pressKey, type DateRun } from './date-keys.js';
import { typeText } from './keyboard.js';

type Pressable = NonNullable<CalendarLook['nav']['nextMonth']>;

/** A calendar being driven: the run, the calendar held in the page, whether this step opened it. */
interface Calendar extends DateRun {
  root?: number;
  opened: boolean;
  /** Presses of month and year controls so far. */
  turns: number;
}

const POLL_MS = 50;
/** How long a calendar gets to appear after its opener is pressed. */
const OPEN_WAIT_MS = 3_000;
/** How long a month or year control gets to show the next page (slide transitions included). */
const TURN_WAIT_MS = 2_000;
/** How long a picker gets to take a pressed day. */
const PICK_WAIT_MS = 1_500;
/** Farther than this, a year control is used when the calendar has one. */
const YEAR_JUMP_MONTHS = 24;
/** The most month presses one day may take (twenty years). */
const MAX_TURNS = 240;

async function look(cal: Calendar, year?: number): Promise<CalendarLook> {
  const l = await cal.scope.call(
    (rt, r) => rt.datePicker.readCalendar(r),
    {
      wants: cal.wants,
      fresh: cal.opened,
      ...(cal.root !== undefined ? { root: cal.root } : {}),
      ...(year !== undefined ? { year } : {}),
      ...(cal.refs.counters ? { counters: cal.refs.counters } : {}),
    },
    { deadline: cal.deadline, what: 'the calendar' },
  );
  cal.refs.counters = l.counters;
  cal.root = l.root;
  return l;
}

/** Looks until `done` holds for two looks in a row (a transition over), or `waitMs` passed. */
async function lookUntil(
  cal: Calendar,
  done: (l: CalendarLook) => boolean,
  waitMs: number,
  year?: number,
): Promise<CalendarLook> {
  const until = cal.deadline.cap(waitMs);
  let last = '';
  for (;;) {
    const l = await look(cal, year);
    const sig = done(l) ? `${l.months.join()}|${l.days.map((d) => d.ref).join()}|${!!l.yearOption}` : '';
    if ((sig && sig === last) || until.expired()) return l;
    last = sig;
    await until.sleep(POLL_MS);
  }
}

const shownMonths = (l: CalendarLook): string =>
  l.months.length ? l.months.map((m) => monthName(m)).join(' and ') : 'no whole month';
const monthName = (ym: string): string =>
  new Date(Date.UTC(+ym.slice(0, 4), +ym.slice(5, 7) - 1, 1)).toLocaleString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** A calendar that cannot be read: what was seen, and a look at the page as the next step. */
function unreadable(cal: Calendar, l: CalendarLook, what: string): ExecutionError {
  const seen = l.seen ? ` Seen instead: "${l.seen}".` : '';
  return new ExecutionError(`${what} for ${cal.name}.${seen} Look at the page and pick the day by its ref.`, {
    category: 'no-effect',
    nextStep: { snapshot: true },
  });
}

/** Opens the calendar the way a person does, unless it shows already; its first look. */
async function openCalendar(cal: Calendar, opener: string, expanded: boolean): Promise<CalendarLook> {
  if (expanded) return lookUntil(cal, (x) => x.months.length > 0, OPEN_WAIT_MS);
  await cal.scope.call((rt) => rt.datePicker.markCalendars(), undefined, { deadline: cal.deadline });
  await press(cal, opener);
  cal.opened = true;
  const l = await lookUntil(cal, (x) => x.months.length > 0, OPEN_WAIT_MS);
  if (l.months.length) return l;
  // Nothing new appeared: the calendar may have been open already (left open by an earlier step).
  cal.opened = false;
  const shown = await look(cal);
  cal.opened = true;
  return shown.months.length ? shown : l;
}

const monthIndex = (ym: string): number => +ym.slice(0, 4) * 12 + +ym.slice(5, 7) - 1;

/** Months from the calendar's view to `want`'s: negative before its first month, 0 when shown. */
function gapTo(l: CalendarLook, want: string): number {
  const w = monthIndex(want.slice(0, 7));
  const first = monthIndex(l.months[0]!);
  const last = monthIndex(l.months[l.months.length - 1]!);
  return w < first ? w - first : w > last ? w - last : 0;
}

/** Presses a month or year control and waits until the calendar shows other months that way. */
async function turn(cal: Calendar, ctl: Pressable, from: CalendarLook, forward: boolean): Promise<CalendarLook> {
  const was = forward ? from.months[0]! : from.months[from.months.length - 1]!;
  await press(cal, ctl.ref);
  cal.turns++;
  const moved = (l: CalendarLook): boolean =>
    l.months.length > 0 && (forward ? l.months[0]! > was : l.months[l.months.length - 1]! < was);
  const l = await lookUntil(cal, moved, TURN_WAIT_MS);
  if (!moved(l))
    throw unreadable(
      cal,
      l,
      `A press on the calendar's ${forward ? 'next' : 'previous'} control left it on ${shownMonths(l)}`,
    );
  return l;
}

/** The calendar goes no further: its control that way is missing or disabled. */
function endOfCalendar(cal: Calendar, want: string, l: CalendarLook, forward: boolean): ExecutionError {
  const ctl = l.nav[forward ? 'nextMonth' : 'prevMonth'];
  return new ExecutionError(
    `${cal.name} refuses ${want}: its calendar goes no ${forward ? 'later' : 'earlier'} than ${shownMonths(l)} (the ${forward ? 'next' : 'previous'}-month control is ${ctl ? 'disabled' : 'gone'})`,
    { category: 'disabled' },
  );
}

/** Types the year into the calendar's year box (flatpickr's), pressed first. */
async function typeYear(cal: Calendar, box: Pressable, year: number): Promise<void> {
  await press(cal, box.ref);
  await pressKey(cal, process.platform === 'darwin' ? 'Meta+a' : 'Control+a');
  await typeText(cal.scope.page.session, String(year), 0, cal.deadline);
  await pressKey(cal, 'Enter');
}

/** Years away: the calendar's own year controls, when it has any; undefined when it has none. */
async function jumpYears(cal: Calendar, l: CalendarLook, want: string): Promise<CalendarLook | undefined> {
  const year = +want.slice(0, 4);
  const gap = gapTo(l, want);
  const forward = gap > 0;
  const step = l.nav[forward ? 'nextYear' : 'prevYear'];
  if (step && !step.disabled) {
    for (let n = Math.trunc(Math.abs(gap) / 12); n > 0; n--)
      l = await turn(cal, l.nav[forward ? 'nextYear' : 'prevYear']!, l, forward);
    return l;
  }
  const inYear = (x: CalendarLook): boolean => x.months.some((m) => +m.slice(0, 4) === year);
  const box = l.nav.yearInput;
  if (box && !box.disabled) {
    // A year its box does not take is refused before typing (flatpickr shakes the box and keeps its year).
    if ((box.min !== undefined && year < box.min) || (box.max !== undefined && year > box.max))
      throw new ExecutionError(
        `${cal.name} refuses ${want}: its calendar's year box takes ${box.min ?? '…'} to ${box.max ?? '…'}`,
        { category: 'disabled' },
      );
    await typeYear(cal, box, year);
    cal.turns++;
    return lookUntil(cal, inYear, TURN_WAIT_MS);
  }
  if (!l.nav.yearView || l.nav.yearView.disabled) return undefined;
  await press(cal, l.nav.yearView.ref);
  const list = await lookUntil(cal, (x) => !!x.yearOption, TURN_WAIT_MS, year);
  if (!list.yearOption) throw unreadable(cal, list, `The calendar's year list shows no ${year}`);
  if (list.yearOption.disabled)
    throw new ExecutionError(`${cal.name} refuses ${want}: the year ${year} is disabled in its year list`, {
      category: 'disabled',
    });
  await press(cal, list.yearOption.ref);
  cal.turns++;
  return lookUntil(cal, inYear, TURN_WAIT_MS);
}

/** Turns the calendar until `want` is in view, by its own controls. */
async function navigateTo(cal: Calendar, l: CalendarLook, want: string): Promise<CalendarLook> {
  let jumped: CalendarLook | undefined;
  for (let presses = 0; ; presses++) {
    if (l.days.some((d) => d.date === want)) return l;
    if (!l.months.length) throw unreadable(cal, l, 'No calendar with whole months showed');
    const gap = gapTo(l, want);
    if (gap === 0) throw unreadable(cal, l, `The calendar shows ${shownMonths(l)} but no day ${want} in it`);
    // Years are jumped once per day; what is left is turned month by month.
    if (Math.abs(gap) > YEAR_JUMP_MONTHS && !jumped) {
      jumped = (await jumpYears(cal, l, want)) ?? l;
      if (jumped.months.length && gapTo(jumped, want) !== gap) {
        l = jumped;
        continue;
      }
    }
    const ctl = l.nav[gap > 0 ? 'nextMonth' : 'prevMonth'];
    if (!ctl || ctl.disabled) throw endOfCalendar(cal, want, l, gap > 0);
    if (presses >= MAX_TURNS) throw unreadable(cal, l, `${MAX_TURNS} month presses did not reach ${want}`);
    l = await turn(cal, ctl, l, gap > 0);
  }
}

export interface CalendarPick {
  turns: number;
  /** The calendar was closed by this step with Escape or OK after the last day. */
  closedBy?: 'Escape' | 'OK';
}

/**
 * Picks each day in turn (a range's two ends) in the calendar `opener` opens. Checks refusals
 * before pressing; after the last day presses a dialog's OK, or Escape when the calendar this
 * step opened stays open. The caller reads the field back.
 */
export async function pickOnCalendar(run: DateRun, opener: string, expanded: boolean): Promise<CalendarPick> {
  const cal: Calendar = { ...run, opened: false, turns: 0 };
  try {
    return await pickDays(cal, await openCalendar(cal, opener, expanded));
  } catch (err) {
    // The calendar this step opened is closed again; the error says what was seen.
    if (cal.opened && cal.root !== undefined && !cal.deadline.expired())
      await pressKey(cal, 'Escape').catch(() => {
        /* the step failed already: its error is the answer, an open calendar shows in the capture */
      });
    throw err;
  }
}

async function pickDays(cal: Calendar, l: CalendarLook): Promise<CalendarPick> {
  if (!l.months.length) throw unreadable(cal, l, 'No calendar with whole months appeared after pressing the opener');
  for (const [i, want] of cal.wants.entries()) {
    l = await navigateTo(cal, l, want);
    const day = l.days.find((d) => d.date === want)!;
    if (day.disabled)
      throw new ExecutionError(`${cal.name} refuses ${want}: the day is disabled in its calendar`, {
        category: 'disabled',
      });
    await press(cal, day.ref);
    const taken = (x: CalendarLook): boolean => !x.months.length || !!x.days.find((d) => d.date === want)?.selected;
    l = await lookUntil(cal, taken, PICK_WAIT_MS);
    if (!l.months.length && i < cal.wants.length - 1)
      throw new ExecutionError(
        `${cal.name} closed its calendar after ${want}: it takes one day, not a range. Choose each end in its own field`,
        { category: 'no-effect' },
      );
  }
  const out: CalendarPick = { turns: cal.turns };
  if (l.months.length && cal.opened) {
    if (l.commit) await press(cal, l.commit);
    else await pressKey(cal, 'Escape');
    out.closedBy = l.commit ? 'OK' : 'Escape';
    await lookUntil(cal, (x) => !x.months.length, PICK_WAIT_MS);
  }
  return out;
}
