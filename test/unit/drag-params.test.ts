// The drag step's parameters: both ends in every targeting form, defaults from DECISIONS
// (steps 10, delay 0, method auto), and the mistakes an agent makes named before anything runs.
import { describe, expect, it } from 'vitest';
import { validateCommand } from '../../src/runner/index.js';
import { ValidationError } from '../../src/common/index.js';

const params = async (drag: unknown): Promise<unknown> =>
  (await validateCommand({ tab: 't1', steps: [{ drag }] })).steps[0]!.params;
async function rejects(drag: unknown, message: RegExp): Promise<void> {
  const err = await params(drag).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationError);
  expect((err as Error).message).toMatch(message);
}

describe('drag params', () => {
  it('reads refs, selectors, offsets and coordinates, with the documented defaults', async () => {
    expect(await params({ source: 's1e4', target: { selector: '#zone', offsetX: 10, offsetY: -5 } })).toEqual({
      source: { target: { by: 'ref', ref: 's1e4' } },
      target: { target: { by: 'css', selector: '#zone' }, offsetX: 10, offsetY: -5 },
      opts: { method: 'auto', steps: 10, delayMs: 0 },
    });
    expect(
      await params({
        source: { text: 'Card A' },
        target: { x: 300, y: 200 },
        method: 'html5',
        steps: 3,
        delay: 20,
        timeout: 500,
        force: true,
      }),
    ).toEqual({
      source: { target: { by: 'text', text: 'Card A' } },
      target: { target: { by: 'coords', x: 300, y: 200 } },
      opts: { method: 'html5', steps: 3, delayMs: 20, timeoutMs: 500, force: true },
    });
  });

  it('names what is missing or wrong', async () => {
    await rejects({ source: '#a' }, /drag needs "target"/);
    await rejects({ source: '#a', target: '#b', method: 'touch' }, /"method" must be one of auto, mouse, html5/);
    await rejects({ source: '#a', target: '#b', steps: 0 }, /"steps" must be at least 1/);
    await rejects({ source: { x: 1, y: 2, offsetX: 3 }, target: '#b' }, /offsets go with an element/);
    await rejects({ source: { selector: '#a', ref: 's1e1' }, target: '#b' }, /drag source needs exactly one target/);
    await rejects({ source: '#a', target: '#b', from: '#c' }, /unknown key "from" in drag/);
  });
});
