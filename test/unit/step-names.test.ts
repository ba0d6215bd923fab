// Issue 17, issue 26 item 5: a step is known in one place, its definition (src/steps/); the layers
// above it (runner/, diff/, mcp/, cli.ts, help.ts) read its facts from the registry and never name
// it. Every form a name takes in code is looked for in the syntax tree (comments are not code): a
// string equal to a step name or verb (`action === 'goto'`, `case 'goto':`, `['goto'].includes(a)`,
// `'goto' in raw`, `raw['goto']`, 'Clicked'), an object key building a step (`{ click: ref }`), a
// step's parameters read by name (`raw.click`). A JSON example in a message to the agent
// (`{"openTab": …}`) is prose, but must name a step that exists.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { OUTPUT_ORDER } from '../../src/runner/output.js';
import { allSteps, stepNames } from '../../src/steps/index.js';

const SRC = join(__dirname, '../../src');
/** Above steps/: the layers that run steps (and the top-level files), and the pure diff the summary comes from. */
const ABOVE_STEPS = ['runner', 'diff', 'mcp'];

/** Object keys that are fields of our answers and errors wherever they stand: `{ type: 'EXECUTION' }` is an error's type. */
const FIELD_KEYS = new Set<string>(['type', ...OUTPUT_ORDER]);
/** Object keys that are the field of some other object in one file (`file: key` → why). */
const FIELD_KEYS_IN: Record<string, string> = {
  'diff/tell.ts: state': "a kind of change (ObservedKind: a control's state changed), weighed in salience",
  'runner/capture.ts: snapshot': "the after-look's snapshot (PageState.snapshot)",
  'runner/looks.ts: snapshot': "a look's snapshot of its document (PageState.snapshot)",
  'runner/run-command.ts: frame': "the tab entry's chosen frame (TabEntry.frame)",
};
/** Strings equal to a step name that mean something else, counted (`file: word` → [count, why]): one more fails. */
const WORDS_IN: Record<string, [number, string]> = {
  'diff/tell.ts: dialog': [1, 'the ARIA role: a dialog that appears is salient'],
  'diff/tell.ts: state': [3, "a kind of change (ObservedKind): a control's state changed"],
  'runner/failure.ts: frame': [1, 'a failure category (FAILURE_CATEGORIES)'],
  'runner/failure.ts: storage': [2, 'a failure category (FAILURE_CATEGORIES)'],
  'runner/next-step.ts: frame': [
    2,
    'the failure category switched on, and the remedy kind (steps/registry.ts RemedyKind)',
  ],
  'runner/between-calls.ts: console': [1, "a between-calls watcher's name, its field in betweenCommands"],
  'runner/between-calls.ts: network': [1, "a between-calls watcher's name, its field in betweenCommands"],
  'runner/output.ts: console': [1, 'an answer field (OUTPUT_ORDER)'],
  'runner/output.ts: network': [1, 'an answer field (OUTPUT_ORDER)'],
  'runner/output.ts: screenshot': [1, 'an answer field (OUTPUT_ORDER)'],
  'runner/warm-host.ts: frame': [1, 'a TabEntry field kept per command (TabEntry.frame)'],
};
/** Receivers that hold a step's parameters or a command's step: `raw.fill` reads the fill step's. */
const STEP_HOLDERS = new Set(['raw', 'step', 'params', 'input']);

const STEPS = new Set(stepNames());
/** A step's summary verb ('Clicked') belongs to its definition too: a table of them elsewhere names steps. */
const VERBS = new Set(allSteps().flatMap((d) => d.verb ?? []));

/** Where a file names steps: strings, keys and reads (`named`, `key:` for keys), and the steps its messages' JSON examples name. */
function namesIn(text: string): { named: string[]; examples: string[] } {
  const source = ts.createSourceFile('file.ts', text, ts.ScriptTarget.ES2022, true);
  const named: string[] = [];
  const examples: string[] = [];
  const example = (s: string): void => {
    // A step in an example opens an object that is not another key's value (`{"openTab":{"url": …}}` names openTab).
    for (const m of s.matchAll(/(?<!:\s*)\{\s*"(\w+)"\s*:/g)) examples.push(m[1]!);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (STEPS.has(node.text) || VERBS.has(node.text)) named.push(node.text);
      example(node.text);
    } else if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      example(node.text);
    } else if (
      (ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node) || ts.isMethodDeclaration(node)) &&
      ts.isObjectLiteralExpression(node.parent) &&
      ts.isIdentifier(node.name) &&
      STEPS.has(node.name.text)
    ) {
      named.push(`${node.name.text}:`);
    } else if (
      ts.isPropertyAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      STEP_HOLDERS.has(node.expression.text) &&
      STEPS.has(node.name.text)
    ) {
      named.push(`${node.expression.text}.${node.name.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { named, examples };
}

function filesAboveSteps(): string[] {
  const tree = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? tree(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
    );
  const top = readdirSync(SRC)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(SRC, f));
  return [...top, ...ABOVE_STEPS.filter((d) => existsSync(join(SRC, d))).flatMap((d) => tree(join(SRC, d)))];
}

describe('no step is named outside steps/', () => {
  const found = filesAboveSteps().map((f) => ({ file: relative(SRC, f), ...namesIn(readFileSync(f, 'utf8')) }));

  it('names no step above steps/, but for the words listed with what they mean there', () => {
    const words: Record<string, number> = {};
    const keys: string[] = [];
    for (const { file, named } of found)
      for (const n of named) {
        if (!n.endsWith(':')) words[`${file}: ${n}`] = (words[`${file}: ${n}`] ?? 0) + 1;
        else if (!FIELD_KEYS.has(n.slice(0, -1)) && !FIELD_KEYS_IN[`${file}: ${n.slice(0, -1)}`])
          keys.push(`${file}: ${n}`);
      }
    expect(keys).toEqual([]);
    expect(words).toEqual(Object.fromEntries(Object.entries(WORDS_IN).map(([k, [count]]) => [k, count])));
  });

  it('gives in messages only examples of steps that exist', () => {
    const unknown = found.flatMap(({ file, examples }) =>
      examples.filter((e) => !STEPS.has(e) && e !== 'tab' && e !== 'steps').map((e) => `${file}: ${e}`),
    );
    expect(unknown).toEqual([]);
    expect(found.flatMap((f) => f.examples)).toContain('openTab'); // the check reads messages
  });

  it('finds each form of naming a step, in code only', () => {
    const named = (code: string): string[] => namesIn(code).named;
    expect(named("if (step.action === 'goto') x();")).toEqual(['goto']);
    expect(named('switch (a) { case `frame`: break; }')).toEqual(['frame']);
    expect(named("if (['fill', 'type'].includes(a)) y();")).toEqual(['fill', 'type']);
    expect(named('const s = { click: ref };')).toEqual(['click:']);
    expect(named("const s = { 'click': ref, [k]: 1 };")).toEqual(['click']);
    expect(named("if ('goto' in raw || raw.fill || raw['hover']) y();")).toEqual(['goto', 'raw.fill', 'hover']);
    expect(named("return { back: 'Went back' };")).toEqual(['back:', 'Went back']);
    expect(named("// { click: ref } and 'goto' in a comment\n/* 'fill' */")).toEqual([]);
    expect(named("const e = { type: 'EXECUTION' }; page.frame; counters.snapshot; interface I { click: 1 }")).toEqual([
      'type:',
    ]);
    expect(namesIn('const m = `Open one with {"openTab": "https://…"} or ${x}{"snapshot": true}`;').examples).toEqual([
      'openTab',
      'snapshot',
    ]);
  });
});
