// Device emulation of one tab. It lives in the CDP session, so the tab registry keeps it and
// Page.open re-applies it on every attach (DECISIONS: viewport persists per tab until reset).

import type { CdpSession, ViewportMetrics } from '../cdp/index.js';
import type { Scope } from './scope.js';

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

/** Quiet after the page's last size change before its size counts as the one it keeps. */
const SETTLE_QUIET_MS = 100;
/** The most a settle waits, within the step's deadline: a page resized on a timer never goes quiet. */
const SETTLE_MAX_MS = 1_000;

/**
 * Waits until the page shows the size the emulation gave it. Chrome answers a metrics change
 * before the browser's own resize reaches the page: measured on Chromium 156, a clear shows the
 * page the last size the browser had sent it (390×844 after a phone preset) and its real size some
 * 20 ms later, and a new override may flicker back to an older size the same way. So the page's
 * size is read until it has not changed for SETTLE_QUIET_MS; whether it settled is returned.
 */
export function settleViewport(top: Scope): Promise<boolean> {
  return top.call(
    (_rt, { quietMs, maxMs }) =>
      new Promise<boolean>((resolve) => {
        const size = (): string => `${innerWidth}x${innerHeight}@${devicePixelRatio}`;
        const start = performance.now();
        let last = size();
        let changedAt = start;
        const tick = (): void => {
          const now = performance.now();
          if (size() !== last) {
            last = size();
            changedAt = now;
          }
          if (now - changedAt >= quietMs) resolve(true);
          else if (now - start >= maxMs) resolve(false);
          else setTimeout(tick, 10);
        };
        tick();
      }),
    { quietMs: SETTLE_QUIET_MS, maxMs: SETTLE_MAX_MS },
    { what: 'the page to take its new size' },
  );
}
