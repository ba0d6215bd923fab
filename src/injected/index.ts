// The page runtime's entry: esbuild bundles this file and what it imports into one IIFE
// (page/runtime-source.ts), installed once per document in our isolated world (page/evaluate.ts).
// Mapping rule: each module the Node side calls is exposed under the camelCase of its file name, so
// `foo-bar.ts`'s export `baz` is `rt.fooBar.baz` in a page call (`aria-snapshot.ts` → `rt.ariaSnapshot`).
// A module exports only what the Node side or another module uses; helpers stay private, and what
// the runtime keeps between calls lives in one object (state.ts), never in globals.
// One line per module, sorted: modules are added often, and merges stay trivial.
export * as actionability from './actionability.js';
export * as ariaSnapshot from './aria-snapshot.js';
export * as caret from './caret.js';
export * as choose from './choose.js';
export * as clickProbe from './click-probe.js';
export * as clipboard from './clipboard.js';
export * as closedShadow from './closed-shadow.js';
export * as datePicker from './date-picker.js';
export * as dialogGuard from './dialog-guard.js';
export * as drag from './drag.js';
export * as editorText from './editor-text.js';
export * as effectProbe from './effect-probe.js';
export * as effectWatch from './effect-watch.js';
export * as elementBox from './element-box.js';
export * as elementQuery from './element-query.js';
export * as elementSearch from './element-search.js';
export * as failureContext from './failure-context.js';
export * as formInput from './form-input.js';
export * as formState from './form-state.js';
export * as gridCells from './grid-cells.js';
export * as gridEdit from './grid-edit.js';
export * as hookValue from './hook-value.js';
export * as liveRecorder from './live-recorder.js';
export * as locate from './locate.js';
export * as observe from './observe.js';
export * as overlays from './overlays.js';
export * as pageContext from './page-context.js';
export * as pageReady from './page-ready.js';
export * as pipeline from './pipeline.js';
export * as refBox from './ref-box.js';
export * as refMap from './ref-map.js';
export * as requestLog from './request-log.js';
export * as scrolling from './scrolling.js';
export * as secretValues from './secret-values.js';
export * as inputWork from './input-work.js';
export * as lastLook from './last-look.js';
export * as viewDiff from './view-diff.js';
export * as viewSettle from './view-settle.js';
export * as toggleState from './toggle-state.js';
export * as virtualScan from './virtual-scan.js';
export * as waitCondition from './wait-condition.js';
export * as webStorage from './web-storage.js';

/** What `rt` is in a page call: every module's exports, by module. */
export type PageRuntime = typeof import('./index.js');

// Types the Node side reads (page calls' arguments and answers).
export type { ActionFailure, ActionKind, ActionOutcome } from './actionability.js';
export type { AriaNode, SnapshotOptions } from './aria-snapshot.js';
export type { CaretFound, CaretPosition, CaretRequest } from './caret.js';
export type { FieldInfo, FieldKind, Look, LookRequest, Match, SeenOption } from './choose.js';
export type { ClickEvent, ProbeReport } from './click-probe.js';
export type { ClipboardOutcome } from './clipboard.js';
export type { CalendarLook, DateField, DateSection } from './date-picker.js';
export type { GuardedDialog } from './dialog-guard.js';
export type { DragEnd, DragKind, DragReport } from './drag.js';
export type { EffectReport } from './effect-watch.js';
export type { FailureContextRequest, NearMatch, RefName } from './failure-context.js';
export type { OptionChoice } from './form-input.js';
export type { FormFailure, InvalidField } from './form-state.js';
export type { CellLook, CellQuery, RowSpec } from './grid-cells.js';
export type { Wheel } from './grid-wheel.js';
export type { HookPoll } from './hook-value.js';
export type { LocateFailure, TargetSpec } from './locate.js';
export type { ExtractKind, TextCheck } from './observe.js';
export type { AppearedElement } from './overlays.js';
export type { PipelineFailureReason, PipelineOp, PipelineOutcome, PollOutcome } from './pipeline.js';
export type { Counters } from './ref-map.js';
export type { TimedRequest } from './request-log.js';
export type { ScrollMove } from './scrolling.js';
export type { ToggleState } from './toggle-state.js';
export type { ScanReport } from './virtual-scan.js';
export type { WaitKind } from './wait-condition.js';
export type { StorageKind, StorageOp } from './web-storage.js';
