// A date typed in sections, as Chrome's <input type=date> and MUI's pickers show it: which section
// is the day, the month or the year (told by its range, whatever the locale calls it), and the
// digits a person types in it. The page reads MUI's sections; the Node side reads Chrome's own.

export type DateSectionKind = 'day' | 'month' | 'year';

/** A section by its spin range: 1–12 is the month, up to 28–31 the day, anything wider the year. */
export function sectionKind(min: number, max: number): DateSectionKind | undefined {
  if (!Number.isFinite(max)) return undefined;
  if (max === 12 && min <= 1) return 'month';
  if (max >= 28 && max <= 31) return 'day';
  if (max >= 999) return 'year';
  return undefined;
}

/** The digits typed in one section for the day `iso` (YYYY-MM-DD): two for day and month, four for the year. */
export function sectionDigits(kind: DateSectionKind, iso: string): string {
  const [y, m, d] = iso.split('-');
  return kind === 'year' ? y! : kind === 'month' ? m! : d!;
}
