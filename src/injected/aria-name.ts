// Accessible names by the accname chain (aria-labelledby > aria-label > native label, alt,
// caption, legend > content for roles that allow it > title > placeholder), and control values.
// Text of separate block-level elements is joined with spaces. Runs in the page.
import { allowsNameFromContent, roleOf } from './aria-role.js';
import { isHtml } from './dom-describe.js';
import { shadowOf } from './closed-shadow.js';
import { isSecretField, REDACTED } from '../shared/index.js';

/** Names longer than this are cut, ending in "…" (documented in SKILL.md). */
const NAME_MAX_CHARS = 100;

/** Text runs longer than this are cut, ending in "…": a snapshot shows what a page says, getDom/query read it whole. */
export const TEXT_MAX_CHARS = 1_000;

export function collapseSpace(s: string): string {
  return s.replace(/[\s\u200b]+/g, ' ').trim();
}

/** How far back a cut looks for a space, so no word or value ("$1,240.50") is cut in two. */
const NAME_CUT_BACK_CHARS = 40;

/**
 * A name of at most NAME_MAX_CHARS, cut between words: a value cut in its middle ("Total $1,…")
 * reads as another value. A single run longer than the look-back (a URL) is cut where it must be.
 */
export function capName(s: string): string {
  if (s.length <= NAME_MAX_CHARS) return s;
  const head = s.slice(0, NAME_MAX_CHARS - 1);
  const space = s[NAME_MAX_CHARS - 1] === ' ' ? head.length : head.lastIndexOf(' ');
  return space >= NAME_MAX_CHARS - 1 - NAME_CUT_BACK_CHARS ? `${head.slice(0, space).trimEnd()} …` : `${head}…`;
}

function isHiddenForName(el: Element): boolean {
  if (el.getAttribute('aria-hidden') === 'true') return true;
  const style = getComputedStyle(el);
  return style.display === 'none' || style.visibility === 'hidden' || style.visibility === 'collapse';
}

function isInlineDisplay(el: Element): boolean {
  const display = getComputedStyle(el).display;
  return display === 'inline' || display === 'contents';
}

/** Set while a field's words are read: a label that holds two fields must not send each to the other's name. */
let readingWords = false;

/**
 * A field whose value is a secret, by the one rule (shared/secrets.ts): never shown, never echoed.
 * Its words are its name, id and accessible name (labels, aria-labelledby, placeholder, title):
 * what the Node side reads in its description, so both sides judge a field alike.
 */
export function isSecretInput(el: HTMLInputElement): boolean {
  return isSecretField({
    type: el.type,
    autocomplete: el.getAttribute('autocomplete') ?? '',
    role: roleOf(el),
    words: () => {
      if (readingWords) return `${el.name} ${el.id} ${el.getAttribute('aria-label') ?? ''}`;
      readingWords = true;
      try {
        return `${el.name} ${el.id} ${accessibleName(el, roleOf(el))}`;
      } finally {
        readingWords = false;
      }
    },
  });
}

/** The value an embedded control contributes to a name or shows after a colon. */
export function controlValue(el: Element, role: string): string | undefined {
  if (isHtml(el, 'select')) {
    return Array.from(el.selectedOptions)
      .map((o) => collapseSpace(o.text))
      .join(', ');
  }
  if (isHtml(el, 'input')) {
    if (isSecretInput(el)) return el.value ? REDACTED : '';
    if (role === 'textbox' || role === 'searchbox' || role === 'combobox' || role === 'spinbutton' || role === 'slider')
      return el.value;
    return undefined;
  }
  if (isHtml(el, 'textarea')) return el.value;
  if ((role === 'textbox' || role === 'searchbox') && (el as HTMLElement).isContentEditable) {
    return collapseSpace((el as HTMLElement).innerText ?? '');
  }
  if (isHtml(el, 'progress')) {
    return el.position < 0 ? undefined : `${Math.round(el.position * 100)}%`;
  }
  if (isHtml(el, 'meter')) return String(el.value);
  if (role === 'slider' || role === 'spinbutton' || role === 'progressbar' || role === 'meter') {
    return el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow') ?? undefined;
  }
  if (role === 'combobox') {
    return collapseSpace(el.textContent ?? '');
  }
  return undefined;
}

/**
 * The text CSS generated content adds before or after an element (`::before { content: 'Heading 1' }`,
 * `attr(data-label)`), as Chrome's accessibility tree counts it: strings and attr(), or the
 * alternative text after a `/`; counters, quotes and images add nothing here.
 */
function generatedText(el: Element, pseudo: '::before' | '::after'): string {
  const style = getComputedStyle(el, pseudo);
  const content = style.content;
  if (!content || content === 'none' || content === 'normal') return '';
  if (style.display === 'none' || style.visibility === 'hidden') return '';
  const tokens: string[] =
    content.match(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|attr\([^)]*\)|\/|[^\s"'/]+\([^)]*\)|[^\s"'/]+/g) ?? [];
  const slash = tokens.indexOf('/');
  let text = '';
  for (const t of slash >= 0 ? tokens.slice(slash + 1) : tokens) {
    if (t.startsWith('"') || t.startsWith("'")) text += t.slice(1, -1).replace(/\\(.)/g, '$1');
    else if (t.startsWith('attr(')) text += el.getAttribute(t.slice(5, -1).trim().split(/\s+/)[0] ?? '') ?? '';
  }
  if (!text) return '';
  const inline = style.display === 'inline' || style.display.startsWith('inline-');
  return inline ? text : ` ${text} `;
}

/** Text of a subtree for name-from-content: text nodes, descendants' own names, control values. */
function textFromSubtree(root: Element, visited: Set<Element>): string {
  const own = root.nodeType === Node.ELEMENT_NODE;
  let out = own ? generatedText(root, '::before') : '';
  // A <slot> shows the nodes assigned to it (web components), or its own fallback content.
  const assigned = root.localName === 'slot' ? (root as HTMLSlotElement).assignedNodes({ flatten: true }) : [];
  for (const node of assigned.length ? assigned : Array.from(root.childNodes)) {
    if (node.nodeType === Node.TEXT_NODE) {
      out += node.textContent ?? '';
      continue;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) continue;
    const child = node as Element;
    if (visited.has(child)) continue;
    if (child.localName === 'br') {
      out += ' ';
      continue;
    }
    if (child.localName === 'script' || child.localName === 'style' || child.localName === 'template') continue;
    if (isHiddenForName(child)) continue;
    visited.add(child);
    const text = descendantName(child, visited);
    out += isInlineDisplay(child) ? text : ` ${text} `;
  }
  return own ? out + generatedText(root, '::after') : out;
}

function descendantName(el: Element, visited: Set<Element>): string {
  const role = roleOf(el);
  const value = controlValue(el, role);
  if (value !== undefined) return value;
  const label = el.getAttribute('aria-label');
  if (label && label.trim()) return label;
  if (isHtml(el, 'img') || el.localName === 'area') return el.getAttribute('alt') ?? '';
  if (isHtml(el, 'input') && (el.type === 'submit' || el.type === 'button' || el.type === 'reset'))
    return inputButtonName(el);
  const root = shadowOf(el);
  if (root) return textFromSubtree(root as unknown as Element, visited);
  return textFromSubtree(el, visited);
}

function inputButtonName(el: HTMLInputElement): string {
  if (el.value) return el.value;
  if (el.type === 'submit') return 'Submit';
  if (el.type === 'reset') return 'Reset';
  return '';
}

export function labelledByText(el: Element): string | undefined {
  const ids = el.getAttribute('aria-labelledby');
  if (!ids) return undefined;
  const root = el.getRootNode() as Document | ShadowRoot;
  const parts = ids.split(/\s+/).map((id) => {
    const ref = root.getElementById ? root.getElementById(id) : document.getElementById(id);
    if (!ref) return '';
    const label = ref.getAttribute('aria-label');
    return label && label.trim() ? label : textFromSubtree(ref, new Set([el]));
  });
  const text = collapseSpace(parts.join(' '));
  return text || undefined;
}

function nativeLabel(el: Element): string | undefined {
  if (isHtml(el, 'input') && (el.type === 'submit' || el.type === 'button' || el.type === 'reset')) {
    return inputButtonName(el);
  }
  if (isHtml(el, 'input') && el.type === 'image') return el.alt || el.value || 'Submit';
  const labels = (el as HTMLInputElement).labels;
  if (labels && labels.length) {
    const text = collapseSpace(
      Array.from(labels)
        .map((l) => textFromSubtree(l, new Set([el])))
        .join(' '),
    );
    if (text) return text;
  }
  if (isHtml(el, 'img') || el.localName === 'area') return el.getAttribute('alt') ?? undefined;
  if (el.localName === 'fieldset') {
    const legend = Array.from(el.children).find((c) => c.localName === 'legend');
    if (legend) return collapseSpace(textFromSubtree(legend, new Set()));
  }
  if (el.localName === 'table') {
    const caption = (el as HTMLTableElement).caption;
    if (caption) return collapseSpace(textFromSubtree(caption, new Set()));
  }
  if (el.localName === 'figure') {
    const caption = el.querySelector(':scope > figcaption');
    if (caption) return collapseSpace(textFromSubtree(caption, new Set()));
  }
  if (el.localName === 'svg') {
    const title = el.querySelector(':scope > title');
    if (title) return collapseSpace(title.textContent ?? '');
  }
  return undefined;
}

/** The accessible name of `el` with role `role`, whitespace collapsed, not yet capped. */
export function accessibleName(el: Element, role: string): string {
  const byId = labelledByText(el);
  if (byId) return byId;
  const label = el.getAttribute('aria-label');
  if (label && label.trim()) return collapseSpace(label);
  const native = nativeLabel(el);
  if (native) return collapseSpace(native);
  if (allowsNameFromContent(role)) {
    const text = collapseSpace(textFromSubtree(el, new Set([el])));
    if (text) return text;
  }
  const title = el.getAttribute('title');
  if (title && title.trim()) return collapseSpace(title);
  const placeholder = el.getAttribute('placeholder') ?? el.getAttribute('aria-placeholder');
  if (placeholder && (role === 'textbox' || role === 'searchbox' || role === 'combobox'))
    return collapseSpace(placeholder);
  if (isHtml(el, 'input') && el.type === 'file') return 'Choose File';
  return '';
}

/** Classes that say what state an element is in, not what it is. */
const STATE_CLASS =
  /^(is-|has-)?(active|selected|open|opened|closed|disabled|enabled|focus|focused|hover|hidden|visible|show|shown|current|checked|expanded|collapsed|on|off|flex|grid|block|inline|relative|absolute|clearfix)$/i;
/** Generated class names (CSS-in-JS hashes, build suffixes) say nothing to a reader. */
const HASHED_CLASS = /^(css|sc|jsx|emotion|svelte|styles?)-|[_-](?=[a-z]*\d)[a-z0-9]{5,}$|\d{3,}|[:[\]/]/i;
const HINT_MAX = 40;

function readableClass(el: Element): string | undefined {
  const list = typeof el.className === 'string' ? el.className.split(/\s+/) : [];
  return list.find((c) => c.length >= 4 && !STATE_CLASS.test(c) && !HASHED_CLASS.test(c));
}

function readableId(el: Element): string | undefined {
  const id = el.id;
  return id && /^[A-Za-z][\w-]*$/.test(id) && !/\d{3,}/.test(id) ? id : undefined;
}

/**
 * For an interactive element with no accessible name: a few words that tell it from its
 * neighbours — its id, a readable class of its own, or its icon's (`flatpickr-next-month`,
 * `ui-slider-handle`, `icon-close`). Not a name: the snapshot shows it in parentheses.
 */
export function nameHint(el: Element): string | undefined {
  let hint = readableId(el) ?? readableClass(el);
  if (!hint) {
    let seen = 0;
    for (const d of Array.from(el.querySelectorAll('*'))) {
      if (++seen > 10) break;
      const href = d.localName === 'use' ? (d.getAttribute('href') ?? d.getAttribute('xlink:href')) : null;
      hint = (href && /#[\w-]+$/.test(href) ? href.slice(href.lastIndexOf('#') + 1) : undefined) ?? readableClass(d);
      if (hint) break;
    }
  }
  return hint ? hint.slice(0, HINT_MAX) : undefined;
}
