// page/ — one tab's state and navigation: lifecycle, network, viewport, evaluation. Uses cdp/
// and injected/ (types; the runtime's source is loaded lazily), not dom/. A Scope (where a step
// acts) is the one seam into the page.
export { Page } from './tab.js';
export { emulationOf } from './attach.js';
export type { Scope, CallOptions } from './scope.js';
export type { DialogAnswer, DialogRecord } from './tab.js';
export type { WaitUntil } from './lifecycle.js';
export { navigate, navigatesInPlace, reload, goHistory } from './navigation.js';
export type { NavigationResult } from './navigation.js';
export { applyViewport, resetViewport, settleViewport } from './viewport.js';
export { resolvePreset, presetNames } from './device-presets.js';
export {
  callIsolated,
  callIsolatedByUniqueId,
  callPageWorld,
  evaluateWithRuntime,
  serializeRemoteObject,
} from './evaluate.js';
export { terminate } from './call-result.js';
export { IsolatedWorlds, WORLD_NAME } from './worlds.js';
export { agentCall, refsDeclaration, withRefsInScope } from './agent-refs.js';
export type { AgentRun } from './agent-refs.js';
export { waitPageReady, READY_MAX_MS } from './ready.js';
export { failedRequests, type FailedRequest } from './network-report.js';
export { listRequests, type ListedRequest, type RequestList } from './network-list.js';
export { requestDetail, type RequestDetail } from './network-detail.js';
export { writeAskedHars, type HarAsked } from './network-har.js';
export { hasFailed, RequestLog, type RequestRecord } from './network-record.js';
export { RouteTable, type RouteRule, type RouteHits } from './network-route.js';
export { RESOURCE_TYPES, type RequestFilter, type StatusFilter } from './network-match.js';
export { isSecretHeader } from './network-redact.js';
export type { EvalTarget, EvaluateOptions } from './evaluate.js';
export type { FrameInfo, FrameTarget } from './frames.js';
export { getCookies, setCookies, clearCookies } from './cookies.js';
export type { CookieSpec, CookieView, CookieFilter, SameSite } from './cookies.js';
export { applyGeolocation, grantGeolocation, clearGeolocation } from './geolocation.js';
export { applyEmulation, NETWORK_PRESETS, permissionNames } from './emulation.js';
export { readClipboard, writeClipboard, MAX_CLIPBOARD_CHARS } from './clipboard.js';
export { DownloadWatch } from './downloads.js';
export type { DownloadReport } from './downloads.js';
export { countsOf, readState, restoreState } from './saved-state.js';
export type { SavedState, StateCounts } from './saved-state.js';
