// The runnable examples of EXAMPLES.md: every `cdp-skill '…'` line of its sh blocks.
import { readFileSync } from 'node:fs';

export interface Example {
  command: string;
  expectError: boolean;
}

/**
 * The `cdp-skill '…'` lines of EXAMPLES.md's sh blocks, in order. Blocks marked `# farm: <name>`
 * need a farm: they are the farm tests' (farm-grid.test.ts runs `farm: grid`), not this file's.
 */
export function examples(farm?: string): Example[] {
  const text = readFileSync(new URL('../../EXAMPLES.md', import.meta.url), 'utf8');
  const out: Example[] = [];
  for (const block of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
    if (/^# farm: (\S+)$/m.exec(block[1]!)?.[1] !== farm) continue;
    const expectError = /^# expect: error$/m.test(block[1]!);
    for (const line of block[1]!.split('\n')) {
      const m = /^cdp-skill '(.*)'$/.exec(line);
      if (m) out.push({ command: m[1]!, expectError });
    }
  }
  return out;
}
