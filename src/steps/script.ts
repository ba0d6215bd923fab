// poll (SPEC §12.2) and pipeline (§12.3): the agent's predicates and micro-operations, each run
// inside one page evaluation in the chosen frame. The loops live in injected/pipeline.ts; this
// file reads the parameters, compiles the agent's functions into the call and maps the outcome.

import { Script } from 'node:vm';
import {
  ElementNotEditableError,
  ElementNotFoundError,
  EvaluationError,
  ExecutionError,
  StepValidationError,
  TimeoutError,
  Deadline,
  POLL_INTERVAL_MS,
} from '../common/index.js';
import { isContextDestroyed } from '../cdp/index.js';
import { agentCall, type Scope } from '../page/index.js';
import type { PipelineFailureReason, PipelineOp, PipelineOutcome, PollOutcome } from '../injected/index.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { describe, isObj, obj, optNumber, optString, ParamError } from './params.js';
import { looksLikeFunction, malformationTip, preview } from './js-source.js';

const DEFAULT_POLL_TIMEOUT_MS = 30_000;
const DEFAULT_PIPELINE_TIMEOUT_MS = 30_000;
const DEFAULT_WAIT_FOR_TIMEOUT_MS = 10_000;
const MAX_SOURCE = 100_000;
const MAX_OPS = 100;
/** Left of the step deadline for the page to report what it found before the step gives up. */
const REPORT_MARGIN_MS = 500;
/** How long after its own limit a page loop may take to answer before it counts as runaway. */
const RUNAWAY_GRACE_MS = 2_000;
const RETRY_AFTER_NAVIGATION_MS = 50;

/** A function string, called; or a bare expression, made into one. Checked for syntax here, so a
 *  mangled predicate fails validation before anything runs. */
export function compileFn(source: string, where: string): string {
  const expr = looksLikeFunction(source) ? `(${source}\n)` : `(async () => (${source}\n))`;
  try {
    new Script(expr); // compiles only: nothing of the agent's code runs in Node
  } catch (err) {
    const message = `SyntaxError: ${(err as Error).message}`;
    const tip = malformationTip(source, message);
    throw new ParamError(`${where}: ${message} — in: ${preview(source)}${tip ? `. ${tip}` : ''}`);
  }
  return expr;
}

function readSource(v: unknown, where: string): string {
  if (typeof v !== 'string' || !v.trim())
    throw new ParamError(`${where} must be a JavaScript function or expression string, got ${describe(v)}`);
  if (v.length > MAX_SOURCE) throw new ParamError(`${where} is longer than ${MAX_SOURCE} characters`);
  return v;
}

/** The step's own limit, within what is left of the step deadline. */
function limitMs(own: number | undefined, fallback: number, deadline: Deadline): number {
  return Math.max(0, Math.min(own ?? fallback, deadline.remainingMs() - REPORT_MARGIN_MS));
}

interface PollParams {
  fn: string;
  intervalMs: number;
  timeoutMs?: number;
}

async function pollOnce(scope: Scope, p: PollParams, limit: number, deadline: Deadline): Promise<PollOutcome> {
  const body = agentCall(p.fn, (rt, fn: () => unknown, a) => rt.pipeline.pollUntil(fn, a.intervalMs, a.limit), {
    intervalMs: p.intervalMs,
    limit,
  });
  return scope.callInPage(body, p.fn, {
    deadline: deadline.cap(limit + RUNAWAY_GRACE_MS),
    what: 'the poll predicate to return (a runaway loop?)',
  }) as Promise<PollOutcome>;
}

const POLL_PARAMS: ParamSchema = {
  forms: ['"() => …"'],
  keys: { fn: '', interval: '', timeout: '' },
  returns: '{resolved, value}',
};

defineStep<PollParams>({
  name: 'poll',
  verb: 'Waited',
  waits: true,
  supporting: true,
  summary: 'Poll a predicate until truthy',
  params: POLL_PARAMS,
  needsTab: true,
  readOnly: false,
  ownTimeoutMs: (p) => p.timeoutMs,
  parse(v) {
    if (typeof v === 'string') return { fn: compileFn(readSource(v, 'poll'), 'poll'), intervalMs: POLL_INTERVAL_MS };
    const o = obj(v, keysOf(POLL_PARAMS), 'poll');
    return {
      fn: compileFn(readSource(o.fn, '"fn"'), 'poll'),
      intervalMs: optNumber(o, 'interval', { min: 10, max: 60_000 }) ?? POLL_INTERVAL_MS,
      timeoutMs: optNumber(o, 'timeout', { min: 1, max: 300_000 }),
    };
  },
  async run(ctx, p) {
    const started = Date.now();
    const limit = limitMs(p.timeoutMs, DEFAULT_POLL_TIMEOUT_MS, ctx.deadline);
    let last: PollOutcome | undefined;
    for (;;) {
      const left = Math.max(0, limit - (Date.now() - started));
      try {
        last = await pollOnce(ctx.scope, p, left, ctx.deadline);
        if (last.resolved || Date.now() - started >= limit) break;
      } catch (err) {
        // The document navigated away mid-poll: go on polling in the new one.
        if (!isContextDestroyed(err) || Date.now() - started >= limit) throw err;
        await ctx.deadline.sleep(RETRY_AFTER_NAVIGATION_MS);
      }
    }
    const elapsed = Date.now() - started;
    if (last.resolved) return { resolved: true, value: last.value, elapsed };
    // DECISIONS: a poll timeout is a step error that still carries what the predicate last said.
    throw new TimeoutError(`poll: the predicate was still falsy after ${limit}ms`, {
      output: { resolved: false, lastValue: last.lastValue, elapsed },
    });
  },
});

interface PipelineParams {
  ops: PipelineOp[];
  fns: string[];
  timeoutMs?: number;
  labels: string[];
}

const ACTIONS = ['fill', 'click', 'type', 'check', 'select'] as const;

function readOp(v: unknown, i: number, fns: string[]): { op: PipelineOp; label: string } {
  const at = `pipeline operation ${i}`;
  if (!isObj(v))
    throw new ParamError(`${at} must be an object like {"find": "#email", "fill": "a@b.co"}, got ${describe(v)}`);
  if (v.find !== undefined) {
    const action = ACTIONS.filter((a) => v[a] !== undefined);
    if (action.length !== 1) throw new ParamError(`${at}: "find" needs exactly one of ${ACTIONS.join(', ')}`);
    const name = action[0]!;
    const o = obj(v, ['find', name], at);
    const find = optString(o, 'find')!;
    const label = `${name} "${find}"`;
    const text = (): string => {
      const t = o[name];
      if (typeof t === 'number') return String(t);
      if (typeof t !== 'string') throw new ParamError(`${at}: "${name}" must be a string, got ${describe(t)}`);
      return t;
    };
    switch (name) {
      case 'click':
        if (o.click !== true) throw new ParamError(`${at}: "click" must be true`);
        return { op: { op: 'click', find }, label };
      case 'check':
        if (typeof o.check !== 'boolean') throw new ParamError(`${at}: "check" must be true or false`);
        return { op: { op: 'check', find, checked: o.check }, label };
      case 'select':
        return { op: { op: 'select', find, value: text() }, label };
      default:
        return { op: { op: name, find, value: text() }, label };
    }
  }
  if (v.waitFor !== undefined) {
    const o = obj(v, ['waitFor', 'timeout'], at);
    fns.push(compileFn(readSource(o.waitFor, `${at} "waitFor"`), at));
    return {
      op: {
        op: 'waitFor',
        fn: fns.length - 1,
        timeoutMs: optNumber(o, 'timeout', { min: 1, max: 300_000 }) ?? DEFAULT_WAIT_FOR_TIMEOUT_MS,
      },
      label: 'waitFor',
    };
  }
  if (v.return !== undefined) {
    obj(v, ['return'], at);
    fns.push(compileFn(readSource(v.return, `${at} "return"`), at));
    return { op: { op: 'return', fn: fns.length - 1 }, label: 'return' };
  }
  if (v.sleep !== undefined) {
    const ms = optNumber(obj(v, ['sleep'], at), 'sleep', { min: 0, max: 300_000 })!;
    return { op: { op: 'sleep', ms }, label: `sleep ${ms}` };
  }
  throw new ParamError(
    `${at} needs {find, fill|click|type|check|select}, {waitFor}, {sleep} or {return}; got keys ${Object.keys(v).join(', ') || 'none'}`,
  );
}

const FAILURE: Record<
  PipelineFailureReason,
  new (
    message: string,
    details?: Record<string, unknown>,
  ) => ExecutionError
> = {
  'not-found': ElementNotFoundError,
  'invalid-selector': StepValidationError,
  timeout: TimeoutError,
  threw: EvaluationError,
  'not-editable': ElementNotEditableError,
  'no-option': StepValidationError,
  'not-taken': ExecutionError,
};

async function runPipeline(
  scope: Scope,
  p: PipelineParams,
  limit: number,
  deadline: Deadline,
): Promise<PipelineOutcome> {
  const body = agentCall(
    `[${p.fns.join(',\n')}]`,
    (rt, fns: Array<() => unknown>, a) => rt.pipeline.runPipeline(a.ops, fns, a.limit),
    { ops: p.ops, limit },
    { in: p.fns.join('\n') },
  );
  try {
    return (await scope.callInPage(body, body, {
      deadline: deadline.cap(limit + RUNAWAY_GRACE_MS),
      what: 'the pipeline to finish (a runaway loop?)',
    })) as PipelineOutcome;
  } catch (err) {
    if (!(err instanceof TimeoutError)) throw err;
    // The evaluation was terminated; what it got through is still on the window.
    const progress = await scope
      .callPageWorld((rt) => rt.pipeline.pipelineProgress(), undefined, {
        deadline: Deadline.after(RUNAWAY_GRACE_MS),
      })
      .catch(() => undefined);
    if (!progress) throw err;
    return {
      completed: false,
      failedAt: progress.at,
      reason: 'timeout',
      error: `did not return within ${limit}ms and was terminated (a runaway loop?)`,
      results: progress.results,
    };
  }
}

const PIPELINE_PARAMS: ParamSchema = {
  forms: ['[{find, fill|type|select|click|check}, {waitFor}, {sleep}, {return}]'],
  keys: { steps: '-', timeout: '-' },
};

defineStep<PipelineParams>({
  name: 'pipeline',
  verb: 'Ran script',
  supporting: true,
  summary: 'Micro-operations in one page evaluation',
  params: PIPELINE_PARAMS,
  needsTab: true,
  readOnly: false,
  ownTimeoutMs: (p) => p.timeoutMs,
  parse(v) {
    let list: unknown = v;
    let timeoutMs: number | undefined;
    if (isObj(v)) {
      const o = obj(v, keysOf(PIPELINE_PARAMS), 'pipeline');
      list = o.steps;
      timeoutMs = optNumber(o, 'timeout', { min: 1, max: 300_000 });
    }
    if (!Array.isArray(list) || !list.length)
      throw new ParamError(
        `pipeline must be a non-empty array of operations or {steps: [...], timeout}, got ${describe(list)}`,
      );
    if (list.length > MAX_OPS) throw new ParamError(`pipeline has ${list.length} operations; at most ${MAX_OPS}`);
    const fns: string[] = [];
    const read = list.map((op, i) => readOp(op, i, fns));
    return {
      ops: read.map((r) => r.op),
      labels: read.map((r) => r.label),
      fns,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    };
  },
  async run(ctx, p) {
    const limit = limitMs(p.timeoutMs, DEFAULT_PIPELINE_TIMEOUT_MS, ctx.deadline);
    const outcome = await runPipeline(ctx.scope, p, limit, ctx.deadline);
    if (outcome.completed) return outcome;
    const { reason, ...output } = outcome;
    throw new FAILURE[reason](
      `pipeline operation ${outcome.failedAt} (${p.labels[outcome.failedAt] ?? '?'}) failed: ${outcome.error}`,
      {
        output,
      },
    );
  },
});
