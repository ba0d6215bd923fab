// The one step an agent could run next after a failure: built from the failure's category, what
// the thrower knew (target, control, options), the failure context (near matches, the covering
// layer's dismiss button) and what the step registry says of each step (where its target is, which
// step remedies what). Names no step itself. Undefined when nothing concrete would help.

import { MAX_TIMEOUT_MS } from '../common/index.js';
import { getStep, isObj, NAMING_KEYS, remedyStep, stringTarget, type TargetFacts } from '../steps/index.js';
import type { StepFailureContext } from './diagnostics.js';
import type { ClassifiedError } from './failure.js';
import { differsInIdentifier } from './near-match.js';

export type SuggestedStep = Record<string, unknown>;

export interface NextStepInput {
  action: string;
  /** The step's parameters as the agent wrote them: a suggestion for the same step keeps them. */
  raw: unknown;
  failure: Pick<ClassifiedError, 'category' | 'details' | 'message' | 'name'>;
  context?: StepFailureContext;
  /** The step timeout the failed step ran with. */
  timeoutMs: number;
  /** The failed step's hooks: a suggestion to run the same step again keeps them. */
  hooks?: Record<string, string>;
}

interface Target {
  by: string;
  value: string;
}
type Obj = Record<string, unknown>;

function targetOf(details: Obj): Target | undefined {
  const t = details.target as Partial<Target> | undefined;
  return t && typeof t.by === 'string' && typeof t.value === 'string' ? { by: t.by, value: t.value } : undefined;
}

/** A string target as the step's parser reads it: {ref} or {selector}. */
function stringKeys(raw: string): Obj {
  try {
    const t = stringTarget(raw, 'target');
    return t.by === 'ref' ? { ref: t.ref } : t.by === 'css' ? { selector: t.selector } : {};
  } catch {
    return {}; // an empty string names nothing: no target keys to suggest
  }
}

/** The target as step keys: {selector} | {ref} | {text} | {label}, from the failure's details, else the input. */
function targetKeys(facts: TargetFacts | undefined, t: Target | undefined, raw: unknown): Obj {
  if (t?.by === 'css') return { selector: t.value };
  if (t?.by === 'ref' || t?.by === 'text' || t?.by === 'label') return { [t.by]: t.value };
  if (typeof raw === 'string') return stringKeys(raw);
  if (isObj(raw))
    return Object.fromEntries((facts?.keys ?? []).filter((k) => raw[k] !== undefined).map((k) => [k, raw[k]]));
  return {};
}

const withoutTarget = (facts: TargetFacts, o: Obj): Obj =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !facts.keys.includes(k)));

/** The same step aimed at `ref` instead, when the step takes refs. */
export function retarget(
  action: string,
  raw: unknown,
  target: Target | undefined,
  ref: string,
): SuggestedStep | undefined {
  const facts = getStep(action)?.target;
  if (!facts?.keys.includes('ref')) return undefined;
  if (typeof raw === 'string') return facts.string ? { [action]: ref } : undefined;
  if (!isObj(raw)) return undefined;
  if (NAMING_KEYS.some((k) => facts.keys.includes(k) && raw[k] !== undefined))
    return { [action]: { ref, ...withoutTarget(facts, raw) } };
  // Field maps ({"#email": "x"} or {fields: {…}}): the failing field's key is the target's value.
  const map = isObj(raw.fields) ? raw.fields : raw;
  if (facts.fieldMap && target && target.value in map) {
    const renamed = Object.fromEntries(Object.entries(map).map(([k, v]) => [k === target.value ? ref : k, v]));
    return { [action]: isObj(raw.fields) ? { ...raw, fields: renamed } : renamed };
  }
  return undefined;
}

/** The same step with one more option (a string target becomes {selector|ref}). */
function withOption(action: string, raw: unknown, key: string, value: unknown): SuggestedStep | undefined {
  if (typeof raw === 'string') return { [action]: { ...stringKeys(raw), [key]: value } };
  return isObj(raw) ? { [action]: { ...raw, [key]: value } } : undefined;
}

/** Text an invalid selector was probably meant to find: text=…, :contains("…"), :has-text("…"). */
function textInSelector(selector: string): string | undefined {
  const m =
    /^text=["']?(.+?)["']?$/.exec(selector.trim()) ?? /:(?:contains|has-text)\(\s*["']?(.+?)["']?\s*\)/.exec(selector);
  return m?.[1];
}

async function closestOption(
  wanted: string,
  options: { value: string; label: string }[],
): Promise<{ value: string; label: string } | undefined> {
  const lower = wanted.toLowerCase();
  const contained = options.find((o) => o.label.toLowerCase().includes(lower) || o.value.toLowerCase().includes(lower));
  if (contained) return contained;
  const { closest } = await import('./suggest.js'); // an error path: the edit-distance code loads only now
  const hit = closest(
    wanted,
    options.flatMap((o) => [o.label, o.value]),
  );
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

/** A field that takes no text: the step its control takes (upload, selectOption, click), as the thrower named it. */
function notEditableStep(i: NextStepInput, target: Target | undefined): SuggestedStep | undefined {
  const control = i.failure.details.control;
  if (typeof control !== 'string') return undefined;
  const value = isObj(i.raw) && typeof i.raw.value === 'string' ? i.raw.value : undefined;
  return remedyStep(`field:${control}`, targetKeys(getStep(i.action)?.target, target, i.raw), value);
}

/** Waits for the target to be enabled before the same step (a form that enables its button). */
function enabledStep(i: NextStepInput, target: Target | undefined): SuggestedStep | undefined {
  const el =
    target?.by === 'css'
      ? `document.querySelector(${JSON.stringify(target.value)})`
      : target?.by === 'ref'
        ? `window.__ariaRefs?.get(${JSON.stringify(target.value)})`
        : undefined;
  if (!el) return undefined;
  return { [i.action]: i.raw, readyWhen: `() => !${el}?.matches(':disabled, [aria-disabled=true]')` };
}

function timeoutStep(i: NextStepInput): SuggestedStep {
  const lighter = getStep(i.action)?.lighterWait?.(i.raw);
  if (lighter !== undefined) return { [i.action]: lighter };
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
  const wanted =
    typeof details.name === 'string'
      ? details.name
      : target?.by === 'text' || target?.by === 'label'
        ? target.value
        : '';
  const near = (i.context?.nearMatches ?? []).filter((m) => !differsInIdentifier(wanted, m.name));
  const def = getStep(i.action);
  switch (category) {
    case 'selector-not-found': {
      if (near[0]) return retarget(i.action, i.raw, target, near[0].ref) ?? remedyStep('look');
      // Nothing alike on screen, but the page scrolls: the element may be further down.
      const scroll = i.context?.scrollPosition;
      if (def?.params.keys?.scrollUntilVisible !== undefined && scroll && scroll.y < scroll.maxY - 1)
        return withOption(i.action, i.raw, 'scrollUntilVisible', true);
      return remedyStep('look');
    }
    case 'stale-ref': {
      const same = near.find((m) => m.score >= 80);
      return (same && retarget(i.action, i.raw, target, same.ref)) ?? remedyStep('look');
    }
    case 'invalid-selector': {
      const text = target && textInSelector(target.value);
      const facts = def?.target;
      if (!text || !facts?.byWords) return undefined;
      return { [i.action]: { ...(isObj(i.raw) ? withoutTarget(facts, i.raw) : {}), [facts.byWords]: text } };
    }
    case 'covered': {
      const dismiss = i.context?.coveredBy?.dismiss;
      return dismiss ? remedyStep('dismiss', { ref: dismiss.ref }) : withOption(i.action, i.raw, 'force', true);
    }
    case 'not-visible':
      return def?.target?.pointer ? withOption(i.action, i.raw, 'force', true) : undefined;
    case 'disabled':
      return enabledStep(i, target);
    case 'not-editable':
      return notEditableStep(i, target);
    case 'option-not-found':
      return (details.nextStep as SuggestedStep | undefined) ?? optionStep(i);
    case 'timeout':
      // A text that never showed, but one much like it is there: wait for that one.
      if (target?.by === 'text' && near[0] && isObj(i.raw) && i.raw.text !== undefined)
        return { [i.action]: { ...i.raw, text: near[0].name } };
      return timeoutStep(i);
    case 'navigation':
      if (details.beforeunload) return remedyStep('beforeunload');
      return i.failure.name === 'ContextDestroyedError' ? { [i.action]: i.raw } : undefined;
    case 'frame':
      return (details.nextStep as SuggestedStep | undefined) ?? remedyStep('frame');
    case 'crashed':
      return remedyStep('crashed');
    // A fallback or keys nothing reacted to: dismiss what covers the target, else the thrower's suggestion.
    case 'no-effect': {
      const dismiss = i.context?.coveredBy?.dismiss;
      return dismiss ? remedyStep('dismiss', { ref: dismiss.ref }) : (details.nextStep as SuggestedStep | undefined);
    }
    // dialog-open (a tab blocked by a dialog no one could answer): no step helps; the message says what does.
    default:
      return undefined;
  }
}
