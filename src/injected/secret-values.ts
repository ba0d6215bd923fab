// Secret values the page holds (issue 22 item 2): what its secret fields hold now, and what the Node
// side marked in earlier commands on this document (typed into a field since cleared or removed).
// The Node side masks them all in the answer, so a value is masked in every output or in none.
// Runs in the page; the values stay in our isolated world, which the page cannot read.
import { isSecretInput } from './aria-name.js';
import { state } from './state.js';

/** Values remembered per document: a login form's few fields, not a log. */
const MAX_REMEMBERED = 20;

/** The text inputs with a value in `doc` and its same-origin frames (light DOM: the cheap pass). */
function filledInputs(doc: Document, depth = 0): HTMLInputElement[] {
  const out = Array.from(doc.querySelectorAll('input')).filter((el) => el.value !== '');
  if (depth < 2)
    for (const frame of Array.from(doc.querySelectorAll('iframe'))) {
      try {
        if (frame.contentDocument) out.push(...filledInputs(frame.contentDocument, depth + 1));
      } catch {
        // cross-origin: its own runtime holds its own
      }
    }
  return out;
}

/** Remembers `marked` (values the Node side masked) and answers every secret value known here. */
export function exchangeSecrets(marked: string[]): string[] {
  const kept = (state.secrets ??= []);
  for (const v of marked) if (v && !kept.includes(v)) kept.push(v);
  if (kept.length > MAX_REMEMBERED) kept.splice(0, kept.length - MAX_REMEMBERED);
  const held = filledInputs(document)
    .filter(isSecretInput)
    .map((el) => el.value);
  return [...new Set([...kept, ...held])];
}
