// How `choose` names an option, written once for both sides: the page matches options with it and
// the Node side words its messages with it. An option is read as lines (its first line is its
// name, the others its secondary text); agents write it "Name — secondary · parts" (an em dash).

/** What an agent asked for: the name, and the secondary parts written after an em dash. */
export interface OptionWant {
  /** As written, whitespace collapsed. */
  text: string;
  /** Before the em dash (the whole text when there is none). */
  primary: string;
  /** After the em dash, split at middle dots, bullets and bars: each must be in the option's text. */
  secondary: string[];
}

/** An option's name: its first line, as the field shows it once chosen. */
export function optionName(lines: readonly string[]): string {
  return lines.map(collapse).filter(Boolean)[0] ?? '';
}

/** How well an option matches: 0 not at all; then containing, name equal, whole text equal. */
export const MATCH = { none: 0, contains: 1, name: 2, whole: 3 } as const;

const SECONDARY_SPLIT = /\s*[\u00b7\u2022|]\s*/;
/** The em dash agents write between an option's name and its secondary text. */
const DASH = '\u2014';

/** Arrows a row draws after its name to say it opens more (a submenu's "\u203a"): not part of the name. */
const TRAILING_ARROWS = /[\s\u203a\u00bb\u25b8\u25b6\u25ba\u2192>]+$/;

function collapse(s: string): string {
  return s
    .replace(/[\s\u200b]+/g, ' ')
    .replace(TRAILING_ARROWS, '')
    .trim();
}

export function parseOptionWant(raw: string): OptionWant {
  const text = collapse(raw);
  const at = text.indexOf(DASH);
  if (at < 0) return { text, primary: text, secondary: [] };
  const secondary = text
    .slice(at + 1)
    .split(SECONDARY_SPLIT)
    .map((s) => s.trim())
    .filter(Boolean);
  return { text, primary: text.slice(0, at).trim(), secondary };
}

/** An option as agents write it back: its first line, then " — " and the other lines joined by " · ". */
export function optionLabel(lines: readonly string[]): string {
  const [first = '', ...rest] = lines.map(collapse).filter(Boolean);
  return rest.length ? `${first} ${DASH} ${rest.join(' \u00b7 ')}` : first;
}

/** The score of an option (its text as lines) for `want`; `exact` compares case and whole words. */
export function optionScore(want: OptionWant, lines: readonly string[], exact: boolean): number {
  const clean = lines.map(collapse).filter(Boolean);
  if (!clean.length || !want.primary) return MATCH.none;
  const fold = (s: string): string => (exact ? s : s.toLowerCase());
  const whole = fold(clean.join(' '));
  const label = fold(optionLabel(clean));
  const name = fold(clean[0]!);
  const primary = fold(want.primary);
  const rest = fold(clean.slice(1).join(' '));
  // Secondary parts are looked for in the lines after the name, else anywhere in the text.
  const hasSecondary = want.secondary.every((p) => rest.includes(fold(p)) || whole.includes(fold(p)));
  if (!hasSecondary) return MATCH.none;
  if (fold(want.text) === whole || fold(want.text) === label) return MATCH.whole;
  if (name === primary || (!want.secondary.length && whole === primary)) return MATCH.name;
  if (exact) return MATCH.none;
  return name.includes(primary) || whole.includes(primary) ? MATCH.contains : MATCH.none;
}

/** Options seen, nearest to `wanted` first (shared words, then edit distance), for a failure's message. */
export function nearestFirst(
  wanted: string,
  labels: readonly string[],
  distance: (a: string, b: string) => number,
): string[] {
  const w = collapse(wanted).toLowerCase();
  const words = new Set(w.split(/\W+/).filter(Boolean));
  const rank = (label: string): number => {
    const l = label.toLowerCase();
    if (l.includes(w) || w.includes(l)) return -1_000;
    const shared = l.split(/\W+/).filter((x) => x && words.has(x)).length;
    return distance(w, l.slice(0, w.length + 8)) - shared * 10;
  };
  return labels
    .map((label, i) => ({ label, i, r: rank(label) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.label);
}
