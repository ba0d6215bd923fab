// Scroll (SPEC §9.7): the page or a container, to the top or bottom, by a delta, to a position, or
// an element into view; instant, and reporting the final position.

import { ExecutionError, type Deadline } from '../common/index.js';
import type { Scope } from '../page/index.js';
import type { ScrollMove } from '../injected/index.js';
import { locate, type RefHolder, type TargetOptions, type TargetSpec } from './locate.js';

export type { ScrollMove } from '../injected/index.js';

export async function scrollTo(
  scope: Scope,
  element: TargetSpec,
  refs: RefHolder,
  opts: TargetOptions,
  deadline: Deadline,
): Promise<{ scrollX: number; scrollY: number; reResolved?: true }> {
  const el = await locate(scope, element, refs, opts, deadline);
  const r = await scope.call((rt, h) => rt.scrolling.scrollElementIntoView(h), el.handle, {
    deadline,
    what: 'scrolling',
  });
  if ('error' in r) throw new ExecutionError(`${el.desc} ${r.error}`, { category: 'stale-ref' });
  return { ...r, ...(el.reResolved ? { reResolved: true } : {}) };
}

/** How long the bottom is watched for a feed to append (from the scroll event; longer when the page set timers since), when no request is under way. */
const FEED_QUIET_MS = 400;
/** How long requests the scroll started may take before the feed is looked at again. */
const FEED_REQUEST_MS = 3_000;

/**
 * To the bottom, then a bounded wait for an infinite feed to append: `loaded` (items added) when it
 * did, `end: true` when nothing came — within FEED_QUIET_MS, or after the requests the scroll
 * started finished (FEED_REQUEST_MS at most).
 */
async function scrollToBottom(
  scope: Scope,
  handle: number | undefined,
  deadline: Deadline,
): Promise<{ scrollX: number; scrollY: number; loaded?: number; end?: true }> {
  const mark = scope.page.network.mark;
  const r = await scope.call((rt, h) => rt.scrolling.scrollToBottomWatched(h), handle, {
    deadline,
    what: 'scrolling',
  });
  if ('error' in r) throw new ExecutionError(`The container ${r.error}`, { category: 'stale-ref' });
  const look = (waitMs: number, done: boolean) =>
    scope.call(
      (rt, a) => rt.scrolling.feedGrowth(a.waitMs, a.done, a.boundMs),
      { waitMs, done, boundMs: Math.max(0, deadline.remainingMs() - 300) },
      { deadline, what: 'new content at the bottom' },
    );
  let g = await look(FEED_QUIET_MS, false);
  if (!g.grew && scope.page.network.pendingSince(mark) > 0) {
    // A request the scroll started may bring the next page: wait for it, then look again.
    await scope.page.network.settleSince(mark, deadline.cap(FEED_REQUEST_MS));
    g = await look(FEED_QUIET_MS, true);
  } else if (!g.grew) g = await look(0, true);
  const { scrollX, scrollY } = g;
  return g.grew ? { scrollX, scrollY, loaded: g.loaded } : { scrollX, scrollY, end: true };
}

export async function scrollPage(
  scope: Scope,
  move: ScrollMove,
  container: TargetSpec | undefined,
  refs: RefHolder,
  opts: TargetOptions,
  deadline: Deadline,
): Promise<{ scrollX: number; scrollY: number; loaded?: number; end?: true }> {
  const held = container ? await locate(scope, container, refs, opts, deadline) : undefined;
  if ('to' in move && move.to === 'bottom') return scrollToBottom(scope, held?.handle, deadline);
  const r = await scope.call(
    (rt, a) => rt.scrolling.scrollBy(a.move, a.handle),
    { move, handle: held?.handle },
    { deadline, what: 'scrolling' },
  );
  if ('error' in r) throw new ExecutionError(`The container ${r.error}`, { category: 'stale-ref' });
  return r;
}
