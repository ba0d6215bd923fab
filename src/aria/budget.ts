// The viewport snapshot's byte budget (issue 13): a huge widget on screen (a 5,000-row grid, a
// month calendar) costs at most ~4 KB inline. Long runs of siblings of one role are cut to their
// first few with a count of the rest; what still does not fit is cut at a line, with a count.
// The full snapshot file keeps everything. Pure.
import type { AriaNode } from '../injected/index.js';
import { renderYaml } from './render.js';

export const VIEW_BUDGET_BYTES = 4_096;
/** Run lengths tried in turn until the tree fits. */
const KEEPS = [12, 6, 3, 1];

const bytesOf = (tree: AriaNode[]): number => Buffer.byteLength(renderYaml(tree));

/** Cuts every run of more than `keep` + 1 same-role siblings to `keep`, counting the rest. */
export function capRuns(nodes: AriaNode[], keep: number): AriaNode[] {
  const out: AriaNode[] = [];
  for (let i = 0; i < nodes.length; ) {
    const role = nodes[i]!.role;
    let j = i;
    while (j < nodes.length && nodes[j]!.role === role) j++;
    const run = nodes.slice(i, j).map((n) => (n.children ? { ...n, children: capRuns(n.children, keep) } : n));
    if (role !== 'text' && run.length > keep + 1) {
      out.push(...run.slice(0, keep), {
        role: 'text',
        text: `\u2026 ${run.length - keep} more ${role} (in fullSnapshot)`,
      });
    } else {
      out.push(...run);
    }
    i = j;
  }
  return out;
}

/** The tree as it fits `maxBytes`, or as near as cutting runs gets it (the caller cuts lines). */
export function fitTree(tree: AriaNode[], maxBytes = VIEW_BUDGET_BYTES): AriaNode[] {
  if (bytesOf(tree) <= maxBytes) return tree;
  let fitted = tree;
  for (const keep of KEEPS) {
    fitted = capRuns(tree, keep);
    if (bytesOf(fitted) <= maxBytes) return fitted;
  }
  return fitted;
}

/** YAML cut at a line boundary to `maxBytes`, ending with a count of the lines left out. */
export function headWithCount(yaml: string, maxBytes = VIEW_BUDGET_BYTES): { text: string; cut: boolean } {
  if (Buffer.byteLength(yaml) <= maxBytes) return { text: yaml, cut: false };
  const lines = yaml.split('\n');
  const kept: string[] = [];
  let bytes = 60; // room for the note
  for (const line of lines) {
    const size = Buffer.byteLength(line) + 1;
    if (bytes + size > maxBytes) break;
    kept.push(line);
    bytes += size;
  }
  kept.push(`# \u2026 ${lines.length - kept.length} more lines in fullSnapshot`);
  return { text: kept.join('\n'), cut: true };
}
