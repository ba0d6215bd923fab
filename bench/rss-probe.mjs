// Preloaded into a CLI process by bench/concurrency.mjs (`node --import`): writes the process's
// peak resident set size (kB, process.resourceUsage().maxRSS) to $CDP_BENCH_RSS_FILE at exit.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  const file = process.env.CDP_BENCH_RSS_FILE;
  if (!file) return;
  try {
    writeFileSync(file, String(process.resourceUsage().maxRSS));
  } catch {
    /* a benchmark probe: a lost figure is reported as missing, never a failed command */
  }
});
