// diff/ — words the page's view diff as `changes` (issue 13). Pure; imports nothing.
export { tellChanges, salience, line, phrase, MAX_LINES, NO_VISIBLE_CHANGE } from './tell.js';
export { actionVerb } from './summary.js';
export { DIFF_FIELDS } from './types.js';
export type {
  DiffEntry,
  DiffField,
  ObservedChange,
  ObservedDiff,
  ObservedKind,
  StepVerb,
  ViewportChanges,
} from './types.js';
