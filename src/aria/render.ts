// Renders the page's snapshot tree as the YAML of SPEC §7.2. Pure: a tree in, text out.

import type { AriaNode } from '../injected/index.js';

const PLAIN = /^[^\s"'[\]{}#&*!|>%@`,?:-][^"\n]*$/;

/** A scalar after "role:" — plain when YAML reads it back unchanged, JSON-quoted otherwise. */
export function yamlScalar(text: string): string {
  return PLAIN.test(text) && !text.includes(': ') && !text.includes(' #') && !text.endsWith(':') && text.trim() === text
    ? text
    : JSON.stringify(text);
}

export function nodeAttributes(n: AriaNode): string {
  const a: string[] = [];
  if (n.level) a.push(`[level=${n.level}]`);
  if (n.checked === 'true') a.push('[checked]');
  else if (n.checked === 'mixed') a.push('[checked=mixed]');
  if (n.disabled) a.push('[disabled]');
  if (n.expanded === true) a.push('[expanded]');
  else if (n.expanded === false) a.push('[collapsed]');
  if (n.pressed === 'true') a.push('[pressed]');
  else if (n.pressed === 'mixed') a.push('[pressed=mixed]');
  if (n.selected) a.push('[selected]');
  if (n.required) a.push('[required]');
  if (n.invalid) a.push('[invalid]');
  if (n.focused) a.push('[focused]');
  if (n.min !== undefined) a.push(`[min=${n.min}]`);
  if (n.max !== undefined) a.push(`[max=${n.max}]`);
  if (n.step !== undefined) a.push(`[step=${n.step}]`);
  if (n.type) a.push(`[type=${n.type}]`);
  if (n.field) a.push(`[name=${n.field}]`);
  if (n.url !== undefined) a.push(`[url=${n.url}]`);
  if (n.interactive !== undefined) a.push(`[interactive=${n.interactive}]`);
  if (n.ref) a.push(`[ref=${n.ref}]`);
  if (n.closed) a.push('[closed-shadow]');
  return a.length ? ` ${a.join(' ')}` : '';
}

/** One node's line without indentation or children marker. */
export function nodeLine(n: AriaNode): string {
  if (n.role === 'text') return `- text: ${yamlScalar(n.text ?? '')}`;
  // A hint (id or class of a nameless control) in parentheses: never quoted like a name.
  let line = `- ${n.role}${n.name ? ` ${JSON.stringify(n.name)}` : ''}${nodeAttributes(n)}${n.hint ? ` (${n.hint})` : ''}`;
  if (n.value !== undefined && !n.children) line += `: ${JSON.stringify(n.value)}`;
  else if (n.text !== undefined && !n.children) line += `: ${yamlScalar(n.text)}`;
  return line;
}

export function renderTree(nodes: AriaNode[], indent = 0, out: string[] = []): string[] {
  const pad = '  '.repeat(indent);
  for (const n of nodes) {
    if (n.role === 'oopif') continue; // a frame slot not filled (aria/frames.ts)
    out.push(`${pad}${nodeLine(n)}${n.children?.length ? ':' : ''}`);
    if (n.children?.length) renderTree(n.children, indent + 1, out);
  }
  return out;
}

export interface RenderOptions {
  /** Landmarks outside the auto-scope, for the header line. */
  landmarks?: string[];
  scope?: string;
}

export function renderYaml(tree: AriaNode[], options: RenderOptions = {}): string {
  const lines: string[] = [];
  if (options.scope === 'main' && options.landmarks?.length) {
    lines.push(`# scoped to main; also on the page: ${options.landmarks.join(', ')} (use {"root":"body"} for all)`);
  }
  renderTree(tree, 0, lines);
  return lines.join('\n');
}
