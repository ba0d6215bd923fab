// pageFunction (SPEC §12.1): a function (called, awaited) or a bare expression (statements
// allowed), run in the page; the result goes through the value serializer of §17.7. A runaway
// script is terminated at its timeout instead of holding the tab.

import { EvaluationError, StepValidationError, TimeoutError, type Deadline } from '../common/index.js';
import { isTerminated, type CdpSession, type Protocol } from '../cdp/index.js';
import { serializeRemoteObject, terminate, type Page } from '../page/index.js';
import { defineStep } from './registry.js';
import { describe, obj, optBool, optNumber, optString, ParamError } from './params.js';
import { looksLikeFunction, malformationTip, preview } from './js-source.js';

interface PageFunctionParams {
  source: string;
  mode: 'function' | 'expression';
  refs: boolean;
  await: boolean;
  serialize: boolean;
  timeoutMs?: number;
}

const MAX_SOURCE = 100_000;

async function runFunction(page: Page, p: PageFunctionParams, deadline: Deadline): Promise<unknown> {
  // refs: true hands over the ref map, with get() re-resolving stale refs (SPEC §12.1, §6.3).
  const arg = p.refs ? 'rt.refMap.refsView()' : '';
  const call = `const __cdpFn = (\n${p.source}\n);\n`
    + "if (typeof __cdpFn !== 'function') throw new TypeError('pageFunction: the code is not a function');\n"
    + `const __cdpValue = await __cdpFn(${arg});\n`
    + `return ${p.serialize ? 'rt.serialize.serializeValue(__cdpValue)' : '__cdpValue'};`;
  return page.runAgentCode(page.frame, call, p.source, { deadline, what: 'pageFunction to return' });
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

async function runExpression(page: Page, p: PageFunctionParams, deadline: Deadline): Promise<unknown> {
  const { session, contextId } = page.evalTarget();
  const request: Protocol.Runtime.EvaluateRequest = {
    ...(contextId !== undefined ? { contextId } : {}),
    expression: `${p.source}\n//# sourceURL=cdp-skill/expression.js`,
    awaitPromise: p.await,
    // By reference: a promise by value is {}, so it must stay an object until awaited.
    returnByValue: false,
    replMode: true,
    userGesture: true,
    objectGroup: 'cdp-skill-expression',
  };
  const timeoutMs = (): number => deadline.remainingMs() + 5_000;
  let { result, exceptionDetails } = await raceOrTerminate(session,
    session.sendWith('Runtime.evaluate', request, { timeoutMs: timeoutMs() }), deadline, 'the expression to return');
  if (!exceptionDetails && p.await && result.subtype === 'promise' && result.objectId) {
    // replMode returns a promise as a value; awaiting it is what "await" asks for.
    const awaited = session.sendWith('Runtime.awaitPromise', { promiseObjectId: result.objectId, returnByValue: !p.serialize }, { timeoutMs: timeoutMs() });
    ({ result, exceptionDetails } = await raceOrTerminate(session, awaited, deadline, 'the expression\'s promise to settle'));
  }
  if (exceptionDetails) {
    releaseExpression(session);
    if (isTerminated(exceptionDetails.exception?.description ?? exceptionDetails.text)) throw new TimeoutError('The expression was terminated');
    throw new EvaluationError(exceptionDetails.exception?.description?.split('\n')[0] ?? exceptionDetails.text);
  }
  if (p.serialize) return serializeRemoteObject(session, result, deadline);
  if (!result.objectId) return result.value;
  try {
    const byValue = session.sendWith('Runtime.callFunctionOn', { objectId: result.objectId, functionDeclaration: 'function () { return this; }', returnByValue: true },
      { timeoutMs: timeoutMs() });
    return (await deadline.race(byValue, 'the expression\'s value')).result.value;
  } finally {
    releaseExpression(session);
  }
}

function releaseExpression(session: CdpSession): void {
  session.send('Runtime.releaseObjectGroup', { objectGroup: 'cdp-skill-expression' }).catch(() => { /* the document is gone with its objects */ });
}

defineStep<PageFunctionParams>({
  name: 'pageFunction',
  summary: 'Run JavaScript: "() => …" | "expression" | {fn, refs, timeout} | {expression, await, serialize, timeout}',
  needsTab: true,
  readOnly: false,
  ownTimeoutMs: (p) => p.timeoutMs,
  parse(v) {
    if (typeof v === 'string') {
      if (!v.trim()) throw new ParamError('pageFunction must not be empty');
      if (v.length > MAX_SOURCE) throw new ParamError(`pageFunction is longer than ${MAX_SOURCE} characters`);
      return { source: v, mode: looksLikeFunction(v) ? 'function' : 'expression', refs: false, await: true, serialize: true };
    }
    const o = obj(v, ['fn', 'expression', 'refs', 'await', 'serialize', 'timeout'], 'pageFunction');
    const fn = optString(o, 'fn', { maxLength: MAX_SOURCE });
    const expression = optString(o, 'expression', { maxLength: MAX_SOURCE });
    if ((fn === undefined) === (expression === undefined)) throw new ParamError(`pageFunction needs exactly one of "fn" or "expression", got ${describe(v)}`);
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
    const page = ctx.command.requireTab().page;
    const deadline = p.timeoutMs ? ctx.deadline.cap(p.timeoutMs) : ctx.deadline;
    try {
      return await page.guard(p.mode === 'function' ? runFunction(page, p, deadline) : runExpression(page, p, deadline));
    } catch (err) {
      if (!(err instanceof EvaluationError)) throw err;
      const tip = malformationTip(p.source, err.message);
      const message = `${err.message} — in: ${preview(p.source)}${tip ? `. ${tip}` : ''}`;
      throw tip && err.message.startsWith('SyntaxError') ? new StepValidationError(message) : new EvaluationError(message);
    }
  },
});
