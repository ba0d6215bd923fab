// The clipboard of the tab's browser, through the page's own Clipboard API: the tab's origin is
// granted clipboard read and write (headless Chrome would deny the read prompt), then our isolated
// world reads or writes. A grant ends with this command's connection, as all DevTools grants do.

import { ExecutionError, type Deadline } from '../common/index.js';
import type { Connection } from '../cdp/index.js';
import type { ClipboardOutcome } from '../injected/index.js';
import type { Page } from './tab.js';

/** Longest clipboard text an answer carries; the rest is counted. */
export const MAX_CLIPBOARD_CHARS = 20_000;

/** Grants the top document's origin (in the tab's browser context) the clipboard, one permission at a time. */
async function grantClipboard(conn: Connection, page: Page): Promise<void> {
  let origin: string;
  try {
    origin = new URL(page.lifecycle.url).origin;
  } catch {
    return; // no origin to grant (about:blank): the page call below says what the page allows
  }
  if (origin === 'null') return;
  const { targetInfo } = await conn.browser().send('Target.getTargetInfo', { targetId: page.targetId });
  const context = targetInfo.browserContextId ? { browserContextId: targetInfo.browserContextId } : {};
  await Promise.all(
    [{ name: 'clipboard-read' }, { name: 'clipboard-write', allowWithoutSanitization: false }].map((permission) =>
      conn.browser().send('Browser.setPermission', { permission, setting: 'granted', origin, ...context }),
    ),
  );
}

function refusal(o: Extract<ClipboardOutcome, { ok: false }>, url: string): ExecutionError {
  if (o.reason === 'insecure')
    return new ExecutionError(
      `The clipboard is only open to secure pages (https, localhost, 127.0.0.1), and ${url.slice(0, 100)} is not one; ` +
        'the page cannot use navigator.clipboard either. Open the app on https or localhost',
      { category: 'clipboard' },
    );
  return new ExecutionError(`The page's clipboard refused: ${o.message}`, { category: 'clipboard' });
}

export async function readClipboard(
  conn: Connection,
  page: Page,
  deadline: Deadline,
): Promise<{ text: string; length: number; fromSecretField?: true }> {
  await page.guard(deadline.race(grantClipboard(conn, page), 'the clipboard permission'));
  const top = page.scopeAt(undefined, deadline);
  const o = await top.call((rt, max) => rt.clipboard.readClipboard(max), MAX_CLIPBOARD_CHARS, {
    what: 'the clipboard to be read',
  });
  if (!o.ok) throw refusal(o, page.lifecycle.url);
  return { text: o.text ?? '', length: o.length ?? 0, ...(o.fromSecretField ? { fromSecretField: true } : {}) };
}

export async function writeClipboard(conn: Connection, page: Page, text: string, deadline: Deadline): Promise<void> {
  await page.guard(deadline.race(grantClipboard(conn, page), 'the clipboard permission'));
  const top = page.scopeAt(undefined, deadline);
  const o = await top.call((rt, t) => rt.clipboard.writeClipboard(t), text, { what: 'the clipboard to be written' });
  if (!o.ok) throw refusal(o, page.lifecycle.url);
}
