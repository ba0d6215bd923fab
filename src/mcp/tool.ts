// The one MCP tool, `browser`: its input is the CLI's command object, its description the short
// playbook with every step's line from the step registry (as SKILL.md's list is generated), so the
// whole tools/list an agent pays for stays within a few kilobytes.

import { compactStepList } from '../steps/index.js';

export const TOOL_NAME = 'browser';

const PLAYBOOK = `Drive a real Chrome: one call, one command, one JSON answer (the cdp-skill CLI's engine).
Start {"steps":[{"openTab":"https://..."}]}, then pass "tab":"t1". Steps run in order, stop at the first failure. End with {"steps":[{"closeTab":"t1"}]}.
Answer: context (what changed), changes, viewportSnapshot (YAML; act on refs s1e4), steps[].output, dialogs, betweenCommands (since your last call). Failed step: error, nextStep, context.
T = "s1e4" | "css" | {ref|selector|text|label, exact}. Any step takes "optional", "timeout" (ms).
Steps (forms -> output):
`;

/** The tool as tools/list gives it. */
export function browserTool(): { name: string; description: string; inputSchema: Record<string, unknown> } {
  return {
    name: TOOL_NAME,
    description: `${PLAYBOOK}${compactStepList().replaceAll(' → ', ' -> ')}`,
    inputSchema: {
      type: 'object',
      properties: {
        tab: { type: 'string', description: 'tab alias from openTab, e.g. "t1"' },
        steps: { type: 'array', items: { type: 'object' }, description: 'e.g. [{"click":"s1e4"}]' },
        timeout: { type: 'number', description: 'ms per step (default 30000)' },
        stopOnError: { type: 'boolean' },
      },
      required: ['steps'],
    },
  };
}
