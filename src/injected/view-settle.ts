// Settling before the after-look (issue 13): after the steps, wait — bounded, driven by the page's
// own events — until no finite animation or transition runs on a shown element and the DOM has been
// quiet for a moment, so a dialog still closing or a row still fading in is seen as it ends up; and
// before that, the page's turn to answer the agent's last click or key, following the work it set
// going (page-work.ts). Mutations are timed from viewStart (view-diff.ts) on. Runs in the page.
import { selectorFor } from './dom-describe.js';
import { countOwnWork, markWork, pageWorkSince } from './page-work.js';
import { state } from './state.js';

interface SettleOutcome {
  waitedMs: number;
  pending?: string;
}

/**
 * How long the page gets to answer a trusted click or key when its turn (giveReactionTurn) left a
 * timer of its own pending: a handler that waits on one — `setTimeout`, or a clipboard write and
 * then a timer — changes the DOM some tens of ms after the event (issue 21: "Copied!" shown late).
 */
export const REACTION_GRACE_MS = 120;

/** Longest wait for one animation frame: a page in a background tab gets none. */
const FRAME_WAIT_MS = 34;

/** Events that start a page's reaction to the agent's input. */
const ACTIVATIONS = ['click', 'auxclick', 'contextmenu', 'keydown', 'paste'];

type Clock = NonNullable<typeof state.view.clock>;

/** Records the time of the last DOM mutation and of the last trusted activation from now on (until viewSettle ends). */
export function armMutationClock(): void {
  const slot = state.view;
  slot.clock?.observer.disconnect();
  slot.clock?.off();
  countOwnWork();
  const onActivation = (e: Event): void => {
    if (e.isTrusted) clock.activatedAt = performance.now();
  };
  const clock: Clock = {
    last: 0,
    activatedAt: -Infinity,
    turnFor: -Infinity,
    mark: markWork(),
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

/** The page may still be answering the last activation: there was one, and the DOM has not changed since. */
function awaitingReaction(clock: Clock): boolean {
  return clock.activatedAt > -Infinity && clock.last <= clock.activatedAt;
}

/** Resolves after `ms` at most, or with `p`, whichever comes first. */
function within(p: Promise<unknown>, ms: number): Promise<unknown> {
  return Promise.race([p, new Promise((r) => setTimeout(r, Math.max(0, ms)))]);
}

/**
 * Gives the page its turn to answer the agent's last click or key while the DOM shows no answer yet,
 * following the work it set going instead of a fixed wait, all at once (the longest of them, not
 * their sum): one task (a handler awaiting a promise or a MessageChannel has run by then); a round
 * trip to the browser behind the page's own when the page can write the clipboard (its write asks
 * the browser first, then resolves); a frame, and more while the page keeps requesting them —
 * including frames it asked for only once the task or the round trip let it go on — within the
 * grace. Timers it set are left to reactionDueAt (their delay cannot be seen). Once per activation.
 */
export function giveReactionTurn(): Promise<void> {
  const clock = state.view.clock;
  if (!clock || !awaitingReaction(clock) || clock.turnFor === clock.activatedAt) return Promise.resolve();
  if (clock.turning?.at === clock.activatedAt) return clock.turning.done;
  const done = reactionTurn(clock);
  clock.turning = { at: clock.activatedAt, done };
  return done;
}

/**
 * Starts the page's turn as soon as the click is known to have happened (the click probe is read
 * right after the release): the capture's effect probe then waits only for what is left of it.
 */
export function startReactionTurn(): void {
  void giveReactionTurn();
}

async function reactionTurn(clock: Clock): Promise<void> {
  const at = clock.activatedAt;
  const left = (): number => at + REACTION_GRACE_MS - performance.now();
  const task = new Promise((r) => setTimeout(r, 0));
  const trip =
    navigator.clipboard && navigator.permissions
      ? within(
          navigator.permissions.query({ name: 'clipboard-write' as PermissionName }).catch(() => undefined),
          left(),
        )
      : undefined;
  const seen = await Promise.all([task, trip, followFrames(clock, left, -1)]);
  await followFrames(clock, left, seen[2]);
  clock.turnFor = at;
}

/**
 * Waits a frame while the page asked for more frames than `framesSeen` since the mark (a hidden
 * page runs none: each wait bounded, all of them by the grace); answers the count last seen.
 */
async function followFrames(clock: Clock, left: () => number, framesSeen: number): Promise<number> {
  let seen = framesSeen;
  for (;;) {
    const frames = pageWorkSince(clock.mark)?.frames ?? 0;
    if (frames <= seen || !awaitingReaction(clock) || left() <= 0) return seen;
    seen = frames;
    await within(new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))), Math.min(FRAME_WAIT_MS, left()));
  }
}

/**
 * Until when the page may still be answering the agent's last click or key: 0 when there was no
 * activation, when the DOM changed after it (then quiet time decides, as for any change), or when
 * its turn showed no timer of the page's pending; else the activation plus the grace.
 */
export function reactionDueAt(): number {
  const clock = state.view.clock;
  if (!clock || !awaitingReaction(clock)) return 0;
  const work = pageWorkSince(clock.mark);
  if (clock.turnFor === clock.activatedAt && work?.timers === 0) return 0;
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
export async function viewSettle(maxMs: number, quietMs: number, keepClock = false): Promise<SettleOutcome> {
  const slot = state.view;
  const start = performance.now();
  await giveReactionTurn();
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
      } else if (slot.clock) slot.clock.mark = markWork(); // the next step's timers are counted from here
      resolve(o);
    };
    tick();
  });
}
