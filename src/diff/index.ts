// diff/ — words the page's view diff as `changes` (issue 13). Pure; imports only shared/.
export { tellChanges, salience, line, phrase, MAX_LINES, NO_VISIBLE_CHANGE } from './tell.js';
export { actionVerb } from './summary.js';
export type { StepVerb, ViewportChanges } from './types.js';
// The shape it words, the page's (shared/changes.ts), for the runner that hands it over.
export type { ObservedChange, ObservedDiff } from '../shared/index.js';
