// The agent's last look (issue 22 item 11): the view the last visual answer was read from, kept in
// the page between calls with a watch for any DOM change after it, so a call that only waits (poll,
// wait) tells what changed since the agent last looked — a message that arrived between calls too.
// Lives as long as the document (a new document has none). Runs in the page.
import type { ObservedDiff } from '../shared/index.js';
import { state } from './state.js';
import { frameLandmarks, viewChanges } from './view-diff.js';
import { walkView, type ViewWalk } from './view-walk.js';

export interface LastLook {
  walk: ViewWalk;
  landmarks: Element[];
  /** The DOM changed after the look (the watch stops at the first change). */
  changed: boolean;
  observer: MutationObserver;
}

/**
 * Keeps the walk the view diff just took (the page as this answer shows it) as the agent's last
 * look; a document's first answer (no diff: a navigation) walks the view for it.
 */
export function keepLastLook(): void {
  state.lastLook?.observer.disconnect();
  const shown = state.view.after ?? { walk: walkView(false), landmarks: frameLandmarks() };
  state.view.after = undefined;
  const look: LastLook = {
    ...shown,
    changed: false,
    observer: new MutationObserver(() => {
      look.changed = true;
      look.observer.disconnect();
    }),
  };
  look.observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  state.lastLook = look;
}

/** Whether the DOM changed since the agent's last look; undefined when this document has none. */
export function lastLookChanged(): boolean | undefined {
  return state.lastLook?.changed;
}

/** What changed since the agent's last look (undefined when there is none): the view diff, against that look. */
export function changesSinceLastLook(): ObservedDiff | undefined {
  const look = state.lastLook;
  if (!look) return undefined;
  const slot = state.view;
  slot.stop?.();
  slot.before = look.walk;
  slot.landmarks = look.landmarks;
  slot.acted = undefined;
  return viewChanges();
}
