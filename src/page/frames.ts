// Frames of one tab (SPEC §13): the execution context of every frame, same-process frames from
// the page's frame tree and out-of-process (cross-origin) frames through their own flat sessions
// (Target.setAutoAttach), the frame steps run in, and where a frame sits in the top viewport.

import { ExecutionError, type Deadline } from '../common/index.js';
import type { CdpSession, Connection, Protocol } from '../cdp/index.js';
import type { IsolatedWorlds } from './worlds.js';

/** The property our world sets on a cross-origin frame's <iframe> (injected/aria-snapshot.ts reads it). */
const FRAME_TAG = '__cdpSkillFrameId';

export interface FrameInfo {
  frameId: string;
  url: string;
  name?: string;
  parentId?: string;
  depth: number;
  crossOrigin?: true;
}

/** Where a frame's code runs: its session (the tab's, or an out-of-process frame's) and context. */
export interface FrameTarget {
  frameId: string;
  session: CdpSession;
  /** The default context of a same-process child frame; undefined = the session's main frame. */
  contextId?: number;
  url: string;
  crossOrigin: boolean;
}

interface ChildTarget {
  session: CdpSession;
  frameId: string;
  parentFrameId?: string;
  url: string;
}

const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

/**
 * A frame's origin: Chrome's `securityOrigin`, but an `about:srcdoc` or `about:blank` frame, which
 * Chrome reports as "://", has its parent's (TinyMCE's editor is such a frame: same-origin).
 */
const frameOrigin = (f: Protocol.Page.Frame, parentOrigin?: string): string =>
  f.securityOrigin && f.securityOrigin !== '://'
    ? f.securityOrigin
    : f.url.startsWith('about:') && parentOrigin
      ? parentOrigin
      : originOf(f.url);

/** Tracks default execution contexts per (session, frame); install before Runtime.enable. */
export class FrameContexts {
  readonly #contexts = new Map<string, number>();

  track(session: CdpSession): void {
    const key = (frameId: string): string => `${session.id ?? ''}|${frameId}`;
    session.on('Runtime.executionContextCreated', (e) => {
      const aux = e.context.auxData as { frameId?: string; isDefault?: boolean } | undefined;
      if (aux?.frameId && aux.isDefault) this.#contexts.set(key(aux.frameId), e.context.id);
    });
    session.on('Runtime.executionContextDestroyed', (e) => {
      for (const [k, id] of this.#contexts)
        if (id === e.executionContextId && k.startsWith(`${session.id ?? ''}|`)) this.#contexts.delete(k);
    });
    session.on('Runtime.executionContextsCleared', () => {
      for (const k of [...this.#contexts.keys()]) if (k.startsWith(`${session.id ?? ''}|`)) this.#contexts.delete(k);
    });
  }

  get(session: CdpSession, frameId: string): number | undefined {
    return this.#contexts.get(`${session.id ?? ''}|${frameId}`);
  }
}

export class Frames {
  readonly #conn: Connection;
  readonly #top: CdpSession;
  readonly #contexts: FrameContexts;
  readonly #worlds: IsolatedWorlds;
  readonly #children = new Map<string, ChildTarget>();
  #attached: Promise<void> | undefined;

  constructor(conn: Connection, top: CdpSession, contexts: FrameContexts, worlds: IsolatedWorlds) {
    this.#conn = conn;
    this.#worlds = worlds;
    this.#top = top;
    this.#contexts = contexts;
  }

  /** Attaches to out-of-process frames (once per command), recursively, each with Runtime enabled. */
  attachChildren(deadline: Deadline): Promise<void> {
    this.#attached ??= deadline.race(this.#autoAttach(this.#top), 'the frames of the page to attach');
    return this.#attached;
  }

  async #autoAttach(parent: CdpSession): Promise<void> {
    const found: Protocol.Target.AttachedToTargetEvent[] = [];
    const off = parent.on('Target.attachedToTarget', (e) => {
      if (e.targetInfo.type === 'iframe') found.push(e);
    });
    try {
      await parent.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true });
    } finally {
      off();
    }
    await Promise.all(
      found.map(async (e) => {
        const session = this.#conn.session(e.sessionId);
        this.#contexts.track(session);
        const info = e.targetInfo as Protocol.Target.TargetInfo & { parentFrameId?: string };
        this.#children.set(e.targetInfo.targetId, {
          session,
          frameId: e.targetInfo.targetId,
          parentFrameId: info.parentFrameId,
          url: e.targetInfo.url,
        });
        await Promise.all([session.send('Runtime.enable'), session.send('Page.enable')]);
        await this.#autoAttach(session);
      }),
    );
  }

  /** Every frame: the tab's frame tree, then each out-of-process frame's tree under its owner. */
  async list(deadline: Deadline): Promise<FrameInfo[]> {
    await this.attachChildren(deadline);
    const out: FrameInfo[] = [];
    const topOrigin = frameOrigin((await this.#top.send('Page.getFrameTree')).frameTree.frame);
    const add = (node: Protocol.Page.FrameTree, depth: number, parentId?: string, parentOrigin?: string): void => {
      const f = node.frame;
      const origin = frameOrigin(f, parentOrigin);
      out.push({
        frameId: f.id,
        url: f.url + (f.urlFragment ?? ''),
        depth,
        ...(f.name ? { name: f.name } : {}),
        ...(parentId ? { parentId } : {}),
        ...(depth > 0 && origin !== topOrigin ? { crossOrigin: true as const } : {}),
      });
      for (const c of node.childFrames ?? []) add(c, depth + 1, f.id, origin);
    };
    add((await this.#top.send('Page.getFrameTree')).frameTree, 0);
    for (const child of this.#children.values()) {
      // A child session can go with its frame (a goto just replaced the document): it has no frames now.
      const tree = await child.session.send('Page.getFrameTree').then(
        (r) => r.frameTree,
        () => undefined,
      );
      if (!tree) continue;
      const parent = out.find((f) => f.frameId === child.parentFrameId);
      add(tree, (parent?.depth ?? 0) + 1, child.parentFrameId);
    }
    return out;
  }

  /** Where code for `frameId` runs. */
  async target(frameId: string, deadline: Deadline): Promise<FrameTarget> {
    const topTree = (await this.#top.send('Page.getFrameTree')).frameTree;
    const topUrl = topTree.frame.url;
    if (frameId === topTree.frame.id) return { frameId, session: this.#top, url: topUrl, crossOrigin: false };
    const topOrigin = frameOrigin(topTree.frame);
    // The frame with its origin (an about: frame's is its parent's).
    const findIn = (
      node: Protocol.Page.FrameTree,
      parentOrigin?: string,
    ): [Protocol.Page.Frame, string] | undefined => {
      const origin = frameOrigin(node.frame, parentOrigin);
      if (node.frame.id === frameId) return [node.frame, origin];
      for (const c of node.childFrames ?? []) {
        const found = findIn(c, origin);
        if (found) return found;
      }
      return undefined;
    };
    const local = findIn(topTree);
    if (local) return this.#inSession(this.#top, frameId, local[0].url, local[1] !== topOrigin);
    await this.attachChildren(deadline);
    const child = this.#children.get(frameId);
    if (child)
      return { frameId, session: child.session, url: child.url, crossOrigin: originOf(child.url) !== originOf(topUrl) };
    for (const c of this.#children.values()) {
      const tree = await c.session.send('Page.getFrameTree').then(
        (r) => r.frameTree,
        () => undefined,
      );
      const nested = tree && findIn(tree);
      if (nested) return this.#inSession(c.session, frameId, nested[0].url, nested[1] !== topOrigin);
    }
    throw new ExecutionError(
      `No frame ${frameId} in this tab (it was removed or the page navigated). List frames with {"frame": {"list": true}}.`,
      { category: 'frame' },
    );
  }

  /** The context code for `t` runs in now (a frame that navigated has a new one). */
  contextOf(t: FrameTarget): number | undefined {
    return t.contextId === undefined ? undefined : (this.#contexts.get(t.session, t.frameId) ?? t.contextId);
  }

  #inSession(session: CdpSession, frameId: string, url: string, crossOrigin: boolean): FrameTarget {
    const contextId = this.#contexts.get(session, frameId);
    if (contextId === undefined)
      throw new ExecutionError(`Frame ${frameId} has no document yet (it is still loading); retry in a moment.`, {
        category: 'frame',
      });
    return { frameId, session, contextId, url, crossOrigin };
  }

  /**
   * Marks the <iframe> of every child frame, in our world of the document that holds it, with
   * the frame's id (a property only our world sees): the snapshot then leaves a slot naming the
   * frame (injected/aria-snapshot.ts walkFrame) for its content. A frame that went is left unmarked.
   */
  async tagOwners(deadline: Deadline): Promise<number> {
    // Every child frame: a sandboxed frame of the same URL is unreadable too (the tag is read only then).
    const frames = (await this.list(deadline)).filter((f) => f.parentId);
    let tagged = 0;
    await Promise.all(
      frames.map(async (f) => {
        try {
          const { session } = await this.target(f.parentId!, deadline);
          const send = <T>(p: Promise<T>): Promise<T> => deadline.race(p, "a cross-origin frame's <iframe>");
          const { backendNodeId } = await send(session.send('DOM.getFrameOwner', { frameId: f.frameId }));
          const executionContextId = await this.#worlds.contextId({ session, frameId: f.parentId! }, deadline);
          const { object } = await send(session.send('DOM.resolveNode', { backendNodeId, executionContextId }));
          await send(
            session.send('Runtime.callFunctionOn', {
              objectId: object.objectId!,
              functionDeclaration: `function (id) { this.${FRAME_TAG} = id; }`,
              arguments: [{ value: f.frameId }],
            }),
          );
          tagged++;
        } catch {
          // Gone or not answering: its slot stays unnamed and is left out.
        }
      }),
    );
    return tagged;
  }

  /** Top-viewport offset of `frameId`'s content box: the boxes of its <iframe> owners, summed up the chain. */
  async offset(frameId: string, deadline: Deadline): Promise<{ x: number; y: number }> {
    const frames = await this.list(deadline);
    let x = 0;
    let y = 0;
    for (
      let f = frames.find((i) => i.frameId === frameId);
      f?.parentId;
      f = frames.find((i) => i.frameId === f!.parentId)
    ) {
      const { session } = await this.target(f.parentId, deadline);
      const { backendNodeId } = await session.send('DOM.getFrameOwner', { frameId: f.frameId });
      // Read in our isolated world: the page's getBoundingClientRect may lie about where its frame is.
      const executionContextId = await this.#worlds.contextId({ session, frameId: f.parentId }, deadline);
      const { object } = await session.send('DOM.resolveNode', { backendNodeId, executionContextId });
      const box = await session.send('Runtime.callFunctionOn', {
        objectId: object.objectId!,
        returnByValue: true,
        functionDeclaration:
          'function () { const r = this.getBoundingClientRect(); const s = getComputedStyle(this); ' +
          'return { x: r.left + this.clientLeft + parseFloat(s.paddingLeft), y: r.top + this.clientTop + parseFloat(s.paddingTop) }; }',
      });
      const v = box.result.value as { x: number; y: number };
      x += v.x;
      y += v.y;
    }
    return { x, y };
  }
}
