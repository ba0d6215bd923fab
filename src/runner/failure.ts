// One place that turns any thrown value into output: the error type, the subtype name, and a
// message an agent can act on. Never a stack trace.

import { CdpSkillError, ExecutionError, TimeoutError, type ErrorType } from '../common/index.js';
import { isContextDestroyed } from '../cdp/index.js';

export interface ClassifiedError {
  type: ErrorType;
  /** The named subtype (TimeoutError, ElementNotFoundError, …), when it says more than the type. */
  name?: string;
  message: string;
}

export function classify(err: unknown): ClassifiedError {
  if (err instanceof CdpSkillError) {
    const named = err instanceof ExecutionError && err.name !== 'ExecutionError' && err.name !== 'ProtocolError';
    return { type: err.type, ...(named ? { name: err.name } : {}), message: err.message };
  }
  if (isContextDestroyed(err)) {
    return { type: 'EXECUTION', name: 'ContextDestroyedError', message: 'The page navigated or reloaded while the step ran; its JavaScript context is gone. Retry the step on the new page.' };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { type: 'EXECUTION', message: message || 'Unknown error' };
}

export function isTimeout(err: unknown): boolean {
  return err instanceof TimeoutError;
}
