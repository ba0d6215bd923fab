// Step hooks in the page (SPEC §10.2): polling an agent's predicate until it is truthy, and turning
// an observed value into plain JSON for the step result. The predicate arrives as a function the
// Node side built from the agent's source. Runs in the page.
import { serializeErrorText, serializeValue } from './serialize.js';

export interface HookPoll {
  ok: boolean;
  /** The last value the predicate returned, as plain JSON (a preview when large). */
  value: unknown;
  /** The last error the predicate threw, when its last call threw. */
  error?: string;
  elapsedMs: number;
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
    if (!error && value) return { ok: true, value: hookJson(value, 1), elapsedMs };
    if (elapsedMs + intervalMs > timeoutMs) return { ok: false, value: hookJson(value, 1), ...(error ? { error } : {}), elapsedMs };
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * A page value as plain JSON: primitives, arrays and plain objects as they are (bounded), anything
 * else (elements, Maps, functions, NaN…) in the tagged form of the value serializer.
 */
export function hookJson(value: unknown, depth: number): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value.length > 2_000 ? `${value.slice(0, 1_999)}…` : value;
  if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0))) return value;
  if (Array.isArray(value) && depth <= 4) return value.slice(0, 100).map((v) => hookJson(v, depth + 1));
  const proto = typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if ((proto === Object.prototype || proto === null) && depth <= 4) {
    return Object.fromEntries(Object.entries(value as object).slice(0, 50).map(([k, v]) => [k, hookJson(v, depth + 1)]));
  }
  return serializeValue(value, 2);
}

export async function observeHook(fn: () => unknown): Promise<unknown> {
  return hookJson(await fn(), 0);
}
