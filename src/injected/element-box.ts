// Geometry for element screenshots. Runs in the page.

type BoxOutcome =
  | { ok: true; x: number; y: number; width: number; height: number }
  | { ok: false; reason: 'invalid-selector' | 'not-found' | 'empty'; message?: string };

/** The element's box in document coordinates (CSS px), scrolled into view first. */
export function elementBox(selector: string): BoxOutcome {
  let el: Element | null;
  try {
    el = document.querySelector(selector);
  } catch (e) {
    return { ok: false, reason: 'invalid-selector', message: (e as Error).message };
  }
  if (!el) return { ok: false, reason: 'not-found' };
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' as ScrollBehavior });
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return { ok: false, reason: 'empty' };
  return { ok: true, x: r.x + window.scrollX, y: r.y + window.scrollY, width: r.width, height: r.height };
}

/** Full document size for full-page captures. */
export function documentSize(): { width: number; height: number } {
  const d = document.documentElement;
  const b = document.body;
  return {
    width: Math.max(d.scrollWidth, b ? b.scrollWidth : 0, d.clientWidth),
    height: Math.max(d.scrollHeight, b ? b.scrollHeight : 0, d.clientHeight),
  };
}
