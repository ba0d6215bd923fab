// Reading agents' JavaScript: is it a function or an expression, and does it look mangled by
// shell quoting? Pure functions, unit-tested.

const FUNCTION_START = /^\s*(async\s+)?function\b|^\s*(async\s*)?(\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>/;

export function looksLikeFunction(source: string): boolean {
  return FUNCTION_START.test(source);
}

/** Explains a syntax error that shell quoting typically causes, or returns undefined. */
export function malformationTip(source: string): string | undefined {
  const problems: string[] = [];
  const count = (re: RegExp): number => (source.match(re) ?? []).length;
  const pairs: [string, RegExp, RegExp][] = [['parentheses', /\(/g, /\)/g], ['braces', /\{/g, /\}/g], ['brackets', /\[/g, /\]/g]];
  for (const [name, open, close] of pairs) {
    const o = count(open);
    const c = count(close);
    if (o !== c) problems.push(`unbalanced ${name} (${o} opening, ${c} closing)`);
  }
  for (const [name, quote] of [['single quotes', /'/g], ['double quotes', /"/g], ['backticks', /`/g]] as const) {
    if (count(quote) % 2 === 1) problems.push(`an odd number of ${name}`);
  }
  if (!problems.length) return undefined;
  return `The code has ${problems.join(', ')} — usually a sign that shell quoting changed it. `
    + 'Wrap the whole JSON in single quotes and use double quotes inside the JavaScript, or pass the JSON on stdin.';
}

export function preview(source: string, max = 120): string {
  const flat = source.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
