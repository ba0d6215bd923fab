// The emulate step's settings put in force on one tab: media features, network conditions, CPU,
// time zone, locale, user agent and permissions. Each lives in the CDP session (permissions with
// the client) and ends with it, so the registry keeps the setting and attach re-applies it.

import type { CdpSession, Connection, EmulationSetting, NetworkThrottle, Protocol } from '../cdp/index.js';

/** Chrome DevTools' throttling presets (latency ms, kilobits per second). */
export const NETWORK_PRESETS: Record<'slow-3g' | 'fast-3g', NetworkThrottle> = {
  'slow-3g': { preset: 'slow-3g', latency: 2000, download: 400, upload: 400 },
  'fast-3g': { preset: 'fast-3g', latency: 563, download: 1440, upload: 675 },
};

/** Permissions a page can be granted, by their Permissions API names (descriptor extras where Chrome needs them). */
const PERMISSION_EXTRAS: Record<string, Partial<Protocol.Browser.PermissionDescriptor>> = {
  geolocation: {},
  notifications: {},
  camera: {},
  microphone: {},
  'clipboard-read': {},
  'clipboard-write': {},
  midi: {},
  'background-sync': {},
  'background-fetch': {},
  'periodic-background-sync': {},
  'persistent-storage': {},
  push: { userVisibleOnly: true },
  'screen-wake-lock': {},
  'storage-access': {},
  'local-fonts': {},
  'idle-detection': {},
  accelerometer: {},
  gyroscope: {},
  magnetometer: {},
  'ambient-light-sensor': {},
  'payment-handler': {},
  'window-management': {},
  'display-capture': {},
  nfc: {},
  'speaker-selection': {},
  'keyboard-lock': {},
  'pointer-lock': {},
  fullscreen: { allowWithoutGesture: true },
};

export function permissionNames(): string[] {
  return Object.keys(PERMISSION_EXTRAS);
}

/** Bytes per second, as CDP takes throughput, from kilobits per second. */
const bytesPerSecond = (kbps: number): number => Math.round((kbps * 1000) / 8);

function hasMedia(e: EmulationSetting): boolean {
  return !!(e.colorScheme || e.reducedMotion || e.media);
}

function mediaParams(e: EmulationSetting): Protocol.Emulation.SetEmulatedMediaRequest {
  const features: Protocol.Emulation.MediaFeature[] = [];
  if (e.colorScheme) features.push({ name: 'prefers-color-scheme', value: e.colorScheme });
  if (e.reducedMotion) features.push({ name: 'prefers-reduced-motion', value: e.reducedMotion });
  return { media: e.media ?? '', features };
}

/**
 * Requests fail offline or are throttled (emulateNetworkConditionsByRule), and the page's
 * navigator.onLine / navigator.connection say so, firing `offline` / `online` (overrideNetworkState):
 * Chrome keeps the two apart.
 */
function networkCommands(session: CdpSession, e: EmulationSetting): Promise<unknown>[] {
  const n = e.network;
  const conditions = {
    offline: e.offline === true,
    latency: n?.latency ?? 0,
    downloadThroughput: n ? bytesPerSecond(n.download) : -1,
    uploadThroughput: n ? bytesPerSecond(n.upload) : -1,
  };
  const shaped = conditions.offline || n !== undefined;
  return [
    session.send('Network.emulateNetworkConditionsByRule', {
      matchedNetworkConditions: shaped ? [{ urlPattern: '', ...conditions }] : [],
    }),
    session.send('Network.overrideNetworkState', conditions),
  ];
}

function permissionCommands(conn: Connection, e: EmulationSetting, was: EmulationSetting): Promise<unknown>[] {
  const now = e.permissions ?? [];
  const gone = (was.permissions ?? []).filter((p) => !now.includes(p));
  const context = e.browserContextId ?? was.browserContextId;
  const set = (name: string, setting: Protocol.Browser.PermissionSetting) =>
    conn.browser().send('Browser.setPermission', {
      permission: { name, ...PERMISSION_EXTRAS[name] },
      setting,
      ...(context ? { browserContextId: context } : {}),
    });
  // One permission at a time: Browser.grantPermissions would deny every permission it does not list.
  return [...now.map((p) => set(p, 'granted')), ...gone.map((p) => set(p, 'prompt'))];
}

/**
 * Sends what puts `e` in force, all at once (attach sends it with the domain enables), and clears
 * what `was` set that `e` no longer does. Resolves when Chrome has taken every command.
 */
export function applyEmulation(
  conn: Connection,
  session: CdpSession,
  e: EmulationSetting,
  was: EmulationSetting = {},
): Promise<unknown> {
  const sends: Promise<unknown>[] = [];
  const either = (k: keyof EmulationSetting): boolean => e[k] !== undefined || was[k] !== undefined;
  if (hasMedia(e) || hasMedia(was)) sends.push(session.send('Emulation.setEmulatedMedia', mediaParams(e)));
  if (either('offline') || either('network')) sends.push(...networkCommands(session, e));
  if (either('cpu')) sends.push(session.send('Emulation.setCPUThrottlingRate', { rate: e.cpu ?? 1 }));
  if (either('timezone')) sends.push(session.send('Emulation.setTimezoneOverride', { timezoneId: e.timezone ?? '' }));
  if (either('locale')) sends.push(session.send('Emulation.setLocaleOverride', e.locale ? { locale: e.locale } : {}));
  // navigator.language(s) and the Accept-Language header follow the locale; '' keeps Chrome's own agent.
  if (either('locale') || either('userAgent'))
    sends.push(
      session.send('Emulation.setUserAgentOverride', {
        userAgent: e.userAgent ?? '',
        ...(e.locale ? { acceptLanguage: e.locale } : {}),
      }),
    );
  if (either('permissions')) sends.push(...permissionCommands(conn, e, was));
  return Promise.all(sends);
}
