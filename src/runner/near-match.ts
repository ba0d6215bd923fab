// Whether a near match may be offered as a step to run: never when it differs from what the agent
// asked for in an identifier (order numbers, codes, emails, amounts), which names a different thing.

/** Identifier-like tokens: anything with a digit (ORD-04711, 12.50, v2), and emails. */
export function identifiers(text: string): string[] {
  return (text.match(/[\p{L}\p{N}._%+-]*\p{N}[\p{L}\p{N}._%+-]*|[\w.%+-]+@[\w.-]+\.\w+/gu) ?? [])
    .map((t) => t.replace(/^[._+-]+|[._+-]+$/g, '').toLowerCase())
    .filter((t) => t !== '');
}

/**
 * True when `wanted` names an identifier that `found` does not carry as it is: "ORD-04711" vs
 * "ORD-00211", "ann@example.com" vs "anne@example.com". Text without identifiers never differs.
 */
export function differsInIdentifier(wanted: string, found: string): boolean {
  const want = identifiers(wanted);
  if (!want.length) return false;
  const have = new Set(identifiers(found));
  return want.some((id) => !have.has(id));
}
