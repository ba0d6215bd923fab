// Whether a click by text means a caret move (issue 22 item 10): the text shows only inside a code
// editor that draws its own text (CodeMirror, Monaco, Ace), nowhere else on the page a person could
// click. Runs in the page.
import { CODE_EDITORS } from './caret.js';
import { isVisible } from './dom-describe.js';

/** Text nodes looked at outside editors before deciding (a huge page is not walked whole). */
const MAX_TEXT_NODES = 20_000;

const norm = (s: string): string => s.replace(/\u00a0/g, ' ').toLowerCase();

/** The text is in a visible code editor's text and in no visible text or label outside editors. */
export function onlyInCodeEditor(text: string): boolean {
  const needle = norm(text);
  const editors = Array.from(document.querySelectorAll(CODE_EDITORS)).filter((e) => isVisible(e));
  if (!editors.some((e) => norm(e.textContent ?? '').includes(needle))) return false;
  const walker = document.createTreeWalker(document.body ?? document.documentElement, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(), i = 0; n && i < MAX_TEXT_NODES; n = walker.nextNode(), i++) {
    const el = n.parentElement;
    if (!el || el.closest(CODE_EDITORS) || !norm(n.textContent ?? '').includes(needle)) continue;
    if (isVisible(el)) return false;
  }
  for (const el of Array.from(document.querySelectorAll('[aria-label], [title], input[value]')))
    if (
      !el.closest(CODE_EDITORS) &&
      norm(el.getAttribute('aria-label') ?? el.getAttribute('title') ?? '').includes(needle)
    )
      return false;
  return true;
}
