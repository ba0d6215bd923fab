// Failure categories (one mapping for every error), the suggested next step, and the pure parts
// of the failure context: near-match scoring and the search term taken from a failed target.
import { describe, expect, it } from 'vitest';
import {
  ConnectionError,
  ContextDestroyedError,
  ElementNotEditableError,
  ElementNotFoundError,
  EvaluationError,
  ExecutionError,
  NavigationAbortedError,
  NavigationError,
  PageCrashedError,
  StaleElementError,
  StepValidationError,
  TimeoutError,
} from '../../src/common/index.js';
import { categoryOf, classify, FAILURE_CATEGORIES } from '../../src/runner/failure.js';
import { nextStep, retarget, type NextStepInput } from '../../src/runner/next-step.js';
import { searchTerm, selectorWords } from '../../src/runner/diagnostics.js';
import { editDistance, matchScore, normaliseTerm } from '../../src/injected/failure-context.js';

describe('categoryOf', () => {
  it('maps every error class to its category', () => {
    expect(categoryOf(new ElementNotFoundError('x'))).toBe('selector-not-found');
    expect(categoryOf(new StaleElementError('x'))).toBe('stale-ref');
    expect(categoryOf(new ElementNotEditableError('x'))).toBe('not-editable');
    expect(categoryOf(new TimeoutError('x'))).toBe('timeout');
    expect(categoryOf(new NavigationError('x'))).toBe('navigation');
    expect(categoryOf(new NavigationAbortedError('x'))).toBe('navigation');
    expect(categoryOf(new ContextDestroyedError('x'))).toBe('navigation');
    expect(categoryOf(new PageCrashedError('x'))).toBe('crashed');
    expect(categoryOf(new ConnectionError('x'))).toBe('connection');
    expect(categoryOf(new EvaluationError('x'))).toBe('evaluation');
    expect(categoryOf(new StepValidationError('x'))).toBe('validation');
  });

  it('prefers what the thrower said over the class', () => {
    expect(categoryOf(new TimeoutError('covered', { category: 'covered' }))).toBe('covered');
    expect(categoryOf(new StepValidationError('bad', { category: 'invalid-selector' }))).toBe('invalid-selector');
    expect(categoryOf(new ExecutionError('x', { category: 'no-such-category' }))).toBe('evaluation');
  });

  it('reads a wrapped error and Chrome messages', () => {
    expect(categoryOf(new ExecutionError('Filled 1 of 2', {}, { cause: new ElementNotFoundError('x') }))).toBe(
      'selector-not-found',
    );
    expect(categoryOf(new Error('Execution context was destroyed.'))).toBe('navigation');
    expect(categoryOf(new Error('No target with given id found'))).toBe('connection');
    expect(categoryOf('weird')).toBe('evaluation');
  });

  it('classify carries the category and details; every category is in the documented set', () => {
    const c = classify(new ElementNotFoundError('No element', { target: { by: 'css', value: '#x' } }));
    expect(c).toMatchObject({
      type: 'EXECUTION',
      name: 'ElementNotFoundError',
      category: 'selector-not-found',
      details: { target: { by: 'css', value: '#x' } },
    });
    expect(FAILURE_CATEGORIES).toHaveLength(18);
  });
});

const input = (
  over: Partial<NextStepInput> & { category: NextStepInput['failure']['category'] },
  details: Record<string, unknown> = {},
  message = '',
): NextStepInput => ({
  action: 'click',
  raw: '#go',
  timeoutMs: 30_000,
  ...over,
  failure: { category: over.category, details, message, ...(over.failure ?? {}) },
});

describe('nextStep', () => {
  it('retargets to the best near match', async () => {
    const context = { nearMatches: [{ ref: 's1e7', role: 'button', name: 'Submit order', score: 64 }] };
    expect(
      await nextStep(input({ category: 'selector-not-found', context }, { target: { by: 'css', value: '#go' } })),
    ).toEqual({
      click: 's1e7',
    });
    expect(
      await nextStep(
        input(
          {
            category: 'selector-not-found',
            context,
            action: 'fill',
            raw: { selector: '#mail', value: 'a@b.c', clear: false },
          },
          { target: { by: 'css', value: '#mail' } },
        ),
      ),
    ).toEqual({ fill: { ref: 's1e7', value: 'a@b.c', clear: false } });
    expect(
      await nextStep(
        input(
          { category: 'selector-not-found', context, action: 'fill', raw: { '#a': '1', '#mail': 'x' } },
          { target: { by: 'css', value: '#mail' } },
        ),
      ),
    ).toEqual({ fill: { '#a': '1', s1e7: 'x' } });
  });

  it('without a near match: scroll to find it on a long page, else a snapshot', async () => {
    expect(
      await nextStep(
        input({ category: 'selector-not-found', context: { scrollPosition: { x: 0, y: 0, maxY: 900, percentY: 0 } } }),
      ),
    ).toEqual({ click: { selector: '#go', scrollUntilVisible: true } });
    expect(await nextStep(input({ category: 'selector-not-found', raw: { text: 'Go' } }))).toEqual({ snapshot: true });
  });

  it("answers a covered target with the layer's dismiss button, else force", async () => {
    expect(
      await nextStep(
        input({
          category: 'covered',
          context: { coveredBy: { kind: 'cookie-banner', dismiss: { ref: 's2e3', name: 'Accept' } } },
        }),
      ),
    ).toEqual({ click: 's2e3' });
    expect(await nextStep(input({ category: 'covered', raw: 's1e4' }))).toEqual({
      click: { ref: 's1e4', force: true },
    });
  });

  it('sends a stale ref to a snapshot unless the same element is there again', async () => {
    expect(await nextStep(input({ category: 'stale-ref', raw: 's1e4' }))).toEqual({ snapshot: true });
    expect(
      await nextStep(
        input({
          category: 'stale-ref',
          raw: 's1e4',
          context: { nearMatches: [{ ref: 's3e9', role: 'button', name: 'Save', score: 100 }] },
        }),
      ),
    ).toEqual({ click: 's3e9' });
  });

  it('suggests the closest option, the right step for a field that takes no text, and waiting for enabled', async () => {
    const options = [
      { value: 'us', label: 'United States' },
      { value: 'ca', label: 'Canada' },
    ];
    expect(
      await nextStep(
        input(
          { category: 'option-not-found', action: 'selectOption', raw: { selector: '#c', label: 'Canda' } },
          { options },
        ),
      ),
    ).toEqual({ selectOption: { selector: '#c', label: 'Canada' } });
    expect(
      await nextStep(
        input(
          { category: 'not-editable', action: 'fill', raw: { selector: '#f', value: 'x' } },
          { target: { by: 'css', value: '#f' }, control: 'file' },
          'input#f is a file input: use upload',
        ),
      ),
    ).toEqual({ upload: { selector: '#f', files: ['/path/to/file'] } });
    expect(
      await nextStep(
        input(
          { category: 'not-editable', action: 'fill', raw: { selector: '#s', value: 'Red' } },
          { target: { by: 'css', value: '#s' }, control: 'select' },
          'select#s is not a text field (select)',
        ),
      ),
    ).toEqual({ selectOption: { selector: '#s', label: 'Red' } });
    expect(await nextStep(input({ category: 'disabled' }, { target: { by: 'css', value: '#go' } }))).toEqual({
      click: '#go',
      readyWhen: '() => !document.querySelector("#go")?.matches(\':disabled, [aria-disabled=true]\')',
    });
  });

  it('covers timeouts, navigation, frames, crashes and invalid selectors', async () => {
    expect(await nextStep(input({ category: 'timeout', action: 'goto', raw: 'https://x.test/' }))).toEqual({
      goto: { url: 'https://x.test/', waitUntil: 'domcontentloaded' },
    });
    expect(await nextStep(input({ category: 'timeout', action: 'wait', raw: '#late', timeoutMs: 5000 }))).toEqual({
      wait: '#late',
      timeout: 10_000,
    });
    expect(
      await nextStep(
        input(
          {
            category: 'timeout',
            action: 'wait',
            raw: { text: 'Welcom back' },
            context: { nearMatches: [{ ref: 's1e2', role: 'link', name: 'Welcome back', score: 70 }] },
          },
          { target: { by: 'text', value: 'Welcom back' } },
        ),
      ),
    ).toEqual({ wait: { text: 'Welcome back' } });
    expect(
      await nextStep(input({ category: 'navigation', action: 'goto', raw: 'https://x.test/' }, { beforeunload: true })),
    ).toEqual({
      dialog: { accept: true },
    });
    expect(await nextStep(input({ category: 'frame', action: 'frame', raw: '#f' }))).toEqual({ frame: { list: true } });
    expect(await nextStep(input({ category: 'crashed' }))).toEqual({ reload: true });
    expect(
      await nextStep(
        input(
          { category: 'invalid-selector', raw: "button:contains('Save')" },
          { target: { by: 'css', value: "button:contains('Save')" } },
        ),
      ),
    ).toEqual({ click: { text: 'Save' } });
    expect(await nextStep(input({ category: 'evaluation', action: 'pageFunction', raw: 'x(' }))).toBeUndefined();
  });

  it('retargets only steps that take refs', () => {
    expect(retarget('wait', '#x', undefined, 's1e1')).toBeUndefined();
    expect(retarget('fill', 'typed text', undefined, 's1e1')).toBeUndefined();
    expect(retarget('hover', { text: 'Menu', duration: 100, withinSelector: 'nav' }, undefined, 's1e1')).toEqual({
      hover: { ref: 's1e1', duration: 100 },
    });
  });
});

describe('near-match scoring', () => {
  it('normalises names and selectors alike', () => {
    expect(normaliseTerm('submitBtn')).toBe('submit btn');
    expect(normaliseTerm('  Submit__order-now ')).toBe('submit order now');
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('scores per SPEC §16.3, with typos in between', () => {
    expect(matchScore('Submit', 'submit')).toBe(100);
    expect(matchScore('Submit', 'Submit order')).toBe(80);
    expect(matchScore('Submit order now', 'Submit order')).toBe(70);
    expect(matchScore('Sumbit order', 'Submit order')).toBeGreaterThanOrEqual(55);
    expect(matchScore('Sumbit order', 'Submit order')).toBeLessThan(70);
    expect(matchScore('place order', 'Review your order')).toBe(50);
    expect(matchScore('Checkout', 'Sign in')).toBe(0);
    expect(matchScore('', 'x')).toBe(0);
  });

  it('takes the words a selector meant', () => {
    expect(selectorWords('#submit-btn')).toBe('submit-btn');
    expect(selectorWords('button.primary.large')).toBe('primary large');
    expect(selectorWords('input[name="email"]')).toBe('email');
    expect(selectorWords("button:has-text('Place order')")).toBe('Place order');
    expect(selectorWords('button')).toBe('button');
    expect(searchTerm({ target: { by: 'text', value: 'Log in' } })).toBe('Log in');
    expect(searchTerm({ target: { by: 'ref', value: 's1e4' }, name: 'Save' })).toBe('Save');
    expect(searchTerm({ target: { by: 'coords', value: '1,2' } })).toBeUndefined();
  });
});

// Issue 17: the step registry is the only place that knows a step; the runner reads its facts.
// A word that is also a failure category ('frame') or an output field ('console') means that.
describe('the runner and the diff name no step', () => {
  it('has no step name as a string literal in src/runner/ or src/diff/', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { allSteps, stepNames } = await import('../../src/steps/index.js');
    const { OUTPUT_ORDER } = await import('../../src/runner/output.js');
    const otherMeanings = new Set<string>([...FAILURE_CATEGORIES, ...OUTPUT_ORDER]);
    // In the diff, 'dialog' is the ARIA role (a dialog's salience) and 'state' a kind of change, not the steps.
    const roles = new Set(['dialog', 'state']);
    const literal = (n: string) => new RegExp(`(['\`])${n}\\1`);
    // A step's summary verb ('Clicked') belongs to its definition too: a table of them here would name steps.
    const verbs = [...new Set(allSteps().flatMap((d) => d.verb ?? []))];
    const named = (['runner', 'diff'] as const).flatMap((layer) => {
      const dir = new URL(`../../src/${layer}/`, import.meta.url);
      return readdirSync(dir)
        .filter((f) => f.endsWith('.ts'))
        .flatMap((f) => {
          const text = readFileSync(new URL(f, dir), 'utf8');
          return [...stepNames(), ...verbs]
            .filter((n) => !otherMeanings.has(n) && !(layer === 'diff' && roles.has(n)) && literal(n).test(text))
            .map((n) => `${layer}/${f}: ${n}`);
        });
    });
    expect(named).toEqual([]);
    // The check itself finds a literal, and a verb.
    expect(stepNames().filter((n) => literal(n).test("x === 'goto'"))).toEqual(['goto']);
    expect(verbs.filter((n) => literal(n).test("{ back: 'Went back' }"))).toEqual(['Went back']);
  });
});
