// dom/ — acting on elements like a person: keyboard input and (for now) focusing a target.
// Uses page/, cdp/ and common/; steps/ decide what to do with it.
export { parseCombo, editingCommands } from './key-combo.js';
export type { KeyCombo, ComboParse } from './key-combo.js';
export { lookupKey, withShift, displayName, knownKeyNames } from './key-definitions.js';
export type { KeyDefinition, ModifierName } from './key-definitions.js';
export { pressCombo, typeText, typingPlan, unknownKeyWarning } from './keyboard.js';
export type { TypeOutcome } from './keyboard.js';
export { focusTarget } from './focus-target.js';
