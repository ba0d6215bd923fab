// dom/ — acting on elements: one resolution path (css, ref, text, label, selector lists,
// coordinates), actionability waits, trusted mouse input, and the interactions built on them.
export { locate, prepareAction, describeTarget, DEFAULT_ACTION_TIMEOUT_MS } from './locate.js';
export type { TargetSpec, TargetOptions, RefHolder, Located, Actionable, ActionKind } from './locate.js';
export { click, clickCoordinates } from './click.js';
export type { ClickOptions, ClickResult } from './click.js';
export { fill } from './fill.js';
export type { FillOptions, FillResult } from './fill.js';
export { selectOption } from './select.js';
export type { OptionChoice, SelectResult } from './select.js';
export { upload, checkFiles } from './upload.js';
export { hover } from './hover.js';
export type { HoverOptions } from './hover.js';
export { scrollTo, scrollPage } from './scroll.js';
export type { ScrollMove } from './scroll.js';
export { moveMouse, mouseDown, mouseUp, clickAt, wheel, mousePosition } from './mouse.js';
export type { Point } from './mouse.js';
export { markBeforeAction, settleAfterAction } from './settle.js';
export type { SettleResult, ActionMark } from './settle.js';
export { drag } from './drag.js';
export type { DragEndSpec, DragMethod, DragOptions, DragResult } from './drag.js';
