// Select Option (SPEC §9.8): picks options of a <select> by value, label or index, fires input and
// change, and when nothing matches lists the first options so the next call can get it right.

import { ExecutionError, type Deadline } from '../common/index.js';
import type { Scope } from '../page/index.js';
import type { OptionChoice } from '../injected/index.js';
import { prepareAction, type RefHolder, type TargetOptions, type TargetSpec } from './locate.js';
import { markBeforeAction, settleAfterAction, type SettleResult } from './settle.js';

export type { OptionChoice } from '../injected/index.js';

export interface SelectResult extends SettleResult {
  selected: string[];
  target: string;
  multiple: boolean;
  reResolved?: true;
}

export async function selectOption(
  scope: Scope,
  target: TargetSpec,
  choice: OptionChoice,
  refs: RefHolder,
  opts: TargetOptions,
  deadline: Deadline,
): Promise<SelectResult> {
  const a = await prepareAction(scope, target, 'select', refs, opts, deadline);
  const mark = markBeforeAction(scope.page);
  const r = await scope.call(
    (rt, x) => rt.formInput.selectOptions(x.handle, x.choice),
    { handle: a.handle, choice },
    { deadline, what: `selecting in ${a.desc}` },
  );
  if (!r.ok) {
    mark.stopListening();
    const options = r.options
      ?.map((o) => (o.value === o.label ? o.value : `${o.value || '""'} (${o.label})`))
      .join(', ');
    throw new ExecutionError(`${a.desc} ${r.message}${options ? `. Options: ${options}` : ''}`, {
      category: 'option-not-found',
      options: r.options,
    });
  }
  const settled = await settleAfterAction(scope.page, mark, deadline);
  return {
    selected: r.selected,
    target: a.name,
    multiple: r.multiple,
    ...settled,
    ...(a.reResolved ? { reResolved: true } : {}),
  };
}
