// --debug: one JSON file per command in ./log/, named {seq}-{tab}-{actions}.{status}.json.
// Never allowed to disturb the command: every failure here is swallowed.

import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function debugLogName(seq: number, tab: string | undefined, actions: string[], status: string): string {
  const shown = actions.slice(0, 3);
  const more = actions.length > 3 ? [`plus${actions.length - 3}`] : [];
  const parts = [String(seq).padStart(3, '0'), ...(tab ? [tab] : []), ...shown, ...more];
  return `${parts.join('-')}.${status}.json`;
}

export function writeDebugLog(tab: string | undefined, actions: string[], status: string, request: unknown, response: unknown): void {
  try {
    const dir = join(process.cwd(), 'log');
    mkdirSync(dir, { recursive: true });
    const seqs = readdirSync(dir).map((f) => Number.parseInt(f.slice(0, 3), 10)).filter(Number.isFinite);
    const seq = (seqs.length ? Math.max(...seqs) : 0) + 1;
    const body = JSON.stringify({ ts: new Date().toISOString(), request, response }, null, 2);
    writeFileSync(join(dir, debugLogName(seq, tab, actions, status)), body, { mode: 0o600 });
  } catch {
    // SPEC §17.5: debug logging failures never affect the command.
  }
}
