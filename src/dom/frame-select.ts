// Choosing the frame steps run in (SPEC §13.2): by its <iframe> element (selector, index, name) in
// the current frame, or by frame id; cross-origin frames included, through their own session.

import { ElementNotFoundError, ExecutionError, type Deadline } from '../common/index.js';
import type { FrameTarget, Scope } from '../page/index.js';
import type { Protocol } from '../cdp/index.js';
import { locate, type RefHolder, type TargetSpec } from './locate.js';

export type FrameChoice = { target: TargetSpec } | { index: number } | { name: string } | { frameId: string };

async function frameIdOfOwner(scope: Scope, handle: number, desc: string, deadline: Deadline): Promise<string> {
  const objectId = await scope.heldElementObjectId(handle, deadline);
  const { node } = await scope.page.guard(
    deadline.race(scope.session.send('DOM.describeNode', { objectId }), 'the frame element'),
  );
  const frameId = (node as Protocol.DOM.Node & { frameId?: string }).frameId;
  if (!frameId)
    throw new ExecutionError(`${desc} is not an <iframe> or <frame> (or has no document yet)`, { category: 'frame' });
  return frameId;
}

export async function chooseFrame(
  scope: Scope,
  choice: FrameChoice,
  refs: RefHolder,
  deadline: Deadline,
): Promise<FrameTarget> {
  if ('frameId' in choice) return scope.page.guard(scope.page.frames.target(choice.frameId, deadline));
  let handle: number;
  let desc: string;
  if ('target' in choice) {
    ({ handle, desc } = await locate(scope, choice.target, refs, {}, deadline));
  } else {
    const r = await scope.call(
      (rt, a) => rt.locate.holdFrameOwner(a.index, a.name),
      { index: 'index' in choice ? choice.index : undefined, name: 'name' in choice ? choice.name : undefined },
      { deadline, what: 'the frame element' },
    );
    if (!r.ok && 'name' in choice) return frameByName(scope, choice.name, r.count, deadline);
    if (!r.ok) {
      const which = 'index' in choice ? `index ${choice.index}` : `name "${choice.name}"`;
      throw new ElementNotFoundError(
        `No frame with ${which} here (this document has ${r.count} frame${r.count === 1 ? '' : 's'}); list them with {"frame": {"list": true}}`,
        { category: 'frame' },
      );
    }
    ({ handle, desc } = r);
  }
  const frameId = await frameIdOfOwner(scope, handle, desc, deadline);
  return scope.page.guard(scope.page.frames.target(frameId, deadline));
}

/**
 * A frame named `name` anywhere in the tab's frame tree (grandchildren, frames inside cross-origin
 * frames): the one below the current frame first. Not found: the names there are, with the frameId
 * of the closest as the next step.
 */
async function frameByName(scope: Scope, name: string, here: number, deadline: Deadline): Promise<FrameTarget> {
  const frames = await scope.page.guard(scope.page.frames.list(deadline));
  const named = frames.filter((f) => f.name === name);
  const current = scope.frame?.frameId;
  const below = (id: string | undefined): boolean => {
    for (let f = frames.find((i) => i.frameId === id); f; f = frames.find((i) => i.frameId === f!.parentId))
      if (f.frameId === current) return true;
    return false;
  };
  const hit = named.find((f) => current === undefined || below(f.frameId)) ?? named[0];
  if (hit) return scope.page.guard(scope.page.frames.target(hit.frameId, deadline));
  const names = frames.filter((f) => f.name).map((f) => ({ name: f.name!, frameId: f.frameId }));
  const close = names.find(
    (f) => f.name.toLowerCase().includes(name.toLowerCase()) || name.toLowerCase().includes(f.name.toLowerCase()),
  );
  const listed = names
    .slice(0, 10)
    .map((f) => `"${f.name}"`)
    .join(', ');
  throw new ElementNotFoundError(
    `No frame named "${name}" in this tab (this document has ${here} frame${here === 1 ? '' : 's'}; named frames: ${listed || 'none'})`,
    { category: 'frame', ...(close ? { nextStep: { frame: { frameId: close.frameId } } } : {}) },
  );
}

const FRAME_SEARCH_INTERVAL_MS = 100;

/**
 * Cross-frame search (SPEC §13.3): the scope of the frame where `target` is, trying `scope`'s frame
 * first and then every other frame, round after round until `timeoutMs`.
 */
export async function findFrameWith(
  scope: Scope,
  target: TargetSpec,
  refs: RefHolder,
  timeoutMs: number,
  deadline: Deadline,
): Promise<Scope | undefined> {
  const original = scope.frame;
  const until = deadline.cap(timeoutMs);
  while (true) {
    const frames = await scope.page.guard(scope.page.frames.list(deadline));
    const order = [
      original?.frameId ?? frames[0]!.frameId,
      ...frames.map((f) => f.frameId).filter((id) => id !== (original?.frameId ?? frames[0]!.frameId)),
    ];
    for (const frameId of order) {
      let where: FrameTarget | undefined;
      try {
        where = frameId === frames[0]!.frameId ? undefined : await scope.page.frames.target(frameId, deadline);
      } catch {
        continue; // a frame still loading or just removed
      }
      try {
        const there = scope.at(where);
        await locate(there, target, refs, { timeoutMs: 0 }, deadline);
        return there;
      } catch (err) {
        if (!(err instanceof ElementNotFoundError)) throw err;
      }
    }
    if (until.expired()) return undefined;
    await until.sleep(FRAME_SEARCH_INTERVAL_MS);
  }
}
