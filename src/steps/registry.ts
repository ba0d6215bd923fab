// The step registry: each step is defined once with its name, parameter parser, executor and
// metadata. Validation, --help and the SKILL.md reference all read from here.

import type { Deadline } from '../common/index.js';
import type { BrowserAddress, Connection, TabEntry } from '../cdp/index.js';
import type { Page } from '../page/index.js';

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
  /** Opens a new tab in the browser at `address` (launching a local Chrome if needed) and attaches. */
  openTab(address: BrowserAddress, headless: boolean | undefined): Promise<AttachedTab>;
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
}

export interface StepDefinition<P = unknown> {
  readonly name: string;
  /** One line for --help and SKILL.md. */
  readonly summary: string;
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
