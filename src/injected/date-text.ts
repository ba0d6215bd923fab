// Reading days the way pages write them: in attributes (an ISO day, epoch milliseconds) and in words
// ("Thursday, March 12th, 2026", "12 mars 2026", "03/12/2026"). Pure functions over strings, with the
// month names of the page's locales; date-picker.ts reads calendars and fields with them.

/** Month names, long and short, lowercased and without dots → month number (1–12). */
export type MonthNames = Map<string, number>;

const pad = (n: number): string => String(n).padStart(2, '0');

/** YYYY-MM-DD when the parts make a real day, else undefined. */
export function isoOf(y: number, m: number, d: number): string | undefined {
  if (!(y >= 1 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= 31)) return undefined;
  const date = new Date(Date.UTC(2000, m - 1, d));
  date.setUTCFullYear(y);
  return date.getUTCMonth() === m - 1 ? `${String(y).padStart(4, '0')}-${pad(m)}-${pad(d)}` : undefined;
}

/** The local day of a Date, as YYYY-MM-DD. */
export function localIso(date: Date): string {
  return `${String(date.getFullYear()).padStart(4, '0')}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The month names of `locales` (the page's and English), in the forms a day is written with. */
export function monthNames(locales: string[]): MonthNames {
  const names: MonthNames = new Map();
  const add = (s: string, m: number): void => {
    const k = s.toLowerCase().replace(/\./g, '').trim();
    if (k && !/^\d+$/.test(k) && !names.has(k)) names.set(k, m);
  };
  for (const locale of locales) {
    let formats: Intl.DateTimeFormat[];
    try {
      formats = (['long', 'short'] as const).flatMap((month) => [
        new Intl.DateTimeFormat(locale, { month }),
        // The form used next to a day number ("12 марта"): some languages inflect it.
        new Intl.DateTimeFormat(locale, { month, day: 'numeric' }),
      ]);
    } catch {
      continue; // a malformed lang attribute names no locale: its names are simply not known
    }
    for (let m = 0; m < 12; m++) {
      const day = new Date(2000, m, 15);
      for (const f of formats) for (const p of f.formatToParts(day)) if (p.type === 'month') add(p.value, m + 1);
    }
  }
  return names;
}

/** The day a date attribute names: an ISO day (a time may follow), or epoch milliseconds. */
export function dayOfAttribute(value: string): string | undefined {
  const v = value.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T\s])/.exec(v);
  if (iso) return isoOf(+iso[1]!, +iso[2]!, +iso[3]!);
  if (/^\d{11,14}$/.test(v)) {
    const d = new Date(Number(v));
    return d.getFullYear() >= 1000 && d.getFullYear() <= 9999 ? localIso(d) : undefined;
  }
  return undefined;
}

const WORD_SPLIT = /[^\p{L}\p{N}]+/u;

/** The day a name in words gives ("Thursday, March 12th, 2026"): a year, a month name and a day number. */
export function dayOfWords(text: string, months: MonthNames): string | undefined {
  let year: number | undefined;
  let month: number | undefined;
  let day: number | undefined;
  for (const token of text.toLowerCase().split(WORD_SPLIT)) {
    if (!token) continue;
    if (year === undefined && /^\d{4}$/.test(token)) year = +token;
    else if (month === undefined && months.has(token)) month = months.get(token);
    else if (day === undefined && /^\d{1,2}(?:st|nd|rd|th|er|e|\u00ba)?$/.test(token)) day = Number.parseInt(token, 10);
  }
  return year !== undefined && month !== undefined && day !== undefined ? isoOf(year, month, day) : undefined;
}

/** Every day `text` may name: ISO days, numbers in either order (d/m/y and m/d/y), days in words. */
export function daysIn(text: string, months: MonthNames): Set<string> {
  const found = new Set<string>();
  const add = (d: string | undefined): void => {
    if (d) found.add(d);
  };
  for (const m of text.matchAll(/\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b/g)) add(isoOf(+m[1]!, +m[2]!, +m[3]!));
  for (const m of text.matchAll(/\b(\d{1,2})[-/.\s](\d{1,2})[-/.\s](\d{4})\b/g)) {
    add(isoOf(+m[3]!, +m[2]!, +m[1]!));
    add(isoOf(+m[3]!, +m[1]!, +m[2]!));
  }
  // A range's two ends are written apart ("March 12, 2026 – March 15, 2026"); each is read on its own.
  for (const part of text.split(/\s[\u2013\u2014~-]\s|\s(?:to|bis|au|\u00e0|al|a|tot)\s|[\u2013\u2014~\u2192]/i))
    add(dayOfWords(part, months));
  return found;
}

/** The first day number a cell shows ("12", "12 $99"), if any. */
export function shownDayNumber(text: string): number | undefined {
  const m = /^\D{0,3}?(\d{1,2})(?!\d)/.exec(text.trim());
  return m ? +m[1]! : undefined;
}
