// The page context reported after every command (SPEC §14.4). Runs in the page.
import { isSecretInput } from './aria-name.js';
import { isHtml, selectorFor } from './dom-describe.js';
import { shadowOf } from './closed-shadow.js';
import { dialogTitle, modalLayer } from './modal-layer.js';
import { state } from './state.js';
import { REDACTED } from '../shared/index.js';

interface ActiveElementInfo {
  tag: string;
  /** The iframe the element is in (its selector in the top document), when it is in one. */
  frame?: string;
  selector: string;
  box: { x: number; y: number; width: number; height: number };
  editable: boolean;
  type?: string;
  value?: string;
  placeholder?: string;
}

interface PageContext {
  url: string;
  title: string;
  /** The window's scroll, or the container's (`scroller`) when one scrolled during the command. */
  scroll: { y: number; percent: number; scroller?: string };
  viewport: { width: number; height: number };
  activeElement?: ActiveElementInfo;
  modal?: { title: string };
}

/** The focused element, through shadow roots and same-origin frames; with the frame it is in and its offset. */
function focusedDeep(): { el: Element | null; frame?: Element; dx: number; dy: number } {
  let el: Element | null = document.activeElement;
  let frame: Element | undefined;
  let dx = 0;
  let dy = 0;
  for (let i = 0; el && i < 20; i++) {
    if (shadowOf(el)?.activeElement) {
      el = shadowOf(el)!.activeElement!;
      continue;
    }
    let inner: Document | null = null;
    try {
      inner = el.localName === 'iframe' ? (el as HTMLIFrameElement).contentDocument : null;
    } catch {
      inner = null;
    }
    const next = inner?.activeElement;
    // A frame's body counts only as an editor (contenteditable, as TinyMCE's is).
    if (!inner || !next || (next === inner.body && !(next as HTMLElement).isContentEditable)) break;
    const box = el.getBoundingClientRect();
    dx += box.left + el.clientLeft;
    dy += box.top + el.clientTop;
    frame ??= el;
    el = next;
  }
  return { el, ...(frame ? { frame } : {}), dx, dy };
}

function describeActiveElement(): ActiveElementInfo | undefined {
  const { el, frame, dx, dy } = focusedDeep();
  if (!el || el === document.body || el === document.documentElement) return undefined;
  const r = el.getBoundingClientRect();
  const info: ActiveElementInfo = {
    tag: el.tagName.toLowerCase(),
    ...(frame ? { frame: selectorFor(frame) } : {}),
    selector: selectorFor(el),
    box: { x: Math.round(r.x + dx), y: Math.round(r.y + dy), width: Math.round(r.width), height: Math.round(r.height) },
    editable:
      (el as HTMLElement).isContentEditable ||
      el.matches(
        'input:not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit]):not([type=reset]):not([type=file]):not([type=image]):not([type=range]):not([type=color]), textarea, select',
      ),
  };
  if (isHtml(el, 'input') || isHtml(el, 'textarea')) {
    if (isHtml(el, 'input')) info.type = el.type;
    // Never echo a secret back into the agent's transcript.
    info.value = isHtml(el, 'input') && isSecretInput(el) && el.value ? REDACTED : el.value.slice(0, 200);
    if (el.placeholder) info.placeholder = el.placeholder;
  }
  return info;
}

/** The modal layer a user meets (modal-layer.ts), by its title. */
function detectModal(): { title: string } | undefined {
  const layer = modalLayer();
  return layer ? { title: dialogTitle(layer) } : undefined;
}

/**
 * The page's title and URL as answers show them: a page may make either megabytes long (a 2 MB
 * <title>, a data: URL), and they go into every answer (issue 15 item 7).
 */
export function pageTitle(): string {
  return clipPageText(document.title, 300);
}

export function pageUrl(): string {
  return clipPageText(location.href, 2_000);
}

function clipPageText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…[cut: ${text.length - max} more characters]` : text;
}

/** The container that scrolled during the command (effect-probe.ts saw it), as context.scroll reports it. */
function scrollerScroll(): PageContext['scroll'] | undefined {
  const el = state.scroller;
  if (!el || !el.isConnected || el === document.scrollingElement) return undefined;
  const y = Math.round(el.scrollTop);
  const maxY = Math.max(0, el.scrollHeight - el.clientHeight);
  return { y, percent: maxY > 0 ? Math.min(100, Math.round((y / maxY) * 100)) : 0, scroller: selectorFor(el) };
}

export function pageContext(): PageContext {
  const scroller = document.scrollingElement ?? document.documentElement;
  const y = Math.round(window.scrollY);
  const maxY = Math.max(0, (scroller?.scrollHeight ?? 0) - window.innerHeight);
  const ctx: PageContext = {
    url: pageUrl(),
    title: pageTitle(),
    scroll: scrollerScroll() ?? { y, percent: maxY > 0 ? Math.min(100, Math.round((y / maxY) * 100)) : 0 },
    viewport: { width: window.innerWidth, height: window.innerHeight },
  };
  const active = describeActiveElement();
  if (active) ctx.activeElement = active;
  const modal = detectModal();
  if (modal) ctx.modal = modal;
  return ctx;
}
