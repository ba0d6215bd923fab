// Form steps that read or submit: formState (SPEC §11.10), validate (§11.11) and submit (§11.12).
// Validity is read without firing `invalid` events; submit acts like a user and never submits an
// invalid form (FormValidationError lists the fields instead).

import { ElementNotFoundError, StaleElementError, StepValidationError } from '../common/index.js';
import { locate, lookupWindowMs, submitForm, type TargetSpec } from '../dom/index.js';
import type { FormFailure } from '../injected/index.js';
import { defineStep, type ParamSchema } from './registry.js';
import { describe, isObj, obj, ParamError } from './params.js';
import { objectTarget, stringTarget } from './targets.js';
import { settledOutput } from './interaction.js';

/** The target keys formState, validate and submit take (T in the docs). */
const FORM_TARGET = { selector: '-', ref: '-', text: '-', label: '-', exact: '-' } as const;
const TARGET_FORMS = Object.keys(FORM_TARGET);

function readTarget(v: unknown, step: string): TargetSpec {
  if (typeof v === 'string') return stringTarget(v, step);
  if (!isObj(v)) throw new ParamError(`${step} takes a selector, a ref or {selector|ref|label}; got ${describe(v)}`);
  return objectTarget(obj(v, TARGET_FORMS, step), step, TARGET_FORMS);
}

function formFailure(f: FormFailure, step: string): Error {
  if (f.reason === 'gone')
    return new StaleElementError(`The element was removed from the page before ${step} could read it`);
  if (f.reason === 'not-field') return new StepValidationError(`${f.desc} is not a form field or form`);
  return new ElementNotFoundError(
    f.desc
      ? `${f.desc} is not in a form and holds no fields`
      : "The page has no form (no <form>, no role=form); give the selector of the fields' container",
  );
}

const FORM_STATE_PARAMS: ParamSchema = {
  forms: ['true', 'T'],
  keys: FORM_TARGET,
  returns: 'fields with label, value, valid',
};

defineStep<{ target?: TargetSpec }>({
  name: 'formState',
  summary: 'Fields of a form',
  params: FORM_STATE_PARAMS,
  needsTab: true,
  readOnly: true,
  parse(v) {
    return v === true ? {} : { target: readTarget(v, 'formState') };
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const handle = p.target
      ? (await locate(ctx.scope, p.target, tab.entry, { timeoutMs: lookupWindowMs(ctx.deadline) }, ctx.deadline)).handle
      : undefined;
    const r = await ctx.scope.call((rt, h) => rt.formState.formState(h), handle, {
      deadline: ctx.deadline,
      what: 'the form state',
    });
    if (!r.ok) throw formFailure(r, 'formState');
    const { ok, ...state } = r;
    return state;
  },
});

const VALIDATE_PARAMS: ParamSchema = { forms: ['T'], keys: FORM_TARGET, returns: '{valid}' };

defineStep<{ target: TargetSpec }>({
  name: 'validate',
  summary: 'HTML validity of a field or form',
  params: VALIDATE_PARAMS,
  needsTab: true,
  readOnly: true,
  parse(v) {
    return { target: readTarget(v, 'validate') };
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const { handle } = await locate(
      ctx.scope,
      p.target,
      tab.entry,
      { timeoutMs: lookupWindowMs(ctx.deadline) },
      ctx.deadline,
    );
    const r = await ctx.scope.call((rt, h) => rt.formState.validateHeld(h), handle, {
      deadline: ctx.deadline,
      what: 'the validity',
    });
    if (!r.ok) throw formFailure(r, 'validate');
    const { ok, ...state } = r;
    return state;
  },
});

const SUBMIT_PARAMS: ParamSchema = {
  forms: ['T'],
  keys: FORM_TARGET,
  returns: '{submitted}',
  note: 'invalid: not sent',
};

defineStep<{ target: TargetSpec }>({
  name: 'submit',
  verb: 'Submitted',
  summary: 'Submit a form like a user (requestSubmit)',
  params: SUBMIT_PARAMS,
  needsTab: true,
  readOnly: false,
  parse(v) {
    return { target: readTarget(v, 'submit') };
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const r = await submitForm(
      ctx.scope,
      p.target,
      tab.entry,
      { timeoutMs: lookupWindowMs(ctx.deadline) },
      ctx.deadline,
    );
    const { navigated, newUrl, opened, warning, ...rest } = r;
    return { ...rest, ...(await settledOutput(tab, r)), ...(warning ? { warnings: [warning] } : {}) };
  },
});
