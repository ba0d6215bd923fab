// Boxes of ref'd elements, for getBox (SPEC §11.8). Runs in the page.
import type { Counters } from './ref-map.js';
import { isVisible } from './dom-describe.js';
import { resolveRef, syncCounters } from './ref-map.js';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
type RefBox =
  | (Box & { center: { x: number; y: number }; reResolved?: true })
  | { error: 'not found' | 'stale' | 'earlier page'; message: string }
  | { error: 'hidden'; box: Box };

export function roundedBox(r: DOMRect): Box {
  return { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) };
}

/** Why a ref could not be used, in words an agent can act on. */
export function refProblem(ref: string, reason: string, role?: string, name?: string, now?: string): string {
  switch (reason) {
    case 'recycled':
      return `Ref ${ref} was ${role} "${name}" when handed out, but the list reused its element for other content: it now shows "${now}". Not acting on it: target the item by text ({"text": ${JSON.stringify(name)}} scrolls the list to find it) or take a new snapshot.`;
    case 'malformed':
      return `"${ref}" is not a ref (refs look like s1e4)`;
    case 'earlier-page':
      return `Ref ${ref} belongs to an earlier page: the page navigated or reloaded since. Take a new snapshot and use its refs.`;
    case 'stale':
      return `Ref ${ref} (${role} "${name}") is no longer on the page and nothing matching it was found. Take a new snapshot.`;
    default:
      return `Ref ${ref} is unknown on this page. Take a snapshot to get refs.`;
  }
}

export function refBoxes(refs: string[], counters: Counters | undefined): Record<string, RefBox> {
  syncCounters(counters);
  const out: Record<string, RefBox> = {};
  for (const ref of refs) {
    const found = resolveRef(ref);
    if (!found.ok) {
      const error =
        found.reason === 'stale' || found.reason === 'recycled'
          ? 'stale'
          : found.reason === 'earlier-page'
            ? 'earlier page'
            : 'not found';
      out[ref] = { error, message: refProblem(ref, found.reason, found.role, found.name, found.now) };
      continue;
    }
    const box = roundedBox(found.el.getBoundingClientRect());
    if (!isVisible(found.el)) {
      out[ref] = { error: 'hidden', box };
      continue;
    }
    out[ref] = {
      ...box,
      center: { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) },
      ...(found.reResolved ? { reResolved: true as const } : {}),
    };
  }
  return out;
}
