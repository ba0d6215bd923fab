// Device emulation of one tab. It lives in the CDP session, so the tab registry keeps it and
// Page.open re-applies it on every attach (DECISIONS: viewport persists per tab until reset).

import type { CdpSession, ViewportMetrics } from '../cdp/index.js';

export async function applyViewport(session: CdpSession, m: ViewportMetrics): Promise<void> {
  await Promise.all([
    session.send('Emulation.setDeviceMetricsOverride', {
      width: m.width,
      height: m.height,
      deviceScaleFactor: m.deviceScaleFactor,
      mobile: m.mobile,
      screenOrientation: m.isLandscape
        ? { type: 'landscapePrimary', angle: 90 }
        : { type: 'portraitPrimary', angle: 0 },
    }),
    session.send('Emulation.setTouchEmulationEnabled', { enabled: m.hasTouch, maxTouchPoints: m.hasTouch ? 5 : 1 }),
  ]);
}

export async function resetViewport(session: CdpSession): Promise<void> {
  await Promise.all([
    session.send('Emulation.clearDeviceMetricsOverride'),
    session.send('Emulation.setTouchEmulationEnabled', { enabled: false }),
  ]);
}
