// Taking snapshots of a tab: one page evaluation for the tree, then shaping, rendering and
// (when large) writing to a file, all on the Node side.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ElementNotFoundError, StepValidationError, sha1, stateDir } from '../common/index.js';
import type { Scope } from '../page/index.js';
import type { AriaNode, SnapshotOptions } from '../injected/index.js';
import type { Counters } from '../injected/index.js';
import { renderYaml } from './render.js';
import { shape, type Detail } from './shape.js';
import { fillFrameSlots, hasFrameSlots, type FrameBook } from './frames.js';

export const DEFAULT_INLINE_LIMIT = 9_000;

export interface TakeOptions {
  root?: string;
  detail: Detail;
  viewportOnly: boolean;
  pierceShadow: boolean;
  includeFrames: boolean;
  maxDepth: number;
  maxElements: number;
  internal: boolean;
}

export interface TakenSnapshot {
  tree: AriaNode[];
  yaml: string;
  snapshotId: number;
  counters: Counters;
  truncated?: true;
}

export async function takeSnapshot(
  scope: Scope,
  options: TakeOptions,
  counters: Counters | undefined,
  /** The tab's frame book: cross-origin frames' content is filled in, its refs frame-qualified. */
  book?: FrameBook,
): Promise<TakenSnapshot> {
  const opts: SnapshotOptions = {
    ...(options.root ? { root: options.root } : {}),
    autoScope: options.root === undefined && !options.viewportOnly,
    pierceShadow: options.pierceShadow,
    includeFrames: options.includeFrames,
    maxDepth: options.maxDepth,
    maxElements: options.maxElements,
    refs: true, // summary shows none, but counts them
    internal: options.internal,
    ...(counters ? { counters } : {}),
  };
  // Closed shadow roots are fetched first when the page has custom elements not looked at yet.
  const outcome = await scope.callSeeingClosedRoots((rt, o) => rt.ariaSnapshot.ariaSnapshot(o), opts, {
    what: 'the snapshot',
  });
  if (!outcome.ok) {
    if (outcome.reason === 'invalid-selector')
      throw new StepValidationError(`Invalid root selector "${options.root}": ${outcome.message}`);
    throw new ElementNotFoundError(`No element matches root "${options.root}"`);
  }
  let raw = outcome.tree;
  let outCounters = outcome.counters;
  if (book && hasFrameSlots(raw)) {
    const framed = await fillFrameSlots(scope, raw, { ...opts, counters: outCounters }, book);
    raw = framed.tree;
    if (framed.counters) outCounters = framed.counters;
  }
  const tree = shape(raw, options.detail, options.viewportOnly);
  const yaml = renderYaml(tree, {
    ...(outcome.scope ? { scope: outcome.scope } : {}),
    ...(outcome.landmarks ? { landmarks: outcome.landmarks } : {}),
  });
  return {
    tree,
    yaml,
    snapshotId: outcome.snapshotId,
    counters: outCounters,
    ...(outcome.truncated ? { truncated: true as const } : {}),
  };
}

/** Cuts YAML at a line boundary to fit `maxBytes`. */
export function headOf(yaml: string, maxBytes: number): string {
  if (Buffer.byteLength(yaml) <= maxBytes) return yaml;
  const lines = yaml.split('\n');
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    const size = Buffer.byteLength(line) + 1;
    if (bytes + size > maxBytes) break;
    kept.push(line);
    bytes += size;
  }
  return kept.join('\n');
}

export function writeSnapshotFile(name: string, yaml: string): string {
  const path = join(stateDir(), name);
  writeFileSync(path, `${yaml}\n`, { mode: 0o600 });
  return path;
}

export function snapshotHash(yaml: string): string {
  return sha1(yaml).toString('base64url').slice(0, 16);
}
