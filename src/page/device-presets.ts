// Named device presets for the `viewport` step (SPEC §18.5): CSS-pixel viewport, scale factor and
// mobile/touch flags per device. Applying them (Emulation.setDeviceMetricsOverride) is viewport.ts's job.

import type { ViewportMetrics } from '../cdp/index.js';

export type { ViewportMetrics };

type Metrics = [width: number, height: number, deviceScaleFactor: number];

// Widths and heights are the devices' screens in CSS pixels (physical pixels / scale factor).
const PHONES_AND_TABLETS: Record<string, Metrics> = {
  // The SE (2nd/3rd gen) is the one 2x iPhone left; every other iPhone here is 3x.
  'iphone-se': [375, 667, 2],
  'iphone-12-mini': [375, 812, 3],
  'iphone-12': [390, 844, 3],
  'iphone-12-pro': [390, 844, 3],
  'iphone-12-pro-max': [428, 926, 3],
  'iphone-13-mini': [375, 812, 3],
  'iphone-13': [390, 844, 3],
  'iphone-13-pro': [390, 844, 3],
  'iphone-13-pro-max': [428, 926, 3],
  'iphone-14': [390, 844, 3],
  'iphone-14-plus': [428, 926, 3],
  'iphone-14-pro': [393, 852, 3],
  'iphone-14-pro-max': [430, 932, 3],
  'iphone-15': [393, 852, 3],
  'iphone-15-plus': [430, 932, 3],
  'iphone-15-pro': [393, 852, 3],
  'iphone-15-pro-max': [430, 932, 3],
  'ipad-mini': [768, 1024, 2], // iPad mini 5; the 8.3" mini 6 is 744 wide, below the spec's range.
  ipad: [810, 1080, 2], // 10.2" iPad (9th gen)
  'ipad-air': [820, 1180, 2],
  'ipad-pro-11': [834, 1194, 2],
  'ipad-pro-12-9': [1024, 1366, 2],
  'pixel-5': [393, 851, 2.75],
  'pixel-6': [412, 915, 2.625],
  'pixel-7': [412, 915, 2.625],
  'pixel-7-pro': [412, 892, 3.5],
  'pixel-8': [412, 915, 2.625],
  'galaxy-s21': [360, 800, 3],
  'galaxy-s22': [360, 780, 3],
  'galaxy-s23': [360, 780, 3],
  'galaxy-s23-ultra': [384, 824, 3.75],
  'galaxy-tab-s7': [800, 1280, 2],
};

// "HD" is the 1366x768 class of cheap laptops and office screens; plain `desktop` is Full HD, the
// most common desktop screen. Laptops at Windows' default 125% zoom report 1536x864 CSS pixels.
// MacBooks use their default "looks like" resolutions.
const DESKTOPS: Record<string, Metrics> = {
  desktop: [1920, 1080, 1],
  'desktop-hd': [1366, 768, 1],
  'desktop-qhd': [2560, 1440, 1],
  'desktop-4k': [3840, 2160, 1],
  laptop: [1536, 864, 1.25],
  'macbook-air': [1440, 900, 2], // 13" (M1); the 13.6" M2 is 1470x956
  'macbook-pro-14': [1512, 982, 2],
  'macbook-pro-16': [1728, 1117, 2],
};

/** Phones and tablets that also come as `<name>-landscape`, width and height swapped. */
const LANDSCAPE_TWINS = [
  'iphone-se',
  'iphone-12',
  'iphone-13',
  'iphone-14',
  'iphone-14-pro',
  'iphone-14-pro-max',
  'iphone-15',
  'iphone-15-pro',
  'iphone-15-pro-max',
  'ipad',
  'ipad-mini',
  'ipad-air',
  'ipad-pro-11',
  'ipad-pro-12-9',
  'pixel-7',
  'galaxy-s23',
  'galaxy-tab-s7',
];

let presets: Map<string, ViewportMetrics> | undefined;

function presetTable(): Map<string, ViewportMetrics> {
  if (presets) return presets;
  presets = new Map();
  for (const [name, [width, height, deviceScaleFactor]] of Object.entries(PHONES_AND_TABLETS))
    presets.set(name, { width, height, deviceScaleFactor, mobile: true, hasTouch: true });
  for (const [name, [width, height, deviceScaleFactor]] of Object.entries(DESKTOPS))
    presets.set(name, { width, height, deviceScaleFactor, mobile: false, hasTouch: false });
  for (const name of LANDSCAPE_TWINS) {
    const portrait = presets.get(name);
    if (!portrait) throw new Error(`Landscape twin of unknown preset "${name}"`);
    presets.set(`${name}-landscape`, {
      ...portrait,
      width: portrait.height,
      height: portrait.width,
      isLandscape: true,
    });
  }
  return presets;
}

/**
 * "iPhone 14 Pro", "iphone_14_pro" and " IPHONE-14-PRO " all name `iphone-14-pro`; dots become
 * hyphens too, so "ipad-pro-12.9" is `ipad-pro-12-9`.
 */
export function normalizePresetName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s_.]+/g, '-')
    .replace(/-+/g, '-');
}

/** The preset's metrics (a fresh copy), or undefined for an unknown name. */
export function resolvePreset(name: string): ViewportMetrics | undefined {
  const preset = presetTable().get(normalizePresetName(name));
  return preset ? { ...preset } : undefined;
}

/** Every preset name, grouped by category (iPhones, iPads, Android, desktops, landscape twins). */
export function presetNames(): string[] {
  return [...presetTable().keys()];
}
