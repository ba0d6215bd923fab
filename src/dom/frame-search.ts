// Finding frames by their <iframe> elements across the tab's frame tree: a target in whichever
// frame holds it (SPEC §13.3, click's searchFrames), the frame an <iframe> element shows, and a
// chain of <iframe> selectors, one per level, each looked for inside the frame before it.

import { ElementNotFoundError, ExecutionError, TimeoutError, type Deadline } from '../common/index.js';
import type { FrameTarget, Scope } from '../page/index.js';
import type { Protocol } from '../cdp/index.js';
import { DEFAULT_ACTION_TIMEOUT_MS, locate, type Located, type RefHolder, type TargetSpec } from './locate.js';

const FRAME_SEARCH_INTERVAL_MS = 100;
/** Time kept back from the step's deadline so a search that finds nothing still ends in a precise error. */
const FINAL_LOOK_MS = 250;

/** The frame an <iframe> (or <frame>) element held in `scope` shows. */
export async function frameShownBy(scope: Scope, el: Located, deadline: Deadline): Promise<FrameTarget> {
  const objectId = await scope.heldElementObjectId(el.handle, deadline);
  const { node } = await scope.page.guard(
    deadline.race(scope.session.send('DOM.describeNode', { objectId }), 'the frame element'),
  );
  const frameId = (node as Protocol.DOM.Node & { frameId?: string }).frameId;
  if (!frameId)
    throw new ExecutionError(`${el.desc} is not an <iframe> or <frame> (or has no document yet)`, {
      category: 'frame',
    });
  return scope.page.guard(scope.page.frames.target(frameId, deadline));
}

/**
 * Cross-frame search (SPEC §13.3): where `target` is — the scope of the frame that holds it and the
 * element — trying `scope`'s frame first and then every other frame, round after round until `timeoutMs`.
 */
export async function findFrameWith(
  scope: Scope,
  target: TargetSpec,
  refs: RefHolder,
  timeoutMs: number,
  deadline: Deadline,
): Promise<{ scope: Scope; located: Located } | undefined> {
  const until = deadline.cap(timeoutMs);
  try {
    return await searchFrames(scope, target, refs, until);
  } catch (err) {
    // A round cut short by the search's own window (a loaded machine): not found, said as such.
    if (err instanceof TimeoutError && until.expired()) return undefined;
    throw err;
  }
}

/** findFrameWith's rounds, every call bounded by the search's window `until`. */
async function searchFrames(
  scope: Scope,
  target: TargetSpec,
  refs: RefHolder,
  until: Deadline,
): Promise<{ scope: Scope; located: Located } | undefined> {
  const original = scope.frame;
  while (true) {
    const frames = await scope.page.guard(scope.page.frames.list(until));
    const order = [
      original?.frameId ?? frames[0]!.frameId,
      ...frames.map((f) => f.frameId).filter((id) => id !== (original?.frameId ?? frames[0]!.frameId)),
    ];
    for (const frameId of order) {
      let where: FrameTarget | undefined;
      try {
        where = frameId === frames[0]!.frameId ? undefined : await scope.page.frames.target(frameId, until);
      } catch {
        continue; // a frame still loading or just removed
      }
      try {
        const there = scope.at(where);
        return { scope: there, located: await locate(there, target, refs, { timeoutMs: 0 }, until) };
      } catch (err) {
        if (!(err instanceof ElementNotFoundError)) throw err;
      }
    }
    if (until.expired()) return undefined;
    await until.sleep(FRAME_SEARCH_INTERVAL_MS);
  }
}

/** A frame reached by a chain of <iframe> selectors, and the document its first <iframe> was found in when not `scope`'s. */
export interface FrameByPath {
  target: FrameTarget;
  foundIn?: string;
}

/**
 * The frame `path` leads to (issue 22 item 10): its first selector is looked for in `scope`'s
 * document, then in every frame of the tab (a frame nested in another needs no chain); each next
 * one only inside the frame the one before it showed, same-origin or cross-origin alike.
 */
export async function framePath(
  scope: Scope,
  path: readonly string[],
  refs: RefHolder,
  deadline: Deadline,
): Promise<FrameByPath> {
  const [first, ...rest] = path;
  const started = Date.now();
  const windowMs = Math.min(DEFAULT_ACTION_TIMEOUT_MS, Math.max(0, deadline.remainingMs() - FINAL_LOOK_MS));
  const css = (selector: string): TargetSpec => ({ by: 'css', selector });
  const found = await findFrameWith(scope, css(first!), refs, windowMs, deadline);
  if (!found)
    throw new ElementNotFoundError(
      `No element matches "${first}" in this document or any frame of the tab (waited ${Date.now() - started}ms); ` +
        'list the frames with {"frame": {"list": true}}',
      { category: 'frame', target: { by: 'css', value: first } },
    );
  let target = await frameShownBy(found.scope, found.located, deadline);
  for (const [i, selector] of rest.entries()) {
    const inside = scope.at(target);
    let el: Located;
    const look = deadline.cap(Math.max(0, deadline.remainingMs() - FINAL_LOOK_MS));
    try {
      el = await locate(inside, css(selector), refs, { timeoutMs: look.remainingMs() }, look);
    } catch (err) {
      if (!(err instanceof ElementNotFoundError) && !(err instanceof TimeoutError && look.expired())) throw err;
      throw new ElementNotFoundError(
        `No element matches "${selector}" inside the frame ${JSON.stringify(path.slice(0, i + 1))} leads to (${inside.url}); ` +
          'list the frames with {"frame": {"list": true}}',
        { category: 'frame', target: { by: 'css', value: selector } },
      );
    }
    target = await frameShownBy(inside, el, deadline);
  }
  return { target, ...(found.scope.frameId !== scope.frameId ? { foundIn: found.scope.url } : {}) };
}
