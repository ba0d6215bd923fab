// Ready before the first look (issue 13, DECISIONS): after a navigation the capture waits until the
// page's custom elements are defined, its fonts are loaded and no dialog is still animating in or
// out — each awaited on the page's own promises (whenDefined, fonts.ready, Animation.finished),
// never polled. The network half and the overall bound live in runner/ready.ts. Runs in the page.
import { isVisible } from './dom-describe.js';
import { deepElements } from './ref-map.js';

/** Custom elements not upgraded yet, by tag: `<sl-input>` before Shoelace defines it. */
function undefinedElements(): Map<string, number> {
  const byTag = new Map<string, number>();
  for (const el of deepElements(document)) {
    if (el.localName.includes('-') && !el.matches(':defined'))
      byTag.set(el.localName, (byTag.get(el.localName) ?? 0) + 1);
  }
  return byTag;
}

/** Finite animations and transitions running on, in or around a visible dialog (a consent banner sliding in). */
function dialogAnimations(): Animation[] {
  const dialogSelector = 'dialog, [role=dialog], [role=alertdialog], [aria-modal=true]';
  return document.getAnimations().filter((a) => {
    if (a.playState !== 'running') return false;
    const timing = a.effect?.getComputedTiming();
    if (!timing || timing.endTime === Infinity) return false; // a spinner never finishes
    const target = (a.effect as KeyframeEffect | null)?.target;
    if (!target || !target.isConnected) return false;
    const dialog = target.closest(dialogSelector) ?? target.querySelector(dialogSelector);
    return !!dialog && isVisible(dialog);
  });
}

/** What is not ready yet, in words an agent can read. */
function readyPending(): string[] {
  const pending: string[] = [];
  const undef = undefinedElements();
  if (undef.size) {
    const count = [...undef.values()].reduce((a, b) => a + b, 0);
    const tags = [...undef.keys()].slice(0, 3).join(', ') + (undef.size > 3 ? ', …' : '');
    pending.push(`${count} custom element${count === 1 ? '' : 's'} undefined (${tags})`);
  }
  if (document.fonts && document.fonts.status === 'loading') pending.push('fonts loading');
  const animations = dialogAnimations().length;
  if (animations) pending.push(`a dialog animating (${animations} animation${animations === 1 ? '' : 's'})`);
  return pending;
}

/** How often an isolated world looks whether custom elements were upgraded. */
const POLL_DEFINED_MS = 50;

/** Resolves once no custom element on the page is undefined (the caller bounds the wait). */
function allDefined(): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (undefinedElements().size === 0) resolve();
      else setTimeout(check, POLL_DEFINED_MS);
    };
    check();
  });
}

/**
 * Waits at most `budgetMs` for what readyPending names (definitions, fonts, dialog animations), then
 * one frame for upgraded elements to render; answers what is still pending.
 */
export async function awaitReady(budgetMs: number): Promise<string[]> {
  const waits: Promise<unknown>[] = [];
  const undef = undefinedElements();
  // Our isolated world has no custom element registry of its own to wait on (customElements is null
  // there): the upgrade is read from the DOM instead, every POLL_DEFINED_MS.
  if (undef.size && typeof customElements !== 'undefined' && customElements)
    for (const tag of undef.keys()) waits.push(customElements.whenDefined(tag));
  else if (undef.size) waits.push(allDefined());
  if (document.fonts && document.fonts.status === 'loading') waits.push(document.fonts.ready);
  for (const a of dialogAnimations()) waits.push(a.finished.catch(() => undefined));
  if (waits.length) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise((resolve) => {
      timer = setTimeout(resolve, budgetMs);
    });
    await Promise.race([Promise.all(waits), bound]);
    clearTimeout(timer);
    // Upgraded elements render on their next update; a frame (or 50 ms when frames are held) lets them.
    await Promise.race([
      new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))),
      new Promise((r) => setTimeout(r, 50)),
    ]);
  }
  return readyPending();
}
