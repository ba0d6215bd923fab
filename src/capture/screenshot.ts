// Screenshots: viewport, full page (≤ 16384 px a side), clip, or one element with padding;
// PNG, JPEG or WebP. Every capture is bounded: a tab that does not paint cannot stall a command.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { MAX_SCREENSHOT_SIDE_PX, StepValidationError, ElementNotFoundError, type Deadline } from '../common/index.js';
import type { CdpSession, Protocol } from '../cdp/index.js';
import { imageSize } from './image-size.js';
import type { PageRuntime } from '../injected/index.js';

export type ImageFormat = 'png' | 'jpeg' | 'webp';

export interface ScreenshotOptions {
  path: string;
  format: ImageFormat;
  quality?: number;
  fullPage?: boolean;
  selector?: string;
  padding?: number;
  clip?: { x: number; y: number; width: number; height: number };
  omitBackground?: boolean;
}

export interface ScreenshotResult {
  path: string;
  width: number;
  height: number;
  format: ImageFormat;
  bytes: number;
}

/** How capture code evaluates in the page; page/ provides it (capture/ does not import page/). */
export type RuntimeCall = <A, R>(fn: (rt: PageRuntime, arg: A) => R, arg: A) => Promise<Awaited<R>>;

type Clip = { x: number; y: number; width: number; height: number };

async function clipFor(options: ScreenshotOptions, call: RuntimeCall): Promise<Clip | undefined> {
  if (options.clip) return options.clip;
  if (options.selector) {
    const box = await call((rt, sel) => rt.elementBox.elementBox(sel), options.selector);
    if (!box.ok) {
      if (box.reason === 'invalid-selector')
        throw new StepValidationError(`Invalid CSS selector "${options.selector}": ${box.message}`);
      if (box.reason === 'not-found')
        throw new ElementNotFoundError(`No element matches "${options.selector}" to screenshot`);
      throw new ElementNotFoundError(`Element "${options.selector}" has an empty box (hidden?) and cannot be captured`);
    }
    const pad = options.padding ?? 0;
    return {
      x: Math.max(0, box.x - pad),
      y: Math.max(0, box.y - pad),
      width: box.width + 2 * pad,
      height: box.height + 2 * pad,
    };
  }
  if (options.fullPage) {
    const size = await call((rt) => rt.elementBox.documentSize(), undefined);
    if (size.width > MAX_SCREENSHOT_SIDE_PX || size.height > MAX_SCREENSHOT_SIDE_PX) {
      throw new StepValidationError(
        `The page is ${size.width}x${size.height}px; a full-page screenshot is limited to ${MAX_SCREENSHOT_SIDE_PX}px a side. Capture the viewport, or a region with {"clip": {...}}.`,
      );
    }
    return { x: 0, y: 0, width: size.width, height: size.height };
  }
  return undefined;
}

export async function captureScreenshot(
  session: CdpSession,
  options: ScreenshotOptions,
  deadline: Deadline,
  call: RuntimeCall,
): Promise<ScreenshotResult> {
  const clip = await deadline.race(clipFor(options, call), 'the screenshot area');
  const params: Protocol.Page.CaptureScreenshotRequest = {
    format: options.format,
    fromSurface: true,
    optimizeForSpeed: true,
  };
  if (options.quality !== undefined && options.format !== 'png') params.quality = options.quality;
  if (clip) {
    params.clip = { ...clip, scale: 1 };
    params.captureBeyondViewport = true;
  }
  if (options.omitBackground) {
    await session.send('Emulation.setDefaultBackgroundColorOverride', { color: { r: 0, g: 0, b: 0, a: 0 } });
  }
  let data: string;
  try {
    const capture = session.sendWith('Page.captureScreenshot', params, { timeoutMs: deadline.remainingMs() + 1_000 });
    ({ data } = await deadline.race(capture, 'the screenshot'));
  } finally {
    if (options.omitBackground) {
      await session.send('Emulation.setDefaultBackgroundColorOverride', {}).catch(() => {
        /* the tab is gone; nothing to restore */
      });
    }
  }
  const buffer = Buffer.from(data, 'base64');
  const path = resolve(options.path);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, buffer);
  // The file's own pixels: a device pixel ratio or a phone's layout width makes them differ from CSS pixels.
  const size =
    imageSize(buffer) ??
    clip ??
    (await deadline.race(
      call(() => ({ width: window.innerWidth, height: window.innerHeight }), undefined),
      'the viewport size',
    ));
  return {
    path,
    width: Math.round(size.width),
    height: Math.round(size.height),
    format: options.format,
    bytes: buffer.length,
  };
}
