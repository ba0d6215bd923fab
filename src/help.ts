// The step reference printed by --help, generated from the step registry (every key of each step).

import { allSteps, paramsLine } from './steps/index.js';

export function helpText(): string {
  const steps = allSteps();
  const width = Math.max(...steps.map((s) => s.name.length)) + 1;
  const indent = ' '.repeat(width + 3);
  const rows = steps.flatMap((s) => [`  ${s.name.padEnd(width)} ${s.summary}`, `${indent}${paramsLine(s, true)}`]);
  return [
    '',
    'Input: {"tab"?: "t1", "timeout"?: ms, "stopOnError"?: bool, "steps": [{<step>: params, "optional"?: bool, "timeout"?: ms, "download"?: true|"path"}]}',
    '"download": the step starts a download: wait for it (within the step timeout) and save it at "path" (a folder: ending in "/"); every answer lists `downloads` [{name, path, bytes, state}]',
    'T (a target): "s1e4" (ref) | "css" | {ref|selector|text|label, exact, withinSelector}',
    '',
    'Steps:',
    ...rows,
    '',
    'Example:',
    '  cdp-skill \'{"steps":[{"openTab":"https://example.com"}]}\'',
    '  cdp-skill \'{"tab":"t1","steps":[{"pageFunction":"document.title"}]}\'',
  ].join('\n');
}
