// Choosing the frame steps run in (SPEC §13.2): by its <iframe> element (selector — looked for in
// the whole frame tree when not in the current frame — a chain of selectors, ref, index, name), or by
// frame id; cross-origin frames included, through their own session.

import { ElementNotFoundError, type Deadline } from '../common/index.js';
import type { FrameTarget, Scope } from '../page/index.js';
import { framePath, frameShownBy, type FrameByPath } from './frame-search.js';
import { locate, type Located, type RefHolder, type TargetSpec } from './locate.js';

export type FrameChoice =
  | { target: TargetSpec }
  | { path: string[] }
  | { index: number }
  | { name: string }
  | { frameId: string };

export async function chooseFrame(
  scope: Scope,
  choice: FrameChoice,
  refs: RefHolder,
  deadline: Deadline,
): Promise<FrameByPath> {
  if ('frameId' in choice)
    return { target: await scope.page.guard(scope.page.frames.target(choice.frameId, deadline)) };
  if ('path' in choice) return framePath(scope, choice.path, refs, deadline);
  if ('target' in choice && choice.target.by === 'css')
    return framePath(scope, [choice.target.selector], refs, deadline);
  let owner: Located;
  if ('target' in choice) {
    owner = await locate(scope, choice.target, refs, {}, deadline);
  } else {
    const r = await scope.call(
      (rt, a) => rt.locate.holdFrameOwner(a.index, a.name),
      { index: 'index' in choice ? choice.index : undefined, name: 'name' in choice ? choice.name : undefined },
      { deadline, what: 'the frame element' },
    );
    if (!r.ok && 'name' in choice) return { target: await frameByName(scope, choice.name, r.count, deadline) };
    if (!r.ok) {
      const which = 'index' in choice ? `index ${choice.index}` : `name "${choice.name}"`;
      throw new ElementNotFoundError(
        `No frame with ${which} here (this document has ${r.count} frame${r.count === 1 ? '' : 's'}); list them with {"frame": {"list": true}}`,
        { category: 'frame' },
      );
    }
    owner = { handle: r.handle, desc: r.desc, name: r.desc };
  }
  return { target: await frameShownBy(scope, owner, deadline) };
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
