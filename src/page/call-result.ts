// A page call's answer, the same for every form of the seam (evaluate.ts, handles.ts): within the
// deadline, a runaway script terminated rather than left holding the page, page exceptions mapped
// to our errors.

import { EvaluationError, TimeoutError, type Deadline } from '../common/index.js';
import { isTerminated, type CdpSession, type Protocol } from '../cdp/index.js';

function exceptionText(details: Protocol.Runtime.ExceptionDetails): string {
  return details.exception?.description?.split('\n')[0] ?? details.exception?.value?.toString() ?? details.text;
}

/** The response of `call` (Runtime.evaluate or callFunctionOn) within the deadline; a page exception as our error. */
export async function answered<T extends { exceptionDetails?: Protocol.Runtime.ExceptionDetails }>(
  session: CdpSession,
  call: Promise<T>,
  options: { deadline?: Deadline; what?: string },
): Promise<T> {
  let response: T;
  if (options.deadline) {
    try {
      response = await options.deadline.race(call, options.what ?? 'a page evaluation');
    } catch (err) {
      if (err instanceof TimeoutError) await terminate(session);
      throw err;
    }
  } else {
    response = await call;
  }
  if (response.exceptionDetails) {
    if (isTerminated(exceptionText(response.exceptionDetails)))
      throw new TimeoutError(`${options.what ?? 'The evaluation'} was terminated`);
    throw new EvaluationError(exceptionText(response.exceptionDetails), {
      exception: response.exceptionDetails.exception?.description,
    });
  }
  return response;
}

/** Stops a runaway script (an infinite loop keeps the page's main thread, and so us, waiting). */
export async function terminate(session: CdpSession): Promise<void> {
  try {
    await session.sendWith('Runtime.terminateExecution', undefined, { timeoutMs: 2_000 });
  } catch {
    // Nothing was running, or the tab is gone: either way there is nothing left to stop.
  }
}
