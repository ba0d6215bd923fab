import { describe, expect, it } from 'vitest';
import { parseJson, validateCommand } from '../../src/runner/index.js';
import { ParseError, ValidationError, MAX_TIMEOUT_MS } from '../../src/common/index.js';

const valid = (input: unknown) => validateCommand(input);
async function rejects(
  input: unknown,
  type: typeof ParseError | typeof ValidationError,
  message: RegExp,
): Promise<void> {
  const err = await valid(input).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(type);
  expect((err as Error).message).toMatch(message);
}

describe('parseJson', () => {
  it('names the problem of text that is not JSON', () => {
    expect(() => parseJson('')).toThrow(ParseError);
    expect(() => parseJson('goto example.com')).toThrow(/did the shell strip its quotes/);
    expect(parseJson('{"steps":[]}')).toEqual({ steps: [] });
  });
});

describe('validateCommand', () => {
  it('normalises a valid command', async () => {
    const cmd = await valid({
      tab: 't1',
      timeout: 5000,
      steps: [{ goto: 'example.com' }, { wait: 10, optional: true, timeout: 999_999 }],
    });
    expect(cmd.tab).toBe('t1');
    expect(cmd.stopOnError).toBe(true);
    expect(cmd.steps[0]).toMatchObject({
      index: 1,
      action: 'goto',
      params: { url: 'https://example.com/', waitUntil: 'load' },
      timeoutMs: 5000,
    });
    expect(cmd.steps[1]).toMatchObject({ optional: true, timeoutMs: MAX_TIMEOUT_MS });
  });

  it('lets session-less commands run without a tab', async () => {
    await expect(valid({ steps: [{ listTabs: true }, { chromeStatus: true }] })).resolves.toBeDefined();
  });

  it('requires openTab and connectTab to come first', async () => {
    await rejects(
      { tab: 't1', steps: [{ reload: true }, { openTab: true }] },
      ValidationError,
      /Step 2 \(openTab\) must be the first step/,
    );
  });

  it('requires closeTab: true to come last', async () => {
    await rejects(
      { tab: 't1', steps: [{ closeTab: true }, { reload: true }] },
      ValidationError,
      /must be the last step/,
    );
  });

  it('names unknown steps, keys and values with suggestions', async () => {
    await rejects(
      { tab: 't1', steps: [{ screenshoot: true }] },
      ValidationError,
      /unknown step "screenshoot". Did you mean "screenshot"\?/,
    );
    await rejects(
      { tab: 't1', steps: [{ screenshot: { fullpage: true } }] },
      ValidationError,
      /Did you mean "fullPage"\?/,
    );
    await rejects({ tab: 't1', steps: [{ viewport: 'iphone-41' }] }, ValidationError, /Did you mean "iphone-14"\?/);
  });

  it('rejects non-object steps and steps without an action', async () => {
    await rejects({ tab: 't1', steps: ['goto'] }, ValidationError, /Step 1 must be an object/);
    await rejects({ tab: 't1', steps: [{ optional: true }] }, ValidationError, /Step 1 has no action/);
  });

  it('checks wsEndpoint and host/port combinations', async () => {
    await rejects({ steps: [{ openTab: { wsEndpoint: 'http://x' } }] }, ValidationError, /ws:\/\/ or wss:\/\//);
    await rejects(
      { steps: [{ openTab: { wsEndpoint: 'ws://a/devtools/browser/x', port: 9 } }] },
      ValidationError,
      /not both/,
    );
    await rejects({ steps: [{ openTab: { port: 70000 } }] }, ValidationError, /at most 65535/);
  });

  it('checks wait, screenshot and pageFunction shapes', async () => {
    await rejects({ tab: 't1', steps: [{ wait: { text: 'a', urlContains: 'b' } }] }, ValidationError, /needs one of/);
    await rejects({ tab: 't1', steps: [{ wait: { selector: 'b', text: '' } }] }, ValidationError, /must not be empty/);
    await rejects(
      { tab: 't1', steps: [{ wait: { text: 'a', state: 'hidden' } }] },
      ValidationError,
      /"state" applies only with "selector"/,
    );
    await rejects(
      { tab: 't1', steps: [{ screenshot: { format: 'png', quality: 50 } }] },
      ValidationError,
      /"quality" applies to jpeg and webp/,
    );
    await rejects(
      { tab: 't1', steps: [{ pageFunction: { fn: 'a', expression: 'b' } }] },
      ValidationError,
      /exactly one of "fn" or "expression"/,
    );
    await rejects(
      { tab: 't1', steps: [{ connectTab: { url: '(' } }] },
      ValidationError,
      /Step 1 \(connectTab\): "url" is not a valid regular expression/,
    );
  });

  it('rejects wrong types of top-level fields', async () => {
    await rejects({ tab: 1, steps: [{ listTabs: true }] }, ValidationError, /"tab" must be a tab alias/);
    await rejects({ steps: {} }, ValidationError, /"steps" must be an array/);
    await rejects(
      { stopOnError: 'no', steps: [{ listTabs: true }] },
      ValidationError,
      /"stopOnError" must be true or false/,
    );
    await rejects(null, ParseError, /must be a JSON object/);
  });
});

describe('hooks', () => {
  it('accepts readyWhen, settledWhen and observe beside the action or inside its object', async () => {
    const cmd = await valid({
      tab: 't1',
      steps: [
        { click: '#a', readyWhen: '() => true', observe: 'document.title' },
        { click: { selector: '#b', settledWhen: '() => !document.querySelector(".spinner")' } },
      ],
    });
    expect(cmd.steps[0]!.hooks).toEqual({ readyWhen: '() => true', observe: 'document.title' });
    expect(cmd.steps[1]!.hooks).toEqual({ settledWhen: '() => !document.querySelector(".spinner")' });
    expect(cmd.steps[1]!.raw).toEqual({ selector: '#b' });
  });

  it('rejects hooks that are not source, given twice, or where they cannot run', async () => {
    await rejects(
      { tab: 't1', steps: [{ click: '#a', readyWhen: 5 }] },
      ValidationError,
      /Step 1 \(click\): "readyWhen" must be JavaScript source/,
    );
    await rejects(
      { tab: 't1', steps: [{ click: { selector: '#a', observe: 'x' }, observe: 'y' }] },
      ValidationError,
      /"observe" is given twice/,
    );
    await rejects({ steps: [{ listTabs: true, observe: 'x' }] }, ValidationError, /hooks run in a page/);
    await rejects(
      { steps: [{ openTab: 'https://example.com', readyWhen: 'x' }] },
      ValidationError,
      /readyWhen runs before the step/,
    );
    await rejects(
      { tab: 't1', steps: [{ click: '#a', readyWehn: 'x' }] },
      ValidationError,
      /unknown step "readyWehn". Did you mean "readyWhen"\?/,
    );
  });
});
