// The one step an agent could run next after a failure: built from the failure's category, what
// the thrower knew (target, interceptor, options) and the failure context (near matches, the
// covering layer's dismiss button). Undefined when nothing concrete would help.

import type { StepFailureContext } from './diagnostics.js';
import type { ClassifiedError } from './failure.js';
import { differsInIdentifier } from './near-match.js';

export type SuggestedStep = Record<string, unknown>;

export interface NextStepInput {
  action: string;
  /** The step's parameters as the agent wrote them. */
  raw: unknown;
  failure: Pick<ClassifiedError, 'category' | 'details' | 'message' | 'name'>;
  context?: StepFailureContext;
  /** The step timeout the failed step ran with. */
  timeoutMs: number;
  /** The failed step's hooks: a suggestion to run the same step again keeps them. */
  hooks?: Record<string, string>;
}

interface Target { by: string; value: string }

/** Steps whose target may be given as a ref, and those whose string form is a target. */
const REF_STEPS = new Set(['click', 'hover', 'fill', 'selectOption', 'upload', 'press', 'type', 'scroll', 'frame']);
const STRING_TARGET_STEPS = new Set(['click', 'hover', 'scroll', 'frame']);
const TARGET_KEYS = ['selector', 'ref', 'text', 'label', 'selectors', 'x', 'y', 'exact', 'withinSelector'];
const MAX_TIMEOUT_MS = 300_000;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const REF = /^s\d+e\d+$/;

function targetOf(details: Record<string, unknown>): Target | undefined {
  const t = details.target as Partial<Target> | undefined;
  return t && typeof t.by === 'string' && typeof t.value === 'string' ? { by: t.by, value: t.value } : undefined;
}

/** The target as step keys: {selector} | {ref} | {text} | {label}. */
function targetKeys(t: Target | undefined, raw: unknown): Record<string, unknown> {
  if (t?.by === 'css') return { selector: t.value };
  if (t?.by === 'ref' || t?.by === 'text' || t?.by === 'label') return { [t.by]: t.value };
  if (typeof raw === 'string') return REF.test(raw) ? { ref: raw } : { selector: raw };
  if (isObj(raw)) return Object.fromEntries(TARGET_KEYS.filter((k) => raw[k] !== undefined).map((k) => [k, raw[k]]));
  return {};
}

const withoutTarget = (o: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(o).filter(([k]) => !TARGET_KEYS.includes(k)));

/** The same step aimed at `ref` instead, when the step takes refs. */
export function retarget(action: string, raw: unknown, target: Target | undefined, ref: string): SuggestedStep | undefined {
  if (!REF_STEPS.has(action)) return undefined;
  if (typeof raw === 'string') return STRING_TARGET_STEPS.has(action) ? { [action]: ref } : undefined;
  if (!isObj(raw)) return undefined;
  if (['selector', 'ref', 'text', 'label', 'selectors', 'x'].some((k) => raw[k] !== undefined)) {
    return { [action]: { ref, ...withoutTarget(raw) } };
  }
  // fill's maps ({"#email": "x"} or {fields: {…}}): the failing field's key is the target's value.
  const map = isObj(raw.fields) ? raw.fields : raw;
  if (action === 'fill' && target && target.value in map) {
    const renamed = Object.fromEntries(Object.entries(map).map(([k, v]) => [k === target.value ? ref : k, v]));
    return { fill: isObj(raw.fields) ? { ...raw, fields: renamed } : renamed };
  }
  return undefined;
}

/** The same step with one more option (a string target becomes {selector|ref}). */
function withOption(action: string, raw: unknown, key: string, value: unknown): SuggestedStep | undefined {
  if (typeof raw === 'string') return { [action]: { ...(REF.test(raw) ? { ref: raw } : { selector: raw }), [key]: value } };
  return isObj(raw) ? { [action]: { ...raw, [key]: value } } : undefined;
}

/** Text an invalid selector was probably meant to find: text=…, :contains("…"), :has-text("…"). */
function textInSelector(selector: string): string | undefined {
  const m = /^text=["']?(.+?)["']?$/.exec(selector.trim()) ?? /:(?:contains|has-text)\(\s*["']?(.+?)["']?\s*\)/.exec(selector);
  return m?.[1];
}

async function closestOption(wanted: string, options: { value: string; label: string }[]): Promise<{ value: string; label: string } | undefined> {
  const lower = wanted.toLowerCase();
  const contained = options.find((o) => o.label.toLowerCase().includes(lower) || o.value.toLowerCase().includes(lower));
  if (contained) return contained;
  const { closest } = await import('./suggest.js'); // an error path: the edit-distance code loads only now
  const hit = closest(wanted, options.flatMap((o) => [o.label, o.value]));
  return hit === undefined ? undefined : options.find((o) => o.label === hit || o.value === hit);
}

async function optionStep(i: NextStepInput): Promise<SuggestedStep | undefined> {
  const options = i.failure.details.options as { value: string; label: string }[] | undefined;
  if (!options?.length || !isObj(i.raw)) return undefined;
  const key = ['value', 'label'].find((k) => typeof (i.raw as Record<string, unknown>)[k] === 'string');
  if (!key) return undefined;
  const best = await closestOption((i.raw as Record<string, string>)[key]!, options);
  if (!best) return undefined;
  return { [i.action]: { ...i.raw, [key]: key === 'label' ? best.label : best.value } };
}

function notEditableStep(i: NextStepInput, target: Target | undefined): SuggestedStep | undefined {
  const keys = targetKeys(target, i.raw);
  if (/file input/.test(i.failure.message)) return { upload: { ...keys, files: ['/path/to/file'] } };
  const value = isObj(i.raw) && typeof i.raw.value === 'string' ? i.raw.value : undefined;
  if (/\(select\b/.test(i.failure.message)) return { selectOption: { ...keys, label: value ?? '' } };
  if (/type=(checkbox|radio)/.test(i.failure.message)) return { click: keys };
  return undefined;
}

/** Waits for the target to be enabled before the same step (a form that enables its button). */
function enabledStep(i: NextStepInput, target: Target | undefined): SuggestedStep | undefined {
  const el = target?.by === 'css' ? `document.querySelector(${JSON.stringify(target.value)})`
    : target?.by === 'ref' ? `window.__ariaRefs?.get(${JSON.stringify(target.value)})` : undefined;
  if (!el) return undefined;
  return { [i.action]: i.raw, readyWhen: `() => !${el}?.matches(':disabled, [aria-disabled=true]')` };
}

function timeoutStep(i: NextStepInput): SuggestedStep {
  const waitUntil = isObj(i.raw) ? i.raw.waitUntil : undefined;
  if (i.action === 'goto' && waitUntil !== 'commit' && waitUntil !== 'domcontentloaded') {
    return { goto: { url: isObj(i.raw) ? i.raw.url : i.raw, waitUntil: 'domcontentloaded' } };
  }
  return { [i.action]: i.raw, timeout: Math.min(MAX_TIMEOUT_MS, i.timeoutMs * 2) };
}

export async function nextStep(i: NextStepInput): Promise<SuggestedStep | undefined> {
  const step = await suggest(i);
  // The same step again (retargeted, forced, given more time) keeps its hooks.
  return step && i.hooks && i.action in step ? { ...step, ...i.hooks, ...step } : step;
}

async function suggest(i: NextStepInput): Promise<SuggestedStep | undefined> {
  const { category, details } = i.failure;
  const target = targetOf(details);
  // A near match that names another identifier (ORD-00211 for ORD-04711) is another thing: never a step.
  const wanted = typeof details.name === 'string' ? details.name : target?.by === 'text' || target?.by === 'label' ? target.value : '';
  const near = (i.context?.nearMatches ?? []).filter((m) => !differsInIdentifier(wanted, m.name));
  switch (category) {
    case 'selector-not-found': {
      if (near[0]) return retarget(i.action, i.raw, target, near[0].ref) ?? { snapshot: true };
      // Nothing alike on screen, but the page scrolls: the element may be further down.
      const scroll = i.context?.scrollPosition;
      if (i.action === 'click' && scroll && scroll.y < scroll.maxY - 1) return withOption(i.action, i.raw, 'scrollUntilVisible', true);
      return { snapshot: true };
    }
    case 'stale-ref': {
      const same = near.find((m) => m.score >= 80);
      return (same && retarget(i.action, i.raw, target, same.ref)) ?? { snapshot: true };
    }
    case 'invalid-selector': {
      const text = target && textInSelector(target.value);
      if (!text || !['click', 'hover', 'fill'].includes(i.action)) return undefined;
      return { [i.action]: { ...(isObj(i.raw) ? withoutTarget(i.raw) : {}), [i.action === 'fill' ? 'label' : 'text']: text } };
    }
    case 'covered': {
      const dismiss = i.context?.coveredBy?.dismiss;
      return dismiss ? { click: dismiss.ref } : withOption(i.action, i.raw, 'force', true);
    }
    case 'not-visible': return i.action === 'click' || i.action === 'hover' ? withOption(i.action, i.raw, 'force', true) : undefined;
    case 'disabled': return enabledStep(i, target);
    case 'not-editable': return notEditableStep(i, target);
    case 'option-not-found': return optionStep(i);
    case 'timeout':
      // A text that never showed, but one much like it is there: wait for that one.
      if (i.action === 'wait' && target?.by === 'text' && near[0]) return { wait: { text: near[0].name } };
      return timeoutStep(i);
    case 'navigation':
      if (details.beforeunload) return { dialog: { accept: true } };
      return i.failure.name === 'ContextDestroyedError' ? { [i.action]: i.raw } : undefined;
    case 'frame': return (details.nextStep as SuggestedStep | undefined) ?? { frame: { list: true } };
    case 'crashed': return { reload: true };
    // A fallback or keys nothing reacted to: dismiss what covers the target, else the thrower's suggestion.
    case 'no-effect': return i.context?.coveredBy?.dismiss ? { click: i.context.coveredBy.dismiss.ref } : details.nextStep as SuggestedStep | undefined;
    // dialog-open (a tab blocked by a dialog no one could answer): no step helps; the message says what does.
    default: return undefined;
  }
}
