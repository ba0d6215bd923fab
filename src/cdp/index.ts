// cdp/ — talking to Chrome: discovery, launch, the WebSocket connection and its sessions, and
// the tab registry. Knows nothing above it.
export type { CdpSession, Protocol, EventPayload, CommandName } from './protocol.js';
export { Connection, ProtocolError } from './connection.js';
export {
  isBodyEvicted,
  isBodyMissing,
  isContextDestroyed,
  isCookieRefused,
  isMethodUnavailable,
  isNavigationAborted,
  isNotImplemented,
  isPageRangeInvalid,
  isStaleNode,
  isTargetClosed,
  isTerminated,
  isUnknownContext,
} from './protocol-errors.js';
export { probe, getVersion, isLoopbackHost } from './discovery.js';
export { findChrome, chromeInstallHint } from './chrome-finder.js';
export { ensureLocalChrome, defaultHeadless, chromeArgs } from './launcher.js';
export {
  connectBrowser,
  addressKey,
  entryFor,
  attachToTarget,
  canLaunchAt,
  listPageTargets,
  normaliseAddress,
  resolvedAddress,
} from './browser.js';
export { connectOwnBrowser, ownProfileName } from './own-browser.js';
export { discardNewBrowser, releaseIfLast } from './endpoint-connect.js';
export { gridStatus, type GridStatus } from './grid.js';
export { checkBrowserOutlivesConnection, isLaunchEndpoint } from './lasting-browser.js';
export { closeProfileChrome, namedProfileDir, PROFILE_NAME_FORM } from './profile-chrome.js';
export { asCookieParam } from './cookie-param.js';
export { contextNames, disposeIfEmpty, inContext, CONTEXT_NAME_FORM } from './contexts.js';
export type { BrowserAddress, BrowserConnection } from './browser.js';
export {
  readRegistry,
  loadRegistry,
  updateRegistry,
  registerTab,
  forgetTab,
  forgetTabs,
  patchTab,
  pruneTabs,
  findAlias,
  registryPath,
  entryOf,
  lookupTab,
} from './tab-registry.js';
export type {
  GridSession,
  TabEntry,
  RegistryData,
  ViewportMetrics,
  GeolocationSetting,
  EmulationSetting,
  NetworkThrottle,
  RouteRule,
  OwnBrowserRecord,
} from './tab-registry.js';
export { withLock, acquireLock, type ReleaseLock } from './lock.js';
export { lockTab, tabLockPath } from './tab-lock.js';
export { ALIAS_FORM, TARGET_ID_FORM } from './alias-claims.js';
