// page/ — one tab's state and navigation: lifecycle, network, viewport, evaluation. Uses cdp/
// and injected/ (types; the runtime's source is loaded lazily), not dom/. Page.call is the one seam into the page.
export { Page } from './tab.js';
export type { DialogAnswer, DialogRecord } from './tab.js';
export type { WaitUntil } from './lifecycle.js';
export { navigate, navigatesInPlace, reload, goHistory } from './navigation.js';
export type { NavigationResult } from './navigation.js';
export { applyViewport, resetViewport } from './viewport.js';
export { resolvePreset, presetNames } from './device-presets.js';
export {
  callIsolated,
  callIsolatedByUniqueId,
  callPageWorld,
  evaluateWithRuntime,
  terminate,
  serializeRemoteObject,
} from './evaluate.js';
export { IsolatedWorlds, WORLD_NAME } from './worlds.js';
export { callSeeingClosedRoots, revealClosedRoots } from './closed-shadow.js';
export { RUNTIME_GLOBAL } from './runtime-global.js';
export { refsDeclaration } from './agent-refs.js';
export { waitPageReady, READY_MAX_MS } from './ready.js';
export type { FailedRequest } from './network-idle.js';
export type { EvalTarget, EvaluateOptions } from './evaluate.js';
export type { FrameInfo, FrameTarget } from './frames.js';
export { getCookies, setCookies, clearCookies } from './cookies.js';
export type { CookieSpec, CookieView, CookieFilter, SameSite } from './cookies.js';
export { applyGeolocation, grantGeolocation, clearGeolocation } from './geolocation.js';
export { DownloadWatch } from './downloads.js';
export type { DownloadReport } from './downloads.js';
export { countsOf, readState, restoreState } from './saved-state.js';
export type { SavedState, StateCounts } from './saved-state.js';
