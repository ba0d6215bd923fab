// Values that must never reach a log: what was typed into password fields and auth-like inputs.
// Steps mark them as they type; the --debug log writer redacts them (capture/debug-log.ts).

/** Names and selectors of fields whose values are secrets. */
const SENSITIVE = /pass(word|wd|phrase|code)?|pwd|secret|token|auth|api[-_]?key|credential|otp\b|\bpin\b|cvv|cvc|card.?num|ssn/i;

export const REDACTED = '••••';

/** The process's secrets: one command per process, so this never outlives what it protects. */
const secrets = new Set<string>();

export function looksSensitive(text: string): boolean {
  return SENSITIVE.test(text);
}

/** Remembers a value typed into a secret field, so no log shows it (very short values would blank out too much). */
export function markSecret(value: string): void {
  if (value.length >= 3) secrets.add(value);
}

export function knownSecrets(): readonly string[] {
  return [...secrets];
}
