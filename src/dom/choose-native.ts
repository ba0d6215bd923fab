// Choosing where no popup of the page's own opens: a native <select> by the keys a person presses
// on it (its drop-down is drawn by the browser, outside the page), a multiple <select> by
// Control-clicks on its rows, and radio groups or segmented controls by clicking the option.

import type { Deadline } from '../common/index.js';
import type { Page } from '../page/index.js';
import { MATCH, optionScore, parseOptionWant } from '../shared/index.js';
import { focusElement } from './focus.js';
import { parseCombo } from './key-combo.js';
import { pressCombo } from './keyboard.js';
import { prepareAction } from './locate.js';
import { clickAt, moveMouse, type Point } from './mouse.js';
import { awaitTaken, lookOnce, notFoundError, press, refusedError, seek, type Seeker } from './choose-seek.js';

/** Rounds of arrow keys tried before a <select> that does not follow them counts as refusing. */
const ARROW_ROUNDS = 3;

interface NativeOption {
  label: string;
  lines: string[];
  disabled?: true;
  selected?: true;
}

/** The index of the option `want` names among a <select>'s options; fails when none or several do. */
function nativeIndex(options: NativeOption[], want: string, exact: boolean): number {
  const w = parseOptionWant(want);
  const scores = options.map((o) => optionScore(w, o.lines, exact));
  const best = Math.max(MATCH.none, ...scores);
  const hits = scores.flatMap((sc, i) => (best > MATCH.none && sc === best ? [i] : []));
  if (hits.length === 1) return hits[0]!;
  if (hits.length > 1)
    throw refusedError(
      `${hits.length} options match "${want}": ${hits.map((i) => `"${options[i]!.label}"`).join(', ')}. Name one whole`,
    );
  return -1;
}

/** Arrow presses from `from` to `to`: the keys skip disabled options, so only enabled ones count. */
function arrowPresses(options: NativeOption[], from: number, to: number): { key: string; times: number } {
  const [lo, hi] = from < to ? [from, to] : [to, from];
  const times = options.slice(lo + 1, hi + 1).filter((o, i) => !o.disabled || lo + 1 + i === to).length;
  return { key: from < to ? 'ArrowDown' : 'ArrowUp', times };
}

/** A native single <select>: focused, then the arrow keys to the option (each fires input and change, trusted). */
export async function chooseInSelect(s: Seeker, want: string): Promise<string> {
  await focusElement(s.scope, { by: 'ref', ref: s.controlRef }, s.refs, {}, s.deadline);
  for (let round = 0; round < ARROW_ROUNDS; round++) {
    const r = await s.scope.call((rt, h) => rt.choose.nativeOptions(h), s.control, { deadline: s.deadline });
    const to = nativeIndex(r.options, want, s.exact);
    if (to < 0)
      throw notFoundError(
        want,
        r.options.map((o) => o.label),
        { total: r.options.length, loading: false },
        0,
      );
    const target = r.options[to]!;
    if (target.disabled) throw refusedError(`"${target.label}" is disabled: the <select> does not take it`, 'disabled');
    if (r.index === to) return target.label;
    const move = arrowPresses(r.options, Math.max(r.index, -1), to);
    const parsed = parseCombo(move.key);
    if (!parsed.ok) break;
    for (let i = 0; i < move.times; i++) await pressCombo(s.scope.page.session, parsed.combo, s.deadline);
  }
  throw refusedError(`the <select> did not move to "${want}" with the arrow keys`);
}

/** Control (Command on macOS) held: a multiple <select> adds the row instead of replacing the choice. */
const TOGGLE_MODIFIER = process.platform === 'darwin' ? 4 : 2;

async function toggleClick(page: Page, at: Point, deadline: Deadline): Promise<void> {
  await moveMouse(page, at, deadline);
  await clickAt(page, at, deadline, 1, { modifiers: TOGGLE_MODIFIER });
}

/**
 * Options shown in the page itself (radios, segmented controls, a multiple <select>'s rows): each
 * not yet chosen is clicked (Control+click in a multiple <select>) and must be chosen after.
 */
export async function chooseInGroup(s: Seeker, wants: string[], multiple: boolean): Promise<string[]> {
  const chosen: string[] = [];
  for (const want of wants) {
    const m = await seek(s, want, 0, false);
    chosen.push(m.label);
    if (m.selected) continue;
    if (multiple) {
      const a = await prepareAction(s.scope, { by: 'ref', ref: m.ref }, 'click', s.refs, {}, s.deadline);
      await toggleClick(s.scope.page, a, s.deadline);
    } else await press(s, m.ref);
    if (!(await awaitTaken(s, async () => !!(await lookOnce(s, want)).match?.selected)))
      throw refusedError(`"${m.label}" was clicked, but the field did not take it`);
  }
  return chosen;
}
