// The step reference printed by --help, generated from the step registry.

import { allSteps } from './steps/index.js';

export function helpText(): string {
  const steps = allSteps();
  const width = Math.max(...steps.map((s) => s.name.length)) + 1;
  const rows = steps.map((s) => `  ${s.name.padEnd(width)} ${s.summary}`);
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
