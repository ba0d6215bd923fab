// localStorage / sessionStorage of the document the steps run in (the chosen frame's origin):
// read, write (read back to confirm), remove, clear. Runs in the page.

export type StorageKind = 'local' | 'session';

export type StorageOp =
  | { kind: 'get'; keys?: string[] }
  | { kind: 'set'; items: Record<string, string> }
  | { kind: 'remove'; keys: string[] }
  | { kind: 'clear' };

type StorageOutcome =
  | { ok: true; origin: string; items?: Record<string, string | null>; count: number; more?: number }
  | { ok: false; reason: 'denied' | 'quota' | 'not-kept'; message: string };

export function webStorage(type: StorageKind, op: StorageOp): StorageOutcome {
  const maxKeys = 100;
  const maxValue = 1000;
  let store: Storage;
  try {
    store = type === 'session' ? sessionStorage : localStorage;
  } catch (e) {
    return {
      ok: false,
      reason: 'denied',
      message: `${type}Storage is not available at ${location.href}: ${(e as Error).message}`,
    };
  }
  const clip = (v: string | null): string | null =>
    v !== null && v.length > maxValue ? `${v.slice(0, maxValue - 1)}…` : v;
  const origin = location.origin;
  switch (op.kind) {
    case 'get': {
      const keys = op.keys ?? Array.from({ length: store.length }, (_, i) => store.key(i)!).sort();
      const shown = keys.slice(0, maxKeys);
      const items = Object.fromEntries(shown.map((k) => [k, clip(store.getItem(k))]));
      return {
        ok: true,
        origin,
        items,
        count: keys.length,
        ...(keys.length > shown.length ? { more: keys.length - shown.length } : {}),
      };
    }
    case 'set': {
      const entries = Object.entries(op.items);
      try {
        for (const [k, v] of entries) store.setItem(k, v);
      } catch (e) {
        return { ok: false, reason: 'quota', message: (e as Error).message };
      }
      const lost = entries.filter(([k, v]) => store.getItem(k) !== v).map(([k]) => k);
      if (lost.length) return { ok: false, reason: 'not-kept', message: `the page did not keep ${lost.join(', ')}` };
      return { ok: true, origin, count: entries.length };
    }
    case 'remove': {
      const present = op.keys.filter((k) => store.getItem(k) !== null);
      for (const k of op.keys) store.removeItem(k);
      return { ok: true, origin, count: present.length };
    }
    case 'clear': {
      const count = store.length;
      store.clear();
      if (store.length) return { ok: false, reason: 'not-kept', message: `${store.length} item(s) are still there` };
      return { ok: true, origin, count };
    }
  }
  return { ok: false, reason: 'denied', message: 'unknown storage operation' };
}
