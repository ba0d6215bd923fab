// The pipeline step's micro-operations (SPEC §12.3) and poll's predicate loop (§12.2), run inside
// one page evaluation: no round trip per operation. The agent's predicate and return functions
// arrive compiled into the same evaluation (Node builds it); this file only runs them. Progress is
// kept on the window so Node can still report it when a runaway function had to be terminated.
import type { SerializedValue } from './serialize.js';
import { collapseSpace } from './aria-name.js';
import { isHtml } from './dom-describe.js';
import { cssMatches, describeElement, preferVisible } from './locate.js';
import { resolveRef } from './ref-map.js';
import { serializeErrorText } from './serialize.js';
import { pageValue } from './hook-value.js';
import { state } from './state.js';
import { isRef } from '../shared/index.js';

export type PipelineOp =
  | { op: 'fill' | 'type'; find: string; value: string }
  | { op: 'click'; find: string }
  | { op: 'check'; find: string; checked: boolean }
  | { op: 'select'; find: string; value: string }
  | { op: 'waitFor'; fn: number; timeoutMs: number }
  | { op: 'sleep'; ms: number }
  | { op: 'return'; fn: number };

export type PipelineFailureReason =
  | 'not-found'
  | 'invalid-selector'
  | 'timeout'
  | 'threw'
  | 'not-editable'
  | 'no-option'
  | 'not-taken';

export type PipelineOutcome =
  | { completed: true; steps: number; results: unknown[] }
  | { completed: false; failedAt: number; reason: PipelineFailureReason; error: string; results: unknown[] };

/** Thrown inside the pipeline to stop at an operation with a reason Node maps to an error class. */
interface PipelineStop {
  pipelineStop: PipelineFailureReason;
  message: string;
}

export interface PollOutcome {
  resolved: boolean;
  value?: SerializedValue;
  lastValue?: SerializedValue;
  elapsed: number;
}

export interface PipelineProgress {
  at: number;
  results: unknown[];
}

export function pipelineProgress(): PipelineProgress | undefined {
  return state.pipeline;
}

function pipelineStop(reason: PipelineFailureReason, message: string): PipelineStop {
  return { pipelineStop: reason, message };
}

function pipelineFind(target: string): Element {
  if (isRef(target)) {
    const r = resolveRef(target);
    if (r.ok) return r.el;
    throw pipelineStop(
      'not-found',
      `ref ${target} ${r.reason === 'earlier-page' ? 'is from an earlier page' : r.reason === 'recycled' ? `showed "${r.name}" but its element now shows "${r.now}" (a virtualised list reused it)` : 'is not on the page'}; take a new snapshot`,
    );
  }
  let matches: Element[];
  try {
    matches = cssMatches(document, target);
  } catch (e) {
    throw pipelineStop('invalid-selector', `invalid CSS selector "${target}": ${(e as Error).message}`);
  }
  const el = preferVisible(matches);
  if (!el) throw pipelineStop('not-found', `no element matches "${target}"`);
  return el;
}

/** The prototype's setter, so frameworks that wrap the instance's `value` see the change. */
function pipelineSetNative(el: Element, prop: 'value' | 'checked', value: string | boolean): void {
  const proto = isHtml(el, 'textarea')
    ? HTMLTextAreaElement.prototype
    : isHtml(el, 'select')
      ? HTMLSelectElement.prototype
      : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, prop)?.set;
  if (setter) setter.call(el, value);
  else (el as unknown as Record<string, unknown>)[prop] = value;
}

function pipelineFire(el: Element, ...types: string[]): void {
  for (const type of types) {
    el.dispatchEvent(
      type === 'input'
        ? new InputEvent('input', { bubbles: true, composed: true })
        : new Event(type, { bubbles: true }),
    );
  }
}

function pipelineField(el: Element, what: string): HTMLInputElement | HTMLTextAreaElement {
  if (!(isHtml(el, 'input') || isHtml(el, 'textarea')))
    throw pipelineStop('not-editable', `${describeElement(el)} is not an input or textarea`);
  if (el.disabled || el.readOnly)
    throw pipelineStop('not-editable', `${describeElement(el)} is ${el.disabled ? 'disabled' : 'read-only'}`);
  if (el.type === 'checkbox' || el.type === 'radio')
    throw pipelineStop('not-editable', `${what} does not apply to a ${el.type}; use check`);
  return el;
}

/** What a field holds, for results: passwords are masked. */
function pipelineShown(el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement): string {
  return el.type === 'password' ? '•'.repeat(Math.min(el.value.length, 8)) : el.value.slice(0, 200);
}

function pipelineFill(el: Element, value: string): unknown {
  const field = pipelineField(el, 'fill');
  field.focus({ preventScroll: true });
  pipelineSetNative(field, 'value', value);
  pipelineFire(field, 'input', 'change');
  if (field.value !== value)
    throw pipelineStop(
      'not-taken',
      `${describeElement(el)} did not take the value (it holds "${pipelineShown(field)}")`,
    );
  return { value: pipelineShown(field) };
}

function pipelineType(el: Element, text: string): unknown {
  const field = pipelineField(el, 'type');
  field.focus({ preventScroll: true });
  for (const ch of text) {
    const init = { key: ch, bubbles: true, cancelable: true, composed: true };
    const go =
      field.dispatchEvent(new KeyboardEvent('keydown', init)) &&
      field.dispatchEvent(new KeyboardEvent('keypress', init));
    if (go) {
      pipelineSetNative(field, 'value', field.value + ch);
      field.dispatchEvent(
        new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: ch }),
      );
    }
    field.dispatchEvent(new KeyboardEvent('keyup', init));
  }
  return { value: pipelineShown(field) };
}

function pipelineCheck(el: Element, checked: boolean): unknown {
  if (!isHtml(el, 'input') || (el.type !== 'checkbox' && el.type !== 'radio')) {
    throw pipelineStop('not-editable', `${describeElement(el)} is not a checkbox or radio`);
  }
  if (el.disabled) throw pipelineStop('not-editable', `${describeElement(el)} is disabled`);
  if (el.checked !== checked) {
    pipelineSetNative(el, 'checked', checked);
    pipelineFire(el, 'input', 'change');
  }
  return { checked: el.checked };
}

function pipelineSelect(el: Element, want: string): unknown {
  if (!isHtml(el, 'select')) throw pipelineStop('not-editable', `${describeElement(el)} is not a <select>`);
  const options = Array.from(el.options);
  const option =
    options.find((o) => o.value === want) ?? options.find((o) => collapseSpace(o.text) === collapseSpace(want));
  if (!option) {
    const known = options
      .slice(0, 10)
      .map((o) => `"${o.value}"`)
      .join(', ');
    throw pipelineStop('no-option', `${describeElement(el)} has no option "${want}" (values: ${known})`);
  }
  if (option.disabled) throw pipelineStop('no-option', `option "${want}" is disabled`);
  pipelineSetNative(el, 'value', option.value);
  pipelineFire(el, 'input', 'change');
  return { value: el.value };
}

/** One predicate call; a throw counts as not yet (the element may not exist yet) and is kept to report. */
async function pollOnce(fn: () => unknown): Promise<{ value: unknown; error?: unknown }> {
  try {
    return { value: await fn() };
  } catch (error) {
    return { value: undefined, error };
  }
}

/** Calls `fn` every `intervalMs` until it returns a truthy value or `timeoutMs` passes (one last try at the end). */
export async function pollUntil(fn: () => unknown, intervalMs: number, timeoutMs: number): Promise<PollOutcome> {
  const started = Date.now();
  for (;;) {
    const r = await pollOnce(fn);
    const elapsed = Date.now() - started;
    if (r.value) return { resolved: true, value: pageValue(r.value), elapsed };
    if (elapsed >= timeoutMs) return { resolved: false, lastValue: pageValue(r.error ?? r.value), elapsed };
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, timeoutMs - elapsed)));
  }
}

async function pipelineOp(op: PipelineOp, fns: Array<() => unknown>, endsAt: number): Promise<unknown> {
  const left = (): number => Math.max(0, endsAt - Date.now());
  switch (op.op) {
    case 'fill':
      return pipelineFill(pipelineFind(op.find), op.value);
    case 'type':
      return pipelineType(pipelineFind(op.find), op.value);
    case 'check':
      return pipelineCheck(pipelineFind(op.find), op.checked);
    case 'select':
      return pipelineSelect(pipelineFind(op.find), op.value);
    case 'click': {
      const el = pipelineFind(op.find) as HTMLElement;
      el.click();
      return { clicked: true };
    }
    case 'sleep':
      if (op.ms > left()) throw pipelineStop('timeout', `sleep of ${op.ms}ms outlasts the pipeline timeout`);
      await new Promise((r) => setTimeout(r, op.ms));
      return { slept: op.ms };
    case 'waitFor': {
      const limit = Math.min(op.timeoutMs, left());
      const outcome = await pollUntil(fns[op.fn]!, 100, limit);
      if (!outcome.resolved) throw pipelineStop('timeout', `waitFor was still falsy after ${limit}ms`);
      return { waited: outcome.elapsed };
    }
    case 'return':
      return pageValue(await fns[op.fn]!());
  }
  return undefined;
}

/** Runs the operations in order; the first failure stops it with its index and reason. */
export async function runPipeline(
  ops: PipelineOp[],
  fns: Array<() => unknown>,
  timeoutMs: number,
): Promise<PipelineOutcome> {
  const endsAt = Date.now() + timeoutMs;
  const progress: PipelineProgress = { at: 0, results: [] };
  state.pipeline = progress;
  for (let i = 0; i < ops.length; i++) {
    progress.at = i;
    try {
      if (Date.now() >= endsAt)
        throw pipelineStop('timeout', `the pipeline timeout (${timeoutMs}ms) passed before this operation`);
      progress.results.push(await pipelineOp(ops[i]!, fns, endsAt));
    } catch (e) {
      const stop = e as Partial<PipelineStop>;
      const reason = stop && typeof stop === 'object' && stop.pipelineStop ? stop.pipelineStop : 'threw';
      const error = reason === 'threw' ? serializeErrorText(e) : String(stop.message);
      return { completed: false, failedAt: i, reason, error, results: progress.results };
    }
  }
  progress.at = ops.length;
  return { completed: true, steps: ops.length, results: progress.results };
}
