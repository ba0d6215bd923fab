// The work a page set going that our world can see without touching the page: timers and animation
// frames draw their ids from one sequence per document that every world shares (measured, Chromium
// 156), so the ids our world is given, less the ones it asked for itself, count the page's.
// Runs in the page, in our isolated world only: the page's world keeps its own functions.

/** Our world's own timers and frame requests since counting began. */
const own = { timers: 0, frames: 0, counting: false };

/** Where the shared id sequences stood, and how many of their ids were ours, at one moment. */
export interface WorkMark {
  timerId: number;
  frameId: number;
  ownTimers: number;
  ownFrames: number;
}

/** What the page asked for since a mark: timers set (timeouts, intervals) and animation frames requested. */
export interface PageWork {
  timers: number;
  frames: number;
}

type Scheduler = (...args: never[]) => number;

/** `name` of our world's window, counted on each call; the page's world is a different global and is untouched. */
function counted(name: 'setTimeout' | 'setInterval' | 'requestAnimationFrame', key: 'timers' | 'frames'): void {
  const w = window as unknown as Record<string, Scheduler>;
  const native = w[name]!;
  w[name] = (...args: never[]): number => {
    own[key]++;
    return native.apply(window, args);
  };
}

/** Counts our world's own timers and frame requests from now on (once per world). */
export function countOwnWork(): void {
  if (own.counting) return;
  own.counting = true;
  counted('setTimeout', 'timers');
  counted('setInterval', 'timers');
  counted('requestAnimationFrame', 'frames');
}

const noop = (): void => {};

/** The sequences now: one id of each is drawn (counted as ours) and given back at once, so nothing is left pending. */
export function markWork(): WorkMark {
  const timerId = window.setTimeout(noop, 0);
  window.clearTimeout(timerId);
  const frameId = window.requestAnimationFrame(noop);
  window.cancelAnimationFrame(frameId);
  return { timerId, frameId, ownTimers: own.timers, ownFrames: own.frames };
}

/** The timers and frames the page asked for since `mark`; undefined when our world did not count its own (unknown). */
export function pageWorkSince(mark: WorkMark): PageWork | undefined {
  if (!own.counting) return undefined;
  const now = markWork();
  return {
    timers: Math.max(0, now.timerId - mark.timerId - (now.ownTimers - mark.ownTimers)),
    frames: Math.max(0, now.frameId - mark.frameId - (now.ownFrames - mark.ownFrames)),
  };
}
