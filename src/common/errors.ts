// The error taxonomy: four types an agent can act on, and one named subclass per failure the
// spec names. Every thrown value is turned into output by runner/failure.ts, nowhere else.

export type ErrorType = 'PARSE' | 'VALIDATION' | 'CONNECTION' | 'EXECUTION';

export abstract class CdpSkillError extends Error {
  abstract readonly type: ErrorType;
  constructor(
    message: string,
    readonly details: Record<string, unknown> = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The input is empty, not JSON, or not a JSON object. */
export class ParseError extends CdpSkillError {
  readonly type = 'PARSE';
}
/** The command is well-formed JSON but not a valid command. */
export class ValidationError extends CdpSkillError {
  readonly type = 'VALIDATION';
}
/** Chrome cannot be reached, launched, or the tab cannot be attached or was lost. */
export class ConnectionError extends CdpSkillError {
  readonly type = 'CONNECTION';
}

/** A step failed while running. Subclasses name the failure. */
export class ExecutionError extends CdpSkillError {
  readonly type = 'EXECUTION';
}
export class NavigationError extends ExecutionError {}
export class NavigationAbortedError extends ExecutionError {}
export class TimeoutError extends ExecutionError {}
export class ElementNotFoundError extends ExecutionError {}
export class ElementNotEditableError extends ExecutionError {}
export class StaleElementError extends ExecutionError {}
export class PageCrashedError extends ExecutionError {}
export class ContextDestroyedError extends ExecutionError {}
/** A step's parameters are valid JSON for the step but unusable at run time (bad selector, …). */
export class StepValidationError extends ExecutionError {}
/** submit found invalid fields and did not submit (SPEC §11.12); the message lists them. */
export class FormValidationError extends ExecutionError {}
/** An assert step's check failed (SPEC §11.13); the message gives expected and actual. */
export class AssertionError extends ExecutionError {}
/** A request the `network` step asked for was not made during this command (Chrome keeps no detail of earlier ones). */
export class RequestNotFoundError extends ExecutionError {}
/** Page JavaScript threw. */
export class EvaluationError extends ExecutionError {}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
