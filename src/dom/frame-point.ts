// A point inside a frame, in top-viewport coordinates for Input events — brought into view first:
// a frame partly below the fold (or scrolled out inside another frame) is scrolled by the document
// that holds its <iframe>, level by level up the chain, so the trusted click lands in the frame.

import type { Deadline } from '../common/index.js';
import type { Page } from '../page/index.js';

/** The margin kept around the point when a document scrolls it into view. */
const MARGIN_PX = 10;

/** Content-box origin of a frame's <iframe> in the viewport of the document that holds it. */
const OWNER_ORIGIN =
  'function () { const r = this.getBoundingClientRect(); const s = getComputedStyle(this); ' +
  'return { x: r.left + this.clientLeft + parseFloat(s.paddingLeft), y: r.top + this.clientTop + parseFloat(s.paddingTop), ' +
  'bx: this.clientLeft + parseFloat(s.paddingLeft), by: this.clientTop + parseFloat(s.paddingTop) }; }';

/**
 * `local` is a point in `frameId`'s own viewport. Each owner <iframe> up the chain is asked to show
 * the point (DOM.scrollIntoViewIfNeeded with a rect: no scroll when it is already visible), and the
 * point is carried into the parent's viewport; the result is in the top viewport.
 */
export async function revealFramePoint(
  page: Page,
  frameId: string,
  local: { x: number; y: number },
  deadline: Deadline,
): Promise<{ x: number; y: number }> {
  const frames = await page.guard(page.frames.list(deadline));
  let pt = { ...local };
  for (
    let f = frames.find((i) => i.frameId === frameId);
    f?.parentId;
    f = frames.find((i) => i.frameId === f!.parentId)
  ) {
    const { session } = await page.guard(page.frames.target(f.parentId, deadline));
    const send = <T>(p: Promise<T>, what: string): Promise<T> => page.guard(deadline.race(p, what));
    const { backendNodeId } = await send(
      session.send('DOM.getFrameOwner', { frameId: f.frameId }),
      "the frame's <iframe>",
    );
    const { object } = await send(session.send('DOM.resolveNode', { backendNodeId }), "the frame's <iframe>");
    const origin = async (): Promise<{ x: number; y: number; bx: number; by: number }> =>
      (
        await send(
          session.send('Runtime.callFunctionOn', {
            objectId: object.objectId!,
            returnByValue: true,
            functionDeclaration: OWNER_ORIGIN,
          }),
          "the frame's position",
        )
      ).result.value as { x: number; y: number; bx: number; by: number };
    const o = await origin();
    // The rect is relative to the <iframe>'s border box.
    const rect = {
      x: Math.max(0, pt.x + o.bx - MARGIN_PX),
      y: Math.max(0, pt.y + o.by - MARGIN_PX),
      width: 2 * MARGIN_PX,
      height: 2 * MARGIN_PX,
    };
    await send(session.send('DOM.scrollIntoViewIfNeeded', { backendNodeId, rect }), 'the frame to scroll into view');
    const after = await origin();
    pt = { x: after.x + pt.x, y: after.y + pt.y };
  }
  return pt;
}
