// Values of the agent's page code (pageFunction, poll, pipeline, step hooks): the serializer with
// elements named by ref (`{ $type: 'element', ref, desc }`), and polling an agent's predicate until
// it is truthy. The predicate arrives as a function the Node side built from the agent's source.
// Runs in the page.
import { collapseSpace } from './aria-name.js';
import { cachedName, cachedRole, refContext, refOf } from './element-query.js';
import { serializeClip, serializeElementDesc, serializeErrorText, serializeValue } from './serialize.js';
import { syncCounters, type Counters } from './ref-map.js';
import type { RefContext } from './element-query.js';
import type { SerializedValue } from './serialize.js';
import { state } from './state.js';

export interface HookPoll {
  ok: boolean;
  /** The last value the predicate returned, serialized. */
  value: SerializedValue;
  /** The last error the predicate threw, when its last call threw. */
  error?: string;
  elapsedMs: number;
}

/** An element as a value: its ref (given now if it had none) and `role "name"`. */
function valueElement(ctx: RefContext, el: Element): { ref?: string; desc: string } {
  if (!el.isConnected) return { desc: serializeElementDesc(el) };
  const raw = cachedRole(ctx, el);
  const role = raw === 'presentation' || raw === 'none' ? 'generic' : raw;
  const name = cachedName(ctx, el, role);
  const ref = refOf(ctx, el, role, name).ref;
  if (name) return { ref, desc: `${role} "${name}"` };
  const text = serializeClip(collapseSpace(el.textContent ?? ''), 60);
  return { ref, desc: `${role} <${el.localName}${el.id ? `#${el.id}` : ''}>${text ? ` "${text}"` : ''}` };
}

/** A value of the agent's code as the answer carries it. `counters` (the tab's) keep refs unique across documents. */
export function pageValue(value: unknown, counters?: Counters): SerializedValue {
  let ctx: RefContext | undefined;
  state.valueRefs = [];
  return serializeValue(value, {
    element: (el) => {
      const named = valueElement((ctx ??= refContext(counters)), el);
      if (named.ref && state.valueRefs.length < MAX_VALUE_REFS) state.valueRefs.push([named.ref, el]);
      return named;
    },
  });
}

/**
 * What agents' code answers: the value, and — only when it named elements by ref — the refs it
 * gave and the counters after them. A value without elements leaves the page's world without our state.
 */
export function valueAnswer(
  value: unknown,
  counters?: Counters,
): { value: SerializedValue; counters?: Counters; refs?: string[] } {
  const serialized = pageValue(value, counters);
  if (!state.valueRefs.length) return { value: serialized };
  return { value: serialized, counters: syncCounters(undefined), refs: valueRefNames() };
}

/** At most this many refs of one value are made usable by later steps (each costs a few CDP round trips). */
const MAX_VALUE_REFS = 50;

/** The refs the last pageValue gave, by name. */
function valueRefNames(): string[] {
  return state.valueRefs.map(([ref]) => ref);
}

/** The elements of valueRefNames(), in the same order (fetched by reference). */
export function valueRefElements(): Element[] {
  return state.valueRefs.map(([, el]) => el);
}

/**
 * Calls `fn` now and every `intervalMs` until it returns a truthy value or `timeoutMs` passes. A
 * predicate that throws counts as not yet true ("the element is not there yet"); its error is
 * reported if time runs out.
 */
export async function pollHook(fn: () => unknown, timeoutMs: number, intervalMs: number): Promise<HookPoll> {
  const started = performance.now();
  let value: unknown;
  let error: string | undefined;
  for (;;) {
    try {
      value = await fn();
      error = undefined;
    } catch (err) {
      error = serializeErrorText(err);
    }
    const elapsedMs = Math.round(performance.now() - started);
    if (!error && value) return { ok: true, value: pageValue(value), elapsedMs };
    if (elapsedMs + intervalMs > timeoutMs)
      return { ok: false, value: pageValue(value), ...(error ? { error } : {}), elapsedMs };
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export async function observeHook(fn: () => unknown): Promise<SerializedValue> {
  return pageValue(await fn());
}
