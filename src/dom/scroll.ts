// Scroll (SPEC §9.7): the page or a container, to the top or bottom, by a delta, to a position, or
// an element into view; instant, and reporting the final position.

import { ExecutionError, type Deadline } from '../common/index.js';
import type { Page } from '../page/index.js';
import type { ScrollMove } from '../injected/index.js';
import { locate, type RefHolder, type TargetOptions, type TargetSpec } from './locate.js';

export type { ScrollMove } from '../injected/index.js';

export async function scrollTo(
  page: Page,
  element: TargetSpec,
  refs: RefHolder,
  opts: TargetOptions,
  deadline: Deadline,
): Promise<{ scrollX: number; scrollY: number; reResolved?: true }> {
  const el = await locate(page, element, refs, opts, deadline);
  const r = await page.call(page.frame, (rt, h) => rt.scrolling.scrollElementIntoView(h), el.handle, {
    deadline,
    what: 'scrolling',
  });
  if ('error' in r) throw new ExecutionError(`${el.desc} ${r.error}`, { category: 'stale-ref' });
  return { ...r, ...(el.reResolved ? { reResolved: true } : {}) };
}

export async function scrollPage(
  page: Page,
  move: ScrollMove,
  container: TargetSpec | undefined,
  refs: RefHolder,
  opts: TargetOptions,
  deadline: Deadline,
): Promise<{ scrollX: number; scrollY: number }> {
  const held = container ? await locate(page, container, refs, opts, deadline) : undefined;
  const r = await page.call(
    page.frame,
    (rt, a) => rt.scrolling.scrollBy(a.move, a.handle),
    { move, handle: held?.handle },
    { deadline, what: 'scrolling' },
  );
  if ('error' in r) throw new ExecutionError(`The container ${r.error}`, { category: 'stale-ref' });
  return r;
}
