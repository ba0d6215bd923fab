// The clipboard step: read what the page's Copy button put on the clipboard, or put text there for
// a `press Control+V` to paste. Text shaped like a credential, or held by a secret field of the
// page, is shown here — the agent asked for it — and as •••• everywhere else (changes, logs).

import { AskedSecret, looksLikeToken, markSecret, type Deadline } from '../common/index.js';
import { comboCommands, type KeyCombo } from '../dom/index.js';
import { MAX_CLIPBOARD_CHARS, readClipboard, writeClipboard } from '../page/index.js';
import { defineStep, keysOf, type AttachedTab, type ParamSchema } from './registry.js';
import { describe, isObj, obj, optBool, optString, ParamError } from './params.js';

type ClipboardParams = { read: true } | { write: string };

const CLIPBOARD_PARAMS: ParamSchema = {
  forms: ['"read"'],
  keys: { write: '"text"', read: '-' },
  returns: '{text}',
  note: 'Control+V pastes',
};

defineStep<ClipboardParams>({
  name: 'clipboard',
  summary: "Read or write the browser's clipboard (then press Control+V pastes)",
  params: CLIPBOARD_PARAMS,
  needsTab: true,
  // Neither reading nor writing the clipboard changes the page.
  readOnly: true,
  parse(v) {
    if (v === 'read') return { read: true };
    if (!isObj(v)) throw new ParamError(`clipboard takes "read" or {write: "text"}, got ${describe(v)}`);
    const o = obj(v, keysOf(CLIPBOARD_PARAMS), 'clipboard');
    const write = optString(o, 'write', { nonEmpty: false, maxLength: MAX_CLIPBOARD_CHARS });
    const read = optBool(o, 'read');
    if ((write === undefined) === !read) throw new ParamError('clipboard takes one of "read" or {write: "text"}');
    return write === undefined ? { read: true } : { write };
  },
  async run(ctx, p) {
    const { conn, page } = ctx.command.requireTab();
    if ('write' in p) {
      // What the agent wrote needs no echo; a key it wrote stays out of changes and logs.
      if (looksLikeToken(p.write)) markSecret(p.write);
      await writeClipboard(conn, page, p.write, ctx.deadline);
      return { written: p.write.length };
    }
    const r = await readClipboard(conn, page, ctx.deadline);
    const secret = r.fromSecretField || looksLikeToken(r.text);
    return {
      text: secret ? new AskedSecret(r.text) : r.text,
      ...(r.length > r.text.length ? { length: r.length, truncated: true } : {}),
      ...(secret ? { secret: true } : {}),
    };
  },
});

/**
 * Before a paste (Control+V): a credential on the clipboard — copied in an earlier command, so this
 * process has not seen it — is marked secret, so the field it lands in shows •••• in the answer.
 * Best effort: a page that cannot read the clipboard (not a secure context) pastes unread.
 */
export async function keepPastedKeyQuiet(tab: AttachedTab, combo: KeyCombo, deadline: Deadline): Promise<void> {
  if (!comboCommands(combo).some((c) => c.startsWith('paste'))) return;
  try {
    const { text } = await readClipboard(tab.conn, tab.page, deadline.cap(2_000));
    if (looksLikeToken(text)) markSecret(text);
  } catch {
    // Unread: the paste goes ahead; nothing is known about what it holds.
  }
}
