// The snapshot step (SPEC §7, §11.1): the accessibility tree as YAML with refs, scoped, shaped
// and size-limited; `since` answers {unchanged} when nothing an agent can see has changed.

import {
  DEFAULT_INLINE_LIMIT,
  headOf,
  snapshotHash,
  takeSnapshot,
  writeSnapshotFile,
  type TakeOptions,
} from '../aria/index.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { describe, obj, optBool, optEnum, optNumber, optString, ParamError } from './params.js';

interface SnapshotParams extends Omit<TakeOptions, 'internal'> {
  inlineLimit: number;
  since?: string;
}

const DEFAULTS: SnapshotParams = {
  detail: 'full',
  viewportOnly: false,
  pierceShadow: true,
  includeFrames: true,
  maxDepth: 50,
  maxElements: 50_000,
  inlineLimit: DEFAULT_INLINE_LIMIT,
};
/** A root that names the whole document: its snapshot is the page, as one without a root is. */
const DOCUMENT_ROOT = /^\s*(html|body|:root)\s*$/i;

/** Hashes of this many recent snapshots are kept per tab for `since`. */
const KEPT_HASHES = 8;

const SNAPSHOT_PARAMS: ParamSchema = {
  forms: ['true'],
  keys: {
    root: '',
    detail: 'full|interactive|summary',
    viewportOnly: '',
    maxElements: '-',
    since: '',
    mode: '-',
    pierceShadow: '-',
    includeFrames: '-',
    includeText: '-',
    maxDepth: '-',
    inlineLimit: '-',
    preserveRefs: '-',
  },
  returns: '{snapshotId, yaml}',
};

defineStep<SnapshotParams>({
  name: 'snapshot',
  summary: 'Accessibility tree as YAML with refs',
  params: SNAPSHOT_PARAMS,
  remedyFor: { look: () => true },
  needsTab: true,
  readOnly: true,
  // The whole page's tree (not a part, not the summary's headings), sent inline: the viewportSnapshot would repeat it.
  showsPage: (p, output) =>
    typeof (output as { yaml?: unknown } | undefined)?.yaml === 'string' &&
    (p.root === undefined || DOCUMENT_ROOT.test(p.root)) &&
    p.detail !== 'summary',
  parse(v) {
    if (v === true) return { ...DEFAULTS };
    const o = obj(v, keysOf(SNAPSHOT_PARAMS), 'snapshot');
    if (o.mode !== undefined && o.mode !== 'ai')
      throw new ParamError('"mode" only takes "ai" (refs are always on except in the summary detail)');
    if (optBool(o, 'preserveRefs') === false)
      throw new ParamError('"preserveRefs": false is not supported: refs are never recycled within a tab');
    optBool(o, 'includeText');
    const since = optString(o, 'since');
    if (since !== undefined && !/^s\d+$/.test(since))
      throw new ParamError(`"since" must be a snapshot id like "s3", got ${describe(since)}`);
    return {
      root: optString(o, 'root'),
      detail: optEnum(o, 'detail', ['full', 'interactive', 'summary'] as const) ?? DEFAULTS.detail,
      viewportOnly: optBool(o, 'viewportOnly') ?? DEFAULTS.viewportOnly,
      pierceShadow: optBool(o, 'pierceShadow') ?? DEFAULTS.pierceShadow,
      includeFrames: optBool(o, 'includeFrames') ?? DEFAULTS.includeFrames,
      maxDepth: optNumber(o, 'maxDepth', { min: 1, max: 500, integer: true }) ?? DEFAULTS.maxDepth,
      maxElements: optNumber(o, 'maxElements', { min: 1, integer: true }) ?? DEFAULTS.maxElements,
      inlineLimit: optNumber(o, 'inlineLimit', { min: 200, integer: true }) ?? DEFAULTS.inlineLimit,
      ...(since ? { since } : {}),
    };
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const snap = await takeSnapshot(ctx.scope, { ...p, internal: false }, tab.entry.counters, tab.entry);
    tab.entry.counters = snap.counters;
    const id = `s${snap.snapshotId}`;
    const hash = snapshotHash(snap.yaml);
    const hashes = { ...(tab.entry.snapshotHashes ?? {}) };
    if (p.since && hashes[p.since] === hash) return { unchanged: true, snapshotId: p.since };
    hashes[id] = hash;
    tab.entry.snapshotHashes = Object.fromEntries(Object.entries(hashes).slice(-KEPT_HASHES));
    const out: Record<string, unknown> = { snapshotId: id };
    if (snap.truncated) out.truncated = true;
    if (Buffer.byteLength(snap.yaml) > p.inlineLimit) {
      out.path = writeSnapshotFile(`${tab.alias}.${id}.yaml`, snap.yaml);
      out.yaml = headOf(snap.yaml, p.inlineLimit);
      out.inlineTruncated = true;
    } else {
      out.yaml = snap.yaml;
    }
    return out;
  },
});
