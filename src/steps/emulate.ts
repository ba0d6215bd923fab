// The emulate step: dark mode, print media, offline or a slow network, a slower CPU, another time
// zone, locale, user agent or granted permissions — kept with the tab like the viewport (re-applied
// at every attach) until {"emulate": "reset"}. Each key is checked here, before anything runs.

import { patchTab, type EmulationSetting, type NetworkThrottle } from '../cdp/index.js';
import { applyEmulation, NETWORK_PRESETS, permissionNames, type Scope } from '../page/index.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { describe, isObj, obj, optNumber, ParamError } from './params.js';

/** Keys given as null (offline: false) are cleared; the rest replace what was set. */
type Key = Exclude<keyof EmulationSetting, 'browserContextId'>;
type EmulatePatch = { [K in Key]?: EmulationSetting[K] | null };
type EmulateParams = { reset: true } | { patch: EmulatePatch };

const EMULATE_PARAMS: ParamSchema = {
  forms: ['"reset"'],
  keys: {
    colorScheme: 'dark|light',
    reducedMotion: '-',
    media: 'print',
    offline: '',
    network: 'slow-3g|…',
    cpu: '',
    timezone: '',
    locale: '',
    userAgent: '-',
    permissions: '[…]',
  },
  returns: 'in force',
  note: 'null clears',
};

function oneOf<T extends string>(key: string, v: unknown, values: readonly T[]): T {
  if (typeof v === 'string' && values.includes(v as T)) return v as T;
  throw new ParamError(
    `"${key}" must be one of ${values.join(', ')} (or null to clear), got ${describe(v)}`,
    undefined,
    values,
  );
}

function readNetwork(v: unknown): NetworkThrottle {
  if (typeof v === 'string') {
    const preset = NETWORK_PRESETS[v as keyof typeof NETWORK_PRESETS];
    if (!preset) oneOf('network', v, Object.keys(NETWORK_PRESETS));
    return { ...preset! };
  }
  if (!isObj(v))
    throw new ParamError(`"network" must be "slow-3g", "fast-3g" or {latency, download, upload}, got ${describe(v)}`);
  const o = obj(v, ['latency', 'download', 'upload'], 'network');
  const latency = optNumber(o, 'latency', { min: 0, max: 60_000 }) ?? 0;
  const download = optNumber(o, 'download', { min: 1, max: 10_000_000 });
  const upload = optNumber(o, 'upload', { min: 1, max: 10_000_000 });
  if (download === undefined || upload === undefined)
    throw new ParamError('"network" needs "download" and "upload" in kilobits per second (and "latency" in ms)');
  return { latency, download, upload };
}

/** An IANA zone Node's ICU knows (Chrome's is the same data), spelled as ICU spells it. */
function readTimezone(v: unknown): string {
  if (typeof v !== 'string' || !v)
    throw new ParamError(`"timezone" must be an IANA zone such as "Europe/Paris", got ${describe(v)}`);
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: v }).resolvedOptions().timeZone;
  } catch {
    throw new ParamError(
      `unknown time zone ${describe(v)}: give an IANA zone such as "Europe/Paris", "America/New_York" or "UTC"`,
    );
  }
}

/** A BCP 47 locale with data (fr-FR, pt-BR, de). */
function readLocale(v: unknown): string {
  if (typeof v !== 'string' || !v)
    throw new ParamError(`"locale" must be a BCP 47 tag such as "fr-FR", got ${describe(v)}`);
  let tag: string | undefined;
  try {
    tag = Intl.getCanonicalLocales(v)[0];
  } catch {
    tag = undefined;
  }
  if (!tag || Intl.DateTimeFormat.supportedLocalesOf([tag]).length === 0) {
    const hint = v.includes('_') ? ` (did you mean "${v.replace(/_/g, '-')}"?)` : '';
    throw new ParamError(`unknown locale ${describe(v)}${hint}: give a BCP 47 tag such as "fr-FR", "en-GB" or "ja"`);
  }
  return tag;
}

function readPermissions(v: unknown): string[] {
  const known = permissionNames();
  if (!Array.isArray(v))
    throw new ParamError(`"permissions" must be a list such as ["geolocation", "notifications"], got ${describe(v)}`);
  for (const p of v)
    if (typeof p !== 'string' || !known.includes(p))
      throw new ParamError(
        `unknown permission ${describe(p)} (known: ${known.join(', ')})`,
        typeof p === 'string' ? p : undefined,
        known,
      );
  return [...new Set(v as string[])];
}

/** Each key's reader; null clears it. */
const READERS: { [K in Key]: (v: unknown) => NonNullable<EmulationSetting[K]> } = {
  colorScheme: (v) => oneOf('colorScheme', v, ['dark', 'light'] as const),
  reducedMotion: (v) => oneOf('reducedMotion', v, ['reduce', 'no-preference'] as const),
  media: (v) => oneOf('media', v, ['print', 'screen'] as const),
  offline: (v) => {
    if (v !== true) throw new ParamError(`"offline" must be true (or false to go back online), got ${describe(v)}`);
    return true;
  },
  network: readNetwork,
  cpu: (v) => optNumber({ cpu: v }, 'cpu', { min: 1, max: 100 })!,
  timezone: readTimezone,
  locale: readLocale,
  userAgent: (v) => {
    if (typeof v !== 'string' || !v.trim() || v.length > 1000)
      throw new ParamError(`"userAgent" must be a non-empty string of at most 1000 characters, got ${describe(v)}`);
    return v;
  },
  permissions: readPermissions,
};

function parsePatch(v: unknown): EmulatePatch {
  const o = obj(v, keysOf(EMULATE_PARAMS), 'emulate');
  if (!Object.keys(o).length)
    throw new ParamError(`emulate needs at least one of ${keysOf(EMULATE_PARAMS).join(', ')}, or "reset"`);
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(o)) {
    const clear = value === null || (key === 'offline' && value === false) || (key === 'cpu' && value === 1);
    patch[key] = clear ? null : READERS[key as Key](value);
  }
  return patch as EmulatePatch;
}

/** What was in force, with the patch laid over it (null keys dropped). */
export function mergeEmulation(was: EmulationSetting, patch: EmulatePatch): EmulationSetting {
  const out: Record<string, unknown> = { ...was };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || (Array.isArray(v) && v.length === 0)) delete out[k];
    else out[k] = v;
  }
  return out as EmulationSetting;
}

/** The setting as the answer tells it: a preset by its name, no internal ids. */
function inForce(e: EmulationSetting): Record<string, unknown> {
  const { browserContextId: _, network, ...rest } = e;
  return { ...rest, ...(network ? { network: network.preset ?? network } : {}) };
}

defineStep<EmulateParams>({
  name: 'emulate',
  verb: 'Emulated',
  supporting: true,
  summary: 'Emulate dark mode, print, offline, slow network/CPU, zone, locale, permissions; stays with the tab',
  params: EMULATE_PARAMS,
  needsTab: true,
  readOnly: false,
  parse(v) {
    if (v === 'reset') return { reset: true };
    if (!isObj(v)) throw new ParamError(`emulate must be an object of settings or "reset", got ${describe(v)}`);
    return { patch: parsePatch(v) };
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const { page } = tab;
    const was = tab.entry.emulation ?? {};
    const now = 'reset' in p ? {} : mergeEmulation(was, p.patch);
    if (now.permissions?.length && !now.browserContextId) {
      const { targetInfo } = await page.guard(
        tab.conn.browser().send('Target.getTargetInfo', { targetId: page.targetId }),
      );
      if (targetInfo.browserContextId) now.browserContextId = targetInfo.browserContextId;
    }
    if (!now.permissions?.length) delete now.browserContextId;
    // A colour scheme the page has no styles for changes nothing in its DOM or its colours: say so.
    const schemeChanged = now.colorScheme !== undefined && now.colorScheme !== was.colorScheme;
    const before = schemeChanged ? await pageColours(ctx.scope.at(undefined)) : undefined;
    await page.guard(
      ctx.deadline.race(applyEmulation(tab.conn, page.session, now, was), 'Chrome to apply the emulation'),
    );
    const stored = Object.keys(now).length ? now : undefined;
    await patchTab(tab.alias, { emulation: stored });
    tab.entry.emulation = stored;
    const unstyled = before !== undefined && before === (await pageColours(ctx.scope.at(undefined)));
    return {
      ...('reset' in p ? { reset: true } : inForce(now)),
      ...(unstyled
        ? {
            warnings: [
              `the page's background and text colours did not change with colorScheme ${now.colorScheme}: it may have no styles for it`,
            ],
          }
        : {}),
    };
  },
});

/** The page's background and text colours, as its styles resolve them now. */
function pageColours(top: Scope): Promise<string> {
  return top.call(
    () => {
      const of = (el: Element | null) =>
        el ? `${getComputedStyle(el).backgroundColor} ${getComputedStyle(el).color}` : '';
      return `${of(document.documentElement)}|${of(document.body)}`;
    },
    undefined,
    { what: "the page's colours" },
  );
}
