// Work the agent's typing set going in the page (issue 22 item 9): timers the page set while handling
// a trusted key or input event (a debounced search's 300 ms), the timers those set for a short while,
// and the fetches they began — so the settle waits for their effect (runner/settle-work.ts). Lives in
// the page's own world, where the page's timers are: it wraps setTimeout, clearTimeout and fetch
// there once per document, passing every call through unchanged. Runs in the page.
import { state } from './state.js';

/** A longer timer is not the answer to a key (a toast's auto-hide, a session timeout). */
const TRACK_MAX_DELAY_MS = 1_000;
/** A chain of timers is followed this long after the input that began it: a poller the input started is not work to wait for. */
const CHAIN_SPAN_MS = 1_500;
/** After the last timer fired or fetch answered: its body read and the render after it. */
const AFTER_MS = 50;

export interface InputWork {
  /** Pending tracked timers: id → when due (performance.now()). */
  timers: Map<number, number>;
  fetches: number;
  lastEnd: number;
  /** While a tracked timer's callback runs: when the input that began its chain came. */
  origin?: number;
  setTimer: typeof setTimeout;
}

/**
 * The events of typing. Debounces answer keys (a search, a validation, an autosave); a click's timers
 * are mostly its own undoing (a ripple's exit, a toast's hide) and waiting for them would cost every
 * click of a widget library up to the bound, so they are left to the view settle.
 */
const TYPING_EVENTS = new Set([
  'keydown',
  'keypress',
  'keyup',
  'beforeinput',
  'input',
  'change',
  'paste',
  'cut',
  'compositionend',
  'search',
]);

/** When the input behind a call now came: a trusted typing event being handled, or a tracked timer's chain; undefined otherwise. */
function originNow(w: InputWork): number | undefined {
  const ev = (window as { event?: Event }).event;
  if (ev?.isTrusted && TYPING_EVENTS.has(ev.type)) return performance.now();
  if (w.origin !== undefined && performance.now() - w.origin < CHAIN_SPAN_MS) return w.origin;
  return undefined;
}

/** Starts tracking, once per document (the wrappers stay for the document's life). */
export function armInputWork(): void {
  if (state.inputWork) return;
  const setTimer = window.setTimeout;
  const clearTimer = window.clearTimeout;
  const fetchOf = window.fetch;
  const w: InputWork = { timers: new Map(), fetches: 0, lastEnd: 0, setTimer };
  state.inputWork = w;
  const tracked = (handler: TimerHandler, delay: number | undefined): number | undefined =>
    typeof handler === 'function' && Number(delay ?? 0) <= TRACK_MAX_DELAY_MS ? originNow(w) : undefined;
  window.setTimeout = function setTimeout(handler: TimerHandler, delay?: number, ...args: unknown[]): number {
    const origin = tracked(handler, delay);
    if (origin === undefined) return setTimer(handler, delay, ...args);
    const id = setTimer(
      (...a: unknown[]) => {
        w.timers.delete(id);
        w.lastEnd = performance.now();
        const outer = w.origin;
        w.origin = origin;
        try {
          (handler as (...x: unknown[]) => unknown).apply(window, a);
        } finally {
          w.origin = outer;
        }
      },
      delay,
      ...args,
    );
    w.timers.set(id, performance.now() + Number(delay ?? 0));
    return id;
  } as typeof window.setTimeout;
  window.clearTimeout = function clearTimeout(id?: number): void {
    if (id !== undefined) w.timers.delete(id);
    clearTimer(id);
  } as typeof window.clearTimeout;
  countStorageWork(() => clearTimer(setTimer(() => {}, 0)));
  if (typeof fetchOf !== 'function') return;
  window.fetch = function trackedFetch(...a: Parameters<typeof window.fetch>): Promise<Response> {
    const answer = fetchOf.apply(window, a);
    if (originNow(w) === undefined) return answer;
    w.fetches++;
    const done = (): void => {
      w.fetches--;
      w.lastEnd = performance.now();
    };
    answer.then(done, done);
    return answer;
  };
}

/**
 * Storage a handler writes (an IndexedDB open or transaction, a Cache API write) answers after
 * browser round trips no world of ours can follow. Each such call draws an id from the timer
 * sequence every world shares (`drawTimerId`), so the turn a click or key gets (view-settle.ts)
 * counts it as a timer of the page's and keeps the grace, which the change it brings ends early
 * ("Saved" after an IndexedDB write: measured 6 of 15 told without this, 15 of 15 with it).
 */
function countStorageWork(drawTimerId: () => void): void {
  const methods: Array<[object | undefined, string[]]> = [
    [globalThis.IDBFactory?.prototype, ['open', 'deleteDatabase']],
    [globalThis.IDBDatabase?.prototype, ['transaction']],
    [globalThis.CacheStorage?.prototype, ['open', 'delete']],
    [globalThis.Cache?.prototype, ['add', 'addAll', 'put', 'delete']],
  ];
  for (const [proto, names] of methods) {
    if (!proto) continue;
    const target = proto as Record<string, unknown>;
    for (const name of names) {
      const native = target[name];
      if (typeof native !== 'function') continue;
      target[name] = function (this: unknown, ...args: unknown[]): unknown {
        drawTimerId();
        return native.apply(this, args);
      };
    }
  }
}

/**
 * Waits until the tracked timers due within `maxMs` fired, the tracked fetches answered and a
 * moment passed after the last of them; at most `maxMs`. Says what was still pending then (a timer
 * due later than the bound is not waited for: it is said at once).
 */
export function awaitInputWork(maxMs: number): Promise<{ waitedMs: number; pending?: string }> {
  const w = state.inputWork;
  const start = performance.now();
  return new Promise((resolve) => {
    const tick = (): void => {
      const now = performance.now();
      const due = w ? [...w.timers.values()] : [];
      const fetches = w?.fetches ?? 0;
      const inBound = due.filter((at) => at <= start + maxMs);
      const after = (w?.lastEnd ?? 0) + AFTER_MS;
      const waitedMs = Math.round(now - start);
      if (!w || now - start >= maxMs || (!inBound.length && !fetches && now >= after)) {
        const pending = [
          ...(due.length ? [`${due.length} timer${due.length > 1 ? 's' : ''}`] : []),
          ...(fetches ? [`${fetches} request${fetches > 1 ? 's' : ''}`] : []),
        ];
        resolve({
          waitedMs,
          ...(pending.length ? { pending: `${pending.join(' and ')} the page started on the input` } : {}),
        });
        return;
      }
      const next = Math.min(...inBound.map((at) => at - now), fetches ? 20 : Infinity, Math.max(0, after - now));
      const { setTimer } = w; // the page's own setTimeout, called unbound (bound to w it throws)
      setTimer(tick, Math.max(5, Math.min(next, maxMs - (now - start))));
    };
    tick();
  });
}
