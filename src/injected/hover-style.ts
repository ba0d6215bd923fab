// Whether a CSS :hover rule may have changed what the page shows when the pointer moved: the
// elements that entered or left the hover state, against the :hover rules of the document's style
// sheets (the part of each selector a hovered element must match). Anything it cannot tell — a sheet
// it may not read, a pointer inside a shadow tree or a frame, :hover inside :is()/:has(), nesting,
// too many rules — counts as "may". Runs in the page.
import { shadowOf } from './closed-shadow.js';

/** Rules read at most; a larger sheet set counts as "may" (the answer then keeps its screenshot). */
const MAX_RULES = 5_000;

/** The element and its ancestors, up to the document. */
function chain(el: Element | null): Element[] {
  const out: Element[] = [];
  for (let e = el; e; e = e.parentElement) out.push(e);
  return out;
}

/** Legacy one-colon pseudo-elements. */
const OLD_PSEUDO_ELEMENTS = new Set(['before', 'after', 'first-line', 'first-letter']);

/**
 * The compounds of `selector` that carry `:hover`, each without it (and without pseudo-elements):
 * what the hovered element itself must match. Undefined when the selector cannot be split safely.
 */
export function hoverSubjects(selector: string): string[] | undefined {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let compound = '';
  let hovered = false;
  let nested = false;
  const close = (): void => {
    if (hovered) out.push(compound.trim() || '*');
    compound = '';
    hovered = false;
  };
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]!;
    if (quote || depth > 0) {
      compound += c;
      if (c === '\\') compound += selector[++i] ?? '';
      else if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '(' || c === '[') depth++;
      else if (c === ')' || c === ']') depth--;
      if (depth > 0 && !quote && selector.startsWith(':hover', i)) return undefined; // :is(a:hover), :has(:hover)
      continue;
    }
    if (' >+~,\n\t'.includes(c)) {
      close();
      continue;
    }
    if (c === ':') {
      const token = /^::?([\w-]+)/.exec(selector.slice(i));
      const name = token?.[1] ?? '';
      const element = selector[i + 1] === ':' || OLD_PSEUDO_ELEMENTS.has(name);
      if (name === 'hover' && selector[i + 1] !== ':') {
        hovered = true;
        i += token![0].length - 1;
      } else if (element) {
        i += (token?.[0].length ?? 1) - 1;
        if (selector[i + 1] === '(') {
          const end = selector.indexOf(')', i + 1);
          i = end < 0 ? selector.length : end;
        }
      } else compound += c;
      continue;
    }
    compound += c;
    if (c === '\\') compound += selector[++i] ?? '';
    else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === '&') nested = true;
  }
  close();
  return nested ? undefined : out;
}

/** The hover subjects of every :hover rule in `doc`'s sheets; undefined when some cannot be read or told. */
function hoverRules(doc: Document): string[] | undefined {
  const out: string[] = [];
  let read = 0;
  const visit = (rules: CSSRuleList): boolean => {
    for (const rule of Array.from(rules)) {
      if (++read > MAX_RULES) return false;
      const r = rule as CSSRule & { selectorText?: string; cssRules?: CSSRuleList; styleSheet?: CSSStyleSheet | null };
      if (typeof r.selectorText === 'string' && r.selectorText.includes(':hover')) {
        const subjects = hoverSubjects(r.selectorText);
        if (!subjects) return false;
        out.push(...subjects);
      }
      if (r.styleSheet && !visit(r.styleSheet.cssRules)) return false; // @import
      if (r.cssRules?.length && !visit(r.cssRules)) return false; // @media, @supports, @layer, nesting
    }
    return true;
  };
  try {
    for (const sheet of [...Array.from(doc.styleSheets), ...(doc.adoptedStyleSheets ?? [])])
      if (!visit(sheet.cssRules)) return undefined;
  } catch {
    return undefined; // a cross-origin sheet: its rules cannot be read
  }
  return out;
}

/**
 * Whether a :hover rule may style an element that entered or left the hover state: the pointer left
 * `from` (null: it came from outside the page) and rests where `:hover` now says.
 */
export function hoverMayShow(from: Element | null): boolean {
  const now = Array.from(document.querySelectorAll(':hover'));
  const before = chain(from);
  const moved = [...now.filter((el) => !before.includes(el)), ...before.filter((el) => !now.includes(el))];
  if (!moved.length) return false;
  // Inside a shadow tree or a frame, the hover state of what is there is not in this document's list.
  if (moved.some((el) => shadowOf(el) || el.localName === 'iframe' || el.localName.includes('-'))) return true;
  const subjects = hoverRules(document);
  if (!subjects) return true;
  for (const subject of subjects)
    for (const el of moved) {
      try {
        if (el.matches(subject)) return true;
      } catch {
        return true;
      }
    }
  return false;
}
