// The handle form of the page-call seam: typed calls on CDP remote objects — an element the runtime
// holds, a list it returned, an expression's value — with the runtime of the object's world and the
// object itself as parameters, other objects passed along as arguments, and handles (object ids)
// as results. As with callIsolated, `fn` is sent as source and uses only its parameters: no call
// into the runtime is written as a string anywhere else.

import type { Deadline } from '../common/index.js';
import type { CdpSession, Protocol } from '../cdp/index.js';
import type { PageRuntime } from '../injected/index.js';
import { answered } from './call-result.js';
import { MISSING, READ_RUNTIME } from './runtime-global.js';

/** Where a handle call runs: on an object (it is the call's `self`), or in a context (no `self`). */
export type CallTarget = { session: CdpSession } & ({ objectId: string } | { contextId: number });

export interface HandleCallOptions {
  deadline: Deadline;
  /** Names the work in timeout messages. */
  what: string;
  /** Objects passed to `fn` as its `handles` (null: no object in that place). */
  handles?: readonly (string | null)[];
  /** Installs the runtime in a world that lacks it (default); else the call answers undefined there. */
  install?: boolean;
  /**
   * Agents' code: an async function body that runs right after `fn`, in the same call, with the
   * runtime as `rt` in scope; its value is the answer (see evaluateWithRefs).
   */
  agentBody?: string;
}

type OnHandle<S, A, H, R> = (rt: PageRuntime, self: S, arg: A, handles: H[]) => R;

/** The function CDP calls: the runtime found (or installed by `runtime`), then `fn` and any agents' body. */
function declaration(fn: OnHandle<never, never, never, unknown>, runtime: string, o: HandleCallOptions): string {
  const call = `(${String(fn)})(rt, this, arg, handles)`;
  const then =
    o.agentBody === undefined ? `return ${call};` : `${call}; return (async (rt) => {\n${o.agentBody}\n})(rt);`;
  // CDP wraps the declaration in parentheses: no trailing comment after it.
  return `${o.agentBody === undefined ? '' : 'async '}function (arg, ...handles) { const rt = ${runtime}; if (!rt) return '${MISSING}'; ${then} }`;
}

async function send(
  on: CallTarget,
  functionDeclaration: string,
  arg: unknown,
  o: HandleCallOptions,
  returnByValue: boolean,
  objectGroup?: string,
): Promise<Protocol.Runtime.RemoteObject> {
  const params: Protocol.Runtime.CallFunctionOnRequest = {
    functionDeclaration,
    ...('objectId' in on ? { objectId: on.objectId } : { executionContextId: on.contextId }),
    arguments: [{ value: arg ?? null }, ...(o.handles ?? []).map((id) => (id ? { objectId: id } : { value: null }))],
    returnByValue,
    awaitPromise: true,
    // Agents' code acts as the user would (a click handler it calls may open a window); our own calls do not.
    ...(o.agentBody !== undefined ? { userGesture: true } : {}),
    ...(objectGroup ? { objectGroup } : {}),
  };
  const call = on.session.sendWith('Runtime.callFunctionOn', params, { timeoutMs: o.deadline.remainingMs() + 5_000 });
  return (await answered(on.session, call, o)).result;
}

/**
 * `fn(rt, self, arg, handles)` in the world of the object (or context) `on`: its value back (by
 * value). A world without the runtime gets it installed first, unless `install` is false.
 */
export async function callOn<S, A, H, R>(
  on: CallTarget,
  fn: OnHandle<S, A, H, R>,
  arg: A,
  options: HandleCallOptions,
): Promise<Awaited<R> | undefined> {
  const f = fn as OnHandle<never, never, never, unknown>;
  const first = await send(on, declaration(f, READ_RUNTIME, options), arg, options, true);
  if (first.value !== MISSING) return first.value as Awaited<R>;
  if (options.install === false) return undefined;
  const { installExpression } = await import('./runtime-source.js');
  return (await send(on, declaration(f, installExpression(), options), arg, options, true)).value as Awaited<R>;
}

/**
 * The object `fn(rt, arg)` returns in the world `where` (a session, and a context in it when not its
 * main frame's default), as a handle: a CDP object id in `objectGroup`, for DOM.* commands or a
 * later callOn. Undefined when it returns no object or the world has no runtime (a runtime that is
 * not there holds nothing).
 */
export async function handleFrom<A>(
  where: { session: CdpSession; contextId?: number },
  fn: (rt: PageRuntime, arg: A) => object | undefined,
  arg: A,
  options: { deadline: Deadline; what: string; objectGroup: string },
): Promise<string | undefined> {
  const expression =
    `((rt) => rt ? (${String(fn)})(rt, ${JSON.stringify(arg) ?? 'undefined'}) : undefined)(${READ_RUNTIME})` +
    '\n//# sourceURL=cdp-skill/handle.js';
  const r = await options.deadline.race(
    where.session.send('Runtime.evaluate', {
      expression,
      returnByValue: false,
      objectGroup: options.objectGroup,
      ...(where.contextId !== undefined ? { contextId: where.contextId } : {}),
    }),
    options.what,
  );
  return r.result.objectId;
}
