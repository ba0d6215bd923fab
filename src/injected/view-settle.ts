// Settling before the after-look (issue 13): after the steps, wait — bounded, driven by the page's
// own events — until no finite animation or transition runs on a shown element and the DOM has been
// quiet for a moment, so a dialog still closing or a row still fading in is seen as it ends up.
// Mutations are timed from viewStart (view-diff.ts) on. Runs in the page.
import { selectorFor } from './dom-describe.js';
import { state } from './state.js';

interface SettleOutcome {
  waitedMs: number;
  pending?: string;
}

/**
 * How long the page gets to answer a trusted click or key before the look says it did nothing: a
 * handler that awaits first — `await navigator.clipboard.writeText(…)`, a promise, a timer — changes
 * the DOM a few to some tens of ms after the event (issue 21: "Copied!" shown after the look).
 */
export const REACTION_GRACE_MS = 120;

/** Events that start a page's reaction to the agent's input. */
const ACTIVATIONS = ['click', 'auxclick', 'contextmenu', 'keydown', 'paste'];

/** Records the time of the last DOM mutation and of the last trusted activation from now on (until viewSettle ends). */
export function armMutationClock(): void {
  const slot = state.view;
  slot.clock?.observer.disconnect();
  slot.clock?.off();
  const onActivation = (e: Event): void => {
    if (e.isTrusted) clock.activatedAt = performance.now();
  };
  const clock = {
    last: 0,
    activatedAt: -Infinity,
    observer: new MutationObserver(() => {
      clock.last = performance.now();
    }),
    off: () => {
      for (const t of ACTIVATIONS) window.removeEventListener(t, onActivation, { capture: true });
    },
  };
  clock.observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  for (const t of ACTIVATIONS) window.addEventListener(t, onActivation, { capture: true, passive: true });
  slot.clock = clock;
}

/**
 * Until when the page may still be answering the agent's last click or key: the activation plus
 * the grace, unless the DOM already changed after it (then quiet time decides, as for any change).
 * 0 when there was no activation.
 */
export function reactionDueAt(): number {
  const clock = state.view.clock;
  if (!clock || clock.last > clock.activatedAt) return 0;
  return clock.activatedAt + REACTION_GRACE_MS;
}

/** A finite animation or transition still running on a shown element, ending within `withinMs`. */
function runningAnimation(withinMs: number): string | undefined {
  for (const a of document.getAnimations()) {
    if (a.playState !== 'running') continue;
    const timing = a.effect?.getComputedTiming();
    const end = Number(timing?.endTime ?? Infinity);
    const now = Number(timing?.localTime ?? 0);
    if (!Number.isFinite(end) || end - now > withinMs) continue; // spinners, marquees: never "done"
    const target = (a.effect as KeyframeEffect | null)?.target;
    if (target && !target.isConnected) continue;
    const name = (a as CSSAnimation).animationName ?? (a as CSSTransition).transitionProperty ?? 'animation';
    return `${name} on ${target ? selectorFor(target) : 'the page'}`;
  }
  return undefined;
}

/**
 * Waits until nothing animates and the DOM was quiet for `quietMs`, at most `maxMs` (300 ms for DOM
 * changes alone). `keepClock`: the mutation clock stays armed (a settle between steps, before the capture's).
 */
export function viewSettle(maxMs: number, quietMs: number, keepClock = false): Promise<SettleOutcome> {
  const slot = state.view;
  const start = performance.now();
  return new Promise((resolve) => {
    const tick = (): void => {
      const now = performance.now();
      const busy = runningAnimation(Math.max(0, maxMs - (now - start)));
      // Quiet only once the page had its moment to answer the last click or key.
      const dueAt = reactionDueAt();
      const quiet = now - (slot.clock?.last ?? 0) >= quietMs && now >= dueAt;
      const waitedMs = Math.round(now - start);
      // A page that never stops changing (a ticker, a live chart) holds the look 300 ms at most.
      if (!busy && (quiet || now - start >= 300)) {
        finish({ waitedMs, ...(quiet ? {} : { pending: 'DOM changes' }) });
        return;
      }
      if (now - start >= maxMs) {
        finish({ waitedMs, pending: busy ?? 'DOM changes' });
        return;
      }
      const wait = Math.max(quietMs - (now - (slot.clock?.last ?? 0)), dueAt - now);
      setTimeout(tick, busy ? 25 : Math.max(10, wait));
    };
    const finish = (o: SettleOutcome): void => {
      if (!keepClock) {
        slot.clock?.observer.disconnect();
        slot.clock?.off();
        slot.clock = undefined;
      }
      resolve(o);
    };
    tick();
  });
}
