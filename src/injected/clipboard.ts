// The clipboard as the page's own Clipboard API sees it (navigator.clipboard), read and written
// from our isolated world; the page's script cannot intercept or fake it there. Runs in the page.
import { isSecretInput } from './aria-name.js';

export type ClipboardOutcome =
  | { ok: true; text?: string; length?: number; fromSecretField?: true }
  | { ok: false; reason: 'insecure' | 'refused'; message: string };

function refused(err: unknown): ClipboardOutcome {
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return { ok: false, reason: 'refused', message: message.slice(0, 200) };
}

/** The clipboard only exists for secure pages (https, localhost, 127.0.0.1). */
function insecure(): ClipboardOutcome | undefined {
  return isSecureContext && navigator.clipboard
    ? undefined
    : { ok: false, reason: 'insecure', message: `${location.origin} is not a secure context` };
}

/** The clipboard's text (up to `maxChars`), and whether a secret field of this page holds it. */
export async function readClipboard(maxChars: number): Promise<ClipboardOutcome> {
  const no = insecure();
  if (no) return no;
  let text: string;
  try {
    text = await navigator.clipboard.readText();
  } catch (err) {
    return refused(err);
  }
  const fromSecretField =
    text.length > 0 &&
    Array.from(document.querySelectorAll('input')).some((el) => el.value === text && isSecretInput(el));
  return {
    ok: true,
    text: text.slice(0, maxChars),
    length: text.length,
    ...(fromSecretField ? { fromSecretField } : {}),
  };
}

export async function writeClipboard(text: string): Promise<ClipboardOutcome> {
  const no = insecure();
  if (no) return no;
  try {
    await navigator.clipboard.writeText(text);
    return { ok: true };
  } catch (err) {
    return refused(err);
  }
}
