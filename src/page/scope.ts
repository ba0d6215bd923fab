// Where a step acts, as a value (STYLE "Where a step acts is a value, not a mode"): the tab, the
// frame — the top document, a chosen frame, or an out-of-process frame through its own session —
// our isolated world and the page's own world there, and the deadline its calls are bounded by.
// The runner builds one per step (Page.scope); dom/, steps/, aria/ and the capture reach the page through it.

import type { Deadline } from '../common/index.js';
import type { CdpSession } from '../cdp/index.js';
import type { PageRuntime } from '../injected/index.js';
import { adoptRefs, handBackValueRefs } from './agent-refs.js';
import { callSeeingClosedRoots, revealClosedRoots } from './closed-shadow.js';
import {
  callIsolated,
  callPageWorld,
  evaluateWithRefs,
  evaluateWithRuntime,
  heldElementObjectId,
  type EvalTarget,
} from './evaluate.js';
import type { FrameTarget } from './frames.js';
import type { Page } from './tab.js';

/** A call's name in timeout messages, and a deadline tighter than the scope's when the caller has one. */
export interface CallOptions {
  what?: string;
  deadline?: Deadline;
}

type RuntimeCall<A, R> = (rt: PageRuntime, arg: A) => R;

export interface Scope {
  readonly page: Page;
  /** The frame; undefined is the top document. */
  readonly frame: FrameTarget | undefined;
  /** The step's deadline: every call in the scope is bounded by it unless given a tighter one. */
  readonly deadline: Deadline;
  /** The frame's id (the top document's is the tab's main frame). */
  readonly frameId: string;
  /** The address of the scope's document. */
  readonly url: string;
  /** Where DOM.* and Page.* commands about the frame's nodes go: the tab's session or the frame's own. */
  readonly session: CdpSession;
  /** The frame runs in another renderer process (Chrome routes input to it by hit test). */
  readonly outOfProcess: boolean;
  /** Our code in our isolated world of the frame (the runtime installed when missing), raced against the tab dying. */
  call<A, R>(fn: RuntimeCall<A, R>, arg: A, options?: CallOptions): Promise<Awaited<R>>;
  /** `call` for code that walks shadow roots: closed roots not yet seen are handed to our world first. */
  callSeeingClosedRoots<A, R>(fn: RuntimeCall<A, R>, arg: A, options?: CallOptions): Promise<Awaited<R>>;
  /** Hands the closed shadow roots of custom elements not yet seen to our world; how many hosts were looked at. */
  revealClosedRoots(deadline?: Deadline): Promise<number>;
  /** Our runtime in the page's own world (what agents' code needs there: the dialog guard, a pipeline's progress). */
  callPageWorld<A, R>(fn: RuntimeCall<A, R>, arg: A, options?: CallOptions): Promise<Awaited<R>>;
  /**
   * Agents' code (pageFunction, hooks, poll, pipeline): `body` runs in the page's own world with
   * that world's runtime as `rt`, after the refs `source` names were handed to it.
   */
  callInPage(body: string, source: string, options?: CallOptions): Promise<unknown>;
  /** Makes the refs agents' code gave elements in the page's world (`names`) usable by later steps. */
  handBackValueRefs(names: string[] | undefined, counters: unknown, deadline?: Deadline): Promise<void>;
  /** A CDP object id, in our world, for an element the runtime holds there (DOM.* commands take it). */
  heldElementObjectId(handle: number, deadline?: Deadline): Promise<string>;
  /** The page's own world of the frame: a session and, for a same-process frame, its context. */
  pageWorld(): EvalTarget;
  /** The same tab and deadline in another frame (undefined: the top document). */
  at(frame: FrameTarget | undefined): Scope;
  /** The same frame, bounded by another deadline (the capture's, the failure context's). */
  within(deadline: Deadline): Scope;
}

/** The scope of `frame` (undefined: the top document) in `page`, bounded by `deadline`. */
export function scopeOf(page: Page, frame: FrameTarget | undefined, deadline: Deadline): Scope {
  const ref = page.frameRef(frame);
  const bound = (o?: CallOptions): { deadline: Deadline; what?: string } => ({
    deadline: o?.deadline ?? deadline,
    ...(o?.what !== undefined ? { what: o.what } : {}),
  });
  const scope: Scope = {
    page,
    frame,
    deadline,
    frameId: ref.frameId,
    get url() {
      return frame?.url ?? page.lifecycle.url;
    },
    session: ref.session,
    outOfProcess: !!frame && frame.session !== page.session,
    call: (fn, arg, o) => page.guard(callIsolated(page.worlds, ref, fn, arg, bound(o))),
    callSeeingClosedRoots: (fn, arg, o) => callSeeingClosedRoots(scope, fn, arg, bound(o)),
    revealClosedRoots: (d) => revealClosedRoots(page, ref, d ?? deadline),
    callPageWorld: (fn, arg, o) => page.guard(callPageWorld(page.pageWorld(frame), fn, arg, bound(o))),
    callInPage: (body, source, o) => runAgentCode(page, frame, body, source, bound(o)),
    handBackValueRefs: (names, counters, d) =>
      names?.length
        ? page.guard(handBackValueRefs(page.worlds, ref, page.pageWorld(frame), names, counters, d ?? deadline))
        : Promise.resolve(),
    heldElementObjectId: (handle, d) => page.guard(heldElementObjectId(page.worlds, ref, handle, d ?? deadline)),
    pageWorld: () => page.pageWorld(frame),
    at: (other) => (other === frame ? scope : scopeOf(page, other, deadline)),
    within: (other) => (other === deadline ? scope : scopeOf(page, frame, other)),
  };
  return scope;
}

/** Agents' code in the page's world of `frame`, with the refs its source names handed over first. */
async function runAgentCode(
  page: Page,
  frame: FrameTarget | undefined,
  body: string,
  source: string,
  options: { deadline: Deadline; what?: string },
): Promise<unknown> {
  const where = page.pageWorld(frame);
  const refs = await page.guard(adoptRefs(page.worlds, page.frameRef(frame), where, source, options.deadline));
  try {
    return await page.guard(
      refs
        ? evaluateWithRefs(where.session, body, refs, options)
        : evaluateWithRuntime(where.session, body, {
            ...options,
            ...(where.contextId !== undefined ? { contextId: where.contextId } : {}),
          }),
    );
  } finally {
    if (refs)
      where.session.send('Runtime.releaseObjectGroup', { objectGroup: 'cdp-skill-refs' }).catch(() => {
        /* the document is gone with its objects */
      });
  }
}
