// The wait step (DECISIONS): a delay, a selector's state, text, a URL fragment, network idle.
// Page-side waits are event-driven (MutationObserver) and survive navigations by re-arming.

import { NETWORK_IDLE_MS, StepValidationError, TimeoutError, type Deadline } from '../common/index.js';
import { isContextDestroyed } from '../cdp/index.js';
import type { Page, Scope } from '../page/index.js';
import type { WaitKind } from '../injected/index.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { describe, obj, optBool, optEnum, optString, ParamError } from './params.js';

type WaitParams =
  | { ms: number }
  | { kind: WaitKind; arg: string; text?: string }
  | { urlContains: string }
  | { networkIdle: true };

const RETRY_AFTER_NAVIGATION_MS = 50;

/** How a wait names what it waits for: `text "Saved"`, `#status visible`, `#status with "Saved" visible`. */
function waitedFor(p: { kind: WaitKind; arg: string; text?: string }): string {
  if (p.kind === 'text') return `text "${p.arg}"`;
  return p.text === undefined ? `${p.arg} ${p.kind}` : `${p.arg} with "${p.text}" ${p.kind}`;
}

async function waitInPage(
  scope: Scope,
  p: { kind: WaitKind; arg: string; text?: string },
  deadline: Deadline,
): Promise<void> {
  const { kind, arg, text } = p;
  const what =
    kind === 'text'
      ? `text "${arg}" to appear`
      : `"${arg}"${text === undefined ? '' : ` showing "${text}"`} to be ${kind}`;
  // What was waited for, for the failure context's near matches.
  const target = kind === 'text' || text !== undefined ? { by: 'text', value: text ?? arg } : { by: 'css', value: arg };
  deadline.log(`waiting for ${what}`);
  while (!deadline.expired()) {
    try {
      const outcome = await scope.call(
        (rt, a) => rt.waitCondition.waitForCondition(a.kind, a.arg, a.ms, a.text),
        { kind, arg, ms: deadline.remainingMs(), ...(text !== undefined ? { text } : {}) },
        { deadline: deadline.cap(deadline.remainingMs() + 1_000), what },
      );
      if (outcome.ok) return;
      if (outcome.reason === 'invalid-selector')
        throw new StepValidationError(`Invalid CSS selector "${arg}": ${outcome.message}`);
    } catch (err) {
      if (err instanceof TimeoutError) break; // the page did not answer before the deadline: the same timeout
      // The document navigated away mid-wait: wait again in the new one.
      if (!isContextDestroyed(err)) throw err;
      deadline.log('the page navigated: waiting again in the new document');
      await deadline.sleep(RETRY_AFTER_NAVIGATION_MS);
    }
  }
  throw new TimeoutError(deadline.timeoutError(what).message, { target });
}

async function waitForUrl(page: Page, fragment: string, deadline: Deadline): Promise<void> {
  const start = { ...page.lifecycle.snapshotCounts() };
  while (!page.lifecycle.url.includes(fragment)) {
    if (deadline.expired())
      throw deadline.timeoutError(`the URL to contain "${fragment}" (it is ${page.lifecycle.url})`);
    await page.guard(
      page.lifecycle.waitForNavigation(
        start,
        deadline,
        `the URL to contain "${fragment}" (it is ${page.lifecycle.url})`,
      ),
    );
    Object.assign(start, page.lifecycle.snapshotCounts());
  }
}

const WAIT_PARAMS: ParamSchema = {
  forms: ['ms', '"css"'],
  keys: { selector: '', state: 'hidden|detached|…', text: '', urlContains: '', networkIdle: 'true' },
  note: 'one key, or selector+text',
};

defineStep<WaitParams>({
  name: 'wait',
  verb: 'Waited',
  waits: true,
  supporting: true,
  summary: 'Wait for time, an element, text, a URL or network idle',
  params: WAIT_PARAMS,
  needsTab: true,
  readOnly: false,
  parse(v) {
    if (typeof v === 'number') {
      if (!Number.isFinite(v) || v < 0)
        throw new ParamError(`wait must be a non-negative number of ms, got ${describe(v)}`);
      return { ms: v };
    }
    if (typeof v === 'string') {
      if (!v.trim()) throw new ParamError('wait selector must not be empty');
      return { kind: 'visible', arg: v };
    }
    const o = obj(v, keysOf(WAIT_PARAMS), 'wait');
    const forms = ['selector', 'text', 'urlContains', 'networkIdle'].filter((k) => o[k] !== undefined);
    // "This element with this text": selector and text together narrow each other.
    const narrowed = forms.length === 2 && forms.includes('selector') && forms.includes('text');
    if (forms.length !== 1 && !narrowed)
      throw new ParamError(
        'wait needs one of "selector", "text", "urlContains", "networkIdle" (or "selector" with "text": that element showing that text)',
      );
    const selector = optString(o, 'selector');
    if (selector) {
      const text = optString(o, 'text');
      if (narrowed && !text) throw new ParamError('"text" must not be empty');
      return {
        kind: optEnum(o, 'state', ['visible', 'hidden', 'attached', 'detached'] as const) ?? 'visible',
        arg: selector,
        ...(text ? { text } : {}),
      };
    }
    if (o.state !== undefined) throw new ParamError('"state" applies only with "selector"');
    const text = optString(o, 'text');
    if (text) return { kind: 'text', arg: text };
    const urlContains = optString(o, 'urlContains');
    if (urlContains) return { urlContains };
    if (optBool(o, 'networkIdle') !== true) throw new ParamError('"networkIdle" must be true');
    return { networkIdle: true };
  },
  async run(ctx, p) {
    const started = Date.now();
    const page = ctx.command.requireTab().page;
    if ('ms' in p) {
      if (p.ms > ctx.deadline.remainingMs()) {
        await ctx.deadline.sleep(p.ms);
        throw new TimeoutError(
          `wait of ${p.ms}ms is longer than the step timeout (${ctx.deadline.totalMs}ms); raise "timeout"`,
        );
      }
      // Timers may fire a millisecond early against the wall clock: top up until the full delay has passed.
      for (let left = p.ms; left > 0; left = p.ms - (Date.now() - started)) await page.guard(ctx.deadline.sleep(left));
      return { waited: `${p.ms}ms`, elapsed: Date.now() - started };
    }
    let waited: string;
    if ('kind' in p) {
      await waitInPage(ctx.scope, p, ctx.deadline);
      waited = waitedFor(p);
    } else if ('urlContains' in p) {
      await waitForUrl(page, p.urlContains, ctx.deadline);
      waited = `url contains "${p.urlContains}"`;
    } else {
      await page.guard(page.network.waitForIdle(NETWORK_IDLE_MS, ctx.deadline));
      waited = 'network idle';
    }
    return { waited, elapsed: Date.now() - started };
  },
});
