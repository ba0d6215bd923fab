// shared/ — facts both sides of the page boundary need, written once: the Node side and the page
// runtime bundle (injected/) import them. Pure: imports nothing, touches no DOM and no Node API.
export { POINTER_ONLY, STATE_FIELDS } from './changes.js';
export type { ObservedChange, ObservedDiff, ObservedKind, StateField } from './changes.js';
export { sectionDigits, sectionKind } from './date-sections.js';
export type { DateSectionKind } from './date-sections.js';
export { editDistance } from './edit-distance.js';
export { MATCH, nearestFirst, optionLabel, optionName, optionScore, parseOptionWant } from './option-text.js';
export type { OptionWant } from './option-text.js';
export { FRAME_TAG, MAX_STRING_CHARS } from './page-marks.js';
export { QUERY_OUTPUT_MODES } from './query-spec.js';
export type { CssQuery, QueryOutput, QueryOutputMode, QuerySpec, RoleQuery, SearchCriteria } from './query-spec.js';
export { isRef, REF_SOURCE, refElementNumber, refName } from './refs.js';
export { isSecretField, isSecretText, REDACTED } from './secrets.js';
export type { FieldFacts } from './secrets.js';
