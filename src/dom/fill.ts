// Fill (SPEC §9.2, DECISIONS): click the field as a person would, select what it holds, insert the
// text with Input.insertText, read the value back, and only if the page did not take it (a
// framework-controlled input) set it with the native setter — saying which method worked.

import { ElementNotEditableError, ExecutionError, markSecret, type Deadline } from '../common/index.js';
import { isSecretText, REDACTED } from '../shared/index.js';
import type { Scope } from '../page/index.js';
import type { PageRuntime } from '../injected/index.js';
import { clickAt, moveMouse } from './mouse.js';
import { prepareAction, type Located, type RefHolder, type TargetOptions, type TargetSpec } from './locate.js';
import { markBeforeAction, settleAfterAction, type SettleResult } from './settle.js';

export interface FillOptions extends TargetOptions {
  clear?: boolean;
  react?: boolean;
}

export interface FillResult extends SettleResult {
  filled: true;
  /** The field, as role and name. */
  target: string;
  method: 'insertText' | 'nativeSetter' | 'select';
  /** What the field holds when it differs from the value asked for (maxlength). */
  value?: string;
  reResolved?: true;
  autoForced?: true;
  warnings: string[];
}

type Fillable = Located & { x?: number; y?: number; autoForced?: true };

async function focusedElement(scope: Scope, deadline: Deadline): Promise<Fillable> {
  const r = await scope.call((rt) => rt.locate.holdFocused(), undefined, {
    deadline,
    what: 'the focused element',
  });
  if (!r.ok)
    throw new ElementNotEditableError(
      'Nothing is focused to fill: name the field with {"selector"|"ref"|"label", "value"}, or click it first',
      { category: 'not-editable' },
    );
  return { handle: r.handle, desc: r.desc, name: r.name };
}

async function insertAndConfirm(
  scope: Scope,
  el: Fillable,
  value: string,
  clear: boolean,
  deadline: Deadline,
): Promise<{ ok: boolean; value: string; before: string; truncated?: boolean; secret?: boolean }> {
  const call = <A, R>(fn: (rt: PageRuntime, a: A) => R, a: A): Promise<Awaited<R>> =>
    scope.call(fn, a, { deadline, what: `filling ${el.desc}` });
  if (el.x !== undefined && el.y !== undefined) {
    const at = { x: el.x, y: el.y };
    await moveMouse(scope.page, at, deadline);
    await clickAt(scope.page, at, deadline);
  }
  const before = await call(
    (rt, a) => ({
      prep: rt.formInput.prepareField(a.handle, a.clear),
      value: rt.formInput.currentValue(rt.locate.heldElement(a.handle)!),
      secret: rt.formInput.isSecretHeld(a.handle),
    }),
    { handle: el.handle, clear },
  );
  if (before.secret) markSecret(value); // before it is typed: a failure below must not show it either
  if (!before.prep.ok) return { ok: false, value: '', before: '', secret: before.secret };
  const want = clear ? value : before.value + value;
  if (value === '') {
    if (clear) await call((rt, h) => rt.formInput.deleteSelection(h), el.handle);
  } else {
    await scope.page.guard(
      deadline.race(scope.page.session.send('Input.insertText', { text: value }), `typing into ${el.desc}`),
    );
  }
  const after = await call((rt, a) => rt.formInput.confirmValue(a.handle, a.want, true), { handle: el.handle, want });
  if (before.secret) [before.value, after.value].forEach(markSecret); // what the field held and kept (a cut card number)
  return { ...after, before: before.value, secret: before.secret };
}

/** The same letters and digits in the same order: "$1,234.50" shows "1234.50", "(555) 010-2000" shows "5550102000". */
export function sameSignificant(shown: string, asked: string): boolean {
  const sig = (s: string): string => s.replace(/[^\p{L}\p{N}]/gu, '').toLowerCase();
  return sig(shown) !== '' && sig(shown) === sig(asked);
}

/** The warning for a value the page formatted or rewrote: both values, unless the field is a secret. */
function rewroteWarning(el: Located, asked: string, shown: string): string {
  if (isSecretText(el.desc)) return `the page rewrote the value of ${el.desc}`;
  return sameSignificant(shown, asked)
    ? `the page formatted "${asked}" as "${shown}" in ${el.name}`
    : `the page rewrote "${asked}" as "${shown}" in ${el.name}`;
}

/** Fills one field; `target` undefined means the focused element. */
export async function fill(
  scope: Scope,
  target: TargetSpec | undefined,
  value: string,
  refs: RefHolder,
  opts: FillOptions,
  deadline: Deadline,
): Promise<FillResult> {
  const el: Fillable = target
    ? await prepareAction(scope, target, 'fill', refs, opts, deadline)
    : await focusedElement(scope, deadline);
  let secret = isSecretText(el.desc);
  if (secret) markSecret(value); // never in an answer or a --debug log
  const warnings: string[] = [];
  const mark = markBeforeAction(scope.page);
  const clear = opts.clear ?? true;
  let method: FillResult['method'];
  let shown: string | undefined;
  if (el.desc.startsWith('select')) {
    const r = await scope.call(
      (rt, a) => rt.formInput.selectOptions(a.handle, { values: [a.value] }),
      { handle: el.handle, value },
      { deadline, what: `selecting in ${el.desc}` },
    );
    if (!r.ok)
      throw new ExecutionError(`${el.desc} ${r.message}: ${JSON.stringify(r.options ?? [])}`, {
        category: 'option-not-found',
        options: r.options,
      });
    method = 'select';
  } else {
    // The page may navigate on input (search-as-you-type, a code that submits itself): then the
    // typing took effect and the field is gone with its document; reading it back means nothing.
    const leftPage = (): boolean =>
      scope.page.lifecycle.requestedCount > mark.requested || scope.page.lifecycle.documentCount > mark.documents;
    let typed: Awaited<ReturnType<typeof insertAndConfirm>> | undefined;
    try {
      typed = opts.react ? undefined : await insertAndConfirm(scope, el, value, clear, deadline);
    } catch (err) {
      if (!leftPage()) throw err;
    }
    method = 'insertText';
    if (typed?.secret) secret = true;
    if (leftPage() && !opts.react) {
      // nothing to confirm: settleAfterAction below reports the navigation
    } else if (typed?.truncated) {
      shown = typed.value;
      warnings.push(`${el.desc} kept ${typed.value.length} characters (maxlength)`);
    } else if (typed && !typed.ok && (typed.value !== typed.before || sameSignificant(typed.value, value))) {
      // The page took the typing and formatted or rewrote it ($1,234.50, upper case): its value is the truth.
      shown = typed.value;
      warnings.push(rewroteWarning(el, value, typed.value));
    } else if (!typed?.ok) {
      const before =
        typed?.before ??
        (await scope.call((rt, h) => rt.formInput.currentValue(rt.locate.heldElement(h)!), el.handle, {
          deadline,
          what: `reading ${el.desc}`,
        }));
      const r = await scope.call(
        (rt, a) => ({
          ...rt.formInput.setValueNatively(a.handle, a.want),
          secret: rt.formInput.isSecretHeld(a.handle),
        }),
        { handle: el.handle, want: clear ? value : before + value },
        { deadline, what: `setting the value of ${el.desc}` },
      );
      method = 'nativeSetter';
      if (r.secret) [value, before, r.value].forEach(markSecret);
      secret ||= r.secret;
      if (!r.ok) {
        const took = r.value !== before || sameSignificant(r.value, value);
        if (!took)
          throw new ExecutionError(
            `${el.desc} did not take the value: it still shows "${r.value}" (${opts.react ? 'the native setter was tried' : 'typing and the native setter were both tried'})`,
            { category: 'not-editable' },
          );
        shown = r.value;
        warnings.push(rewroteWarning(el, value, r.value));
      }
    }
  }
  if (el.autoForced) warnings.push(`auto-forced: ${el.desc} failed its visibility checks`);
  const settled = await settleAfterAction(scope.page, mark, deadline);
  if (settled.warning) warnings.push(settled.warning);
  return {
    // A secret field's value is never echoed, not even the part the page kept (DECISIONS).
    filled: true,
    target: el.name,
    method,
    ...settled,
    ...(shown !== undefined ? { value: secret ? REDACTED : shown } : {}),
    ...(el.reResolved ? { reResolved: true } : {}),
    ...(el.autoForced ? { autoForced: true } : {}),
    warnings,
  };
}
