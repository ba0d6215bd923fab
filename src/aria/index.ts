// aria/ — snapshots as agents read them: taking (one page evaluation), shaping (detail levels,
// viewport cut), rendering YAML, and the entries the viewport diff compares.
export { takeSnapshot, headOf, writeSnapshotFile, snapshotHash, DEFAULT_INLINE_LIMIT } from './snapshot.js';
export type { TakeOptions, TakenSnapshot } from './snapshot.js';
export { renderYaml, nodeLine, yamlScalar } from './render.js';
export { liftWrappers, shape, viewportOnly } from './shape.js';
export type { Detail } from './shape.js';
export { foldUnchanged, landmarkKey, UNCHANGED_NOTE } from './entries.js';
export { capRuns, fitTree, headWithCount, VIEW_BUDGET_BYTES } from './budget.js';
export {
  fillFrameSlots,
  hasFrameSlots,
  knownFramePrefix,
  splitFrameRef,
  FRAME_REF,
  MAX_SHOWN_FRAMES,
} from './frames.js';
export type { FrameBook, FramedTree } from './frames.js';
