import { describe, it, expect } from 'vitest';
import { normalizePresetName, presetNames, resolvePreset } from '../../src/page/device-presets.js';

const names = presetNames();

function categoryOf(name: string): 'iphone' | 'ipad' | 'android-phone' | 'android-tablet' | 'desktop' {
  if (name.startsWith('iphone-')) return 'iphone';
  if (name.startsWith('ipad')) return 'ipad';
  if (name.startsWith('galaxy-tab-')) return 'android-tablet';
  if (name.startsWith('pixel-') || name.startsWith('galaxy-')) return 'android-phone';
  if (/^(desktop|laptop|macbook)/.test(name)) return 'desktop';
  throw new Error(`No category for preset ${name}`);
}

describe('device presets', () => {
  it('offers at least 40 uniquely named presets', () => {
    expect(names.length).toBeGreaterThanOrEqual(40);
    expect(new Set(names).size).toBe(names.length);
  });

  it('includes every device the spec names', () => {
    const required = [
      'iphone-se',
      'iphone-12',
      'iphone-12-pro',
      'iphone-12-pro-max',
      'iphone-13',
      'iphone-13-mini',
      'iphone-13-pro',
      'iphone-13-pro-max',
      'iphone-14',
      'iphone-14-plus',
      'iphone-14-pro',
      'iphone-14-pro-max',
      'iphone-15',
      'iphone-15-plus',
      'iphone-15-pro',
      'iphone-15-pro-max',
      'ipad',
      'ipad-mini',
      'ipad-air',
      'ipad-pro-11',
      'ipad-pro-12-9',
      'pixel-5',
      'pixel-6',
      'pixel-7',
      'pixel-7-pro',
      'galaxy-s21',
      'galaxy-s22',
      'galaxy-s23',
      'galaxy-s23-ultra',
      'galaxy-tab-s7',
      'desktop',
      'desktop-hd',
      'desktop-4k',
      'laptop',
      'macbook-air',
      'macbook-pro-14',
      'macbook-pro-16',
    ];
    for (const name of required) expect(names, name).toContain(name);
  });

  it('lists only names that are already normalised', () => {
    for (const name of names) expect(normalizePresetName(name)).toBe(name);
  });

  it('resolves names case-insensitively, with underscores, spaces and dots as hyphens', () => {
    const expected = resolvePreset('iphone-14-pro');
    expect(expected).toEqual({ width: 393, height: 852, deviceScaleFactor: 3, mobile: true, hasTouch: true });
    for (const alias of ['iPhone-14-Pro', 'IPHONE_14_PRO', 'iphone 14 pro', '  iPhone 14 Pro  ', 'iphone__14 _pro'])
      expect(resolvePreset(alias), alias).toEqual(expected);
    expect(resolvePreset('iPad Pro 12.9')).toEqual(resolvePreset('ipad-pro-12-9'));
    expect(resolvePreset('ipad-pro-12.9')).toEqual(resolvePreset('ipad-pro-12-9'));
    expect(resolvePreset('Galaxy_Tab_S7 landscape')?.isLandscape).toBe(true);
  });

  it('returns undefined for an unknown name', () => {
    expect(resolvePreset('nokia-3310')).toBeUndefined();
    expect(resolvePreset('')).toBeUndefined();
  });

  it('hands out copies, so a caller cannot change the table', () => {
    const first = resolvePreset('desktop');
    if (first) first.width = 1;
    expect(resolvePreset('desktop')?.width).toBe(1920);
  });

  it('swaps width and height for every -landscape preset and keeps the rest of its portrait twin', () => {
    const landscapes = names.filter((name) => name.endsWith('-landscape'));
    expect(landscapes.length).toBeGreaterThanOrEqual(10);
    for (const name of landscapes) {
      const landscape = resolvePreset(name);
      const portrait = resolvePreset(name.slice(0, -'-landscape'.length));
      expect(portrait, name).toBeDefined();
      expect(landscape, name).toEqual({
        ...portrait,
        width: portrait?.height,
        height: portrait?.width,
        isLandscape: true,
      });
      expect(portrait?.isLandscape, name).toBeFalsy();
      expect(portrait!.height, name).toBeGreaterThan(portrait!.width);
    }
  });

  it('offers landscape twins for the main phones and tablets', () => {
    for (const name of [
      'iphone-15-pro',
      'iphone-se',
      'pixel-7',
      'galaxy-s23',
      'ipad',
      'ipad-pro-12-9',
      'galaxy-tab-s7',
    ])
      expect(names).toContain(`${name}-landscape`);
  });

  it('sets mobile and touch for phones and tablets but not for desktops', () => {
    for (const name of names) {
      const preset = resolvePreset(name)!;
      const isDesktop = categoryOf(name) === 'desktop';
      expect(preset.mobile, name).toBe(!isDesktop);
      expect(preset.hasTouch, name).toBe(!isDesktop);
    }
  });

  it("keeps portrait widths and scale factors in each category's range (SPEC §18.5)", () => {
    const ranges = {
      iphone: { width: [375, 430], scale: [2, 3] },
      ipad: { width: [768, 1024], scale: [2, 2] },
      'android-phone': { width: [360, 412], scale: [2, 4] },
      'android-tablet': { width: [800, 800], scale: [2, 2] },
      desktop: { width: [1366, 3840], scale: [1, 2] },
    } as const;
    for (const name of names.filter((n) => !n.endsWith('-landscape'))) {
      const preset = resolvePreset(name)!;
      const range = ranges[categoryOf(name)];
      expect(preset.width, name).toBeGreaterThanOrEqual(range.width[0]);
      expect(preset.width, name).toBeLessThanOrEqual(range.width[1]);
      expect(preset.deviceScaleFactor, name).toBeGreaterThanOrEqual(range.scale[0]);
      expect(preset.deviceScaleFactor, name).toBeLessThanOrEqual(range.scale[1]);
      expect(Number.isInteger(preset.width) && Number.isInteger(preset.height), name).toBe(true);
    }
  });
});
