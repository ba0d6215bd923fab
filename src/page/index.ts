// page/ — one tab's state and navigation: lifecycle, network, viewport, evaluation. Uses cdp/
// and injected/ (types; the runtime's source is loaded lazily), not dom/. A Scope (where a step
// acts) is the one seam into the page.
export { Page } from './tab.js';
export type { Scope, CallOptions } from './scope.js';
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
  serializeRemoteObject,
} from './evaluate.js';
export { terminate } from './call-result.js';
export { IsolatedWorlds, WORLD_NAME } from './worlds.js';
export { agentCall, refsDeclaration, withRefsInScope } from './agent-refs.js';
export type { AgentRun } from './agent-refs.js';
export { waitPageReady, READY_MAX_MS } from './ready.js';
export type { FailedRequest } from './network-idle.js';
export type { EvalTarget, EvaluateOptions } from './evaluate.js';
export type { FrameInfo, FrameTarget } from './frames.js';
export { getCookies, setCookies, clearCookies } from './cookies.js';
export type { CookieSpec, CookieView, CookieFilter, SameSite } from './cookies.js';
export { applyGeolocation, grantGeolocation, clearGeolocation } from './geolocation.js';
