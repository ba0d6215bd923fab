// The ceiling of one answer (issue 15 item 7, DECISIONS): whatever the page does — a 2 MB title,
// a huge return value, an alert loop — an answer stays under MAX_ANSWER_BYTES. Sources cap what
// they know (titles, URLs, values, messages, dialog lists); this is the last guard, and says what
// it cut, where and how much.

/** One answer's ceiling in bytes of JSON, documented in docs/security.md (Bounded answers). */
export const MAX_ANSWER_BYTES = 256 * 1024;

/** Ever tighter caps, tried in turn until the answer fits: [longest string, longest list]. */
const STAGES: readonly (readonly [number, number])[] = [
  [32_768, 500],
  [8_192, 100],
  [2_048, 30],
  [512, 10],
  [128, 5],
];

interface Cuts {
  strings: number;
  lists: number;
}

const sizeOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

function cutString(s: string, max: number, cuts: Cuts): string {
  if (s.length <= max) return s;
  cuts.strings++;
  return `${s.slice(0, max)}…[cut: ${s.length - max} more characters]`;
}

function shrink(value: unknown, maxString: number, maxItems: number, cuts: Cuts): unknown {
  if (typeof value === 'string') return cutString(value, maxString, cuts);
  if (Array.isArray(value)) {
    const items = value.slice(0, maxItems).map((v) => shrink(v, maxString, maxItems, cuts));
    if (value.length > maxItems) {
      cuts.lists++;
      items.push(`…[cut: ${value.length - maxItems} more items]`);
    }
    return items;
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = shrink(v, maxString, maxItems, cuts);
    return out;
  }
  return value;
}

/**
 * The answer itself when it fits; otherwise its long strings and lists cut (each cut place ends in
 * `…[cut: N more …]`) until it does, with a top-level `cut` saying so. `status` and the other
 * short fields are kept as they are.
 */
export function boundAnswer(answer: Record<string, unknown>): Record<string, unknown> {
  const before = sizeOf(answer);
  if (before <= MAX_ANSWER_BYTES) return answer;
  for (const [maxString, maxItems] of STAGES) {
    const cuts: Cuts = { strings: 0, lists: 0 };
    const { status, ...rest } = shrink(answer, maxString, maxItems, cuts) as Record<string, unknown>;
    const out = { status, cut: '', ...rest };
    out.cut = `This answer was ${before} bytes, over the ${MAX_ANSWER_BYTES}-byte ceiling: ${cuts.strings} strings cut to ${maxString} characters and ${cuts.lists} lists to ${maxItems} items, each marked "…[cut: …]". Ask for less (a selector, a limit) to see it whole.`;
    if (sizeOf(out) <= MAX_ANSWER_BYTES) return out;
  }
  // Only keys could still be this large (a page can name object keys): keep the status and say so.
  return {
    status: answer.status,
    cut: `This answer was ${before} bytes and could not be cut to fit ${MAX_ANSWER_BYTES} bytes; it is left out.`,
  };
}

/** Dialog entries an answer lists; an alert loop opens thousands. */
export const MAX_DIALOGS = 20;

/**
 * Dialogs as an answer lists them: a run of one dialog repeated is one entry with `times`, and
 * after MAX_DIALOGS entries one line counts the rest.
 */
export function summarizeDialogs<T extends object>(list: readonly T[] | undefined): unknown[] | undefined {
  if (!list?.length) return undefined;
  const runs: { entry: T; key: string; times: number }[] = [];
  for (const entry of list) {
    const key = JSON.stringify(entry);
    const last = runs[runs.length - 1];
    if (last?.key === key) last.times++;
    else runs.push({ entry, key, times: 1 });
  }
  const shown: unknown[] = runs
    .slice(0, MAX_DIALOGS)
    .map((r) => (r.times > 1 ? { ...r.entry, times: r.times } : r.entry));
  if (runs.length > MAX_DIALOGS) {
    const rest = runs.slice(MAX_DIALOGS).reduce((n, r) => n + r.times, 0);
    shown.push(`…[cut: ${rest} more dialogs; ${list.length} in all]`);
  }
  return shown;
}
