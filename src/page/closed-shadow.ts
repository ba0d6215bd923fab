// Closed shadow roots through CDP: our world cannot reach `attachShadow({mode: 'closed'})` content
// from JavaScript, but DOM.describeNode (pierce) names each host's closed root and DOM.resolveNode
// hands that root to our world, where the runtime keeps it (injected/closed-shadow.ts). Paid only
// when the page has custom elements not looked at yet: a page call tells, in the same evaluation.

import type { Deadline } from '../common/index.js';
import type { PageRuntime } from '../injected/index.js';
import { READ_RUNTIME } from './runtime-global.js';
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
    const list = await send(
      s.send('Runtime.evaluate', {
        expression: `${READ_RUNTIME}?.closedShadow.closedRootCandidates(${MAX_HOSTS})`,
        contextId,
        objectGroup: GROUP,
        returnByValue: false,
      }),
    );
    const listId = list.result.objectId;
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
    await send(
      s.send('Runtime.callFunctionOn', {
        objectId: listId,
        functionDeclaration: `function (...roots) { return ${READ_RUNTIME}.closedShadow.registerClosedRoots(this, roots); }`,
        arguments: roots.map((objectId) => (objectId ? { objectId } : { value: null })),
        returnByValue: true,
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
  const checked = new Function(
    'rt',
    'a',
    `return rt.closedShadow.closedRootsPending() ? '${PENDING}' : (${String(fn)})(rt, a);`,
  ) as (rt: PageRuntime, arg: A) => R | typeof PENDING;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const r = await scope.call(checked, arg, options);
    if (r !== PENDING) return r as Awaited<R>;
    if ((await scope.revealClosedRoots(options.deadline)) === 0) break;
  }
  return scope.call(fn, arg, options);
}
