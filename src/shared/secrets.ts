// Which fields hold secrets (DECISIONS: passwords, one-time codes, API keys, card numbers…), and what
// shows in a secret's place. The page decides fields by isSecretField (injected/aria-name.ts gathers
// the facts); the Node side reads names, selectors and keys by isSecretText.

/** What every answer and log shows in place of a secret value. */
export const REDACTED = '\u2022\u2022\u2022\u2022';

/**
 * Whether a name, id, selector, label or key says it holds a secret (DECISIONS: token, api key,
 * secret, otp, cvc/cvv, card number, pin; and the password family). Words are split at camelCase,
 * `_`, `-`, `.` and brackets, so `cardPin` and `api_key` match but `spinner`, `shipping` or
 * `author` do not.
 */
export function isSecretText(text: string): boolean {
  const words = ` ${text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')} `;
  return / (password|passwd|passcode|passphrase|pwd|pass|pass phrase|secret|token|otp|totp|one time (code|password)|verification code|auth code|2fa|mfa|cvc|cvv|cvc2|cvv2|csc|security code|pin|apikey|api key|card number|cardnumber|card num|card no|ccnum|cc num|cc number|iban|ssn|auth|authorization) /.test(
    words,
  );
}

/** What the page knows of an <input> when it decides whether its value is a secret. */
export interface FieldFacts {
  /** The input's type (`password`, `text`, `search`, …). */
  type: string;
  /** Its autocomplete attribute, as written. */
  autocomplete: string;
  /** Its ARIA role (combobox, searchbox, textbox, …). */
  role: string;
  /** Its name, id, aria-label and labels' text: read only when type and hints leave the answer open. */
  words: () => string;
}

/** Input types whose value is never typed text. */
const NOT_TEXT = /^(checkbox|radio|submit|button|reset|image|file|range|color|date|datetime-local|month|week|time)$/;

/**
 * A field whose value is a secret (DECISIONS): type=password; autocomplete current-password,
 * new-password, one-time-code or cc-*; or a name, id or label that says so (isSecretText). A plain
 * search box is not one. Its value is shown as REDACTED everywhere and never echoed.
 *
 * An autocomplete hint alone does not make a combobox or a search box secret (issue 22 item 2):
 * libraries put `new-password` on ordinary fields to stop the browser's autofill (antd's Select
 * search input), and what is typed there is a word the page shows back in its options.
 */
export function isSecretField(field: FieldFacts): boolean {
  if (field.type === 'password') return true;
  if (NOT_TEXT.test(field.type)) return false;
  const searching = field.type === 'search' || field.role === 'combobox' || field.role === 'searchbox';
  const hints = field.autocomplete.toLowerCase().split(/\s+/);
  if (
    !searching &&
    hints.some((t) => t === 'current-password' || t === 'new-password' || t === 'one-time-code' || t.startsWith('cc-'))
  )
    return true;
  return isSecretText(field.words().slice(0, 500));
}
