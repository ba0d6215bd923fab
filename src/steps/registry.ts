// The step registry: each step is defined once with its name, parameter parser, executor and
// metadata. Validation, --help and the SKILL.md reference all read from here.

import type { Deadline } from '../common/index.js';
import type { BrowserAddress, Connection, TabEntry } from '../cdp/index.js';
import type { Page, Scope } from '../page/index.js';

/** The tab a command works on, once attached. */
export interface AttachedTab {
  alias: string;
  entry: TabEntry;
  conn: Connection;
  page: Page;
}

/** What the runner lends a step: the tab (if any) and ways to get one or a browser. */
export interface CommandState {
  readonly tab: AttachedTab | undefined;
  /** The attached tab, or a CONNECTION error when the command has none. */
  requireTab(): AttachedTab;
  /** Opens a new tab in the browser at `address` (launching a local Chrome if needed), in the named browser `context` if given, and attaches. */
  openTab(address: BrowserAddress, headless: boolean | undefined, context?: string): Promise<AttachedTab>;
  /** Attaches to an existing target of the browser at `address` and registers it. */
  connectTab(address: BrowserAddress, targetId: string): Promise<AttachedTab>;
  /** A browser connection (the tab's, or a new one to `address`). Never launches Chrome. */
  browser(address?: BrowserAddress): Promise<Connection>;
  /** Set by closeTab when it closed the command's own tab: no post-command capture. */
  closedOwnTab: boolean;
}

export interface StepContext {
  readonly deadline: Deadline;
  /** 1-based position in the command. */
  readonly index: number;
  readonly command: CommandState;
  /**
   * Where the step acts (the tab's chosen frame, or the frame a frame ref names), bounded by the
   * step's deadline; built by the runner once per step. Reading it without a tab is a CONNECTION
   * error, as requireTab is.
   */
  readonly scope: Scope;
}

/**
 * A step's parameters, declared: the forms it takes besides an object, the object's keys (its
 * parser accepts exactly these), what it returns. Validation, --help and the SKILL.md table read it.
 */
export interface ParamSchema {
  /** Non-object forms as the docs write them: 'true', '"url"', 'T' (a target: "s1e4" or CSS), 'ms'. */
  readonly forms?: readonly string[];
  /**
   * The object form's keys, in the order the docs show them, each with a hint: '' (none), a type
   * or values ('commit|load'), or '-' (accepted, left out of the short table; --help shows it).
   */
  readonly keys?: Readonly<Record<string, string>>;
  /** The output, as the docs write it ('{url, status}'). */
  readonly returns?: string;
  /** A few words the table adds ('first step'). */
  readonly note?: string;
}

/** Where a step's target is: what the runner needs to aim the same step at another element. */
export interface TargetFacts {
  /** The object keys that name the target or refine it (selector, ref, text, label, selectors, x, y, exact, withinSelector). */
  readonly keys: readonly string[];
  /** A string parameter is the target ("s1e4" or CSS). */
  readonly string?: boolean;
  /** Takes a map of fields, each key a target ({"#email": "x"} or {fields: {…}}). */
  readonly fieldMap?: boolean;
  /** The key that names the target by its visible words: 'text' (buttons, links) or 'label' (fields). */
  readonly byWords?: 'text' | 'label';
  /** Moves the pointer onto the target: one that stays invisible may still be forced. */
  readonly pointer?: boolean;
}

/**
 * Kinds of failure a step is the usual next step for, and its parameters then (runner/next-step.ts
 * reads them). `look`: the element is not there (take a new snapshot); `dismiss`: a layer covers
 * the target and has a dismiss button (its ref is the target); `field:<control>`: a field
 * that takes no text (`file`, `select`, `checkbox`, `radio`); `crashed`, `frame`, `beforeunload`.
 */
export type RemedyKind = 'look' | 'dismiss' | 'crashed' | 'frame' | 'beforeunload' | `field:${string}`;
export type Remedy = (target: Record<string, unknown>, value: string | undefined) => unknown;

export interface StepDefinition<P = unknown> {
  readonly name: string;
  /** What the step does, a few words for --help. */
  readonly summary: string;
  readonly params: ParamSchema;
  /** The past-tense word(s) `changes.summary` opens with when this step acted last ('Clicked'). */
  readonly verb?: string;
  /** The step only waits for the page to come to a state (wait, poll): it does not act on it. */
  readonly waits?: boolean;
  /** The step supports an action rather than being one (wait, pageFunction): its verb names the command only when no acting step has one. */
  readonly supporting?: true;
  /** Steps that act on one element: where its target is in the parameters. */
  readonly target?: TargetFacts;
  /** The step lands on a URL (its output's `url`): the site profile is looked up after it (SPEC §15.3). */
  readonly landsOnUrl?: boolean;
  /** The step must be the command's last (closeTab of the command's own tab). */
  mustComeLast?(params: P): boolean;
  /** The step chooses the frame later steps act in: the runner takes its look before the steps there. */
  readonly choosesFrame?: true;
  /** The step arms the answer to the next JS dialog: the runner warns when no dialog used it. */
  readonly armsDialog?: boolean;
  /** A lighter wait to suggest when the step timed out (goto: waitUntil domcontentloaded); raw is the step's input. */
  lighterWait?(raw: unknown): unknown;
  /** Failures this step is the next step for (see RemedyKind). */
  readonly remedyFor?: Partial<Record<RemedyKind, Remedy>>;
  /** False for the session-less steps (DECISIONS). */
  readonly needsTab: boolean;
  /** Read-only steps don't trigger the post-command screenshot, snapshot and diff (per params for cookies, storage). */
  readonly readOnly: boolean | ((params: P) => boolean);
  /** A step's own time limit (poll, pipeline, pageFunction `timeout`): the step deadline is raised to fit it unless the step sets `timeout`. */
  ownTimeoutMs?(params: P): number | undefined;
  /** openTab / connectTab: creates the command's tab, so only allowed as the first step. */
  readonly providesTab?: boolean;
  /**
   * Whether the step, from a page at `currentUrl`, loads a new document (goto, reload). When such a
   * step comes first, the runner skips its look at the page before the steps: nothing is diffed
   * against a page the agent has left.
   */
  replacesDocument?(params: P, currentUrl: string): boolean;
  /**
   * Whether the step's output already shows the page an agent sees (a whole-page snapshot): taken
   * after the last acting step, the answer's viewportSnapshot would repeat it and is left out.
   */
  showsPage?(params: P, output: unknown): boolean;
  parse(value: unknown): P;
  run(ctx: StepContext, params: P): Promise<unknown>;
}

const REGISTRY = new Map<string, StepDefinition>();

export function defineStep<P>(def: StepDefinition<P>): StepDefinition<P> {
  if (REGISTRY.has(def.name)) throw new Error(`step ${def.name} defined twice`);
  REGISTRY.set(def.name, def as StepDefinition);
  return def;
}

export function getStep(name: string): StepDefinition | undefined {
  return REGISTRY.get(name);
}

export function stepNames(): string[] {
  return [...REGISTRY.keys()];
}

export function isReadOnlyStep(def: StepDefinition, params: unknown): boolean {
  return typeof def.readOnly === 'function' ? def.readOnly(params) : def.readOnly;
}

export function allSteps(): StepDefinition[] {
  return [...REGISTRY.values()];
}

/** The step that is the next step for a failure of `kind`, with its parameters. */
export function remedyStep(
  kind: RemedyKind,
  target: Record<string, unknown> = {},
  value?: string,
): Record<string, unknown> | undefined {
  for (const def of REGISTRY.values()) {
    const remedy = def.remedyFor?.[kind];
    if (remedy) return { [def.name]: remedy(target, value) };
  }
  return undefined;
}

/** The object keys a step's parser accepts (its schema's). */
export function keysOf(schema: ParamSchema): string[] {
  return Object.keys(schema.keys ?? {});
}
