// The step reference printed by --help, generated from the step registry.

import { allSteps } from './steps/index.js';

export function helpText(): string {
  const rows = allSteps().map((s) => `  ${s.name.padEnd(14)} ${s.summary}`);
  return [
    '',
    'Input: {"tab"?: "t1", "timeout"?: ms, "stopOnError"?: bool, "steps": [{<step>: params, "optional"?: bool, "timeout"?: ms}]}',
    '',
    'Steps:',
    ...rows,
    '',
    'Example:',
    '  cdp-skill \'{"steps":[{"openTab":"https://example.com"}]}\'',
    '  cdp-skill \'{"tab":"t1","steps":[{"pageFunction":"document.title"}]}\'',
  ].join('\n');
}
