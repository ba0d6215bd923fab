// Keyboard steps: press (SPEC §9.4) and type (§9.3). Trusted key events go to whatever has focus,
// or to the element named by selector/ref after focusing it, as a person's keyboard would.

import type { Scope } from '../page/index.js';
import { ExecutionError, type Deadline, markSecret, StepValidationError } from '../common/index.js';
import { isSecretText, REDACTED } from '../shared/index.js';
import {
  focusElement,
  keyReceiver,
  markBeforeAction,
  readEffects,
  takeFallbackNote,
  watchEffects,
  type ActionMark,
  type SettleResult,
  parseCombo,
  pressCombo,
  settleAfterAction,
  typeText,
  unknownKeyWarning,
  type KeyCombo,
  type TargetSpec,
} from '../dom/index.js';
import { defineStep, keysOf, type ParamSchema, type StepContext } from './registry.js';
import { obj, optNumber, ParamError, reqString, type Obj } from './params.js';
import { actionOptions, hasTarget, objectTarget } from './targets.js';
import { settledOutput } from './interaction.js';
import { keepPastedKeyQuiet } from './clipboard.js';

interface Target {
  target?: TargetSpec;
  opts?: ReturnType<typeof actionOptions>;
}
const KEY_TARGET_KEYS = ['selector', 'ref', 'text', 'label', 'exact', 'withinSelector'] as const;
/** `type` has its own "text" (what to type): its target is a selector, ref or label. */
const TYPE_TARGET_KEYS = ['selector', 'ref', 'label', 'exact', 'withinSelector'] as const;
type PressParams = Target & { raw: string; times: number } & ({ combo: KeyCombo } | { unknown: string });
interface TypeParams extends Target {
  text: string;
  delayMs: number;
}

const MAX_TIMES = 100;
const MAX_TEXT = 10_000;
const MAX_DELAY_MS = 10_000;
/** Longer text is echoed cut short, with its length: the agent knows what it sent. */
const ECHO_CHARS = 80;
function readTarget(o: Obj, step: string, keys: readonly string[] = KEY_TARGET_KEYS): Target {
  if (!hasTarget(o, keys)) return {};
  return { target: objectTarget(o, step, keys), opts: actionOptions(o) };
}

function readPress(v: unknown): PressParams {
  const o: Obj = typeof v === 'string' ? { key: v } : obj(v, keysOf(PRESS_PARAMS), 'press');
  if (o.key === undefined)
    throw new ParamError('press needs "key": "Enter" | "Control+a" | {key, selector | ref, times}');
  const raw = reqString(o, 'key', { nonEmpty: true, maxLength: 100 });
  const times = optNumber(o, 'times', { min: 1, max: MAX_TIMES, integer: true }) ?? 1;
  const parsed = parseCombo(raw);
  if (!parsed.ok && parsed.reason === 'malformed') throw new ParamError(parsed.message);
  const target = typeof v === 'string' ? {} : readTarget(o, 'press');
  return { ...target, raw, times, ...(parsed.ok ? { combo: parsed.combo } : { unknown: parsed.token }) };
}

function readType(v: unknown): TypeParams {
  const o: Obj = typeof v === 'string' ? { text: v } : obj(v, keysOf(TYPE_PARAMS), 'type');
  const text = reqString(o, 'text', { maxLength: MAX_TEXT });
  const delayMs = optNumber(o, 'delay', { min: 0, max: MAX_DELAY_MS }) ?? 0;
  return { ...(typeof v === 'string' ? {} : readTarget(o, 'type', TYPE_TARGET_KEYS)), text, delayMs };
}

/** Focuses the step's target, if it names one; its description says whether it is a secret field. */
async function focusIfTargeted(ctx: StepContext, t: Target): Promise<string | undefined> {
  if (!t.target) return undefined;
  const tab = ctx.command.requireTab();
  return (await focusElement(ctx.scope, t.target, tab.entry, t.opts ?? {}, ctx.deadline)).desc;
}

/**
 * Where the keys will go, named; refused before any key is sent when the click before this step
 * fell back to element.click() and focus did not follow it (the keys would land elsewhere).
 */
async function keysGoTo(ctx: StepContext, t: Target, text = false): Promise<KeysTo> {
  const { page } = ctx.command.requireTab();
  const note = takeFallbackNote(page);
  const to = await keyReceiver(ctx.scope, ctx.deadline);
  if (note && !t.target) {
    throw new ExecutionError(
      `No key was sent: the click on ${note.target} before this step used element.click() and focus stayed on ${to.onBody ? 'the page body' : to.target}, not in it. ` +
        'Name the element that should get the keys (selector | ref), or click something that takes focus first',
      { category: 'no-effect', nextStep: { snapshot: true } },
    );
  }
  // Keys to the body, and text to an element that takes none (a grid cell that starts an editor on
  // a key), are watched: the page may take them; nothing reacting fails the step.
  const watched = to.onBody || (text && !to.takesText);
  if (watched) await watchEffects(ctx.scope, undefined, ctx.deadline);
  return { ...to, watched };
}

interface KeysTo {
  target: string;
  onBody: boolean;
  /** What followed the keys is read: nothing at all is a failure (checkKeysLanded). */
  watched: boolean;
}

/** Keys the page body got and nothing reacted to went nowhere: a failure, not an ok. */
async function checkKeysLanded(
  scope: Scope,
  to: KeysTo,
  what: string,
  mark: ActionMark,
  settled: SettleResult,
  dialogs: number,
  deadline: Deadline,
): Promise<void> {
  if (!to.watched) return;
  const e = await readEffects(scope, mark, settled, dialogs, deadline);
  if (e.observable || (to.onBody && !e.focusOnBody)) return;
  const where = to.onBody ? 'the page body (no element had focus)' : `${to.target}, which takes no text,`;
  throw new ExecutionError(
    `${what} went to ${where} and nothing reacted: no change, no focus, no scroll. ` +
      'Name the element that should get the keys (selector | ref), or click it first',
    { category: 'no-effect', nextStep: { snapshot: true } },
  );
}

const PRESS_PARAMS: ParamSchema = {
  forms: ['"Enter"', '"Control+a"'],
  keys: { key: '', selector: '', ref: '', text: '', label: '', exact: '', withinSelector: '', times: '', timeout: '-' },
  returns: '{pressed, target}',
};

defineStep<PressParams>({
  name: 'press',
  verb: 'Pressed',
  summary: 'Press a key or combination',
  params: PRESS_PARAMS,
  target: { keys: ['selector', 'ref', 'text', 'label', 'exact', 'withinSelector'] },
  needsTab: true,
  readOnly: false,
  parse: readPress,
  async run(ctx, p) {
    if ('unknown' in p) return { warnings: [await unknownKeyWarning(p.unknown, p.raw)] };
    const tab = ctx.command.requireTab();
    const { page } = tab;
    await focusIfTargeted(ctx, p);
    const to = await keysGoTo(ctx, p);
    await keepPastedKeyQuiet(tab, p.combo, ctx.deadline);
    const mark = markBeforeAction(page);
    const dialogs = page.dialogs.length;
    for (let i = 0; i < p.times; i++) await page.guard(pressCombo(page.session, p.combo, ctx.deadline));
    const settled = await settleAfterAction(page, mark, ctx.deadline);
    await checkKeysLanded(ctx.scope, to, `"${p.combo.name}"`, mark, settled, dialogs, ctx.deadline);
    return {
      pressed: p.combo.name,
      target: to.target,
      ...(p.times > 1 ? { times: p.times } : {}),
      ...(await settledOutput(tab, settled)),
    };
  },
});

const TYPE_PARAMS: ParamSchema = {
  forms: ['"text"'],
  keys: { text: '', selector: '', ref: '', label: '', exact: '', withinSelector: '', delay: '', timeout: '-' },
  returns: '{typed, target}',
};

defineStep<TypeParams>({
  name: 'type',
  verb: 'Typed',
  summary: 'Type text key by key; \n is Enter',
  params: TYPE_PARAMS,
  target: { keys: ['selector', 'ref', 'label', 'exact', 'withinSelector'] },
  needsTab: true,
  readOnly: false,
  parse: readType,
  async run(ctx, p) {
    const chars = [...p.text.replace(/\r\n/g, '\n')].length;
    const minimumMs = p.delayMs * (chars - 1);
    if (minimumMs > ctx.deadline.remainingMs()) {
      throw new StepValidationError(
        `Typing ${chars} characters ${p.delayMs}ms apart takes ${minimumMs}ms, more than the step timeout (${ctx.deadline.totalMs}ms): raise "timeout" or lower "delay"`,
      );
    }
    const tab = ctx.command.requireTab();
    const { page } = tab;
    const desc = await focusIfTargeted(ctx, p);
    // Where the keys go decides whether the text is a secret (DECISIONS): then it is never echoed.
    const secret =
      (await ctx.scope.call((rt) => rt.formInput.isFocusSecret(), undefined, {
        deadline: ctx.deadline,
        what: 'the focused element',
      })) ||
      (desc !== undefined && isSecretText(desc));
    if (secret) markSecret(p.text);
    const to = await keysGoTo(ctx, p, true);
    const mark = markBeforeAction(page);
    const dialogs = page.dialogs.length;
    const outcome = await page.guard(typeText(page.session, p.text, p.delayMs, ctx.deadline));
    const settled = await settleAfterAction(page, mark, ctx.deadline);
    await checkKeysLanded(
      ctx.scope,
      to,
      `The ${chars} typed character${chars === 1 ? '' : 's'}`,
      mark,
      settled,
      dialogs,
      ctx.deadline,
    );
    const typed = secret ? REDACTED : chars > ECHO_CHARS ? `${[...p.text].slice(0, ECHO_CHARS).join('')}…` : p.text;
    return {
      typed,
      target: to.target,
      ...(chars > ECHO_CHARS || secret ? { length: chars } : {}),
      ...(outcome.inserted ? { insertedAsText: outcome.inserted } : {}),
      ...(await settledOutput(tab, settled)),
    };
  },
});
