import { describe, expect, it } from 'vitest';
import { assemble, stripEmpty } from '../../src/runner/output.js';
import { closest } from '../../src/runner/suggest.js';
import { looksLikeFunction, malformationTip, preview } from '../../src/steps/js-source.js';
import { normaliseUrl, ParamError } from '../../src/steps/params.js';
import { isContextDestroyed, isStaleNode, isTargetClosed, isTerminated } from '../../src/cdp/protocol-errors.js';
import { debugLogName } from '../../src/capture/debug-log.js';
import { Deadline, TimeoutError } from '../../src/common/index.js';
import { classify } from '../../src/runner/failure.js';
import { ElementNotFoundError, ConnectionError } from '../../src/common/index.js';
import { rehostWsUrl, isLoopbackHost } from '../../src/cdp/discovery.js';
import { chromeArgs } from '../../src/cdp/launcher.js';

describe('output', () => {
  it('strips empty values recursively', () => {
    expect(stripEmpty({ a: null, b: [], c: {}, d: '', e: 0, f: { g: undefined }, h: [null, 1] })).toEqual({
      e: 0,
      h: [1],
    });
  });

  it('orders fields and keeps step outputs as data', () => {
    const out = assemble({
      steps: [{ action: 'x', status: 'ok', output: { value: '' } }],
      status: 'ok',
      tab: 't1',
      navigated: false,
      context: { url: 'u' },
    });
    expect(Object.keys(out)).toEqual(['status', 'tab', 'context', 'steps']);
    expect(out.steps).toEqual([{ action: 'x', status: 'ok', output: { value: '' } }]);
  });
});

describe('suggestions', () => {
  it('finds near names and refuses far ones', () => {
    expect(closest('clik', ['click', 'fill'])).toBe('click');
    expect(closest('PageFunction', ['pageFunction'])).toBe('pageFunction');
    expect(closest('zzzzzz', ['click', 'fill'])).toBeUndefined();
  });
});

describe('js-source', () => {
  it('tells functions from expressions', () => {
    for (const f of [
      '() => 1',
      'async () => 1',
      'x => x',
      'async x => x',
      'function () {}',
      'async function f() {}',
      '(a, b) => a',
    ])
      expect(looksLikeFunction(f)).toBe(true);
    for (const e of ['document.title', '(1 + 2)', 'const a = 1; a', '[1,2].map(x => x)', 'fn()'])
      expect(looksLikeFunction(e)).toBe(false);
  });

  it('explains unbalanced code and stays quiet on balanced code', () => {
    expect(malformationTip('document.querySelector("a).click()')).toMatch(/odd number of double quotes/);
    expect(malformationTip('foo(1')).toMatch(/unbalanced parentheses \(1 opening, 0 closing\)/);
    expect(malformationTip('foo("a")')).toBeUndefined();
    expect(malformationTip('document.querySelector(“#a”)')).toMatch(/typographic quotes/);
    expect(malformationTip('const  = 1; x')).toMatch(/declaration without a name/);
    expect(malformationTip('("#a").click(); .value')).toMatch(/member access with nothing before it/);
    expect(malformationTip('[...list].length')).toBeUndefined();
    expect(malformationTip('31337("a")', 'TypeError: 31337 is not a function')).toMatch(/"\$\$" by its process id/);
    expect(malformationTip('foo(1', 'TypeError: foo is not a function')).toBeUndefined();
    expect(preview('a\n   b', 10)).toBe('a b');
    expect(preview('x'.repeat(200), 10)).toHaveLength(10);
  });
});

describe('normaliseUrl', () => {
  it('adds a scheme where an agent left it out', () => {
    expect(normaliseUrl('example.com', 'u')).toBe('https://example.com/');
    expect(normaliseUrl('localhost:3000/a', 'u')).toBe('http://localhost:3000/a');
    expect(normaliseUrl('127.0.0.1:8080', 'u')).toBe('http://127.0.0.1:8080/');
    expect(normaliseUrl('about:blank', 'u')).toBe('about:blank');
    expect(normaliseUrl('data:text/html,<p>x', 'u')).toBe('data:text/html,<p>x');
    expect(() => normaliseUrl('  ', 'u')).toThrow(ParamError);
  });
});

describe('protocol errors', () => {
  it('classifies Chrome error strings', () => {
    expect(isContextDestroyed(new Error('Runtime.evaluate: Execution context was destroyed.'))).toBe(true);
    expect(isStaleNode('DOM.resolveNode: No node with given id found')).toBe(true);
    expect(isTargetClosed('Target.attachToTarget: No target with given id found')).toBe(true);
    expect(isTerminated('Uncaught Error: Execution was terminated')).toBe(true);
    expect(isContextDestroyed('other')).toBe(false);
  });

  it('maps thrown values to types and subtypes', () => {
    expect(classify(new ElementNotFoundError('x'))).toEqual({
      type: 'EXECUTION',
      name: 'ElementNotFoundError',
      message: 'x',
      category: 'selector-not-found',
      details: {},
    });
    expect(classify(new ConnectionError('y'))).toEqual({
      type: 'CONNECTION',
      message: 'y',
      category: 'connection',
      details: {},
    });
    expect(classify(new Error('Execution context was destroyed')).name).toBe('ContextDestroyedError');
    expect(classify('weird')).toEqual({ type: 'EXECUTION', message: 'weird', category: 'evaluation', details: {} });
  });
});

describe('debug log names', () => {
  it('follows {seq}-{tab}-{actions}.{status}.json', () => {
    expect(debugLogName(1, 't1', ['goto', 'click', 'fill'], 'ok')).toBe('001-t1-goto-click-fill.ok.json');
    expect(debugLogName(12, undefined, ['a', 'b', 'c', 'd', 'e'], 'error')).toBe('012-a-b-c-plus2.error.json');
  });
});

describe('Deadline', () => {
  it('rejects with a message naming the wait', async () => {
    const d = Deadline.after(20);
    const err = await d.race(new Promise(() => {}), 'the moon').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    // On a loaded machine the timer fires late: then the message names the time that really passed.
    expect((err as Error).message).toMatch(/^Timed out after (20ms|\d+ms \(timeout 20ms\)) waiting for the moon$/);
    expect(d.cap(1_000).remainingMs()).toBeLessThanOrEqual(20);
  });
});

describe('discovery and launch', () => {
  it('rehosts a discovered WebSocket URL', () => {
    expect(rehostWsUrl('ws://localhost:9222/devtools/browser/abc', '10.0.0.5', 9333)).toBe(
      'ws://10.0.0.5:9333/devtools/browser/abc',
    );
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('example.com')).toBe(false);
  });

  it('launches headless Chrome quietly, on loopback, sandboxless only as root', () => {
    const args = chromeArgs(9222, '/tmp/p', true);
    expect(args).toEqual(
      expect.arrayContaining([
        '--remote-debugging-port=9222',
        '--headless=new',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--no-default-browser-check',
        '--user-data-dir=/tmp/p',
        '--remote-debugging-address=127.0.0.1',
      ]),
    );
    expect(args.includes('--no-sandbox')).toBe(process.getuid?.() === 0);
    expect(chromeArgs(9222, '/tmp/p', false)).not.toContain('--headless=new');
  });
});

// Issue 17: Chrome's error strings are recognised in cdp/protocol-errors.ts only.
describe('Chrome error strings', () => {
  it('are matched only in cdp/protocol-errors.ts', async () => {
    const { isCookieRefused, isNavigationAborted, isNotImplemented, isPageRangeInvalid } = await import(
      '../../src/cdp/protocol-errors.js'
    );
    expect(isCookieRefused(new Error('Invalid cookie fields'))).toBe(true);
    expect(isPageRangeInvalid(new Error('Page range exceeds page count'))).toBe(true);
    expect(isNotImplemented(new Error('PrintToPDF is not implemented'))).toBe(true);
    expect(isNavigationAborted('net::ERR_ABORTED')).toBe(true);
    const { readdirSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const src = new URL('../../src/', import.meta.url).pathname;
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
      );
    const CHROME =
      /with given id|ERR_ABORTED|Execution context was destroyed|Target closed|page range|not implemented|cookie\/i/;
    const users = files(src)
      .filter((f) => !f.endsWith('protocol-errors.ts') && !f.includes('/injected/'))
      .filter((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .some((l) => CHROME.test(l) && /\.test\(|includes\(|match\(/.test(l)),
      );
    expect(users.map((f) => f.slice(src.length))).toEqual([]);
  });
});
