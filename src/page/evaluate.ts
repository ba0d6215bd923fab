// Running code in the page. Runtime calls are typed one-liners `(rt, arg) => rt.fn(arg)`; the
// runtime is installed lazily, on the first call that finds a document without it, so a call on
// a warm page costs one round trip and no runtime source is loaded in Node.

import { EvaluationError, TimeoutError, type Deadline } from '../common/index.js';
import { isContextDestroyed, isTerminated, type CdpSession, type Protocol } from '../cdp/index.js';
import type { PageRuntime } from '../injected/runtime.js';

import { RUNTIME_ID } from '../injected/runtime-id.js';

// Equals RUNTIME_GLOBAL of injected/runtime.ts, without loading the runtime's source on the fast path.
const GLOBAL = `__cdpSkill_${RUNTIME_ID}`;
const MISSING = '__cdpSkillRuntimeMissing';

export interface EvaluateOptions {
  contextId?: number;
  deadline?: Deadline;
  /** Names the work in timeout messages. */
  what?: string;
}

function exceptionText(details: Protocol.Runtime.ExceptionDetails): string {
  return details.exception?.description?.split('\n')[0] ?? details.exception?.value?.toString() ?? details.text;
}

async function rawEvaluate(session: CdpSession, expression: string, options: EvaluateOptions): Promise<unknown> {
  const params: Protocol.Runtime.EvaluateRequest = {
    expression,
    returnByValue: true,
    awaitPromise: true,
    userGesture: true,
    ...(options.contextId !== undefined ? { contextId: options.contextId } : {}),
  };
  const call = session.sendWith('Runtime.evaluate', params, {
    timeoutMs: options.deadline ? options.deadline.remainingMs() + 5_000 : undefined,
  });
  let response: Protocol.Runtime.EvaluateResponse;
  if (options.deadline) {
    try {
      response = await options.deadline.race(call, options.what ?? 'a page evaluation');
    } catch (err) {
      if (err instanceof TimeoutError) await terminate(session);
      throw err;
    }
  } else {
    response = await call;
  }
  if (response.exceptionDetails) {
    if (isTerminated(exceptionText(response.exceptionDetails))) throw new TimeoutError(`${options.what ?? 'The evaluation'} was terminated`);
    throw new EvaluationError(exceptionText(response.exceptionDetails), { exception: response.exceptionDetails.exception?.description });
  }
  return response.result.value;
}

/** Stops a runaway script (an infinite loop keeps the page's main thread, and so us, waiting). */
export async function terminate(session: CdpSession): Promise<void> {
  try {
    await session.sendWith('Runtime.terminateExecution', undefined, { timeoutMs: 2_000 });
  } catch {
    // Nothing was running, or the tab is gone: either way there is nothing left to stop.
  }
}

/**
 * Installs under way, per session and execution context: calls that find the runtime missing while
 * another call installs it wait for that one instead of sending (and the page parsing) the whole
 * runtime again. After a navigation the capture's three evaluations all find it missing at once.
 */
const installing = new WeakMap<CdpSession, Map<number | undefined, Promise<void>>>();

/**
 * Evaluates `callee` (an expression of a function taking the runtime) with the runtime as its
 * argument. A warm document costs one round trip; a fresh one gets the runtime installed first.
 * `callee` never runs twice: the fast path only calls it when the runtime is already there.
 */
async function callWithRuntime(session: CdpSession, callee: string, sourceName: string, options: EvaluateOptions): Promise<unknown> {
  const fast = `((rt) => rt ? (${callee})(rt) : '${MISSING}')(globalThis.${GLOBAL})\n//# sourceURL=cdp-skill/${sourceName}.js`;
  const value = await rawEvaluate(session, fast, options);
  if (value !== MISSING) return value;
  let installs = installing.get(session);
  if (!installs) installing.set(session, (installs = new Map()));
  const under = installs.get(options.contextId);
  if (under) {
    await under;
    const again = await rawEvaluate(session, fast, options);
    if (again !== MISSING) return again; // else the document changed meanwhile: install it here
  }
  // Registered before anything is awaited, so a call that finds the runtime missing a moment later waits for this one.
  const call = import('../injected/runtime.js').then(({ installExpression }) =>
    rawEvaluate(session, `(${callee})(${installExpression()})\n//# sourceURL=cdp-skill/${sourceName}.js`, options));
  // The runtime is in once the page has evaluated this, whether or not the callee then threw.
  const done = call.then(() => {}, () => {});
  installs.set(options.contextId, done);
  void done.then(() => { if (installs.get(options.contextId) === done) installs.delete(options.contextId); });
  return call;
}

/** Where to evaluate: a session, and a context in it when not its main frame's. */
export interface EvalTarget { session: CdpSession; contextId?: number }

/** evaluateInPage in the frame the steps run in (`page.evalTarget()`), top document by default. */
export function evaluateIn<A, R>(
  where: EvalTarget, fn: (rt: PageRuntime, arg: A) => R, arg: A, options: EvaluateOptions = {},
): Promise<Awaited<R>> {
  return evaluateInPage(where.session, fn, arg, { ...options, ...(where.contextId !== undefined ? { contextId: where.contextId } : {}) });
}

/** Calls a page-runtime function. `fn` must use only its parameters (it is sent as source). */
export async function evaluateInPage<A, R>(
  session: CdpSession, fn: (rt: PageRuntime, arg: A) => R, arg: A, options: EvaluateOptions = {},
): Promise<Awaited<R>> {
  const callee = `(rt) => (${String(fn)})(rt, ${JSON.stringify(arg) ?? 'undefined'})`;
  return (await callWithRuntime(session, callee, 'call', options)) as Awaited<R>;
}

/** Runs an async function body with the runtime in scope as `rt` (used for agents' code). */
export function evaluateWithRuntime(session: CdpSession, body: string, options: EvaluateOptions = {}): Promise<unknown> {
  return callWithRuntime(session, `async (rt) => {\n${body}\n}`, 'page-function', options);
}

export { isContextDestroyed };

/** SPEC §17.7 shapes for values that come back by value (primitives have no objectId). */
export function serializePrimitive(ro: Protocol.Runtime.RemoteObject): unknown {
  if (ro.type === 'undefined') return { type: 'undefined' };
  if (ro.subtype === 'null') return { type: 'null' };
  if (ro.type === 'bigint') return { type: 'bigint', value: (ro.unserializableValue ?? '').replace(/n$/, '') };
  if (ro.unserializableValue !== undefined) return { type: 'number', value: ro.unserializableValue };
  // The page's serializer cuts strings at this length; a string an expression returns arrives whole (issue 15 item 7).
  if (typeof ro.value === 'string' && ro.value.length > 50_000) return { type: 'string', value: `${ro.value.slice(0, 50_000)}…`, length: ro.value.length, truncated: true };
  return { type: ro.type, value: ro.value };
}

/** Serializes a page object by reference (an expression's result), then releases it. */
export async function serializeRemoteObject(session: CdpSession, ro: Protocol.Runtime.RemoteObject, deadline: Deadline): Promise<unknown> {
  if (!ro.objectId) return serializePrimitive(ro);
  const call = (declaration: string): Promise<unknown> => deadline.race(
    session.send('Runtime.callFunctionOn', { objectId: ro.objectId, functionDeclaration: declaration, returnByValue: true })
      .then((r) => r.result.value),
    'the result to serialize',
  );
  try {
    const value = await call(`function () { const rt = globalThis.${GLOBAL}; return rt ? rt.serializeValue(this) : '${MISSING}'; }`);
    if (value !== MISSING) return value;
    const { installExpression } = await import('../injected/runtime.js');
    return await call(`function () { return (${installExpression()}).serializeValue(this); }`);
  } finally {
    session.send('Runtime.releaseObjectGroup', { objectGroup: 'cdp-skill-expression' }).catch(() => { /* the document is gone with its objects */ });
  }
}

/** A CDP object id for an element the page runtime holds (for DOM.* commands that take a node). */
export async function heldElementObjectId(where: EvalTarget, handle: number, deadline: Deadline): Promise<string> {
  const r = await deadline.race(where.session.send('Runtime.evaluate', {
    expression: `globalThis.${GLOBAL}?.heldElement(${Number(handle)})`, returnByValue: false, objectGroup: 'cdp-skill-held',
    ...(where.contextId !== undefined ? { contextId: where.contextId } : {}),
  }), 'the element handle');
  if (!r.result.objectId) throw new EvaluationError('The element is no longer held by the page (it navigated?)');
  return r.result.objectId;
}
