// Finding one option of a select-like widget the way a person does: look at the open popup (waiting
// while it says "Loading…"), type into a searchable control when the option is not shown, turn the
// wheel over a virtualised list, then press it with the real mouse. dom/choose.ts drives these.

import { ExecutionError, type Deadline } from '../common/index.js';
import type { Scope } from '../page/index.js';
import type { Look, LookRequest, Match } from '../injected/index.js';
import { editDistance, nearestFirst, parseOptionWant } from '../shared/index.js';
import { revealFramePoint } from './frame-point.js';
import { parseCombo } from './key-combo.js';
import { pressCombo, typeText } from './keyboard.js';
import { prepareAction, type RefHolder } from './locate.js';
import { clickAt, moveMouse, wheel } from './mouse.js';

/** What one choose step knows while it looks for options. */
export interface Seeker {
  scope: Scope;
  refs: RefHolder;
  deadline: Deadline;
  /** The held control (our world's handle) and its ref (for pressing it). */
  control: number;
  controlRef: string;
  exact: boolean;
  group: boolean;
  /** Columns of levels already chosen. */
  exclude: number[];
  /** The agent's `force`: press past covering layers. */
  force?: boolean;
  /** The step opened the popup (a failure closes it again). */
  opened?: boolean;
  typed?: string;
  scrolled: number;
}

/** Between looks at a popup that is still filling. */
const LOOK_INTERVAL_MS = 80;
/** An empty popup gets this long to show its first options (a busy page renders a first popup slowly). */
const EMPTY_WAIT_MS = 5_000;
/** A control that says its popup is closed gets this long to open it after the press. */
const CLOSED_WAIT_MS = 400;
/** The longest wait for a popup that keeps loading or changing. */
const LOOK_MAX_MS = 10_000;
/** Wheel turns tried on one list before it counts as seen whole. */
const MAX_WHEEL_TURNS = 150;
/** Time kept back from the step's deadline for the press and the read-back. */
const ACT_RESERVE_MS = 1_000;

export function lookOnce(s: Seeker, want: string): Promise<Look> {
  const req: LookRequest = {
    control: s.control,
    want,
    exact: s.exact,
    exclude: s.exclude,
    group: s.group,
    ...(s.refs.counters ? { counters: s.refs.counters } : {}),
  };
  return s.scope
    .call((rt, r) => rt.choose.look(r), req, { deadline: s.deadline, what: `the options of ${s.controlRef}` })
    .then((l) => {
      if (l.counters) s.refs.counters = l.counters;
      return l;
    });
}

const signature = (l: Look): string => `${l.total}|${l.options.map((o) => o.label).join('|')}`;

/** Looks until the option is there, or the popup has settled (not loading, the same twice) without it. */
export async function lookSettled(s: Seeker, want: string): Promise<Look> {
  const started = Date.now();
  const until = s.deadline.cap(Math.max(0, Math.min(LOOK_MAX_MS, s.deadline.remainingMs() - ACT_RESERVE_MS)));
  let previous = '';
  let same = 0;
  for (;;) {
    const l = await lookOnce(s, want);
    if (l.match || l.ambiguous) return l;
    const sig = signature(l);
    same = sig === previous ? same + 1 : 0;
    previous = sig;
    const waited = Date.now() - started;
    const shut = l.expanded === false && l.total === 0 && waited >= CLOSED_WAIT_MS;
    const settled = !l.loading && same >= 2 && (l.total > 0 || l.empty || shut || waited >= EMPTY_WAIT_MS);
    if (settled || until.expired()) return l;
    await until.sleep(LOOK_INTERVAL_MS);
  }
}

/** How long a widget gets to show a choice (mark the option, render the value, close its popup). */
export const TAKE_WAIT_MS = 3_000;
const TAKE_POLL_MS = 50;

/** Waits (bounded) until `done` says the widget took the choice; false when it never did. */
export async function awaitTaken(s: Seeker, done: () => Promise<boolean>): Promise<boolean> {
  const until = s.deadline.cap(TAKE_WAIT_MS);
  for (;;) {
    if (await done()) return true;
    if (until.expired()) return false;
    await until.sleep(TAKE_POLL_MS);
  }
}

/** Presses an element as a person does: the pointer moved onto a steady point of it, pressed and released. */
export async function press(s: Pick<Seeker, 'scope' | 'refs' | 'deadline' | 'force'>, ref: string): Promise<void> {
  const a = await prepareAction(
    s.scope,
    { by: 'ref', ref },
    'click',
    s.refs,
    s.force ? { force: true } : { stable: true, keepCoverCheck: true },
    s.deadline,
  );
  await moveMouse(s.scope.page, a, s.deadline);
  await clickAt(s.scope.page, a, s.deadline);
}

/** Types `text` into the searchable control, replacing what it held; the control gets focus by a press first when it lacks it. */
export async function typeFilter(s: Seeker, text: string): Promise<void> {
  const focused = await s.scope.call((rt, h) => rt.choose.hasFocus(h), s.control, { deadline: s.deadline });
  if (!focused) await press(s, s.controlRef);
  const selectAll = parseCombo(process.platform === 'darwin' ? 'Meta+a' : 'Control+a');
  if (selectAll.ok) await pressCombo(s.scope.page.session, selectAll.combo, s.deadline);
  await typeText(s.scope.page.session, text, 0, s.deadline);
  s.typed = text;
}

/** Turns the wheel over the popup's list from its top down until the option shows or the list ends. */
export async function wheelSeek(s: Seeker, want: string): Promise<Look | undefined> {
  const where = (): Promise<{ x: number; y: number; top: number; max: number; height: number } | undefined> =>
    s.scope.call(
      (rt, r) => rt.choose.listScroller(r),
      { control: s.control, want, exact: s.exact, exclude: s.exclude, group: s.group },
      { deadline: s.deadline, what: 'the list of options' },
    );
  let sc = await where();
  if (!sc || sc.max <= 0) return undefined;
  const at = s.scope.frame ? await revealFramePoint(s.scope.page, s.scope.frameId, sc, s.deadline) : sc;
  // A list opened at its selected row may hold the option above it: start from the top.
  if (sc.top > 0) await wheel(s.scope.page, at, 0, -(sc.top + sc.height), s.deadline);
  let last: Look | undefined;
  for (let turn = 0; turn < MAX_WHEEL_TURNS && s.deadline.remainingMs() > ACT_RESERVE_MS; turn++) {
    await s.deadline.sleep(turn === 0 && sc.top === 0 ? 0 : 50);
    last = await lookOnce(s, want);
    if (last.match || last.ambiguous) return last;
    sc = await where();
    if (!sc || sc.top >= sc.max - 1) return last;
    await wheel(s.scope.page, at, 0, Math.max(60, Math.round(sc.height * 0.8)), s.deadline);
    s.scrolled++;
  }
  return last;
}

/** The option a level names, found by looking, typing (when allowed) and scrolling; fails when it is not there. */
export async function seek(s: Seeker, want: string, level: number, mayType: boolean): Promise<Match> {
  let l = await lookSettled(s, want);
  if (!l.match && !l.ambiguous && mayType) {
    await typeFilter(s, parseOptionWant(want).primary);
    l = await lookSettled(s, want);
  }
  if (!l.match && !l.ambiguous) l = (await wheelSeek(s, want)) ?? l;
  if (l.ambiguous) throw ambiguousError(want, l.ambiguous, level);
  if (!l.match)
    throw notFoundError(
      want,
      l.options.map((o) => o.label),
      { total: l.total, loading: l.loading },
      level,
    );
  if (l.match.disabled) throw refusedError(`"${l.match.label}" is disabled: the widget does not take it`, 'disabled');
  return l.match;
}

function ambiguousError(want: string, labels: string[], level: number): ExecutionError {
  return new ExecutionError(
    `${labels.length} options match "${want}": ${labels.map((l) => `"${l}"`).join(', ')}. Name one whole (its text after the em dash tells them apart)`,
    { category: 'option-not-found', level, matches: labels },
  );
}

/** No option matches: the options seen, nearest first, and the nearest for the next step. */
export function notFoundError(
  want: string,
  seen: string[],
  l: { total: number; loading: boolean },
  level: number,
): ExecutionError {
  const labels = nearestFirst(want, seen, editDistance);
  const state = l.loading ? ' (it was still loading)' : '';
  const listed = labels.length
    ? `Options seen${state}, nearest first: ${labels
        .slice(0, 12)
        .map((x) => `"${x}"`)
        .join(', ')}${l.total > 12 ? ` (${l.total} in all)` : ''}`
    : `No options were shown${state}`;
  return new ExecutionError(`No option matches "${want}". ${listed}`, {
    category: 'option-not-found',
    level,
    want,
    options: labels.slice(0, 40),
    ...(labels[0] ? { near: labels[0] } : {}),
  });
}

/** A choice the widget refused: a disabled option, or a field that does not show it afterwards. */
export function refusedError(message: string, category: 'disabled' | 'no-effect' = 'no-effect'): ExecutionError {
  return new ExecutionError(message, { category });
}
