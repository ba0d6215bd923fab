// Closed shadow roots through CDP: our world cannot reach `attachShadow({mode: 'closed'})` content
// from JavaScript, but DOM.describeNode (pierce) names each host's closed root and DOM.resolveNode
// hands that root to our world, where the runtime keeps it (injected/closed-shadow.ts). Paid only
// when the page has custom elements not looked at yet: a page call tells, in the same evaluation.

import { EvaluationError, type Deadline } from '../common/index.js';
import type { PageRuntime } from '../injected/index.js';
import { callOn, handleFrom } from './handles.js';
import type { Scope } from './scope.js';
import type { Page } from './tab.js';
import type { FrameRef } from './worlds.js';

/** Hosts looked at per round; deeper (nested) closed roots are the next round's candidates. */
const MAX_HOSTS = 200;
/** Rounds of nesting followed (a closed root inside a closed root inside …). */
const MAX_ROUNDS = 4;
const PENDING = '__cdpSkillClosedRootsPending';
const GROUP = 'cdp-skill-closed-roots';

/**
 * Hands the closed roots of not-yet-seen custom elements in `frame` to our world. Returns how many
 * hosts were looked at (0: nothing was pending).
 */
export async function revealClosedRoots(page: Page, ref: FrameRef, deadline: Deadline): Promise<number> {
  const contextId = await page.guard(page.worlds.contextId(ref, deadline));
  const send = <T>(p: Promise<T>): Promise<T> => page.guard(deadline.race(p, 'the closed shadow roots'));
  const s = ref.session;
  try {
    const listId = await page.guard(
      handleFrom({ session: s, contextId }, (rt, max) => rt.closedShadow.closedRootCandidates(max), MAX_HOSTS, {
        deadline,
        what: 'the closed shadow roots',
        objectGroup: GROUP,
      }),
    );
    if (!listId) return 0;
    const props = await send(s.send('Runtime.getProperties', { objectId: listId, ownProperties: true }));
    const hosts = props.result.filter((p) => /^\d+$/.test(p.name) && p.value?.objectId);
    if (!hosts.length) return 0;
    const roots: (string | null)[] = new Array(hosts.length).fill(null);
    await Promise.all(
      hosts.map(async (p) => {
        const { node } = await send(
          s.send('DOM.describeNode', { objectId: p.value!.objectId!, depth: 0, pierce: true }),
        );
        const closed = node.shadowRoots?.find((r) => r.shadowRootType === 'closed');
        if (!closed) return;
        const { object } = await send(
          s.send('DOM.resolveNode', {
            backendNodeId: closed.backendNodeId,
            executionContextId: contextId,
            objectGroup: GROUP,
          }),
        );
        roots[Number(p.name)] = object.objectId ?? null;
      }),
    );
    await page.guard(
      callOn(
        { session: s, objectId: listId },
        (rt, hosts: Element[], _arg: undefined, shadowRoots: (ShadowRoot | null)[]) =>
          rt.closedShadow.registerClosedRoots(hosts, shadowRoots),
        undefined,
        { deadline, what: 'the closed shadow roots', handles: roots },
      ).catch((err) => {
        // A host the page broke on the way costs its roots, not the call that wanted them.
        if (!(err instanceof EvaluationError)) throw err;
      }),
    );
    return hosts.length;
  } finally {
    s.send('Runtime.releaseObjectGroup', { objectGroup: GROUP }).catch(() => {
      /* the document went with its objects */
    });
  }
}

/**
 * Scope.call for code that walks shadow roots (snapshot, elementsAt, search): the same evaluation
 * first checks for custom elements not looked at yet; only then are their closed roots fetched
 * (revealClosedRoots) and the call made again. Nothing extra on pages without new custom elements.
 */
export async function callSeeingClosedRoots<A, R>(
  scope: Scope,
  fn: (rt: PageRuntime, arg: A) => R,
  arg: A,
  options: { deadline: Deadline; what?: string },
): Promise<Awaited<R>> {
  // One evaluation: `fn` runs unless the check finds hosts not looked at yet (both typed, composed as source).
  const pending = (rt: PageRuntime): boolean => rt.closedShadow.closedRootsPending();
  const checked = new Function(
    'rt',
    'a',
    `return (${String(pending)})(rt) ? '${PENDING}' : (${String(fn)})(rt, a);`,
  ) as (rt: PageRuntime, arg: A) => R | typeof PENDING;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const r = await scope.call(checked, arg, options);
    if (r !== PENDING) return r as Awaited<R>;
    if ((await scope.revealClosedRoots(options.deadline)) === 0) break;
  }
  return scope.call(fn, arg, options);
}
