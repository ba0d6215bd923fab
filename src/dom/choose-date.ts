// The date part of `choose` ({field, date: "YYYY-MM-DD" | [from, to]}, issue 23 item 3): a day or a
// range picked the way a person does — in the calendar the field opens (date-calendar.ts), or typed
// into a native date input's sections in the browser's order (date-keys.ts) — then the field read
// back: success is what it shows afterwards, never a value set in JavaScript.

import { ElementNotEditableError, ExecutionError, StepValidationError, type Deadline } from '../common/index.js';
import type { DateField } from '../injected/index.js';
import type { Scope } from '../page/index.js';
import { pickOnCalendar } from './date-calendar.js';
import { typeNativeDate, typeSections, type DateRun } from './date-keys.js';
import { locate, type RefHolder, type TargetSpec } from './locate.js';
import { markBeforeAction, settleAfterAction, type SettleResult } from './settle.js';

export interface DateChoice extends SettleResult {
  /** The field, as role and name. */
  field: string;
  chosen: string[];
  /** What the field shows afterwards. */
  shows: string;
  /** How the day was entered: pressed in the field's calendar, or typed into its sections. */
  via: 'calendar' | 'keys';
  /** Month and year controls pressed on the way. */
  turns?: number;
  warnings: string[];
}

type Field = Extract<DateField, { ok: true }>;

/** The field by its label even when the labelled input is hidden behind a visible copy, else by locate. */
async function fieldHandle(scope: Scope, t: TargetSpec, refs: RefHolder, deadline: Deadline): Promise<number> {
  const name = t.by === 'label' ? t.label : t.by === 'field' ? t.key : undefined;
  const hidden =
    name === undefined
      ? undefined
      : await scope.call((rt, a) => rt.datePicker.hiddenFieldByLabel(a.name, a.exact), {
          name,
          exact: t.by === 'label' && !!t.exact,
        });
  return hidden ?? (await locate(scope, t, refs, {}, deadline)).handle;
}

async function resolveField(scope: Scope, t: TargetSpec, refs: RefHolder, deadline: Deadline): Promise<Field> {
  const handle = await fieldHandle(scope, t, refs, deadline);
  const f = await scope.call(
    (rt, a) => rt.datePicker.dateField(a.handle, a.counters),
    { handle, counters: refs.counters },
    { deadline, what: 'the date field' },
  );
  if (!f.ok)
    throw new StepValidationError(
      `${f.name} is ${f.type === 'gone' ? 'gone from the page' : `an input of type ${f.type}`}: "date" picks days in date fields`,
    );
  refs.counters = f.counters;
  if (f.disabled) throw new ElementNotEditableError(`${f.name} is disabled`, { category: 'disabled' });
  if (f.readOnly) throw new ElementNotEditableError(`${f.name} is read-only`, { category: 'not-editable' });
  return f;
}

async function readField(run: DateRun): Promise<{ shows: string; takes: boolean; read: string[]; invalid: boolean }> {
  return run.scope.call(
    (rt, a) => rt.datePicker.readDateField(a.handle, a.wants),
    { handle: run.handle, wants: run.wants },
    {
      deadline: run.deadline,
      what: 'the date field',
    },
  );
}

/** The field shows every wanted day and does not mark it invalid; else a failure that says what it shows. */
async function checkTaken(run: DateRun, how: string, before: string, out: DateChoice): Promise<string> {
  const r = await readField(run);
  const asked = run.wants.join(' to ');
  // A native input's value is ISO whatever it shows: the answer gives the text Chrome shows.
  if (r.takes && !r.invalid) return out.shows || r.shows;
  if (r.takes)
    throw new ExecutionError(`${run.name} took ${asked} ${how} but marks it invalid: the app refuses it`, {
      category: 'disabled',
    });
  // A field whose text reads as no day at all (a custom format) changed: said, not claimed.
  if (!r.read.length && r.shows && r.shows !== before) {
    out.warnings.push(`${run.name} shows "${r.shows}", which does not read as a day: check it is ${asked}`);
    return r.shows;
  }
  throw new ExecutionError(
    `${asked} was ${how}, but ${run.name} ${r.shows ? `shows "${r.shows}"` : 'shows nothing'}: the picker did not take it`,
    { category: 'no-effect' },
  );
}

async function enter(run: DateRun, f: Field, out: DateChoice): Promise<void> {
  if (f.kind === 'native') {
    if (run.wants.length > 1)
      throw new StepValidationError(`${f.name} holds one day: choose each end of a range in its own field`);
    out.via = 'keys';
    out.shows = await typeNativeDate(run, run.wants[0]!, f);
    return;
  }
  try {
    const pick = await pickOnCalendar(run, f.opener!, f.expanded);
    if (pick.turns) out.turns = pick.turns;
  } catch (err) {
    // A field typed in sections whose calendar did not open still takes keys: said in a warning.
    if (f.kind !== 'sections' || !(err instanceof ExecutionError) || err.details.category !== 'no-effect') throw err;
    if (run.wants.length > 1) throw err;
    out.via = 'keys';
    out.warnings.push(`${err.message.split('.')[0]}; typed the day into the field's sections instead`);
    await typeSections(run, run.wants[0]!);
  }
}

/** Picks `dates` (one day, or a range's two ends) in the date field `field` names; reads the field back. */
export async function chooseDate(
  scope: Scope,
  field: TargetSpec,
  dates: string[],
  deadline: Deadline,
  refs: RefHolder = {},
): Promise<DateChoice> {
  const f = await resolveField(scope, field, refs, deadline);
  const run: DateRun = { scope, refs, deadline, handle: f.handle, name: f.name, wants: dates };
  const out: DateChoice = { field: f.name, chosen: dates, shows: '', via: 'calendar', warnings: [] };
  const before = (await readField(run)).shows;
  const mark = markBeforeAction(scope.page);
  try {
    await enter(run, f, out);
  } catch (err) {
    mark.stopListening();
    throw err;
  }
  const settled = await settleAfterAction(scope.page, mark, deadline);
  if (settled.warning) out.warnings.push(settled.warning);
  const how = out.via === 'keys' ? 'typed' : 'pressed in the calendar';
  if (!settled.navigated) out.shows = await checkTaken(run, how, before, out);
  return { ...out, ...settled };
}
