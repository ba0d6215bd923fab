// Geolocation emulation of one tab (DECISIONS: {latitude, longitude, accuracy?} or false). The
// override lives in the CDP session, so like the viewport it is kept in the tab registry and
// re-applied on every attach, with the permission: Chrome forgets permissions it granted to a
// DevTools client when that client disconnects.

import type { CdpSession, Connection, GeolocationSetting } from '../cdp/index.js';

/** Metres, when the agent gives none: what a phone's GPS reports outdoors. */
export const DEFAULT_ACCURACY_M = 10;

export async function applyGeolocation(session: CdpSession, g: GeolocationSetting): Promise<void> {
  await session.send('Emulation.setGeolocationOverride', {
    latitude: g.latitude,
    longitude: g.longitude,
    accuracy: g.accuracy ?? DEFAULT_ACCURACY_M,
  });
}

/** Lets pages of the tab's browser context read the position without a prompt (headless denies it). */
export async function grantGeolocation(conn: Connection, targetId: string): Promise<void> {
  const { targetInfo } = await conn.browser().send('Target.getTargetInfo', { targetId });
  // One permission, not Browser.grantPermissions: that denies every permission it does not list
  // (the emulate step's grants among them).
  await conn.browser().send('Browser.setPermission', {
    permission: { name: 'geolocation' },
    setting: 'granted',
    ...(targetInfo.browserContextId ? { browserContextId: targetInfo.browserContextId } : {}),
  });
}

export async function clearGeolocation(session: CdpSession): Promise<void> {
  await session.send('Emulation.clearGeolocationOverride');
}
