// pageFunction (SPEC §12.1): a function (called, awaited) or a bare expression (statements
// allowed), run in the page; the result is answered as agents read values (DECISIONS "Values"; `refs` in scope). A runaway
// script is terminated at its timeout instead of holding the tab.

import { EvaluationError, StepValidationError, TimeoutError, type Deadline } from '../common/index.js';
import { isTerminated, type CdpSession, type Protocol } from '../cdp/index.js';
import { agentCall, serializeRemoteObject, terminate, withRefsInScope, type Scope } from '../page/index.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { describe, obj, optBool, optNumber, optString, ParamError } from './params.js';
import { looksLikeFunction, malformationTip, preview } from './js-source.js';
import type { Counters } from '../injected/index.js';

interface PageFunctionParams {
  source: string;
  mode: 'function' | 'expression';
  refs: boolean;
  await: boolean;
  serialize: boolean;
  timeoutMs?: number;
}

const MAX_SOURCE = 100_000;

/** What a call hands back: the value, and the ref counters after any refs it gave elements. */
interface PageValue {
  value: unknown;
  counters?: Counters;
}

async function runFunction(
  scope: Scope,
  p: PageFunctionParams,
  counters: Counters | undefined,
  deadline: Deadline,
): Promise<PageValue> {
  // `refs` is in scope by name and also the function's first parameter; get() re-resolves stale
  // refs (SPEC §12.1, §6.3). DECISIONS: refs usable as SKILL.md shows it, with or without refs: true.
  const call = agentCall(
    p.source,
    async (rt, fn: unknown, a: { serialize: boolean; counters: Counters | null }, refs) => {
      if (typeof fn !== 'function') throw new TypeError('pageFunction: the code is not a function');
      const value: unknown = await fn(refs);
      return a.serialize ? rt.hookValue.valueAnswer(value, a.counters ?? undefined) : { value };
    },
    { serialize: p.serialize, counters: counters ?? null },
    { asked: p.refs },
  );
  const { refs, ...result } = (await scope.callInPage(call, p.source, {
    deadline,
    what: 'pageFunction to return',
  })) as PageValue & { refs?: string[] };
  await scope.handBackValueRefs(refs, result.counters, deadline);
  return result;
}

/** An expression that names `refs` sees the ref map: the code goes in a block that declares it
 *  (a block's completion value is its last statement's, so the expression's value is unchanged).
 *  The page world's runtime is installed first, holding the refs the expression names. */
async function withRefs(scope: Scope, source: string, deadline: Deadline): Promise<string> {
  if (!/\brefs\b/.test(source)) return source;
  await scope.callInPage('return 0;', source, { deadline, what: 'the page runtime' });
  return withRefsInScope(source);
}

/** One evaluation call raced against the deadline; a runaway script is terminated, not left running. */
async function raceOrTerminate<T>(session: CdpSession, call: Promise<T>, deadline: Deadline, what: string): Promise<T> {
  try {
    return await deadline.race(call, what);
  } catch (err) {
    if (err instanceof TimeoutError) await terminate(session);
    throw err;
  }
}

async function runExpression(
  scope: Scope,
  p: PageFunctionParams,
  counters: Counters | undefined,
  deadline: Deadline,
): Promise<PageValue> {
  const source = await withRefs(scope, p.source, deadline);
  const { session, contextId } = scope.pageWorld();
  const request: Protocol.Runtime.EvaluateRequest = {
    ...(contextId !== undefined ? { contextId } : {}),
    expression: `${source}\n//# sourceURL=cdp-skill/expression.js`,
    awaitPromise: p.await,
    // By reference: a promise by value is {}, so it must stay an object until awaited.
    returnByValue: false,
    replMode: true,
    userGesture: true,
    objectGroup: 'cdp-skill-expression',
  };
  const timeoutMs = (): number => deadline.remainingMs() + 5_000;
  let { result, exceptionDetails } = await raceOrTerminate(
    session,
    session.sendWith('Runtime.evaluate', request, { timeoutMs: timeoutMs() }),
    deadline,
    'the expression to return',
  );
  if (!exceptionDetails && p.await && result.subtype === 'promise' && result.objectId) {
    // replMode returns a promise as a value; awaiting it is what "await" asks for.
    const awaited = session.sendWith(
      'Runtime.awaitPromise',
      { promiseObjectId: result.objectId, returnByValue: !p.serialize },
      { timeoutMs: timeoutMs() },
    );
    ({ result, exceptionDetails } = await raceOrTerminate(
      session,
      awaited,
      deadline,
      "the expression's promise to settle",
    ));
  }
  if (exceptionDetails) {
    releaseExpression(session);
    if (isTerminated(exceptionDetails.exception?.description ?? exceptionDetails.text))
      throw new TimeoutError('The expression was terminated');
    throw new EvaluationError(exceptionDetails.exception?.description?.split('\n')[0] ?? exceptionDetails.text);
  }
  if (p.serialize) {
    const { refs, ...value } = (await serializeRemoteObject(session, result, deadline, counters)) as PageValue & {
      refs?: string[];
    };
    await scope.handBackValueRefs(refs, value.counters, deadline);
    return value;
  }
  if (!result.objectId) return { value: result.value };
  try {
    const byValue = session.sendWith(
      'Runtime.callFunctionOn',
      { objectId: result.objectId, functionDeclaration: 'function () { return this; }', returnByValue: true },
      { timeoutMs: timeoutMs() },
    );
    return { value: (await deadline.race(byValue, "the expression's value")).result.value };
  } finally {
    releaseExpression(session);
  }
}

function releaseExpression(session: CdpSession): void {
  session.send('Runtime.releaseObjectGroup', { objectGroup: 'cdp-skill-expression' }).catch(() => {
    /* the document is gone with its objects */
  });
}

const PAGE_FUNCTION_PARAMS: ParamSchema = {
  forms: ['"() => …"', '"expr"'],
  keys: { fn: '', expression: '-', refs: 'true', await: '-', serialize: '-', timeout: '' },
  returns: '{type, value}',
  note: 'plain JSON, elements {ref, desc}; refs.get("s1e4")',
};

defineStep<PageFunctionParams>({
  name: 'pageFunction',
  verb: 'Ran script',
  supporting: true,
  summary: 'Run JavaScript in the page',
  params: PAGE_FUNCTION_PARAMS,
  needsTab: true,
  readOnly: false,
  ownTimeoutMs: (p) => p.timeoutMs,
  parse(v) {
    if (typeof v === 'string') {
      if (!v.trim()) throw new ParamError('pageFunction must not be empty');
      if (v.length > MAX_SOURCE) throw new ParamError(`pageFunction is longer than ${MAX_SOURCE} characters`);
      return {
        source: v,
        mode: looksLikeFunction(v) ? 'function' : 'expression',
        refs: false,
        await: true,
        serialize: true,
      };
    }
    const o = obj(v, keysOf(PAGE_FUNCTION_PARAMS), 'pageFunction');
    const fn = optString(o, 'fn', { maxLength: MAX_SOURCE });
    const expression = optString(o, 'expression', { maxLength: MAX_SOURCE });
    if ((fn === undefined) === (expression === undefined))
      throw new ParamError(`pageFunction needs exactly one of "fn" or "expression", got ${describe(v)}`);
    const source = (fn ?? expression)!;
    return {
      source,
      mode: fn !== undefined || looksLikeFunction(source) ? 'function' : 'expression',
      refs: optBool(o, 'refs') ?? false,
      await: optBool(o, 'await') ?? true,
      serialize: optBool(o, 'serialize') ?? true,
      timeoutMs: optNumber(o, 'timeout', { min: 1 }),
    };
  },
  async run(ctx, p) {
    const { entry } = ctx.command.requireTab();
    const { scope } = ctx;
    const deadline = p.timeoutMs ? ctx.deadline.cap(p.timeoutMs) : ctx.deadline;
    try {
      const r = await scope.page.guard(
        p.mode === 'function'
          ? runFunction(scope, p, entry.counters, deadline)
          : runExpression(scope, p, entry.counters, deadline),
      );
      if (r.counters) entry.counters = r.counters;
      return r.value;
    } catch (err) {
      if (!(err instanceof EvaluationError)) throw err;
      const tip = malformationTip(p.source, err.message);
      const message = `${err.message} — in: ${preview(p.source)}${tip ? `. ${tip}` : ''}`;
      throw tip && err.message.startsWith('SyntaxError')
        ? new StepValidationError(message)
        : new EvaluationError(message);
    }
  },
});
