// A day typed into a date field's sections, as a person types it: Chrome's own <input type=date> in
// the order its locale shows (read from the input's user-agent shadow tree, never assumed), and a
// field of sections such as MUI's, each section pressed and typed. Never a value set in JavaScript.

import { ElementNotEditableError, ExecutionError, type Deadline } from '../common/index.js';
import type { Protocol } from '../cdp/index.js';
import type { Scope } from '../page/index.js';
import { sectionDigits, sectionKind, type DateSectionKind } from '../shared/index.js';
import { press } from './choose-seek.js';
import { revealFramePoint } from './frame-point.js';
import { parseCombo } from './key-combo.js';
import { pressCombo, typeText } from './keyboard.js';
import type { RefHolder } from './locate.js';
import { clickAt, moveMouse } from './mouse.js';

/** What a date step knows while it acts: where, the ref counters, the deadline, the field. */
export interface DateRun {
  scope: Scope;
  refs: RefHolder;
  deadline: Deadline;
  /** The field's face, held in our world. */
  handle: number;
  name: string;
  wants: string[];
}

interface NativeLayout {
  /** The sections in the order Chrome shows them for the browser's locale. */
  kinds: DateSectionKind[];
  /** The text the input shows ("12/03/2026"). */
  text: string;
}

const attr = (n: Protocol.DOM.Node, name: string): string | undefined => {
  const a = n.attributes ?? [];
  for (let i = 0; i < a.length; i += 2) if (a[i] === name) return a[i + 1];
  return undefined;
};

/** Reads the input's user-agent shadow tree (DOM.describeNode pierces it): its sections and text. */
async function nativeLayout(run: DateRun): Promise<NativeLayout> {
  const { scope, deadline } = run;
  const objectId = await scope.heldElementObjectId(run.handle, deadline);
  const { node } = await scope.page.guard(
    deadline.race(
      scope.session.send('DOM.describeNode', { objectId, depth: -1, pierce: true }),
      'the date input to be described',
    ),
  );
  const kinds: DateSectionKind[] = [];
  let text = '';
  const walk = (n: Protocol.DOM.Node, inFields: boolean): void => {
    const pseudo = attr(n, 'pseudo') ?? '';
    const fields = inFields || pseudo === '-webkit-datetime-edit-fields-wrapper';
    if (attr(n, 'role') === 'spinbutton') {
      const kind = sectionKind(Number(attr(n, 'aria-valuemin') ?? 0), Number(attr(n, 'aria-valuemax')));
      if (kind) kinds.push(kind);
    }
    if (fields && n.nodeType === 3) text += n.nodeValue ?? '';
    for (const child of [...(n.shadowRoots ?? []), ...(n.children ?? [])]) walk(child, fields);
  };
  walk(node, false);
  return { kinds, text: text.trim() };
}

/** A key (or combo) pressed as a person does. */
export async function pressKey(run: DateRun, key: string): Promise<void> {
  const parsed = parseCombo(key);
  if (parsed.ok) await pressCombo(run.scope.page.session, parsed.combo, run.deadline);
}

/**
 * Chrome's date input: a click on its first section, then each section's digits. Day and month
 * move on by themselves after two digits; a year does not (it may take six), so a year that is
 * not the last section is left with ArrowRight.
 */
export async function typeNativeDate(
  run: DateRun,
  want: string,
  bounds: { min?: string; max?: string },
): Promise<string> {
  if ((bounds.min && want < bounds.min) || (bounds.max && want > bounds.max))
    throw new ExecutionError(
      `${run.name} takes days from ${bounds.min ?? 'any day'} to ${bounds.max ?? 'any day'}: ${want} is out of its range, nothing was typed`,
      { category: 'disabled' },
    );
  const layout = await nativeLayout(run);
  if (layout.kinds.length !== 3)
    throw new ExecutionError(`${run.name} shows no day, month and year sections to type in (saw "${layout.text}")`, {
      category: 'no-effect',
    });
  const local = await run.scope.call((rt, h) => rt.datePicker.nativeFirstSection(h), run.handle, {
    deadline: run.deadline,
    what: 'the date input',
  });
  if (!local) throw new ElementNotEditableError(`${run.name} is not visible: there is nothing to type in`);
  const at = run.scope.frame ? await revealFramePoint(run.scope.page, run.scope.frameId, local, run.deadline) : local;
  await moveMouse(run.scope.page, at, run.deadline);
  await clickAt(run.scope.page, at, run.deadline);
  for (const [i, kind] of layout.kinds.entries()) {
    await typeText(run.scope.page.session, sectionDigits(kind, want), 0, run.deadline);
    if (kind === 'year' && i < layout.kinds.length - 1) await pressKey(run, 'ArrowRight');
  }
  return (await nativeLayout(run)).text;
}

/** A field of sections (MUI's): each section pressed, then its digits typed. */
export async function typeSections(run: DateRun, want: string): Promise<void> {
  const { sections, counters } = await run.scope.call(
    (rt, a) => rt.datePicker.dateSections(a.handle, a.counters),
    { handle: run.handle, counters: run.refs.counters },
    { deadline: run.deadline, what: "the field's sections" },
  );
  run.refs.counters = counters;
  if (sections.length !== 3)
    throw new ExecutionError(`${run.name} has no day, month and year sections to type in`, { category: 'no-effect' });
  for (const s of sections) {
    await press(run, s.ref);
    await typeText(run.scope.page.session, sectionDigits(s.kind, want), 0, run.deadline);
  }
}
