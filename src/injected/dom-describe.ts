// Describing elements for agents: a short CSS selector, visibility. Runs in the page.
import { shadowOf } from './closed-shadow.js';

export function cssEscapeIdent(s: string): string {
  return typeof CSS !== 'undefined' && CSS.escape ? CSS.escape(s) : s.replace(/[^a-zA-Z0-9_-]/g, (c) => `\\${c}`);
}

/** A short selector that matches `el` uniquely in its root: #id, [name], or a tag:nth-of-type path. */
export function selectorFor(el: Element): string {
  const root = el.getRootNode() as Document | ShadowRoot;
  const unique = (sel: string): boolean => {
    try {
      return root.querySelectorAll(sel).length === 1;
    } catch {
      return false;
    }
  };
  if (el.id && unique(`#${cssEscapeIdent(el.id)}`)) return `#${cssEscapeIdent(el.id)}`;
  const tag = el.tagName.toLowerCase();
  const name = el.getAttribute('name');
  if (name && unique(`${tag}[name="${name.replace(/"/g, '\\"')}"]`))
    return `${tag}[name="${name.replace(/"/g, '\\"')}"]`;
  const parts: string[] = [];
  let node: Element | null = el;
  while (node && parts.length < 6) {
    const t = node.tagName.toLowerCase();
    if (node.id && unique(`#${cssEscapeIdent(node.id)}`)) {
      parts.unshift(`#${cssEscapeIdent(node.id)}`);
      break;
    }
    const parent: Element | null = node.parentElement;
    if (!parent) {
      parts.unshift(t);
      break;
    }
    const same = Array.from(parent.children).filter((c) => c.tagName === node!.tagName);
    parts.unshift(same.length > 1 ? `${t}:nth-of-type(${same.indexOf(node) + 1})` : t);
    if (unique(parts.join(' > '))) break;
    node = parent;
  }
  return parts.join(' > ');
}

/** Rendered, not hidden by CSS, and with a non-empty box. */
export function isVisible(el: Element): boolean {
  if (!el.isConnected) return false;
  const check = (el as Element & { checkVisibility?: (o: object) => boolean }).checkVisibility;
  if (check && !check.call(el, { visibilityProperty: true, checkVisibilityCSS: true })) return false;
  const rect = el.getBoundingClientRect();
  return rect.width > 0 && rect.height > 0;
}

/** `instanceof` fails for nodes of another frame's realm; tag names do not. */
export function isHtml<K extends keyof HTMLElementTagNameMap>(n: unknown, tag: K): n is HTMLElementTagNameMap[K] {
  return !!n && (n as Node).nodeType === 1 && (n as Element).localName === tag;
}

export function isShadowRoot(n: unknown): n is ShadowRoot {
  return !!n && (n as Node).nodeType === 11 && 'host' in (n as object);
}

export function deepActiveElement(): Element | null {
  let el = document.activeElement;
  for (let root = el && shadowOf(el); root?.activeElement; root = shadowOf(el!)) el = root.activeElement;
  return el;
}

/** Same-origin URLs shortened to path+query+hash: fewer bytes, same meaning. */
export function shortUrl(href: string): string {
  try {
    const u = new URL(href, location.href);
    return u.origin === location.origin ? `${u.pathname}${u.search}${u.hash}` : u.href;
  } catch {
    return href;
  }
}

/** Inline elements: their text runs on with their neighbours' (no space added at their edges). */
const INLINE =
  ',a,abbr,b,bdi,bdo,cite,code,data,dfn,em,font,i,img,kbd,label,mark,q,s,samp,small,span,strong,sub,sup,time,u,var,wbr,';

export function textSnippet(root: Node, max: number): string {
  let out = '';
  const walk = (node: Node): boolean => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) {
        out += (child as Text).data;
      } else if (child.nodeType === 1) {
        const el = child as Element;
        const tag = el.localName;
        if (
          tag === 'script' ||
          tag === 'style' ||
          tag === 'template' ||
          tag === 'noscript' ||
          el.hasAttribute('hidden')
        )
          continue;
        if (tag === 'br') {
          out += ' ';
          continue;
        }
        const block = !INLINE.includes(`,${tag},`);
        if (block) out += ' ';
        if (!walk(el)) return false;
        if (block) out += ' ';
      }
      if (out.length > max * 2 + 200) return false;
    }
    return true;
  };
  walk(root);
  const text = out.replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
