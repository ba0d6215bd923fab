// Whole-command validation before anything connects (DECISIONS): the top level, every step's
// shape, and every step's parameters. One bad step fails the command with its 1-based index.

import { clampTimeout, DEFAULT_STEP_TIMEOUT_MS, ParseError, ValidationError } from '../common/index.js';
import {
  describe,
  getStep,
  isObj,
  markRequestSecrets,
  ParamError,
  quoteKey,
  stepNames,
  type StepDefinition,
} from '../steps/index.js';
import { ALIAS_FORM, TARGET_ID_FORM } from '../cdp/index.js';
import type { StepVerb } from '../diff/index.js';
import { HOOK_NAMES, type StepHooks } from './hooks.js';

export interface ValidatedStep {
  index: number;
  action: string;
  def: StepDefinition;
  params: unknown;
  raw: unknown;
  optional: boolean;
  timeoutMs: number;
  /** readyWhen / settledWhen / observe (SPEC §10.2), beside the action or inside its object. */
  hooks?: StepHooks;
  /** `"download": true | "path"`: the step starts a download — wait for it, save it there (issue 21.3). */
  download?: DownloadAsk;
}

/** What a step's `download` key asks: wait for a download to begin and finish, saved at `path` if given. */
export interface DownloadAsk {
  path?: string;
}

export interface Command {
  tab?: string;
  timeoutMs: number;
  stopOnError: boolean;
  steps: ValidatedStep[];
}

/** Steps as `changes.summary` names them: the verbs their definitions give, in the command's order. */
export function stepVerbs(defs: readonly StepDefinition[]): StepVerb[] {
  return defs.flatMap((d) =>
    d.verb
      ? [{ verb: d.verb, ...(d.supporting ? { supporting: true } : {}), ...(d.waits ? { waits: true } : {}) }]
      : [],
  );
}

/** Room after a step's own limit to report what it found (poll's lastValue) before the step deadline. */
const OWN_TIMEOUT_MARGIN_MS = 1_000;
const TOP_LEVEL_KEYS = ['tab', 'timeout', 'steps', 'stopOnError'];
const STEP_MODIFIERS = ['optional', 'timeout', 'download', ...HOOK_NAMES];
const MAX_HOOK_SOURCE = 10_000;
const MIGRATION =
  'The "config" object is no longer supported. Move connection settings into the first step: ' +
  '{"steps":[{"openTab":{"url":"…","host":"…","port":9333,"headless":true}}]}; later commands pass only "tab": "t1". ' +
  'Put "timeout" at the top level.';

export function parseJson(text: string): unknown {
  if (!text.trim())
    throw new ParseError(
      'No input. Pass one JSON argument: cdp-skill \'{"steps":[{"openTab":"https://example.com"}]}\'',
    );
  try {
    return JSON.parse(text);
  } catch (err) {
    const hint = /^\s*[{[]/.test(text) ? '' : ' (the input must be a JSON object; did the shell strip its quotes?)';
    throw new ParseError(`Invalid JSON: ${(err as Error).message}${hint}`);
  }
}

function readTimeout(v: unknown, where: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0)
    throw new ValidationError(`${where}"timeout" must be a positive number of milliseconds, got ${describe(v)}`);
  return clampTimeout(v);
}

function validateStep(raw: unknown, index: number, defaultTimeoutMs: number): ValidatedStep {
  const at = `Step ${index}`;
  if (!isObj(raw))
    throw new ValidationError(`${at} must be an object like {"goto": "https://…"}, got ${describe(raw)}`);
  const keys = Object.keys(raw);
  const actions = keys.filter((k) => getStep(k));
  const unknown = keys.filter((k) => !getStep(k) && !STEP_MODIFIERS.includes(k));
  if (unknown.length) {
    const key = unknown[0]!;
    const hint = didYouMeanSync(key, [...stepNames(), ...STEP_MODIFIERS]);
    throw new ValidationError(`${at}: unknown step ${quoteKey(key)}.${hint} Known steps: ${stepNames().join(', ')}`);
  }
  if (actions.length === 0)
    throw new ValidationError(
      `${at} has no action (only ${keys.join(', ') || 'nothing'}); add one of: ${stepNames().join(', ')}`,
    );
  if (actions.length > 1)
    throw new ValidationError(`${at} has ${actions.length} actions (${actions.join(', ')}); put each in its own step`);
  const action = actions[0]!;
  const def = getStep(action)!;
  const optional = raw.optional;
  if (optional !== undefined && typeof optional !== 'boolean')
    throw new ValidationError(`${at} (${action}): "optional" must be true or false`);
  const stepTimeoutMs = readTimeout(raw.timeout, `${at} (${action}): `);
  const { hooks, params: withDownload } = readHooks(raw, action, at);
  if (hooks && !def.needsTab && !def.providesTab)
    throw new ValidationError(`${at} (${action}): hooks run in a page; ${action} has none`);
  const { download, params: given } = readDownload(raw, withDownload, action, at);
  if (download && !def.needsTab && !def.providesTab)
    throw new ValidationError(`${at} (${action}): "download" waits for a page's download; ${action} has no page`);
  if (hooks?.readyWhen && def.providesTab)
    throw new ValidationError(
      `${at} (${action}): readyWhen runs before the step, when ${action} has no page yet; use settledWhen`,
    );
  let params: unknown;
  try {
    params = def.parse(given);
  } catch (err) {
    if (!(err instanceof ParamError)) throw err;
    const hint = err.unknownKey && err.knownKeys ? didYouMeanSync(err.unknownKey, err.knownKeys) : '';
    throw new ValidationError(`${at} (${action}): ${capped(err.message)}.${hint}`);
  }
  // A step's own limit (poll {timeout: 60000}) raises the command's default; an explicit step "timeout" wins.
  const own = def.ownTimeoutMs?.(params);
  const timeoutMs =
    stepTimeoutMs ??
    (own !== undefined ? Math.max(defaultTimeoutMs, clampTimeout(own + OWN_TIMEOUT_MARGIN_MS)) : defaultTimeoutMs);
  return {
    index,
    action,
    def,
    params,
    raw: given,
    optional: optional === true,
    timeoutMs,
    ...(hooks ? { hooks } : {}),
    ...(download ? { download } : {}),
  };
}

/**
 * The `download` key, beside the action (`{"click": "s1e4", "download": "out.csv"}`) or inside its
 * object (`{"click": {"text": "Export", "download": true}}`, taken out before the step parses):
 * true, or where to save the file (page/downloads-folder.ts downloadTarget says how a path is read).
 */
function readDownload(
  raw: Record<string, unknown>,
  params: unknown,
  action: string,
  at: string,
): { download?: DownloadAsk; params: unknown } {
  const inside = isObj(params) && params.download !== undefined;
  if (inside && raw.download !== undefined)
    throw new ValidationError(`${at} (${action}): "download" is given twice (beside the action and inside it)`);
  const v = inside ? (params as Record<string, unknown>).download : raw.download;
  const rest = inside
    ? Object.fromEntries(Object.entries(params as Record<string, unknown>).filter(([k]) => k !== 'download'))
    : params;
  if (v === undefined || v === false) return { params: rest };
  if (v === true) return { download: {}, params: rest };
  if (typeof v !== 'string' || !v.trim() || v.includes('\0'))
    throw new ValidationError(
      `${at} (${action}): "download" must be true or the path to save the file at ("exports/out.csv", or a folder ending in "/"), got ${describe(v)}`,
    );
  return { download: { path: v }, params: rest };
}

/**
 * Hooks beside the action key, or (SPEC §10.1's wording) inside the action's object, where they
 * are taken out before the step parses its parameters. Each is JavaScript source, non-empty.
 */
function readHooks(raw: Record<string, unknown>, action: string, at: string): { hooks?: StepHooks; params: unknown } {
  let params = raw[action];
  const hooks: StepHooks = {};
  for (const name of HOOK_NAMES) {
    const inside = isObj(params) && params[name] !== undefined;
    if (inside && raw[name] !== undefined)
      throw new ValidationError(`${at} (${action}): "${name}" is given twice (beside the action and inside it)`);
    const v = inside ? (params as Record<string, unknown>)[name] : raw[name];
    if (v === undefined) continue;
    if (typeof v !== 'string' || !v.trim())
      throw new ValidationError(
        `${at} (${action}): "${name}" must be JavaScript source like "() => document.querySelector('.done')", got ${describe(v)}`,
      );
    if (v.length > MAX_HOOK_SOURCE)
      throw new ValidationError(`${at} (${action}): "${name}" is longer than ${MAX_HOOK_SOURCE} characters`);
    hooks[name] = v;
    if (inside)
      params = Object.fromEntries(Object.entries(params as Record<string, unknown>).filter(([k]) => k !== name));
  }
  return { ...(Object.keys(hooks).length ? { hooks } : {}), params };
}

/** Longest parameter message echoed: a step's own message may quote a huge value. */
const MAX_PARAM_MESSAGE = 1_000;
const capped = (message: string): string =>
  message.length > MAX_PARAM_MESSAGE ? `${message.slice(0, MAX_PARAM_MESSAGE)}…` : message;

// "Did you mean" is only needed on this error path: it is loaded on demand, and used synchronously
// through the module cache set up by loadSuggest().
let suggest: typeof import('./suggest.js') | undefined;
export async function loadSuggest(): Promise<void> {
  suggest ??= await import('./suggest.js');
}
function didYouMeanSync(word: string, candidates: readonly string[]): string {
  return suggest ? suggest.didYouMean(word, candidates) : '';
}

function validateOnce(input: unknown): Command {
  // Endpoint tokens are marked before any check can refuse the command: the refusal and the
  // --debug log of it then show them as •••• too (issue 24 item 3).
  markRequestSecrets(input);
  if (!isObj(input)) throw new ParseError(`The input must be a JSON object with "steps", got ${describe(input)}`);
  if ('config' in input) throw new ValidationError(MIGRATION);
  for (const key of Object.keys(input)) {
    if (!TOP_LEVEL_KEYS.includes(key)) {
      throw new ValidationError(
        `Unknown top-level key ${quoteKey(key)}.${didYouMeanSync(key, TOP_LEVEL_KEYS)} Allowed: ${TOP_LEVEL_KEYS.join(', ')}`,
      );
    }
  }
  const { tab, steps, stopOnError } = input;
  if (tab !== undefined && (typeof tab !== 'string' || !(ALIAS_FORM.test(tab) || TARGET_ID_FORM.test(tab)))) {
    throw new ValidationError(
      `"tab" must be a tab alias like "t1" (or a target id from listTabs), got ${describe(tab)}`,
    );
  }
  if (stopOnError !== undefined && typeof stopOnError !== 'boolean')
    throw new ValidationError('"stopOnError" must be true or false');
  if (!Array.isArray(steps))
    throw new ValidationError(
      `"steps" must be an array of steps, got ${steps === undefined ? 'nothing' : describe(steps)}`,
    );
  if (steps.length === 0) throw new ValidationError('"steps" is empty; give at least one step');
  const timeoutMs = readTimeout(input.timeout, '') ?? DEFAULT_STEP_TIMEOUT_MS;
  const validated = steps.map((s, i) => validateStep(s, i + 1, timeoutMs));

  validated.forEach((s) => {
    if (s.def.providesTab && s.index !== 1) {
      throw new ValidationError(`Step ${s.index} (${s.action}) must be the first step: it chooses the command's tab`);
    }
    if (s.index !== validated.length && s.def.mustComeLast?.(s.params)) {
      throw new ValidationError(
        `Step ${s.index} (${s.action}: ${JSON.stringify(s.raw)}) closes this command's tab, so it must be the last step`,
      );
    }
  });
  const needsTab = validated.some((s) => s.def.needsTab);
  const providesTab = validated[0]!.def.providesTab === true;
  if (needsTab && !providesTab && tab === undefined) {
    throw new ValidationError(
      'This command needs a tab: pass "tab": "t1" (see listTabs), or start with {"openTab": "https://…"}',
    );
  }
  return {
    ...(typeof tab === 'string' ? { tab } : {}),
    timeoutMs,
    stopOnError: stopOnError !== false,
    steps: validated,
  };
}

export async function validateCommand(input: unknown): Promise<Command> {
  try {
    return validateOnce(input);
  } catch (err) {
    if (!(err instanceof ValidationError) || suggest) throw err;
    await loadSuggest(); // an error path: now worth loading the suggester, then say it again with a hint
    return validateOnce(input);
  }
}
