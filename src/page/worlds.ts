// Our isolated world in each frame (Page.createIsolatedWorld under one fixed name): where the page
// runtime lives. It shares the DOM with the page but none of its JavaScript — not its globals, not
// its patched built-ins — so a page can neither see nor forge what our code reads. Chrome keeps the
// world for the document's life, across our sessions: a new session learns its context id from
// Runtime.enable, for free; a document without it gets it created once (idempotent per name).

import type { Deadline } from '../common/index.js';
import type { CdpSession } from '../cdp/index.js';

export const WORLD_NAME = 'cdp-skill';

/** A frame, by its session (the tab's, or an out-of-process frame's) and id. */
export interface FrameRef {
  session: CdpSession;
  frameId: string;
}

const keyOf = (session: CdpSession, frameId: string): string => `${session.id ?? ''}|${frameId}`;

export class IsolatedWorlds {
  readonly #ids = new Map<string, number | Promise<number>>();
  /** System-unique ids of the worlds Chrome reported (Runtime.evaluate's uniqueContextId), by frame. */
  readonly #uniqueIds = new Map<string, { id: number; uniqueId: string }>();
  readonly #tracked = new WeakSet<CdpSession>();

  /** Learns the world's context ids from the session's events; before Runtime.enable, to get the existing ones. */
  track(session: CdpSession): void {
    if (this.#tracked.has(session)) return;
    this.#tracked.add(session);
    const prefix = `${session.id ?? ''}|`;
    session.on('Runtime.executionContextCreated', (e) => {
      const aux = e.context.auxData as { frameId?: string } | undefined;
      if (e.context.name !== WORLD_NAME || !aux?.frameId) return;
      const key = keyOf(session, aux.frameId);
      this.#ids.set(key, e.context.id);
      if (e.context.uniqueId) this.#uniqueIds.set(key, { id: e.context.id, uniqueId: e.context.uniqueId });
    });
    session.on('Runtime.executionContextDestroyed', (e) => {
      for (const [k, id] of this.#ids) if (id === e.executionContextId && k.startsWith(prefix)) this.#ids.delete(k);
      for (const [k, u] of this.#uniqueIds)
        if (u.id === e.executionContextId && k.startsWith(prefix)) this.#uniqueIds.delete(k);
    });
    session.on('Runtime.executionContextsCleared', () => {
      for (const k of [...this.#ids.keys()]) if (k.startsWith(prefix)) this.#ids.delete(k);
      for (const k of [...this.#uniqueIds.keys()]) if (k.startsWith(prefix)) this.#uniqueIds.delete(k);
    });
  }

  /** The world's context in `frame`, created when the document has none yet. */
  contextId(frame: FrameRef, deadline: Deadline): Promise<number> {
    this.track(frame.session);
    const key = keyOf(frame.session, frame.frameId);
    const known = this.#ids.get(key);
    if (known !== undefined) return Promise.resolve(known);
    const created = deadline
      .race(
        frame.session.send('Page.createIsolatedWorld', {
          frameId: frame.frameId,
          worldName: WORLD_NAME,
          grantUniveralAccess: false,
        }),
        'our isolated world in the frame',
      )
      .then((r) => r.executionContextId);
    this.#ids.set(key, created); // concurrent calls share one creation
    created.then(
      (id) => {
        if (this.#ids.get(key) === created) this.#ids.set(key, id);
      },
      () => {
        if (this.#ids.get(key) === created) this.#ids.delete(key);
      },
    );
    return created;
  }

  /** The system-unique id of the world's context in `frame`, when Chrome reported it and it still lives. */
  uniqueIdOf(frame: FrameRef): string | undefined {
    const key = keyOf(frame.session, frame.frameId);
    const u = this.#uniqueIds.get(key);
    return u && this.#ids.get(key) === u.id ? u.uniqueId : undefined;
  }

  /** Drops a context id Chrome no longer knows (the document went before its event reached us). */
  forget(frame: FrameRef, contextId: number): void {
    const key = keyOf(frame.session, frame.frameId);
    if (this.#ids.get(key) === contextId) this.#ids.delete(key);
  }
}
