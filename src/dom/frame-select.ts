// Choosing the frame steps run in (SPEC §13.2): by its <iframe> element (selector, index, name) in
// the current frame, or by frame id; cross-origin frames included, through their own session.

import { ElementNotFoundError, ExecutionError, type Deadline } from '../common/index.js';
import { evaluateIn, heldElementObjectId, type FrameTarget, type Page } from '../page/index.js';
import type { Protocol } from '../cdp/index.js';
import { locate, type RefHolder, type TargetSpec } from './locate.js';

export type FrameChoice = { target: TargetSpec } | { index: number } | { name: string } | { frameId: string };

async function frameIdOfOwner(page: Page, handle: number, desc: string, deadline: Deadline): Promise<string> {
  const where = page.evalTarget();
  const objectId = await heldElementObjectId(where, handle, deadline);
  const { node } = await page.guard(deadline.race(where.session.send('DOM.describeNode', { objectId }), 'the frame element'));
  const frameId = (node as Protocol.DOM.Node & { frameId?: string }).frameId;
  if (!frameId) throw new ExecutionError(`${desc} is not an <iframe> or <frame> (or has no document yet)`, { category: 'frame' });
  return frameId;
}

export async function chooseFrame(page: Page, choice: FrameChoice, refs: RefHolder, deadline: Deadline): Promise<FrameTarget> {
  if ('frameId' in choice) return page.guard(page.frames.target(choice.frameId, deadline));
  let handle: number;
  let desc: string;
  if ('target' in choice) {
    ({ handle, desc } = await locate(page, choice.target, refs, {}, deadline));
  } else {
    const r = await page.guard(evaluateIn(page.evalTarget(), (rt, a) => rt.holdFrameOwner(a.index, a.name),
      { index: 'index' in choice ? choice.index : undefined, name: 'name' in choice ? choice.name : undefined }, { deadline, what: 'the frame element' }));
    if (!r.ok) {
      const which = 'index' in choice ? `index ${choice.index}` : `name "${choice.name}"`;
      throw new ElementNotFoundError(`No frame with ${which} here (this document has ${r.count} frame${r.count === 1 ? '' : 's'}); list them with {"frame": {"list": true}}`, { category: 'frame' });
    }
    ({ handle, desc } = r);
  }
  const frameId = await frameIdOfOwner(page, handle, desc, deadline);
  return page.guard(page.frames.target(frameId, deadline));
}
