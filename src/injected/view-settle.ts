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

/** Records the time of the last DOM mutation from now on (until viewSettle ends). */
export function armMutationClock(): void {
  const slot = state.view;
  slot.clock?.observer.disconnect();
  const clock = {
    last: 0,
    observer: new MutationObserver(() => {
      clock.last = performance.now();
    }),
  };
  clock.observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  slot.clock = clock;
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
      const quiet = now - (slot.clock?.last ?? 0) >= quietMs;
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
      setTimeout(tick, busy ? 25 : Math.max(10, quietMs - (now - (slot.clock?.last ?? 0))));
    };
    const finish = (o: SettleOutcome): void => {
      if (!keepClock) {
        slot.clock?.observer.disconnect();
        slot.clock = undefined;
      }
      resolve(o);
    };
    tick();
  });
}
