// Refs for agents' code. Refs live in our isolated world, but pageFunction, hooks, poll and pipeline
// run in the page's world, where `refs.get('s1e4')` must still give the element. So before such
// code runs, the refs its source names are resolved in our world and the same DOM nodes are found
// in the page's world through CDP (a backendNodeId names a node in every world).

import type { Deadline } from '../common/index.js';
import type { Counters, PageRuntime } from '../injected/index.js';
import { callIsolated, heldElementObjectId, type AdoptedRefs, type EvalTarget } from './evaluate.js';
import { callOn, handleFrom } from './handles.js';
import { READ_RUNTIME } from './runtime-global.js';
import type { FrameRef, IsolatedWorlds } from './worlds.js';

const REF_TOKEN = /\bs\d+e\d+\b/g;
/** The ref map as agents' code sees it (`refs.get('s1e4')`), in the page's world. */
const refsView = (rt: PageRuntime) => rt.refMap.refsView();
/** The runtime holds a few dozen elements per command: at most this many refs go across at once. */
const MAX_REFS = 30;

/** The ref-like names in `source` (a pageFunction, a hook, a pipeline's operations). */
export function refsNamedIn(source: string): string[] {
  return [...new Set(source.match(REF_TOKEN) ?? [])].slice(0, MAX_REFS);
}

/** The page world's handles on the elements our world finds for the refs `source` names; undefined when none. */
export async function adoptRefs(
  worlds: IsolatedWorlds,
  frame: FrameRef,
  pageWorld: EvalTarget,
  source: string,
  deadline: Deadline,
): Promise<AdoptedRefs | undefined> {
  const refs = refsNamedIn(source);
  if (!refs.length) return undefined;
  const handles = await callIsolated(
    worlds,
    frame,
    (rt, names) =>
      names.map((r) => {
        const found = rt.refMap.resolveRef(r);
        return found.ok ? rt.locate.holdElement(found.el) : 0;
      }),
    refs,
    { deadline, what: 'the refs the code names' },
  );
  const found = refs.flatMap((ref, i) => (handles[i] ? [{ ref, handle: handles[i]! }] : []));
  if (!found.length) return undefined; // the page's world then says why each is unknown, as before
  const { session } = frame;
  const objectIds = await Promise.all(
    found.map(async ({ handle }) => {
      const objectId = await heldElementObjectId(worlds, frame, handle, deadline);
      const { node } = await deadline.race(session.send('DOM.describeNode', { objectId }), "the ref's node");
      const { object } = await deadline.race(
        session.send('DOM.resolveNode', {
          backendNodeId: node.backendNodeId,
          objectGroup: 'cdp-skill-refs',
          ...(pageWorld.contextId !== undefined ? { executionContextId: pageWorld.contextId } : {}),
        }),
        "the ref's node in the page",
      );
      return object.objectId!;
    }),
  );
  return { names: found.map((f) => f.ref), objectIds };
}

/**
 * The other way: refs that agents' code in the page's world gave elements (a pageFunction that
 * returns elements) are handed to our isolated world, so a later step acts on them by ref.
 */
export async function handBackValueRefs(
  worlds: IsolatedWorlds,
  frame: FrameRef,
  pageWorld: EvalTarget,
  names: string[],
  counters: unknown,
  deadline: Deadline,
): Promise<void> {
  if (!names.length) return;
  const { session } = frame;
  const list = await handleFrom(pageWorld, (rt) => rt.hookValue.valueRefElements(), undefined, {
    deadline,
    what: 'the elements the value named',
    objectGroup: 'cdp-skill-refs',
  });
  if (!list) return;
  const { result } = await deadline.race(
    session.send('Runtime.getProperties', { objectId: list, ownProperties: true }),
    'the elements the value named',
  );
  const byIndex = new Map(
    result.filter((p) => /^\d+$/.test(p.name) && p.value?.objectId).map((p) => [Number(p.name), p.value!.objectId!]),
  );
  const worldId = await worlds.contextId(frame, deadline);
  const found = await Promise.all(
    names.map(async (ref, i) => {
      const objectId = byIndex.get(i);
      if (!objectId) return undefined;
      const { node } = await deadline.race(session.send('DOM.describeNode', { objectId }), "the value's node");
      const { object } = await deadline.race(
        session.send('DOM.resolveNode', {
          backendNodeId: node.backendNodeId,
          objectGroup: 'cdp-skill-refs',
          executionContextId: worldId,
        }),
        "the value's node in our world",
      );
      return object.objectId ? { ref, objectId: object.objectId } : undefined;
    }),
  );
  const adopt = found.filter((f): f is { ref: string; objectId: string } => f !== undefined);
  if (!adopt.length) return;
  // The page's world counted the refs it gave: our world counts on from there, never reusing one.
  await callOn(
    { session, contextId: worldId },
    (rt, _self: undefined, a: { names: string[]; counters: Counters | null }, els: Element[]) => {
      rt.refMap.adoptRefs(a.names, els);
      rt.refMap.syncCounters(a.counters ?? undefined);
    },
    { names: adopt.map((a) => a.ref), counters: (counters ?? null) as Counters | null },
    { deadline, what: "our world to take the value's refs", handles: adopt.map((a) => a.objectId), install: false },
  );
}

/** A function source that takes a first parameter (`(r) => …`, `el => …`, `function (x) {…}`): it may be handed refs. */
const TAKES_PARAMETER = /^\s*(async\s+)?((function\b[^(]*)?\(\s*[^)\s]|[A-Za-z_$][\w$]*\s*=>)/;

/**
 * The line that puts `refs` in scope of agents' code in the page's world. The ref map is made
 * there only when the code can use it (it names `refs`, or takes a parameter, or asked for it):
 * otherwise the page's world holds none of our state.
 */
export function refsDeclaration(source: string, asked = false): string {
  const wanted = asked || /\brefs\b/.test(source) || TAKES_PARAMETER.test(source);
  return wanted ? `const refs = (${String(refsView)})(rt);\n` : 'const refs = undefined;\n';
}

/**
 * An agent's expression with `refs` in scope: the code in a block that declares it from the page
 * world's runtime (installed before, holding the refs the code names). A block's completion value
 * is its last statement's, so the expression's value is unchanged.
 */
export function withRefsInScope(source: string): string {
  return `{ const refs = (${String(refsView)})(${READ_RUNTIME});\n${source}\n}`;
}

/** What agents' code hands to our typed call: their function(s), `arg`, and `refs` when in scope. */
export type AgentRun<F, A, R> = (rt: PageRuntime, agent: F, arg: A, refs: Map<string, Element> | undefined) => R;

/**
 * The body agents' code runs as (Scope.callInPage): `agent` — an expression of their function(s), as
 * they wrote it — compiled in the page's world with `refs` in scope when it can use them (see
 * refsDeclaration; `refsIn` is the source that decides, `asked` forces it), then handed with `arg`
 * to `run`, a typed runtime call. Only the agent's own source travels as text.
 */
export function agentCall<F, A, R>(
  agent: string,
  run: AgentRun<F, A, R>,
  arg: A,
  refs: { in?: string; asked?: boolean } = {},
): string {
  return (
    `${refsDeclaration(refs.in ?? agent, refs.asked)}const __cdpAgent = (\n${agent}\n);\n` +
    `return (${String(run)})(rt, __cdpAgent, ${JSON.stringify(arg) ?? 'undefined'}, refs);`
  );
}
