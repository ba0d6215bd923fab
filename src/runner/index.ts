// runner/ — from input text to the answer: validation, the step loop, capture, output.
export { parseJson, validateCommand } from './validate.js';
export type { Command } from './validate.js';
export { runCommand } from './run-command.js';
export { classify } from './failure.js';
export { assemble, stripEmpty } from './output.js';
export { deadlineAnswer, startClock } from './command-clock.js';
export { WarmHost } from './warm-host.js';
export { BETWEEN_CALLS_WATCHERS } from './between-calls.js';
export type { BetweenCallsWatch, BetweenCallsWatcher } from './between-calls.js';
export type { TabHost } from './tab-host.js';
