// The choose step's parameters (every field form, option / options / date, the mistakes agents make
// named before anything runs), and the shared option text both sides match with: names, secondary
// text after an em dash, same-named options, near matches first.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/common/index.js';
import { validateCommand } from '../../src/runner/index.js';
import {
  editDistance,
  MATCH,
  nearestFirst,
  optionLabel,
  optionName,
  optionScore,
  parseOptionWant,
} from '../../src/shared/index.js';

const params = async (choose: unknown): Promise<unknown> =>
  (await validateCommand({ tab: 't1', steps: [{ choose }] })).steps[0]!.params;
async function rejects(choose: unknown, message: RegExp): Promise<void> {
  const err = await params(choose).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationError);
  expect((err as Error).message).toMatch(message);
}

describe('choose params', () => {
  it('reads the field in every form: a ref, CSS or a label as a string, or an object', async () => {
    expect(await params({ field: 's1e4', option: 'Chile' })).toMatchObject({
      field: { by: 'ref', ref: 's1e4' },
      path: ['Chile'],
      exact: false,
    });
    expect(await params({ field: 'Time zone', option: 'UTC' })).toMatchObject({
      field: { by: 'field', key: 'Time zone' },
    });
    expect(await params({ field: { label: 'Country', exact: true }, option: 'Chile' })).toMatchObject({
      field: { by: 'label', label: 'Country', exact: true },
    });
    expect(await params({ field: { text: 'Actions' }, option: ['Share with team', 'Finance'] })).toMatchObject({
      field: { by: 'text', text: 'Actions' },
      path: ['Share with team', 'Finance'],
    });
    expect(await params({ field: { selector: '#tags' }, options: ['a', 'b'], exact: true })).toMatchObject({
      field: { by: 'css', selector: '#tags' },
      many: ['a', 'b'],
      exact: true,
    });
  });

  it('reads a day and a range', async () => {
    expect(await params({ field: 'Check-in', date: '2026-03-12' })).toMatchObject({ dates: ['2026-03-12'] });
    expect(await params({ field: 'Stay', date: ['2026-03-12', '2026-03-15'] })).toMatchObject({
      dates: ['2026-03-12', '2026-03-15'],
    });
  });

  it('names the mistakes before anything runs', async () => {
    await rejects({ option: 'Chile' }, /choose needs "field"/);
    await rejects({ field: 'Country' }, /exactly one of "option", "options", "date"/);
    await rejects({ field: 'Country', option: 'Chile', date: '2026-03-12' }, /exactly one of/);
    await rejects({ field: 'Country', option: [] }, /"option" must be a non-empty string or array/);
    await rejects({ field: 'Country', options: ['a', ''] }, /"options" must be a non-empty string or array/);
    await rejects({ field: '  ', option: 'a' }, /"field" must not be empty/);
    await rejects({ field: { label: 'A', text: 'B' }, option: 'a' }, /exactly one target/);
    await rejects({ field: 'Check-in', date: '2026-02-30' }, /"YYYY-MM-DD"/);
    await rejects({ field: 'Check-in', date: '12/03/2026' }, /"YYYY-MM-DD"/);
    await rejects({ field: 'Stay', date: ['2026-03-15', '2026-03-12'] }, /ends \(2026-03-12\) before it starts/);
    await rejects({ field: 'Stay', date: ['2026-03-15'] }, /a range \[from, to\]/);
    await rejects({ field: 'Country', value: 'Chile' }, /unknown key "value"/);
  });
});

describe('option text', () => {
  it('parses a name and its secondary parts after an em dash', () => {
    expect(parseOptionWant('Northwind Traders \u2014 C-1043 \u00b7 active')).toEqual({
      text: 'Northwind Traders \u2014 C-1043 \u00b7 active',
      primary: 'Northwind Traders',
      secondary: ['C-1043', 'active'],
    });
    expect(parseOptionWant('  Chile ')).toEqual({ text: 'Chile', primary: 'Chile', secondary: [] });
  });

  it('writes an option as agents name it back, without the arrows rows draw', () => {
    expect(optionLabel(['Northwind Traders', 'C-1043 \u00b7 active'])).toBe(
      'Northwind Traders \u2014 C-1043 \u00b7 active',
    );
    expect(optionName(['Share with team \u203a'])).toBe('Share with team');
  });

  it('tells same-named options apart by their secondary text only', () => {
    const a = ['Northwind Traders', 'C-1043 \u00b7 active'];
    const b = ['Northwind Traders', 'C-2210 \u00b7 closed'];
    const name = parseOptionWant('Northwind Traders');
    expect(optionScore(name, a, false)).toBe(optionScore(name, b, false)); // a tie: the step fails listing both
    const closed = parseOptionWant('Northwind Traders \u2014 C-2210 \u00b7 closed');
    expect(optionScore(closed, a, false)).toBe(MATCH.none);
    expect(optionScore(closed, b, false)).toBe(MATCH.whole);
    expect(optionScore(parseOptionWant('Northwind Traders \u2014 closed'), b, false)).toBe(MATCH.name);
  });

  it('prefers the whole name to a part of one, and exact compares case and whole names', () => {
    const want = parseOptionWant('argentina');
    expect(optionScore(want, ['Argentina'], false)).toBe(MATCH.whole);
    expect(optionScore(want, ['America/Argentina/Ushuaia'], false)).toBe(MATCH.contains);
    expect(optionScore(want, ['Argentina'], true)).toBe(MATCH.none);
    expect(optionScore(parseOptionWant('Argentina'), ['Argentina'], true)).toBe(MATCH.whole);
    expect(optionScore(parseOptionWant('Argent'), ['Argentina'], true)).toBe(MATCH.none);
    expect(optionScore(want, [], false)).toBe(MATCH.none);
  });

  it('lists the options seen nearest first', () => {
    expect(nearestFirst('Sevilla', ['Madrid', 'Seville', 'Lisbon'], editDistance)[0]).toBe('Seville');
    expect(nearestFirst('Part 17', ['Part 0001', 'Part 1777', 'Bolt'], editDistance)[0]).toBe('Part 1777');
  });
});
