// What a user meets as modal (issue 22 item 8): a <dialog> shown modally, or an open dialog with the
// page behind it covered (a backdrop takes the clicks) or made inert. `aria-modal` alone is a claim,
// not a fact: Excalidraw marks two 176×34 colour-picker rows aria-modal with nothing blocked. Runs in the page.
import { accessibleName, capName, collapseSpace } from './aria-name.js';
import { isInteractiveRole, roleOf } from './aria-role.js';
import { isVisible } from './dom-describe.js';

const DIALOGS = 'dialog[open], [role="dialog"], [role="alertdialog"]';
/** Share of the viewport a backdrop (or a dialog itself) covers to stand for "the page". */
const COVERS_VIEW = 0.9;
/** Share of the sample points outside the dialog that must be blocked. */
const BLOCKED_SHARE = 0.75;
/** Elements that are content, never a backdrop, however much of the view they fill. */
const CONTENT_TAGS = ',canvas,img,video,iframe,svg,embed,object,';

/** Open dialogs on show, outermost first in document order (a dialog inside another is part of it). */
export function openDialogs(): Element[] {
  const all = Array.from(document.querySelectorAll(DIALOGS)).filter((el) => isVisible(el));
  return all.filter((el) => !all.some((o) => o !== el && o.contains(el)));
}

function coversView(r: DOMRect): boolean {
  const w = Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0));
  const h = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
  return w * h >= COVERS_VIEW * innerWidth * innerHeight;
}

/** A fixed layer over the whole view that is not content: a backdrop, or the dialog's own full-screen holder. */
function isBackdrop(el: Element, dialog: Element): boolean {
  for (let n: Element | null = el; n && n !== document.body && n !== document.documentElement; n = n.parentElement) {
    if (CONTENT_TAGS.includes(`,${n.localName},`)) continue;
    if (getComputedStyle(n).position !== 'fixed' || !coversView(n.getBoundingClientRect())) continue;
    if (n.contains(dialog)) return true;
    // A layer holding nothing to act on: a backdrop (a toolbar or canvas host holds controls).
    return !Array.from(n.querySelectorAll('*')).some((d) => isInteractiveRole(roleOf(d)) && isVisible(d));
  }
  return false;
}

/** Whether points of the view outside the dialog land on a backdrop, not on the page. */
function isCovered(dialog: Element): boolean {
  const box = dialog.getBoundingClientRect();
  if (coversView(box)) return true;
  const outside: [number, number][] = [];
  for (const fx of [0.05, 0.5, 0.95])
    for (const fy of [0.05, 0.5, 0.95]) {
      const x = innerWidth * fx;
      const y = innerHeight * fy;
      if (x < box.left - 4 || x > box.right + 4 || y < box.top - 4 || y > box.bottom + 4) outside.push([x, y]);
    }
  if (!outside.length) return true;
  const blocked = outside.filter(([x, y]) => {
    const hit = document.elementFromPoint(x, y);
    return !!hit && !dialog.contains(hit) && isBackdrop(hit, dialog);
  }).length;
  return blocked >= BLOCKED_SHARE * outside.length;
}

/** Whether everything rendered beside the dialog's branch, at every level up to <body>, is inert or hidden from assistive tech. */
function isRestInert(dialog: Element): boolean {
  let others = 0;
  for (let n: Element = dialog; n.parentElement && n !== document.body; n = n.parentElement) {
    for (const sib of Array.from(n.parentElement.children)) {
      if (sib === n || /^(script|style|template|link|meta)$/.test(sib.localName)) continue;
      if (!sib.getClientRects().length) continue;
      if (!sib.closest('[inert], [aria-hidden="true"]')) return false;
      others++;
    }
  }
  return others > 0;
}

/** The modal layer a user meets now, if any: the dialog shown modally, or one whose page behind is blocked. */
export function modalLayer(): Element | undefined {
  const dialogs = openDialogs();
  const shownModally = dialogs.find((d) => d.localName === 'dialog' && d.matches(':modal'));
  if (shownModally) return shownModally;
  // The last opened is on top: a confirm over a form dialog.
  for (const d of dialogs.slice().reverse()) if (isCovered(d) || isRestInert(d)) return d;
  return undefined;
}

/** A dialog's title: its name, its first heading; else what it holds (a hint that tells two apart). */
export function dialogTitle(el: Element): string {
  const name = collapseSpace(accessibleName(el, roleOf(el) === 'alertdialog' ? 'alertdialog' : 'dialog'));
  const heading = el.querySelector('h1, h2, h3, h4, h5, h6, [role="heading"]')?.textContent;
  return capName(name || collapseSpace(heading ?? '') || itemsHint(el) || 'Dialog');
}

/** The first few names of what an unnamed layer holds: `'#1e1e1e', '#e03131', …`. */
export function itemsHint(el: Element): string {
  const names: string[] = [];
  let more = 0;
  for (const d of Array.from(el.querySelectorAll('*'))) {
    const role = roleOf(d);
    if (!isInteractiveRole(role)) continue;
    const name = collapseSpace(accessibleName(d, role));
    if (!name) continue;
    if (names.length < 3) names.push(name.slice(0, 30));
    else more++;
  }
  return names.length ? `${names.join(', ')}${more ? ', …' : ''}` : '';
}
