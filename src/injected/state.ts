// What the page runtime keeps between calls: one object, made when the runtime is installed in a
// world and living as long as it does (the document's life) — private in our isolated world; the
// runtime of the page's world (agents' code, the dialog guard) has its own. Modules keep their part here.
import type { ChooseMark } from './choose.js';
import type { DialogGuard } from './dialog-guard.js';
import type { DragProbe } from './drag.js';
import type { EffectProbe } from './effect-probe.js';
import type { ProbeState } from './click-probe.js';
import type { EffectWatch } from './effect-watch.js';
import type { ClosedShadowState } from './closed-shadow.js';
import type { DatePickerState } from './date-calendar.js';
import type { FeedWatch } from './scrolling.js';
import type { HeldElements } from './locate.js';
import type { InputWork } from './input-work.js';
import type { LastLook } from './last-look.js';
import type { LiveRecorder } from './live-recorder.js';
import type { PipelineProgress } from './pipeline.js';
import type { RefState } from './ref-map.js';
import type { ViewState } from './view-walk.js';

interface RuntimeState {
  /** Elements held by number for the later calls of a command (locate.ts). */
  held: HeldElements;
  /** The ref map (ref-map.ts), made on first use: only then does the world get window.__ariaRefs. */
  refs?: RefState;
  /** Closed shadow roots the Node side handed over, for the document's life (closed-shadow.ts). */
  closedShadow: ClosedShadowState;
  /** The view diff's element ids, its before-look and the mutation clock (view-walk.ts, view-diff.ts, view-settle.ts). */
  view: ViewState;
  /** Timers and fetches the page started on trusted input (input-work.ts; the page's world). */
  inputWork?: InputWork;
  /** The view the last visual answer showed, and whether the DOM changed since (last-look.ts). */
  lastLook?: LastLook;
  /** Whether the steps changed anything since the before-look (effect-probe.ts), and the element that scrolled. */
  effectProbe?: EffectProbe;
  scroller?: Element;
  /** What was visible when a choose step began: its popup's options are the others (choose.ts). */
  choose?: ChooseMark;
  /** The click probe armed for the next trusted click (click-probe.ts). */
  clickProbe?: ProbeState;
  /** What followed an action the page could have ignored (effect-watch.ts). */
  effectWatch?: EffectWatch;
  /** The day cells shown before a date picker's calendar opened, and the page's month names (date-calendar.ts). */
  datePicker?: DatePickerState;
  /** The drag probe armed for the next gesture (drag.ts). */
  dragProbe?: DragProbe;
  /** Live-region messages recorded while the steps ran (live-recorder.ts). */
  liveRecorder?: LiveRecorder;
  /** Overlays visible before an action (overlays.ts). */
  overlays?: WeakSet<Element>;
  /** An infinite feed watched after a scroll to the bottom (scrolling.ts). */
  feed?: FeedWatch;
  /** How far a running pipeline got, read by the Node side when it times out (pipeline.ts; the page's world). */
  pipeline?: PipelineProgress;
  /** The dialog guard armed between commands (dialog-guard.ts; the page's world). */
  dialogGuard?: DialogGuard;
  /** Secret values the Node side marked on this document (secret-values.ts). */
  secrets?: string[];
  /** The elements the last value of agents' code named by ref, in order: handed to our world afterwards (hook-value.ts). */
  valueRefs: Array<[string, Element]>;
}

export const state: RuntimeState = {
  held: { map: new Map(), next: 0 },
  closedShadow: { roots: new WeakMap(), asked: new WeakSet(), any: false },
  view: { ids: new WeakMap(), next: 1 },
  valueRefs: [],
};
