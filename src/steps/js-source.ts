// Reading agents' JavaScript: is it a function or an expression, and does it look mangled by
// shell quoting? Pure functions, unit-tested.

const FUNCTION_START = /^\s*(async\s+)?function\b|^\s*(async\s*)?(\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>/;

export function looksLikeFunction(source: string): boolean {
  return FUNCTION_START.test(source);
}

/** The marks of a shell (or an editor) having changed the code: unbalanced pairs, typographic
 *  quotes, and what is left where a double-quoted shell string expanded `$x`, `$(…)` or `$$`. */
export function malformationSigns(source: string, error: string): string[] {
  const problems: string[] = [];
  const count = (re: RegExp): number => (source.match(re) ?? []).length;
  if (/is not a function/.test(error) && /(^|[^\w$.'"])\d{2,}\s*\(/.test(source)) {
    problems.push('a number called like a function (12345(…)): the shell replaced "$$" by its process id');
  }
  if (!error.startsWith('SyntaxError')) return problems;
  if (/[\u2018\u2019\u201C\u201D]/.test(source))
    problems.push('typographic quotes (‘ ’ “ ”) where JavaScript needs straight ones');
  if (/\b(const|let|var)\s*=/.test(source))
    problems.push('a declaration without a name ("const = …"): the shell expanded "$name" to nothing');
  if (/(^|[\s(=,;:!&|?{[])\.[A-Za-z_]/.test(source)) {
    problems.push('a member access with nothing before it (".click()"): the shell expanded "$x" or "$(…)" to nothing');
  }
  const pairs: [string, RegExp, RegExp][] = [
    ['parentheses', /\(/g, /\)/g],
    ['braces', /\{/g, /\}/g],
    ['brackets', /\[/g, /\]/g],
  ];
  for (const [name, open, close] of pairs) {
    const o = count(open);
    const c = count(close);
    if (o !== c) problems.push(`unbalanced ${name} (${o} opening, ${c} closing)`);
  }
  for (const [name, quote] of [
    ['single quotes', /'/g],
    ['double quotes', /"/g],
    ['backticks', /`/g],
  ] as const) {
    if (count(quote) % 2 === 1) problems.push(`an odd number of ${name}`);
  }
  return problems;
}

/** Explains an error that shell quoting typically causes (`error` is the page's message), or returns undefined. */
export function malformationTip(source: string, error = 'SyntaxError'): string | undefined {
  const problems = malformationSigns(source, error);
  if (!problems.length) return undefined;
  return (
    `The code has ${problems.join(', ')} — usually a sign that shell quoting changed it. ` +
    'Wrap the whole JSON in single quotes (the shell then leaves $, ! and \\ alone) and use double quotes inside the JavaScript, or pass the JSON on stdin.'
  );
}

export function preview(source: string, max = 120): string {
  const flat = source.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
