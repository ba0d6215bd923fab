// diff/ — viewport snapshot diff and its one-line summary (SPEC §14). Pure; imports nothing.
export { diffViewport, MAX_LISTED } from './viewport-diff.js';
export { actionVerb } from './summary.js';
export { DIFF_FIELDS } from './types.js';
export type { Change, DiffEntry, DiffField, ViewportChanges } from './types.js';
