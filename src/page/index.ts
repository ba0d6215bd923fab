// page/ — one tab's state and navigation: lifecycle, network, viewport, evaluation. Uses cdp/
// and injected/ (types, and the runtime source loaded lazily), not dom/.
export { Page } from './tab.js';
export type { DialogAnswer, DialogRecord } from './tab.js';
export type { WaitUntil } from './lifecycle.js';
export { navigate, navigatesInPlace, reload, goHistory } from './navigation.js';
export type { NavigationResult } from './navigation.js';
export { applyViewport, resetViewport } from './viewport.js';
export { resolvePreset, presetNames } from './device-presets.js';
export { waitPageReady, READY_MAX_MS } from './ready.js';
export { evaluateIn, evaluateInPage, evaluateWithRuntime, terminate, serializeRemoteObject, heldElementObjectId } from './evaluate.js';
export type { FailedRequest } from './network-idle.js';
export type { EvalTarget } from './evaluate.js';
export type { FrameInfo, FrameTarget } from './frames.js';
export { getCookies, setCookies, clearCookies } from './cookies.js';
export type { CookieSpec, CookieView, CookieFilter, SameSite } from './cookies.js';
export { applyGeolocation, grantGeolocation, clearGeolocation } from './geolocation.js';
