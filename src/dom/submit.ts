// Submit (SPEC §11.12): submits the form of the target the way a user does (requestSubmit with the
// default button, so the page's handlers run) and reports navigation — or, when fields are
// invalid, submits nothing and fails with FormValidationError naming each invalid field.

import {
  ElementNotFoundError,
  ExecutionError,
  FormValidationError,
  StaleElementError,
  type Deadline,
} from '../common/index.js';
import type { Scope } from '../page/index.js';
import type { InvalidField, PageRuntime } from '../injected/index.js';
import { DEFAULT_ACTION_TIMEOUT_MS, locate, type RefHolder, type TargetOptions, type TargetSpec } from './locate.js';
import { markBeforeAction, settleAfterAction, type SettleResult } from './settle.js';

export interface SubmitResult extends SettleResult {
  submitted: true;
  valid: true;
  form: string;
  submitter?: string;
  /** The page's submit handler called preventDefault (a script form): it handled the data itself. */
  handledByScript?: true;
}

/** Time left after the element lookup for the step's own work, so a missing element fails as not found. */
const AFTER_LOOKUP_MS = 500;

/** How long a read or submit step waits for its element: the usual actionability wait, within the step's time. */
export function lookupWindowMs(deadline: Deadline): number {
  return Math.max(0, Math.min(DEFAULT_ACTION_TIMEOUT_MS, deadline.remainingMs() - AFTER_LOOKUP_MS));
}

export function describeInvalid(fields: InvalidField[]): string {
  return (
    fields
      .slice(0, 10)
      .map(
        (f) =>
          `${f.selector}${f.validity.length ? ` [${f.validity.join(', ')}]` : ''}${f.message ? ` "${f.message}"` : ''}`,
      )
      .join('; ') + (fields.length > 10 ? `; and ${fields.length - 10} more` : '')
  );
}

export async function submitForm(
  scope: Scope,
  target: TargetSpec,
  refs: RefHolder,
  opts: TargetOptions,
  deadline: Deadline,
): Promise<SubmitResult> {
  const located = await locate(scope, target, refs, opts, deadline);
  const mark = markBeforeAction(scope.page);
  let r: Awaited<ReturnType<PageRuntime['formState']['submitHeld']>>;
  try {
    r = await scope.call((rt, h) => rt.formState.submitHeld(h), located.handle, {
      deadline,
      what: `submitting ${located.desc}`,
    });
  } catch (err) {
    mark.stopListening();
    throw err;
  }
  if (!r.ok) {
    mark.stopListening();
    switch (r.reason) {
      case 'invalid':
        throw new FormValidationError(
          `Form ${r.form} not submitted: ${r.invalid.length} invalid field${r.invalid.length > 1 ? 's' : ''}: ${describeInvalid(r.invalid)}`,
          { invalid: r.invalid },
        );
      case 'disabled':
        throw new ExecutionError(
          `Form ${r.form} not submitted: its submit button ${r.submitter} is disabled (a user could not press it either)`,
        );
      case 'no-form':
        throw new ElementNotFoundError(`${located.desc} is not in a <form>; click its submit button instead`);
      default:
        throw new StaleElementError(`${located.desc} was removed from the page before it could be submitted`);
    }
  }
  if (!r.submitted) {
    mark.stopListening();
    throw new ExecutionError(`Form ${r.form} did not submit (no submit event fired)`);
  }
  const settled = await settleAfterAction(scope.page, mark, deadline);
  return {
    submitted: true,
    valid: true,
    form: r.form,
    ...(r.submitter ? { submitter: r.submitter } : {}),
    ...(r.prevented ? { handledByScript: true } : {}),
    ...settled,
  };
}
