// CDP_METRICS_FILE: one JSON line per command (SPEC §17.6). Failures are ignored.

import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export interface MetricsLine {
  ts: string;
  input_bytes: number;
  output_bytes: number;
  steps: number;
  time_ms: number;
}

export function appendMetrics(line: MetricsLine): void {
  const file = process.env.CDP_METRICS_FILE;
  if (!file) return;
  try {
    mkdirSync(dirname(file), { recursive: true });
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  } catch {
    // SPEC §17.6: metrics never affect the command.
  }
}
