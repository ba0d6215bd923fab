// Running our code in a page. Calls are typed one-liners `(rt, arg) => rt.module.fn(arg)` that run
// in our isolated world of the chosen frame (worlds.ts), where the page can neither see nor forge
// them; agents' own code (pageFunction, hooks, poll, pipeline) runs in the page's world with a
// copy of the runtime there. The runtime is installed lazily, on the first call that finds a
// document without it, so a call on a warm page costs one round trip and loads no runtime source.

import { Deadline, EvaluationError } from '../common/index.js';
import { isContextDestroyed, isUnknownContext, type CdpSession, type Protocol } from '../cdp/index.js';
import { answered } from './call-result.js';
import type { Counters, PageRuntime } from '../injected/index.js';
import { callOn, handleFrom } from './handles.js';
import { MISSING, READ_RUNTIME } from './runtime-global.js';
import type { FrameRef, IsolatedWorlds } from './worlds.js';

/** Bounds a call whose caller gave no deadline (tests, best-effort reads). */
const DEFAULT_CALL_MS = 30_000;

export interface EvaluateOptions {
  contextId?: number;
  /** The context by its system-unique id instead (never another process's context of the same number). */
  uniqueContextId?: string;
  deadline?: Deadline;
  /** Names the work in timeout messages. */
  what?: string;
}

async function rawEvaluate(session: CdpSession, expression: string, options: EvaluateOptions): Promise<unknown> {
  const params: Protocol.Runtime.EvaluateRequest = {
    expression,
    returnByValue: true,
    awaitPromise: true,
    userGesture: true,
    ...(options.contextId !== undefined ? { contextId: options.contextId } : {}),
    ...(options.uniqueContextId !== undefined ? { uniqueContextId: options.uniqueContextId } : {}),
  };
  const call = session.sendWith('Runtime.evaluate', params, {
    timeoutMs: options.deadline ? options.deadline.remainingMs() + 5_000 : undefined,
  });
  return (await answered(session, call, options)).result.value;
}

/**
 * Installs under way, per session and execution context: calls that find the runtime missing while
 * another call installs it wait for that one instead of sending (and the page parsing) the whole
 * runtime again. After a navigation the capture's three evaluations all find it missing at once.
 */
const installing = new WeakMap<CdpSession, Map<number | string | undefined, Promise<void>>>();

/**
 * Evaluates `callee` (an expression of a function taking the runtime) with the runtime as its
 * argument. A warm document costs one round trip; a fresh one gets the runtime installed first.
 * `callee` never runs twice: the fast path only calls it when the runtime is already there.
 */
async function callWithRuntime(
  session: CdpSession,
  callee: string,
  sourceName: string,
  options: EvaluateOptions & { install?: false },
): Promise<unknown> {
  const fast = `((rt) => rt ? (${callee})(rt) : '${MISSING}')(${READ_RUNTIME})\n//# sourceURL=cdp-skill/${sourceName}.js`;
  const value = await rawEvaluate(session, fast, options);
  if (value !== MISSING) return value;
  if (options.install === false) return undefined;
  let installs = installing.get(session);
  if (!installs) installing.set(session, (installs = new Map()));
  const where = options.uniqueContextId ?? options.contextId;
  const under = installs.get(where);
  if (under) {
    await under;
    const again = await rawEvaluate(session, fast, options);
    if (again !== MISSING) return again; // else the document changed meanwhile: install it here
  }
  // Registered before anything is awaited, so a call that finds the runtime missing a moment later waits for this one.
  const call = import('./runtime-source.js').then(({ installExpression }) =>
    rawEvaluate(session, `(${callee})(${installExpression()})\n//# sourceURL=cdp-skill/${sourceName}.js`, options),
  );
  // The runtime is in once the page has evaluated this, whether or not the callee then threw.
  const done = call.then(
    () => {},
    () => {},
  );
  installs.set(where, done);
  void done.then(() => {
    if (installs.get(where) === done) installs.delete(where);
  });
  return call;
}

/** Where agents' code runs: a session, and a context in it when not its main frame's (the page's world). */
export interface EvalTarget {
  session: CdpSession;
  contextId?: number;
}

/** A runtime call as source: `fn` must use only its parameters (it is sent as text). */
function calleeOf<A, R>(fn: (rt: PageRuntime, arg: A) => R, arg: A): string {
  return `(rt) => (${String(fn)})(rt, ${JSON.stringify(arg) ?? 'undefined'})`;
}

/**
 * The seam every runtime call goes through (Page.call): our isolated world of `frame`, the
 * runtime installed when missing, page-side failures mapped to our errors, all within the deadline.
 */
export async function callIsolated<A, R>(
  worlds: IsolatedWorlds,
  frame: FrameRef,
  fn: (rt: PageRuntime, arg: A) => R,
  arg: A,
  options: EvaluateOptions = {},
): Promise<Awaited<R>> {
  const deadline = options.deadline ?? Deadline.after(DEFAULT_CALL_MS);
  const callee = calleeOf(fn, arg);
  for (let attempt = 0; ; attempt++) {
    const contextId = await worlds.contextId(frame, deadline);
    try {
      return (await callWithRuntime(frame.session, callee, 'call', { ...options, deadline, contextId })) as Awaited<R>;
    } catch (err) {
      // The document went before its event reached us: nothing ran; the new one gets the world made.
      if (attempt > 0 || !isUnknownContext(err)) throw err;
      worlds.forget(frame, contextId);
    }
  }
}

/**
 * A runtime call in our world of a context known by its system-unique id (the world a previous
 * command saw in this tab): no world lookup first. Rejects (isUnknownContext) when that context is gone.
 */
export async function callIsolatedByUniqueId<A, R>(
  session: CdpSession,
  uniqueContextId: string,
  fn: (rt: PageRuntime, arg: A) => R,
  arg: A,
  options: EvaluateOptions = {},
): Promise<Awaited<R>> {
  const deadline = options.deadline ?? Deadline.after(DEFAULT_CALL_MS);
  return (await callWithRuntime(session, calleeOf(fn, arg), 'call', {
    ...options,
    deadline,
    uniqueContextId,
  })) as Awaited<R>;
}

/** A runtime call in the page's own world (what agents' code needs there: the dialog guard, a pipeline's progress). */
export async function callPageWorld<A, R>(
  where: EvalTarget,
  fn: (rt: PageRuntime, arg: A) => R,
  arg: A,
  options: EvaluateOptions = {},
): Promise<Awaited<R>> {
  const contextId = where.contextId !== undefined ? { contextId: where.contextId } : {};
  return (await callWithRuntime(where.session, calleeOf(fn, arg), 'call', { ...options, ...contextId })) as Awaited<R>;
}

/**
 * A runtime call in the page's own world only where the runtime already is (the dialog guard a
 * previous command armed there): undefined in a world without it, which then gets none installed.
 */
export async function callIfInstalled<A, R>(
  where: EvalTarget,
  fn: (rt: PageRuntime, arg: A) => R,
  arg: A,
  options: EvaluateOptions = {},
): Promise<Awaited<R> | undefined> {
  const contextId = where.contextId !== undefined ? { contextId: where.contextId } : {};
  return (await callWithRuntime(where.session, calleeOf(fn, arg), 'call', {
    ...options,
    ...contextId,
    install: false,
  })) as Awaited<R> | undefined;
}

/** Elements of the page's world to hand to agents' code as refs (agent-refs.ts): CDP object ids, by ref. */
export interface AdoptedRefs {
  names: string[];
  objectIds: string[];
}

/**
 * Runs an async function body with the page world's runtime as `rt`, whose ref map first takes
 * `refs` — all in one call on the elements themselves, so it holds even where the page made our
 * global unwritable (the runtime then comes with the call).
 */
export async function evaluateWithRefs(
  session: CdpSession,
  body: string,
  refs: AdoptedRefs,
  options: EvaluateOptions & { deadline: Deadline },
): Promise<unknown> {
  const [first, ...others] = refs.objectIds;
  return callOn(
    { session, objectId: first! },
    (rt, el: Element, names: string[], els: Element[]) => rt.refMap.adoptRefs(names, [el, ...els]),
    refs.names,
    { deadline: options.deadline, what: options.what ?? 'a page evaluation', handles: others, agentBody: body },
  );
}

/** Runs an async function body with the runtime in scope as `rt` (used for agents' code). */
export function evaluateWithRuntime(
  session: CdpSession,
  body: string,
  options: EvaluateOptions = {},
): Promise<unknown> {
  return callWithRuntime(session, `async (rt) => {\n${body}\n}`, 'page-function', options);
}

export { isContextDestroyed };

/** DECISIONS "Values": the answer's shape for values that come back by value (primitives have no objectId). */
export function serializePrimitive(ro: Protocol.Runtime.RemoteObject): unknown {
  if (ro.type === 'undefined') return { type: 'undefined' };
  if (ro.subtype === 'null') return { type: 'null', value: null };
  if (ro.type === 'bigint') return { type: 'bigint', value: (ro.unserializableValue ?? '').replace(/n$/, '') };
  if (ro.unserializableValue !== undefined) return { type: 'number', value: ro.unserializableValue };
  // The page's serializer cuts strings at this length; a string an expression returns arrives whole (issue 15 item 7).
  if (typeof ro.value === 'string' && ro.value.length > MAX_STRING) {
    return { type: 'string', value: `${ro.value.slice(0, MAX_STRING)}…`, length: ro.value.length, truncated: true };
  }
  return { type: ro.type, value: ro.value };
}
/** The serializer's cap on a string at the top of a value (injected/serialize.ts). */
const MAX_STRING = 50_000;

/** Serializes a page object by reference (an expression's result), then releases it: `{ value, counters }`
 *  (the ref counters after any refs the value's elements were given). */
export async function serializeRemoteObject(
  session: CdpSession,
  ro: Protocol.Runtime.RemoteObject,
  deadline: Deadline,
  counters?: unknown,
): Promise<{ value: unknown; counters?: unknown }> {
  if (!ro.objectId) return { value: serializePrimitive(ro) };
  try {
    return (await callOn(
      { session, objectId: ro.objectId },
      (rt, value: unknown, c: Counters | null) => rt.hookValue.valueAnswer(value, c ?? undefined),
      (counters ?? null) as Counters | null,
      { deadline, what: 'the result to serialize' },
    )) as { value: unknown; counters?: unknown };
  } finally {
    session.send('Runtime.releaseObjectGroup', { objectGroup: 'cdp-skill-expression' }).catch(() => {
      /* the document is gone with its objects */
    });
  }
}

/** A CDP object id for an element the runtime holds in our world of `frame` (for DOM.* commands that take a node). */
export async function heldElementObjectId(
  worlds: IsolatedWorlds,
  frame: FrameRef,
  handle: number,
  deadline: Deadline,
): Promise<string> {
  const contextId = await worlds.contextId(frame, deadline);
  const objectId = await handleFrom(
    { session: frame.session, contextId },
    (rt, h) => rt.locate.heldElement(h),
    handle,
    { deadline, what: 'the element handle', objectGroup: 'cdp-skill-held' },
  );
  if (!objectId) throw new EvaluationError('The element is no longer held by the page (it navigated?)');
  return objectId;
}
