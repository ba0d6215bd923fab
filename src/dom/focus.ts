// Keyboard focus for the element a keyboard step names: found and made ready by the shared
// resolver (locate.ts), then focused as a click would focus it, caret at the end.

import { ElementNotEditableError, type Deadline } from '../common/index.js';
import type { Scope } from '../page/index.js';
import { prepareAction, type Located, type RefHolder, type TargetOptions, type TargetSpec } from './locate.js';

export async function focusElement(
  scope: Scope,
  target: TargetSpec,
  refs: RefHolder,
  opts: TargetOptions,
  deadline: Deadline,
): Promise<Located> {
  const el = await prepareAction(scope, target, 'focus', refs, opts, deadline);
  const r = await scope.call((rt, h) => rt.formInput.focusHeld(h), el.handle, {
    deadline,
    what: `${el.desc} to take focus`,
  });
  if (!r.ok) throw new ElementNotEditableError(`${el.desc} ${r.message}`, { category: 'not-editable' });
  return el;
}
