// The failure context of a failed step (SPEC §16.3): one bounded page evaluation in the frame the
// steps run in, skipped when the page is gone. What to search near matches for comes from the
// error's details; the page does the finding and scoring (injected/failure-context.ts).

import { Deadline } from '../common/index.js';
import type { AttachedTab } from '../steps/index.js';
import type { FailureContextRequest, NearMatch, RefName } from '../injected/index.js';
import type { ClassifiedError } from './failure.js';

/** A failure context may add this much to a failed command, no more. */
export const FAILURE_CONTEXT_TIMEOUT_MS = 1_000;

export interface StepFailureContext {
  title?: string;
  url?: string;
  scrollPosition?: { x: number; y: number; maxY: number; percentY: number };
  visibleButtons?: RefName[];
  visibleLinks?: RefName[];
  visibleErrors?: string[];
  nearMatches?: NearMatch[];
  coveredBy?: { kind?: string; selector?: string; text?: string; dismiss?: RefName };
}

/** Failures that leave no page to look at, or none worth a look. */
const NO_CONTEXT = new Set(['connection', 'crashed', 'validation']);

/** Failures where the target was not found: only these get near matches (SPEC §16.3). */
const NOT_FOUND = new Set(['selector-not-found', 'stale-ref', 'invalid-selector', 'timeout']);

/** Words of a CSS selector an agent would have meant: quoted text, ids, classes, attribute values. */
export function selectorWords(selector: string): string | undefined {
  const quoted = /["']([^"']{2,})["']/.exec(selector);
  if (quoted) return quoted[1];
  const parts = Array.from(
    selector.matchAll(/[#.]([\w-]+)|\[[\w-]+[~|^$*]?=\s*([^\]]+)\]/g),
    (m) => m[1] ?? m[2]!.replace(/["']/g, ''),
  );
  const words = parts.join(' ').trim();
  if (words) return words;
  const bare = selector.replace(/[^\w\s-]/g, ' ').trim();
  return bare || undefined;
}

/** What the failing step looked for, as words to score elements against. */
export function searchTerm(details: Record<string, unknown>): string | undefined {
  if (typeof details.name === 'string' && details.name) return details.name; // a stale ref's name
  const target = details.target as { by?: string; value?: string } | undefined;
  if (!target?.value) return undefined;
  switch (target.by) {
    case 'text':
    case 'label':
      return target.value;
    case 'css':
      return selectorWords(target.value);
    case 'selectors':
      return selectorWords(target.value.split(',')[0] ?? '');
    default:
      return undefined;
  }
}

export async function gatherFailureContext(
  tab: AttachedTab,
  failure: ClassifiedError,
): Promise<StepFailureContext | undefined> {
  const { page } = tab;
  if (NO_CONTEXT.has(failure.category) || page.fatalError) return undefined;
  const interceptor = failure.details.interceptor as { kind?: string; selector?: string; text?: string } | undefined;
  const term = NOT_FOUND.has(failure.category) ? searchTerm(failure.details) : undefined;
  const req: FailureContextRequest = {
    ...(term ? { term } : {}),
    ...(interceptor?.selector ? { interceptor: interceptor.selector } : {}),
    ...(tab.entry.counters ? { counters: tab.entry.counters } : {}),
  };
  try {
    // Where the steps run (the tab's chosen frame), with a bound of its own: the step's deadline may be spent.
    const scope = page.scope(Deadline.after(FAILURE_CONTEXT_TIMEOUT_MS));
    const r = await scope.call((rt, a) => rt.failureContext.failureContext(a), req, { what: 'the failure context' });
    tab.entry.counters = r.counters;
    const out: StepFailureContext = { title: r.title, url: r.url, scrollPosition: r.scrollPosition };
    if (r.visibleButtons.length) out.visibleButtons = r.visibleButtons;
    if (r.visibleLinks.length) out.visibleLinks = r.visibleLinks;
    if (r.visibleErrors.length) out.visibleErrors = r.visibleErrors;
    if (r.nearMatches.length) out.nearMatches = r.nearMatches;
    if (interceptor) out.coveredBy = { ...interceptor, ...(r.dismiss ? { dismiss: r.dismiss } : {}) };
    return out;
  } catch {
    return undefined; // best effort (SPEC §16.3): a page that can't answer in time costs the context, not the answer
  }
}
