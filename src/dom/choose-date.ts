// The date part of `choose` ({field, date: "YYYY-MM-DD" | [from, to]}): date pickers, written in
// their own module (issue 23 item 3). Until that lands, the step says so instead of guessing.

import { ExecutionError, type Deadline } from '../common/index.js';
import type { Scope } from '../page/index.js';
import type { TargetSpec } from './locate.js';

/** Picks `dates` (one day, or the two ends of a range) in the date picker `field` opens. */
export async function chooseDate(
  _scope: Scope,
  field: TargetSpec,
  dates: string[],
  _deadline: Deadline,
): Promise<Record<string, unknown>> {
  throw new ExecutionError(`date pickers are not supported yet (${dates.join(' to ')} for ${field.by} field)`, {
    category: 'no-effect',
  });
}
